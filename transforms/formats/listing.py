"""Listing format: five lines per paper, each record opened by "#NN<Mon DD, YYYY>".

    #01Oct 26, 2026
    cs.LG
    <title>
    <authors>
    <abstract>

Records are delimited by their header lines, so a broken record never takes its neighbours
down with it. Blank lines between records are separators. Lines after a record's fifth belong
to no record (a lost header, stray text): they are quarantined on their own, and the record
keeps its five lines.
"""

from __future__ import annotations

import polars as pl

from transforms.formats.common import as_quarantine, first_in_group, split_valid
from transforms.text import clean_text

NAME = "listing"
HEADER = r"^#(?<rank>\d{2,})\s*(?<date>\p{L}{3,9}\.?\s+\d{1,2},\s*\d{4})$"
# "cs.LG", "math-ph", "hep-th", "quant-ph": dotted, or hyphenated archive names.
ARXIV_CODE = r"^(?:[a-z][a-z\-]*\.[A-Za-z][A-Za-z\-]*|[a-z]+(?:-[a-z]+)+)$"
N_LINES = 5


def detect(head: list[str]) -> bool:
    return any(_is_header(line) for line in head)


def _is_header(line: str) -> bool:
    return bool(pl.select(pl.lit(line.strip()).str.contains(HEADER)).item())


def parse(lines: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """`lines` (file_idx, line_no, line) → (records, quarantine)."""
    df = lines.with_columns(text=clean_text(pl.col("line"))).with_columns(blank=pl.col("text") == "")  # = is_blank
    df = df.with_columns(header=pl.col("text").str.extract_groups(HEADER)).unnest("header")
    df = df.with_columns(position=pl.col("rank").is_not_null().cum_sum().over("file_idx"))
    # Trailing blank lines of a record are separators, not part of it.
    last_text = pl.when(~pl.col("blank")).then(pl.col("line_no")).max().over("file_idx", "position")
    df = df.filter(pl.col("line_no") <= last_text)

    preamble = df.filter(pl.col("position") == 0)
    stray = as_quarantine(
        preamble.group_by("file_idx", maintain_order=True).agg(
            line_start=pl.col("line_no").min(),
            line_end=pl.col("line_no").max(),
            reason=pl.lit("text before the first record header"),
            raw_text=pl.col("line").str.join("\n"),
        )
    )
    body = df.filter(pl.col("position") > 0).with_columns(
        offset=pl.int_range(pl.len()).over("file_idx", "position")
    )
    extra = as_quarantine(
        body.filter(pl.col("offset") >= N_LINES).group_by("file_idx", "position", maintain_order=True).agg(
            line_start=pl.col("line_no").min(),
            line_end=pl.col("line_no").max(),
            reason=pl.lit("lines after a record's abstract that belong to no record (missing header?)"),
            raw_text=pl.col("line").str.join("\n"),
        )
    )
    records = _group_records(body.filter(pl.col("offset") < N_LINES))
    valid, bad = split_valid(records, _reason())
    return valid, pl.concat([stray, extra, bad])


def _group_records(df: pl.DataFrame) -> pl.DataFrame:
    last_position = pl.col("position").max().over("file_idx")
    grouped = df.group_by("file_idx", "position", maintain_order=True).agg(
        line_start=pl.col("line_no").first(),
        line_end=pl.col("line_no").last(),
        n_lines=pl.len(),
        has_empty_field=pl.col("blank").any(),
        rank=pl.col("rank").first().cast(pl.Int64, strict=False),
        date_raw=pl.col("date").first(),
        category_raw=first_in_group("text", 1),
        title=first_in_group("text", 2),
        authors_raw=first_in_group("text", 3),
        abstract=first_in_group("text", 4),
        raw_text=pl.col("line").str.join("\n"),
    )
    date_text = pl.col("date_raw").str.replace_all(r"\s+", " ").str.replace(r"\.", "")
    return grouped.with_columns(
        # "Oct 26, 2026" as in the seeds; "October 26, 2026" is read too.
        listed_on=date_text.str.to_date("%b %d, %Y", strict=False).fill_null(
            date_text.str.to_date("%B %d, %Y", strict=False)),
        is_last=pl.col("position") == last_position,
    )


def _reason() -> pl.Expr:
    n = pl.col("n_lines").cast(pl.String)
    return (
        pl.when((pl.col("n_lines") < N_LINES) & pl.col("is_last"))
        .then(pl.lit("record cut off at end of file: ") + n + pl.lit(" of 5 lines"))
        .when(pl.col("n_lines") < N_LINES)
        .then(pl.lit("record has ") + n + pl.lit(" of 5 lines (header, category, title, authors, abstract)"))
        .when(pl.col("has_empty_field"))
        .then(pl.lit("record has an empty field"))
        .when(pl.col("rank").is_null())
        .then(pl.lit("listing rank is not a number"))
        .when(pl.col("listed_on").is_null())
        .then(pl.lit("impossible listing date: ") + pl.col("date_raw"))
        .when(~pl.col("category_raw").str.contains(ARXIV_CODE))
        .then(pl.lit("second line is not an arXiv category code"))
    )
