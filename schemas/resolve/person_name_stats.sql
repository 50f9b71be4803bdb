-- Name statistics without reading every name: for the keys of {keys} (name_key), how many
-- distinct name keys (stored, of this run: batch_keys, or these) carry each one's given name (first
-- word) and surname (last word), counted in the warehouse over the keys that share one of those
-- parts. transforms.persons.commonness_from_counts turns them into commonness.
UPDATE author_person SET given = regexp_extract(name_key, '^(\S+)', 1), surname = regexp_extract(name_key, '(\S+)$', 1)
WHERE given IS NULL;
CREATE OR REPLACE TEMP TABLE stat_keys AS
SELECT DISTINCT name_key, regexp_extract(name_key, '^(\S+)', 1) AS given, regexp_extract(name_key, '(\S+)$', 1) AS surname,
       length(name_key) - length(replace(name_key, ' ', '')) + 1 AS n_tokens
FROM {keys};
CREATE OR REPLACE TEMP TABLE stat_population AS
SELECT DISTINCT name_key, given, surname FROM author_person
WHERE given IN (SELECT given FROM stat_keys) OR surname IN (SELECT surname FROM stat_keys)
UNION
SELECT name_key, regexp_extract(name_key, '^(\S+)', 1), regexp_extract(name_key, '(\S+)$', 1) FROM batch_keys
UNION  -- the keys themselves (a name being decided again has no stored person at this point)
SELECT name_key, given, surname FROM stat_keys;
CREATE OR REPLACE TEMP TABLE name_counts AS
SELECT k.name_key, k.given, k.surname, k.n_tokens, coalesce(g.n, 0) AS n_given, coalesce(s.n, 0) AS n_surname
FROM stat_keys k
LEFT JOIN (SELECT given, count(*) AS n FROM stat_population GROUP BY given) g USING (given)
LEFT JOIN (SELECT surname, count(*) AS n FROM stat_population GROUP BY surname) s USING (surname);
