-- Grain: one row per ingested file version, with what was loaded and what was quarantined.
CREATE OR REPLACE VIEW marts.dq_files AS
WITH rejected AS (
    SELECT source_file_id, count(*) AS n_spans, sum(line_end - line_start + 1)::BIGINT AS n_lines,
           string_agg(DISTINCT split_part(reason, ': ', 1), '; ' ORDER BY split_part(reason, ': ', 1)) AS reasons
    FROM main.quarantine GROUP BY source_file_id
)
SELECT s.source_file_id, s.path, s.version,
       s.version = max(s.version) OVER (PARTITION BY s.path) AS is_latest_version, s.is_current,
       s.format, s.encoding, s.size_bytes, s.n_lines, s.n_listings,
       coalesce(q.n_spans, 0) AS n_quarantined_spans,
       coalesce(q.n_lines, 0) AS n_quarantined_lines,
       coalesce(q.n_lines, 0) / nullif(s.n_lines, 0) AS share_lines_quarantined,
       q.reasons AS quarantine_reasons,
       s.run_id, s.ingested_at
FROM main.dim_source_file s LEFT JOIN rejected q USING (source_file_id);

COMMENT ON VIEW marts.dq_files IS 'Data quality per file version: format, encoding, listings loaded, lines quarantined and why.';
COMMENT ON COLUMN marts.dq_files.source_file_id IS 'The file version (dim_source_file).';
COMMENT ON COLUMN marts.dq_files.path IS 'Path relative to the ingest root.';
COMMENT ON COLUMN marts.dq_files.version IS '1 for the first content seen at this path, 2 for the next, ...';
COMMENT ON COLUMN marts.dq_files.is_latest_version IS 'True for the newest version of its path.';
COMMENT ON COLUMN marts.dq_files.is_current IS 'True for a version whose listings count (dim_source_file.is_current): the headline counts add these rows only.';
COMMENT ON COLUMN marts.dq_files.format IS 'Detected format: listing, search or unknown.';
COMMENT ON COLUMN marts.dq_files.encoding IS 'Detected text encoding.';
COMMENT ON COLUMN marts.dq_files.size_bytes IS 'File size in bytes.';
COMMENT ON COLUMN marts.dq_files.n_lines IS 'Text lines in the file.';
COMMENT ON COLUMN marts.dq_files.n_listings IS 'Listings loaded from the file.';
COMMENT ON COLUMN marts.dq_files.n_quarantined_spans IS 'Spans of the file rejected into quarantine.';
COMMENT ON COLUMN marts.dq_files.n_quarantined_lines IS 'Lines inside those spans.';
COMMENT ON COLUMN marts.dq_files.share_lines_quarantined IS 'n_quarantined_lines / n_lines (0-1); null for a file without lines.';
COMMENT ON COLUMN marts.dq_files.quarantine_reasons IS 'Distinct reason kinds of its quarantined spans (the reason up to its first ": "), joined by "; ".';
COMMENT ON COLUMN marts.dq_files.run_id IS 'Ingest run that loaded the file (ingest_run).';
COMMENT ON COLUMN marts.dq_files.ingested_at IS 'When the file was loaded.';
