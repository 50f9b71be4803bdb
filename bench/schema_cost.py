"""What ensuring the warehouse schema costs a run (`flows.load.ensure_schema`, called by every
ingest), by two or more checkouts side by side: on a new warehouse file, then again on it (every
later run's case).

    python -m bench.schema_cost --code before=DIR --code after=. --rounds 5
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.side_by_side import checkouts, child_env, interleaved

CHILD = """
import json, sys, time, duckdb
from flows.load import ensure_schema
con = duckdb.connect(sys.argv[1])
started = time.perf_counter(); ensure_schema(con); new = time.perf_counter() - started
started = time.perf_counter(); ensure_schema(con); again = time.perf_counter() - started
print(json.dumps({"new": new, "again": again}))
"""


def run_once(code: Path) -> dict:
    with tempfile.TemporaryDirectory() as scratch:
        done = subprocess.run([sys.executable, "-c", CHILD, str(Path(scratch) / "w.duckdb")], cwd=code,
                              env=child_env(code), capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--code", action="append", metavar="NAME=DIR", help="a checkout to run (default: this one)")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args(argv)
    interleaved(checkouts(args.code), args.rounds, run_once, ("new", "again"))


if __name__ == "__main__":
    main()
