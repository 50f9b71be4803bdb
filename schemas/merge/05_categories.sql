-- Merge, part 0 (before the run's files): conference areas a load before session 46 stored under
-- a code now read as an arXiv code (a search page's "hep-ph", "CS.LG": transforms/categories.py)
-- move to that arXiv row, as a fresh load of the same files has them: the area's row stood beside
-- the arXiv row of the same code, and a paper listed in both formats was counted twice under it.
-- category_moves (flows/load.py): from_id, and the arXiv row's columns. A listing's cross-listed
-- areas (secondary_category_ids) are never such an area: a search page reads a list of areas only
-- when each holds a level (" · ").
INSERT INTO dim_category BY NAME SELECT DISTINCT * EXCLUDE (from_id) FROM category_moves ON CONFLICT DO NOTHING;
UPDATE fact_listing SET category_id = m.category_id FROM category_moves m WHERE fact_listing.category_id = m.from_id;
UPDATE fact_listing_history SET category_id = m.category_id FROM category_moves m
WHERE fact_listing_history.category_id = m.from_id;
INSERT INTO bridge_paper_category BY NAME
SELECT DISTINCT b.paper_id, m.category_id FROM bridge_paper_category b JOIN category_moves m ON b.category_id = m.from_id
ON CONFLICT DO NOTHING;
DELETE FROM bridge_paper_category WHERE category_id IN (SELECT from_id FROM category_moves);
DELETE FROM dim_category WHERE category_id IN (SELECT from_id FROM category_moves);
