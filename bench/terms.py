"""Throughput of term extraction (transforms.terms.paper_terms), on real-ish abstracts.

    .venv/bin/python -m bench.terms [--papers 50000] [--repeat 2]

The papers are the real ones of realdata/ (arXiv listings and ICLR 2024), then word-swapped
variants of them, as the 1M benchmark's corpus makes its synthetic papers (bench.corpus): so
the vocabulary of phrases grows with the corpus as it would. Prints papers per second and the
projected time for the 1M benchmark's ~333k new papers.
"""

from __future__ import annotations

import argparse
import random
import time

import polars as pl

from bench.corpus import _swap_words, default_realdata, load_realdata
from transforms.terms import paper_terms

BENCH_1M_NEW_PAPERS = 333_000


def real_ish_papers(n: int, seed: int = 7) -> pl.DataFrame:
    """(paper_id, title, abstract): the real papers first, then variants with 8 word swaps."""
    real = [(p.text.title, p.text.abstract) for p in load_realdata(default_realdata()).papers if p.text.abstract]
    rng = random.Random(seed)
    rows = []
    for i in range(n):
        title, abstract = real[i % len(real)]
        if i >= len(real):
            abstract = _swap_words(rng, abstract, 8)
        rows.append((i, title, abstract))
    return pl.DataFrame(rows, schema={"paper_id": pl.Int64, "title": pl.String, "abstract": pl.String}, orient="row")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=2, help="runs; the best is reported")
    args = parser.parse_args(argv)
    papers = real_ish_papers(args.papers)
    mb = papers.select(pl.col("abstract").str.len_bytes().sum()).item() / 1e6
    best = float("inf")
    for _ in range(args.repeat):
        started = time.perf_counter()
        terms = paper_terms(papers)
        best = min(best, time.perf_counter() - started)
    rate = papers.height / best
    print(f"{papers.height:,} papers ({mb:.0f} MB of abstracts) → {terms.height:,} paper terms "
          f"in {best:.2f} s: {rate:,.0f} papers/s")
    print(f"projected for the 1M benchmark's {BENCH_1M_NEW_PAPERS:,} new papers: {BENCH_1M_NEW_PAPERS / rate:.1f} s")


if __name__ == "__main__":
    main()
