"""A loaded warehouse's papers against the answer of the corpus it was loaded from (`bench.corpus`).

    .venv/bin/python -m bench.answer_check CORPUS_DIR WAREHOUSE.duckdb

Prints, as JSON: the warehouse's papers, the corpus's true papers (truth_id), papers that hold
listings of two true papers (wrong merges), true papers whose listings are in two papers or
more (splits), and the papers those splits add. A listing is matched by its file (path under
CORPUS_DIR) and first line.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import duckdb
import polars as pl

LISTINGS_SQL = """SELECT s.path, f.line_start, f.paper_id
                  FROM fact_listing f JOIN dim_source_file s USING (source_file_id)"""


def check(corpus: Path, warehouse: Path) -> dict:
    answer = pl.read_parquet(corpus / "answer.parquet").select("path", "line_start", "truth_id")
    with duckdb.connect(str(warehouse), read_only=True) as con:
        listings = pl.from_arrow(con.sql(LISTINGS_SQL).to_arrow_table())
        n_papers = con.execute("SELECT count(*) FROM dim_paper").fetchall()[0][0]
    files = listings["path"].unique()  # one row per listing: the tails are looked up once per file
    inside = dict(zip(files, _inside_corpus(files, answer["path"].unique())))
    listings = listings.with_columns(path=pl.col("path").replace_strict(inside, return_dtype=pl.String))
    matched = answer.join(listings, on=["path", "line_start"], how="left")
    per_paper = matched.drop_nulls("paper_id").group_by("paper_id").agg(n=pl.col("truth_id").n_unique())
    per_truth = matched.drop_nulls("paper_id").group_by("truth_id").agg(n=pl.col("paper_id").n_unique())
    return {"papers": n_papers, "true_papers": answer["truth_id"].n_unique(),
            "listings_not_found": matched["paper_id"].null_count(),
            "papers_holding_two_true_papers": per_paper.filter(pl.col("n") > 1).height,
            "true_papers_split": per_truth.filter(pl.col("n") > 1).height,
            "papers_split_off": int((per_truth["n"] - 1).sum())}


def _inside_corpus(stored: pl.Series, answer_paths: pl.Series) -> pl.Series:
    """Each stored path as the answer names it (relative to the corpus): its longest tail of
    whole folders that is an answer path. The ingest stores paths under the folder as the user
    named it (a symlink's name, a relative or absolute path), so no prefix can be assumed."""
    known, out = set(answer_paths.to_list()), []
    for path in stored.to_list():
        parts = path.split("/")
        out.append(next(("/".join(parts[i:]) for i in range(len(parts)) if "/".join(parts[i:]) in known), None))
    return pl.Series(out, dtype=pl.String)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", type=Path)
    parser.add_argument("warehouse", type=Path)
    args = parser.parse_args(argv)
    print(json.dumps(check(args.corpus, args.warehouse), indent=2))


if __name__ == "__main__":
    main()
