-- Blocking checks, run after every load inside its transaction: each query counts violations
-- and the load is rolled back unless every count is 0. One check per "-- name:" block.
--
-- Each check looks at the rows in the scope macros: run_paper(paper_id), run_author(author_id),
-- run_name(name_key), run_listing(listing_id). For a whole-warehouse check (`digest audit`, a
-- first load, a run that upgraded the schema or brought other checks) they are all true
-- (schemas/check_scope_all.sql). Otherwise they hold what this run wrote
-- (schemas/check_scope_run.sql): the warehouse passed these same checks when its last run
-- committed, so a violation now has at least one row this run wrote, and every check below
-- keeps, for a key it groups or joins on, every row that shares the key with such a row.

-- name: one fact_listing row per listing_id (the table has no key: schemas/warehouse.sql)
SELECT count(*) FROM (SELECT listing_id FROM fact_listing WHERE run_listing(listing_id) GROUP BY listing_id HAVING count(*) > 1);
-- name: one dim_author row per author_id
SELECT count(*) FROM (SELECT author_id FROM dim_author WHERE run_author(author_id) GROUP BY author_id HAVING count(*) > 1);
-- name: one author_name_variant row per name_key and spelling
SELECT count(*) FROM (SELECT name_key, name FROM author_name_variant WHERE run_name(name_key) GROUP BY ALL HAVING count(*) > 1);
-- name: one bridge_paper_author row per paper and position
SELECT count(*) FROM (SELECT paper_id, author_position FROM bridge_paper_author WHERE run_paper(paper_id) GROUP BY ALL HAVING count(*) > 1);
-- name: one author_mention row per paper and position
SELECT count(*) FROM (SELECT paper_id, author_position FROM author_mention WHERE run_paper(paper_id) GROUP BY ALL HAVING count(*) > 1);
-- name: one author_person row per author_id
SELECT count(*) FROM (SELECT author_id FROM author_person WHERE run_author(author_id) GROUP BY author_id HAVING count(*) > 1);
-- name: no conference area under an arXiv category's code (an area that is an arXiv code is that category: transforms/categories.py)
-- (an arXiv row of no known archive, a listing's "self-supervised", may share its code with a search page's area)
SELECT count(*) FROM dim_category c JOIN dim_category a USING (code)
WHERE c.taxonomy = 'conference' AND a.taxonomy = 'arxiv' AND a.parent_name IS NOT NULL;
-- name: fact_listing.paper_id has a dim_paper row
SELECT count(*) FROM fact_listing f ANTI JOIN dim_paper p USING (paper_id) WHERE run_paper(f.paper_id);
-- name: fact_listing.source_file_id has a dim_source_file row
SELECT count(*) FROM fact_listing f ANTI JOIN dim_source_file s USING (source_file_id);
-- name: fact_listing.category_id has a dim_category row
SELECT count(*) FROM fact_listing f ANTI JOIN dim_category c USING (category_id) WHERE f.category_id IS NOT NULL;
-- name: fact_listing.listed_on has a dim_date row
SELECT count(*) FROM fact_listing f ANTI JOIN dim_date d ON d.date = f.listed_on WHERE f.listed_on IS NOT NULL;
-- name: bridge_paper_author rows point at a paper and an author
SELECT count(*) FROM bridge_paper_author b
WHERE (run_paper(b.paper_id) OR run_author(b.author_id))
  AND (b.paper_id NOT IN (SELECT paper_id FROM dim_paper) OR b.author_id NOT IN (SELECT author_id FROM dim_author));
-- name: bridge_paper_category rows point at a paper and a category
SELECT count(*) FROM bridge_paper_category b
WHERE b.paper_id NOT IN (SELECT paper_id FROM dim_paper) OR b.category_id NOT IN (SELECT category_id FROM dim_category);
-- name: every paper has its listings counted
SELECT count(*) FROM (SELECT * FROM dim_paper WHERE run_paper(paper_id)) p
LEFT JOIN (SELECT paper_id, count(*) AS n FROM fact_listing WHERE run_paper(paper_id) GROUP BY ALL) f USING (paper_id)
WHERE coalesce(f.n, 0) <> p.n_listings OR p.n_listings = 0;
-- name: every shown author of every paper has a decided person (author_mention), at its position
SELECT count(*) FROM (
    SELECT paper_id, unnest(author_keys) AS mention_key, unnest(range(1, len(author_keys) + 1)) AS author_position
    FROM dim_paper WHERE run_paper(paper_id)
) k FULL JOIN (SELECT * FROM author_mention WHERE run_paper(paper_id)) m USING (paper_id, author_position)
WHERE k.mention_key IS DISTINCT FROM m.mention_key;
-- name: the bridge holds every shown author of every paper, at its position, with its person
SELECT count(*) FROM (SELECT paper_id, author_position, author_id FROM author_mention WHERE run_paper(paper_id)) m
FULL JOIN (SELECT * FROM bridge_paper_author WHERE run_paper(paper_id)) b USING (paper_id, author_position, author_id)
WHERE m.paper_id IS NULL OR b.paper_id IS NULL;
-- name: a paper's bridge rows are its shown authors (n_authors_shown)
SELECT count(*) FROM (SELECT * FROM dim_paper WHERE run_paper(paper_id)) p
LEFT JOIN (SELECT paper_id, count(*) AS n FROM bridge_paper_author WHERE run_paper(paper_id) GROUP BY ALL) b USING (paper_id)
WHERE coalesce(b.n, 0) <> coalesce(p.n_authors_shown, 0);
-- name: one bridge_paper_author row per paper and person (a person holds one place of a list)
SELECT count(*) FROM (SELECT paper_id, author_id FROM bridge_paper_author WHERE run_paper(paper_id) GROUP BY ALL HAVING count(*) > 1);
-- name: every decided person has an author row, and merged persons none
SELECT (SELECT count(*) FROM author_mention m ANTI JOIN dim_author USING (author_id)
        WHERE run_paper(m.paper_id) OR run_author(m.author_id))
     + (SELECT count(*) FROM dim_author WHERE run_author(author_id) AND author_id IN (SELECT from_author_id FROM person_alias));
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
