"""Listing records whose fields moved up a line (one line missing, another one too many) are
quarantined, never loaded with an abstract as authors or authors as the abstract."""

from __future__ import annotations

import re

import pytest
from conftest import parse_text
from hypothesis import given, settings
from hypothesis import strategies as st
from test_formats import clean, listing_file

from transforms.formats.listing import SHIFT_REASON

FIRST = "#01Oct 26, 2026\ncs.LG\nFirst Paper Title\nAnn Lee, Bo Chen\nWe study robust training of networks.\n"
LAST = "#03Oct 26, 2026\ncs.LG\nThird Paper Title\nCy Dee\nWe propose a method for data.\n"
PROSE = ("Task robust analysis novel show experiments training efficient propose novel analysis network "
         "learning method results data framework")


@pytest.mark.parametrize("middle", [
    # no authors line, the abstract in two lines (no word of prose a names line lacks)
    f"#02Oct 26, 2026\ncs.LG\nSecond Paper Title\n{PROSE}\n{PROSE}\n",
    # a blank authors line, and a comments line after the abstract
    f"#02Oct 26, 2026\ncs.LG\nSecond Paper Title\n\n{PROSE} in a study.\nComments: 12 pages, 3 figures\n",
    # no title, the abstract in two lines
    f"#02Oct 26, 2026\ncs.LG\nDi Eve, Fay Gee\n{PROSE}\n{PROSE}\n",
    # a wrapped title, no abstract: the title's second line reads as a name
    ("#02Oct 26, 2026\ncs.LG\nA Very Long Title About Calibrating Large Language Models Under\n"
     "Distribution Shift\nAnn Lee, Bo Chen\n"),
    # a wrapped title, no abstract, one lower-case author
    ("#02Oct 26, 2026\ncs.LG\nA Very Long Title About Calibrating Large Language Models Under\n"
     "learning shift\nann lee\n"),
    # no authors line, the abstract cut in two: the first half opens like a sentence ...
    ("#02Oct 26, 2026\ncs.LG\nSecond Paper Title\nWe show bounds $O(\\log\n"
     "n)$ we we we we. $O(\\log n)$ we we we we we we we.\n"),
    # ... or holds a link or TeX math outside a list, with no prose word and no sentence end
    ("#02Oct 26, 2026\ncs.LG\nSecond Paper Title\nCode: https://github.com/org/repo bounds $O(\\log\n"
     "n)$ we we we we. $O(\\log n)$ we we we we we we we.\n"),
    # ... or holds them inside a list: cut after a comma, the half read as a names list (hypothesis found it)
    ("#02Oct 26, 2026\ncs.LG\nSecond Paper Title\nTraining https://github.com/org/repo bounds, propose generalization\n"
     "neural theory under data. Sample theory baselines transformers baselines study.\n"),
    ("#02Oct 26, 2026\ncs.LG\nSecond Paper Title\nTraining bounds $O(\\log n)$ propose, generalization neural theory,\n"
     "under data. $O(\\log n)$ our theory baselines transformers baselines $O(\\log n)$ i.e., study.\n"),
], ids=["no-authors", "blank-authors-comments", "no-title", "title-wrapped-no-abstract", "lower-case-author",
        "no-authors-sentence-opening", "no-authors-link-and-math", "no-authors-link-in-a-list", "no-authors-math-in-a-list"])
def test_a_record_with_shifted_fields_is_quarantined_and_its_neighbours_load(middle):
    records, quarantine = parse_text(FIRST + middle + LAST)
    assert records["title"].to_list() == ["First Paper Title", "Third Paper Title"]
    assert quarantine.select("line_start", "reason").rows() == [(6, SHIFT_REASON)]


def test_a_record_cut_after_its_wrapped_title_at_the_end_of_a_file_is_not_loaded_shifted():
    text = FIRST + ("#02Oct 26, 2026\ncs.LG\nImproving Signals, Declining Encoder: A Known-Answer Test of\n"
                    "Label-Free Monitoring in Self-Supervised Learning\nNilotpal Kakati")
    records, quarantine = parse_text(text)
    assert records["title"].to_list() == ["First Paper Title"]
    assert quarantine["line_start"].to_list() == [6]


def _split_in_two(text: str) -> list[str]:
    """A paragraph as two, cut after its first sentence of three words or more (a capital after
    the stop: "i.e. we" goes on), or else between its middle words."""
    cut = re.search(r"^\S+ \S+ .*?[.!?:] (?=[A-Z])", text)
    at = cut.end() if cut else text.rfind(" ", 0, len(text) // 2 + 1)
    return [text[:at].strip(), text[at:].strip()]


SHIFTS = {
    "no authors, abstract in two": lambda f: [f[0], f[1], *_split_in_two(f[3])],
    "blank authors, comments after": lambda f: [f[0], f[1], "", f[3], "Comments: 12 pages, 3 figures"],
    "no title, abstract in two": lambda f: [f[0], f[2], *_split_in_two(f[3])],
    "title in two, no abstract": lambda f: [f[0], *_split_in_two(f[1] + " of learning models"), f[2]],
}


@settings(max_examples=60, deadline=None)  # each example parses a whole file
@given(listing_file(), st.data())
def test_a_shifted_record_is_never_loaded_and_the_others_load_unchanged(case, data):
    text, expected = case
    target = data.draw(st.sampled_from(expected), label="record")
    shift = data.draw(st.sampled_from(sorted(SHIFTS)), label="shift")
    lines = text.split("\n")
    start, end = target["line_start"], target["line_end"]
    fields = [target["category_raw"], target["title"], target["authors_raw"], target["abstract"]]
    shifted = SHIFTS[shift](fields)
    lines[start:end] = shifted  # the header stays; its four field lines change
    moved = len(shifted) - 4
    others = {e["line_start"] + (moved if e["line_start"] > start else 0): e for e in expected if e is not target}
    records, quarantine = parse_text("\n".join(lines))
    assert sorted(records["line_start"]) == sorted(others), quarantine.to_dicts()
    for row in records.iter_rows(named=True):
        exp = others[row["line_start"]]
        assert [row["title"], row["authors_raw"], row["abstract"]] == clean(
            [exp["title"], exp["authors_raw"], exp["abstract"]])
    assert start in quarantine["line_start"].to_list()


def test_cjk_records_are_told_apart_by_their_stops_not_their_spaces():
    """CJK prose has no spaces: counted as words by spaces, every CJK abstract was "short", and a
    valid record with one lower-case romanised author was quarantined. A CJK sentence's stop
    still shows an abstract that moved into the authors."""
    abstract = "我们研究了一个问题并证明了一个紧的界限，实验支持了理论的预测。"
    valid = f"#02Oct 26, 2026\ncs.LG\n第二个标题\nwei zhang\n{abstract}\n"
    shifted = "#02Oct 26, 2026\ncs.LG\n第二个标题\n我们研究了一个问题并证明了一个紧的界限。\n实验支持了理论的预测。\n"
    records, quarantine = parse_text(FIRST + valid + LAST)
    assert records["title"].to_list() == ["First Paper Title", "第二个标题", "Third Paper Title"], quarantine.to_dicts()
    records, quarantine = parse_text(FIRST + shifted + LAST)
    assert quarantine.select("line_start", "reason").rows() == [(6, SHIFT_REASON)]


@pytest.mark.parametrize("authors", ["Ann Lee$^1$, Bo Chen$^2$", "Ann Lee, Bo Chen (https://example.org/team)",
                                     "Ann Lee$^{1,2}$, Bo Chen$^{\\dagger}$", "Ann Lee<sup>1</sup>, Bo Chen^{2,3}"])
def test_authors_with_tex_affiliations_or_a_link_in_a_list_load(authors):
    records, quarantine = parse_text(FIRST + f"#02Oct 26, 2026\ncs.LG\nSecond Paper Title\n{authors}\n{PROSE}.\n" + LAST)
    assert quarantine.is_empty(), quarantine.to_dicts()
    assert records["authors_raw"].to_list()[1] == authors


# Lower-case names whose surname is a short English word ("An", "To", "On", "We"): found in the
# entity-resolution harness (`python -m eval.run`), where such a record was quarantined as shifted.
@pytest.mark.parametrize("authors", [
    "Yuanhao Ban, tong xie, sohyun an and 6 more",
    "minh to, Bo Chen",
    "yi on, an li, Cy Dee",
    "jae in, hye jin an",
    "ruihan yang, Fanghua Ye, xiang we and 10 more",  # eval.run --seed 11
])
def test_lower_case_names_with_a_surname_that_is_a_prose_word_load(authors):
    records, quarantine = parse_text(FIRST + f"#02Oct 26, 2026\ncs.LG\nSecond Paper Title\n{authors}\n{PROSE}.\n" + LAST)
    assert quarantine.is_empty(), quarantine.to_dicts()
    assert records["authors_raw"].to_list()[1] == authors


def test_prose_with_such_a_word_before_a_comma_is_still_prose():
    middle = f"#02Oct 26, 2026\ncs.LG\nSecond Paper Title\nWe build on, and improve on, prior work in\n{PROSE}\n"
    _records, quarantine = parse_text(FIRST + middle + LAST)
    assert quarantine.select("line_start", "reason").rows() == [(6, SHIFT_REASON)]
