"""Cost of entity resolution on a rendered corpus: `python -m eval.cost CORPUS_DIR [--warehouse F]`.

Runs the load in-process (no Prefect server: the timing is the resolver's, not the
orchestrator's): parse every file in batches, stage, then merge twice over, into two fresh
warehouses, once with the exact resolver and once with the near-duplicate resolver, and
reports both merge times, the resolver's own time, its candidate pairs and stored block keys,
and the peak memory of the process.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import resource
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

from flows import extract, load
from flows.resolve import resolve_entities
from transforms.pipeline import process_batch


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def load_corpus(corpus: Path, warehouse: Path, resolver, batch_bytes: int = 64 * 1024 * 1024) -> dict:
    _, found = extract.discover([corpus / "listing", corpus / "search"])
    con = load.connect(warehouse)
    timed = {"resolver": 0.0}

    def timed_resolver(c, run_id):
        t = time.perf_counter()
        resolver(c, run_id)
        timed["resolver"] += time.perf_counter() - t

    loader = load.RunLoader(con, "cost", resolver=timed_resolver)
    loader.begin()
    t0 = time.perf_counter()
    for batch in extract.plan_batches(found, batch_bytes):
        sources, meta = extract.read_sources(batch)[:2]
        result = process_batch(sources)
        result.files = result.files.join(meta.drop("path"), on="source_file_id", how="left")
        loader.stage(result)
    t_parse = time.perf_counter() - t0
    t1 = time.perf_counter()
    stats = loader.merge(dt.datetime.now(dt.timezone.utc))
    t_merge = time.perf_counter() - t1
    loader.check()
    loader.commit()
    extra = {}
    tables = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
    if "paper_match" in tables:
        extra = {"paper_match_rows": con.execute("SELECT count(*) FROM paper_match").fetchall()[0][0],
                 "merges": con.execute("SELECT count(*) FROM paper_match WHERE is_merge").fetchall()[0][0],
                 "signature_rows": con.execute("SELECT count(*) FROM paper_signature").fetchall()[0][0]}
    con.close()
    return {"listings": stats.n_listings, "papers": stats.n_papers, "authors": stats.n_authors,
            "parse_stage_s": round(t_parse, 2), "merge_s": round(t_merge, 2), "resolver_s": round(timed["resolver"], 2),
            **extra}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m eval.cost", description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--threshold", type=float, default=0.8)
    args = ap.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="er_cost_"))
    exact = load_corpus(args.corpus, work / "exact.duckdb", load.resolve_exact)
    rss_exact = _peak_rss_mb()
    near = load_corpus(args.corpus, work / "near.duckdb", partial(resolve_entities, threshold=args.threshold))
    summary = json.loads((args.corpus / "summary.json").read_text())
    out = {"corpus": {k: summary[k] for k in ("n_listings", "n_papers", "n_epochs")}, "exact": exact,
           "near_duplicates": near, "peak_rss_mb_after_exact": round(rss_exact), "peak_rss_mb": round(_peak_rss_mb())}
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
