-- The warehouse: a star with fact_listing at its centre (GUIDE.md §3). Names are a contract.
-- Ids are 63-bit MD5 hashes of natural keys (transforms/ids.py): deterministic, never renumbered.
-- No FOREIGN KEY clauses: DuckDB would block the upserts; the blocking checks in checks.sql
-- prove referential integrity after every load instead.

CREATE TABLE IF NOT EXISTS dim_source_file (
    source_file_id  BIGINT PRIMARY KEY,
    path            VARCHAR NOT NULL,
    sha256          VARCHAR NOT NULL,
    format          VARCHAR NOT NULL,
    encoding        VARCHAR NOT NULL,
    size_bytes      BIGINT NOT NULL,
    mtime_ns        BIGINT,
    n_lines         BIGINT NOT NULL,
    n_separator_lines BIGINT NOT NULL,
    version         INTEGER NOT NULL,
    ingested_at     TIMESTAMPTZ NOT NULL,
    run_id          VARCHAR NOT NULL,
    n_listings      BIGINT NOT NULL,
    n_quarantined   BIGINT NOT NULL
);
COMMENT ON TABLE dim_source_file IS 'One ingested file version: a path with one content (sha256).';
COMMENT ON COLUMN dim_source_file.path IS 'Path relative to the ingest root, with / separators: the one of the file''s first version (found again at its location through another folder, a file keeps it).';
COMMENT ON COLUMN dim_source_file.format IS 'Detected digest format: listing, search or unknown (a file of digests joined end to end may hold both: the one found first).';
COMMENT ON COLUMN dim_source_file.encoding IS 'Detected encoding: utf-8, utf-8-sig, utf-16/utf-32 (BOM), utf-16-le/-be (no BOM), utf-8-lossy, windows-1252 (Latin-1 too), windows-1250/1251/1253, koi8-r, mac-roman, gb18030 (GBK too), shift_jis, euc-jp, euc-kr, big5, iso-2022-jp, utf-8+windows-1252 (mixed), unknown-8bit, binary, empty; +quoted-printable, +base64, +multipart, +html when an e-mail or HTML body was decoded (line numbers then refer to the decoded text); +mojibake-repaired when lines garbled by an earlier misreading (UTF-8 read as Windows-1252, Latin-1 or Windows-1251) were repaired.';
COMMENT ON COLUMN dim_source_file.n_separator_lines IS 'Blank and header lines outside any record (see digest audit).';
COMMENT ON COLUMN dim_source_file.version IS '1 for the first content seen at this path, 2 for the next, ... (a revert to an earlier content is a new version).';
COMMENT ON COLUMN dim_source_file.n_quarantined IS 'Spans of this file rejected into quarantine.';
-- Versions: a newer content at the same path supersedes the current one (existing warehouses:
-- every version stays current until its path's next version arrives).
ALTER TABLE dim_source_file ADD COLUMN IF NOT EXISTS is_current BOOLEAN DEFAULT true;
ALTER TABLE dim_source_file ADD COLUMN IF NOT EXISTS superseded_by_source_file_id BIGINT;
COMMENT ON COLUMN dim_source_file.is_current IS 'True for the version whose listings count (fact_listing); false once a newer version of the path was ingested, or its file was read again without it (a member gone from its archive, a plain file now packed, an archive now plain text; its listings are in fact_listing_history).';
COMMENT ON COLUMN dim_source_file.superseded_by_source_file_id IS 'The version that replaced this one (null when none did: a member gone from its archive, or a plain file now packed as several members).';
ALTER TABLE dim_source_file ADD COLUMN IF NOT EXISTS text_sha256 VARCHAR;
-- (versions stored before the column: their bytes' checksum, what decided "already ingested" then)
UPDATE dim_source_file SET text_sha256 = sha256 WHERE text_sha256 IS NULL;
COMMENT ON COLUMN dim_source_file.text_sha256 IS 'SHA-256 of the decoded text (UTF-8, LF line ends, no BOM) without the blanks and line ends after its last character: a copy of a file in other line ends or another encoding, with or without a final newline, is content already ingested. The sha256 of the bytes where the text is them (plain UTF-8 not ending in a blank or line end), where there is no text (or only blank lines) or bytes were unreadable, and for versions ingested before this column. Versions ingested before trailing line ends were left out hold the checksum of their text with them.';

CREATE TABLE IF NOT EXISTS skipped_file (
    run_id     VARCHAR NOT NULL,
    path       VARCHAR NOT NULL,
    reason     VARCHAR NOT NULL,
    sha256     VARCHAR,
    same_as_source_file_id BIGINT,
    PRIMARY KEY (run_id, path)
);
COMMENT ON TABLE skipped_file IS 'Files a run saw but did not ingest: content already ingested, vanished, unreadable.';
COMMENT ON COLUMN skipped_file.same_as_source_file_id IS 'For duplicate content: the file version that holds it.';

-- Abstracts are stored uncompressed (here and in paper_version): DuckDB's string compression
-- (DICT_FSST) made writing them the load's costliest statements (`python -m bench.compression`:
-- 300k abstracts 6.07 s, uncompressed 1.25 s, for 1.9x the bytes; 1M listings: merge_papers
-- 24.3 -> 12.5 s); the file grows ~1.4x at 100k distinct listings. Warehouses created before
-- keep their compression.
CREATE TABLE IF NOT EXISTS dim_paper (
    paper_id                BIGINT PRIMARY KEY,
    title                   VARCHAR,
    abstract                VARCHAR USING COMPRESSION uncompressed NOT NULL,
    authors                 VARCHAR[] NOT NULL,
    author_keys             VARCHAR[] NOT NULL,
    n_authors_shown         INTEGER NOT NULL,
    author_count            INTEGER,
    has_complete_listing    BOOLEAN NOT NULL,
    is_author_list_complete BOOLEAN NOT NULL,
    first_listed_on         DATE,
    last_listed_on          DATE,
    n_listings              INTEGER NOT NULL
);
COMMENT ON TABLE dim_paper IS 'One real paper after dedupe, merging what all its listings know.';
COMMENT ON COLUMN dim_paper.title IS 'Title of the most recent current listing that has one (ties: the longest); null if only seen on search pages.';
COMMENT ON COLUMN dim_paper.abstract IS 'Abstract of the most recent current listing (ties: the longest).';
COMMENT ON COLUMN dim_paper.authors IS 'The longest author list seen, in order, as shown.';
COMMENT ON COLUMN dim_paper.author_count IS 'Declared total number of authors when known ("and 3 more" or a full list).';
COMMENT ON COLUMN dim_paper.is_author_list_complete IS 'True when the shown names are all the authors.';
COMMENT ON COLUMN dim_paper.first_listed_on IS 'Earliest listing date (listing format only).';

CREATE TABLE IF NOT EXISTS paper_key_map (
    paper_key BIGINT PRIMARY KEY,
    paper_id  BIGINT NOT NULL
);
COMMENT ON TABLE paper_key_map IS 'Matcher key (hash of the folded abstract, folded title, first author''s surname, and every author key when the abstract is boilerplate) to paper: several keys may name one paper.';

CREATE TABLE IF NOT EXISTS paper_signature (
    paper_key BIGINT NOT NULL,
    band      SMALLINT NOT NULL,
    bucket    BIGINT NOT NULL
);
COMMENT ON TABLE paper_signature IS 'Blocking keys of every matcher key (transforms/resolve.py): new papers find their candidates by joining on (band, bucket), so old papers are never re-read.';
COMMENT ON COLUMN paper_signature.band IS '0..19: MinHash LSH bands (3 rows each, word 3-shingles of the match text); 20: the first 8 words; 21: the last 8 words (20 and 21 twice for a list of two or more: salted with the first and with the second author); 22: a long abstract''s whole signature, unsalted; 23 / 24: the folded title salted with the first author''s surname, of a short abstract (fewer than 25 words) / of a long one.';
COMMENT ON COLUMN paper_signature.bucket IS 'Hash of the band values salted with the first author''s surname token; fixed seed and hashes, stable across runs.';

CREATE TABLE IF NOT EXISTS signature_scheme (
    scheme VARCHAR NOT NULL
);
COMMENT ON TABLE signature_scheme IS 'How the block keys of paper_signature were made (transforms.resolve.SIGNATURE_SCHEME, one row): keys made another way are all signed again, from paper_version, before a run matches against them.';

CREATE TABLE IF NOT EXISTS paper_match (
    paper_key        BIGINT NOT NULL,
    paper_id         BIGINT NOT NULL,
    matched_key      BIGINT NOT NULL,
    matched_paper_id BIGINT,
    score            DOUBLE NOT NULL,
    features         JSON NOT NULL,
    rule             VARCHAR NOT NULL,
    is_merge         BOOLEAN NOT NULL,
    run_id           VARCHAR,
    PRIMARY KEY (paper_key, matched_key)
);
COMMENT ON TABLE paper_match IS 'Every near-duplicate decision: a new matcher key scored against a candidate (another new key, or a stored paper), merged or not, and why.';
COMMENT ON COLUMN paper_match.paper_id IS 'The paper the new key was mapped to.';
COMMENT ON COLUMN paper_match.matched_key IS 'The candidate key (for a stored paper: one of its keys).';
COMMENT ON COLUMN paper_match.matched_paper_id IS 'The stored paper compared with; null when the candidate was a key of the same run.';
COMMENT ON COLUMN paper_match.features IS 'shingle_jaccard and shingle_containment (shared word 3-shingles of the match texts, of all / of the shorter text''s), abstract_ratio (rapidfuzz Indel similarity of the match texts'' words), title_ratio (null without two titles), author_agreement (share of commonly shown positions that agree; 1 when one list shows every name of the other that both can show, in order, an author added or dropped; for one long abstract word for word under one title, the share of the shorter list''s names found in the other, or of the positions with first names spelled alike).';
COMMENT ON COLUMN paper_match.rule IS 'abstract / abstract_contained (merged); below_threshold, authors_differ, titles_differ (not close; or, at any score, other numbers: Part I / Part II, or a word negated), boilerplate_abstract (a short abstract without two agreeing titles, nor the same text with the same authors) (kept apart); kept_apart_existing (would have merged two stored papers), kept_apart_rejected_pair (would have put two papers the scorer kept apart in one cluster), kept_apart_ambiguous (the key fits, about equally well, two papers rejected as distinct for their titles or authors, or two stored papers: it joins neither; or a short abstract fits two papers of its title and authors); notice_abstract (merged: a short abstract, a withdrawal notice, under the same folded title and the same authors, strictly, whatever the score).';

CREATE TABLE IF NOT EXISTS resolve_capped_block (
    run_id    VARCHAR,
    band      SMALLINT NOT NULL,
    bucket    BIGINT NOT NULL,
    n_members BIGINT NOT NULL,
    n_pairs   BIGINT NOT NULL
);
COMMENT ON TABLE resolve_capped_block IS 'Blocks of the resolver too large to pair every member (more than resolve.MAX_BLOCK papers share a band bucket: one author''s template, a boilerplate abstract): each member was compared with its nearest neighbours in text order only, so candidate generation stays bounded per paper.';
COMMENT ON COLUMN paper_match.score IS 'Weighted score (text 0.7, authors 0.15, title 0.15; without titles text and authors only) compared with the match_threshold setting.';

-- fact_listing, dim_author, author_name_variant, bridge_paper_author, author_mention and
-- author_person have no PRIMARY KEY: DuckDB rewrites a table's whole ART index at every checkpoint
-- that changes the table, so their indexes (~280 MB at 1M listings, ~2.3x that at 1M distinct
-- papers) were written again by every run, however small, and cost ~12 s to build in a first load
-- of 1M. Their writes never rely on a key (anti-joins, delete-then-insert, update-then-insert);
-- their uniqueness is a blocking check each (schemas/checks.sql). Warehouses created before keep
-- their keys, and work the same.
CREATE TABLE IF NOT EXISTS fact_listing (
    listing_id      BIGINT NOT NULL,
    paper_id        BIGINT NOT NULL,
    source_file_id  BIGINT NOT NULL,
    position        INTEGER NOT NULL,
    rank            INTEGER,
    listed_on       DATE,
    category_id     BIGINT,
    line_start      INTEGER NOT NULL,
    line_end        INTEGER NOT NULL,
    format          VARCHAR NOT NULL,
    listed_code     VARCHAR,
    paper_key       BIGINT NOT NULL,
    n_authors_shown INTEGER NOT NULL,
    author_total    INTEGER,
    is_truncated    BOOLEAN NOT NULL
);
COMMENT ON TABLE fact_listing IS 'One appearance of a paper in one file, with its lineage (file and lines).';
COMMENT ON COLUMN fact_listing.position IS '1-based order of the record in its file.';
COMMENT ON COLUMN fact_listing.rank IS 'The #NN of a listing-format record; null for search pages.';
COMMENT ON COLUMN fact_listing.listed_on IS 'Listing date (listing format); null for search pages.';
COMMENT ON COLUMN fact_listing.listed_code IS 'Category as written in the file, before alias resolution.';
ALTER TABLE fact_listing ADD COLUMN IF NOT EXISTS secondary_category_ids BIGINT[];
COMMENT ON COLUMN fact_listing.secondary_category_ids IS 'Cross-listed categories after the primary ("cs.LG; stat.ML": stat.ML), bridged like the primary.';
COMMENT ON COLUMN fact_listing.author_total IS 'Author total this listing declares; null when it says only "等" (et al.).';

-- A file version's listings leave fact_listing when a newer version of its path arrives: they
-- are kept here, as history (what version 1 said), with the version that replaced them.
CREATE TABLE IF NOT EXISTS fact_listing_history AS SELECT * FROM fact_listing WITH NO DATA;
ALTER TABLE fact_listing_history ADD COLUMN IF NOT EXISTS superseded_by_source_file_id BIGINT;
ALTER TABLE fact_listing_history ADD COLUMN IF NOT EXISTS superseded_run_id VARCHAR;
COMMENT ON TABLE fact_listing_history IS 'Listings of superseded file versions (a newer version of the same path was ingested): no longer counted, kept as lineage.';

-- The fullest version of each matcher key (what its listings show): a paper's title and abstract
-- come from its most recent current listing that has one, so they are recomputed from these.
CREATE TABLE IF NOT EXISTS paper_version (
    paper_key            BIGINT PRIMARY KEY,
    title                VARCHAR,
    abstract             VARCHAR USING COMPRESSION uncompressed NOT NULL,
    authors              VARCHAR[] NOT NULL,
    author_keys          VARCHAR[] NOT NULL,
    author_total         INTEGER,
    has_complete_listing BOOLEAN NOT NULL
);
COMMENT ON TABLE paper_version IS 'The fullest text each matcher key was seen with (longest title, abstract and author list of its listings); dim_paper is recomputed from the versions of its current listings.';

-- Names are stored uncompressed here and in author_name_variant and author_mention: DICT_FSST's
-- analysis made writing them 3-4x slower (`python -m bench.compression W --table dim_author
-- --columns name,name_key --rows 0` on a 1M distinct load: 1.60 -> 0.45 s, 44 -> 87 MB; the three
-- tables 3.5 s for ~140 MB). author_person keeps it (1.2 s for 117 MB; no faster in the flow).
CREATE TABLE IF NOT EXISTS dim_author (  -- no PRIMARY KEY: see fact_listing
    author_id BIGINT NOT NULL,
    name      VARCHAR USING COMPRESSION uncompressed NOT NULL,
    name_key  VARCHAR USING COMPRESSION uncompressed NOT NULL,
    n_papers  INTEGER NOT NULL
);
COMMENT ON TABLE dim_author IS 'One person, as best known (transforms.persons): several persons may wear one name_key (namesakes, split on evidence: author_mention says why); each shows the best spelling its own mentions show (schemas/merge/30_authors.sql).';
COMMENT ON COLUMN dim_author.name IS 'Best display form of the spellings its papers show at its places (never an inner capital only a namesake wrote): mixed case over CAPITALS, a word in one case taking its name''s case, accents kept.';
COMMENT ON COLUMN dim_author.name_key IS 'The name the person wears (no accents, case or punctuation); several persons may share it. Other keys of the name are in author_alias.';

CREATE TABLE IF NOT EXISTS author_name_variant (
    name_key     VARCHAR USING COMPRESSION uncompressed NOT NULL,
    name         VARCHAR USING COMPRESSION uncompressed NOT NULL,
    display_rank INTEGER NOT NULL  -- one row per (name_key, name); no PRIMARY KEY: see fact_listing
);
COMMENT ON TABLE author_name_variant IS 'Every spelling seen for a name_key; dim_author.name is the best ranked.';

CREATE TABLE IF NOT EXISTS author_alias (
    name_key  VARCHAR PRIMARY KEY,
    author_id BIGINT NOT NULL,
    rule      VARCHAR NOT NULL,
    run_id    VARCHAR
);
ALTER TABLE author_alias ADD COLUMN IF NOT EXISTS to_name_key VARCHAR;
-- Warehouses from before persons: the key is the one of the author row the alias points at.
UPDATE author_alias SET to_name_key = d.name_key FROM dim_author d
WHERE author_alias.to_name_key IS NULL AND d.author_id = author_alias.author_id;
COMMENT ON COLUMN author_alias.to_name_key IS 'The name key the alias stands for: its mentions are decided among the persons of this key.';
COMMENT ON TABLE author_alias IS 'Name keys that name a person whose id was made from another key ("r munos" → the author of "remi munos"); a key not listed here is its own person, stable_id(name_key).';
COMMENT ON COLUMN author_alias.rule IS 'initials (same surname, given names as initials, one full name fits) or spacing (same letters, spaces differ); seen at the same position of the same paper.';

CREATE TABLE IF NOT EXISTS bridge_paper_author (
    paper_id        BIGINT NOT NULL,
    author_id       BIGINT NOT NULL,
    author_position INTEGER NOT NULL  -- one row per (paper_id, author_position) and per (paper_id, author_id); no PRIMARY KEY: see fact_listing
);
COMMENT ON TABLE bridge_paper_author IS 'Paper × author, in author order (1-based), from dim_paper.authors: each shown name''s person (author_mention), one row per shown place (n_authors_shown rows a paper). A person holds one place of a list: a name shown twice on one list ("Jiachen Guo, …, Jiachen Guo") is two persons, common or rare.';

CREATE TABLE IF NOT EXISTS author_mention (
    paper_id         BIGINT NOT NULL,
    author_position  INTEGER NOT NULL,
    mention_key      VARCHAR USING COMPRESSION uncompressed NOT NULL,
    name_key         VARCHAR USING COMPRESSION uncompressed NOT NULL,
    author_id        BIGINT NOT NULL,
    decided_id       BIGINT NOT NULL,
    rule             VARCHAR NOT NULL,
    score            DOUBLE,
    name_lambda      DOUBLE,
    prior            DOUBLE,
    n_persons        INTEGER,
    n_candidates     INTEGER,
    candidates       BIGINT[],
    candidate_scores DOUBLE[],
    coauthors_shared INTEGER,
    category_level   VARCHAR,
    words_shared     INTEGER,
    years_apart      INTEGER,
    run_id           VARCHAR  -- one row per (paper_id, author_position); no PRIMARY KEY: see fact_listing
);
COMMENT ON TABLE author_mention IS 'Every shown author of every paper and the decision that made it a person (transforms.persons): the name key, the candidates scored, their scores, the features of the best one and the rule.';
COMMENT ON COLUMN author_mention.mention_key IS 'The name key as shown; name_key is the key it stands for after author_alias.';
COMMENT ON COLUMN author_mention.author_id IS 'The person (dim_author), after person_alias; decided_id is the person the decision chose.';
COMMENT ON COLUMN author_mention.rule IS 'rare_name (a rare name is one person), repeat_name (a rare name''s later place on one list: a person of its own), joined (the best person scored at least the split threshold), joined_merged (two persons did: they are one, person_alias), new_person (none did), one_name_one_person (decided before persons existed).';
COMMENT ON COLUMN author_mention.name_lambda IS 'How common the name is: expected other wearers among 100,000 distinct names (given-name x surname frequencies over the warehouse).';
COMMENT ON COLUMN author_mention.candidates IS 'The persons scored (dim_author ids), in the order of candidate_scores.';
COMMENT ON COLUMN author_mention.category_level IS 'Against the chosen person: same (a category shared), parent (an arXiv archive or a conference area shared), different (arXiv categories of other archives), other_area (conference areas, none shared), none_known (either side shows no category, or one arXiv and one conference; null where no person was compared).';

CREATE TABLE IF NOT EXISTS author_person (  -- no PRIMARY KEY: see fact_listing
    author_id   BIGINT NOT NULL,
    name_key    VARCHAR USING COMPRESSION uncompressed NOT NULL,
    founded_key VARCHAR USING COMPRESSION uncompressed,
    first_on    DATE,
    last_on     DATE,
    n_mentions  BIGINT,
    paper_ids   BIGINT[],
    coauthors   VARCHAR[],
    categories  VARCHAR[],
    words       VARCHAR[]
);
-- A name's given name and surname (first and last word), for name statistics without a scan.
ALTER TABLE author_person ADD COLUMN IF NOT EXISTS given VARCHAR USING COMPRESSION uncompressed;
ALTER TABLE author_person ADD COLUMN IF NOT EXISTS surname VARCHAR USING COMPRESSION uncompressed;
ALTER TABLE author_person ADD COLUMN IF NOT EXISTS name_lambda DOUBLE;
ALTER TABLE author_person ADD COLUMN IF NOT EXISTS first_of_name BOOLEAN;
-- Null on rows an older release wrote: the person step then looks for a person at two places of one
-- list (resolve/person_mentions.sql) once, and sets it.
ALTER TABLE author_person ADD COLUMN IF NOT EXISTS is_repeat BOOLEAN;
ALTER TABLE author_person ALTER COLUMN is_repeat SET DEFAULT false;
COMMENT ON COLUMN author_person.is_repeat IS 'A person founded by a later place of a rare name on one author list ("Jiachen Guo, ..., Jiachen Guo": the first place is the name''s person, each later one a person of its own, rule repeat_name); not counted among its name''s persons by the rare/common rule.';
COMMENT ON COLUMN author_person.first_of_name IS 'One row per name key is marked (its first person, or another of its persons when that one is gone): name statistics count names by it, without a DISTINCT over every person.';
COMMENT ON COLUMN author_person.name_lambda IS 'How common the name was when its mentions were last decided (author_mention.name_lambda); every run re-checks each stored name against the rare/common line.';
COMMENT ON TABLE author_person IS 'What the person model knows of each person: when it was founded, and for persons of common names the evidence later mentions are scored against (co-authors, categories, words, dates); null evidence is read again from author_mention when needed.';

CREATE TABLE IF NOT EXISTS person_alias (
    from_author_id  BIGINT PRIMARY KEY,
    to_author_id    BIGINT NOT NULL,
    name_key        VARCHAR NOT NULL,
    paper_id        BIGINT,
    author_position INTEGER,
    score           DOUBLE,
    rule            VARCHAR,
    run_id          VARCHAR
);
ALTER TABLE person_alias ADD COLUMN IF NOT EXISTS reason VARCHAR;
COMMENT ON TABLE person_alias IS 'Where a person id that no longer exists went: two persons of one name found to be one by a later mention (rule merged_by_mention: paper_id, author_position scoring both; the younger id points at the elder), or a person that ended when its mentions were decided again (rule forwarded: to the person now holding most of its mentions, paper_id and author_position one of them). Ids are never renumbered, and every id that ended with a mention left points here.';
COMMENT ON COLUMN person_alias.reason IS 'Why the id ended: merged (a mention fitting both), name decided again (person_reopen.sql: its name''s canonical order, rare/common class, or a paper''s co-authors, words or dates changed), its mentions changed (an edited file changed or dropped them).';

CREATE TABLE IF NOT EXISTS dim_category (
    category_id BIGINT PRIMARY KEY,
    code        VARCHAR NOT NULL,
    name        VARCHAR,
    parent_code VARCHAR,
    parent_name VARCHAR,
    group_code  VARCHAR,
    group_name  VARCHAR,
    taxonomy    VARCHAR NOT NULL
);
COMMENT ON TABLE dim_category IS 'arXiv categories (official taxonomy) and conference areas.';
COMMENT ON COLUMN dim_category.parent_code IS 'arXiv archive ("cs") or conference area ("Deep Learning"); null for a one-level area.';
COMMENT ON COLUMN dim_category.group_name IS 'arXiv group ("Computer Science", "Physics"); null for conference areas.';

CREATE TABLE IF NOT EXISTS bridge_paper_category (
    paper_id    BIGINT NOT NULL,
    category_id BIGINT NOT NULL,
    PRIMARY KEY (paper_id, category_id)
);
COMMENT ON TABLE bridge_paper_category IS 'Paper × category, from all of its listings.';

CREATE TABLE IF NOT EXISTS dim_date (
    date     DATE PRIMARY KEY,
    year     INTEGER NOT NULL,
    quarter  INTEGER NOT NULL,
    month    INTEGER NOT NULL,
    day      INTEGER NOT NULL,
    iso_week INTEGER NOT NULL,
    weekday  VARCHAR NOT NULL
);
-- The year its ISO week belongs to: 2027-01-01 is in week 53 of 2026 (grouped by year and
-- iso_week, that week was two rows). Filled for the rows of a warehouse made before it.
ALTER TABLE dim_date ADD COLUMN IF NOT EXISTS iso_year INTEGER;
UPDATE dim_date SET iso_year = isoyear(date) WHERE iso_year IS NULL;
COMMENT ON TABLE dim_date IS 'Every calendar day from the first to the last listing date.';

CREATE TABLE IF NOT EXISTS quarantine (
    quarantine_id  BIGINT PRIMARY KEY,
    source_file_id BIGINT NOT NULL,
    path           VARCHAR NOT NULL,
    line_start     INTEGER NOT NULL,
    line_end       INTEGER NOT NULL,
    reason         VARCHAR NOT NULL,
    raw_text       VARCHAR NOT NULL,
    run_id         VARCHAR NOT NULL
);
COMMENT ON TABLE quarantine IS 'One rejected span of input, with the reason; nothing in it reaches the dimensions.';

CREATE TABLE IF NOT EXISTS ingest_run (
    run_id          VARCHAR PRIMARY KEY,
    started_at      TIMESTAMPTZ NOT NULL,
    finished_at     TIMESTAMPTZ,
    status          VARCHAR NOT NULL,
    n_files_seen    INTEGER NOT NULL,
    n_files_new     INTEGER NOT NULL,
    n_files_skipped INTEGER NOT NULL,
    n_listings      INTEGER NOT NULL,
    n_new_papers    INTEGER NOT NULL,
    n_papers        INTEGER NOT NULL,
    n_authors       INTEGER NOT NULL,
    n_quarantined   INTEGER NOT NULL,
    n_new_authors   INTEGER,
    message         VARCHAR,
    report          VARCHAR
);
COMMENT ON TABLE ingest_run IS 'One flow run: when, outcome, and what it added.';
COMMENT ON COLUMN ingest_run.status IS 'completed (quarantined spans included) or failed.';
COMMENT ON COLUMN ingest_run.message IS 'Why a run failed, or the warning of a completed run (quarantined spans).';
COMMENT ON COLUMN ingest_run.report IS 'The run summary in Markdown, as published in the Prefect artifact.';
ALTER TABLE ingest_run ADD COLUMN IF NOT EXISTS checks_scope VARCHAR;
ALTER TABLE ingest_run ADD COLUMN IF NOT EXISTS checks_digest VARCHAR;
COMMENT ON COLUMN ingest_run.checks_scope IS 'Rows the blocking checks covered: run (what this run wrote; the warehouse had passed the same checks) or warehouse (every row: a first load, an upgrade, new checks).';
COMMENT ON COLUMN ingest_run.checks_digest IS 'Which blocking checks passed (a digest of schemas/checks.sql and its scopes); null when none ran.';

-- Added in place (existing warehouses upgrade on their next ingest): the rest of the stat
-- fingerprint, so an edit that keeps size and mtime is still read (flows/extract.py unchanged).
ALTER TABLE dim_source_file ADD COLUMN IF NOT EXISTS ctime_ns BIGINT;
ALTER TABLE dim_source_file ADD COLUMN IF NOT EXISTS inode BIGINT;
COMMENT ON COLUMN dim_source_file.ctime_ns IS 'Status-change time seen at ingest (of the archive, for a member): with mtime_ns and inode, an unchanged file is skipped unread.';
COMMENT ON COLUMN dim_source_file.inode IS 'Inode number seen at ingest (of the archive, for a member).';
-- Where each version's file is on disk (flows/extract.py location): one file, one location,
-- whatever folder was named. Versions stored before stay null till a run reads their file again.
ALTER TABLE dim_source_file ADD COLUMN IF NOT EXISTS location VARCHAR;
COMMENT ON COLUMN dim_source_file.location IS 'Absolute path of the file on disk with every link resolved (for a member: its archive''s, then !/ and the member''s name), as last seen: a file found there again is this path''s next version, whatever folder was named (its path stays). Null for versions ingested before the column until their file is read again.';

-- Terms (issue 16): key phrases of each paper's title and abstract (transforms/terms.py),
-- kept for new and changed papers by each run (flows/terms.py).
CREATE TABLE IF NOT EXISTS dim_term (
    term_id   BIGINT PRIMARY KEY,
    term      VARCHAR NOT NULL,
    n_words   INTEGER NOT NULL,
    n_papers  BIGINT NOT NULL
);

-- The version of transforms.terms' rules the terms were extracted with (one row): when the rules
-- change, the next run extracts every paper again (flows/terms.py). No row: the first rules.
CREATE TABLE IF NOT EXISTS term_rules (
    version  INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS bridge_paper_term (
    paper_id   BIGINT NOT NULL,
    term_id    BIGINT NOT NULL,
    score      DOUBLE NOT NULL,
    term_rank  INTEGER NOT NULL
);  -- no PRIMARY KEY: its index cost more than the extraction's writes are worth (bench.terms);
    -- one row per (paper_id, term_id) holds by construction (transforms.terms groups by both)
