-- Candidate pairs of the resolver (flows/resolve.py): new × new (each pair once) and new × stored
-- (one stored key per paper), from the blocks (band, bucket) new keys share. A block of more than
-- {max_block} papers (one author's template, a boilerplate abstract) would give quadratic pairs:
-- its members are ranked by text (reversed for the suffix band), then by author list and title
-- (a boilerplate abstract, "No abstract available.", says nothing: ranked by key hash, a paper's
-- copies fell out of each other's windows), and each is paired with its next {window} neighbours
-- only, so the pairs per paper stay bounded whatever the input; such blocks are listed in
-- resolve_capped_block. Parameters: $run_id.
-- The title blocks ({notice_band}: a short abstract's, {title_band}: a long one's) are paired apart (below).
CREATE OR REPLACE TEMP TABLE new_blocks AS
SELECT band, bucket, count(*) AS n_new FROM new_signature WHERE band < {notice_band} GROUP BY band, bucket;

CREATE OR REPLACE TEMP TABLE big_blocks AS
SELECT b.band, b.bucket, b.n_new + coalesce(s.n_stored, 0) AS n_members
FROM new_blocks b LEFT JOIN (
    SELECT band, bucket, count(DISTINCT paper_key) AS n_stored
    FROM paper_signature SEMI JOIN new_blocks USING (band, bucket) GROUP BY band, bucket
) s USING (band, bucket)
WHERE b.n_new + coalesce(s.n_stored, 0) > {max_block};

CREATE OR REPLACE TEMP TABLE big_members AS
WITH members AS (
    SELECT n.band, n.bucket, false AS is_paper, n.paper_key AS node, n.paper_key AS node_key, p.abstract,
           array_to_string(p.author_keys, ';') AS authors, lower(p.title) AS title
    FROM new_signature n SEMI JOIN big_blocks USING (band, bucket) JOIN stg_fullest p USING (paper_key)  -- new keys
    UNION ALL
    SELECT s.band, s.bucket, true, m.paper_id, min(s.paper_key), any_value(d.abstract),
           any_value(array_to_string(d.author_keys, ';')), any_value(lower(d.title))
    FROM paper_signature s SEMI JOIN big_blocks USING (band, bucket)
    JOIN paper_key_map m ON m.paper_key = s.paper_key JOIN dim_paper d ON d.paper_id = m.paper_id
    GROUP BY s.band, s.bucket, m.paper_id
)
SELECT band, bucket, is_paper, node, node_key, row_number() OVER (
    PARTITION BY band, bucket
    ORDER BY CASE WHEN band = {suffix_band} THEN reverse(lower(abstract)) ELSE lower(abstract) END, authors, title, node
) AS rank_in_block
FROM members;

-- A new x new pair shares a block that holds two new keys or more: most blocks hold one (at 1M
-- distinct listings, 17.6M block keys), and joining every new key's blocks with each other's
-- built and probed all of them.
-- A title block pairs a short abstract with every key of its block, short or long, never two long
-- ones (their texts tell them apart as before): a new key probes the stored keys of the bands it
-- may meet (a short one both, a long one the short ones'), in the same join as the other blocks. A
-- title block of more than {max_block} new keys (one author's many abstract-less chapters of one
-- title) is left out: a notice among them could not tell which paper it withdraws.
CREATE OR REPLACE TEMP TABLE title_probes AS
WITH title_keys AS (
    SELECT * FROM new_signature WHERE band >= {notice_band}
    AND bucket NOT IN (SELECT bucket FROM new_signature WHERE band >= {notice_band}
                       GROUP BY bucket HAVING count(*) > {max_block})
)
SELECT paper_key, {notice_band}::SMALLINT AS band, bucket FROM title_keys
UNION ALL
SELECT paper_key, {title_band}::SMALLINT, bucket FROM title_keys WHERE band = {notice_band};

CREATE OR REPLACE TEMP TABLE candidates AS
WITH shared_new AS (
    SELECT * FROM new_signature SEMI JOIN (SELECT band, bucket FROM new_blocks WHERE n_new > 1) USING (band, bucket)
    ANTI JOIN big_blocks USING (band, bucket)
)
SELECT DISTINCT a.paper_key, b.paper_key AS other, false AS other_is_paper, b.paper_key AS other_key
FROM shared_new a JOIN shared_new b USING (band, bucket)
WHERE a.paper_key < b.paper_key
UNION ALL
SELECT n.paper_key, m.paper_id AS other, true AS other_is_paper,
       -- a stored key this run signed again (flows/resolve.py, resigned_keys) first: the pair is
       -- scored on its new version (pair_texts.sql)
       coalesce(min(s.paper_key) FILTER (WHERE s.paper_key IN (SELECT paper_key FROM resigned_keys)),
                min(s.paper_key)) AS other_key
FROM (SELECT * FROM new_signature ANTI JOIN big_blocks USING (band, bucket) WHERE band < {notice_band}
      UNION ALL SELECT * FROM title_probes) n
JOIN paper_signature s USING (band, bucket) JOIN paper_key_map m ON m.paper_key = s.paper_key
WHERE m.paper_id IN (SELECT paper_id FROM dim_paper)  -- not a paper whose every listing was superseded
GROUP BY n.paper_key, m.paper_id;

-- New x new in a title block: b short, or a short and b long (title_probes).
INSERT INTO candidates
SELECT * FROM (
    SELECT DISTINCT least(a.paper_key, b.paper_key) AS paper_key, greatest(a.paper_key, b.paper_key) AS other,
           false AS other_is_paper, greatest(a.paper_key, b.paper_key) AS other_key
    FROM title_probes a JOIN new_signature b USING (band, bucket)
    WHERE a.paper_key <> b.paper_key
) ANTI JOIN candidates USING (paper_key, other, other_is_paper);

-- Neighbours are found by equal ranks (each member's rank ± 1..{window}), not by a rank distance: a
-- join on the block alone compares every two members of a block, quadratic in its size (a
-- titles-only corpus' blocks grow with it). MATERIALIZED keeps the planner from joining on the
-- block first and adding the steps after.
CREATE OR REPLACE TEMP TABLE window_pairs AS
WITH reach AS MATERIALIZED (
    SELECT band, bucket, node, rank_in_block + step AS neighbour_rank
    FROM big_members CROSS JOIN range(-{window}, {window} + 1) o(step)
    WHERE step <> 0 AND NOT is_paper
)
SELECT a.band, a.bucket, a.node AS paper_key, b.node AS other, b.is_paper AS other_is_paper, b.node_key AS other_key
FROM reach a JOIN big_members b
  ON a.band = b.band AND a.bucket = b.bucket AND b.rank_in_block = a.neighbour_rank
WHERE b.is_paper OR a.node < b.node;

INSERT INTO candidates
SELECT paper_key, other, other_is_paper, min(other_key) FROM window_pairs
ANTI JOIN candidates USING (paper_key, other, other_is_paper)
GROUP BY paper_key, other, other_is_paper;

INSERT INTO resolve_capped_block BY NAME
SELECT $run_id AS run_id, band, bucket, n_members, count(w.paper_key) AS n_pairs
FROM big_blocks LEFT JOIN window_pairs w USING (band, bucket)
GROUP BY band, bucket, n_members;
