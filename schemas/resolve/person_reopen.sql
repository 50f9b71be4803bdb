-- Names that were decided without evidence (every stored mention by the rare-name rule, or from
-- before persons existed) and are common now (common_keys): their stored mentions are taken
-- back to be decided again (reopened_mentions), their persons dropped (the first is founded
-- again with the same id), and their papers' bridge rows rebuilt.
CREATE OR REPLACE TEMP TABLE reopened_keys AS
SELECT name_key FROM author_mention SEMI JOIN common_keys USING (name_key)
GROUP BY name_key HAVING bool_and(rule IN ('rare_name', 'one_name_one_person')) AND count(*) > 1;
CREATE OR REPLACE TEMP TABLE reopened_mentions AS
SELECT paper_id, author_position, name_key, mention_key FROM author_mention SEMI JOIN reopened_keys USING (name_key);
INSERT INTO moved_papers SELECT DISTINCT paper_id FROM reopened_mentions;
DELETE FROM author_mention USING reopened_mentions r
WHERE author_mention.paper_id = r.paper_id AND author_mention.author_position = r.author_position;
DELETE FROM author_person WHERE name_key IN (SELECT name_key FROM reopened_keys);
