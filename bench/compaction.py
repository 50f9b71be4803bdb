"""What DuckDB's checkpoint rewrites after a small run, with its row-group vacuum and without
(flows/load.py, ROW_GROUP_SLACK). On a copy of a loaded warehouse, each simulated run deletes
and re-inserts `--touched` stored versions and appends `--new` ones to paper_version (what a +1 %
run does there), commits and checkpoints: `--runs` such runs with the vacuum off, then two with it
on. Prints each checkpoint's seconds, paper_version's row groups and its blocks written anew.

    python -m bench.compaction WAREHOUSE [--runs 6] [--touched 5700] [--new 2329]
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import duckdb

from flows.load import row_groups


def _blocks(con: duckdb.DuckDBPyConnection) -> set[int]:
    return {r[0] for r in con.execute("SELECT DISTINCT block_id FROM pragma_storage_info('paper_version') "
                                      "WHERE block_id >= 0").fetchall()}


def _run(con: duckdb.DuckDBPyConnection, run: int, vacuum: bool, touched: int, new: int) -> None:
    con.execute(f"SET max_vacuum_tasks = {100 if vacuum else 0}")  # 100: DuckDB's default
    before = _blocks(con)
    con.execute("BEGIN")
    con.execute(f"CREATE OR REPLACE TEMP TABLE run_keys AS SELECT * FROM paper_version USING SAMPLE {touched} ROWS")
    con.execute("DELETE FROM paper_version WHERE paper_key IN (SELECT paper_key FROM run_keys)")
    con.execute("INSERT INTO paper_version SELECT * FROM run_keys")
    con.execute(f"INSERT INTO paper_version SELECT (hash(paper_key, {run}) >> 1)::BIGINT, title, abstract, authors, "
                f"author_keys, author_total, has_complete_listing FROM run_keys LIMIT {new}")
    con.execute("COMMIT")
    started = time.perf_counter()
    con.execute("CHECKPOINT")
    seconds = time.perf_counter() - started
    print(f"run {run}: vacuum {'on ' if vacuum else 'off'}  checkpoint {seconds:6.2f} s  "
          f"row groups {row_groups(con, 'paper_version'):4d}  blocks written {len(_blocks(con) - before):5d}", flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warehouse", type=Path)
    parser.add_argument("--runs", type=int, default=6, help="runs with the vacuum off before two with it on")
    parser.add_argument("--touched", type=int, default=5_700, help="stored versions a run rewrites")
    parser.add_argument("--new", type=int, default=2_329, help="versions a run appends")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(dir=args.warehouse.parent) as tmp:
        copy = Path(tmp) / "compaction.duckdb"
        shutil.copyfile(args.warehouse, copy)
        with duckdb.connect(str(copy)) as con:
            for run in range(args.runs + 2):
                _run(con, run, run >= args.runs, args.touched, args.new)


if __name__ == "__main__":
    main()
