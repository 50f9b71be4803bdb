-- Names whose stored decisions a fresh load would not have made, decided again with this run's
-- mentions (reopened_mentions), in the canonical order a fresh load uses: a name common now
-- (common_keys) with a mention decided without evidence (by the rare-name rule, or from before
-- persons existed: any one, since a name common, then rare, then common again holds both kinds,
-- and a fresh load decides every mention on evidence), or that this run mentions earlier in the canonical order
-- (listing date, undated last, then paper id and position) than a stored mention (older files
-- loaded later), or decided on evidence on a paper whose first listing date this run moved, either
-- way, or whose words or categories it changed; and a name several persons wear that is rare by
-- today's statistics (rare_again_keys); and a name several persons wear, or whose persons were merged, decided on
-- evidence on a paper that gained or changed names, or that left. Their persons are dropped (a
-- name's first person is founded again with the same id), so are their merges (person_alias: made
-- again if the evidence still says so), and their papers' bridge rows are rebuilt.
-- The first new mention of each common name: batch_keys holds it (person_names.sql, grouped over
-- new_mentions as they still are: nothing is taken back yet).
CREATE OR REPLACE TEMP TABLE canonical_new AS
SELECT name_key, first_rank FROM batch_keys SEMI JOIN common_keys USING (name_key);
-- Names decided on evidence into several persons (a name's persons beyond its marked one,
-- person_marks.sql: a few rows, not a count over every person), or into persons merged since.
-- A merge leaves one person: the evidence that joined two may change as a split's may.
CREATE OR REPLACE TEMP TABLE split_or_merged_keys AS
SELECT name_key FROM author_person WHERE NOT first_of_name AND is_repeat IS NOT TRUE
UNION SELECT name_key FROM person_alias WHERE rule IS DISTINCT FROM 'forwarded';
-- Stored papers whose words or categories, as the person model reads them, this run changed.
CREATE OR REPLACE TEMP TABLE reworded_papers AS
SELECT b.paper_id FROM paper_dates_before b JOIN dim_paper p USING (paper_id)
LEFT JOIN (SELECT paper_id, list(category_id ORDER BY category_id) AS category_ids FROM bridge_paper_category
           SEMI JOIN paper_dates_before USING (paper_id) GROUP BY paper_id) c USING (paper_id)
WHERE person_words_md5(p.title, p.abstract) IS DISTINCT FROM b.words_md5 OR c.category_ids IS DISTINCT FROM b.category_ids;
CREATE OR REPLACE TEMP TABLE reopened_keys AS
SELECT m.name_key FROM author_mention m SEMI JOIN common_keys USING (name_key)
JOIN dim_paper p USING (paper_id) LEFT JOIN canonical_new c USING (name_key)
GROUP BY m.name_key
HAVING (bool_or(m.rule IN ('rare_name', 'repeat_name', 'one_name_one_person')) AND count(*) > 1)
    OR max(canonical_rank(p.first_listed_on, m.paper_id, m.author_position)) > any_value(c.first_rank)
UNION
SELECT name_key FROM rare_again_keys
UNION  -- decided on evidence, on a paper this run moved in that order: earlier (an older listing loaded
       -- now) or later (a header date corrected in an edited file, a record moved to a later day's
       -- file): the name's first person, and each further person's founding mention, may be another
SELECT DISTINCT m.name_key FROM author_mention m JOIN paper_dates_before b USING (paper_id) JOIN dim_paper p USING (paper_id)
WHERE p.first_listed_on IS DISTINCT FROM b.first_listed_on
  AND m.rule NOT IN ('rare_name', 'repeat_name', 'one_name_one_person')
UNION  -- decided on evidence on a paper whose words or categories this run changed (a v2's title and
       -- abstract, a category corrected in an edited file): a fresh load reads the new ones, and may
       -- split a name one person wore, or join two
SELECT DISTINCT m.name_key FROM author_mention m SEMI JOIN reworded_papers USING (paper_id)
WHERE m.rule NOT IN ('rare_name', 'repeat_name', 'one_name_one_person')
UNION  -- worn by several persons, or merged, and decided on evidence on a paper this run shows other
       -- names of (a search page's ten after a listing's three, a co-author's name corrected): those
       -- names are the mention's co-authors, as a fresh load reads them, and may join two of its
       -- persons, or no longer join the merged ones
SELECT DISTINCT m.name_key FROM author_mention m SEMI JOIN (SELECT DISTINCT paper_id FROM new_mentions) n USING (paper_id)
SEMI JOIN split_or_merged_keys USING (name_key)
WHERE m.rule NOT IN ('rare_name', 'repeat_name', 'one_name_one_person')
UNION  -- worn by several persons, or merged, and mentioned on a paper this run drops or changes: what it
       -- founded, joined or merged may stand on it (two persons merged by their one co-author stayed
       -- merged after an edited file dropped the paper, or dropped that co-author from the list's end)
SELECT DISTINCT p.name_key FROM stale_mentions s JOIN author_person p USING (author_id)
SEMI JOIN split_or_merged_keys USING (name_key)
UNION
SELECT DISTINCT m.name_key FROM author_mention m SEMI JOIN (SELECT DISTINCT paper_id FROM stale_mentions) s USING (paper_id)
SEMI JOIN split_or_merged_keys USING (name_key);
INSERT INTO taken_back_keys SELECT name_key FROM reopened_keys;
CREATE OR REPLACE TEMP TABLE reopened_mentions AS
SELECT paper_id, author_position, name_key, mention_key FROM author_mention SEMI JOIN reopened_keys USING (name_key);
INSERT INTO moved_papers SELECT DISTINCT paper_id FROM reopened_mentions;
INSERT INTO mentions_taken_back BY NAME
SELECT paper_id, author_position, mention_key, name_key, author_id, decided_id, 'name decided again' AS reason
FROM author_mention SEMI JOIN reopened_keys USING (name_key);
DELETE FROM author_mention USING reopened_mentions r
WHERE author_mention.paper_id = r.paper_id AND author_mention.author_position = r.author_position;
DELETE FROM author_person WHERE name_key IN (SELECT name_key FROM reopened_keys);
-- (the merges only: an id forwarded earlier stays forwarded, person_forward.sql)
DELETE FROM person_alias WHERE name_key IN (SELECT name_key FROM reopened_keys) AND rule IS DISTINCT FROM 'forwarded';
