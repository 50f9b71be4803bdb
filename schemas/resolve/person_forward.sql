-- Person ids that ended in this run, forwarded (after merge/30_authors.sql, which drops a person
-- left without a mention): a stored person whose mentions were decided again (mentions_taken_back,
-- person_mentions.sql and person_reopen.sql) and that no longer exists gets a person_alias row to
-- the person now holding most of those mentions, so an id a user saved still resolves (GUIDE §3:
-- adding files never renumbers existing rows). A mention is followed on its paper by its name key,
-- else by the key shown (an alias changed the name it stands for); a person whose every mention
-- left with its paper has nowhere to point and is not forwarded. Parameters: $run_id.
CREATE OR REPLACE TEMP TABLE ended_persons AS
WITH before AS (  -- each taken-back mention under the person it named and the one decided (before a merge)
    SELECT paper_id, author_position, mention_key, name_key, author_id, reason FROM mentions_taken_back
    UNION
    SELECT paper_id, author_position, mention_key, name_key, decided_id, reason FROM mentions_taken_back
),
ended AS (SELECT * FROM before ANTI JOIN author_person USING (author_id)),
went AS (  -- where each of an ended person's mentions is now: at its own place on the list when
    -- it is still there (a paper of two "Wei Wang"s: not the other one's), else by name
    SELECT e.author_id, e.name_key, e.reason, e.paper_id, e.author_position, now.author_id AS to_author_id
    FROM ended e JOIN author_mention now ON now.paper_id = e.paper_id
     AND (now.name_key = e.name_key OR now.mention_key = e.mention_key)
    QUALIFY rank() OVER (PARTITION BY e.author_id, e.paper_id, e.author_position
                         ORDER BY now.author_position = e.author_position DESC) = 1
)
SELECT author_id AS from_author_id, arg_min(to_author_id, (-n, to_author_id)) AS to_author_id,
       any_value(name_key) AS name_key, arg_min(paper_id, (-n, to_author_id)) AS paper_id,
       arg_min(author_position, (-n, to_author_id)) AS author_position,
       CASE WHEN bool_or(reason = 'name decided again') THEN 'name decided again' ELSE 'its mentions changed' END AS reason
FROM (SELECT *, count(*) OVER (PARTITION BY author_id, to_author_id) AS n FROM went)
GROUP BY author_id;
-- Earlier forwards and merges to an id that ended follow it; an id that exists again (founded
-- anew by the same mention) is no alias.
UPDATE person_alias SET to_author_id = e.to_author_id FROM ended_persons e WHERE person_alias.to_author_id = e.from_author_id;
INSERT OR REPLACE INTO person_alias BY NAME
SELECT from_author_id, to_author_id, name_key, paper_id, author_position, NULL::DOUBLE AS score, 'forwarded' AS rule,
       reason, $run_id AS run_id
FROM ended_persons ANTI JOIN person_alias ON person_alias.from_author_id = ended_persons.from_author_id;
DELETE FROM person_alias WHERE from_author_id IN (SELECT author_id FROM author_person);
