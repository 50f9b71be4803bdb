-- Apply this run's author aliases (alias_rows: name_key, drop_id, keep_id, keep_key, rule, run_id).
-- Keys already aliased to an id that is merged away follow it; the dropped id's own key too.
CREATE OR REPLACE TEMP TABLE alias_changes AS
SELECT drop_id, any_value(keep_id) AS keep_id, any_value(keep_key) AS keep_key, min(rule) AS rule,
       any_value(run_id) AS run_id
FROM alias_rows GROUP BY drop_id;

INSERT OR REPLACE INTO author_alias BY NAME
SELECT a.name_key, c.keep_id AS author_id, c.keep_key AS to_name_key, a.rule, c.run_id
FROM author_alias a JOIN alias_changes c ON a.author_id = c.drop_id;

INSERT OR REPLACE INTO author_alias BY NAME
SELECT d.name_key, c.keep_id AS author_id, c.keep_key AS to_name_key, c.rule, c.run_id
FROM (SELECT DISTINCT name_key, author_id FROM dim_author) d JOIN alias_changes c ON d.author_id = c.drop_id;

INSERT OR REPLACE INTO author_alias BY NAME
SELECT name_key, keep_id AS author_id, keep_key AS to_name_key, rule, run_id FROM alias_rows
WHERE stable_id(name_key) <> keep_id;
