-- Merge, part 2 (after the resolver has mapped every paper key of stg_listings in
-- paper_key_map): facts, papers, spellings, categories and dates of the papers this run touched.
-- Leaves `touched` (paper_id) for the person step (flows/persons.py) and merge/30_authors.sql.
-- Parameters: $run_id.

INSERT INTO fact_listing BY NAME
SELECT l.listing_id, m.paper_id, l.source_file_id, l.position, l.rank, l.listed_on, l.category_id,
       l.line_start, l.line_end, l.format, l.listed_code, l.paper_key, l.n_authors_shown,
       l.author_total, l.is_truncated, l.secondary_category_ids
FROM stg_listings l JOIN paper_key_map m USING (paper_key)
WHERE l.listing_id NOT IN (SELECT listing_id FROM fact_listing);  -- a re-read file's are stored

DELETE FROM paper_version WHERE paper_key IN (SELECT paper_key FROM stg_fullest);
INSERT INTO paper_version BY NAME
SELECT paper_key, title, abstract, authors, author_keys, author_count AS author_total, has_complete_listing
FROM stg_fullest;

CREATE OR REPLACE TEMP TABLE touched AS
SELECT DISTINCT m.paper_id FROM stg_listings JOIN paper_key_map m USING (paper_key)
UNION  -- papers that lost listings to a newer version of their file
SELECT paper_id FROM superseded_papers
UNION -- papers naming a key this run aliased to another name: their mentions are decided again
SELECT DISTINCT paper_id FROM author_mention
WHERE mention_key IN (SELECT name_key FROM author_alias WHERE run_id = $run_id);

-- The stored version of every key with a current listing of a touched paper, and that key's most
-- recent listing date. Keys stored before paper_version existed stand in with the stored paper.
CREATE OR REPLACE TEMP TABLE key_recency AS
SELECT paper_id, paper_key, max(listed_on) AS last_on
FROM fact_listing SEMI JOIN touched USING (paper_id) GROUP BY paper_id, paper_key;

-- What the person model read of them before this run: the person step re-decides a name whose
-- mentions' canonical order (first listing date first) this run changed, or whose evidence (the
-- words read of a paper, its categories) it changed (schemas/resolve/person_reopen.sql).
CREATE OR REPLACE TEMP TABLE paper_dates_before AS
SELECT p.paper_id, p.first_listed_on, person_words_md5(p.title, p.abstract) AS words_md5, c.category_ids
FROM dim_paper p SEMI JOIN touched USING (paper_id)
LEFT JOIN (SELECT paper_id, list(category_id ORDER BY category_id) AS category_ids FROM bridge_paper_category
           SEMI JOIN touched USING (paper_id) GROUP BY paper_id) c USING (paper_id);

-- Keys stored before paper_version existed stand in with their stored paper (none in a warehouse
-- loaded since): kept before the touched papers leave dim_paper below.
CREATE OR REPLACE TEMP TABLE legacy_lists AS
SELECT p.paper_id, r.last_on, p.title, p.abstract, p.authors, p.author_keys, p.author_count, p.has_complete_listing
FROM (SELECT paper_id, max(last_on) AS last_on FROM key_recency ANTI JOIN paper_version USING (paper_key)
      GROUP BY paper_id) r
JOIN dim_paper p USING (paper_id);

-- Delete and insert: an upsert rewrites the wide rows (abstracts) through the index; this does not.
DELETE FROM dim_paper WHERE paper_id IN (SELECT paper_id FROM touched);

-- The list is complete when it shows the declared total (the largest declared): a listing that
-- showed three names in full and a later "A, B, C and 1 more" made a paper of four authors, three
-- shown, marked complete. No total known: whether some listing showed the list in full.
-- Title and abstract: of the most recent listing that has one (undated search pages last), ties to
-- the longest, then the larger text, a cut-short one never winning (below); the author list: the longest. A paper with no current
-- listing (its file superseded) has no row here and leaves dim_paper.
-- A paper with one list (most of them) passes through as it is, which is what the aggregates give
-- for one row: ordered aggregates over every paper took 52 s of a 1M-listing load (800k groups,
-- each sorting its own wide rows; `python -m bench.profile`). The abstracts are read from
-- paper_version straight into dim_paper, never copied into a temp table (only narrow ones of ids
-- and lengths): a temp table's memory is held until the load commits
-- (DROP frees nothing inside the transaction), a query's is freed when it ends, and these rows
-- hold every touched abstract (a temp table of the merged papers cost 12 of 28 s at 1M distinct).
-- The person step reads the merged author lists back from dim_paper (only that column).
-- `repeated_papers` counts the lists without their text. Two inserts, not one of a UNION ALL:
-- DuckDB inserts a union's rows one thread at a time (`python -m bench.profile` at 1M distinct
-- listings, 800k papers: the one insert 9.0 s, the two 5.1 + 3.2 s).
CREATE OR REPLACE TEMP TABLE repeated_papers AS
SELECT paper_id FROM (SELECT paper_id FROM key_recency SEMI JOIN paper_version USING (paper_key)
                      UNION ALL SELECT paper_id FROM legacy_lists)
GROUP BY paper_id HAVING count(*) > 1;

CREATE OR REPLACE TEMP TABLE paper_listings AS
SELECT paper_id, min(listed_on) AS first_listed_on, max(listed_on) AS last_listed_on, count(*) AS n_listings
FROM fact_listing SEMI JOIN touched USING (paper_id) GROUP BY paper_id;

INSERT INTO dim_paper BY NAME
SELECT m.paper_id, m.title, m.abstract, m.authors, m.author_keys, len(m.authors) AS n_authors_shown, m.author_count,
       m.has_complete_listing,
       coalesce(m.author_count <= len(m.authors), m.has_complete_listing) AS is_author_list_complete,
       f.first_listed_on, f.last_listed_on, f.n_listings
FROM (SELECT k.paper_id, v.title, v.abstract, v.authors, v.author_keys, v.author_total AS author_count,
             v.has_complete_listing
      FROM (SELECT * FROM key_recency ANTI JOIN repeated_papers USING (paper_id)) k JOIN paper_version v USING (paper_key)) m
JOIN paper_listings f USING (paper_id);

-- Papers of several lists, all stored versions (paper_version): the winners are chosen on a narrow
-- table (dates, lengths, row references), and only then are the abstracts and lists read, the
-- winning ones: ordered aggregates over the lists sorted every abstract with its rows (3.3 s for
-- 82k papers at 1M listings; `python -m bench.profile`). Ties as above: among the most recent
-- (undated last) and longest abstracts the larger text; among the longest lists the larger text.
-- An abstract cut short loses first ('whole'): one that ends no sentence ("... an adaptive log-li",
-- "...") and begins another, longer version of the paper. A file cut off in its last abstract,
-- listed later, replaced the paper's whole abstract. (Only a cut: a later version ending in a link
-- is a revision, and wins.) The versions that end no sentence are few; only they are compared.
CREATE OR REPLACE TEMP TABLE cut_versions AS
WITH versions AS (
    SELECT r.paper_id, v.rowid AS version_row, v.abstract
    FROM key_recency r SEMI JOIN repeated_papers USING (paper_id) JOIN paper_version v USING (paper_key)
), unended AS (
    SELECT paper_id, version_row, rtrim(abstract, ' .…') AS stem FROM versions
    WHERE NOT regexp_matches(coalesce(abstract, ''), '([^.]\.|[!?。！？])["”’)\]]*\s*$')
)
SELECT DISTINCT u.version_row FROM unended u JOIN versions w USING (paper_id)
WHERE length(w.abstract) > length(u.stem) + 1 AND starts_with(w.abstract, u.stem);

-- A title cut short loses the same way: one that begins another, longer title of the paper at a
-- word's end ("...: A Few Long"), or anywhere before an ellipsis ("...: A Few Long Strings can...",
-- "… Beat …"). A display cut the title in a later listing, and the most recent listing's title
-- replaced the full one. A title edited otherwise (not a prefix) is a revision, and follows recency.
CREATE OR REPLACE TEMP TABLE cut_titles AS
WITH titles AS (
    SELECT r.paper_id, v.rowid AS version_row, v.title, lower(rtrim(v.title, ' .…')) AS stem
    FROM key_recency r SEMI JOIN repeated_papers USING (paper_id) JOIN paper_version v USING (paper_key)
    WHERE v.title IS NOT NULL
)
SELECT DISTINCT u.version_row FROM titles u JOIN titles w USING (paper_id)
WHERE length(w.stem) > length(u.stem) AND starts_with(w.stem, u.stem)
  AND (regexp_matches(u.title, '(\.\.\.|…)\s*$') OR NOT regexp_matches(w.stem[length(u.stem) + 1], '[\pL\pN]'));

-- A real abstract wins over a withdrawal notice (transforms.resolve.NOTICE_TEXT, the same pattern:
-- tests/test_resolve_notices.py checks): a withdrawn version relisted later ("This paper has been
-- withdrawn by the author ...", merged by the resolver's notice_abstract rule) replaced the
-- paper's abstract. Otherwise the most recent wins, a short revision too. Looked for in texts
-- under 600 characters only (no notice is longer: the pattern over every version doubled a +1 %
-- run's merge), and not in the legacy lists below (warehouses stored before paper_version).
CREATE OR REPLACE TEMP TABLE notice_versions AS
SELECT v.rowid AS version_row
FROM key_recency r SEMI JOIN repeated_papers USING (paper_id) JOIN paper_version v USING (paper_key)
WHERE length(v.abstract) < 600
  AND regexp_matches(lower(v.abstract), '^\W*(?:withdrawn|retracted)\b|\b(?:paper|article|submission|manuscript|preprint|version|work|note)\W+(?:(?:has|have|had)\W+been|is|was)\W+(?:withdrawn|retracted)\b');

CREATE OR REPLACE TEMP TABLE repeated_lists AS
SELECT r.paper_id,  -- no NULL inside the rank: its parts compare as values
       {'real': v.rowid NOT IN (SELECT version_row FROM notice_versions),
        'whole': v.rowid NOT IN (SELECT version_row FROM cut_versions),
        'dated': r.last_on IS NOT NULL, 'on': coalesce(r.last_on, DATE '1900-01-01'), 'n': coalesce(length(v.abstract), -1)}
           AS abstract_rank,
       v.rowid NOT IN (SELECT version_row FROM cut_titles) AS whole_title,
       len(v.authors) AS n_authors, v.rowid AS version_row
FROM key_recency r SEMI JOIN repeated_papers USING (paper_id) JOIN paper_version v USING (paper_key)
WHERE r.paper_id NOT IN (SELECT paper_id FROM legacy_lists);

CREATE OR REPLACE TEMP TABLE repeated_best AS
SELECT paper_id, max(abstract_rank) AS abstract_rank, max(n_authors) AS n_authors FROM repeated_lists GROUP BY paper_id;

INSERT INTO dim_paper BY NAME
WITH chosen AS (
    SELECT l.paper_id,
           first(v.title ORDER BY l.whole_title DESC, l.abstract_rank.dated DESC, l.abstract_rank.on DESC, length(v.title) DESC, v.title DESC)
               FILTER (WHERE v.title IS NOT NULL) AS title,
           max(v.abstract) FILTER (WHERE l.abstract_rank = b.abstract_rank) AS abstract,
           arg_max(l.version_row, array_to_string(v.authors, ', ')) FILTER (WHERE l.n_authors = b.n_authors) AS authors_row,
           max(v.author_total) AS author_count, bool_or(v.has_complete_listing) AS has_complete_listing
    FROM repeated_lists l JOIN repeated_best b USING (paper_id) JOIN paper_version v ON v.rowid = l.version_row
    GROUP BY l.paper_id
)
SELECT c.paper_id, c.title, c.abstract, a.authors, a.author_keys, len(a.authors) AS n_authors_shown, c.author_count,
       c.has_complete_listing,
       coalesce(c.author_count <= len(a.authors), c.has_complete_listing) AS is_author_list_complete,
       f.first_listed_on, f.last_listed_on, f.n_listings
FROM chosen c JOIN paper_version a ON a.rowid = c.authors_row JOIN paper_listings f USING (paper_id);

-- A variant chosen above (full-width, ligatures, typographic hyphens and quotes: plain_form,
-- transforms.dedupe.PLAIN_MAP) gives way to a plain spelling of the same text among the paper's
-- versions: "Veriﬁable" or "Ｖｅｒｉｆｉａｂｌｅ" listed after "Verifiable" is the same title, not a
-- revision, and LIKE '%Verifiable%' found nothing. The choice stays the rule's (the newest, the
-- longest, ...): only a text that reads the same written plainly replaces it, so a revision still
-- wins, plain or not. The authors likewise (the persons' names follow the list: 30_authors.sql).
-- Only the papers whose chosen text is not plain (a few) are read again.
CREATE OR REPLACE TEMP TABLE plain_display AS
WITH variants AS (
    SELECT paper_id, plain_form(title) AS title, plain_form(abstract) AS abstract, len(authors) AS n_authors,
           plain_form(array_to_string(authors, ', ')) AS authors
    FROM dim_paper SEMI JOIN (SELECT DISTINCT paper_id FROM repeated_lists) USING (paper_id)
    WHERE NOT (coalesce(is_plain(title), true) AND coalesce(is_plain(abstract), true)
               AND is_plain(array_to_string(authors, ', ')))
)
SELECT x.paper_id,
       first(v.title ORDER BY is_plain(v.title) DESC, l.whole_title DESC, l.abstract_rank.dated DESC,
                              l.abstract_rank.on DESC, length(v.title) DESC, v.title DESC)
           FILTER (WHERE plain_form(v.title) = x.title) AS title,
       first(v.abstract ORDER BY is_plain(v.abstract) DESC, l.abstract_rank DESC, v.abstract DESC)
           FILTER (WHERE plain_form(v.abstract) = x.abstract) AS abstract,
       first(l.version_row ORDER BY is_plain(array_to_string(v.authors, ', ')) DESC, array_to_string(v.authors, ', ') DESC)
           FILTER (WHERE len(v.authors) = x.n_authors AND plain_form(array_to_string(v.authors, ', ')) = x.authors)
           AS authors_row
FROM variants x JOIN repeated_lists l USING (paper_id) JOIN paper_version v ON v.rowid = l.version_row
GROUP BY x.paper_id;

UPDATE dim_paper SET title = coalesce(d.title, dim_paper.title), abstract = coalesce(d.abstract, dim_paper.abstract),
                     authors = a.authors, author_keys = a.author_keys
FROM plain_display d JOIN paper_version a ON a.rowid = d.authors_row
WHERE dim_paper.paper_id = d.paper_id;

-- Papers with a list stored before paper_version existed (none in a warehouse loaded since): every
-- list of theirs, stored versions and the stored paper's own, through ordered aggregates.
CREATE OR REPLACE TEMP VIEW paper_lists AS
SELECT r.paper_id, r.last_on, v.title, v.abstract, v.authors, v.author_keys, v.author_total AS author_count,
       v.has_complete_listing
FROM key_recency r JOIN paper_version v USING (paper_key)
UNION ALL
SELECT * FROM legacy_lists;

INSERT INTO dim_paper BY NAME
SELECT m.paper_id, m.title, m.abstract, m.authors, m.author_keys, len(m.authors) AS n_authors_shown, m.author_count,
       m.has_complete_listing,
       coalesce(m.author_count <= len(m.authors), m.has_complete_listing) AS is_author_list_complete,
       f.first_listed_on, f.last_listed_on, f.n_listings
FROM (
    SELECT paper_id,
           first(title ORDER BY last_on DESC NULLS LAST, length(title) DESC, title DESC)
               FILTER (WHERE title IS NOT NULL) AS title,
           first(abstract ORDER BY last_on DESC NULLS LAST, length(abstract) DESC, abstract DESC) AS abstract,
           first(authors ORDER BY len(authors) DESC, array_to_string(authors, ', ') DESC) AS authors,
           first(author_keys ORDER BY len(authors) DESC, array_to_string(authors, ', ') DESC) AS author_keys,
           max(author_count) AS author_count, bool_or(has_complete_listing) AS has_complete_listing
    FROM paper_lists SEMI JOIN legacy_lists USING (paper_id) GROUP BY paper_id
) m JOIN paper_listings f USING (paper_id);

INSERT INTO author_name_variant BY NAME SELECT DISTINCT name_key, name, display_rank FROM stg_authors
ANTI JOIN author_name_variant USING (name_key, name);

-- A touched paper's categories: the primary and cross-listed categories of its current listings.
DELETE FROM bridge_paper_category WHERE paper_id IN (SELECT paper_id FROM touched);
INSERT INTO bridge_paper_category BY NAME
SELECT DISTINCT paper_id, category_id FROM (
    SELECT paper_id, category_id FROM fact_listing SEMI JOIN touched USING (paper_id)
    UNION ALL
    SELECT paper_id, unnest(secondary_category_ids) AS category_id FROM fact_listing SEMI JOIN touched USING (paper_id)
) WHERE category_id IS NOT NULL;

INSERT INTO dim_date BY NAME
SELECT d::DATE AS date, year(d) AS year, quarter(d) AS quarter, month(d) AS month, day(d) AS day,
       weekofyear(d) AS iso_week, dayname(d) AS weekday, isoyear(d) AS iso_year
FROM (SELECT min(listed_on) AS lo, max(listed_on) AS hi FROM fact_listing) r,
     range(r.lo::TIMESTAMP, r.hi::TIMESTAMP + INTERVAL 1 DAY, INTERVAL 1 DAY) t(d)
WHERE r.lo IS NOT NULL
ON CONFLICT DO NOTHING;
-- ... and no other day: the days of superseded versions' listings (a year typo "2062" fixed in
-- the next version) stayed, and dim_date spanned decades that a fresh load does not hold.
DELETE FROM dim_date WHERE NOT coalesce(date BETWEEN (SELECT min(listed_on) FROM fact_listing)
                                             AND (SELECT max(listed_on) FROM fact_listing), false);
