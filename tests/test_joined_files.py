"""Files joined end to end (`cat a.txt b.txt`) where the first does not end in a newline (the
seeds do not): the second file's header or page marker is glued to the end of the first's last
line. Every record of both loads, whole, as it loads from each file alone."""

from __future__ import annotations

import json

import pytest
from conftest import LISTING_SEEDS, SEARCH_SEEDS, parse_text
from hypothesis import given, settings
from hypothesis import strategies as st
from test_formats import listing_file, search_file
from typer.testing import CliRunner

from transforms.pipeline import SourceFile, process_batch

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


def loaded(text: str) -> tuple[int, set[tuple]]:
    """Listings and papers (title, abstract) of one file, through the whole batch pipeline."""
    result = process_batch([SourceFile(1, "joined.txt", text.encode("utf-8"))])
    assert result.quarantine.is_empty(), result.quarantine.to_dicts()
    return result.listings.height, set(result.papers.select("title", "abstract").iter_rows())


@settings(max_examples=30, deadline=None)
@given(listing_file(), search_file(), st.booleans(), st.booleans())
def test_a_search_page_and_a_listing_in_one_file_load_as_each_alone(listing, search, search_first, newline):
    a, b = (search[0], listing[0]) if search_first else (listing[0], search[0])
    a = a.rstrip("\n") + ("\n" if newline else "")
    (n_a, papers_a), (n_b, papers_b) = loaded(a), loaded(b)
    assert loaded(a + b) == (n_a + n_b, papers_a | papers_b)


def test_joined_files_load_into_the_warehouse_with_every_line_in_one_span(run_ingest, tmp_path):
    """The line a glued header shares with the record before it is counted once (the audit's
    blocking check failed the run), and a file of both formats numbers its listings apart."""
    from flows.cli import app

    listing, search = [[p.read_text("utf-8").rstrip("\n") for p in seeds] for seeds in (LISTING_SEEDS, SEARCH_SEEDS)]
    folder = tmp_path / "joined"
    folder.mkdir()
    (folder / "listings.txt").write_text("".join(listing), "utf-8")  # headers glued
    (folder / "pages.txt").write_text("".join(search), "utf-8")  # markers glued
    (folder / "search_then_listing.txt").write_text(search[0] + listing[0], "utf-8")
    (folder / "listing_then_search.txt").write_text(listing[1] + "\n" + search[1], "utf-8")
    summary = run_ingest([folder], tmp_path / "w.duckdb")
    assert summary["n_listings"] == 5 * len(listing) + 20 * len(search) + 25 + 25
    audit = CliRunner().invoke(app, ["audit", "--warehouse", str(tmp_path / "w.duckdb"), "--json"])
    assert audit.exit_code == 0, audit.output
    assert {row["status"] for row in json.loads(audit.stdout)} == {"ok"}
