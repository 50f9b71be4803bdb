"""What DuckDB's string compression costs the load: a corpus's abstracts written into a table
stored as DuckDB chooses (DICT_FSST), uncompressed and as zstd, side by side, with the time to
insert, commit and checkpoint them, the file's size and a full scan of the column.

    .venv/bin/python -m bench.compression /tmp/digest-bench/1000000 [--rows 300000] [--memory-limit 1GB]

Reads the corpus's `papers.parquet` (written by `python -m bench.corpus`). Why the warehouse
stores abstracts uncompressed: schemas/warehouse.sql, README "Session 13"."""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import duckdb
import polars as pl

STORAGE = {"default (DICT_FSST)": "", "uncompressed": " USING COMPRESSION uncompressed",
           "zstd": " USING COMPRESSION zstd"}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--rows", type=int, default=300_000)
    ap.add_argument("--memory-limit", default="1GB")
    args = ap.parse_args(argv)
    abstracts = pl.read_parquet(args.corpus / "papers.parquet", columns=["abstract"]).head(args.rows)  # the SQL below reads it by name
    print(f"{abstracts.height:,} abstracts, {abstracts['abstract'].str.len_bytes().sum() / 1e6:,.0f} MB of text")
    for label, storage in STORAGE.items():
        with tempfile.TemporaryDirectory() as scratch:
            path = Path(scratch) / "w.duckdb"
            with duckdb.connect(str(path)) as con:
                con.execute(f"SET memory_limit = '{args.memory_limit}'")
                con.execute(f"CREATE TABLE t (abstract VARCHAR{storage})")
                started = time.perf_counter()
                con.execute("BEGIN")
                con.execute("INSERT INTO t SELECT abstract FROM abstracts")
                con.execute("COMMIT")
                con.execute("CHECKPOINT")  # under a row group (~123k rows) the compression happens here
                written = time.perf_counter() - started
            with duckdb.connect(str(path), read_only=True) as con:
                started = time.perf_counter()
                con.execute("SELECT count(*) FROM t WHERE abstract LIKE '%graph%'").fetchall()
                scanned = time.perf_counter() - started
            print(f"{label:20s} write {written:5.2f} s   file {path.stat().st_size / 1e6:6.0f} MB   "
                  f"scan {scanned:4.2f} s")


if __name__ == "__main__":
    main()
