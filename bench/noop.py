"""The fixed cost of `digest ingest` alone: a run whose files are all loaded already (issue 15:
at most 3 s with a running Prefect server, 6 s with Prefect's temporary server).

    python -m bench.noop WAREHOUSE FOLDER [FOLDER ...] [--runs 5] [--server running|temporary|both]
                         [--old DIR] [--json OUT]

The folders are loaded into WAREHOUSE first when it does not hold them yet (not timed). Then
each round runs the no-op once per code tree, alternating, so load on a shared machine falls on
both alike: this checkout, and with ``--old DIR`` another copy of the code (e.g. ``git archive
<commit> | tar -x -C DIR``), imported first through PYTHONPATH. Each run is a fresh process,
``python -P -c 'from flows.cli import app; app()' ingest FOLDER... --warehouse W --json`` (what the
``digest`` script runs; -P: the working folder does not come before PYTHONPATH), timed around
the process; its summary must say no file was new.

The running server is the one PREFECT_API_URL names, or one ``prefect server start`` started
here (as ``bench.run`` does); the temporary-server runs have no PREFECT_API_URL, so each run
starts its own. Children keep ``.pyc`` files under ``<work>/pycache`` (``bench.run
--bytecode cached``); one untimed run per tree and server writes them first.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
from pathlib import Path

from bench import run as bench_run

LAUNCH = "import sys; from flows.cli import app; sys.exit(app())"


def ingest_cmd(folders: list[str], warehouse: Path) -> list[str]:
    return [sys.executable, "-P", "-c", LAUNCH, "ingest", *folders, "--warehouse", str(warehouse), "--json"]


def tree_env(env: dict, tree: Path | None) -> dict:
    """The environment of a run of `tree`'s code (None: this checkout, as installed)."""
    if tree is None:
        return dict(env)
    return {**env, "PYTHONPATH": str(tree) + (":" + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")}


def run_once(folders: list[str], warehouse: Path, env: dict, timeout: float) -> dict:
    m = bench_run.run_measured(ingest_cmd(folders, warehouse), timeout, env)
    summary = m.json or {}
    if m.returncode != 0 or summary.get("n_files_new") != 0:
        tail = m.stderr.strip().splitlines()[-1:] or [f"exit {m.returncode}"]
        raise RuntimeError(f"not a no-op run (exit {m.returncode}, {summary.get('n_files_new')} new files): {tail[0]}")
    return {"wall_s": round(m.wall_s, 3), "cpu_s": round(m.cpu_s, 3), "flow_seconds": summary.get("seconds")}


def measure(folders: list[str], warehouse: Path, trees: dict[str, Path | None], servers: dict[str, dict],
            runs: int, timeout: float) -> dict:
    """{server: {tree: {"runs": [...], "median_wall_s": ...}}}, rounds alternating the trees."""
    out: dict = {}
    for server, env in servers.items():
        for tree in trees.values():  # untimed: writes the bytecode cache of each tree
            run_once(folders, warehouse, tree_env(env, tree), timeout)
        got: dict[str, list[dict]] = {name: [] for name in trees}
        load_before = os.getloadavg()
        for i in range(runs):
            for name, tree in trees.items():
                got[name].append(run_once(folders, warehouse, tree_env(env, tree), timeout))
                bench_run.log(f"{server} server, {name}, run {i + 1}: {got[name][-1]['wall_s']:.2f} s")
        out[server] = {name: {"runs": r, "median_wall_s": statistics.median(x["wall_s"] for x in r),
                              "median_cpu_s": statistics.median(x["cpu_s"] for x in r),
                              "min_wall_s": min(x["wall_s"] for x in r), "max_wall_s": max(x["wall_s"] for x in r)}
                       for name, r in got.items()}
        out[server]["loadavg_before_after"] = [load_before, os.getloadavg()]
    return out


def table(result: dict) -> str:
    targets = {"running": bench_run.TARGET_NOOP_RUNNING_S, "temporary": bench_run.TARGET_NOOP_TEMPORARY_S}
    lines = ["| server | code | median wall | min–max | median CPU | target |", "|---|---|---|---|---|---|"]
    for server, by_tree in result.items():
        for name, r in by_tree.items():
            if name == "loadavg_before_after":
                continue
            lines.append(f"| {server} | {name} | {r['median_wall_s']:.2f} s | {r['min_wall_s']:.2f}–{r['max_wall_s']:.2f} s "
                         f"| {r['median_cpu_s']:.2f} s | ≤ {targets[server]:.0f} s |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("warehouse", type=Path)
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--runs", type=int, default=5, help="timed runs per code tree and server")
    ap.add_argument("--server", choices=("running", "temporary", "both"), default="both")
    ap.add_argument("--old", type=Path, help="another copy of the code to time beside this checkout")
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "digest-noop",
                    help="the bytecode cache and, when one is started, the Prefect server's home")
    ap.add_argument("--timeout", type=float, default=300.0)
    ap.add_argument("--json", type=Path, help="write the runs and medians here")
    args = ap.parse_args(argv)

    args.work.mkdir(parents=True, exist_ok=True)
    bench_run.BYTECODE_CACHE = args.work / "pycache"
    folders = [str(Path(f).absolute()) for f in args.folders]
    warehouse = args.warehouse.absolute()
    trees: dict[str, Path | None] = {"this checkout": None}
    if args.old:
        trees = {"old": args.old.absolute(), "new": None}
    want = ("running", "temporary") if args.server == "both" else (args.server,)
    servers = bench_run.start_servers(args.work) if "running" in want else None
    try:
        envs = {}
        if servers:
            envs["running"] = servers.running
        if "temporary" in want:
            envs["temporary"] = servers.temporary if servers else {
                k: v for k, v in bench_run.child_env().items() if k != "PREFECT_API_URL"}
        first = envs.get("running") or envs["temporary"]
        loaded = bench_run.run_measured(ingest_cmd(folders, warehouse), args.timeout, first)  # loads them if new
        if loaded.returncode != 0:
            raise RuntimeError(f"loading the folders failed: {loaded.stderr.strip()[-500:]}")
        result = measure(folders, warehouse, trees, envs, args.runs, args.timeout)
    finally:
        if servers:
            servers.stop()
    print(table(result))
    if args.json:
        args.json.write_text(json.dumps({"warehouse": str(warehouse), "folders": folders,
                                         "trees": {k: str(v) if v else "this checkout" for k, v in trees.items()},
                                         "machine": bench_run.machine_facts(), "result": result}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
