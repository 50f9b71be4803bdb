-- The rejected pairs of scored_pairs (flows/resolve.py) that touch a node of an accepted pair:
-- all that `transforms.resolve.cluster_papers` reads of them (whether an accepted pair's ends
-- meet another pair, and the pairs a cluster must keep apart). A titles-only corpus rejects
-- millions of pairs beside a few accepted ones.
-- A near miss is left out: the same title (folded), every shown name agreeing, and a score under
-- the threshold by less than {near_miss_margin}. Nothing in it says two papers: it is two
-- revisions of one paper edited apart, each accepted with a third, and kept, it split the paper
-- (a paper's versions, each a few words off its first: 8,438 papers for 3,631 at 30k listings).
-- A sibling on the same template under the same title scores far lower (its own sentences).
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
) AND NOT (s.rule = 'below_threshold' AND s.title_ratio = 1 AND s.author_agreement = 1
           AND s.score >= {threshold} - {near_miss_margin})
ORDER BY s.rowid;
