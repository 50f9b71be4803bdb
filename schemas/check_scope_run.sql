-- The blocking checks (schemas/checks.sql) over what this run wrote, after the merge: a +1 % run
-- at 1M listings spent 2.6-4.5 s checking whole tables. Each scope is a superset of the rows the
-- run inserted, updated or deleted, from the merge's own sets and, where a table says which run
-- wrote a row (run_id), from that too, so a gap in one is covered by the other.
-- Parameters: $run_id.

-- The listings this run inserted (ids as 10_files.sql gave them).
CREATE OR REPLACE TEMP TABLE check_listings AS SELECT DISTINCT listing_id FROM stg_listings;

-- The mentions this run decided (author_mention says which run wrote a row).
CREATE OR REPLACE TEMP TABLE check_mentions AS SELECT paper_id, author_id FROM author_mention WHERE run_id = $run_id;

-- Papers whose facts, rows, lists, mentions or bridge rows this run rewrote: the merge's touched
-- papers and those whose persons moved (bridge_papers), the papers of the new listings, and the
-- papers of the mentions this run decided.
CREATE OR REPLACE TEMP TABLE check_papers AS
SELECT paper_id FROM bridge_papers
UNION SELECT paper_id FROM fact_listing SEMI JOIN check_listings USING (listing_id)
UNION SELECT paper_id FROM check_mentions;

-- Persons whose rows this run rewrote, removed or aliased (touched_authors), and the persons of
-- the mentions it decided.
CREATE OR REPLACE TEMP TABLE check_authors AS
SELECT author_id FROM touched_authors UNION SELECT author_id FROM check_mentions;

-- Name keys given spellings by this run.
CREATE OR REPLACE TEMP TABLE check_names AS SELECT DISTINCT name_key FROM stg_authors;

-- A macro's parameter stands for every column of its name in the body, subqueries included:
-- hence x.
CREATE OR REPLACE TEMP MACRO run_listing(x) AS x IN (SELECT listing_id FROM check_listings);
CREATE OR REPLACE TEMP MACRO run_paper(x) AS x IN (SELECT paper_id FROM check_papers);
CREATE OR REPLACE TEMP MACRO run_author(x) AS x IN (SELECT author_id FROM check_authors);
CREATE OR REPLACE TEMP MACRO run_name(x) AS x IN (SELECT name_key FROM check_names);
