"""Digests joined end to end into one file (`cat monday.txt tuesday.txt > week.txt`).

Two things go wrong in such a file, and both loaded wrong answers before:

* **A glued opener.** The first file ended without a newline (the seeds do), so the next file's
  first line, its record header or its search marker, is glued to the end of the last line: the
  header loaded as the tail of an abstract and the next record lost its opener. A line that ends
  in an opener, after text holding a letter or a digit, is cut in two before it, when what
  surrounds the opener reads as a file's start (`_glued`). Only past the file's first opener: a
  "Subject: 论文检索" line of an e-mail header is no joined file.
* **Two formats in one file.** A listing after a search page was read by the search parser (one
  long abstract). Each line now belongs to the format of the last opener line before it (lines
  before the first keep the file's format), so each part goes to its own parser.

Cutting a line renumbers the lines after it: line numbers (lineage, quarantine, the line audit)
refer to the text with the glued line cut, and the file's encoding says so ("utf-8+unglued"),
as it does for an unwrapped e-mail body. Only lines holding "#" or the marker are looked at.
"""

from __future__ import annotations

import polars as pl

from transforms.formats import listing, search
from transforms.text import PAD, clean_text

UNGLUED = "+unglued"
_PADS = f"[{PAD}]*"
# A listing header or the search marker at the end of a line (as `listing.find` and `search.find`
# see them). Lines are tested with patterns without captures (a DFA); the text before an
# opener is cut off only on the lines that are cut.
_HEADER = rf"(?:{listing.HEADER_FOUND}|{listing.UNREAD_HEADER_FOUND})"
_OPENER = rf"(?:{_HEADER}|{search.MARKER}){_PADS}$"
_MARKER_END = rf"{search.MARKER}{_PADS}$"
_FINISHED_MARKER = rf"[.。!！?？…\"'\p{{Pe}}\p{{Pf}}]{_PADS}{search.MARKER}{_PADS}$"
# CJK text before the marker: the marker's words may go on its phrase ("…的论文检索", "关键词：论文检索").
_CJK_BEFORE_MARKER = rf"[\p{{Han}}\p{{Hiragana}}\p{{Katakana}}\p{{Hangul}}].*{search.MARKER}{_PADS}$"
_CUT = rf"^(?<before>.*?)(?<opener>(?:{_HEADER}|{search.MARKER}){_PADS})$"


def split_joined(lines: pl.DataFrame) -> tuple[pl.DataFrame, pl.Series]:
    """lines (file_idx, format, line, line_no), each file's lines in order → (the same lines with
    glued openers cut into lines of their own and each line's `format` its section's, the
    file_idx of the files with a cut line)."""
    suspects = _suspect_lines(lines)
    if suspects.is_empty():  # most batches: a few Polars calls fewer
        return lines, suspects["file_idx"]
    openers = _openers(suspects)
    cut = _glued(openers, lines)
    if not cut.is_empty():
        lines = _cut(lines, cut)
        openers = _openers(_suspect_lines(lines))
    return _with_sections(lines, openers), cut["file_idx"].unique()


def _suspect_lines(lines: pl.DataFrame) -> pl.DataFrame:
    """The lines holding "#" or the marker, of the files that may be joined: with such a line
    that does not open with it (a glued opener, or a "#" in an abstract), or with the other
    format's opener. Most files have none: the openers are then not looked at (a fifth of a
    listing file's lines are its headers)."""
    line, fmt = pl.col("line"), pl.col("format")
    maybe = lines.filter(line.str.contains(f"#|{search.MARKER}"))  # one pass: two literal ones were slower
    opens_with = line.str.starts_with("#") | line.str.starts_with(search.MARKER)
    other = ((fmt == listing.NAME) & line.str.contains(search.MARKER, literal=True)) | (
        (fmt == search.NAME) & line.str.starts_with("#"))
    suspects = maybe.filter(~opens_with | other)["file_idx"].unique()
    return maybe.filter(pl.col("file_idx").is_in(suspects.implode())) if suspects.len() else maybe.clear()


def _openers(maybe: pl.DataFrame) -> pl.DataFrame:
    """The lines of `maybe` that end in an opener: file_idx, line_no, line, kind (its format),
    start (the line is the opener alone), glued (text holding a letter or digit before it)."""
    line = pl.col("line")
    return maybe.filter(line.str.contains(_OPENER)).select(
        "file_idx", "line_no", "line",
        kind=pl.when(line.str.contains(_MARKER_END)).then(pl.lit(search.NAME)).otherwise(pl.lit(listing.NAME)),
        start=line.str.contains(f"^{_PADS}{_OPENER}"),
        glued=line.str.contains(rf"[\p{{L}}\p{{N}}].*{_OPENER}"),
    )


def _glued(openers: pl.DataFrame, lines: pl.DataFrame) -> pl.DataFrame:
    """The glued openers past their file's first opener line that read as a file's start: a
    header followed by a category line; a marker followed by a blank line or the file's end, after
    a finished field (a stop, a closing bracket or quote) or after a line without CJK text (a
    truncated English abstract does not go on in Chinese). A CJK line that only ends in the
    words "论文检索", "paper search", without a stop, is not cut: that reads as its phrase."""
    first = openers.filter("start").group_by("file_idx").agg(first=pl.col("line_no").min())
    glued = openers.join(first, on="file_idx").filter(pl.col("glued") & (pl.col("line_no") > pl.col("first")))
    if glued.is_empty():
        return glued
    next_lines = lines.join(glued.select("file_idx", pl.col("line_no") + 1), on=["file_idx", "line_no"], how="semi")
    after = next_lines.select("file_idx", pl.col("line_no") - 1, after=clean_text(pl.col("line")))
    glued = glued.join(after, on=["file_idx", "line_no"], how="left")
    after = pl.col("after")
    header = (pl.col("kind") == listing.NAME) & after.str.contains(listing.CATEGORY_LINE)
    line = pl.col("line")
    finished = line.str.contains(_FINISHED_MARKER) | ~line.str.contains(_CJK_BEFORE_MARKER)
    marker = (pl.col("kind") == search.NAME) & finished & (after.is_null() | (after == ""))
    return glued.filter(header.fill_null(False) | marker)


def _cut(lines: pl.DataFrame, cut: pl.DataFrame) -> pl.DataFrame:
    """Each cut line as two (the text before its opener, the opener), the lines renumbered."""
    parts = cut.select("file_idx", "line_no", parts=pl.col("line").str.extract_groups(_CUT)).unnest("parts")
    pieces = parts.select("file_idx", "line_no", pieces=pl.concat_list("before", "opener"))
    return (
        lines.join(pieces, on=["file_idx", "line_no"], how="left", maintain_order="left")
        .with_columns(line=pl.coalesce("pieces", pl.concat_list("line")))
        .drop("pieces")
        .explode("line")
        .with_columns(line_no=pl.int_range(1, pl.len() + 1, dtype=pl.Int64).over("file_idx"))
    )


def _with_sections(lines: pl.DataFrame, openers: pl.DataFrame) -> pl.DataFrame:
    """In a file with openers of both formats, each line takes the format of the last opener
    line at or before it; the lines before the first keep the file's."""
    starts = openers.filter("start")
    mixed = starts.group_by("file_idx").agg(pl.col("kind").n_unique()).filter(pl.col("kind") > 1)["file_idx"]
    if mixed.is_empty():
        return lines
    section = (
        lines.join(starts.select("file_idx", "line_no", "kind"), on=["file_idx", "line_no"], how="left",
                   maintain_order="left")
        .with_columns(kind=pl.col("kind").forward_fill().over("file_idx"))
    )
    in_mixed = pl.col("file_idx").is_in(mixed.implode())
    return section.with_columns(
        format=pl.when(in_mixed).then(pl.coalesce("kind", "format")).otherwise("format")).drop("kind")
