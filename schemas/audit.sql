-- Line accounting per file version: every line is inside a loaded listing, inside a
-- quarantined span, or a known separator (blank line, format header). status is 'ok' only
-- when the three add up to the file's line count and no two spans overlap.
WITH spans AS (
    SELECT source_file_id, line_start, line_end, 'listing' AS kind FROM fact_listing
    UNION ALL  -- listings of superseded versions
    SELECT source_file_id, line_start, line_end, 'listing' AS kind FROM fact_listing_history
    UNION ALL
    SELECT source_file_id, line_start, line_end, 'quarantine' AS kind FROM quarantine WHERE line_start >= 1
), ordered AS (
    SELECT *, lag(line_end) OVER (PARTITION BY source_file_id ORDER BY line_start, line_end) AS prev_end
    FROM spans
), per_file AS (
    SELECT source_file_id,
           (sum(line_end - line_start + 1) FILTER (WHERE kind = 'listing'))::BIGINT AS lines_in_listings,
           (sum(line_end - line_start + 1) FILTER (WHERE kind = 'quarantine'))::BIGINT AS lines_in_quarantine,
           count(*) FILTER (WHERE line_start <= prev_end) AS n_overlaps,
           max(line_end) AS last_line
    FROM ordered GROUP BY source_file_id
)
SELECT s.path, s.version, s.n_lines,
       coalesce(p.lines_in_listings, 0) AS lines_in_listings,
       coalesce(p.lines_in_quarantine, 0) AS lines_in_quarantine,
       s.n_separator_lines,
       s.n_lines - coalesce(p.lines_in_listings, 0) - coalesce(p.lines_in_quarantine, 0) - s.n_separator_lines
           AS lines_unaccounted,
       coalesce(p.n_overlaps, 0) AS n_overlaps,
       CASE WHEN coalesce(p.n_overlaps, 0) > 0 THEN 'overlap'
            WHEN coalesce(p.last_line, 0) > s.n_lines THEN 'span past end of file'
            WHEN s.n_lines - coalesce(p.lines_in_listings, 0) - coalesce(p.lines_in_quarantine, 0)
                 - s.n_separator_lines <> 0 THEN 'gap'
            ELSE 'ok' END AS status
FROM dim_source_file s LEFT JOIN per_file p USING (source_file_id)
ORDER BY s.path, s.version
