"""The resolver's Python functions, this checkout against a baseline commit, side by side.

    .venv/bin/python -m bench.resolve_micro W.duckdb [--baseline HEAD~3] [--n 5000] [--repeats 7]

Reads `--n` papers (paper_version) and up to `--n` scored pairs (paper_match, both sides from
paper_version) of a loaded warehouse W, and every scored pair (for `cluster_papers`, with the
share whose two match texts are equal), then times each function of `transforms.resolve` as in
this checkout and as in `--baseline` (its transforms/resolve.py, imported beside it),
alternating, and prints the median seconds of each and their ratio. Outputs are compared too:
a function whose result differs from the baseline's is flagged. On a shared machine only the
ratios mean something.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
import types
from pathlib import Path

import duckdb
import numpy as np
import polars as pl

from transforms import resolve

PAIRS = """
SELECT m.paper_key, m.matched_key AS other, false AS other_is_paper, m.matched_key AS other_key,
       a.abstract AS abstract_a, b.abstract AS abstract_b, a.title AS title_a, b.title AS title_b,
       a.author_keys AS keys_a, b.author_keys AS keys_b
FROM paper_match m JOIN paper_version a USING (paper_key) JOIN paper_version b ON b.paper_key = m.matched_key
ORDER BY m.paper_key, m.matched_key LIMIT {n}
"""


def baseline_module(commit: str) -> types.ModuleType:
    """transforms/resolve.py as of `commit`, imported as its own module (no file written)."""
    source = subprocess.run(["git", "show", f"{commit}:transforms/resolve.py"], capture_output=True, text=True,
                            check=True, cwd=Path(__file__).resolve().parents[1]).stdout
    module = types.ModuleType("resolve_baseline")
    exec(compile(source, f"{commit}:transforms/resolve.py", "exec"), module.__dict__)
    return module


def pair_texts(mod, chunk: pl.DataFrame) -> pl.DataFrame:
    """The chunk with its match texts, as `flows.resolve._score_candidates` makes them."""
    if hasattr(mod, "with_match_texts"):
        return mod.with_match_texts(chunk)
    return chunk.with_columns(text_a=mod.match_text(pl.col("abstract_a")), text_b=mod.match_text(pl.col("abstract_b")))


# Every pair the load scored, as the resolver hands them to `cluster_papers`: accepted (applied or
# skipped) and rejected. A stored paper is the other side where matched_paper_id is set.
EDGES = """
SELECT paper_key, coalesce(matched_paper_id, matched_key) AS other, matched_paper_id IS NOT NULL AS other_is_paper,
       score, rule, rule IN ('below_threshold', 'authors_differ', 'titles_differ', 'boilerplate_abstract') AS rejected
FROM paper_match ORDER BY paper_key, matched_key
"""


def cases(papers: pl.DataFrame, pairs: pl.DataFrame, edges: pl.DataFrame) -> dict:
    """name → function of the module, timed on the same input for both."""
    texts = papers.select(resolve.match_text(pl.col("abstract")))["abstract"]
    words = texts.str.split(" ").explode()
    words = words.filter(words != "")
    texted = pair_texts(resolve, pairs)
    return {
        "match_text": lambda m: papers.select(m.match_text(pl.col("abstract"))),
        "stable_hash64(words)": lambda m: m.stable_hash64(words),
        "_words": lambda m: m._words(pl.DataFrame({"text": texts})),
        "minhash_signatures": lambda m: m.minhash_signatures(texts),
        "block_keys": lambda m: m.block_keys(papers),
        "pair match texts": lambda m: pair_texts(m, pairs),
        "shingle_sets": lambda m: m.shingle_sets(texted["text_a"]),
        "score_pairs": lambda m: m.score_pairs(texted),
        "texts + score_pairs": lambda m: m.score_pairs(pair_texts(m, pairs)),
        "cluster_papers (all pairs)": lambda m: m.cluster_papers(
            edges.filter(~pl.col("rejected")).select("paper_key", "other", "other_is_paper", "score"),
            edges.filter("rejected").select("paper_key", "other", "other_is_paper", "rule")),
    }


def same(a, b) -> bool:
    if isinstance(a, tuple):  # cluster_papers: (mapping, outcome)
        return a[0] == b[0] and _skipped(a[1]) == _skipped(b[1])
    if isinstance(a, np.ndarray):
        return np.array_equal(a, b)
    if isinstance(a, pl.Series):
        a, b = a.to_frame(), b.to_frame()
    return a.equals(b)


def _skipped(outcome: dict) -> dict:
    """The skipped pairs of a cluster_papers outcome, keyed (paper_key, other): before session 47
    the outcome also listed applied pairs (None) and was keyed without other_is_paper."""
    return {pair[:2]: why for pair, why in outcome.items() if why is not None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("warehouse")
    parser.add_argument("--baseline", default="HEAD")
    parser.add_argument("--n", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--only", default="", help="comma-separated case names")
    args = parser.parse_args()
    con = duckdb.connect(args.warehouse, read_only=True)
    papers = con.sql(f"SELECT paper_key, abstract, author_keys FROM paper_version ORDER BY paper_key LIMIT {args.n}").pl()
    pairs = con.sql(PAIRS.format(n=args.n)).pl()
    edges = con.sql(EDGES).pl()
    equal = con.sql("SELECT avg(((features->>'shingle_jaccard')::DOUBLE = 1 AND (features->>'abstract_ratio')::DOUBLE = 1)"
                    "::INTEGER) FROM paper_match").fetchall()[0][0] or 0.0
    base = baseline_module(args.baseline)
    print(f"{papers.height} papers, {pairs.height} pairs ({edges.height} scored in all, {equal:.1%} of them with "
          f"equal match texts); baseline {args.baseline}; median of {args.repeats}")
    print(f"{'function':24} {'baseline':>9} {'now':>9} {'now/base':>9}")
    for name, fn in cases(papers, pairs, edges).items():
        if args.only and name not in args.only.split(","):
            continue
        fn(base), fn(resolve)  # warm-up (imports, caches of the first call)
        times = {"base": [], "now": []}
        for _ in range(args.repeats):
            for label, mod in (("base", base), ("now", resolve)):
                start = time.perf_counter()
                fn(mod)
                times[label].append(time.perf_counter() - start)
        b, n = statistics.median(times["base"]), statistics.median(times["now"])
        flag = "" if same(fn(base), fn(resolve)) else "  OUTPUT DIFFERS"
        print(f"{name:24} {b:9.4f} {n:9.4f} {n / b:9.2f}{flag}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
