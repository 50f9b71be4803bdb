"""Dedupe: which listings are one paper (the matcher), and what the paper is (the merge).

The matcher is the replaceable step: it gives each listing a `paper_key`. Today's matcher is
exact: the MD5 of the folded abstract. The merge rules are order-independent (max/min over
the listings), so merging a batch, then merging batches in the warehouse, gives the same
paper as merging everything at once: re-runs and incremental runs agree with a fresh load.
"""

from __future__ import annotations

from collections.abc import Callable

import polars as pl

from transforms.ids import with_stable_ids

PaperMatcher = Callable[[pl.DataFrame], pl.DataFrame]


def match_exact_abstract(listings: pl.DataFrame) -> pl.DataFrame:
    """paper_key = hash of the abstract folded to letters and digits."""
    return with_stable_ids(listings, {"paper_key": ["abstract_key"]})


def longest(col: str) -> pl.Expr:
    """The longest non-null value, ties broken by the larger text: deterministic, associative."""
    value = pl.col(col).filter(pl.col(col).is_not_null())
    return value.sort_by([value.str.len_chars(), value]).last()


def merge_papers(listings: pl.DataFrame) -> pl.DataFrame:
    """One candidate row per paper_key with what its listings know."""
    joined = pl.col("authors").list.join(", ")
    fullest = pl.col("authors").sort_by([pl.col("n_authors_shown"), joined]).last()
    return listings.group_by("paper_key").agg(
        title=longest("title"),
        abstract=longest("abstract"),
        authors=fullest,
        author_keys=pl.col("author_keys").sort_by([pl.col("n_authors_shown"), joined]).last(),
        author_total=pl.col("author_total").max(),
        has_complete_listing=(~pl.col("is_truncated")).any(),
    )


def author_variants(listings: pl.DataFrame) -> pl.DataFrame:
    """Distinct (name_key, name) spellings, with a rank for choosing the display form:
    mixed case beats lower case beats CAPITALS, then more accented letters ("Döring" over
    "Doring"), then the larger text."""
    names = listings.select(name=pl.col("authors"), name_key=pl.col("author_keys")).explode("name", "name_key")
    names = names.filter(pl.col("name_key") != "").unique()
    case = (
        pl.when(pl.col("name") == pl.col("name").str.to_uppercase())
        .then(0)
        .when(pl.col("name") == pl.col("name").str.to_lowercase())
        .then(1)
        .otherwise(2)
    )
    non_ascii = pl.col("name").str.len_bytes() - pl.col("name").str.len_chars()
    return names.with_columns(display_rank=(case * 1000 + non_ascii.clip(0, 999)).cast(pl.Int64)).sort("name_key", "name")
