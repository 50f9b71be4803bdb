"""What DuckDB's string compression costs the load: a corpus's abstracts (or author names) written
into a table stored as DuckDB chooses (DICT_FSST), uncompressed and as zstd, side by side, with
the time to insert, commit and checkpoint them, the file's size and a full scan of the column.

    .venv/bin/python -m bench.compression /tmp/digest-bench/1000000 [--rows 300000] [--memory-limit 1GB]
    .venv/bin/python -m bench.compression /tmp/digest-bench/1000000-distinct --column names --rows 3000000
    .venv/bin/python -m bench.compression W.duckdb --table author_mention --columns mention_key,name_key --rows 0

Reads the corpus's `papers.parquet` (written by `python -m bench.corpus`); `--column names` writes
every shown name (as shown, then lowercased: a name and its key, as author_mention, dim_author and
author_name_variant hold them). With `--table`, the first argument is a warehouse (e.g. from
`python -m bench.profile CORPUS --keep W.duckdb`) and the table's text columns are written as
they are. `--rows 0`: every row. Why the warehouse stores these uncompressed: schemas/warehouse.sql,
README "Session 13" (abstracts) and "Session 15" (names)."""

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
    ap.add_argument("--column", choices=["abstract", "names"], default="abstract")
    ap.add_argument("--table", help="write this table's VARCHAR columns of the warehouse given as first argument")
    ap.add_argument("--columns", help="with --table: only these columns (comma-separated)")
    args = ap.parse_args(argv)
    if args.table:
        to_write = _table_strings(args.corpus, args.table, args.columns, args.rows)  # the SQL below reads it by name
    else:
        to_write = _strings(args.corpus / "papers.parquet", args.column, args.rows or None)
    columns = ", ".join(f"{c} VARCHAR{{storage}}" for c in to_write.columns)
    size = sum(to_write[c].str.len_bytes().sum() for c in to_write.columns)
    print(f"{to_write.height:,} rows of {', '.join(to_write.columns)}, {size / 1e6:,.0f} MB of text")
    for label, storage in STORAGE.items():
        with tempfile.TemporaryDirectory() as scratch:
            path = Path(scratch) / "w.duckdb"
            with duckdb.connect(str(path)) as con:
                con.execute(f"SET memory_limit = '{args.memory_limit}'")
                con.execute(f"CREATE TABLE t ({columns.format(storage=storage)})")
                started = time.perf_counter()
                con.execute("BEGIN")
                con.execute("INSERT INTO t SELECT * FROM to_write")
                con.execute("COMMIT")
                con.execute("CHECKPOINT")  # under a row group (~123k rows) the compression happens here
                written = time.perf_counter() - started
            with duckdb.connect(str(path), read_only=True) as con:
                started = time.perf_counter()
                con.execute(f"SELECT count(*) FROM t WHERE {to_write.columns[0]} LIKE '%graph%'").fetchall()
                scanned = time.perf_counter() - started
            print(f"{label:20s} write {written:5.2f} s   file {path.stat().st_size / 1e6:6.0f} MB   "
                  f"scan {scanned:4.2f} s")


def _table_strings(warehouse: Path, table: str, only: str | None, rows: int) -> pl.DataFrame:
    with duckdb.connect(str(warehouse), read_only=True) as con:
        columns = [c for (c,) in con.execute("SELECT column_name FROM duckdb_columns() WHERE table_name = ? "
                                             "AND data_type = 'VARCHAR' ORDER BY column_index", [table]).fetchall()]
        columns = [c for c in columns if only is None or c in only.split(",")]
        limit = f" LIMIT {rows:d}" if rows else ""
        return pl.from_arrow(con.sql(f"SELECT {', '.join(columns)} FROM {table}{limit}").to_arrow_table())


def _strings(papers: Path, column: str, rows: int | None) -> pl.DataFrame:
    if column == "abstract":
        return pl.read_parquet(papers, columns=["abstract"]).head(rows)
    names = pl.read_parquet(papers, columns=["authors"]).explode("authors").drop_nulls().head(rows)
    return names.select(name=pl.col("authors"), name_key=pl.col("authors").str.to_lowercase())


if __name__ == "__main__":
    main()
