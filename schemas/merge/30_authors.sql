-- Merge, part 3 (after the person step, flows/persons.py, has decided every mention of the
-- touched papers in author_mention): the paper × person bridge and the persons' rows.
-- Parameters: $run_id.

CREATE OR REPLACE TEMP TABLE bridge_papers AS
SELECT paper_id FROM touched UNION SELECT paper_id FROM moved_papers;

-- Persons whose paper count or name may change: on the old or the new lists of those papers,
-- wearing a name given a new spelling or a new alias by this run, or merged into another.
-- (UNION drops the repeats once; a semi join needs no distinct keys: a first load's dim_author is empty)
CREATE OR REPLACE TEMP TABLE touched_authors AS
SELECT author_id FROM bridge_paper_author SEMI JOIN bridge_papers USING (paper_id)
UNION
SELECT author_id FROM author_mention SEMI JOIN bridge_papers USING (paper_id)
UNION
SELECT author_id FROM dim_author SEMI JOIN (
    SELECT coalesce(a.to_name_key, s.name_key) AS name_key FROM stg_authors s LEFT JOIN author_alias a USING (name_key)
    UNION ALL SELECT to_name_key FROM author_alias WHERE run_id = $run_id) USING (name_key)
UNION
SELECT from_author_id FROM person_alias WHERE run_id = $run_id;

-- One row per shown place, its mention's person: a person holds one place of a list (a name shown
-- twice is two persons: person_rare.sql, transforms.persons), so also one row per paper and person
-- (blocking checks, schemas/checks.sql).
DELETE FROM bridge_paper_author WHERE paper_id IN (SELECT paper_id FROM bridge_papers);
INSERT INTO bridge_paper_author BY NAME
SELECT paper_id, author_id, author_position FROM author_mention SEMI JOIN bridge_papers USING (paper_id);

-- A person's display name: the best spelling of its name key and of the keys aliased to it
-- (every person of a name shows the same name; dim_author.author_id tells them apart).
CREATE OR REPLACE TEMP TABLE author_rows AS
WITH persons AS (SELECT author_id, name_key FROM author_person SEMI JOIN touched_authors USING (author_id)),
spellings AS (  -- (name_key, its spelling's key, the spelling): a key's own and its aliases'
    SELECT name_key, name_key AS spelling_key, name, display_rank FROM author_name_variant
    SEMI JOIN persons USING (name_key)
    UNION ALL
    SELECT a.to_name_key, n.name_key, n.name, n.display_rank FROM author_alias a JOIN author_name_variant n USING (name_key)
    WHERE a.to_name_key IN (SELECT name_key FROM persons)
),
names AS (  -- the rank's case and plainness, then more words and humps in capitals ("Jian Yang" over "jian Yang",
            -- "Jean-Pierre" over "Jean-pierre", "LeCun" over "Lecun" and "LECUN": the larger text won),
            -- a particle not counted ("van Gogh" and "Van Gogh" tie: the larger text, "van"), then the rest
    SELECT name_key, first(name ORDER BY display_rank // 500 DESC,
                                         len(regexp_extract_all(regexp_replace(regexp_replace(name, '(\s)(?:Van|Von|Der|Den|De|Del|Della|Di|Da|Du|Dos|Das|Le|La|Ter|Ten|Zu)(\s)', '\1x\2', 'g'),
                                                                               '(\s)(?:Van|Von|Der|Den|De|Del|Della|Di|Da|Du|Dos|Das|Le|La|Ter|Ten|Zu)(\s)', '\1x\2', 'g'),
                                                                '(?:^|[\s\-''’])\p{Lu}|\p{Ll}\p{Lu}')) DESC,
                                         display_rank DESC, length(spelling_key) DESC, name DESC) AS name
    FROM spellings GROUP BY name_key
)
SELECT p.author_id, n.name, p.name_key, coalesce(c.n_papers, 0)::INTEGER AS n_papers
FROM persons p JOIN names n USING (name_key) LEFT JOIN (  -- a bridge row per paper and person (its insert above)
    SELECT author_id, count(*) AS n_papers FROM bridge_paper_author
    WHERE author_id IN (SELECT author_id FROM touched_authors) GROUP BY author_id
) c USING (author_id);
-- The touched persons that existed before this run: the run's new persons are the others (a
-- difference of totals is not: an edited file may remove persons as it adds some).
CREATE OR REPLACE TEMP TABLE authors_before AS SELECT author_id FROM dim_author SEMI JOIN touched_authors USING (author_id);
DELETE FROM dim_author WHERE author_id IN (SELECT author_id FROM touched_authors);
INSERT INTO dim_author BY NAME SELECT * FROM author_rows WHERE n_papers > 0;
-- A person left with no mention is gone (its paper left, or its only mention was decided again).
DELETE FROM author_person WHERE author_id IN (
    SELECT author_id FROM touched_authors ANTI JOIN dim_author USING (author_id));
