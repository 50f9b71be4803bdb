-- Blocking checks, run after every load inside its transaction: each query counts violations
-- and the load is rolled back unless every count is 0. One check per "-- name:" block.

-- name: fact_listing.paper_id has a dim_paper row
SELECT count(*) FROM fact_listing f ANTI JOIN dim_paper p USING (paper_id);
-- name: fact_listing.source_file_id has a dim_source_file row
SELECT count(*) FROM fact_listing f ANTI JOIN dim_source_file s USING (source_file_id);
-- name: fact_listing.category_id has a dim_category row
SELECT count(*) FROM fact_listing f ANTI JOIN dim_category c USING (category_id) WHERE f.category_id IS NOT NULL;
-- name: fact_listing.listed_on has a dim_date row
SELECT count(*) FROM fact_listing f ANTI JOIN dim_date d ON d.date = f.listed_on WHERE f.listed_on IS NOT NULL;
-- name: bridge_paper_author rows point at a paper and an author
SELECT count(*) FROM bridge_paper_author b
WHERE b.paper_id NOT IN (SELECT paper_id FROM dim_paper) OR b.author_id NOT IN (SELECT author_id FROM dim_author);
-- name: bridge_paper_category rows point at a paper and a category
SELECT count(*) FROM bridge_paper_category b
WHERE b.paper_id NOT IN (SELECT paper_id FROM dim_paper) OR b.category_id NOT IN (SELECT category_id FROM dim_category);
-- name: every paper has its listings counted
SELECT count(*) FROM dim_paper p LEFT JOIN (SELECT paper_id, count(*) AS n FROM fact_listing GROUP BY ALL) f USING (paper_id)
WHERE coalesce(f.n, 0) <> p.n_listings OR p.n_listings = 0;
-- name: every paper has its author list in the bridge
SELECT count(*) FROM dim_paper p LEFT JOIN (SELECT paper_id, count(*) AS n FROM bridge_paper_author GROUP BY ALL) b USING (paper_id)
LEFT JOIN (
    -- a key's person: its alias, else the author row holding that key (an md5 per key is 2x slower)
    SELECT k.paper_id, count(DISTINCT coalesce(a.author_id, d.author_id)) AS n
    FROM (SELECT paper_id, unnest(author_keys) AS name_key FROM dim_paper) k
    LEFT JOIN author_alias a USING (name_key) LEFT JOIN dim_author d USING (name_key)
    GROUP BY ALL
) e USING (paper_id)
WHERE coalesce(b.n, 0) <> coalesce(e.n, 0);
-- name: no author row for a name key that is an alias
SELECT count(*) FROM dim_author WHERE name_key IN (SELECT name_key FROM author_alias);
-- name: paper_match rows point at mapped keys
SELECT count(*) FROM paper_match m ANTI JOIN paper_key_map k USING (paper_key, paper_id);
-- name: every author has a paper
SELECT count(*) FROM dim_author WHERE n_papers < 1;
-- name: every file's listing count matches its facts (a superseded version's: its history)
SELECT count(*) FROM dim_source_file s LEFT JOIN (SELECT source_file_id, count(*) AS n FROM fact_listing GROUP BY ALL) f USING (source_file_id)
LEFT JOIN (SELECT source_file_id, count(*) AS n FROM fact_listing_history GROUP BY ALL) h USING (source_file_id)
WHERE CASE WHEN s.is_current THEN coalesce(f.n, 0) <> s.n_listings OR h.n IS NOT NULL
           ELSE coalesce(h.n, 0) <> s.n_listings OR f.n IS NOT NULL END;
-- name: one current version per path
SELECT count(*) FROM (SELECT path FROM dim_source_file WHERE is_current GROUP BY path HAVING count(*) > 1);
-- name: quarantine rows point at a file
SELECT count(*) FROM quarantine q ANTI JOIN dim_source_file s USING (source_file_id);
-- name: paper_key_map points at papers (keys whose every listing was superseded may point nowhere)
SELECT count(*) FROM paper_key_map m ANTI JOIN dim_paper p USING (paper_id)
WHERE m.paper_key IN (SELECT paper_key FROM fact_listing);
