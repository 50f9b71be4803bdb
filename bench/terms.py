"""Throughput of term extraction (transforms.terms) and of the warehouse step (flows.terms), on
real-ish abstracts.

    .venv/bin/python -m bench.terms [--papers 50000] [--repeat 2] [--warehouse-step] [--existing 0]

The papers are the real ones of realdata/ (arXiv listings and ICLR 2024), then word-swapped
variants of them, as the 1M benchmark's corpus makes its synthetic papers (bench.corpus): so
the vocabulary of phrases grows with the corpus as it would. Prints CPU seconds (steady on a
shared machine; they count every thread of the process, Polars' and DuckDB's included) and wall
seconds, papers per CPU second, and the projected cost for the 1M benchmark's ~333k new papers.
`--warehouse-step` also times flows.terms.update_terms end to end (read the text, extract, write
the bridge and the dimension); `--existing M` first loads M other papers and their terms into
the scratch warehouse, so the timed run is an incremental one (e.g. `--papers 3300 --existing
333000`: a daily +1 % run).
"""

from __future__ import annotations

import argparse
import os
import random
import time

import polars as pl

from bench.corpus import _swap_words, default_realdata, load_realdata
from flows.terms import update_terms
from transforms.terms import ABSTRACT_CHARS, paper_term_codes

BENCH_1M_NEW_PAPERS = 333_000


def real_ish_papers(n: int, seed: int = 7, first_id: int = 0) -> pl.DataFrame:
    """(paper_id, title, abstract): the real papers first, then variants with 8 word swaps."""
    real = [(p.text.title, p.text.abstract) for p in load_realdata(default_realdata()).papers if p.text.abstract]
    rng = random.Random(seed)
    rows = []
    for i in range(first_id, first_id + n):
        title, abstract = real[i % len(real)]
        if i >= len(real):
            abstract = _swap_words(rng, abstract, 8)
        rows.append((i, title, abstract))
    return pl.DataFrame(rows, schema={"paper_id": pl.Int64, "title": pl.String, "abstract": pl.String}, orient="row")


def time_warehouse_step(papers: pl.DataFrame, existing: pl.DataFrame | None = None) -> tuple[float, float]:
    """(CPU, wall) seconds of flows.terms.update_terms end to end (read abstracts, extract, write
    the bridge and the dimension) with every paper of `papers` touched, in a scratch DuckDB
    holding the warehouse schema and, already extracted, the `existing` papers."""
    from flows.load import connect, ensure_schema

    con = connect(":memory:")
    ensure_schema(con)
    for frame, timed in ((existing, False), (papers, True)):
        if frame is None:
            continue
        con.execute("INSERT INTO dim_paper BY NAME SELECT paper_id, title, abstract, ['A'] AS authors, "
                    "['a'] AS author_keys, 1 AS n_authors_shown, false AS has_complete_listing, "
                    "true AS is_author_list_complete, 1 AS n_listings FROM frame")
        con.execute("CREATE OR REPLACE TEMP TABLE touched AS SELECT paper_id FROM frame")
        started, started_cpu = time.perf_counter(), time.process_time()
        update_terms(con)
        if timed:
            return time.process_time() - started_cpu, time.perf_counter() - started
    raise AssertionError("unreachable")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=2, help="runs; the best is reported")
    parser.add_argument("--warehouse-step", action="store_true", help="also time flows.terms.update_terms in DuckDB")
    parser.add_argument("--existing", type=int, default=0,
                        help="papers (with their terms) already in the warehouse before the timed step")
    args = parser.parse_args(argv)
    papers = real_ish_papers(args.papers, first_id=args.existing)
    read_mb = (papers.select(pl.col("title").str.len_bytes().sum() + pl.col("abstract").str.slice(0, ABSTRACT_CHARS)
                             .str.len_bytes().sum()).item() / 1e6)
    print(f"{papers.height:,} papers (titles and the abstracts' first {ABSTRACT_CHARS} characters: {read_mb:.0f} MB); "
          f"load average before: {_load()}")
    best_cpu = best_wall = float("inf")
    for _ in range(args.repeat):
        started, started_cpu = time.perf_counter(), time.process_time()
        rows, _terms = paper_term_codes(papers)
        best_wall = min(best_wall, time.perf_counter() - started)
        best_cpu = min(best_cpu, time.process_time() - started_cpu)
    print(f"extraction (transforms.terms) → {rows.height:,} paper terms: {best_cpu:.2f} s CPU, "
          f"{best_wall:.2f} s wall (best of {args.repeat}): {papers.height / best_cpu:,.0f} papers per CPU second")
    per_paper = [best_cpu / papers.height, best_wall / papers.height]
    if args.warehouse_step:
        existing = real_ish_papers(args.existing) if args.existing else None
        cpu, wall = time_warehouse_step(papers, existing)
        already = f", {args.existing:,} papers already in" if args.existing else ""
        print(f"warehouse step (flows.terms.update_terms, these papers touched{already}): {cpu:.2f} s CPU, "
              f"{wall:.2f} s wall, {papers.height / cpu:,.0f} papers per CPU second")
        per_paper = [cpu / papers.height, wall / papers.height]
    if not args.existing:
        print(f"projected for the 1M benchmark's {BENCH_1M_NEW_PAPERS:,} new papers: "
              f"{BENCH_1M_NEW_PAPERS * per_paper[0]:.1f} s CPU, {BENCH_1M_NEW_PAPERS * per_paper[1]:.1f} s wall")
    print(f"load average after: {_load()}")


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


if __name__ == "__main__":
    main()
