"""Checkouts of the code timed side by side, rounds interleaved (so a shared machine's load falls
on each alike), with the medians per checkout: what bench.daily and bench.author_step share."""

from __future__ import annotations

import os
import shutil
import statistics
from collections.abc import Callable, Sequence
from pathlib import Path


def checkouts(specs: Sequence[str] | None) -> dict[str, Path]:
    """NAME=DIR arguments (`--code`) as name -> folder; none: this checkout as "here"."""
    return {name: Path(folder) for name, folder in (s.split("=", 1) for s in specs or ["here=."])}


def child_env(code: Path) -> dict[str, str]:
    """This process's environment (DIGEST_* settings included) with `code` first on the path."""
    return {**os.environ, "PYTHONPATH": str(code.resolve())}


def interleaved(codes: dict[str, object], rounds: int, run: Callable[[object], dict], columns: Sequence[str],
                width: int = 9) -> dict[str, list[dict]]:
    """`run(code)` for each checkout (or other variant: bench.settings_ab's settings) in turn,
    `rounds` times; prints each run's `columns`, then the medians. Returns every run per name."""
    runs: dict[str, list[dict]] = {name: [] for name in codes}
    print(f"{'code':<12} " + " ".join(f"{c.split('.')[-1]:>{width}}" for c in columns))
    for _ in range(rounds):
        for name, code in codes.items():
            runs[name].append(run(code))
            print(f"{name:<12} " + " ".join(f"{runs[name][-1].get(c, 0.0):{width}.2f}" for c in columns), flush=True)
    print("median")
    for name, rows in runs.items():
        print(f"{name:<12} " + " ".join(f"{statistics.median(r.get(c, 0.0) for r in rows):{width}.2f}" for c in columns))
    return runs


def remove_copy(path: Path) -> None:
    """A scratch warehouse and what DuckDB leaves beside it (its WAL, a spill folder)."""
    for leftover in path.parent.glob(path.name + "*"):
        if leftover.is_dir():
            shutil.rmtree(leftover)
        else:
            leftover.unlink()
