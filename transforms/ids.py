"""Deterministic ids.

Ids are hashes of natural keys, so ingesting the same files into a fresh warehouse gives the
same ids and new files never renumber old rows, whatever the batch order or the worker. The
hash is MD5 (a fixed, standard function) computed by DuckDB over the Arrow data: Polars' own
`hash` is only stable within one Polars version, which would break ids across upgrades.
"""

from __future__ import annotations

import threading

import duckdb
import polars as pl

SEPARATOR = "\x1f"  # unit separator: cannot occur in cleaned text
# The one definition of an id, shared by this module and the warehouse SQL (macro stable_id).
ID_SQL = "(md5_number_lower({}) >> 1)::BIGINT"


def with_stable_ids(df: pl.DataFrame, ids: dict[str, list[str]]) -> pl.DataFrame:
    """Add one BIGINT column per entry of `ids`: a 63-bit MD5 of the listed key columns."""
    if df.is_empty():
        return df.with_columns([pl.lit(None, pl.Int64).alias(name) for name in ids])
    keys = df.select(
        [pl.concat_str([pl.col(c).cast(pl.String).fill_null("") for c in cols], separator=SEPARATOR)
         .alias(name) for name, cols in ids.items()]
    )
    select = ", ".join(ID_SQL.format(f'"{name}"') + f' AS "{name}"' for name in ids)
    hashed = pl.from_arrow(_hasher().sql(f"SELECT {select} FROM keys").to_arrow_table())  # `keys`: the frame above
    return df.with_columns(hashed)


_per_thread = threading.local()


def _hasher() -> duckdb.DuckDBPyConnection:
    """An in-memory DuckDB for this thread, kept: a parse task makes ids several times per
    batch, and opening a database for each is needless work on the parse path."""
    if not hasattr(_per_thread, "con"):
        _per_thread.con = duckdb.connect()
        _per_thread.con.execute("SET enable_progress_bar = false")  # flows.settings.QUIET
    return _per_thread.con
