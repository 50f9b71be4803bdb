"""Author lines as arXiv's own metadata writes them: affiliations in parentheses closing names
("A. Schekochihin (Oxford)", "Arthur Jaffe (1) and Gordon Ritter (1) ((1) Harvard University)")
and TeX accents ("G\\"ahler", "Tom\\'a\\v{s}"). A tenth of the Kaggle snapshot's records carry the
first, a twentieth the second; before, their affiliations loaded as people ("LUTH", "IHEP)") or
the record was quarantined as shifted, and TeX names were other people than their Unicode selves."""

from __future__ import annotations

import re

import polars as pl
import pytest
from conftest import parse_text
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.corpus import default_realdata
from eval.arxiv_author_lines import KAGGLE as KAGGLE_FILE
from eval.arxiv_author_lines import kaggle_records, listing_text, scored, search_text
from transforms.clean import clean_listings, split_authors

KAGGLE = default_realdata() / KAGGLE_FILE


def names(line: str) -> list[str]:
    return split_authors(pl.DataFrame({"a": [line]}), "a")["authors"][0].to_list()


LINES = [
    ("A. A. Schekochihin (Oxford), S. C. Cowley (Culham), W. Dorland (Maryland)",
     ["A. A. Schekochihin", "S. C. Cowley", "W. Dorland"]),
    ("Arthur Jaffe (1) and Gordon Ritter (1) ((1) Harvard University)", ["Arthur Jaffe", "Gordon Ritter"]),
    (("A. S. Mishchenko (1 and 2) and N. Nagaosa (1 and 3) ((1) CREST, Japan Science and Technology Agency, "
      "(2) Russian Research Centre ``Kurchatov Institute'', (3) The University of Tokyo)"), ["A. S. Mishchenko", "N. Nagaosa"]),
    ("G. Worseck (1), C. Fechner (2, 3), L. Wisotzki (1) et al.", ["G. Worseck", "C. Fechner", "L. Wisotzki"]),
    ("Eric Gourgoulhon (LUTH, CNRS / Observatoire de Paris / Univ. Paris 7)", ["Eric Gourgoulhon"]),
    ("Ann Lee (MIT) & Bo Chen (CMU) and 3 more", ["Ann Lee", "Bo Chen"]),
    ("Munos, Rémi (Inria); Valko, Michal (DeepMind)", ["Rémi Munos", "Michal Valko"]),
    ("Xiao Shi (Gary) Zhongren, Ann Lee", ["Xiao Shi (Gary) Zhongren", "Ann Lee"]),  # a nickname inside a name stays
    ("Peter Brommer and Franz G\\\"ahler (Institut f\\\"ur Theoretische und Angewandte Physik, Universit\\\"at Stuttgart)",
     ["Peter Brommer", "Franz Gähler"]),
    ("Rastislav \\v{S}r\\'amek, Bro\\v{n}a Brejov\\'a, Tom\\'a\\v{s} Vina\\v{r}", ["Rastislav Šrámek", "Broňa Brejová", "Tomáš Vinař"]),
    ("Mikkel {\\O}bro, B\\o rge Jensen, Jos\\'e Garc\\'{\\i}a, Paul Erd\\H{o}s, \\c{C}a\\u{g}lar {\\\"{O}}zt\\\"urk",
     ["Mikkel Øbro", "Børge Jensen", "José García", "Paul Erdős", "Çağlar Öztürk"]),
    ("A \\foo B, C. D'Souza", ["A \\foo B", "C. D'Souza"]),
    ("\\TH ora Sigur\\dh ard\\'ottir, \\DJ or\\dj e Mi\\ng", ["Þora Sigurðardóttir", "Đorđe Miŋ"]),  # Icelandic, Serbian  # other commands are not read: nothing is lost
    ("Ann Lee [MIT], Bo Chen (CMU) [1,2] and Cy Dee", ["Ann Lee", "Bo Chen", "Cy Dee"]),  # square brackets too
    ("张三（清华大学）、李四【北京大学】", ["张三", "李四"]),  # full-width brackets, as CJK lines write them
    ("Ann Lee (MIT), Bo Chen (CMU) 等", ["Ann Lee", "Bo Chen"]),
    # affiliation marks as superscripts, as LaTeX sources and web pages write them: before, "3}$"
    # and "b}$" loaded as people and "Bo Chen$^{2" as a name
    ("Ann Lee$^1$, Bo Chen$^{2,3}$, Cy Dee$^{\\dagger}$", ["Ann Lee", "Bo Chen", "Cy Dee"]),
    ("Ann Lee$^{a,b}$ and Bo Chen${}^{c}$ and Cy Dee$_{1}$", ["Ann Lee", "Bo Chen", "Cy Dee"]),
    ("Ann Lee$^\\dagger$, Bo Chen$^*$, Cy Dee$\\ddagger$, Di Eve$^{1,*}$$^{2}$", ["Ann Lee", "Bo Chen", "Cy Dee", "Di Eve"]),
    ("Ann Lee^1, Bo Chen^{2,3}, Cy Dee^a", ["Ann Lee", "Bo Chen", "Cy Dee"]),
    ("Ann Lee ^{1,2}, Bo Chen $^{3}$", ["Ann Lee", "Bo Chen"]),
    ("Ann Lee\\(^{1}\\), Bo Chen\\(\\dagger\\), Cy Dee⁺", ["Ann Lee", "Bo Chen", "Cy Dee"]),  # \\( \\) math, ⁺
    ("Ann Lee\\textsuperscript{1,2}, Bo Chen\\textsuperscript{3}", ["Ann Lee", "Bo Chen"]),
    ("Ann Lee<sup>1,2</sup>, Bo Chen<sup>3</sup> and Cy Dee<SUP>*</SUP>", ["Ann Lee", "Bo Chen", "Cy Dee"]),
    ("Fran\\c{c}ois Gr\\^{e}ve$^{1}$, Ren\\'e L\\^ome", ["François Grêve", "René Lôme"]),  # \\^ is an accent
]


@pytest.mark.parametrize(("line", "expected"), LINES)
def test_affiliations_are_left_out_and_tex_accents_read(line, expected):
    assert names(line) == expected


# Two real abstracts (Kaggle 0704.0001, 0704.0002; CC0), one line each.
ABSTRACTS = [
    "A fully differential calculation in perturbative quantum chromodynamics is presented for the production of "
    "massive photon pairs at hadron colliders.",
    "We describe a new algorithm, the $(k,\\ell)$-pebble game with colors, and use it obtain a characterization of "
    "the family of $(k,\\ell)$-sparse graphs and algorithmic solutions to a family of problems concerning tree "
    "decompositions of graphs.",
]


def search_page_authors(line: str) -> list[str]:
    """The authors a search page loads for a record of `line`, a record after it on the page."""
    from transforms.pipeline import SourceFile, process_batch

    page = f"论文检索\n\n{line}\n\n{ABSTRACTS[0]}\n\nBo Chen, Carl Wu\n\n{ABSTRACTS[1]}\n"
    result = process_batch([SourceFile(1, "page.txt", page.encode())])
    assert result.quarantine.is_empty(), result.quarantine.to_dicts()
    assert result.listings["authors"].to_list()[1:] == [["Bo Chen", "Carl Wu"]]
    return result.listings["authors"].to_list()[0]


@pytest.mark.parametrize(("line", "expected"), [
    # (not a command TeX does not read: a backslash there is an abstract's LaTeX more likely)
    case for case in LINES if "\\foo" not in case[0]])
def test_a_search_page_reads_the_line_as_a_listing_does(line, expected):
    """The search format's names line is read through the listing's cleaning: such a line was
    taken for an abstract there, its record quarantined as "abstract without an authors line"."""
    assert search_page_authors(line) == expected


ACCENTED = {"á": "\\'a", "é": "\\'{e}", "à": "\\`a", "ä": '\\"a', "ö": '\\"{o}', "ñ": "\\~n", "š": "\\v{s}",
            "č": "\\v c", "ç": "\\c{c}", "ő": "\\H{o}", "ą": "\\k{a}", "å": "\\aa{}", "ø": "{\\o}", "ł": "\\l{}",
            "ß": "\\ss{}", "í": "\\'{\\i}", "ğ": "\\u{g}"}
word = st.text(st.sampled_from("abcdefghijklmnoprstuvz" + "".join(ACCENTED)), min_size=2, max_size=8)
name = st.tuples(word, word).map(lambda parts: " ".join(p.capitalize() for p in parts))
affiliation = st.sampled_from(["", " (MIT)", " (1)", " (1, 2)", " (Dept. of Physics, Univ. of X)", " (1) ((1) Lab, City)",
                               "$^1$", "$^{1,2}$", "$^{\\dagger}$", "$^*$", "${}^{a,b}$", "^{2,3}", "\\textsuperscript{1}",
                               "<sup>1,2</sup>", "$^{1}$ (MIT)", "∗", "✉", " ✉", "ᵃ,ᵇ", "¹✉", "\\(^{1}\\)", "⁺"])


@given(st.lists(st.tuples(name, affiliation), min_size=1, max_size=6))
def test_a_names_line_reads_the_same_in_tex_and_with_affiliations(people):
    """Written in Unicode, or with TeX accents and an affiliation after each name, a line gives
    the same names."""
    plain = ", ".join(n for n, _ in people)
    tex = ", ".join(re.sub("|".join(ACCENTED), lambda m: ACCENTED[m[0]], n) + a for n, a in people)
    assert names(tex) == names(plain) == [n for n, _ in people]


@settings(max_examples=60)
@given(st.lists(st.tuples(name, affiliation), min_size=1, max_size=6))
def test_a_search_pages_names_line_reads_the_same_in_tex_and_with_affiliations(people):
    tex = ", ".join(re.sub("|".join(ACCENTED), lambda m: ACCENTED[m[0]], n) + a for n, a in people)
    assert search_page_authors(tex) == [n for n, _ in people]


def _pipeline(text: str) -> tuple[dict[int, list[str]], pl.DataFrame]:
    parsed, quarantine = parse_text(text)
    listings, rejected = clean_listings(parsed, pl.DataFrame({"file_idx": [0], "source_file_id": [1], "format": ["listing"]}))
    assert rejected.is_empty()
    return dict(listings.select("position", "authors").iter_rows()), quarantine


@pytest.mark.skipif(not KAGGLE.is_file(), reason=f"real paper metadata not found at {KAGGLE} (set DIGEST_REALDATA)")
def test_every_kaggle_author_line_gives_its_parsed_authors():
    """The 200 records of the Kaggle snapshot as listings with their raw `authors` line: each one
    loads with the names of `authors_parsed` (`python -m eval.arxiv_author_lines`: before, 174
    right, 18 wrong, 8 quarantined)."""
    records = kaggle_records()
    loaded, _ = _pipeline(listing_text(records))
    assert scored(records, loaded) == {"right": list(range(1, len(records) + 1)), "wrong": [], "quarantined": []}


@pytest.mark.skipif(not KAGGLE.is_file(), reason=f"real paper metadata not found at {KAGGLE} (set DIGEST_REALDATA)")
def test_every_kaggle_author_line_on_a_search_page_gives_its_parsed_authors():
    """The same 200 records on one search page, each its raw line and its abstract: each loads as
    its listing does (`python -m eval.arxiv_author_lines --search`: before, 185 right, 15
    quarantined as abstracts without an authors line, names line and abstract both)."""
    from transforms.pipeline import SourceFile, process_batch

    records = kaggle_records()
    result = process_batch([SourceFile(1, "page.txt", search_text(records).encode())])
    loaded = dict(result.listings.select((pl.col("line_start") - 3) // 4 + 1, "authors").iter_rows())
    assert scored(records, loaded) == {"right": list(range(1, len(records) + 1)), "wrong": [], "quarantined": []}
    assert result.quarantine.is_empty()


@pytest.mark.skipif(not KAGGLE.is_file(), reason=f"real paper metadata not found at {KAGGLE} (set DIGEST_REALDATA)")
def test_hard_wrapped_kaggle_records_load_their_names_or_are_quarantined():
    """The same records hard-wrapped at 72 columns, as e-mail does: a record whose author lines
    hold TeX or affiliations is unwrapped like any other ("Mikkel {\\O}bro" and "Christian
    Krattenthaler (Universit\\"at Wien) and Thomas M\\"uller (Queen\\nMary ...)" were quarantined
    as fields that cannot be told apart); none loads a wrong name (`python -m
    eval.arxiv_author_lines --wrap 72`: before, 170 right, 1 wrong, 29 quarantined)."""
    records = kaggle_records()
    loaded, quarantine = _pipeline(listing_text(records, wrap=72))
    outcome = scored(records, loaded)
    assert not outcome["wrong"] and len(outcome["quarantined"]) == quarantine.height
    assert {"Mikkel Øbro"} <= {name for names in loaded.values() for name in names}
