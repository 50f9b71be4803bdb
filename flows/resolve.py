"""Entity resolution inside the load transaction: the resolver hook of `flows.load.RunLoader`.

`resolve_entities(con, threshold)` runs between the files part and the papers part of the
merge, when stg_listings holds this run's new listings and stg_fullest the fullest version of
each of their paper keys:

* papers (`resolve_near_duplicates`): every paper_key of stg_listings not yet in paper_key_map
  is blocked against this run's other new keys *and* the stored block keys of every earlier
  paper (`paper_signature`, joined in SQL: nothing old is re-read or re-resolved), candidate
  pairs are scored (`transforms.resolve.score_pairs`), and each new key is mapped to an existing
  paper, to a new cluster of this run, or to itself. Existing ids are never renumbered: a new key
  joins at most one existing paper and two existing papers are never merged. Every scored pair
  is kept in `paper_match` (features, score, rule), merged or not.
* author lists (`reconcile_author_lists`): a name shown with initials where another list of the
  same paper shows the full name at that position is written in full in every list of it.
* authors (`resolve_author_aliases`): name keys that differ at the same position of the same
  paper (this run's listings against each other and against the stored list) and that are one
  person by `transforms.resolve.alias_rule` are aliased in `author_alias`, unless the short
  form is ambiguous (initials that fit two known full names). A merge keeps one author_id.

Work is chunked (`CHUNK_KEYS` keys at a time) so memory follows the chunk, not the corpus.
"""

from __future__ import annotations

from collections import deque
from concurrent.futures import ThreadPoolExecutor

import duckdb
import polars as pl

from flows.load import write_frame
from transforms import resolve

# A paper key this run brings that no earlier run mapped.
NEW_KEY = "paper_key NOT IN (SELECT paper_key FROM paper_key_map)"
CHUNK_KEYS = 5_000  # block_keys' working memory follows the chunk; larger chunks were no faster
BLOCKING_THREADS = 2


def resolve_entities(con: duckdb.DuckDBPyConnection, threshold: float = resolve.DEFAULT_THRESHOLD) -> None:
    """The ingest flow's resolver: near-duplicate papers, then author aliases."""
    resolve_near_duplicates(con, threshold)
    reconcile_author_lists(con)
    resolve_author_aliases(con)


def _run_id(con: duckdb.DuckDBPyConnection) -> str | None:
    return con.execute("SELECT getvariable('digest_run_id')").fetchall()[0][0]


# ----------------------------------------------------------------------------- papers
def resolve_near_duplicates(con: duckdb.DuckDBPyConnection, threshold: float = resolve.DEFAULT_THRESHOLD) -> None:
    """Map every new paper_key of stg_listings in paper_key_map (see the module docstring)."""
    run_id = _run_id(con)
    _backfill_signatures(con)
    con.execute(f"CREATE OR REPLACE TEMP VIEW new_papers AS SELECT paper_key, title, abstract, author_keys "
                f"FROM stg_fullest WHERE {NEW_KEY}")
    con.execute("CREATE OR REPLACE TEMP TABLE new_signature (paper_key BIGINT, band SMALLINT, bucket BIGINT)")
    # Read from stg_fullest in place (row ids), not through the view: see _table_chunks.
    _insert_block_keys(con, "new_signature", _table_chunks(con, "stg_fullest", "paper_key, abstract, author_keys", NEW_KEY))
    for statement in CANDIDATES_SQL.split(";\n"):
        con.execute(statement)
    scored = _score_candidates(con, threshold)
    new_keys = [k for (k,) in con.execute("SELECT paper_key FROM new_papers ORDER BY paper_key").fetchall()]
    accepted = scored.filter("is_match").select("paper_key", "other", "other_is_paper", "score")
    rejected = scored.filter(~pl.col("is_match")).select("paper_key", "other", "other_is_paper")
    mapping, outcome = resolve.assign_papers(new_keys, accepted, rejected)
    key_map = pl.DataFrame({"paper_key": list(mapping), "paper_id": list(mapping.values())},
                           schema={"paper_key": pl.Int64, "paper_id": pl.Int64})
    _insert(con, "paper_key_map", key_map, conflict="ON CONFLICT DO NOTHING")
    con.execute("INSERT INTO paper_signature BY NAME SELECT * FROM new_signature")
    _record_matches(con, scored, key_map, outcome, run_id)


def _backfill_signatures(con: duckdb.DuckDBPyConnection) -> None:
    """Papers stored before signatures existed get them once (keyed by their paper_id, which
    is one of their keys), so later runs can match against them."""
    # Every key is signed in a warehouse loaded by this resolver only: then two counts say there
    # is nothing to backfill, and a daily run skips the anti-join below over every paper.
    n_keys, n_signed = con.execute("SELECT (SELECT count(*) FROM paper_key_map), "
                                   "(SELECT count(DISTINCT paper_key) FROM paper_signature WHERE band = 0)").fetchall()[0]
    if n_signed >= n_keys:
        return
    # Every signed paper has a band-0 key: look at those only (one row per paper, not 22).
    missing = ("SELECT paper_id AS paper_key, abstract, author_keys FROM dim_paper WHERE paper_id NOT IN "
               "(SELECT m.paper_id FROM paper_signature s JOIN paper_key_map m USING (paper_key) WHERE s.band = 0)")
    _insert_block_keys(con, "paper_signature", _chunks(con, missing))


# Candidate pairs: new × new (each pair once) and new × stored (one stored key per paper), from
# the blocks (band, bucket) new keys share. A block of more than MAX_BLOCK papers (one author's
# template, a boilerplate abstract) would give quadratic pairs: its members are ranked by text
# (reversed for the suffix band) and each is paired with its next WINDOW neighbours only, so the
# pairs per paper stay bounded whatever the input; such blocks are listed in resolve_capped_block.
MAX_BLOCK, WINDOW = 64, 8
CANDIDATES_SQL = f"""
CREATE OR REPLACE TEMP TABLE new_blocks AS
SELECT band, bucket, count(*) AS n_new FROM new_signature GROUP BY band, bucket;

CREATE OR REPLACE TEMP TABLE big_blocks AS
SELECT b.band, b.bucket, b.n_new + coalesce(s.n_stored, 0) AS n_members
FROM new_blocks b LEFT JOIN (
    SELECT band, bucket, count(DISTINCT paper_key) AS n_stored
    FROM paper_signature SEMI JOIN new_blocks USING (band, bucket) GROUP BY band, bucket
) s USING (band, bucket)
WHERE b.n_new + coalesce(s.n_stored, 0) > {MAX_BLOCK};

CREATE OR REPLACE TEMP TABLE big_members AS
WITH members AS (
    SELECT n.band, n.bucket, false AS is_paper, n.paper_key AS node, n.paper_key AS node_key, p.abstract
    FROM new_signature n SEMI JOIN big_blocks USING (band, bucket) JOIN new_papers p USING (paper_key)
    UNION ALL
    SELECT s.band, s.bucket, true, m.paper_id, min(s.paper_key), any_value(d.abstract)
    FROM paper_signature s SEMI JOIN big_blocks USING (band, bucket)
    JOIN paper_key_map m ON m.paper_key = s.paper_key JOIN dim_paper d ON d.paper_id = m.paper_id
    GROUP BY s.band, s.bucket, m.paper_id
)
SELECT band, bucket, is_paper, node, node_key, row_number() OVER (
    PARTITION BY band, bucket
    ORDER BY CASE WHEN band = {resolve.SUFFIX_BAND} THEN reverse(lower(abstract)) ELSE lower(abstract) END, node
) AS rank_in_block
FROM members;

CREATE OR REPLACE TEMP TABLE candidates AS
WITH small_new AS (SELECT * FROM new_signature ANTI JOIN big_blocks USING (band, bucket))
SELECT DISTINCT a.paper_key, b.paper_key AS other, false AS other_is_paper, b.paper_key AS other_key
FROM small_new a JOIN small_new b USING (band, bucket)
WHERE a.paper_key < b.paper_key
UNION ALL
SELECT n.paper_key, m.paper_id AS other, true AS other_is_paper, min(s.paper_key) AS other_key
FROM small_new n JOIN paper_signature s USING (band, bucket) JOIN paper_key_map m ON m.paper_key = s.paper_key
WHERE m.paper_id IN (SELECT paper_id FROM dim_paper)  -- not a paper whose every listing was superseded
GROUP BY n.paper_key, m.paper_id;

CREATE OR REPLACE TEMP TABLE window_pairs AS
SELECT a.band, a.bucket, a.node AS paper_key, b.node AS other, b.is_paper AS other_is_paper, b.node_key AS other_key
FROM big_members a JOIN big_members b
  ON a.band = b.band AND a.bucket = b.bucket AND abs(b.rank_in_block - a.rank_in_block) BETWEEN 1 AND {WINDOW}
WHERE NOT a.is_paper AND (b.is_paper OR a.node < b.node);

INSERT INTO candidates
SELECT paper_key, other, other_is_paper, min(other_key) FROM window_pairs
ANTI JOIN candidates USING (paper_key, other, other_is_paper)
GROUP BY paper_key, other, other_is_paper;

INSERT INTO resolve_capped_block BY NAME
SELECT getvariable('digest_run_id') AS run_id, band, bucket, n_members, count(w.paper_key) AS n_pairs
FROM big_blocks LEFT JOIN window_pairs w USING (band, bucket)
GROUP BY band, bucket, n_members
"""


PAIR_TEXTS_SQL = """
SELECT c.paper_key, c.other, c.other_is_paper, c.other_key,
       a.abstract AS abstract_a, coalesce(b.abstract, p.abstract) AS abstract_b,
       a.title AS title_a, CASE WHEN c.other_is_paper THEN p.title ELSE b.title END AS title_b,
       a.author_keys AS keys_a, coalesce(b.author_keys, p.author_keys) AS keys_b
FROM candidates c
JOIN new_papers a ON a.paper_key = c.paper_key
LEFT JOIN new_papers b ON NOT c.other_is_paper AND b.paper_key = c.other
LEFT JOIN dim_paper p ON c.other_is_paper AND p.paper_id = c.other
"""


def _score_candidates(con: duckdb.DuckDBPyConnection, threshold: float) -> pl.DataFrame:
    parts = []
    for chunk in _chunks(con, PAIR_TEXTS_SQL):
        pairs = chunk.with_columns(text_a=resolve.match_text(pl.col("abstract_a")),
                                   text_b=resolve.match_text(pl.col("abstract_b")))
        scored = resolve.score_pairs(pairs, threshold)
        parts.append(scored.drop("abstract_a", "abstract_b", "text_a", "text_b", "title_a", "title_b", "keys_a", "keys_b"))
    if not parts:
        return resolve.score_pairs(pl.DataFrame(schema=PAIR_SCHEMA), threshold).select(
            "paper_key", "other", "other_is_paper", "other_key", "abstract_ratio", "shingle_jaccard", "shingle_containment", "title_ratio",
            "author_agreement", "score", "rule", "is_match")
    return pl.concat(parts)


PAIR_SCHEMA = {"paper_key": pl.Int64, "other": pl.Int64, "other_is_paper": pl.Boolean, "other_key": pl.Int64,
               "text_a": pl.String, "text_b": pl.String, "title_a": pl.String, "title_b": pl.String,
               "keys_a": pl.List(pl.String), "keys_b": pl.List(pl.String)}


def _record_matches(con, scored: pl.DataFrame, key_map: pl.DataFrame, outcome: dict, run_id: str | None) -> None:
    """One paper_match row per scored pair: where the new key went, what it was compared with,
    the features, the score and the rule (a skipped merge says why)."""
    if scored.is_empty():
        return
    decided = pl.DataFrame([(k, o, why) for (k, o), why in outcome.items()], orient="row",
                           schema={"paper_key": pl.Int64, "other": pl.Int64, "skipped_because": pl.String})
    rows = (
        scored.join(key_map, on="paper_key", how="left")
        .join(decided, on=["paper_key", "other"], how="left")
        .with_columns(applied=pl.col("is_match") & pl.col("skipped_because").is_null())
        .select(
            "paper_key", "paper_id",
            matched_key=pl.col("other_key"),
            matched_paper_id=pl.when("other_is_paper").then("other"),
            score="score",
            features=pl.struct("shingle_jaccard", "shingle_containment", "abstract_ratio", "title_ratio",
                               "author_agreement").struct.json_encode(),
            rule=pl.coalesce("skipped_because", "rule"),
            is_merge="applied",
            run_id=pl.lit(run_id, pl.String),
        )
    )
    _insert(con, "paper_match", rows, conflict="ON CONFLICT DO NOTHING")


# ----------------------------------------------------------------------------- author lists
# Names at each position of each touched paper, from every list of it (this run's listings, its
# candidates, the stored list), where the lists disagree.
POSITION_NAMES_SQL = """
CREATE OR REPLACE TEMP TABLE position_names AS
WITH touched_papers AS (
    SELECT DISTINCT paper_id FROM stg_listings JOIN paper_key_map USING (paper_key)
), lists AS (
    SELECT m.paper_id, l.authors, l.author_keys FROM stg_listings l JOIN paper_key_map m USING (paper_key)
    UNION ALL
    SELECT paper_id, authors, author_keys FROM dim_paper SEMI JOIN touched_papers USING (paper_id)
), named AS (
    SELECT paper_id, unnest(authors) AS name, unnest(author_keys) AS name_key,
           generate_subscripts(author_keys, 1) AS pos FROM lists
)
SELECT paper_id, pos, name_key, max(name) AS name FROM named
WHERE (paper_id, pos) IN (SELECT paper_id, pos FROM named GROUP BY ALL HAVING count(DISTINCT name_key) > 1)
GROUP BY ALL
"""

# Rewrite one table's lists (rows of touched papers) with the upgrades.
UPGRADE_LISTS_SQL = """
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
) u WHERE t.rowid = u.row_ref
"""


def reconcile_author_lists(con: duckdb.DuckDBPyConnection) -> None:
    """Where one list of a paper shows a name with initials ("M. Hahn") and another list of the
    same paper shows the full name at the same position ("Michael Hahn"), every list of the
    paper gets the full name: the merge then keeps the fullest list, in order, with full names.
    Per paper, so it is safe even when the initials would fit several people elsewhere."""
    con.execute(POSITION_NAMES_SQL)
    names = _frame(con, "SELECT * FROM position_names")
    if names.is_empty():
        return
    pairs = names.join(names, on=["paper_id", "pos"], suffix="_to").filter(
        resolve.initials_agree(pl.col("name_key"), pl.col("name_key_to"))
        & (resolve.fuller_key(pl.col("name_key"), pl.col("name_key_to")) == pl.col("name_key_to"))
    )
    # one full form per short form and position; several would be a conflict: leave those alone
    upgrades = pairs.filter(pl.len().over("paper_id", "pos", "name_key") == 1).select(
        "paper_id", "pos", key_from="name_key", key_to="name_key_to", name_to="name_to")
    if upgrades.is_empty():
        return
    write_frame(con, "CREATE OR REPLACE TEMP TABLE list_upgrades AS SELECT * FROM frame", upgrades)
    con.execute(UPGRADE_LISTS_SQL.format(table="stg_fullest", paper_id="m.paper_id",
                                         join="JOIN paper_key_map m ON m.paper_key = x.paper_key"))
    con.execute(UPGRADE_LISTS_SQL.format(table="dim_paper", paper_id="x.paper_id", join=""))
    con.execute(UPGRADE_LISTS_SQL.format(table="paper_version", paper_id="m.paper_id",
                                         join="JOIN paper_key_map m ON m.paper_key = x.paper_key"))


# ----------------------------------------------------------------------------- authors
# Name keys at the same position of one paper in two lists of it: this run's listings, and the
# stored list of papers that already exist.
ALIAS_EVIDENCE_SQL = """
WITH lists AS (
    SELECT DISTINCT m.paper_id, l.author_keys FROM stg_listings l JOIN paper_key_map m USING (paper_key)
    UNION
    SELECT p.paper_id, p.author_keys FROM dim_paper p
    WHERE p.paper_id IN (SELECT m.paper_id FROM stg_listings JOIN paper_key_map m USING (paper_key))
), named AS (
    SELECT paper_id, unnest(author_keys) AS name_key, unnest(range(1, len(author_keys) + 1)) AS pos FROM lists
)
SELECT DISTINCT a.name_key AS key_a, b.name_key AS key_b
FROM named a JOIN named b USING (paper_id, pos)
WHERE a.name_key < b.name_key AND a.name_key <> '' AND b.name_key <> ''
"""


def resolve_author_aliases(con: duckdb.DuckDBPyConnection) -> None:
    """Alias name keys that are one person (see the module docstring)."""
    run_id = _run_id(con)
    pairs = _frame(con, ALIAS_EVIDENCE_SQL)
    if pairs.is_empty():
        return
    pairs = pairs.with_columns(rule=resolve.alias_rule(pl.col("key_a"), pl.col("key_b"))).filter(pl.col("rule").is_not_null())
    if pairs.is_empty():
        return
    pairs = pairs.with_columns(full_key=resolve.fuller_key(pl.col("key_a"), pl.col("key_b"))).with_columns(
        short_key=pl.when(pl.col("full_key") == pl.col("key_a")).then("key_b").otherwise("key_a"))
    pairs = _drop_ambiguous(con, pairs)
    if pairs.is_empty():
        return
    write_frame(con, "CREATE OR REPLACE TEMP TABLE alias_pairs AS SELECT * FROM frame", pairs)
    # Current person of every key involved (an alias, else the key's own id), and whether it exists.
    ids = _frame(con, """
        WITH keys AS (SELECT short_key AS name_key FROM alias_pairs UNION SELECT full_key FROM alias_pairs)
        SELECT k.name_key, coalesce(a.author_id, stable_id(k.name_key)) AS author_id,
               coalesce(a.author_id, stable_id(k.name_key)) IN (SELECT author_id FROM dim_author) AS is_stored
        FROM keys k LEFT JOIN author_alias a USING (name_key)
    """)
    decisions = _merge_people(pairs, ids)
    if decisions.is_empty():
        return
    write_frame(con, "CREATE OR REPLACE TEMP TABLE alias_rows AS SELECT * FROM frame",
                decisions.with_columns(run_id=pl.lit(run_id, pl.String)))
    # Keys already aliased to an id that is merged away follow it; the dropped id's own key too.
    con.execute("""
        CREATE OR REPLACE TEMP TABLE alias_changes AS
        SELECT drop_id, any_value(keep_id) AS keep_id, min(rule) AS rule, any_value(run_id) AS run_id
        FROM alias_rows GROUP BY drop_id
    """)
    con.execute("""
        INSERT OR REPLACE INTO author_alias BY NAME
        SELECT a.name_key, c.keep_id AS author_id, a.rule, c.run_id
        FROM author_alias a JOIN alias_changes c ON a.author_id = c.drop_id
    """)
    con.execute("""
        INSERT OR REPLACE INTO author_alias BY NAME
        SELECT d.name_key, c.keep_id AS author_id, c.rule, c.run_id
        FROM dim_author d JOIN alias_changes c ON d.author_id = c.drop_id
    """)
    con.execute("""
        INSERT OR REPLACE INTO author_alias BY NAME
        SELECT name_key, keep_id AS author_id, rule, run_id FROM alias_rows
        WHERE stable_id(name_key) <> keep_id
    """)


def _drop_ambiguous(con: duckdb.DuckDBPyConnection, pairs: pl.DataFrame) -> pl.DataFrame:
    """Initials are safe only when they fit one full name: every key known (stored or in this
    run) with the same surname is checked against the short form."""
    initials = pairs.filter(pl.col("rule") == "initials")
    if initials.is_empty():
        return pairs
    write_frame(con, "CREATE OR REPLACE TEMP TABLE short_forms AS SELECT * FROM frame", initials.select(
        "short_key").unique().with_columns(surname=pl.col("short_key").str.split(" ").list.last()))
    known = _frame(con, """
        SELECT DISTINCT s.short_key, k.name_key FROM short_forms s JOIN (
            SELECT name_key FROM author_name_variant UNION SELECT name_key FROM stg_authors
        ) k ON k.name_key LIKE '% ' || s.surname
    """)
    fits = known.filter(resolve.initials_agree(pl.col("short_key"), pl.col("name_key")))
    fits = fits.filter(resolve.fuller_key(pl.col("short_key"), pl.col("name_key")) == pl.col("name_key"))
    ambiguous = fits.group_by("short_key").agg(n=pl.col("name_key").n_unique()).filter(pl.col("n") > 1)["short_key"]
    return pairs.filter(~((pl.col("rule") == "initials") & pl.col("short_key").is_in(ambiguous.implode())))


def _merge_people(pairs: pl.DataFrame, ids: pl.DataFrame) -> pl.DataFrame:
    """Union the ids of aliased keys; each group keeps one id: the lowest stored id, else the id
    of its fullest key. Returns (name_key, drop_id, keep_id, rule) for every key whose id goes."""
    id_of = dict(ids.select("name_key", "author_id").iter_rows())
    stored = dict(ids.select("author_id", "is_stored").iter_rows())
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    rule_of: dict[int, str] = {}
    full_of: dict[int, str] = {}
    for short, full, rule in pairs.select("short_key", "full_key", "rule").sort("short_key", "full_key").iter_rows():
        a, b = find(id_of[short]), find(id_of[full])
        rule_of[id_of[short]] = rule
        full_of.setdefault(id_of[full], full)
        if a != b:
            parent[max(a, b)] = min(a, b)
    groups: dict[int, list[int]] = {}
    for x in list(parent):
        groups.setdefault(find(x), []).append(x)
    rows = []
    for members in groups.values():
        kept_stored = sorted(m for m in members if stored.get(m))
        if kept_stored:
            keep = kept_stored[0]
        else:  # all new: the id of the fullest key named in the evidence
            fulls = sorted((full_of[m] for m in members if m in full_of), key=lambda k: (-len(k.replace(" ", "")), k))
            keep = id_of[fulls[0]] if fulls else min(members)
        for name_key, author_id in id_of.items():
            if author_id in members and author_id != keep:
                rows.append((name_key, author_id, keep, rule_of.get(author_id, "initials")))
    return pl.DataFrame(rows, schema={"name_key": pl.String, "drop_id": pl.Int64, "keep_id": pl.Int64, "rule": pl.String},
                        orient="row")


# ----------------------------------------------------------------------------- helpers
def _chunks(con: duckdb.DuckDBPyConnection, query: str, size: int = CHUNK_KEYS):
    """The query's rows, `size` at a time, as Polars frames: materialised once, then read by
    row-number ranges (cheap zone-map scans) so only one chunk is in Python at a time."""
    con.execute(f"CREATE OR REPLACE TEMP TABLE resolve_chunks AS SELECT row_number() OVER () AS chunk_row, * FROM ({query})")
    n_rows = con.execute("SELECT count(*) FROM resolve_chunks").fetchall()[0][0]
    for start in range(0, n_rows, size):
        yield _frame(
            con, f"SELECT * EXCLUDE (chunk_row) FROM resolve_chunks WHERE chunk_row > {start} AND chunk_row <= {start + size}"
        )
    con.execute("DROP TABLE resolve_chunks")


def _table_chunks(con: duckdb.DuckDBPyConnection, table: str, columns: str, where: str, size: int = CHUNK_KEYS):
    """`columns` of the rows of `table` that match `where`, `size` row ids at a time, as Polars
    frames. Reads each row-id range in place, where `_chunks` first copies every row (every
    abstract, for the new papers). `table` is a temp table filled once in this transaction:
    its row ids are one contiguous range, though not from 0 (uncommitted rows start near 2^55)."""
    first, last = con.execute(f"SELECT min(rowid), max(rowid) FROM {table}").fetchall()[0]
    for start in range(0 if first is None else first, 0 if last is None else last + 1, size):
        yield _frame(con, f"SELECT {columns} FROM {table} WHERE rowid >= {start} AND rowid < {start + size} AND ({where})")


def _insert_block_keys(con: duckdb.DuckDBPyConnection, table: str, chunks) -> None:
    """Block keys of the papers of each chunk into `table`, computed on two threads (the string
    and numpy work of one chunk runs mostly on one core); chunks are read and inserted by this
    thread (one connection). `python -m bench.profile` shows this time as "Python between"."""
    with ThreadPoolExecutor(max_workers=BLOCKING_THREADS) as pool:
        pending: deque = deque()
        for chunk in chunks:
            pending.append(pool.submit(resolve.block_keys, chunk))
            if len(pending) >= BLOCKING_THREADS:
                _insert(con, table, pending.popleft().result())
        while pending:
            _insert(con, table, pending.popleft().result())


def _frame(con: duckdb.DuckDBPyConnection, query: str) -> pl.DataFrame:
    """A query's rows as a Polars frame (read fully before the connection is reused)."""
    return pl.from_arrow(con.sql(query).to_arrow_table())


def _insert(con: duckdb.DuckDBPyConnection, table: str, frame: pl.DataFrame, conflict: str = "") -> None:
    if frame.is_empty():
        return
    write_frame(con, f"INSERT INTO {table} BY NAME SELECT * FROM frame {conflict}", frame)
