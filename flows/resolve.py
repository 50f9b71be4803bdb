"""Entity resolution inside the load transaction: the resolver hook of `flows.load.RunLoader`.

`resolve_entities(con, run_id, threshold)` runs between the two parts of the merge
(schemas/merge/10_files.sql, 20_papers.sql), when stg_listings holds this run's new listings and
stg_fullest the fullest version of each of their paper keys. Its SQL is in schemas/resolve/, run
through `flows.sql`; it never calls back into the loader:

* papers (`resolve_near_duplicates`): every paper_key of stg_listings not yet in paper_key_map
  is blocked against this run's other new keys *and* the stored block keys of every earlier
  paper (`paper_signature`, joined in SQL: nothing old is re-read or re-resolved), candidate
  pairs are scored (`transforms.resolve.score_pairs`), and each new key is mapped to an existing
  paper, to a new cluster of this run, or to itself. Existing ids are never renumbered: a new key
  joins at most one existing paper and two existing papers are never merged. Every scored pair
  is kept in `paper_match` (features, score, rule), merged or not.
* authors (`resolve_author_aliases`): name keys that differ at the same position of the same
  paper (this run's listings against each other and against the stored list) and that are one
  person by `transforms.resolve.alias_rule` are aliased in `author_alias`, unless the short
  form is ambiguous (initials that fit two known full names). A merge keeps one author_id.
* author lists (`reconcile_author_lists`): a name shown with initials where another list of the
  same paper shows the full name at that position is written in full in every list of it.

Work is chunked (`CHUNK_KEYS` keys at a time) so memory follows the chunk, not the corpus.
"""

from __future__ import annotations

import contextlib
from functools import partial
from pathlib import Path

import duckdb
import polars as pl
import pyarrow.parquet as pq

from flows.sql import (insert_frame, on_threads, optimizer_off, read_frame, run_sql_file, schema_sql, scratch_file,
                       stream_frames, write_frame)
from transforms import resolve

# A paper key this run brings that no earlier run mapped.
NEW_KEY = "paper_key NOT IN (SELECT paper_key FROM paper_key_map)"
CHUNK_KEYS = 5_000  # block_keys' working memory follows the chunk; larger chunks were no faster


def resolve_entities(con: duckdb.DuckDBPyConnection, run_id: str,
                     threshold: float = resolve.DEFAULT_THRESHOLD) -> None:
    """The ingest flow's resolver: near-duplicate papers, then author aliases."""
    resolve_near_duplicates(con, run_id, threshold)
    # Aliases before the lists are written in full: the stored list's "J. Smith" against this
    # run's "John Smith" is the evidence (written in full first, it was gone, and an incremental
    # load never made the alias a fresh load of the same files makes).
    resolve_author_aliases(con, run_id)
    reconcile_author_lists(con)


# ----------------------------------------------------------------------------- papers
def resolve_near_duplicates(con: duckdb.DuckDBPyConnection, run_id: str,
                            threshold: float = resolve.DEFAULT_THRESHOLD) -> None:
    """Map every new paper_key of stg_listings in paper_key_map (see the module docstring)."""
    _backfill_signatures(con)
    _resign_changed_keys(con)
    con.execute(f"CREATE OR REPLACE TEMP VIEW new_papers AS SELECT paper_key, title, abstract, author_keys "
                f"FROM stg_fullest WHERE {NEW_KEY}")
    con.execute("CREATE OR REPLACE TEMP TABLE new_signature (paper_key BIGINT, band SMALLINT, bucket BIGINT)")
    # Read from stg_fullest in place (row ids), not through the view: see _table_chunks.
    n_staged = con.execute("SELECT count(*) FROM stg_fullest").fetchall()[0][0]  # the new keys are among them
    _insert_block_keys(con, "new_signature", n_staged,
                       partial(_table_chunks, con, "stg_fullest", "paper_key, title, abstract, author_keys", NEW_KEY))
    run_sql_file(con, "resolve/candidates.sql", {"run_id": run_id},
                 max_block=MAX_BLOCK, window=WINDOW, suffix_band=resolve.SUFFIX_BAND,
                 notice_band=resolve.NOTICE_BAND, title_band=resolve.TITLE_BAND)
    _score_candidates(con, threshold)
    # (in no order: cluster_papers sorts them, by score, then keys)
    accepted = read_frame(con, "SELECT paper_key, other, other_is_paper, score, rule FROM scored_pairs WHERE is_match")
    accepted, notices_apart = resolve.ambiguous_notices(accepted)
    rejected = read_frame(con, schema_sql("resolve/rejected_near_accepted.sql"))
    clustered, skipped = resolve.cluster_papers(accepted.drop("rule"), rejected)
    skipped.update(notices_apart)
    key_map = resolve.paper_ids(*_id_keys(con), clustered)
    insert_frame(con, "paper_key_map", key_map, conflict="ON CONFLICT DO NOTHING")
    con.execute("INSERT INTO paper_signature BY NAME SELECT * FROM new_signature")
    _record_matches(con, key_map, skipped, run_id)
    con.execute("DROP TABLE scored_pairs")


def _id_keys(con: duckdb.DuckDBPyConnection) -> tuple[pl.DataFrame, pl.Series]:
    """Each new key's id key (its abstract and first author's surname, without the title) and
    its first listing date: (paper_key, id_key, first_on), and the id keys already taken by
    stored papers."""
    id_key = ("stable_id(concat_ws(chr(31), lower(abstract), "
              "coalesce(list_last(string_split(author_keys[1], ' ')), '')))")
    # Hashed once (every new abstract) into a narrow table that both reads below use.
    con.execute(f"CREATE OR REPLACE TEMP TABLE new_id_keys AS SELECT paper_key, {id_key} AS id_key FROM new_papers")
    id_keys = read_frame(con, "SELECT k.paper_key, k.id_key, d.first_on FROM new_id_keys k LEFT JOIN "
                              "(SELECT paper_key, min(listed_on) AS first_on FROM stg_listings GROUP BY paper_key) d "
                              "USING (paper_key)")
    # A semi-join, not the id keys spelled out as an IN list: 800k literals in one statement took
    # DuckDB's parser 2.2 GB (outside its memory limit) and 14 s (issue 15, distinct shape at 1M).
    taken = read_frame(con, "SELECT DISTINCT paper_id FROM paper_key_map "
                            "WHERE paper_id IN (SELECT id_key FROM new_id_keys)")["paper_id"]
    return id_keys, taken


def _backfill_signatures(con: duckdb.DuckDBPyConnection) -> None:
    """Stored keys whose block keys were made by another scheme are signed again; papers stored
    before signatures existed get them once (keyed by their paper_id, which is one of their
    keys), so later runs can match against them."""
    _resign_other_scheme(con)
    # Every key is signed in a warehouse loaded by this resolver only: then two counts say there
    # is nothing to backfill, and a daily run skips the anti-join below over every paper.
    n_keys, n_signed = con.execute("SELECT (SELECT count(*) FROM paper_key_map), "
                                   "(SELECT count(DISTINCT paper_key) FROM paper_signature WHERE band = 0)").fetchall()[0]
    if n_signed >= n_keys:
        return
    # Every signed paper has a band-0 key: look at those only (one row per paper, not 22).
    missing = ("SELECT paper_id AS paper_key, title, abstract, author_keys FROM dim_paper WHERE paper_id NOT IN "
               "(SELECT m.paper_id FROM paper_signature s JOIN paper_key_map m USING (paper_key) WHERE s.band = 0)")
    _sign_query(con, "paper_signature", missing)


# What a key's block keys are made of (`transforms.resolve.block_keys`): its abstract and the
# surnames of its first two authors. A stored key whose fullest version this run changes any of
# them in (the full list arrives after an "et al." listing, a name's typo is fixed, a longer
# abstract) is signed again; the names are compared whole, a superset of a surname's change.
CHANGED_SIGNATURE_INPUTS = """
SELECT f.paper_key FROM stg_fullest f JOIN paper_version v USING (paper_key)
WHERE f.abstract IS DISTINCT FROM v.abstract
   OR f.author_keys[1] IS DISTINCT FROM v.author_keys[1]
   OR f.author_keys[2] IS DISTINCT FROM v.author_keys[2]
"""


def _resign_changed_keys(con: duckdb.DuckDBPyConnection) -> None:
    """Stored keys this run lists with another abstract or other first two authors than their
    stored version (paper_version, before 20_papers.sql replaces it with stg_fullest) get their
    block keys again, from stg_fullest, before the new keys are blocked against them: signed once,
    at first sight, a key kept the first run's salts (an "et al." list has no second author; a
    typo fixed later stayed in the salt), and a revision that a fresh load of the same files
    merges (the first author dropped: it meets the paper by the second author) stayed apart.
    A pair that meets such a key is scored on the key's new version, not on the stored paper
    (its list is the old one until 20_papers.sql: "et al." against the full list, the typo, and
    the pair was kept apart as `authors_differ`). Only the keys this run lists are compared, so the cost follows the run, not the warehouse."""
    # Kept for the run: a pair with a re-signed stored key is scored on that key's new version
    # (schemas/resolve/candidates.sql, pair_texts.sql), as a fresh load scores it.
    con.execute(f"CREATE OR REPLACE TEMP TABLE resigned_keys AS {CHANGED_SIGNATURE_INPUTS}")
    if not con.execute("SELECT count(*) FROM resigned_keys").fetchall()[0][0]:
        return
    con.execute("DELETE FROM paper_signature WHERE paper_key IN (SELECT paper_key FROM resigned_keys)")
    _sign_query(con, "paper_signature",
                "SELECT paper_key, title, abstract, author_keys FROM stg_fullest SEMI JOIN resigned_keys USING (paper_key)")


def _resign_other_scheme(con: duckdb.DuckDBPyConnection) -> None:
    """Block keys made by another SIGNATURE_SCHEME (older code hashed words with BLAKE2b) never
    meet this code's: every stored key is signed again from its stored version (paper_version,
    what a fresh load signs for that key), once, and the scheme recorded."""
    schemes = [s for (s,) in con.execute("SELECT scheme FROM signature_scheme").fetchall()]
    if schemes == [resolve.SIGNATURE_SCHEME]:
        return
    if con.execute("SELECT count(*) FROM paper_signature").fetchall()[0][0]:
        con.execute("DELETE FROM paper_signature")
        _sign_query(con, "paper_signature", "SELECT paper_key, title, abstract, author_keys FROM paper_version")
    con.execute("DELETE FROM signature_scheme")
    con.execute("INSERT INTO signature_scheme VALUES (?)", [resolve.SIGNATURE_SCHEME])


# Blocks of more than MAX_BLOCK papers are paired by text-order neighbours only, WINDOW each way
# (schemas/resolve/candidates.sql): candidate pairs per paper stay bounded whatever the input.
MAX_BLOCK, WINDOW = 64, 8


def _score_candidates(con: duckdb.DuckDBPyConnection, threshold: float) -> None:
    """Every candidate pair scored into the temp table scored_pairs (no texts: SCORED_COLUMNS). In
    DuckDB, not in Python: a 1M-listing titles-only corpus scores 14M pairs, held whole they were
    the run's largest frame, and DuckDB spills what its memory limit does not hold. The pairs'
    texts are read as a stream, never stored: a temp table of every pair's two abstracts, titles
    and author lists spilled 4.2 GB at 100k listings of many revisions each (~21 pairs a listing).
    The connection runs nothing else while its stream is open, so the scored rows go to a Parquet
    file in DuckDB's spill folder first, then into the table."""
    with scratch_file(con, ".scored_pairs.parquet") as path:
        _write_scored_pairs(con, threshold, path)
        con.execute("CREATE OR REPLACE TEMP TABLE scored_pairs AS SELECT * FROM read_parquet($path)",
                    {"path": str(path)})


def _write_scored_pairs(con: duckdb.DuckDBPyConnection, threshold: float, path: Path) -> None:
    """The candidate pairs (schemas/resolve/pair_texts.sql), CHUNK_KEYS at a time, scored on
    threads as blocking is (at most `on_threads`' chunks in flight), into a Parquet file at
    `path`. The file takes the first chunk's types (some scores are Float32: as DOUBLE,
    paper_match's features JSON printed them as 0.890999972820282); with no pair, those of an
    empty frame."""
    with contextlib.ExitStack() as stack:
        # The planner took ~2.1M pairs for 100k (bench.corpus --shape revisions) and built a join's
        # hash table on them, with one side's texts: 1.1 GB of spill. Swapped back: 0.
        stack.enter_context(optimizer_off(con, "build_side_probe_side"))
        # Closed however the loop ends, the threads' chunks first, then the stream (an open stream
        # refuses every later statement on the connection, the run's ROLLBACK included).
        pairs = stack.enter_context(contextlib.closing(stream_frames(con, schema_sql("resolve/pair_texts.sql"), CHUNK_KEYS)))
        scored = stack.enter_context(contextlib.closing(on_threads(partial(_score_chunk, threshold=threshold), pairs)))
        first = next(scored, None)
        if first is None:
            first = resolve.score_pairs(pl.DataFrame(schema=PAIR_SCHEMA), threshold).select(SCORED_COLUMNS)
        table = first.to_arrow()
        writer = stack.enter_context(pq.ParquetWriter(path, table.schema))
        writer.write_table(table)
        for part in scored:
            writer.write_table(part.cast(first.schema).to_arrow())


SCORED_COLUMNS = ["paper_key", "other", "other_is_paper", "other_key", "abstract_ratio", "shingle_jaccard",
                  "shingle_containment", "title_ratio", "author_agreement", "score", "rule", "is_match"]


def _score_chunk(chunk: pl.DataFrame, threshold: float) -> pl.DataFrame:
    return resolve.score_pairs(resolve.with_match_texts(chunk), threshold).select(SCORED_COLUMNS)


PAIR_SCHEMA = {"paper_key": pl.Int64, "other": pl.Int64, "other_is_paper": pl.Boolean, "other_key": pl.Int64,
               "text_a": pl.String, "text_b": pl.String, "title_a": pl.String, "title_b": pl.String,
               "keys_a": pl.List(pl.String), "keys_b": pl.List(pl.String), "total_a": pl.Int32, "total_b": pl.Int32}


def _record_matches(con, key_map: pl.DataFrame, skipped: dict, run_id: str | None) -> None:
    """One paper_match row per scored pair (scored_pairs): where the new key went, what it was
    compared with, the features, the score and the rule (a skipped merge says why: `skipped`,
    (paper_key, other, other_is_paper) → the reason)."""
    decided = pl.DataFrame([(*pair, why) for pair, why in skipped.items()], orient="row",
                           schema={"paper_key": pl.Int64, "other": pl.Int64, "other_is_paper": pl.Boolean,
                                   "skipped_because": pl.String})
    # A slice at a time: the rows with their features as JSON text were the run's largest frame
    # (`bench.profile` of 512k titles-only listings: peak RSS 2.7 -> 4.8 GB at this insert, whole).
    for scored in _table_chunks(con, "scored_pairs", "*", "true", MATCH_ROWS_PER_INSERT):
        if not scored.is_empty():
            rows = _match_rows(scored, key_map, decided, run_id)
            insert_frame(con, "paper_match", rows, conflict="ON CONFLICT DO NOTHING")


MATCH_ROWS_PER_INSERT = 500_000


def _match_rows(scored: pl.DataFrame, key_map: pl.DataFrame, decided: pl.DataFrame, run_id: str | None) -> pl.DataFrame:
    """paper_match rows of scored pairs (`_record_matches`)."""
    return (
        scored.join(key_map, on="paper_key", how="left")
        .join(decided, on=["paper_key", "other", "other_is_paper"], how="left")
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


# ----------------------------------------------------------------------------- author lists
# Names at each position of each touched paper, from every list of it (this run's listings, its
# candidates, the stored list), where the lists disagree.

def reconcile_author_lists(con: duckdb.DuckDBPyConnection) -> None:
    """Where one list of a paper shows a name with initials ("M. Hahn") and another list of the
    same paper shows the full name at the same position ("Michael Hahn"), every list of the
    paper gets the full name: the merge then keeps the fullest list, in order, with full names.
    Per paper, so it is safe even when the initials would fit several people elsewhere."""
    run_sql_file(con, "resolve/position_names.sql")
    names = read_frame(con, "SELECT * FROM position_names")
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
    by_key = "JOIN paper_key_map m ON m.paper_key = x.paper_key"
    for table, paper_id, join in [("stg_fullest", "m.paper_id", by_key), ("dim_paper", "x.paper_id", ""),
                                  ("paper_version", "m.paper_id", by_key)]:
        run_sql_file(con, "resolve/upgrade_lists.sql", table=table, paper_id=paper_id, join=join)


# ----------------------------------------------------------------------------- authors
def resolve_author_aliases(con: duckdb.DuckDBPyConnection, run_id: str) -> None:
    """Alias name keys that are one person (see the module docstring)."""
    _withdraw_ambiguous_aliases(con)
    pairs = read_frame(con, schema_sql("resolve/alias_evidence.sql"))
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
    ids = read_frame(con, schema_sql("resolve/alias_ids.sql"))
    decisions = _merge_people(pairs, ids)
    if decisions.is_empty():
        return
    write_frame(con, "CREATE OR REPLACE TEMP TABLE alias_rows AS SELECT * FROM frame",
                decisions.with_columns(run_id=pl.lit(run_id, pl.String)))
    run_sql_file(con, "resolve/apply_aliases.sql")


def _drop_ambiguous(con: duckdb.DuckDBPyConnection, pairs: pl.DataFrame) -> pl.DataFrame:
    """Initials are safe only when they fit one full name: every key known (stored or in this
    run) with the same surname is checked against the short form."""
    initials = pairs.filter(pl.col("rule") == "initials")
    if initials.is_empty():
        return pairs
    ambiguous = _ambiguous_short_keys(con, initials["short_key"])
    return pairs.filter(~((pl.col("rule") == "initials") & pl.col("short_key").is_in(ambiguous.implode())))


def _ambiguous_short_keys(con: duckdb.DuckDBPyConnection, short_keys: pl.Series) -> pl.Series:
    """The short forms (initials) that fit two known full names or more."""
    write_frame(con, "CREATE OR REPLACE TEMP TABLE short_forms AS SELECT * FROM frame", short_keys.unique().to_frame(
        "short_key").with_columns(surname=pl.col("short_key").str.split(" ").list.last()))
    known = read_frame(con, schema_sql("resolve/initials_known.sql"))
    fits = known.filter(resolve.initials_agree(pl.col("short_key"), pl.col("name_key")))
    fits = fits.filter(resolve.fuller_key(pl.col("short_key"), pl.col("name_key")) == pl.col("name_key"))
    return fits.group_by("short_key").agg(n=pl.col("name_key").n_unique()).filter(pl.col("n") > 1)["short_key"]


def _withdraw_ambiguous_aliases(con: duckdb.DuckDBPyConnection) -> None:
    """Stored initials aliases that this run's new names make ambiguous ("Y. LeCunard" aliased to
    "Yannick LeCunard", then "Yolanda LeCunard" arrives) are withdrawn, as a fresh load of all the
    files would never have made them; the short form's mentions are decided again by the person
    step (`withdrawn_aliases`, schemas/resolve/person_mentions.sql). Kept, the later "Y. LeCunard"
    papers went to Yannick, and the answer depended on the order the files were loaded in."""
    candidates = read_frame(con, schema_sql("resolve/alias_withdrawals.sql"))
    ambiguous = _ambiguous_short_keys(con, candidates["short_key"]) if candidates.height else candidates["short_key"]
    withdrawn = candidates.filter(pl.col("short_key").is_in(ambiguous.implode()))["alias_key"].unique()
    write_frame(con, "CREATE OR REPLACE TEMP TABLE withdrawn_aliases AS SELECT alias_key AS name_key FROM frame",
                withdrawn.to_frame("alias_key"))
    con.execute("DELETE FROM author_alias WHERE name_key IN (SELECT name_key FROM withdrawn_aliases)")


def _merge_people(pairs: pl.DataFrame, ids: pl.DataFrame) -> pl.DataFrame:
    """Union the ids of aliased keys; each group keeps one id: the lowest stored id, else the id
    of its fullest key. Returns (name_key, drop_id, keep_id, keep_key, rule) for every key whose id
    goes; keep_key is the name key the kept id was made from (author_alias.to_name_key)."""
    id_of = dict(ids.select("name_key", "author_id").iter_rows())
    stored = dict(ids.select("author_id", "is_stored").iter_rows())
    key_of = dict(ids.select("author_id", "base_key").iter_rows())  # the key each id was made from
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
                rows.append((name_key, author_id, keep, key_of[keep], rule_of.get(author_id, "initials")))
    return pl.DataFrame(rows, schema={"name_key": pl.String, "drop_id": pl.Int64, "keep_id": pl.Int64,
                                      "keep_key": pl.String, "rule": pl.String}, orient="row")


# ----------------------------------------------------------------------------- helpers
def _chunks(con: duckdb.DuckDBPyConnection, query: str, size: int = CHUNK_KEYS):
    """The query's rows, `size` at a time, as Polars frames: materialised once, then read by
    row-id ranges (cheap zone-map scans) so only one chunk is in Python at a time. Row ids, not
    a row_number() column: no window pass over every pair's two abstracts (the callers do not
    use the order of the rows)."""
    con.execute(f"CREATE OR REPLACE TEMP TABLE resolve_chunks AS {query}")
    yield from _table_chunks(con, "resolve_chunks", "*", "true", size)
    con.execute("DROP TABLE resolve_chunks")


def _table_chunks(con: duckdb.DuckDBPyConnection, table: str, columns: str, where: str, size: int = CHUNK_KEYS):
    """`columns` of the rows of `table` that match `where`, `size` row ids at a time, as Polars
    frames. Reads each row-id range in place, where `_chunks` first copies every row (every
    abstract, for the new papers). `table` is a temp table filled once in this transaction:
    its row ids are one contiguous range, though not from 0 (uncommitted rows start near 2^55)."""
    first, last = con.execute(f"SELECT min(rowid), max(rowid) FROM {table}").fetchall()[0]
    for start in range(0 if first is None else first, 0 if last is None else last + 1, size):
        yield read_frame(con, f"SELECT {columns} FROM {table} WHERE rowid >= {start} AND rowid < {start + size} AND ({where})")


def _sign_query(con: duckdb.DuckDBPyConnection, table: str, query: str) -> None:
    """Block keys of the papers the query returns into `table` (the rare paths that sign stored papers)."""
    n_papers = con.execute(f"SELECT count(*) FROM ({query})").fetchall()[0][0]
    _insert_block_keys(con, table, n_papers, partial(_chunks, con, query))


# Papers a run must sign for the compiled signatures to pay for loading them: ~1.5-1.8 s per
# process (numba's import, and its registries when it loads its cache) against ~29 µs of CPU
# saved per paper, on two threads (`python -m bench.signing W.duckdb`: 60 -> 31 µs per paper;
# tests/test_signatures.py: the same keys either way). A daily run keeps the numpy path. Its
# chunks are larger: each chunk compiles the regexes of normalize_math and fold_key again
# (35 µs per paper in chunks of 5,000, 31 in chunks of 20,000).
COMPILED_MIN_PAPERS = 150_000
COMPILED_CHUNK_KEYS = 20_000


def _insert_block_keys(con: duckdb.DuckDBPyConnection, table: str, n_papers: int, read_chunks) -> None:
    """Block keys of `n_papers` papers (at most), read by `read_chunks(size=...)`, into `table`,
    computed on two threads; `python -m bench.profile` shows this time as "Python between"."""
    compiled = n_papers >= COMPILED_MIN_PAPERS
    chunks = read_chunks(size=COMPILED_CHUNK_KEYS if compiled else CHUNK_KEYS)
    for keys in on_threads(partial(resolve.block_keys, compiled=compiled), chunks):
        insert_frame(con, table, keys)
