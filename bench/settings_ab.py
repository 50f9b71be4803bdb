"""A first load of one corpus under two or more settings or checkouts, side by side, rounds
interleaved: what a setting's default should be, or what a change did, on one machine at one time.

    .venv/bin/python -m bench.settings_ab /tmp/digest-bench/1000000 \\
        --setting two=DIGEST_MAX_BATCHES_IN_FLIGHT=2 --setting four=DIGEST_MAX_BATCHES_IN_FLIGHT=4 [--rounds 2]
    .venv/bin/python -m bench.settings_ab /tmp/digest-bench/1000000-big --code before=/tmp/before --code after=.

Each run is `digest ingest --json` into a fresh warehouse (removed after), of this checkout with
the setting in its environment, or of the checkout a `--code` names (run from that folder, numba's
cache compiled there first, as `make` does); with PREFECT_API_URL set it uses that server, as teams run the
tool (`prefect server start`), else Prefect's temporary one. Prints each run's wall time, flow
time (`seconds` of the summary), its parse phase (the flow less the merge, checks, commit and
publish), the merge and the process's peak RSS, then the medians per setting.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench.side_by_side import interleaved, remove_copy

AFTER_PARSE = ("merge_and_resolve", "checks", "commit", "publish")


def run_once(variant: tuple[dict[str, str], Path | None], corpus: Path, scratch: Path) -> dict:
    env, code = variant
    warehouse = scratch / "settings_ab.duckdb"
    inputs = [str(p) for p in (corpus / "listing", corpus / "search") if p.is_dir()] or [str(corpus)]
    started = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        child = subprocess.Popen([sys.executable, "-m", "flows.cli", "ingest", *inputs, "--warehouse", str(warehouse), "--json"],
                                 env={**os.environ, **env}, cwd=code, stdout=out, stderr=err, text=True)
        _, status, usage = os.wait4(child.pid, 0)  # this child's own peak RSS
        wall = time.perf_counter() - started
        child.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0), err.seek(0)
        text, errors = out.read(), err.read()
    remove_copy(warehouse)
    if child.returncode:
        raise SystemExit(f"digest ingest failed ({child.returncode}) with {env}: {errors.strip()[-500:]}")
    summary = json.loads(text[text.rfind("\n{") + 1:])  # whatever a library printed before it
    stages = summary["stage_seconds"]
    return {"wall": wall, "flow": summary["seconds"],
            "parse": summary["seconds"] - sum(stages.get(s, 0.0) for s in AFTER_PARSE),
            "merge": stages.get("merge_and_resolve", 0.0), "rss_gib": usage.ru_maxrss / 2**20}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus", type=Path, help="a bench.corpus folder (listing/ and search/) or any folder")
    ap.add_argument("--setting", action="append", default=[], metavar="NAME=VAR=VALUE",
                    help="a variant: its name and one environment variable")
    ap.add_argument("--code", action="append", default=[], metavar="NAME=DIR",
                    help="a variant: its name and a checkout of the code (git worktree or archive)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--scratch", type=Path, default=Path(tempfile.gettempdir()))
    args = ap.parse_args(argv)
    variants: dict[str, tuple[dict[str, str], Path | None]] = {}
    for spec in args.setting:
        name, var, value = spec.split("=", 2)
        variants[name] = ({var: value}, None)
    for spec in args.code:
        name, folder = spec.split("=", 1)
        code = Path(folder).resolve()
        subprocess.run([sys.executable, "-m", "transforms.signatures"], cwd=code, check=True,
                       env={**os.environ, "PYTHONPATH": str(code)})
        variants[name] = ({"PYTHONPATH": str(code)}, code)
    if len(variants) < 2:
        ap.error("give two variants or more (--setting, --code)")
    interleaved(variants, args.rounds, lambda variant: run_once(variant, args.corpus, args.scratch),
                ("wall", "flow", "parse", "merge", "rss_gib"))


if __name__ == "__main__":
    main()
