"""Listing headers as other sites, editors and locales render them (a hostile hunt, session 45).

A header the parser does not read was a record boundary only when a category line followed it:
"#02Oct 26, 2026 cs.GR" (the category on the header's line), or "#02Oct 26 2026" over "[cs.CV]",
over a category name, or over the title, was read into the abstract above, with its whole record
(a paper lost, every later position one too low, `digest audit` passing). Files joined end to end
left the second file's header in the first file's last abstract when it held a thin, ideographic
or zero-width space (which the parser reads) or was a form the parser does not read; a whole file
of such readable headers was "unknown format"."""

from __future__ import annotations

import textwrap

import pytest
from conftest import SAMPLES

from transforms.pipeline import SourceFile, process_batch

SEED = (SAMPLES / "000_2fe0bc6f923800c6.txt").read_text("utf-8")


def seed_records(n: int) -> list[list[str]]:
    """The seed's first n records, five lines each: header, category, title, authors, abstract."""
    lines = SEED.splitlines()
    return [lines[i:i + 5] for i in range(0, 5 * n, 5)]


RECORDS = seed_records(3)


def render(records: list[list[str]], wrap: bool) -> str:
    """Records as lines; `wrap`: every field after the header hard-wrapped at 72 columns."""
    out = []
    for header, *fields in records:
        out.append(header)
        for field in fields:
            out.extend(textwrap.wrap(field, 72) if wrap and len(field) > 72 else [field])
    return "\n".join(out) + "\n"


def loaded(text: str):
    result = process_batch([SourceFile(1, "day.txt", text.encode("utf-8"))])
    listings = result.listings.sort("position").join(result.papers.select("paper_key", "title", "abstract"),
                                                     on="paper_key", how="left", maintain_order="left")
    return listings, result.quarantine


# (the middle record's header line, its category line or None)
UNREAD_MIDDLE = [
    ("#02Oct 26, 2026 cs.GR", None), ("#02Oct 26, 2026 — cs.CV", None), ("#02Oct 26, 2026 | cs.CV", None),
    ("#02Oct 26, 2026 [cs.CV]", None), ("#02Oct 26, 2026 UTC", "[cs.CV]"), ("#02Oct 26 2026", "cs.CV (primary)"),
    ("#0226 Oct 2026", "machine learning"), ("#02Oct 26 2026", None), ("#02 26 October 2026", "[cs.LG]"),
    ("#022026-10-26", None), ("#0210/26/2026", "Computer Vision"), ("#02Mon, 26 Oct 2026", None),
]


@pytest.mark.parametrize("wrap", [False, True], ids=["lines", "wrapped"])
@pytest.mark.parametrize("header,category", UNREAD_MIDDLE)
def test_an_unread_header_is_a_record_boundary_whatever_follows_it(header, category, wrap):
    first, middle, last = (list(r) for r in RECORDS)
    middle[0:2] = [header] + ([category] if category else [])
    listings, quarantine = loaded(render([first, middle, last], wrap))
    titles = [r[2] for r in (first, last)]
    assert listings["title"].to_list() == titles and listings["position"].to_list() == [1, 3]
    assert not listings["abstract"].str.contains("#02").any(), "a header read into an abstract"
    assert quarantine.height >= 1 and quarantine["raw_text"].str.contains(header, literal=True).any()
    if not wrap:  # fields are lines: the other records are exactly theirs
        assert listings["abstract"].to_list() == [first[4], last[4]]


@pytest.mark.parametrize("space", ["\u2009", "\u200b", "\u3000", "\u2003", "\ufeff", "\u200e", "\u2060"])
def test_headers_with_odd_spaces_read_alone_and_joined(space):
    """Every header of the second file with an odd space after the "#" and the rank, or after the comma."""
    first = render(RECORDS[:2], wrap=False)
    second_records = [list(r) for r in seed_records(4)[2:]]
    for i, record in enumerate(second_records):
        rank, date = record[0][:3], record[0][3:]
        record[0] = (f"#{space}{rank[1:]}{date}" if space in "\ufeff\u200e" else
                     f"{rank}{space}{date}" if i == 0 else date.join([rank, ""]).replace(", ", "," + space))
    second = render(second_records, wrap=False)
    alone, quarantine = loaded(second)
    assert quarantine.is_empty() and alone.height == 2, "a file of such headers is read"
    joined, quarantine = loaded(first.rstrip("\n") + second)  # the first file ends without a newline
    assert quarantine.is_empty(), quarantine.to_dicts()
    assert joined["title"].to_list() == [r[2] for r in RECORDS[:2] + second_records]
    assert joined["abstract"].to_list() == [r[4] for r in RECORDS[:2] + second_records]


@pytest.mark.parametrize("header", ["#01Oct 26 2026", "#0127 Oct 2026", "#01Mon, 26 Oct 2026"])
def test_an_unread_header_glued_by_a_join_is_cut_off_not_left_in_the_abstract(header):
    first = render(RECORDS[:2], wrap=False)
    second_records = [list(r) for r in seed_records(4)[2:]]
    second_records[0][0] = header
    listings, quarantine = loaded(first.rstrip("\n") + render(second_records, wrap=False))
    assert listings["abstract"].to_list()[:2] == [r[4] for r in RECORDS[:2]], "the header stayed in the abstract"
    assert listings["title"].to_list() == [r[2] for r in RECORDS[:2]] + [second_records[1][2]]
    assert quarantine["raw_text"].str.contains(header, literal=True).any()


@pytest.mark.parametrize("opening", ["#1 since Oct 5, 2024 the model has ranked first on the public",
                                     "#3 2024-05-01 release of the benchmark, which we extend here to",
                                     "#12 since Oct 5, 2024 the leaderboard has listed it first among"])
def test_a_wrapped_abstract_line_that_opens_with_a_number_and_a_date_goes_on(opening):
    """The review: such a line ended the record, its abstract loaded cut short."""
    first, middle, last = (list(r) for r in RECORDS)
    prefix = "We study leaderboards of language models and what their ranks say about progress."
    rest = opening + " three tasks, and we find the ranks unstable across seeds and prompts."
    middle[4] = prefix + " " + rest
    lines = render([first, middle, last], wrap=False).split("\n")
    at = lines.index(middle[4])
    lines[at:at + 1] = [prefix, rest]  # the line breaks before the number
    listings, quarantine = loaded("\n".join(lines))
    assert quarantine.is_empty(), quarantine.to_dicts()
    assert listings["position"].to_list() == [1, 2, 3] and listings["abstract"][1] == middle[4]
