"""A listing record whose authors are written one per line (as conference and OpenReview pages
copy), or with one short line between a lone author and the abstract ("Abstract", "Oral",
"摘要"). Before, every name but the last was glued onto the title ("... Read Channel Zuo Ye",
author "Gennian Ge"), and a lone author's name onto the title under the author "Abstract" or
"Oral" (hunt 52, F1 and F2). Now the names are the authors, or the record is quarantined: never a
name in the title, never a heading or a status word for a person."""

from __future__ import annotations

import json

import polars as pl
import pytest
from conftest import parse_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.corpus import default_realdata
from transforms.clean import split_authors

DAILY = default_realdata() / "arxiv_daily_listings_dwdengwei.jsonl"
ABSTRACT = ("We study the robust training of deep networks under distribution shift and show that a simple method "
            "works well across many benchmarks, with theory that explains when and why it does so. ") * 3


def _names(authors_raw: str) -> list[str]:
    return split_authors(pl.DataFrame({"a": [authors_raw]}), "a")["authors"].to_list()[0]


def _record(title_lines: list[str], lines: list[str], abstract: str = ABSTRACT) -> str:
    return "#01Oct 26, 2026\ncs.IT\n" + "".join(line + "\n" for line in [*title_lines, *lines, abstract])


@pytest.mark.parametrize("names", [["Zuo Ye", "Gennian Ge"], ["Kaining Li", "Ruichen Yan", "Yuxin Dong"],
                                   ["Aleksandar Todorov", "Jesse ten Napel", "Alexander Müller"]])
def test_names_one_per_line_are_the_authors(names):
    title = "Deletion-Correcting Codes for the $\\ell$-Symbol Read Channel"
    records, quarantine = parse_text(_record([title], names))
    assert quarantine.is_empty(), quarantine.to_dicts()
    assert records["title"][0] == title
    assert _names(records["authors_raw"][0]) == names
    assert records["abstract"][0] == ABSTRACT.strip()


@pytest.mark.parametrize("line", ["Oral", "Poster", "PDF", "Code", "New", "Withdrawn", "Spotlight", "★"])
def test_a_status_word_under_a_lone_author_quarantines_the_record(line):
    records, quarantine = parse_text(_record(["Neural Texture Compression using Hypernetworks"], ["Belcour Laurent", line]))
    assert records.is_empty(), records.select("title", "authors_raw").to_dicts()
    assert quarantine.height == 1


@pytest.mark.parametrize("title_lines", [["Learning to Rank under", "Distribution Shift"],
                                         ["Deep Learning", "Distribution Shift"]])
def test_a_title_on_two_lines_above_one_names_line_still_loads(title_lines):
    records, quarantine = parse_text(_record(title_lines, ["Ann Lee, Bo Chen"]))
    assert quarantine.is_empty(), quarantine.to_dicts()
    assert records["title"][0] == " ".join(title_lines)
    assert _names(records["authors_raw"][0]) == ["Ann Lee", "Bo Chen"]


def test_a_title_line_that_goes_on_is_no_names_line():
    # "Learning to Rank under" / "Distribution Shift" / "Ann Lee": a two-line title, or two names
    # under a title that ends in "under": no title does; never "Distribution Shift" for a person
    records, quarantine = parse_text(_record(["Learning to Rank under", "Distribution Shift"], ["Ann Lee"]))
    assert records.is_empty() or records["title"][0] == "Learning to Rank under Distribution Shift"


def _daily(n: int) -> list[dict]:
    if not DAILY.exists():
        pytest.skip(f"real listings not found: {DAILY} (../shared/realdata)")
    return [json.loads(line) for line in DAILY.read_text(encoding="utf-8").splitlines()[:n]]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_real_records_with_one_to_three_authors_one_per_line(data):
    records = [r for r in _daily(600) if 1 <= len(r["authors"]) <= 3]
    chosen = data.draw(st.lists(st.sampled_from(records), min_size=1, max_size=8, unique_by=lambda r: r["id"]))
    text = "".join(f"#{i + 1:02d}Oct 26, 2026\n{r['categories'][0]}\n{r['title']}\n" + "".join(n + "\n" for n in r["authors"])
                   + r["summary"].replace("\n", " ") + "\n" for i, r in enumerate(chosen))
    loaded, quarantine = parse_text(text)
    for row in loaded.iter_rows(named=True):
        source = chosen[row["position"] - 1]
        assert _names(row["authors_raw"]) == source["authors"], (row, source["authors"])
        assert row["title"] == " ".join(source["title"].split()), row


@pytest.mark.parametrize("heading", ["Abstract", "ABSTRACT", "Abstract.", "Abstract:", "Summary", "摘要", "TL;DR"])
@pytest.mark.parametrize("names", [["Belcour Laurent"], ["Ann Lee", "Bo Chen"]])
def test_a_heading_above_the_abstract_is_no_field(heading, names):
    title = "Neural Texture Compression using Hypernetworks"
    records, quarantine = parse_text(_record([title], [", ".join(names), heading]))
    assert quarantine.is_empty(), quarantine.to_dicts()
    assert records.select("title", "abstract").row(0) == (title, ABSTRACT.strip())
    assert _names(records["authors_raw"][0]) == names
    assert (records["line_start"][0], records["line_end"][0]) == (1, 6)
