-- Every known name key (stored or in this run) with the surname of a short form (short_forms).
SELECT DISTINCT s.short_key, k.name_key FROM short_forms s JOIN (
    SELECT name_key FROM author_name_variant UNION SELECT name_key FROM stg_authors
) k ON k.name_key LIKE '% ' || s.surname
