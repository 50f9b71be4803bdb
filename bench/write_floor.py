"""The write floor: DuckDB's own time to write a finished warehouse's tables into a new file.

Every table of a loaded warehouse is first read into an in-memory database (not timed), then
written with CREATE TABLE AS into a fresh DuckDB file in one transaction and checkpointed (timed):
no parsing, no dedupe, no keys or indexes, the data already typed and in memory. It is DuckDB's
own bulk write of these tables, as the line-scan floor (`bench.floor`) is its own read of the
files: a pipeline that loads the same tables into a DuckDB file can hardly write them faster.

    python -m bench.write_floor WAREHOUSE OUT.duckdb      # prints one JSON object
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import duckdb


def write_tables(warehouse: Path, out: Path) -> dict:
    out.unlink(missing_ok=True)
    con = duckdb.connect(":memory:")
    con.execute("ATTACH ? AS src (READ_ONLY)", [str(warehouse)])
    tables = [name for (name,) in con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = 'src' AND schema_name = 'main' "
        "ORDER BY table_name").fetchall()]
    for table in tables:
        con.execute(f'CREATE TABLE memory.main."{table}" AS SELECT * FROM src.main."{table}"')
    con.execute("DETACH src")
    con.execute("ATTACH ? AS dst", [str(out)])
    started = time.perf_counter()
    con.execute("BEGIN")
    for table in tables:
        con.execute(f'CREATE TABLE dst.main."{table}" AS SELECT * FROM memory.main."{table}"')
    con.execute("COMMIT")
    con.execute("CHECKPOINT dst")
    seconds = time.perf_counter() - started
    n_rows = sum(con.execute(f'SELECT count(*) FROM dst.main."{t}"').fetchall()[0][0] for t in tables)
    con.close()
    return {"seconds": round(seconds, 3), "n_tables": len(tables), "n_rows": n_rows, "bytes": out.stat().st_size}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("warehouse", type=Path)
    ap.add_argument("out", type=Path, help="the new file (overwritten)")
    args = ap.parse_args(argv)
    print(json.dumps(write_tables(args.warehouse, args.out)))


if __name__ == "__main__":
    main()
