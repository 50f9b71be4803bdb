"""Line accounting checked from the outside: what `digest audit` proves, recomputed in Python
from a BatchResult (or warehouse frames), so a test does not trust the code under test."""

from __future__ import annotations

import polars as pl


def accounting_problems(files: pl.DataFrame, listings: pl.DataFrame, quarantine: pl.DataFrame) -> list[str]:
    """Every way the per-file accounting fails; [] when each line is in exactly one listing
    span, one quarantine span or counted as a separator.

    files: source_file_id, n_lines, n_separator_lines; listings and quarantine: source_file_id,
    line_start, line_end (quarantine also reason).
    """
    problems = []
    blank_reasons = quarantine.filter(pl.col("reason").is_null() | (pl.col("reason").str.strip_chars() == ""))
    if blank_reasons.height:
        problems.append(f"{blank_reasons.height} quarantine rows without a reason")
    spans = pl.concat([
        listings.select("source_file_id", "line_start", "line_end", kind=pl.lit("listing")),
        quarantine.filter(pl.col("line_start") >= 1).select(
            "source_file_id", "line_start", "line_end", kind=pl.lit("quarantine")),
    ]).with_columns(pl.col("line_start", "line_end").cast(pl.Int64))
    unknown = spans.join(files.select("source_file_id"), on="source_file_id", how="anti")
    if unknown.height:
        problems.append(f"{unknown.height} spans of files the batch does not hold")
    sizes = files.select("source_file_id", "n_lines", "n_separator_lines")
    checked = spans.join(sizes, on="source_file_id", how="inner")
    outside = checked.filter((pl.col("line_start") < 1) | (pl.col("line_end") < pl.col("line_start"))
                             | (pl.col("line_end") > pl.col("n_lines")))
    if outside.height:
        problems.append(f"spans outside 1..n_lines: {outside.head(5).to_dicts()}")
    overlaps = checked.sort("source_file_id", "line_start", "line_end").filter(
        pl.col("line_start") <= pl.col("line_end").shift(1).over("source_file_id"))
    if overlaps.height:
        problems.append(f"overlapping spans: {overlaps.head(5).to_dicts()}")
    covered = spans.group_by("source_file_id").agg(covered=(pl.col("line_end") - pl.col("line_start") + 1).sum())
    totals = sizes.join(covered, on="source_file_id", how="left").with_columns(pl.col("covered").fill_null(0))
    gaps = totals.filter(pl.col("n_lines") != pl.col("n_separator_lines") + pl.col("covered"))
    if gaps.height:
        problems.append(f"n_lines != separators + spans: {gaps.head(5).to_dicts()}")
    negative = sizes.filter((pl.col("n_lines") < 0) | (pl.col("n_separator_lines") < 0))
    if negative.height:
        problems.append(f"negative line counts: {negative.to_dicts()}")
    return problems
