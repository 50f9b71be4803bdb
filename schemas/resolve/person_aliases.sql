-- Apply this run's person aliases (new_person_aliases: from_author_id → to_author_id, the elder,
-- with the mention that showed it). Ids are not renumbered: the alias is recorded, the younger
-- person's mentions point at the elder, and earlier aliases to the younger follow.
INSERT INTO moved_papers SELECT DISTINCT paper_id FROM author_mention
WHERE author_id IN (SELECT from_author_id FROM new_person_aliases);
UPDATE author_mention SET author_id = a.to_author_id FROM new_person_aliases a
WHERE author_mention.author_id = a.from_author_id;
UPDATE person_alias SET to_author_id = a.to_author_id FROM new_person_aliases a
WHERE person_alias.to_author_id = a.from_author_id;
INSERT OR REPLACE INTO person_alias BY NAME SELECT *, 'merged' AS reason FROM new_person_aliases;
DELETE FROM author_person WHERE author_id IN (SELECT from_author_id FROM new_person_aliases);
