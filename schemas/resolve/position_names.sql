-- Names at each position of each touched paper, from every list of it (this run's listings, its
-- candidates, the stored list), where the lists disagree.
CREATE OR REPLACE TEMP TABLE position_names AS
WITH touched_papers AS (
    SELECT DISTINCT paper_id FROM stg_listings JOIN paper_key_map USING (paper_key)
), lists AS (
    SELECT m.paper_id, l.authors, l.author_keys FROM stg_listings l JOIN paper_key_map m USING (paper_key)
    UNION ALL
    SELECT paper_id, authors, author_keys FROM dim_paper SEMI JOIN touched_papers USING (paper_id)
), named AS (
    SELECT paper_id, unnest(authors) AS name, unnest(author_keys) AS name_key,
           generate_subscripts(author_keys, 1) AS pos FROM lists
)
SELECT paper_id, pos, name_key, max(name) AS name FROM named
WHERE (paper_id, pos) IN (SELECT paper_id, pos FROM named GROUP BY ALL HAVING count(DISTINCT name_key) > 1)
GROUP BY ALL;
