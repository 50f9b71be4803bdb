"""How a names line ends, and what separates its names (hunt 52): a count in other digits ("and ５
more" lost its count, the list complete), a joiner left dangling or decoration after a cut
marker ("…, Axel Laborieux, and", "and 5 more)", "*et al.*", "et al. 2024": each left-over word
was an author), comma look-alikes and unspaced middle dots (the whole list one person)."""

from __future__ import annotations

import json
import os
import re
from functools import cache
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from transforms.clean import split_authors

NAMES = ["Ann Lee", "Bo Chen"]


def split(lines: list[str]) -> list[tuple]:
    df = split_authors(pl.DataFrame({"a": lines}), "a")
    return df.select("authors", "n_authors_shown", "author_total", "is_truncated").rows()


# Five in the digits of other scripts: full-width, Arabic-Indic, Extended Arabic-Indic, Devanagari,
# Bengali, Thai, mathematical bold and monospace, superscript.
FIVES = ["５", "٥", "۵", "५", "৫", "๕", "𝟓", "𝟻", "⁵"]
COUNT_FORMS = ["{names} and {n} more", "{names} (+{n})", "{names}, and {n} others", "{names} [+{n}]", "{names}, +{n} more",
               "{names} and {n} more authors", "{names} 外 {n} 名"]


@pytest.mark.parametrize("five", FIVES)
@pytest.mark.parametrize("form", COUNT_FORMS)
def test_a_count_in_other_digits_is_read(form, five):
    assert split([form.format(names=", ".join(NAMES), n=five)]) == [(NAMES, 2, 7, True)]


@pytest.mark.parametrize("count,value", [("１２", 12), ("٢٥", 25), ("２，９３１", 2931), ("2,９３１", 2931), ("𝟏𝟎", 10)])
def test_a_count_of_several_other_digits_is_read(count, value):
    assert split([f"Ann Lee, Bo Chen and {count} more"]) == [(NAMES, 2, 2 + value, True)]


def test_a_declared_total_in_other_digits_is_read():
    assert split(["Ann Lee, Bo Chen (２０ authors)"]) == [(NAMES, 2, 20, True)]


# A names line cut after its joiner or a small word: a name was lost, the word is none.
@pytest.mark.parametrize("ending", [", and", " and", " AND", ", &", " &", "&", " und", ", et", " et", ", with", ", the",
                                    ", and.", " and,", ", for", " и"])
def test_a_dangling_joiner_is_no_name_and_the_list_is_cut_short(ending):
    assert split(["Ann Lee, Bo Chen" + ending]) == [(NAMES, 2, None, True)]


# Decoration after a cut marker: punctuation, brackets, dots, markdown emphasis, a cited year.
@pytest.mark.parametrize("ending", ["and 5 more …", "and 5 more)", "and 5 more]", "and 5 more...", "and 5 more.)",
                                    "**and 5 more**", "_and 5 more_", "and ⁵ more", "(and 5 more) …"])
def test_a_counted_marker_with_decoration_keeps_its_count(ending):
    assert split([f"Ann Lee, Bo Chen {ending}"]) == [(NAMES, 2, 7, True)]


@pytest.mark.parametrize("ending", ["*et al.*", "_et al._", "**et al.**", ", et al. 2024", "et al. (2024)", "et al., 2019a",
                                    "et al.)", "and others)", "et al. …", "and more", ", and many more", "(et al."])
def test_an_unsaid_marker_with_decoration_cuts_the_list_short(ending):
    assert split([f"Ann Lee, Bo Chen {ending}"]) == [(NAMES, 2, None, True)]


@pytest.mark.parametrize("line,names", [
    ("Ann Lee and Thomas More", ["Ann Lee", "Thomas More"]),  # "more" ends a list in small letters only
    ("Ann Lee, More", ["Ann Lee", "More"]),
    ("Ann Lee, Bo Theand", ["Ann Lee", "Bo Theand"]),
    ("Ann Lee, Bo Chen Ettore", ["Ann Lee", "Bo Chen Ettore"]),
    ("Ann Lee, Hans von und zu Liechtenstein", ["Ann Lee", "Hans von und zu Liechtenstein"]),
    ("Ann Lee, Bo With", ["Ann Lee", "Bo With"]),
    ("Ann Lee, Bo Chen 2024", ["Ann Lee", "Bo Chen 2024"]),  # a year after no marker stays (a DBLP number)
])
def test_names_holding_such_words_stay_whole(line, names):
    assert split([line]) == [(names, len(names), len(names), False)]


@pytest.mark.parametrize("line", ["Pavan Mantripragada·Siddhanth Deshmukh·Eadom Dessalene", "Ann Lee﹐ Bo Chen﹐ Carl Wu",
                                  "Ann Lee﹐Bo Chen﹐Carl Wu", "Ann Lee‚ Bo Chen‚ Carl Wu", "Ann Lee︐ Bo Chen︐ Carl Wu",
                                  "Ann Lee•Bo Chen•Carl Wu", "Ann Lee∙Bo Chen∙Carl Wu", "Ann Lee·Bo Chen, Carl Wu"])
def test_separators_that_look_like_commas_separate_names(line):
    names = [n.strip() for n in re.split("[·﹐‚︐•∙,]", line)]
    assert split([line]) == [(names, len(names), len(names), False)]


@pytest.mark.parametrize("line,names", [
    ("张伟､李娜﹑王芳", ["张伟", "李娜", "王芳"]),
    ("Jean·Pierre Dupont, Ann Lee", ["Jean·Pierre Dupont", "Ann Lee"]),  # a dot inside a name stays
    ("Mairidan·Wushouer, Ann Lee", ["Mairidan·Wushouer", "Ann Lee"]),
    ("约翰·菲茨杰拉德·肯尼迪、张伟", ["约翰·菲茨杰拉德·肯尼迪", "张伟"]),
    ("Hans ‚Hansi‘ Müller, Ann Lee", ["Hans ‚Hansi‘ Müller", "Ann Lee"]),  # a German quote, not a comma
])
def test_lookalikes_inside_names_or_between_cjk_names(line, names):
    assert split([line]) == [(names, len(names), len(names), False)]


# ---------------------------------------------------------------------------- properties, real names
_REALDATA = Path(os.environ.get("DIGEST_REALDATA", Path(__file__).resolve().parents[2] / "shared" / "realdata"))
_LISTINGS = _REALDATA / "arxiv_daydayarxiv_csAI_listings.jsonl"
_NOT_NAME_WORDS = {"and", "und", "et", "al", "more", "others", "other", "etc", "with", "the", "for", "of", "by", "from", "or"}
# Each word capitalised then small letters (a name in capitals may be read surname first: another test's).
_PLAIN_NAME = re.compile(r"[^\W\d_][^\W\d_A-Z]+(?:[ -][^\W\d_][^\W\d_A-Z]+){1,2}")


@cache
def real_names() -> list[str]:
    if not _LISTINGS.exists():
        return []
    names = {a for line in _LISTINGS.open() for a in json.loads(line).get("authors") or []}
    return sorted(n for n in names if _PLAIN_NAME.fullmatch(n) and n[0].isupper()
                  and not set(n.lower().replace("-", " ").split()) & _NOT_NAME_WORDS)


DIGITS = {"ascii": "0123456789", "fullwidth": "０１２３４５６７８９", "arabic": "٠١٢٣٤٥٦٧٨٩", "devanagari": "०१२३४५६७८९",
          "math": "𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗"}


@pytest.mark.skipif(not _LISTINGS.exists(), reason=f"real data absent: {_LISTINGS}")
@settings(max_examples=60, deadline=None)
@given(st.data(), st.integers(1, 8), st.sampled_from(list(DIGITS)), st.integers(0, 120),
       st.sampled_from(["", "", " and {n} more", ", and {n} others", " (+{n})", " and {n} more …", " and {n} more)",
                        " et al.", " *et al.*", ", et al. 2024", ", and", " and", " &", ", et"]))
def test_real_names_and_any_ending_read_back(data, size, script, more, ending):
    people = data.draw(st.lists(st.sampled_from(real_names()), min_size=size, max_size=size, unique=True))
    count = "".join(DIGITS[script][int(d)] for d in str(more))
    line = ", ".join(people) + ending.format(n=count)
    (names, shown, total, cut), = split([line])
    assert names == people, line
    assert shown == len(people)
    counted = "{n}" in ending
    assert cut == bool(ending)
    assert total == (len(people) + more if counted else None if ending else len(people))
    assert not any(set(name.lower().split()) & _NOT_NAME_WORDS for name in names)
