-- Stored initials aliases a new name of this run may make ambiguous: an alias (alias_key) whose
-- short form (short_key: the shorter of its two keys) has the surname of a name key new to the
-- warehouse. The short form is the alias's own key, or the key it points at when the initials
-- were stored first ("C. Shen" loaded before "Chentao Shen": the stored id was kept, and
-- "chentao shen" points at "c shen"; such an alias was never withdrawn, and a later "Chao Shen"
-- left every "C. Shen" paper with Chentao Shen). flows/resolve.py checks them as a new alias is
-- checked (initials_known.sql).
WITH new_surnames AS (
    SELECT DISTINCT string_split(name_key, ' ')[-1] AS surname
    FROM (SELECT DISTINCT name_key FROM stg_authors) ANTI JOIN author_name_variant USING (name_key)
), initials AS (
    SELECT name_key AS alias_key,
           CASE WHEN length(replace(name_key, ' ', '')) < length(replace(to_name_key, ' ', '')) THEN name_key
                ELSE to_name_key END AS short_key
    FROM author_alias WHERE rule = 'initials'
)
SELECT DISTINCT i.alias_key, i.short_key FROM initials i
JOIN new_surnames s ON s.surname = string_split(i.short_key, ' ')[-1]
