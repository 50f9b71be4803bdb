"""The author step of a first load (the person step and the author rows) by two or more
checkouts of the code, side by side, rounds interleaved: what a change to that step did, without
the rest of a 1M load's noise around it.

    .venv/bin/python -m bench.author_step /tmp/w/1m-distinct.duckdb \\
        --code before=/tmp/before-tree --code after=. [--rounds 3]

The loaded warehouse is copied once with its persons emptied (author_mention, author_person,
person_alias, bridge_paper_author and dim_author: as before a first load's author step). Each
round, each checkout opens that copy in a process of its own (its folder on PYTHONPATH), with
the flow's memory limit, and inside one transaction runs what the flow runs after the papers
are merged, every paper touched: `flows.persons.decide_persons`, then merge/30_authors.sql; the
transaction is rolled back, so every round starts from the same file. Prints each run's seconds
per phase (`persons.*` as `digest ingest --json` reports them, `merge_authors`, and `step`: both)
and the median per checkout, and whether every run wrote the same rows (CHECKED). The merge's
other temp tables are not there, so DuckDB has more of its budget than in the flow and spills
less: compare checkouts within one run, not with a flow.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

from bench.side_by_side import checkouts, child_env, interleaved, remove_copy

EMPTIED = ("author_mention", "author_person", "person_alias", "bridge_paper_author", "dim_author")


# what the step writes, compared across checkouts (count and an order-free hash of these columns)
CHECKED = {
    "author_mention": "paper_id, author_position, mention_key, name_key, author_id, decided_id, rule, name_lambda",
    "author_person": "author_id, name_key, founded_key, first_of_name, name_lambda",
    "bridge_paper_author": "paper_id, author_id, author_position",
    "dim_author": "author_id, name, name_key, n_papers",
}


def prepare(warehouse: Path, target: Path) -> None:
    """A copy of `warehouse` whose persons are gone: the author step's input of a first load."""
    import duckdb

    shutil.copyfile(warehouse, target)
    with duckdb.connect(str(target)) as con:
        for table in EMPTIED:
            con.execute(f"DELETE FROM {table}")
        con.execute("CHECKPOINT")


def run_step(warehouse: Path) -> dict:
    """In this process (the checkout on sys.path): the author step inside a transaction, rolled back."""
    from flows.load import ensure_schema
    from flows.persons import decide_persons
    from flows.settings import Settings
    from flows.sql import connect, run_sql_file
    from transforms.persons import PersonSettings

    con = connect(warehouse)
    budget = Settings().duckdb_memory_limit  # the flow's: DIGEST_DUCKDB_MEMORY_LIMIT, else a share of memory
    con.execute("SET memory_limit = ?", [budget])
    ensure_schema(con)
    con.execute("BEGIN")
    con.execute("CREATE TEMP TABLE touched AS SELECT paper_id FROM dim_paper")
    con.execute("CREATE TEMP TABLE stg_authors AS SELECT DISTINCT name_key FROM author_name_variant")
    timings: dict[str, float] = {}
    started = time.perf_counter()
    decide_persons(con, "bench-author-step", PersonSettings(), timings, budget=budget)
    persons_done = time.perf_counter()
    run_sql_file(con, "merge/30_authors.sql", {"run_id": "bench-author-step"})
    run_sql_file(con, "resolve/person_forward.sql", {"run_id": "bench-author-step"})
    done = time.perf_counter()
    tables = {t: con.execute(f"SELECT count(*), bit_xor(hash({cols})) FROM {t}").fetchall()[0]
              for t, cols in CHECKED.items()}
    con.execute("ROLLBACK")
    con.close()
    return {**timings, "persons": persons_done - started, "merge_authors": done - persons_done, "step": done - started,
            "tables": tables}


def run_once(code: Path, warehouse: Path) -> dict:
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--inner", str(warehouse)],
                          cwd=code, env=child_env(code), capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


SHOWN = ("persons.mentions", "persons.name_stats", "persons.rare", "persons.decide_write", "persons", "merge_authors",
         "step")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("warehouse", type=Path, help="a loaded warehouse (copied once, never written)")
    ap.add_argument("--code", action="append", metavar="NAME=DIR", help="a checkout to run (default: this one)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--scratch", type=Path, default=None, help="where the copy goes (default: beside the warehouse)")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.inner:
        print(json.dumps(run_step(args.warehouse)))
        return
    target = (args.scratch or args.warehouse.parent) / "author-step.duckdb"
    try:
        prepare(args.warehouse, target)
        runs = interleaved(checkouts(args.code), args.rounds, lambda code: run_once(code, target), SHOWN, width=12)
    finally:
        remove_copy(target)
    written = {json.dumps(r["tables"]) for rows in runs.values() for r in rows}
    print(f"tables written: {'the same' if len(written) == 1 else 'DIFFERENT'} in every run ({', '.join(CHECKED)})")


if __name__ == "__main__":
    main()
