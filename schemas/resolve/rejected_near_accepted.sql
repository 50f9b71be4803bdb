-- The rejected pairs of scored_pairs (flows/resolve.py) that touch a node of an accepted pair:
-- all that `transforms.resolve.cluster_papers` reads of them (whether an accepted pair's ends
-- meet another pair, and the pairs a cluster must keep apart). A titles-only corpus rejects
-- millions of pairs beside a few accepted ones.
WITH accepted_nodes AS (
    SELECT false AS is_paper, paper_key AS node FROM scored_pairs WHERE is_match
    UNION
    SELECT other_is_paper, other FROM scored_pairs WHERE is_match
)
SELECT s.paper_key, s.other, s.other_is_paper, s.rule
FROM scored_pairs s
WHERE NOT s.is_match AND (
    s.paper_key IN (SELECT node FROM accepted_nodes WHERE NOT is_paper)
    OR s.other IN (SELECT node FROM accepted_nodes WHERE is_paper = s.other_is_paper)
)
ORDER BY s.rowid;
