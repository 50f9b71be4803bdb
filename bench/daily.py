"""A daily run (a small corpus onto a copy of a large warehouse) by two or more checkouts of the
code, side by side in one process, rounds interleaved: what a change to the run's fixed costs
(copy, flush, commit, publish) did, on one machine at one time.

    .venv/bin/python -m bench.daily /tmp/w/1m.duckdb /tmp/digest-bench/10000-seed1 \\
        --code before=/tmp/before-tree --code after=. [--rounds 3]

The warehouse is copied afresh and `sync`ed before each run (its pages written, so one run's
writeback does not land in the next); each checkout runs `digest ingest --json` with its folder
on PYTHONPATH (temporary Prefect server, as `digest` does when PREFECT_API_URL is unset). Prints
each run's wall time (the process), flow time (`seconds` of the summary) and the fixed-cost
stages, then the median per checkout. Make the "before" checkout with `git worktree add DIR REV`.
`--own-warehouse NAME=PATH`: that checkout's runs go onto a warehouse it built itself (when the
two differ in stored signatures, each onto the other's would time a one-off re-signing).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

from bench.side_by_side import checkouts, child_env, interleaved, remove_copy

STAGES = ("copy", "copy_wait", "copy_sync", "merge_and_resolve", "merge.resolve_papers", "merge.merge_papers", "checks",
          "commit", "publish")


def run_once(code: Path, warehouse: Path, corpus: Path, scratch: Path) -> dict:
    target = scratch / "daily.duckdb"
    shutil.copyfile(warehouse, target)
    os.sync()
    inputs = [str(p) for p in (corpus / "listing", corpus / "search") if p.is_dir()] or [str(corpus)]
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "flows.cli", "ingest", *inputs, "--warehouse", str(target), "--json"],
                          cwd=code, env=child_env(code), capture_output=True, text=True, check=True)
    wall = time.perf_counter() - started
    summary = json.loads(done.stdout[done.stdout.index("{"):])
    stages = summary["stage_seconds"]
    return {"wall": wall, "flow": summary["seconds"], **{s: stages.get(s, 0.0) for s in STAGES}}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("warehouse", type=Path, help="a loaded warehouse (copied for each run, never written)")
    ap.add_argument("corpus", type=Path, help="the daily files (a bench.corpus folder or any folder)")
    ap.add_argument("--code", action="append", required=True, metavar="NAME=DIR", help="a checkout to run")
    ap.add_argument("--own-warehouse", action="append", default=[], metavar="NAME=PATH",
                    help="a warehouse this checkout built, used for its runs instead (a change of the signature "
                         "scheme re-signs every stored paper on the first run of the other's)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--scratch", type=Path, default=None, help="where the copies go (default: beside the warehouse)")
    args = ap.parse_args(argv)
    scratch = args.scratch or args.warehouse.parent
    scratch.mkdir(parents=True, exist_ok=True)  # a new folder named for the copies (it failed at the first copy)
    own = {Path(folder): Path(path) for name, folder in (s.split("=", 1) for s in args.code)
           for other, path in (o.split("=", 1) for o in args.own_warehouse) if other == name}
    try:
        interleaved(checkouts(args.code), args.rounds,
                    lambda code: run_once(code, own.get(code, args.warehouse), args.corpus, scratch),
                    ("wall", "flow", *STAGES))
    finally:  # the copy, its lock file, a spill folder
        remove_copy(scratch / "daily.duckdb")


if __name__ == "__main__":
    main()
