-- Stored initials aliases a new name of this run may make ambiguous: a short form (the alias's own
-- key, shorter than the key it points at) whose surname a name key new to the warehouse wears.
-- flows/resolve.py checks them as a new alias is checked (initials_known.sql).
WITH new_surnames AS (
    SELECT DISTINCT string_split(name_key, ' ')[-1] AS surname
    FROM (SELECT DISTINCT name_key FROM stg_authors) ANTI JOIN author_name_variant USING (name_key)
)
SELECT DISTINCT a.name_key AS short_key FROM author_alias a
JOIN new_surnames s ON s.surname = string_split(a.name_key, ' ')[-1]
WHERE a.rule = 'initials' AND length(replace(a.name_key, ' ', '')) < length(replace(a.to_name_key, ' ', ''))
