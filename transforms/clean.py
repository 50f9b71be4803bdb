"""Clean parsed records into listings: authors split and keyed, categories typed, paper keys.

Input: the records of `transforms.formats` with the file each came from. Output: one row per
listing, the columns of `schemas.frames.CleanListing`, plus quarantine rows for records that
cannot be trusted (undecodable bytes, no usable author or abstract).
"""

from __future__ import annotations

import polars as pl

from transforms.categories import ARXIV, CONFERENCE
from transforms.decode import REPLACEMENT
from transforms.formats import listing
from transforms.formats.common import as_quarantine
from transforms.text import fold_key, text_key

# "A, B, C and 3 more": only three names are shown, three more exist.
AND_MORE = r"(?i)\s*(?:,\s*)?and\s+(\d+)\s+(?:more|others)\s*$"
# "A, B, …, J 等" (et al.): more names exist, how many is not said.
ET_AL = r"(?i)\s*(?:,\s*)?(?:等|et\s+al\.?)\s*$"
NAME_SEPARATORS = r"\s*[,，;；]\s*"
# "Munos, Rémi; Valko, Michal": with semicolons between names, a comma inside one is "Last, First".
SEMICOLON_LIST = r"[;；]"
LAST_FIRST = r"^\s*([^,，]+?)\s*[,，]\s*([^,，]+?)\s*$"


def clean_listings(records: pl.DataFrame, files: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """records × files (file_idx, source_file_id, format) → (listings, quarantine)."""
    df = records.join(files.select("file_idx", "source_file_id", "format"), on="file_idx", how="left")
    df = df.with_columns(
        # The parsers return clean_text()ed fields (formats/common.py): no second pass here.
        **split_authors(pl.col("authors_raw")),
        **category_columns(),
    ).with_columns(
        author_keys=pl.col("authors").list.eval(fold_key(pl.element())),
        abstract_key=text_key(pl.col("abstract")),
    )
    return _split_bad(df)


def split_authors(authors: pl.Expr) -> dict[str, pl.Expr]:
    """Ordered name list, shown count, declared total (null when unknown), truncation flag."""
    more = authors.str.extract(AND_MORE, 1).cast(pl.Int64, strict=False)
    et_al = authors.str.contains(ET_AL)
    shown = authors.str.replace(AND_MORE, "").str.replace(ET_AL, "")
    by_comma = shown.str.replace_all(NAME_SEPARATORS, ",").str.split(",")
    by_semicolon = shown.str.replace_all(SEMICOLON_LIST, ";").str.split(";").list.eval(
        pl.element().str.replace(LAST_FIRST, "${2} ${1}"))  # "Last, First" → "First Last"
    items = (
        pl.when(shown.str.contains(SEMICOLON_LIST))
        .then(by_semicolon)
        .otherwise(by_comma)
        .list.eval(pl.element().str.strip_chars().filter(pl.element() != ""))
    )
    # An item without letters or digits (":") is no name, but the line still counted it.
    names = items.list.eval(pl.element().filter(pl.element().str.contains(r"[\p{L}\p{N}]")))
    n_shown = names.list.len().cast(pl.Int64)
    return {
        "authors": names,
        "n_authors_shown": n_shown,
        "author_total": pl.when(et_al).then(None).otherwise(items.list.len().cast(pl.Int64) + more.fill_null(0)),
        "is_truncated": et_al | more.is_not_null(),
    }


def category_columns() -> dict[str, pl.Expr]:
    code = pl.col("category_raw")
    return {
        "listed_code": code,
        "taxonomy": pl.when(code.is_null())
        .then(None)
        .when(pl.col("format") == listing.NAME)
        .then(pl.lit(ARXIV))
        .otherwise(pl.lit(CONFERENCE)),
    }


def _split_bad(df: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    reason = (
        pl.when(pl.col("raw_text").str.contains(REPLACEMENT, literal=True))
        .then(pl.lit("undecodable bytes in record"))
        .when(pl.col("n_authors_shown") == 0)
        .then(pl.lit("no author names"))
        .when(~pl.col("abstract").str.contains(r"[\p{L}\p{N}]"))
        .then(pl.lit("abstract holds no letters or digits"))
    )
    flagged = df.with_columns(reason=reason)
    bad = as_quarantine(flagged.filter(pl.col("reason").is_not_null()))
    good = flagged.filter(pl.col("reason").is_null()).drop("reason", "authors_raw", "category_raw")
    return good, bad
