"""Digest formats: a small registry, so a third format is one new module.

Each format says whether a file is its own (from the file's first lines) and turns the lines of
its files into standard records (see `schemas.frames.ParsedRecord`) plus quarantine spans.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import polars as pl

from transforms.formats import listing, search

UNKNOWN = "unknown"
DETECT_LINES = 50  # a format must be recognisable from this many leading lines


@dataclass(frozen=True)
class DigestFormat:
    name: str
    detect: Callable[[list[str]], bool]
    parse: Callable[[pl.DataFrame], tuple[pl.DataFrame, pl.DataFrame]]
    headers: frozenset[str] = frozenset()  # lines that belong to no record but are expected


FORMATS: tuple[DigestFormat, ...] = (
    DigestFormat(search.NAME, search.detect, search.parse, frozenset({search.MARKER})),
    DigestFormat(listing.NAME, listing.detect, listing.parse),
)


def detect_format(text: str) -> str:
    head = text.split("\n", DETECT_LINES)[:DETECT_LINES]
    for fmt in FORMATS:
        if fmt.detect(head):
            return fmt.name
    return UNKNOWN


def get_format(name: str) -> DigestFormat:
    return next(fmt for fmt in FORMATS if fmt.name == name)
