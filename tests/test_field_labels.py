"""A page's label before a field ("Authors: ", "By ", "作者：", "Title: ", "Abstract: ") is no part
of it. Before, it stayed in the field: "Authors: Nanda Rani" was a first author, "Title: BRIDGE"
the title, and a search page's "Authors: ..." paragraph was taken for an abstract (its record
quarantined)."""

from __future__ import annotations

import polars as pl
import pytest
from conftest import parse_text
from hypothesis import given, settings
from hypothesis import strategies as st
from test_formats import author_name, authors_line, clean

from transforms.clean import split_authors

ABSTRACT = "We study the robust training of deep networks under distribution shift and show a simple method works."


def _names(authors_raw: str) -> list[str]:
    return split_authors(pl.DataFrame({"a": [authors_raw]}), "a")["authors"].to_list()[0]


def _listing(title: str, authors: str, abstract: str = ABSTRACT) -> str:
    return f"#01Oct 26, 2026\ncs.LG\n{title}\n{authors}\n{abstract}\n"


@pytest.mark.parametrize("label", ["Authors: ", "Author(s): ", "Author: ", "AUTHORS: ", "authors:", "By ", "by ", "By: ",
                                   "Authors:\u00a0", "作者：", "作者: ", "Autores: ", "Auteurs : ", "Written by: "])
def test_a_label_before_the_authors_is_not_part_of_the_first_name(label):
    records, quarantine = parse_text(_listing("Second Paper Title", label + "Nanda Rani, Kimberly Milner and 9 more"))
    assert quarantine.is_empty(), quarantine.to_dicts()
    assert _names(records["authors_raw"][0]) == ["Nanda Rani", "Kimberly Milner"]


@pytest.mark.parametrize(("authors", "names"), [
    ("By Ann Lee and Bo Chen", ["Ann Lee", "Bo Chen"]),
    ("By Nguyen, Ann Lee", ["By Nguyen", "Ann Lee"]),  # "By" a given name: a one-word name after it
    ("By Nguyen and Ann Lee", ["By Nguyen", "Ann Lee"]),
    ("Byron Lee, Autumn Chen", ["Byron Lee", "Autumn Chen"]),
])
def test_by_is_a_label_only_before_a_name_of_two_words(authors, names):
    assert _names(authors) == names


def test_title_and_abstract_labels_are_left_out():
    text = _listing("Title: BRIDGE: Predicting Human Task Completion Time", "Authors: Fengyuan Liu, Jay Gala",
                    "Abstract: " + ABSTRACT)
    records, quarantine = parse_text(text)
    assert quarantine.is_empty(), quarantine.to_dicts()
    assert records.select("title", "abstract").row(0) == ("BRIDGE: Predicting Human Task Completion Time", ABSTRACT)
    assert _names(records["authors_raw"][0]) == ["Fengyuan Liu", "Jay Gala"]


@pytest.mark.parametrize("title", ["Titles Are Not Labels", "Abstract Algebra for Learning", "Title", "Title Subtitle",
                                   "Title-Level Supervision: A Study"])
def test_a_title_that_opens_with_such_a_word_stays_whole(title):
    records, _ = parse_text(_listing(title, "Ann Lee, Bo Chen", "Abstract interpretation of networks: we show " + ABSTRACT))
    assert records.select("title", "abstract").row(0) == (title, "Abstract interpretation of networks: we show " + ABSTRACT)


# A title's label alone, the other fields not labelled: it stayed in the title ("Title: HiPR: ..."
# won the paper's title over its clean listings, "title" became a topic term; hunt 52, F4). A real
# title "Title: Subtitle: Sub-subtitle" cannot be told from it, and is given up: no real title opens so.
@pytest.mark.parametrize("label", ["Title: ", "TITLE: ", "Title:", "标题：", "Titre : ", "Title - ", "**Title:** "])
def test_a_title_label_alone_is_left_out(label):
    title = "HiPR: Hierarchical Progressive Rendering for Immediate Feedback"
    records, quarantine = parse_text(_listing(label + title, "Ann Lee, Bo Chen"))
    assert quarantine.is_empty(), quarantine.to_dicts()
    assert records["title"][0] == title


@pytest.mark.parametrize("label", ["Authors: ", "作者：", "By "])
def test_a_labelled_authors_paragraph_of_a_search_page_is_read_as_names(label):
    text = f"论文检索\n\nTheory · Learning Theory\n\n{label}Andrei Lupu, Chris Lu, Jarek Liesen\n\n{ABSTRACT}\n"
    records, quarantine = parse_text(text)
    assert quarantine.is_empty(), quarantine.to_dicts()
    assert _names(records["authors_raw"][0]) == ["Andrei Lupu", "Chris Lu", "Jarek Liesen"]
    assert records["abstract"][0] == ABSTRACT


_LABELS = ["Authors: ", "Author(s): ", "authors:", "By: ", "作者：", "Autores: ", "AUTHORS : "]


@settings(max_examples=40)  # each example splits a batch of lines (a split per line cost ~0.3 s)
@given(st.lists(st.tuples(st.lists(author_name(), min_size=1, max_size=6), st.sampled_from(_LABELS)), min_size=1, max_size=20))
def test_any_authors_line_reads_the_same_with_a_label_before_it(cases):
    lines = [clean([authors_line(names, 3, "and")])[0] for names, _ in cases]
    labelled = [label + line for line, (_, label) in zip(lines, cases)]
    split = split_authors(pl.DataFrame({"a": lines + labelled}), "a")["authors"].to_list()
    assert split[len(lines):] == split[:len(lines)]


# Labels in other languages and as pages decorate them: each stayed in its field ("标题：Robust
# Graph Learning" the title, "Résumé : We study" the abstract, "**Authors:** Ann Lee" a first
# author "Authors: Ann Lee", "Abstract—We" as IEEE papers print it).
@pytest.mark.parametrize(("title_label", "authors_label", "abstract_label"), [
    ("标题：", "作者：", "摘要："),
    ("Titre : ", "Auteurs : ", "Résumé : "),
    ("Titel: ", "Autoren: ", "Zusammenfassung: "),
    ("Título: ", "Autores: ", "Resumen: "),
    ("タイトル：", "著者：", "概要："),
    ("**Title:** ", "**Authors:** ", "**Abstract:** "),
    ("__Title__: ", "__Authors__: ", "__Abstract__: "),
    ("[Title] ", "[Authors] ", "[Abstract] "),
    ("【Title】", "【Authors】", "【Abstract】"),
    ("Title — ", "Authors - ", "Abstract—"),
    ("", "Авторы: ", "Аннотация: "),
    ("", "", "Abstract. "),
    ("", "", "Summary: "),
    ("", "", "TL;DR: "),
    ("", "", "ABSTRACT "),  # a PDF's heading, capitals and no colon (hunt 52: it stayed in the abstract)
    ("", "", "ABSTRACT\u00a0"),
])
def test_labels_in_other_languages_and_decorations_are_left_out(title_label, authors_label, abstract_label):
    title = "Robust Graph Learning: Bounds and Benchmarks"
    records, quarantine = parse_text(_listing(title_label + title, authors_label + "Ann Lee, Bo Chen", abstract_label + ABSTRACT))
    assert quarantine.is_empty(), quarantine.to_dicts()
    assert records.select("title", "abstract").row(0) == (title, ABSTRACT)
    assert _names(records["authors_raw"][0]) == ["Ann Lee", "Bo Chen"]


@pytest.mark.parametrize("abstract", ["Summary statistics: we show " + ABSTRACT, "Summary-statistics based inference. " + ABSTRACT,
                                      "Abstraction layers help. " + ABSTRACT, "Resume training from checkpoints. " + ABSTRACT,
                                      "Abstract reasoning is hard. " + ABSTRACT, "ABSTRACT MEANING REPRESENTATION parsing. " + ABSTRACT])
def test_an_abstract_opening_with_a_label_word_but_no_label_stays_whole(abstract):
    records, _ = parse_text(_listing("A Title", "Ann Lee, Bo Chen", abstract))
    assert records["abstract"][0] == abstract


def test_a_search_page_abstract_loses_its_capital_abstract_heading():
    records, quarantine = parse_text(f"论文检索\n\nTheory · Learning Theory\n\nAnn Lee, Bo Chen\n\nABSTRACT {ABSTRACT}\n")
    assert quarantine.is_empty(), quarantine.to_dicts()
    assert records["abstract"][0] == ABSTRACT
