-- Rewrite one table's author lists (rows of touched papers) with the upgrades in list_upgrades.
-- Placeholders: {table}, {paper_id} (its paper id expression), {join}.
UPDATE {table} t SET authors = u.authors, author_keys = u.author_keys FROM (
    SELECT n.row_ref, list(coalesce(g.name_to, n.name) ORDER BY n.pos) AS authors,
           list(coalesce(g.key_to, n.name_key) ORDER BY n.pos) AS author_keys
    FROM (
        SELECT x.rowid AS row_ref, {paper_id} AS paper_id, unnest(x.authors) AS name,
               unnest(x.author_keys) AS name_key, generate_subscripts(x.author_keys, 1) AS pos
        FROM {table} x {join}
        WHERE {paper_id} IN (SELECT paper_id FROM list_upgrades)
    ) n LEFT JOIN list_upgrades g ON g.paper_id = n.paper_id AND g.pos = n.pos AND g.key_from = n.name_key
    GROUP BY n.row_ref
) u WHERE t.rowid = u.row_ref;
