"""A run's counts (the `digest ingest` summary and the `ingest_run` row) and the warehouse's
totals: plain DuckDB, so a run with nothing new reports them without loading the loader
(Polars, the merge's modules; issue 15, fixed cost)."""

from __future__ import annotations

from dataclasses import dataclass

import duckdb


@dataclass(frozen=True)
class RunStats:
    n_files_new: int
    n_files_skipped: int
    n_listings: int
    n_new_papers: int
    n_papers: int
    n_authors: int
    n_quarantined: int
    n_new_authors: int = 0


def totals(con: duckdb.DuckDBPyConnection) -> tuple[int, int]:
    """Papers and authors in the warehouse."""
    return con.execute("SELECT (SELECT count(*) FROM dim_paper), (SELECT count(*) FROM dim_author)").fetchall()[0]
