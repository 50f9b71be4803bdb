"""The matcher's boilerplate test (transforms/dedupe.py): the anchored regex that stops at the 25th
word against counting every word, on the abstracts of a loaded warehouse; same answer checked.

    python -m bench.boilerplate WAREHOUSE [--papers 200000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import duckdb
import polars as pl

from transforms.dedupe import BOILERPLATE_WORDS, is_boilerplate

BY_COUNTING = pl.col("abstract").str.count_matches(r"[\p{L}\p{N}]+") < BOILERPLATE_WORDS


def _best(frame: pl.DataFrame, expr: pl.Expr, repeat: int) -> tuple[float, pl.Series]:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        result = frame.select(expr.alias("boilerplate"))["boilerplate"]
        times.append(time.perf_counter() - started)
    return min(times), result


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("warehouse", type=Path)
    parser.add_argument("--papers", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    with duckdb.connect(str(args.warehouse), read_only=True) as con:
        frame = pl.from_arrow(con.sql(f"SELECT abstract FROM dim_paper LIMIT {int(args.papers)}").to_arrow_table())
    counting, expected = _best(frame, BY_COUNTING, args.repeat)
    anchored, got = _best(frame, is_boilerplate(pl.col("abstract")), args.repeat)
    print(f"{frame.height:,} abstracts: counting {counting:.3f} s, anchored {anchored:.3f} s "
          f"({anchored / counting:.2f}x), same answer: {got.equals(expected)}, boilerplate: {int(got.sum())}")


if __name__ == "__main__":
    main()
