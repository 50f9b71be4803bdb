"""Columns every format's parser returns, and helpers they share."""

from __future__ import annotations

import polars as pl

# Text fields come out of a parser already passed through transforms.text.clean_text.
RECORD_SCHEMA = {
    "file_idx": pl.Int64,
    "position": pl.Int64,  # 1-based order of the record in its file
    "line_start": pl.Int64,
    "line_end": pl.Int64,
    "rank": pl.Int64,  # listing "#NN"; null in formats without one
    "listed_on": pl.Date,
    "category_raw": pl.String,
    "title": pl.String,
    "authors_raw": pl.String,
    "abstract": pl.String,
    "raw_text": pl.String,  # the record's lines, for quarantine downstream
}
QUARANTINE_SCHEMA = {
    "file_idx": pl.Int64,
    "line_start": pl.Int64,
    "line_end": pl.Int64,
    "reason": pl.String,
    "raw_text": pl.String,
}


def as_records(df: pl.DataFrame) -> pl.DataFrame:
    return df.select([pl.col(c).cast(t) if c in df.columns else pl.lit(None, t).alias(c) for c, t in RECORD_SCHEMA.items()])


def as_quarantine(df: pl.DataFrame) -> pl.DataFrame:
    return df.select([pl.col(c).cast(t) for c, t in QUARANTINE_SCHEMA.items()])


def split_valid(records: pl.DataFrame, reason: pl.Expr) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Records whose `reason` is null pass; the others become quarantine rows."""
    flagged = records.with_columns(reason=reason)
    bad = as_quarantine(flagged.filter(pl.col("reason").is_not_null()))
    return as_records(flagged.filter(pl.col("reason").is_null())), bad


def first_in_group(col: str, offset: int) -> pl.Expr:
    """The group's `offset`-th value of `col`, or null when the group is shorter."""
    return pl.col(col).slice(offset, 1).first()
