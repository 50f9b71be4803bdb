"""Listings built from arXiv's RSS feeds and mailing pages: the feed's marks on a title or an
abstract, and the lines a page prints between records (section headings, separators).

Before: an old feed's title "T. (arXiv:2602.13165v2 [cs.IR] UPDATED)" made each version of a
paper its own paper (the id's digits read as a series number); today's feed's abstract
"arXiv:2602.18374v2 Announce Type: replace Abstract: ..." kept its prefix and, as the newest
listing, replaced the clean abstract; and a line after a short record ("Cross-lists for Mon, 26
Oct 26", "------", "Comments: 5 pages") was read as its one-line abstract's wrapped rest."""

from __future__ import annotations

import pytest
from conftest import parse_text
from hypothesis import given, settings
from hypothesis import strategies as st

FIRST = "#01Oct 26, 2026\ncs.LG\nFirst Paper Title\nAnn Lee, Bo Chen\nWe study robust training of networks.\n"
LAST = "#03Oct 26, 2026\ncs.LG\nThird Paper Title\nCy Dee\nWe propose a method for data.\n"
TITLE = "Designing RNAs with Language Models"
ABSTRACT = "We design RNA sequences with a language model trained on families of structured RNAs."


def second(title: str = TITLE, abstract: str = ABSTRACT) -> tuple[dict, list[dict]]:
    """The record between FIRST and LAST as read, and the file's quarantine rows."""
    records, quarantine = parse_text(f"{FIRST}#02Oct 26, 2026\ncs.LG\n{title}\nAnn Lee, Bo Chen\n{abstract}\n{LAST}")
    return records.row(1, named=True), quarantine.to_dicts()


@pytest.mark.parametrize("title", [
    f"{TITLE}. (arXiv:2602.12470v1 [cs.LG])",
    f"{TITLE}. (arXiv:2602.12470v2 [cs.LG] UPDATED)",
    f"{TITLE}. (arXiv:2602.12470v3 [cs.LG] CROSS LISTED)",
    f"{TITLE} (arXiv:2602.12470v2 [cs.LG] UPDATED)",
    f"{TITLE}. (arXiv:math/0501001v2 [math.AG] UPDATED)",
    f"{TITLE}. (arXiv:2602.12470 [cs.LG])",
])
def test_an_rss_feed_title_loses_the_feeds_id_and_version(title):
    record, quarantine = second(title=title)
    assert not quarantine and record["title"] == TITLE, quarantine


@pytest.mark.parametrize("title", [
    "What Is Wrong With arXiv:2401.00001? (A Reply)",  # the id inside a title is the title's
    "Comments on (arXiv:2401.00001)",  # a whole title that is a reply to a paper keeps its words
    'Comment on "Scaling Laws for Sparse Models" (arXiv:2401.00001v2)',  # a version, no category: not the feed's
    "Scaling Laws (Revisited)",
])
def test_a_title_that_names_an_arxiv_paper_itself_is_kept(title):
    assert second(title=title)[0]["title"] == title


@pytest.mark.parametrize("prefix", [
    "arXiv:2602.18374v2 Announce Type: replace Abstract: ",
    "arXiv:2602.18374v1 Announce Type: new Abstract: ",
    "arXiv:2602.18374v1 Announce Type: cross Abstract: ",
    "arXiv:2602.18374v3 Announce Type: replace-cross Abstract: ",
    "arXiv:hep-th/9901001v2 Announce Type: replace Abstract: ",
    "arXiv:2602.18374v2 Announce Type: replace\tAbstract:  ",
])
def test_an_rss_feed_abstract_loses_the_feeds_announcement(prefix):
    record, quarantine = second(abstract=prefix + ABSTRACT)
    assert not quarantine and record["abstract"] == ABSTRACT, quarantine


@pytest.mark.parametrize("line", [
    "Cross-lists for Mon, 26 Oct 26",
    "Replacements for Mon, 26 Oct 26",
    "New submissions for Mon, 26 Oct 26",
    "New submissions (showing 4 of 4 entries)",
    "Replacement submissions (showing 12 of 12 entries)",
    "Cross submissions (showing 3 of 3 entries)",
    "------------------------------------------------------------------",
    "\\\\",
    "* * *",
    "=====",
    "——————————",  # em dashes, box drawing: separators as editors draw them
    "────────────",
    "═══════",
    "Comments: 5 pages",
    "Journal-ref: Phys.Rev.D76:013009,2007",
    "Report-no: CERN-TH-2026-001",
    "DOI: 10.1103/PhysRevD.76.013009",
    "Title: Another paper",
    "Subjects: Computational Complexity (cs.CC)",
    "(withdrawn)",
    "[replaced with revised version Mon, 26 Oct 2026]",
    "replaced with revised version",
    "(showing first 25 of 312 entries)",
    "[v2] Mon, 26 Oct 2026 12:00:00 UTC (1,234 KB)",
])
def test_a_line_after_a_short_record_is_never_its_abstracts_rest(line):
    # every line of the record is short enough to be a wrapped one: the line after its abstract
    # was read as that abstract's second line, no quarantine row
    short = "Description of a polynomial time reduction of SAT to 2-SAT of polynomial size."
    middle = f"#02Oct 26, 2026\ncs.CC\nReducing SAT to 2-SAT\nSergey Gubin\n{short}\n{line}\n"
    records, quarantine = parse_text(FIRST + middle + LAST)
    assert records["abstract"].to_list()[1] == short
    assert quarantine.select("line_start", "line_end").rows() == [(11, 11)]


def test_a_wrapped_abstract_still_unwraps_onto_a_line_of_prose():
    text = ("#02Oct 26, 2026\ncs.CC\nReducing SAT to 2-SAT\nSergey Gubin\n"
            "Description of a polynomial time reduction of SAT to 2-SAT of polynomial\n"
            "size, with comments on the cost.\n")
    records, quarantine = parse_text(FIRST + text + LAST)
    assert quarantine.is_empty(), quarantine.to_dicts()
    assert records["abstract"].to_list()[1] == ("Description of a polynomial time reduction of SAT to 2-SAT of "
                                                "polynomial size, with comments on the cost.")


@pytest.mark.parametrize("lines", [
    # a label opening a wrapped line, with the abstract going on after it
    ["We extend our conference paper with new proofs and experiments on all.",
     "DOI: 10.1145/3292500.3330701 is the version of record; here we add three",
     "new datasets and a study of scaling behaviour across model sizes."],
    ["We prove a sharper bound for sparse recovery under weak assumptions.",
     "Comments: the bound in Theorem 2 is tight up to constants, as we show",
     "with a matching construction for every sparsity level and dimension."],
    # TeX or a sentence's last marks alone on the last line (daydayarxiv record 772 at 72 columns)
    ["We release the code of our method for controllable generation at \\url{https",
     "://github.com/arctanxarc/GENIUS}$."],
    ["Can a transformer of bounded depth count the parentheses of a string of length",
     "?"],
])
def test_a_wrapped_abstract_is_read_whole_whatever_its_lines_open_with(lines):
    # a line of a wrapped field that reads like a label, or is marks alone, was cut off with the rest
    text = "#02Oct 26, 2026\ncs.LG\nA Title of the Paper\nAnn Lee, Bo Chen\n" + "\n".join(lines) + "\n"
    records, quarantine = parse_text(FIRST + text + LAST)
    assert quarantine.is_empty(), quarantine.to_dicts()
    assert records.row(1, named=True)["abstract"].endswith(lines[-1].strip()[-12:])


def test_a_names_line_wrapped_onto_an_affiliation_alone_is_read_whole():
    # a line wholly in parentheses after a wrapped title and names is the names' rest, not a note
    text = ("#02Oct 26, 2026\nhep-ph\nReparametrization Invariance, the controversial extraction of $\\alpha$\n"
            "from $B\\to\\pi\\pi$ and New Physics\n"
            "Francisco J. Botella (Valencia U. & Valencia U., IFIC), Miguel Nebot\n(Lisbon, IST)\n"
            "The extraction of the weak phase $\\alpha$ from $B\\to\\pi\\pi$ decays has\n"
            "been controversial from a statistical point of view, as the frequentist\n"
            "vs. bayesian confrontation shows.\n")
    records, quarantine = parse_text(FIRST + text + LAST)
    assert quarantine.is_empty(), quarantine.to_dicts()
    assert records.row(1, named=True)["abstract"].endswith("as the frequentist vs. bayesian confrontation shows.")


@pytest.mark.parametrize("title_lines", [2, 3])
def test_a_labelled_record_with_a_wrapped_title_is_read_whole_never_cut_at_its_labels(title_lines):
    # "Authors:" after a title of three lines is the record's own: read whole, or (a record whose
    # wrap is ambiguous, as before) quarantined whole, never cut there
    title = ["Reducing SAT to 2-SAT, with a", "Proof of the Reduction's Size", "and of Its Cost"][:title_lines]
    text = ("#02Oct 26, 2026\ncs.CC\nTitle: " + "\n".join(title) + "\nAuthors: Sergey Gubin\n"
            "Abstract: Description of a polynomial time reduction of SAT.\n")
    records, quarantine = parse_text(FIRST + text + LAST)
    if quarantine.is_empty():
        assert records.row(1, named=True)["title"] == " ".join(title)
        assert records.row(1, named=True)["abstract"] == "Description of a polynomial time reduction of SAT."
    else:
        assert quarantine.select("line_start", "line_end").rows() == [(6, 9 + title_lines)]


_WORDS = st.text(st.sampled_from("abcdefghij KLMNOP-"), min_size=3, max_size=40).map(str.strip).filter(
    lambda t: t and t[0].isalpha())


@settings(max_examples=60)
@given(title=_WORDS, version=st.integers(1, 9), code=st.sampled_from(["cs.LG", "math.AG", "hep-th", "q-bio.BM"]),
       mark=st.sampled_from(["", " UPDATED", " CROSS LISTED"]))
def test_any_feed_title_reads_as_the_plain_title(title, version, code, mark):
    assert second(title=f"{title}. (arXiv:2602.12470v{version} [{code}]{mark})")[0]["title"] == " ".join(title.split())
