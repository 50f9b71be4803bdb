"""Digest formats: a small registry, so a third format is one new module.

Each format finds where its first record (or its marker line) starts in a file's text, and
turns the lines of its files into standard records (see `schemas.frames.ParsedRecord`) plus
quarantine spans. Text before the first record (an e-mail header, a "Subject:" line) is the
parser's to account for: each parser quarantines it as one preamble span.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import polars as pl

from transforms.formats import listing, search
from transforms.formats.common import PAD, unglued

UNKNOWN = "unknown"


@dataclass(frozen=True)
class DigestFormat:
    name: str
    # Character offset of the file's first record (or marker line), None when there is none.
    # One compiled MULTILINE `re.search` over the whole text: no per-line Python loop, and it
    # stops at the first match, so a 30 MB file costs a scan only when it is not this format.
    find: Callable[[str], int | None]
    parse: Callable[[pl.DataFrame], tuple[pl.DataFrame, pl.DataFrame]]
    headers: frozenset[str] = frozenset()  # lines that belong to no record but are expected
    # A line that opens a section of this format (`opens`, on the line without its blanks; only
    # lines holding `opener` are looked at), and such a line glued to the end of another (`glued`).
    opener: str = ""
    opens: str = ""
    glued: str = ""


FORMATS: tuple[DigestFormat, ...] = (
    DigestFormat(search.NAME, search.find, search.parse, frozenset({search.MARKER}),
                 opener=search.MARKER, opens=rf"^{search.MARKER}$", glued=search.GLUED),
    DigestFormat(listing.NAME, listing.find, listing.parse, opener="#", opens=listing.HEADER, glued=listing.GLUED),
)


def with_sections(lines: pl.DataFrame) -> pl.DataFrame:
    """`lines` (file_idx, format, line_no, line), each line with the format of the section it is
    in. Two digests joined into one file (a search page, then a listing) were parsed as the
    format found first, and the listing loaded as one search abstract: a line that opens a
    format's section (a listing header, the search marker) now switches the file's lines to that
    format, up to the line that opens the other's. Openers glued to the end of a line are cut off
    first (`common.unglued`). Files of no format stay as they are."""
    openers = tuple(f.opener for f in FORMATS)
    for fmt in FORMATS:
        lines = unglued(lines, fmt.glued, fmt.opener, PAD, openers=openers)
    # Nothing changes unless a file holds another format's opener (the common case).
    foreign = pl.any_horizontal((pl.col("format") != f.name) & pl.col("line").str.contains(f.opener, literal=True)
                                for f in FORMATS) & (pl.col("format") != UNKNOWN)
    if lines.select(foreign.any()).item() is not True:
        return lines
    holding = lines.with_row_index("row").filter(
        pl.any_horizontal(pl.col("line").str.contains(o, literal=True) for o in openers)
        & (pl.col("format") != UNKNOWN))
    bare = pl.col("line").str.strip_chars(PAD)
    section = pl.lit(None, pl.String)
    for fmt in reversed(FORMATS):
        section = pl.when(bare.str.contains(fmt.opens)).then(pl.lit(fmt.name)).otherwise(section)
    switches = holding.select("row", "format", section=section).drop_nulls("section")
    if switches.filter(pl.col("section") != pl.col("format")).is_empty():
        return lines
    sections = pl.Series("section", [None] * lines.height, dtype=pl.String).scatter(switches["row"], switches["section"])
    return lines.with_columns(sections).with_columns(
        format=pl.when(pl.col("format") == UNKNOWN).then(pl.col("format"))
        .otherwise(pl.col("section").forward_fill().over("file_idx").fill_null(pl.col("format")))).drop("section")


# Formats are looked for in a file's head first: a first record there comes before any later one,
# so the whole text is searched only when the head holds none (a long preamble, an unknown file).
# Each format's `find` scanned the whole of every file of the other format, holding the GIL
# (`python -m bench.read_decode`, 3,000 files of the 1M distinct corpus: 0.35 -> 0.12 s).
HEAD_CHARS = 1 << 16


def detect_format(text: str) -> str:
    """The format whose first record (or marker) comes first in `text`, wherever it starts."""
    cut = text.find("\n", HEAD_CHARS)
    if cut >= 0:  # the head ends at a line end: a line-anchored find sees its lines whole
        found = _first(text[:cut])
        if found is not None:
            return found
    return _first(text) or UNKNOWN


def _first(text: str) -> str | None:
    found = [(at, i) for i, fmt in enumerate(FORMATS) if (at := fmt.find(text)) is not None]
    return FORMATS[min(found)[1]].name if found else None


def get_format(name: str) -> DigestFormat:
    return next(fmt for fmt in FORMATS if fmt.name == name)
