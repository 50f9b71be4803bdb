"""Files joined end to end (`cat a.txt b.txt`) where the first does not end in a newline (the
seeds do not): the second file's header or page marker is glued to the end of the first's last
line. Every record of both loads, whole, as it loads from each file alone."""

from __future__ import annotations

import pytest
from conftest import LISTING_SEEDS, SEARCH_SEEDS, parse_text
from hypothesis import given, settings
from test_formats import listing_file, search_file

FIELDS = ["category_raw", "title", "authors_raw", "abstract"]


def fields(text: str) -> list[tuple]:
    records, quarantine = parse_text(text)
    assert quarantine.is_empty(), quarantine.to_dicts()
    return [tuple(r.get(f) for f in FIELDS) for r in records.iter_rows(named=True)]


@pytest.mark.parametrize("seeds", [LISTING_SEEDS, SEARCH_SEEDS], ids=["listing", "search"])
def test_seeds_joined_without_a_final_newline_load_every_record_whole(seeds):
    texts = [p.read_text("utf-8").rstrip("\n") for p in seeds]
    assert fields("".join(texts)) == [record for text in texts for record in fields(text)]


@settings(max_examples=40, deadline=None)  # each example parses three files
@given(listing_file(), listing_file())
def test_two_listing_files_joined_load_as_each_alone(first, second):
    a, b = first[0].rstrip("\n"), second[0]
    assert fields(a + b) == fields(a) + fields(b)


@settings(max_examples=40, deadline=None)
@given(search_file(), search_file())
def test_two_search_pages_joined_load_as_each_alone(first, second):
    a, b = first[0].rstrip("\n"), second[0]
    assert fields(a + b) == fields(a) + fields(b)
