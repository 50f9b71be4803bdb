"""Every input line accounted for: inside a record, inside a quarantined span, or a known
separator (blank line, format header). A line that is none of these is a parser gap; it is
quarantined here as a safety net, so no text is ever silently lost."""

from __future__ import annotations

import polars as pl

from transforms.formats import FORMATS
from transforms.formats.common import as_quarantine
from transforms.text import clean_text, is_blank

HEADERS = sorted({h for fmt in FORMATS for h in fmt.headers})


def account_lines(lines: pl.DataFrame, spans: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """lines (file_idx, line_no, line) and spans (file_idx, line_start, line_end) of every
    record and quarantine row → (per file: n_separator_lines; quarantine rows for stray lines)."""
    covered = (
        spans.filter(pl.col("line_start") >= 1)
        .select("file_idx", line_no=pl.int_ranges("line_start", pl.col("line_end") + 1, dtype=pl.Int64))
        .explode("line_no")
        .unique()
    )
    uncovered = lines.join(covered, on=["file_idx", "line_no"], how="anti")
    expected = is_blank(pl.col("line")) | clean_text(pl.col("line")).is_in(HEADERS)
    uncovered = uncovered.with_columns(separator=expected)
    separators = uncovered.filter(pl.col("separator")).group_by("file_idx").agg(n_separator_lines=pl.len())
    return separators, _stray_rows(uncovered.filter(~pl.col("separator")))


def _stray_rows(stray: pl.DataFrame) -> pl.DataFrame:
    """Consecutive stray lines become one quarantine span each."""
    run = (pl.col("line_no") - pl.col("line_no").shift(1).over("file_idx") != 1).fill_null(True).cum_sum()
    grouped = stray.sort("file_idx", "line_no").with_columns(run=run).group_by("file_idx", "run").agg(
        line_start=pl.col("line_no").min(),
        line_end=pl.col("line_no").max(),
        reason=pl.lit("text outside any record"),
        raw_text=pl.col("line").str.join("\n"),
    )
    return as_quarantine(grouped)
