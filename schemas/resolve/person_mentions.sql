-- The author mentions of this run (after merge/20_papers.sql): which are new and need a person.
-- Leaves run_mentions (every mention of the touched papers as merged) and new_mentions (those
-- with no stored decision).

-- A warehouse from before persons: its stored mentions are decided as they were (one name key,
-- one person), so no id moves.
INSERT INTO author_mention BY NAME
SELECT k.paper_id, k.author_position, k.mention_key, coalesce(a.to_name_key, k.mention_key) AS name_key,
       coalesce(a.author_id, stable_id(k.mention_key)) AS author_id,
       coalesce(a.author_id, stable_id(k.mention_key)) AS decided_id, 'one_name_one_person' AS rule
FROM (SELECT paper_id, unnest(author_keys) AS mention_key, unnest(range(1, len(author_keys) + 1)) AS author_position
      FROM dim_paper ANTI JOIN touched USING (paper_id)
      WHERE NOT EXISTS (SELECT 1 FROM author_mention) AND EXISTS (SELECT 1 FROM bridge_paper_author)) k
LEFT JOIN author_alias a ON a.name_key = k.mention_key;
INSERT INTO author_person BY NAME
SELECT author_id, name_key, NULL::BOOLEAN AS is_repeat FROM dim_author  -- (null: looked at below)
WHERE NOT EXISTS (SELECT 1 FROM author_person) AND EXISTS (SELECT 1 FROM bridge_paper_author);

-- A warehouse an older release wrote (author_person.is_repeat null, once) may hold one person at two
-- places of one list (a rare name shown twice), the later place without a bridge row: those
-- mentions are decided again (stale_mentions, below: a later place is a person of its own); and
-- persons named by their name's best spelling, a namesake's perhaps (merge/30_authors.sql names
-- them again).
CREATE OR REPLACE TEMP TABLE older_persons AS
SELECT EXISTS (SELECT 1 FROM author_person WHERE is_repeat IS NULL) AS is_older;
CREATE OR REPLACE TEMP TABLE shared_places AS
SELECT paper_id, author_position, author_id FROM author_mention WHERE (SELECT is_older FROM older_persons)
QUALIFY row_number() OVER (PARTITION BY paper_id, author_id ORDER BY author_position) > 1;
UPDATE author_person SET is_repeat = false WHERE is_repeat IS NULL;

-- The papers whose mentions are looked at: the touched ones, and those showing a short form whose
-- alias the resolver withdrew (flows/resolve.py: its key stands for itself again).
CREATE TEMP TABLE IF NOT EXISTS withdrawn_aliases (name_key VARCHAR);  -- (a resolver that withdraws none)
CREATE OR REPLACE TEMP TABLE realiased_papers AS
SELECT DISTINCT paper_id FROM author_mention SEMI JOIN withdrawn_aliases ON mention_key = withdrawn_aliases.name_key
ANTI JOIN touched USING (paper_id);
CREATE OR REPLACE TEMP TABLE mention_papers AS
SELECT paper_id FROM touched UNION ALL SELECT paper_id FROM realiased_papers
UNION ALL (SELECT DISTINCT paper_id FROM shared_places ANTI JOIN touched USING (paper_id)
           ANTI JOIN realiased_papers USING (paper_id));

-- Every shown author of every such paper: the key shown and the name it stands for.
CREATE OR REPLACE TEMP TABLE run_mentions AS
SELECT k.paper_id, k.author_position::INTEGER AS author_position, k.mention_key,
       coalesce(a.to_name_key, k.mention_key) AS name_key
FROM (SELECT paper_id, unnest(author_keys) AS mention_key, unnest(range(1, len(author_keys) + 1)) AS author_position
      FROM dim_paper SEMI JOIN mention_papers USING (paper_id)) k
LEFT JOIN author_alias a ON a.name_key = k.mention_key;

-- A touched paper changed in some way a person's evidence reads (its author list, categories,
-- dates, title or abstract, or it left): the evidence of the persons on it is read again from
-- their mentions when needed, as a fresh load would gather it. One rule for every kind of change.
UPDATE author_person SET first_on = NULL, last_on = NULL, n_mentions = NULL, paper_ids = NULL, coauthors = NULL,
                         categories = NULL, words = NULL
WHERE author_id IN (SELECT author_id FROM author_mention SEMI JOIN mention_papers USING (paper_id)) AND paper_ids IS NOT NULL;

-- Stored decisions that no longer hold: the paper left, its list changed at that position, or the
-- shown key now stands for another name; a rare name's mention that is now its name's first place
-- on the list and was a later one, or the other way round (person_rare.sql: a later place is a
-- person of its own); one person at two places (shared_places). Their persons' evidence is read
-- again when needed.
CREATE OR REPLACE TEMP TABLE stale_mentions AS
WITH stored AS (SELECT * FROM author_mention SEMI JOIN mention_papers USING (paper_id)),
first_places AS (  -- of the stored rare names' (a first load has none)
    SELECT paper_id, name_key, min(author_position) AS first_position FROM run_mentions
    SEMI JOIN (SELECT paper_id, name_key FROM stored WHERE rule IN ('rare_name', 'repeat_name')) USING (paper_id, name_key)
    GROUP BY ALL
)
SELECT m.paper_id, m.author_position, m.author_id FROM stored m
ANTI JOIN run_mentions r USING (paper_id, author_position, mention_key, name_key)
UNION
SELECT m.paper_id, m.author_position, m.author_id FROM stored m JOIN first_places f USING (paper_id, name_key)
WHERE m.rule IN ('rare_name', 'repeat_name') AND (m.rule = 'repeat_name') <> (m.author_position > f.first_position)
UNION
SELECT * FROM shared_places;
-- Every stored decision this run takes back (here, and names decided again: person_reopen.sql), as
-- it was: a person that ends is forwarded to where its mentions went (person_forward.sql).
CREATE OR REPLACE TEMP TABLE mentions_taken_back AS
SELECT paper_id, author_position, mention_key, name_key, author_id, decided_id, 'its mentions changed' AS reason
FROM author_mention SEMI JOIN stale_mentions USING (paper_id, author_position);
DELETE FROM author_mention USING stale_mentions s
WHERE author_mention.paper_id = s.paper_id AND author_mention.author_position = s.author_position;

CREATE OR REPLACE TEMP TABLE new_mentions AS
SELECT r.* FROM run_mentions r ANTI JOIN author_mention m USING (paper_id, author_position);

-- Papers whose bridge rows a person merge may move (filled by the person step), and those of the
-- withdrawn aliases' mentions.
CREATE OR REPLACE TEMP TABLE moved_papers AS
SELECT paper_id FROM realiased_papers UNION SELECT DISTINCT paper_id FROM shared_places;
