"""How good are the extracted terms? Precision@5 and recall@5 against the authors' own keywords
of the ICLR 2024 papers, for our terms and two baselines run here on the same text.

    .venv/bin/python -m eval.keywords [--realdata ../shared/realdata] [--only ours]

Data: `iclr2024_openreview_primary_area_dotd.tsv` (tab-separated, no header, no quoting; third
column = keywords separated by ";", ninth = abstract; see realdata/SOURCES.md).
Each method sees the same text: the title and the abstract as published (LaTeX included).

Matching rule: a term and a keyword are both normalised by `transforms.terms.normalise_terms`
(lower case, punctuation and hyphens as spaces, plurals folded); the term matches the keyword
when one's word sequence equals the other's or appears inside it as consecutive whole words
("language model" matches "large language models"; "graph" does not match "paragraph").
P@5 = matching terms among the first 5 / 5; R@5 = keywords matched by any of the first 5 /
keywords of the paper; both averaged over papers with at least one keyword.

Baselines: YAKE with its default settings (`yake.KeywordExtractor()`: English, up to 3-grams),
and TF-IDF fitted on the ICLR abstracts themselves (scikit-learn `TfidfVectorizer` with English
stop words, top 5 by weight), once with single words (its default) and once with 1-3-grams.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable
from pathlib import Path

import polars as pl

from transforms.terms import normalise_terms, paper_terms

REALDATA = Path(os.environ.get("DIGEST_REALDATA", Path(__file__).resolve().parents[2] / "shared" / "realdata"))
ICLR_FILE = "iclr2024_openreview_primary_area_dotd.tsv"
COLUMNS = ["title", "authors", "keywords", "primary_area", "venue", "pdf_url", "supplementary_url", "tldr", "abstract"]
K = 5


def load_iclr(realdata: Path) -> pl.DataFrame:
    """(paper_id, title, abstract, keywords: list of normalised keywords), one row per paper."""
    raw = pl.read_csv(realdata / ICLR_FILE, separator="\t", has_header=False, quote_char=None,
                      new_columns=COLUMNS, schema_overrides=dict.fromkeys(COLUMNS, pl.String))
    keywords = (
        raw.with_row_index("paper_id").select("paper_id", pl.col("keywords").str.split(";"))
        .explode("keywords")
        .with_columns(normalise_terms(pl.col("keywords")).alias("keyword"))
        .filter(pl.col("keyword").str.len_chars() > 0)
        .group_by("paper_id").agg(pl.col("keyword").unique().sort().alias("keywords"))
    )
    return (raw.with_row_index("paper_id").select("paper_id", "title", "abstract")
            .join(keywords, on="paper_id").sort("paper_id")
            .with_columns(pl.col("paper_id").cast(pl.Int64)))


def _contains(longer: list[str], shorter: list[str]) -> bool:
    n = len(shorter)
    return any(longer[i:i + n] == shorter for i in range(len(longer) - n + 1))


def matches(term: str, keyword: str) -> bool:
    """Both already normalised: equal, or one inside the other as consecutive whole words."""
    a, b = term.split(), keyword.split()
    return bool(a and b) and (_contains(b, a) or _contains(a, b))


def precision_recall(predicted: list[list[str]], keywords: list[list[str]], k: int = K) -> tuple[float, float]:
    precisions, recalls = [], []
    for terms, gold in zip(predicted, keywords):
        top = terms[:k]
        precisions.append(sum(any(matches(t, g) for g in gold) for t in top) / k)
        recalls.append(sum(any(matches(t, g) for t in top) for g in gold) / len(gold))
    return sum(precisions) / len(precisions), sum(recalls) / len(recalls)


def _documents(papers: pl.DataFrame) -> list[str]:
    return [f"{t or ''}. {a or ''}" for t, a in papers.select("title", "abstract").iter_rows()]


def _normalised(lists: list[list[str]]) -> list[list[str]]:
    """Normalise each method's raw output the same way as the keywords (dropping repeats)."""
    frame = pl.DataFrame({"raw": lists}, schema={"raw": pl.List(pl.String)}).with_row_index("doc")
    long = (frame.explode("raw").with_columns(normalise_terms(pl.col("raw").fill_null("")).alias("term"))
            .filter(pl.col("term").str.len_chars() > 0)
            .unique(["doc", "term"], keep="first", maintain_order=True)
            .group_by("doc", maintain_order=True).agg("term"))
    found = dict(long.iter_rows())
    return [found.get(i, []) for i in range(len(lists))]


def ours(papers: pl.DataFrame) -> list[list[str]]:
    terms = paper_terms(papers.select("paper_id", "title", "abstract"), top_k=K)
    found = dict(terms.group_by("paper_id").agg(pl.col("term").sort_by("term_rank")).iter_rows())
    return [found.get(p, []) for p in papers["paper_id"]]


def yake_default(papers: pl.DataFrame) -> list[list[str]]:
    import yake

    extractor = yake.KeywordExtractor()  # default settings: lan="en", n=3, dedupLim=0.9, top=20
    return _normalised([[kw for kw, _ in extractor.extract_keywords(doc)[:K]] for doc in _documents(papers)])


def tfidf(ngrams: tuple[int, int]) -> Callable[[pl.DataFrame], list[list[str]]]:
    def top_terms(papers: pl.DataFrame) -> list[list[str]]:
        import numpy as np
        from sklearn.feature_extraction.text import TfidfVectorizer

        vectorizer = TfidfVectorizer(stop_words="english", ngram_range=ngrams)
        weights = vectorizer.fit_transform(_documents(papers))
        vocabulary = vectorizer.get_feature_names_out()
        out = []
        for row in range(weights.shape[0]):
            start, end = weights.indptr[row], weights.indptr[row + 1]
            cols, vals = weights.indices[start:end], weights.data[start:end]
            order = np.lexsort((vocabulary[cols], -vals))[:K]  # weight, then the term: deterministic
            out.append([str(vocabulary[cols[i]]) for i in order])
        return _normalised(out)

    return top_terms


METHODS: dict[str, Callable[[pl.DataFrame], list[list[str]]]] = {
    "ours (transforms.terms)": ours,
    "YAKE (defaults)": yake_default,
    "TF-IDF (1-grams)": tfidf((1, 1)),
    "TF-IDF (1-3-grams)": tfidf((1, 3)),
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--realdata", type=Path, default=REALDATA)
    parser.add_argument("--only", choices=["ours"], help="skip the baselines (quick tuning loop)")
    args = parser.parse_args(argv)
    papers = load_iclr(args.realdata)
    gold = papers["keywords"].to_list()
    n_keywords = sum(len(g) for g in gold)
    print(f"ICLR 2024: {papers.height:,} papers with author keywords ({n_keywords:,} keywords, "
          f"{n_keywords / papers.height:.1f} per paper)")
    print(f"{'method':<26} {'P@5':>6} {'R@5':>6} {'seconds':>8}")
    for name, method in METHODS.items():
        if args.only and not name.startswith(args.only):
            continue
        started = time.perf_counter()
        predicted = method(papers)
        seconds = time.perf_counter() - started
        p, r = precision_recall(predicted, gold)
        print(f"{name:<26} {p:>6.3f} {r:>6.3f} {seconds:>8.1f}")


if __name__ == "__main__":
    main()
