-- Merge, part 1 (before the resolver): this run's files against the warehouse, in the load's
-- transaction (flows/load.py). Staged rows of files whose content is already current in the
-- warehouse (or twice in this run: the first path wins) are dropped first. A new content at a
-- known path is that path's next version: it supersedes the current one, whose listings move to
-- fact_listing_history (a revert to an old content is a new version too). Ends with stg_fullest,
-- the fullest version of each paper key of this run's listings: what the resolver compares.
-- Parameters: $run_id, $ingested_at.

-- A file at a path whose current version is another file, still on disk (flows/extract.py
-- other_files), with a content of its own: not that file's next version (two digests that get one
-- relative path under two roots: the second replaced the first's listings). Skipped with the
-- reason; the same content is content already ingested, as any copy's.
CREATE OR REPLACE TEMP TABLE other_file AS
SELECT s.source_file_id, s.path, s.other_file AS reason FROM stg_files s
WHERE s.other_file IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM dim_source_file d
    WHERE d.is_current AND d.path = s.path AND (d.text_sha256 = s.text_sha256 OR d.sha256 = s.sha256));
INSERT INTO stg_skipped BY NAME SELECT path, reason FROM other_file;
DELETE FROM stg_files WHERE source_file_id IN (SELECT source_file_id FROM other_file);

-- Current versions a file read again no longer holds: what a location on disk held is replaced
-- by what it holds now, as a fresh load of it would have it. A file is its container's bytes (the
-- path before the first '!/'): a member gone from its archive, a plain file now packed (a gzip
-- saved under its name: its member `day.txt!/day.txt` stood beside the old plain version, both
-- current, every listing counted twice), an archive now plain text, a member now packed in turn.
-- Containers read by this run as the files they were (not another file at their path).
CREATE OR REPLACE TEMP TABLE reread AS
SELECT DISTINCT split_part(path, '!/', 1) AS container FROM stg_files WHERE other_file IS NULL;
CREATE OR REPLACE TEMP TABLE retired AS
SELECT d.source_file_id, split_part(d.path, '!/', 1) AS container, d.path = split_part(d.path, '!/', 1) AS was_plain
FROM dim_source_file d
WHERE d.is_current AND split_part(d.path, '!/', 1) IN (SELECT container FROM reread)
  AND d.path NOT IN (SELECT path FROM stg_files);

-- Current versions that stay current: not at a path this run brings another content for (a copy
-- of the replaced content elsewhere is then ingested in its own right, not skipped as a duplicate),
-- nor retired (a plain file gzipped in place, a member renamed: the same content is new at its new path).
-- Content is the decoded text without its trailing blanks and line ends (text_sha256,
-- transforms.pipeline): a copy with other line ends, a final newline more or less, a BOM or
-- another encoding is the same digest. A file's bytes' checksum names its content too: versions
-- stored before the text lost its trailing line ends hold their former text_sha256, and still
-- meet a byte-identical copy (or the same bytes at their path) through it.
CREATE OR REPLACE TEMP TABLE kept_current AS
SELECT d.source_file_id, unnest([d.text_sha256, d.sha256]) AS content FROM dim_source_file d
WHERE d.is_current AND NOT EXISTS (SELECT 1 FROM stg_files s WHERE s.path = d.path AND s.sha256 <> d.sha256)
  AND d.source_file_id NOT IN (SELECT source_file_id FROM retired);

CREATE OR REPLACE TEMP TABLE new_files AS
SELECT * FROM stg_files
WHERE text_sha256 NOT IN (SELECT content FROM kept_current) AND sha256 NOT IN (SELECT content FROM kept_current)
-- One content twice (a file and a link to it, a copy): a path the warehouse knows first (the
-- file's next version, not a new file beside it), then the first path.
QUALIFY row_number() OVER (PARTITION BY text_sha256
                           ORDER BY path IN (SELECT path FROM dim_source_file WHERE is_current) DESC, path) = 1;

INSERT INTO skipped_file BY NAME
SELECT $run_id AS run_id, s.path, 'content already ingested' AS reason, s.sha256,
       coalesce((SELECT min(k.source_file_id) FROM kept_current k WHERE k.content IN (s.text_sha256, s.sha256)),
                n.source_file_id) AS same_as_source_file_id
FROM stg_files s
LEFT JOIN new_files n ON n.text_sha256 = s.text_sha256
WHERE s.source_file_id NOT IN (SELECT source_file_id FROM new_files)
ON CONFLICT DO NOTHING;

INSERT INTO skipped_file BY NAME
SELECT DISTINCT $run_id AS run_id, path, reason FROM stg_skipped ON CONFLICT DO NOTHING;

DELETE FROM stg_listings WHERE source_file_id NOT IN (SELECT source_file_id FROM new_files);
DELETE FROM stg_quarantine WHERE source_file_id NOT IN (SELECT source_file_id FROM new_files);

-- Version numbers, and ids: a content seen before at this path (a revert) gets an id of its version.
CREATE OR REPLACE TEMP TABLE file_version AS
SELECT n.source_file_id AS staged_id, v.version,
       CASE WHEN n.source_file_id IN (SELECT source_file_id FROM dim_source_file)
            THEN stable_id(concat_ws(chr(31), n.path, n.sha256, v.version::VARCHAR))
            ELSE n.source_file_id END AS source_file_id
FROM new_files n, (SELECT 1 + count(*) AS version FROM dim_source_file d WHERE d.path = n.path) v;

UPDATE stg_listings SET source_file_id = f.source_file_id,
       listing_id = stable_id(concat_ws(chr(31), f.source_file_id::VARCHAR, stg_listings.position::VARCHAR))
FROM file_version f WHERE stg_listings.source_file_id = f.staged_id AND f.source_file_id <> f.staged_id;
UPDATE stg_quarantine SET source_file_id = f.source_file_id
FROM file_version f WHERE stg_quarantine.source_file_id = f.staged_id AND f.source_file_id <> f.staged_id;
UPDATE new_files SET source_file_id = f.source_file_id
FROM file_version f WHERE new_files.source_file_id = f.staged_id AND f.source_file_id <> f.staged_id;

CREATE OR REPLACE TEMP TABLE superseded AS
SELECT d.source_file_id, n.source_file_id AS by_id
FROM dim_source_file d JOIN new_files n USING (path) WHERE d.is_current
UNION ALL  -- warehouses from before versions superseded each other: the latest version of a path wins
SELECT d.source_file_id, l.latest_id
FROM dim_source_file d JOIN (
    SELECT path, arg_max(source_file_id, version) AS latest_id, max(version) AS latest
    FROM dim_source_file WHERE is_current GROUP BY path HAVING count(*) > 1
) l USING (path)
WHERE d.is_current AND d.version < l.latest AND d.path NOT IN (SELECT path FROM new_files)
UNION ALL  -- what its container no longer holds (retired): when the packing changed, by what it holds now
SELECT r.source_file_id, (SELECT CASE WHEN count(*) = 1 AND (r.was_plain OR bool_or(n.path = r.container))
                                      THEN min(n.source_file_id) END
                          FROM new_files n WHERE split_part(n.path, '!/', 1) = r.container)
FROM retired r;

INSERT INTO fact_listing_history BY NAME
SELECT f.*, s.by_id AS superseded_by_source_file_id, $run_id AS superseded_run_id
FROM fact_listing f JOIN superseded s USING (source_file_id);

CREATE OR REPLACE TEMP TABLE superseded_papers AS
SELECT DISTINCT paper_id FROM fact_listing WHERE source_file_id IN (SELECT source_file_id FROM superseded);

DELETE FROM fact_listing WHERE source_file_id IN (SELECT source_file_id FROM superseded);

UPDATE dim_source_file SET is_current = false, superseded_by_source_file_id = s.by_id
FROM superseded s WHERE dim_source_file.source_file_id = s.source_file_id;

INSERT INTO dim_source_file BY NAME
SELECT n.source_file_id, n.path, n.sha256, n.text_sha256, n.format, n.encoding, n.size_bytes, n.mtime_ns, n.ctime_ns, n.inode,
       n.location, n.n_lines,
       n.n_separator_lines, f.version, true AS is_current,
       $ingested_at AS ingested_at, $run_id AS run_id,
       (SELECT count(*) FROM stg_listings l WHERE l.source_file_id = n.source_file_id) AS n_listings,
       (SELECT count(*) FROM stg_quarantine q WHERE q.source_file_id = n.source_file_id) AS n_quarantined
FROM new_files n JOIN file_version f USING (source_file_id);

INSERT INTO quarantine BY NAME
SELECT DISTINCT stable_id(concat_ws(chr(31), source_file_id, line_start, line_end, reason)) AS quarantine_id,
       source_file_id, path, line_start, line_end, reason, raw_text, $run_id AS run_id
FROM stg_quarantine ON CONFLICT DO NOTHING;

INSERT INTO dim_category BY NAME SELECT DISTINCT * FROM stg_categories ON CONFLICT DO NOTHING;

-- The fullest version of each paper key of this run's listings, with what the key showed before
-- (paper_version): what the resolver compares, and the key's new stored version.
-- key_lists is stg_papers itself with the stored versions appended, not a copy of it: a temp
-- table's memory is held until the load commits, and this one holds every abstract of the run.
-- A key's stored version counts while the key keeps a listing in a current file: a key whose
-- every listing was in a superseded file (an edited file, its author list corrected, or the paper
-- dropped from it), in this run or any before, is what this run shows alone. Merged with the
-- stored version, the replaced file's list won when it was longer or its text larger: a name
-- corrected or removed stayed on the paper (hunt 41: also when the paper came back a run later).
DELETE FROM stg_papers WHERE paper_key NOT IN (SELECT paper_key FROM stg_listings);
CREATE OR REPLACE TEMP TABLE stale_keys AS
SELECT paper_key FROM paper_version SEMI JOIN stg_papers USING (paper_key)
WHERE NOT EXISTS (SELECT 1 FROM fact_listing f WHERE f.paper_key = paper_version.paper_key);
INSERT INTO stg_papers BY NAME
SELECT paper_key, title, abstract, authors, author_keys, author_total, has_complete_listing
FROM paper_version SEMI JOIN stg_papers USING (paper_key) ANTI JOIN stale_keys USING (paper_key);
CREATE OR REPLACE TEMP VIEW key_lists AS
SELECT rowid AS row_ref, paper_key, title, abstract, authors, author_keys, author_total, has_complete_listing FROM stg_papers;

-- The fullest version of each key: the longest title, abstract and author list of key_lists and
-- the largest declared author total; equal lengths broken by the larger text (mixed case beats
-- CAPITALS). Associative, so batches, runs and a single load agree (transforms.dedupe.merge_papers).
-- Among the longest titles and lists, a plain one wins (is_plain): a full-width or typographic
-- copy of a key's title ("Ｖｅｒｉｆｉａｂｌｅ") never replaces it (a ligature's copy is shorter).
-- Keys with one row pass through untouched (most of them); for the others, lengths first, then
-- the larger text among the longest: ordering by (length, text) structs would copy every
-- abstract (`python -m bench.profile` times this statement).
CREATE OR REPLACE TEMP TABLE stg_fullest AS
WITH repeated AS (SELECT paper_key FROM key_lists GROUP BY paper_key HAVING count(*) > 1),
lengths AS (
    SELECT paper_key, max(length(title)) AS n_title, max(length(abstract)) AS n_abstract, max(len(authors)) AS n_authors
    FROM key_lists SEMI JOIN repeated USING (paper_key) GROUP BY paper_key
), fullest AS (
    SELECT s.paper_key,
           coalesce(max(s.title) FILTER (WHERE length(s.title) = l.n_title AND is_plain(s.title)),
                    max(s.title) FILTER (WHERE length(s.title) = l.n_title)) AS title,
           max(s.abstract) FILTER (WHERE length(s.abstract) = l.n_abstract) AS abstract,
           coalesce(arg_max(s.row_ref, array_to_string(s.authors, ', '))
                        FILTER (WHERE len(s.authors) = l.n_authors AND is_plain(array_to_string(s.authors, ', '))),
                    arg_max(s.row_ref, array_to_string(s.authors, ', ')) FILTER (WHERE len(s.authors) = l.n_authors))
               AS authors_row,
           max(s.author_total) AS author_count, bool_or(s.has_complete_listing) AS has_complete_listing
    FROM key_lists s JOIN lengths l USING (paper_key) GROUP BY s.paper_key
)
SELECT paper_key, title, abstract, authors, author_keys, author_total AS author_count, has_complete_listing
FROM key_lists ANTI JOIN repeated USING (paper_key)
UNION ALL
SELECT f.paper_key, f.title, f.abstract, a.authors, a.author_keys, f.author_count, f.has_complete_listing
FROM fullest f JOIN key_lists a ON a.row_ref = f.authors_row;
