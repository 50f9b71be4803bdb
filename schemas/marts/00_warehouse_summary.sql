-- Grain: one row for the whole warehouse: the headline counts of the overview page and of BI tiles.
CREATE OR REPLACE VIEW marts.warehouse_summary AS
SELECT
    (SELECT count(*) FROM main.dim_source_file WHERE is_current) AS n_files,
    (SELECT count(*) FROM main.fact_listing) AS n_listings,
    (SELECT count(*) FROM main.dim_paper) AS n_papers,
    (SELECT count(*) FROM main.dim_paper WHERE title IS NOT NULL) AS n_papers_with_title,
    (SELECT count(*) FROM main.dim_author) AS n_authors,
    (SELECT count(DISTINCT category_id) FROM main.bridge_paper_category) AS n_categories_used,
    (SELECT count(*) FROM main.quarantine SEMI JOIN (FROM main.dim_source_file WHERE is_current) USING (source_file_id))
        AS n_quarantined_spans,
    (SELECT min(listed_on) FROM main.fact_listing) AS first_listed_on,
    (SELECT max(listed_on) FROM main.fact_listing) AS last_listed_on,
    (SELECT count(DISTINCT listed_on) FROM main.fact_listing) AS n_listing_days,
    (SELECT count(*) FROM main.ingest_run) AS n_runs,
    (SELECT max(started_at) FROM main.ingest_run) AS last_run_started_at,
    (SELECT count(*) FROM main.dim_source_file) AS n_file_versions;

COMMENT ON VIEW marts.warehouse_summary IS 'Headline counts of the whole warehouse, one row: what the overview page shows first.';
COMMENT ON COLUMN marts.warehouse_summary.n_files IS 'Files whose current version is loaded (a file edited and ingested again counts once: n_file_versions counts each version).';
COMMENT ON COLUMN marts.warehouse_summary.n_listings IS 'Appearances of papers in files (fact_listing rows).';
COMMENT ON COLUMN marts.warehouse_summary.n_papers IS 'Distinct papers after dedupe.';
COMMENT ON COLUMN marts.warehouse_summary.n_papers_with_title IS 'Papers with a title, that is seen at least once in a format that carries titles.';
COMMENT ON COLUMN marts.warehouse_summary.n_authors IS 'Distinct authors (dim_author rows).';
COMMENT ON COLUMN marts.warehouse_summary.n_categories_used IS 'Categories (both taxonomies) that at least one paper is in.';
COMMENT ON COLUMN marts.warehouse_summary.n_quarantined_spans IS 'Rejected spans of the current file versions (quarantine rows of a replaced version stay in quarantine, not here).';
COMMENT ON COLUMN marts.warehouse_summary.first_listed_on IS 'Earliest listing date; null when only undated (search) pages were ingested.';
COMMENT ON COLUMN marts.warehouse_summary.last_listed_on IS 'Latest listing date.';
COMMENT ON COLUMN marts.warehouse_summary.n_listing_days IS 'Distinct days with at least one dated listing.';
COMMENT ON COLUMN marts.warehouse_summary.n_runs IS 'Recorded ingest runs, failed ones included.';
COMMENT ON COLUMN marts.warehouse_summary.last_run_started_at IS 'Start time of the latest recorded ingest run.';
COMMENT ON COLUMN marts.warehouse_summary.n_file_versions IS 'Ingested file versions (dim_source_file rows), replaced ones included.';
