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


FORMATS: tuple[DigestFormat, ...] = (
    DigestFormat(search.NAME, search.find, search.parse, frozenset({search.MARKER})),
    DigestFormat(listing.NAME, listing.find, listing.parse),
)


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
