-- Grain: one row per recorded ingest run, numbered in start order, with what it loaded.
CREATE OR REPLACE VIEW marts.dq_runs AS
WITH files AS (
    SELECT run_id, count(*) AS n_files_loaded,
           count(*) FILTER (WHERE format = 'unknown') AS n_files_unknown_format,
           sum(size_bytes)::BIGINT AS n_bytes_loaded, sum(n_lines)::BIGINT AS n_lines_loaded
    FROM main.dim_source_file GROUP BY run_id
), rejected AS (
    SELECT run_id, count(*) AS n_spans, sum(line_end - line_start + 1)::BIGINT AS n_lines
    FROM main.quarantine GROUP BY run_id
)
SELECT row_number() OVER (ORDER BY r.started_at, r.run_id) AS run_number,
       r.run_id, r.started_at, r.finished_at,
       epoch(r.finished_at - r.started_at) AS seconds,
       r.status, r.n_files_seen, r.n_files_new, r.n_files_skipped, r.n_listings, r.n_new_papers,
       r.n_papers, r.n_authors,
       coalesce(f.n_files_loaded, 0) AS n_files_loaded,
       coalesce(f.n_files_unknown_format, 0) AS n_files_unknown_format,
       coalesce(f.n_bytes_loaded, 0) AS n_bytes_loaded,
       coalesce(f.n_lines_loaded, 0) AS n_lines_loaded,
       coalesce(q.n_spans, 0) AS n_quarantined_spans,
       coalesce(q.n_lines, 0) AS n_quarantined_lines,
       r.message
FROM main.ingest_run r
LEFT JOIN files f USING (run_id)
LEFT JOIN rejected q USING (run_id);

COMMENT ON VIEW marts.dq_runs IS 'Every recorded ingest run with its outcome, what it loaded and what it quarantined.';
COMMENT ON COLUMN marts.dq_runs.run_number IS '1 for the first recorded run, 2 for the next, ... (by start time).';
COMMENT ON COLUMN marts.dq_runs.run_id IS 'Flow run id (ingest_run).';
COMMENT ON COLUMN marts.dq_runs.started_at IS 'When the run started.';
COMMENT ON COLUMN marts.dq_runs.finished_at IS 'When it was recorded as finished.';
COMMENT ON COLUMN marts.dq_runs.seconds IS 'Wall time of the run in seconds.';
COMMENT ON COLUMN marts.dq_runs.status IS 'Outcome: completed or failed (a failed run loaded nothing: its transaction was rolled back).';
COMMENT ON COLUMN marts.dq_runs.n_files_seen IS 'Files the run found.';
COMMENT ON COLUMN marts.dq_runs.n_files_new IS 'Files with content new to the warehouse.';
COMMENT ON COLUMN marts.dq_runs.n_files_skipped IS 'Files skipped as already ingested.';
COMMENT ON COLUMN marts.dq_runs.n_listings IS 'Listings the run loaded.';
COMMENT ON COLUMN marts.dq_runs.n_new_papers IS 'Papers the run added.';
COMMENT ON COLUMN marts.dq_runs.n_papers IS 'Papers in the warehouse after the run.';
COMMENT ON COLUMN marts.dq_runs.n_authors IS 'Authors in the warehouse after the run.';
COMMENT ON COLUMN marts.dq_runs.n_files_loaded IS 'File versions in dim_source_file loaded by this run.';
COMMENT ON COLUMN marts.dq_runs.n_files_unknown_format IS 'Of those, files of no known format (quarantined whole).';
COMMENT ON COLUMN marts.dq_runs.n_bytes_loaded IS 'Bytes of the files loaded.';
COMMENT ON COLUMN marts.dq_runs.n_lines_loaded IS 'Text lines of the files loaded.';
COMMENT ON COLUMN marts.dq_runs.n_quarantined_spans IS 'Spans this run quarantined.';
COMMENT ON COLUMN marts.dq_runs.n_quarantined_lines IS 'Lines inside those spans.';
COMMENT ON COLUMN marts.dq_runs.message IS 'Error message of a failed run; null otherwise.';
