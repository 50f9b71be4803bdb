"""The resolver's signing (`transforms.resolve.block_keys`): the numpy path and the compiled one
(transforms/signatures.py), in chunks of several sizes, on a loaded warehouse's abstracts.

    .venv/bin/python -m bench.signing W.duckdb [--papers 40000] [--sizes 5000,20000] [--repeats 3]

W is any loaded warehouse (e.g. `python -m bench.profile /tmp/digest-bench/100000-distinct --keep
W.duckdb`). Prints the median wall and CPU seconds per path and chunk size, and checks that both
paths give the same block keys. The compiled code's loading (numba's import and cache, timed
apart) is paid once per process.
"""

from __future__ import annotations

import argparse
import statistics
import time

import duckdb

from transforms import resolve


def timed(fn) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - wall, time.process_time() - cpu


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("warehouse")
    ap.add_argument("--papers", type=int, default=40_000)
    ap.add_argument("--sizes", default="5000,20000")
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    with duckdb.connect(args.warehouse, read_only=True) as con:
        papers = con.sql(f"SELECT paper_key, abstract, author_keys FROM paper_version "
                         f"ORDER BY paper_key LIMIT {args.papers:d}").pl()
    load_s, _ = timed(lambda: resolve.block_keys(papers.head(1), compiled=True))
    print(f"{papers.height:,} papers; loading the compiled code: {load_s:.2f} s")
    sample = papers.head(5000)
    assert resolve.block_keys(sample, compiled=True).equals(resolve.block_keys(sample)), "the paths disagree"
    for size in (int(s) for s in args.sizes.split(",")):
        for compiled in (False, True):
            def run(size=size, compiled=compiled):
                for offset in range(0, papers.height, size):
                    resolve.block_keys(papers.slice(offset, size), compiled=compiled)
            runs = [timed(run) for _ in range(args.repeats)]
            wall, cpu = statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)
            print(f"  {'compiled' if compiled else 'numpy':8s} chunks of {size:>6,}: {wall:6.2f} s wall, {cpu:6.2f} s CPU, "
                  f"{cpu / papers.height * 1e6:5.1f} µs CPU per paper")


if __name__ == "__main__":
    main()
