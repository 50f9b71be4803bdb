"""Names typed in small letters that hold a short word of prose ("jae in kim", "mehmet can yilmaz",
"scott a. hughes"): a names line, in both formats, not prose, when the name's other words are a
known given name and surname (transforms/formats/common.py `name_words_blanked`). Read as prose, such a line quarantined its record (a listing's fields
"out of place"; on a search page the names and the abstract as two records without authors,
and every later record's position moved by one: `python -m eval.run --seed 131` and `--seed 179`
scored papers P 0.981 and 0.989 for it)."""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import parse_text
from eval.lowercase_names import loaded_lines
from test_formats import _real_author_lines

ABSTRACT = ("The entropy rate of printed English is famously estimated to be about one bit per character, a "
            "benchmark that modern large language models have only recently approached. We introduce a "
            "statistical model of the multi-scale structure of natural language and show that its predicted "
            "entropy rate agrees with the estimates.")
NEXT = ("Most recent work in goal oriented visual navigation resorts to large-scale machine learning in "
        "simulated environments. We show that a modular agent trained on far less data matches it.")
LISTS = [
    "Enrico Barausse, scott a. hughes, Luciano Rezzolla",  # an initial "a."
    "david a stephens, jacob a zavatone-veth",  # an initial without its dot, after a given name
    "mehmet can yilmaz, libby barak, Jing Peng, Anna Feldman",  # a middle name "Can"
    "mehmet can yılmaz, libby barak",  # letters the reference folds: "ı" is "i", "ł" is "l"
    "łukasz a kowalski, bo chen",
    "jae in kim, minh to, scott hughes",  # a middle name and a surname of prose's spelling
    "can jin, been kim, zihan dong",  # given names
    "pedro a. ortega",  # one name
    "a. i. molev",
]

def _search_page(names: str) -> str:
    return "\n\n".join(["论文检索", "Guillaume Bono, Leonid Antsfeld", NEXT, names, ABSTRACT, "Ann Lee, Bo Chen", NEXT])


def _listing_page(names: str) -> str:
    records = [("Modular Navigation", "Guillaume Bono, Leonid Antsfeld", NEXT), ("Entropy of English", names, ABSTRACT),
               ("Less Data", "Ann Lee, Bo Chen", NEXT)]
    return "\n".join(f"#{i:02d}Oct 26, 2026\ncs.LG\n{title}\n{authors}\n{abstract}"
                     for i, (title, authors, abstract) in enumerate(records, 1))


@pytest.mark.parametrize("names", LISTS)
@pytest.mark.parametrize("page", [_search_page, _listing_page], ids=["search", "listing"])
def test_a_names_line_in_small_letters_is_names(page, names):
    records, quarantine = parse_text(page(names))
    assert quarantine.is_empty(), quarantine["reason"].to_list()
    assert records["position"].to_list() == [1, 2, 3]
    assert records["abstract"].to_list() == [NEXT, ABSTRACT, NEXT]
    assert records["authors_raw"][1].strip() == names


@pytest.mark.parametrize("fmt, most_lost", [("listing", 23), ("search", 16)])
def test_real_author_lists_in_small_letters_load_as_written(fmt, most_lost):
    """../shared/realdata's author lists (11,617 of several names): lower-cased, each loads as it
    does written as it is but for at most `most_lost` (151 and 38 before session 49): names
    whose other words are no known given name and surname ("tankut can", "ozgur can seckin"), or
    given names that open prose's clauses ("an vo", "in huh", "the viet bui": "an automatic",
    "in contrast"), still read as prose (loud: quarantined)."""
    lines = _real_author_lines()
    written, lowered = loaded_lines(lines, fmt), loaded_lines([line.lower() for line in lines], fmt)
    assert len(written - lowered) <= most_lost, [lines[i] for i in sorted(written - lowered)][:5]


GIVEN = ["david", "michael", "wei", "anna", "jing", "hasan", "pedro", "scott", "mehmet", "misha"]  # known names
SURNAMES = ["zhong", "kim", "jin", "nguyen", "hoang", "tran", "ortega", "hughes", "rasheed", "sivan"]
MIDDLE_WORDS = ["can", "the", "an", "to", "in", "a.", "a", "been"]  # inside a name or closing it
GIVEN_WORDS = ["can", "been", "a."]  # opening a name


@st.composite
def _names_with_a_name_word(draw) -> list[str]:
    """2-6 names in small letters, one to three of them with a short word of prose as a given name
    ("can", "been") or initial, a middle name or initial, or a surname."""
    names = [f"{draw(st.sampled_from(GIVEN))} {draw(st.sampled_from(SURNAMES))}" for _ in range(draw(st.integers(2, 6)))]
    for i in draw(st.lists(st.integers(0, len(names) - 1), min_size=1, max_size=3, unique=True)):
        given_name, surname = names[i].split(" ")
        names[i] = draw(st.sampled_from([f"{draw(st.sampled_from(GIVEN_WORDS))} {surname}",
                                         f"{given_name} {draw(st.sampled_from(MIDDLE_WORDS))} {surname}",
                                         f"{given_name} {draw(st.sampled_from(MIDDLE_WORDS))}"]))
    return names


@settings(max_examples=80, deadline=None)
@given(_names_with_a_name_word(), st.sampled_from([_search_page, _listing_page]))
def test_names_holding_words_of_prose_are_read_as_names(names, page):
    records, quarantine = parse_text(page(", ".join(names)))
    assert quarantine.is_empty() and records.height == 3, quarantine["reason"].to_list()
    assert records["authors_raw"][1].strip() == ", ".join(names)


# Review 49: phrases of prose in small letters that a name's words let pass, loaded as authors (a
# silent wrong field) before names needed a known name beside their word of prose; in a listing
# "can" is a word of prose now too (a phrase with it was loaded as authors before).
# The second review: English words that are surnames or given names too ("Read", "Price", "Deep",
# "Mark", "He", "You") passed for known names while half a list's items sufficed.
CAN_PHRASES = ["models can learn, tokens to predict", "agents can cooperate", "in short, can work",
               "can transformers generalize", "attention can help, memory can hurt", "models can read",
               "he can learn", "mark can help", "young children can", "you can learn", "models can learn, li wang",
               "agents can plan, long horizons"]
PHRASES = CAN_PHRASES + ["accepted to neurips", "work in progress", "code to appear", "learning in games",
                         "convergence to equilibrium", "robustness to noise, scaling in depth",
                         "scaling to billions, training in hours", "learning to read", "price to pay", "deep in thought",
                         "mark the spot", "will to live", "up to you", "see the moon", "learning to read, hard to train",
                         "easy to read, hard to write", "trained to read, li wang"]


@pytest.mark.parametrize("phrase", PHRASES)
def test_a_phrase_in_a_listings_names_place_is_no_names(phrase):
    """A phrase where a listing record's names stand (its names line missing) is not loaded as its
    authors: the record is quarantined, its fields out of place."""
    records, quarantine = parse_text(_listing_page(phrase))
    assert phrase not in [a.strip() for a in records["authors_raw"].to_list()]
    assert not quarantine.is_empty()


@pytest.mark.parametrize("phrase", CAN_PHRASES)
def test_a_phrase_over_an_abstract_on_a_search_page_is_no_names(phrase):
    records, quarantine = parse_text(_search_page(phrase))
    assert phrase not in [a.strip() for a in records["authors_raw"].to_list()]


@pytest.mark.parametrize("phrase", CAN_PHRASES)
def test_a_short_abstract_in_small_letters_stays_its_records(phrase):
    """Review 49: a record's short abstract of prose read as the next record's names lost the
    record and moved the positions after it."""
    page = "\n\n".join(["论文检索", "Ann Lee, Bo Chen", phrase, "Cy Dow, Ed Fox", ABSTRACT])
    records, quarantine = parse_text(page)
    assert records.select("position", "authors_raw", "abstract").rows() == [
        (1, "Ann Lee, Bo Chen", phrase), (2, "Cy Dow, Ed Fox", ABSTRACT)]


@pytest.mark.parametrize("names", ["ruihan yang, xiang we, fanghua ye", "the viet bui, tien mai, thanh nguyen, quang huy nguyen, minh tran",
                                   "weishun zhong, doron sivan, tankut can, mikhail katkov, misha tsodyks"])
def test_names_still_read_as_prose_cost_one_record_not_the_positions_after_it(names):
    """Lists still read as prose on a search page: the names line and its abstract are one quarantined record
    (they were two, "abstract without an authors line" each), so every record after them keeps its
    position."""
    from transforms.formats.search import NAMED_PROSE_REASON

    records, quarantine = parse_text(_search_page(names))
    assert quarantine["reason"].to_list() == [NAMED_PROSE_REASON]
    assert quarantine.select("line_start", "line_end").row(0) == (7, 9)
    assert records["position"].to_list() == [1, 3]
    assert records["abstract"].to_list() == [NEXT, NEXT]
