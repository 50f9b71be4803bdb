-- The number of distinct name keys of two words or more, stored or of this run (batch_keys),
-- before any name is taken back to be decided again.
CREATE OR REPLACE TEMP TABLE n_name_keys AS
SELECT count(*) AS n FROM (
    SELECT DISTINCT name_key FROM author_person WHERE contains(name_key, ' ')
    UNION SELECT name_key FROM batch_keys WHERE contains(name_key, ' ')
);
