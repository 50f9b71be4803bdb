"""Are two warehouses the same? Every table's rows compared both ways (EXCEPT ALL), leaving out
what differs between any two runs (run ids, timestamps, the run log):

    .venv/bin/python -m bench.same_tables BEFORE.duckdb AFTER.duckdb

Prints one line per table (rows in each, rows only in one) and exits 1 when any table differs:
how a change that should not move any decision (a faster person step, a faster merge) is checked
on a real load of a bench corpus."""

from __future__ import annotations

import argparse
import sys

import duckdb

# Columns that name the run or the clock, never the content.
RUN_COLUMNS = {"run_id", "superseded_run_id", "ingested_at", "started_at", "finished_at"}
RUN_TABLES = {"ingest_run"}


def compare(before: str, after: str) -> list[tuple[str, int, int, int, int]]:
    """(table, rows before, rows after, rows only before, rows only after) for every table of either."""
    con = duckdb.connect()
    con.execute(f"ATTACH '{before}' AS a (READ_ONLY)")
    con.execute(f"ATTACH '{after}' AS b (READ_ONLY)")
    names = {db: {t for (t,) in con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = ? AND schema_name = 'main'", [db]).fetchall()}
        for db in ("a", "b")}
    out = []
    for table in sorted((names["a"] | names["b"]) - RUN_TABLES):
        if table not in names["a"] or table not in names["b"]:  # a table one schema has: all its rows differ
            db = "a" if table in names["a"] else "b"
            n = con.execute(f'SELECT count(*) FROM {db}."{table}"').fetchall()[0][0]
            out.append((table, n, 0, n, 0) if db == "a" else (table, 0, n, 0, n))
            continue
        cols = [c for (c,) in con.execute(
            "SELECT column_name FROM duckdb_columns() WHERE database_name = 'a' AND table_name = ? ORDER BY column_index",
            [table]).fetchall() if c not in RUN_COLUMNS]
        select = ", ".join(f'"{c}"' for c in cols)
        counts = con.execute(
            f'SELECT (SELECT count(*) FROM a."{table}"), (SELECT count(*) FROM b."{table}"), '
            f'(SELECT count(*) FROM (SELECT {select} FROM a."{table}" EXCEPT ALL SELECT {select} FROM b."{table}")), '
            f'(SELECT count(*) FROM (SELECT {select} FROM b."{table}" EXCEPT ALL SELECT {select} FROM a."{table}"))'
        ).fetchone()
        out.append((table, *counts))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    args = ap.parse_args(argv)
    rows = compare(args.before, args.after)
    differ = 0
    for table, n_a, n_b, only_a, only_b in rows:
        same = only_a == 0 and only_b == 0
        differ += not same
        print(f"{'same' if same else 'DIFFERS':8s} {table:28s} {n_a:>12,} {n_b:>12,}  only before {only_a:,}, only after {only_b:,}")
    print(f"{len(rows) - differ} of {len(rows)} tables the same")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
