"""Digests joined end to end into one file (`cat a.txt b.txt`, transforms/formats/joined.py): the
first file may end without a newline (the seeds do), gluing the second's header or page marker
to its last line, and the two may be of different formats. Every record of both loads, whole,
as it loads from each file alone."""

from __future__ import annotations

import json

import pytest
from conftest import LISTING_SEEDS, SEARCH_SEEDS
from hypothesis import given, settings
from hypothesis import strategies as st
from test_formats import listing_file, search_file
from typer.testing import CliRunner

from transforms.pipeline import SourceFile, process_batch


def loaded(text: str) -> tuple[int, list[tuple]]:
    """Listings and their papers (title, authors, abstract) of one file, in file order, through
    the whole batch pipeline; nothing quarantined."""
    result = process_batch([SourceFile(1, "joined.txt", text.encode("utf-8"))])
    assert result.quarantine.is_empty(), result.quarantine.to_dicts()
    listings = result.listings.sort("position")
    assert listings["position"].to_list() == list(range(1, listings.height + 1))
    papers = result.papers.select("paper_key", "title", "abstract")
    rows = listings.join(papers, on="paper_key", how="left", maintain_order="left")
    return listings.height, list(rows.select("title", "abstract").iter_rows())


def joined(first: str, second: str, newline: bool) -> str:
    return first.rstrip("\n") + ("\n" if newline else "") + second


def seed(path) -> str:
    return path.read_text("utf-8")


@pytest.mark.parametrize("first,second", [
    (LISTING_SEEDS[0], LISTING_SEEDS[1]), (SEARCH_SEEDS[0], SEARCH_SEEDS[1]),
    (LISTING_SEEDS[0], SEARCH_SEEDS[0]), (SEARCH_SEEDS[0], LISTING_SEEDS[0]),
], ids=["listing+listing", "search+search", "listing+search", "search+listing"])
@pytest.mark.parametrize("newline", [False, True], ids=["glued", "newline"])
def test_two_seeds_joined_load_as_each_alone(first, second, newline):
    a, b = seed(first), seed(second)
    n_a, rows_a = loaded(a)
    n_b, rows_b = loaded(b)
    assert loaded(joined(a, b, newline)) == (n_a + n_b, rows_a + rows_b)


@settings(max_examples=30, deadline=None)  # each example runs the pipeline three times
@given(st.one_of(listing_file(), search_file()), st.one_of(listing_file(), search_file()), st.booleans())
def test_any_two_files_joined_load_as_each_alone(first, second, newline):
    a, b = first[0], second[0]
    n_a, rows_a = loaded(a)
    n_b, rows_b = loaded(b)
    assert loaded(joined(a, b, newline)) == (n_a + n_b, rows_a + rows_b)


PAGE = "论文检索\n\nRémi Munos\n\nWe study the matter at hand in depth. It works well on every benchmark here."


@pytest.mark.parametrize("first", [
    # found by hypothesis in CI: a listing abstract's last sentence ends in a colon
    "#01Jan 1, 2000\nacc-phys\nWe we\nRémi Munos\nStudy we we we we we we we we we we, we we:",
    # a search abstract ending in a closing brace (the seed 004 does: "\\url{...}")
    "论文检索\n\nAnn Lee\n\nWe study x in depth and at length. Code: \\url{https://github.com/a/b}",
    # an abstract cut off mid-word, as digests truncate them
    "论文检索\n\nAnn Lee\n\nWe study the matter of fast learning in mod",
    "#01Jan 1, 2000\ncs.LG\nA title\nAnn Lee\nWe study the matter of fast learning in 3",
])
def test_a_page_glued_to_any_english_field_is_cut(first):
    n_a, rows_a = loaded(first)
    n_b, rows_b = loaded(PAGE)
    assert loaded(joined(first, PAGE, newline=False)) == (n_a + n_b, rows_a + rows_b)


def test_a_glued_line_is_cut_and_the_file_says_so():
    listing = seed(LISTING_SEEDS[0]).rstrip("\n")
    result = process_batch([SourceFile(1, "joined.txt", (listing + listing).encode("utf-8"))])
    assert result.files["encoding"].to_list() == ["utf-8+unglued"]
    assert result.files["n_lines"].to_list() == [2 * len(listing.split("\n"))]  # the cut line counts twice
    alone = process_batch([SourceFile(1, "one.txt", listing.encode("utf-8"))])
    assert alone.files["encoding"].to_list() == ["utf-8"]


@pytest.mark.parametrize("text", [
    # An e-mail's "Subject:" line names the page before the page starts: a preamble, not a join.
    "Subject: 论文检索\nFrom: bot@example.org\n\n论文检索\n\nAnn Lee, Bo Chen\n\nWe study x. It works.\n",
    # A header's look-alike inside an abstract's line, not at its end.
    "#01Oct 26, 2026\ncs.LG\nA title\nAnn Lee\nWe close issue #12Jan 5, 2024 of the tracker here.\n",
    # Damage (no letter or digit) before a header is not a glued file.
    "#01Oct 26, 2026\ncs.LG\nA title\nAnn Lee\nWe study x.\n\ufffd#02Oct 26, 2026\ncs.LG\nB\nBo Chen\nWe do y.\n",
])
def test_what_only_looks_joined_is_not_cut(text):
    result = process_batch([SourceFile(1, "x.txt", text.encode("utf-8"))])
    assert "+unglued" not in result.files["encoding"][0]
    assert result.files["n_lines"][0] == len(text.rstrip("\n").split("\n"))


def test_joined_files_load_into_the_warehouse_with_every_line_accounted(run_ingest, tmp_path):
    from flows.cli import app

    listing, search = [[seed(p).rstrip("\n") for p in seeds] for seeds in (LISTING_SEEDS, SEARCH_SEEDS)]
    folder = tmp_path / "joined"
    folder.mkdir()
    (folder / "listings.txt").write_text("".join(listing), "utf-8")  # headers glued
    (folder / "pages.txt").write_text("".join(search), "utf-8")  # markers glued
    (folder / "search_then_listing.txt").write_text(search[0] + listing[0], "utf-8")
    (folder / "listing_then_search.txt").write_text(listing[1] + "\n" + search[1], "utf-8")
    summary = run_ingest([folder], tmp_path / "w.duckdb")
    assert summary["n_listings"] == 5 * len(listing) + 20 * len(search) + 25 + 25
    assert summary["n_quarantined"] == 0
    audit = CliRunner().invoke(app, ["audit", "--warehouse", str(tmp_path / "w.duckdb"), "--json"])
    assert audit.exit_code == 0, audit.output
    assert {row["status"] for row in json.loads(audit.stdout)} == {"ok"}


@pytest.mark.parametrize("text", [
    # a Chinese title that ends in the marker's words ("paper search"), in a listing
    "#01Oct 26, 2026\ncs.IR\n基于大模型的论文检索\nAnn Lee\nWe build a search engine for papers.\n"
    "#02Oct 26, 2026\ncs.IR\nB\nBo Chen\nWe do y here today.\n",
    # a header's look-alike at the end of an abstract's line, no category after it
    "#01Oct 26, 2026\ncs.LG\nA title\nAnn Lee\nWe close the issue filed as #12Jan 5, 2024\n"
    "Bo Chen and Cy Dee\n#02Oct 26, 2026\ncs.LG\nB\nBo Chen\nWe do y here today.\n",
])
def test_an_opener_at_a_line_end_without_what_follows_an_opener_is_not_cut(text):
    result = process_batch([SourceFile(1, "x.txt", text.encode("utf-8"))])
    assert result.files["encoding"].to_list() == ["utf-8"]
    assert result.quarantine.is_empty(), result.quarantine.to_dicts()
    assert result.listings.height == 2


ABSTRACT = "We study x in many settings and find it robust in practice"


@pytest.mark.parametrize("text", [
    # a search abstract that ends in the marker's words without a stop, a blank line after
    f"论文检索\n\nAnn Lee, Bo Chen\n\n{ABSTRACT}. 我们的系统用于论文检索\n\nCy Dee\n\n{ABSTRACT}.\n",
    # a listing's last abstract that does, at the file's end
    f"#01Oct 26, 2026\ncs.LG\nT\nAnn Lee\n{ABSTRACT}.\n#02Oct 26, 2026\ncs.LG\nT\nBo Chen\n{ABSTRACT}. 基于大模型的论文检索",
    # a header's look-alike ending a search abstract, a blank line after
    f"论文检索\n\nAnn Lee, Bo Chen\n\n{ABSTRACT}. See changelog #12 March 3, 2024\n\nCy Dee\n\n{ABSTRACT}.\n",
    # ... and ending a listing abstract, records apart by blank lines
    f"#01Oct 26, 2026\ncs.LG\nT\nAnn Lee\n{ABSTRACT}. Released as build #2024 May 5, 2024\n\n"
    f"#02Oct 26, 2026\ncs.LG\nT\nBo Chen\n{ABSTRACT}.\n",
])
def test_an_abstract_ending_in_an_openers_words_is_not_cut(text):
    result = process_batch([SourceFile(1, "x.txt", text.encode("utf-8"))])
    assert result.files["encoding"].to_list() == ["utf-8"]
    assert result.quarantine.is_empty(), result.quarantine.to_dicts()
    assert result.listings.height == 2
    assert sorted(result.papers["abstract"].str.len_chars()) == sorted(
        len(a) for a in ([ABSTRACT + "."] + [line for line in text.split("\n") if line.startswith(ABSTRACT + ". ")]))
