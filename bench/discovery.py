"""The look every `digest ingest` starts with (flows/discovery.py): the walk of the folders
(`extract.discover`), and the walk plus the fingerprints against a warehouse (`discovery.look`,
what a run with nothing new costs before it ends). Rounds alternate this checkout's walk with
another copy's (`--old DIR`, e.g. `git archive <commit> | tar -x -C DIR`), same files checked.

    python -m bench.discovery FOLDER [FOLDER ...] [--warehouse W] [--old DIR] [--rounds 3]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path

from flows import discovery, extract
from flows.settings import Settings


def old_extract(tree: Path):
    """That tree's flows/extract.py, loaded under another name beside ours."""
    spec = importlib.util.spec_from_file_location("old_extract", tree / "flows" / "extract.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["old_extract"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def timed(fn) -> tuple[float, object]:
    started = time.perf_counter()
    result = fn()
    return time.perf_counter() - started, result


def fingerprint(found: list) -> list[tuple]:
    return [(f.abs_path, f.path, f.size_bytes, f.mtime_ns, f.inode, f.skip_reason) for f in found]


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+", type=Path)
    ap.add_argument("--warehouse", type=Path, help="also time the whole look against this warehouse")
    ap.add_argument("--old", type=Path, help="another copy of the code whose walk is timed beside ours")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)

    walks = {"new": extract.discover}
    if args.old:
        walks["old"] = old_extract(args.old).discover
    seconds: dict[str, list[float]] = {name: [] for name in walks}
    looks: list[float] = []
    for _ in range(args.rounds):
        found = {}
        for name, walk in walks.items():
            took, (_, found[name]) = timed(lambda walk=walk: walk(args.folders))
            seconds[name].append(took)
        if "old" in found and fingerprint(found["old"]) != fingerprint(found["new"]):
            raise SystemExit("the two walks found different files")
        if args.warehouse:
            looks.append(timed(lambda: discovery.look(args.folders, args.warehouse, Settings()))[0])
    print(f"{len(found['new']):,} files; walk median over {args.rounds} rounds (min-max):")
    for name, runs in seconds.items():
        print(f"  {name}: {statistics.median(runs):.2f} s ({min(runs):.2f}-{max(runs):.2f})")
    if looks:
        print(f"  look against {args.warehouse} (walk + fingerprints, new): {statistics.median(looks):.2f} s")


if __name__ == "__main__":
    main()
