-- Grain: one row per ingest run × reason kind (the reason up to its first ": ", so "impossible
-- listing date: Feb 30, 2027" and "...: Apr 31, 2027" group together), with an example span.
CREATE OR REPLACE VIEW marts.dq_quarantine_reasons AS
SELECT q.run_id, r.started_at AS run_started_at,
       split_part(q.reason, ': ', 1) AS reason_kind,
       count(*) AS n_spans,
       count(DISTINCT q.source_file_id) AS n_files,
       sum(q.line_end - q.line_start + 1)::BIGINT AS n_lines,
       count(DISTINCT q.reason) AS n_distinct_reasons,
       first(q.reason ORDER BY q.path, q.line_start) AS example_reason,
       first(q.path ORDER BY q.path, q.line_start) AS example_path,
       first(q.line_start ORDER BY q.path, q.line_start) AS example_line_start,
       first(q.line_end ORDER BY q.path, q.line_start) AS example_line_end
FROM main.quarantine q LEFT JOIN main.ingest_run r USING (run_id)
GROUP BY q.run_id, r.started_at, split_part(q.reason, ': ', 1);

COMMENT ON VIEW marts.dq_quarantine_reasons IS 'Quarantined spans per ingest run and reason kind, with one example span to open.';
COMMENT ON COLUMN marts.dq_quarantine_reasons.run_id IS 'Ingest run that quarantined the spans (ingest_run).';
COMMENT ON COLUMN marts.dq_quarantine_reasons.run_started_at IS 'When that run started; null if the run was not recorded.';
COMMENT ON COLUMN marts.dq_quarantine_reasons.reason_kind IS 'The reason up to its first ": " (details such as line counts or dates cut off).';
COMMENT ON COLUMN marts.dq_quarantine_reasons.n_spans IS 'Quarantined spans.';
COMMENT ON COLUMN marts.dq_quarantine_reasons.n_files IS 'Distinct file versions with such spans.';
COMMENT ON COLUMN marts.dq_quarantine_reasons.n_lines IS 'Lines inside the spans.';
COMMENT ON COLUMN marts.dq_quarantine_reasons.n_distinct_reasons IS 'Distinct full reason texts in this kind.';
COMMENT ON COLUMN marts.dq_quarantine_reasons.example_reason IS 'Full reason of the example span (the first by path and line).';
COMMENT ON COLUMN marts.dq_quarantine_reasons.example_path IS 'File path of the example span.';
COMMENT ON COLUMN marts.dq_quarantine_reasons.example_line_start IS 'First line of the example span.';
COMMENT ON COLUMN marts.dq_quarantine_reasons.example_line_end IS 'Last line of the example span.';
