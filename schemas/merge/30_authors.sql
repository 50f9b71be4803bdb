-- Merge, part 3 (after the person step, flows/persons.py, has decided every mention of the
-- touched papers in author_mention): the paper × person bridge and the persons' rows.
-- Parameters: $run_id.

CREATE TEMP TABLE IF NOT EXISTS older_persons AS SELECT false AS is_older;  -- (a caller without the person step)
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
SELECT from_author_id FROM person_alias WHERE run_id = $run_id
UNION  -- once, in a warehouse an older release wrote (resolve/person_mentions.sql): the persons of the
       -- names worn by several, all of them named by their name's best spelling then
SELECT author_id FROM author_person
WHERE (SELECT is_older FROM older_persons) AND name_key IN (SELECT name_key FROM author_person WHERE NOT first_of_name);

-- One row per shown place, its mention's person: a person holds one place of a list (a name shown
-- twice is two persons: person_rare.sql, transforms.persons), so also one row per paper and person
-- (blocking checks, schemas/checks.sql).
DELETE FROM bridge_paper_author WHERE paper_id IN (SELECT paper_id FROM bridge_papers);
INSERT INTO bridge_paper_author BY NAME
SELECT paper_id, author_id, author_position FROM author_mention SEMI JOIN bridge_papers USING (paper_id);

-- How a display name is chosen among spellings, best first (compared as a whole, each part higher
-- is better): the rank's case and plainness, then more words and humps in capitals ("Jian Yang" over
-- "jian Yang", "Jean-Pierre" over "Jean-pierre", "LeCun" over "Lecun" and "LECUN": the larger text
-- won), a particle not counted ("van Gogh" and "Van Gogh" tie: the larger text, "van"), then the
-- rank, a longer key (a full name over the initials aliased to it), the larger text.
CREATE OR REPLACE TEMP MACRO display_order(name, display_rank, spelling_key) AS {
    case_plain: display_rank // 500,
    humps: len(regexp_extract_all(regexp_replace(regexp_replace(name, '(\s)(?:Van|Von|Der|Den|De|Del|Della|Di|Da|Du|Dos|Das|Le|La|Ter|Ten|Zu)(\s)', '\1x\2', 'g'),
                                                 '(\s)(?:Van|Von|Der|Den|De|Del|Della|Di|Da|Du|Dos|Das|Le|La|Ter|Ten|Zu)(\s)', '\1x\2', 'g'),
                                  '(?:^|[\s\-''’])\p{Lu}|\p{Ll}\p{Lu}')),
    display_rank: display_rank, key_length: length(spelling_key), name: name};

-- A person's display name: the best spelling its own mentions show (every current list of its papers,
-- at its places), so a namesake's spelling is never another person's name ("YuAn Wang" was both
-- Yuan Wangs' name, one only ever written "Yuan Wang"). An own best with a word in one case only (in
-- CAPITALS or lower case: a form's or a profile's noise, "YU LI", "Bing WANG", "jian Yang") is
-- written as the best spelling of its name with the same letters ("Yu Li", "Bing Wang", "Jian
-- Yang"; a particle stays: "van" is the better spelling), but not one with a capital inside a word
-- when its own has none ("YUAN WANG" is not "YuAn Wang"). A name of one spelling (its key's and
-- those of the keys aliased to it) is its persons' name without reading their mentions (99 % of
-- names), and a person without a spelling of its own (none ranked) shows its name's best.
CREATE OR REPLACE TEMP TABLE author_rows AS
WITH persons AS (SELECT author_id, name_key FROM author_person SEMI JOIN touched_authors USING (author_id)),
spellings AS (  -- (name_key, its spelling's key, the spelling): a key's own and its aliases'
    SELECT name_key, name_key AS spelling_key, name, display_rank FROM author_name_variant
    SEMI JOIN persons USING (name_key)
    UNION ALL
    SELECT a.to_name_key, n.name_key, n.name, n.display_rank FROM author_alias a JOIN author_name_variant n USING (name_key)
    WHERE a.to_name_key IN (SELECT name_key FROM persons)
),
names AS (  -- a name of one spelling is it; the others' best is ranked (below): 1 % of names
    SELECT name_key, count(*) AS n_spellings, any_value(name) AS name FROM spellings GROUP BY name_key
),
ranked AS (
    SELECT name_key, max(display_order(name, display_rank, spelling_key)) AS best
    FROM spellings SEMI JOIN (SELECT name_key FROM names WHERE n_spellings > 1) USING (name_key) GROUP BY name_key
),
places AS (
    SELECT m.paper_id, m.author_position, m.mention_key, m.author_id FROM author_mention m
    SEMI JOIN (SELECT author_id FROM persons JOIN names USING (name_key) WHERE n_spellings > 1) USING (author_id)
),
lists AS (  -- every current list of those papers: the stored version of each key with a current listing
            -- (two listings of one paper, "Jean-Pierre" in one and "Jean-pierre" in the other)
    SELECT k.paper_id, v.authors, v.author_keys
    FROM (SELECT DISTINCT paper_id, paper_key FROM fact_listing SEMI JOIN places USING (paper_id)) k
    JOIN paper_version v USING (paper_key)
),
own AS (
    SELECT o.author_id, max(display_order(o.name, v.display_rank, o.spelling_key)) AS best FROM (
        SELECT DISTINCT m.author_id, m.mention_key AS spelling_key, l.authors[m.author_position] AS name
        FROM places m JOIN lists l USING (paper_id) WHERE l.author_keys[m.author_position] = m.mention_key
    ) o JOIN author_name_variant v ON v.name_key = o.spelling_key AND v.name = o.name
    GROUP BY o.author_id
),
case_fixed AS (
    SELECT o.author_id, max(display_order(s.name, s.display_rank, s.spelling_key)) AS best
    FROM own o JOIN persons p USING (author_id) JOIN spellings s USING (name_key)
    WHERE regexp_matches(o.best.name, '(^|[\s\-])(\p{Lu}{2,}|\p{Ll}+)($|[\s\-])') AND lower(s.name) = lower(o.best.name)
      AND (NOT regexp_matches(s.name, '\p{Ll}\p{Lu}') OR regexp_matches(o.best.name, '\p{Ll}\p{Lu}'))
    GROUP BY o.author_id
),
shown AS (
    SELECT p.author_id, coalesce(c.best.name, o.best.name, r.best.name, n.name) AS name
    FROM persons p JOIN names n USING (name_key) LEFT JOIN ranked r USING (name_key)
    LEFT JOIN own o USING (author_id) LEFT JOIN case_fixed c USING (author_id)
)
SELECT p.author_id, n.name, p.name_key, coalesce(c.n_papers, 0)::INTEGER AS n_papers
FROM persons p JOIN shown n USING (author_id) LEFT JOIN (  -- a bridge row per paper and person (its insert above)
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
