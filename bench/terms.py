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
from flows.terms import update_terms
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


def time_warehouse_step(papers: pl.DataFrame) -> float:
    """flows.terms.update_terms end to end (read abstracts, extract, write the bridge and the
    dimension) with every paper touched, in a scratch DuckDB holding the warehouse schema."""
    from flows.load import connect, ensure_schema

    con = connect(":memory:")
    ensure_schema(con)
    con.execute("INSERT INTO dim_paper BY NAME SELECT paper_id, title, abstract, ['A'] AS authors, ['a'] AS author_keys, "
                "1 AS n_authors_shown, false AS has_complete_listing, true AS is_author_list_complete, 1 AS n_listings "
                "FROM papers")
    con.execute("CREATE TEMP TABLE touched AS SELECT paper_id FROM dim_paper")
    started = time.perf_counter()
    update_terms(con)
    return time.perf_counter() - started  # wall: DuckDB's threads are not in process_time alone


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=2, help="runs; the best is reported")
    parser.add_argument("--warehouse-step", action="store_true", help="also time flows.terms.update_terms in DuckDB")
    args = parser.parse_args(argv)
    papers = real_ish_papers(args.papers)
    mb = papers.select(pl.col("abstract").str.len_bytes().sum()).item() / 1e6
    best, best_cpu = float("inf"), float("inf")
    for _ in range(args.repeat):
        started, started_cpu = time.perf_counter(), time.process_time()
        terms = paper_terms(papers)
        best = min(best, time.perf_counter() - started)
        best_cpu = min(best_cpu, time.process_time() - started_cpu)
    rate = papers.height / best
    print(f"{papers.height:,} papers ({mb:.0f} MB of abstracts) → {terms.height:,} paper terms "
          f"in {best:.2f} s wall, {best_cpu:.2f} s CPU: {rate:,.0f} papers/s")
    print(f"projected for the 1M benchmark's {BENCH_1M_NEW_PAPERS:,} new papers: {BENCH_1M_NEW_PAPERS / rate:.1f} s")
    if args.warehouse_step:
        seconds = time_warehouse_step(papers)
        print(f"warehouse step (flows.terms.update_terms, every paper touched): {seconds:.2f} s, "
              f"{papers.height / seconds:,.0f} papers/s")


if __name__ == "__main__":
    main()
