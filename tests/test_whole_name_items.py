"""An author-list item that is a whole name on its own is never half of a "Last, First" pair, and
a given name in capitals before its surname stays where it is (hunt 46, findings 1 and 2).

Before: "J.P.Hague, N.d'Ambrumenil" (Kaggle 0704.0030 as a digest writes it, "and" as ", ") loaded
as one person "N.d'Ambrumenil J.P.Hague", "A.Smith, B.Jones, C.Brown, D.White" as two, "Mausam,
Parag Singla" as one; "QIUHAO Zeng" (ICML 2025) was flipped into "Zeng Qiuhao", another person than
the "Qiuhao Zeng" of ICLR 2024."""

from __future__ import annotations

import csv
import json

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bench.corpus import default_realdata
from transforms.clean import split_authors
from transforms.persons import REFERENCE_PATH

REALDATA = default_realdata()
needs_realdata = pytest.mark.skipif(not (REALDATA / "icml2025_titles_authors_papercopilot.json").is_file(),
                                    reason=f"real paper metadata not found at {REALDATA} (set DIGEST_REALDATA)")


def names(line: str) -> list[str]:
    return split_authors(pl.DataFrame({"a": [line]}), "a")["authors"][0].to_list()


# ---------------------------------------------------------------------------- glued initials
@pytest.mark.parametrize(("line", "expected"), [
    # initials glued to a surname are a whole name (real Kaggle arXiv names)
    ("J.P.Hague, N.d'Ambrumenil", ["J.P.Hague", "N.d'Ambrumenil"]),
    ("A.O.Barvinsky, N.V.Tcherniega", ["A.O.Barvinsky", "N.V.Tcherniega"]),
    ("A.Dellafiore, F. Matera", ["A.Dellafiore", "F. Matera"]),
    ("Y.LeCun, G.Hinton", ["Y.LeCun", "G.Hinton"]),
    ("A.Smith, B.Jones, C.Brown, D.White", ["A.Smith", "B.Jones", "C.Brown", "D.White"]),
    ("Smith, J.-P.Dupont", ["Smith", "J.-P.Dupont"]),
    ("J.P.Hague, N.d'Ambrumenil; A.Smith", ["J.P.Hague", "N.d'Ambrumenil", "A.Smith"]),
    # initials alone still complete a pair
    ("Hague, J.P.", ["J.P. Hague"]),
    ("Dupont, J.-P.", ["J.-P. Dupont"]),
    ("Ivanov, A.Yu.", ["A.Yu. Ivanov"]),
    ("Hague, J.P., d'Ambrumenil, N.", ["J.P. Hague", "N. d'Ambrumenil"]),
    ("Hague, J.P.; d'Ambrumenil, N.", ["J.P. Hague", "N. d'Ambrumenil"]),
])
def test_initials_glued_to_a_surname_are_a_whole_name(line, expected):
    assert names(line) == expected


GLUED_SURNAMES = ["Hague", "d'Ambrumenil", "Barvinsky", "Tcherniega", "Dellafiore", "LeCun", "Hinton", "Smith",
                  "Jones", "O'Brien", "Zheng-Johansson", "van Dam"]
initials = st.lists(st.sampled_from("ABCDGJKNPY"), min_size=1, max_size=3).map(lambda letters: ".".join(letters) + ".")
glued_name = st.builds(lambda first, hyphen, surname: (first.replace(".", ".-", 1) if hyphen else first) + surname,
                       initials, st.booleans(), st.sampled_from(GLUED_SURNAMES))


@given(st.lists(glued_name, min_size=1, max_size=6))
def test_glued_names_joined_by_commas_read_back_as_themselves(people):
    assert names(", ".join(people)) == people
    assert names(" and ".join(people)) == people


@needs_realdata
def test_every_kaggle_author_line_reads_alike_with_commas_for_ands():
    """arXiv's own author strings (Kaggle snapshot), and each with ", " for " and " as a digest
    writes a list: the same names."""
    lines = [" ".join(json.loads(record)["authors"].split())
             for record in (REALDATA / "arxiv_kaggle_oai_snapshot_first200.jsonl").read_text(encoding="utf-8").splitlines()]
    read = split_authors(pl.DataFrame({"arxiv": lines, "digest": [line.replace(" and ", ", ") for line in lines]}), "arxiv")
    with_commas = split_authors(read.select(pl.col("digest").alias("arxiv")), "arxiv")
    differ = [line for line, a, b in zip(lines, read["authors"].to_list(), with_commas["authors"].to_list()) if a != b]
    assert differ == []


# review 46, R6: a pair completed in its own ';' item, or by initials only ("A.Yu", Russian A. Yu.)
# or initials glued to a given name ("J.-Pierre"), is a pair whatever another item looks like
@pytest.mark.parametrize(("line", "expected"), [
    ("Smith, J.; Jones, A.B.; A.Brown", ["J. Smith", "A.B. Jones", "A.Brown"]),
    ("Ivanov, A.Yu; Petrov, B.V.", ["A.Yu Ivanov", "B.V. Petrov"]),
    ("Ivanov, A.Yu", ["A.Yu Ivanov"]),
    ("Zhukov, V.Zh", ["V.Zh Zhukov"]),
    ("Dupont, J.-Pierre", ["J.-Pierre Dupont"]),
    ("Martin, J.-Marie", ["J.-Marie Martin"]),
    ("Müller, H.-Peter; Schmidt, K.", ["H.-Peter Müller", "K. Schmidt"]),
    ("Hague, J.P.; A.Smith, B.Jones", ["J.P. Hague", "A.Smith", "B.Jones"]),
    ("A.Brown; Smith, J.", ["A.Brown", "J. Smith"]),
])
def test_a_pair_in_its_own_semicolon_item_or_of_initials_only_stays_a_pair(line, expected):
    assert names(line) == expected


PAIR_SURNAMES = ["Smith", "Ivanov", "Petrov", "Dupont", "Schmidt", "Hague", "Tcherniega", "van Dam"]
# the given part of a pair: initials, with or without the last period ("A.Yu", "B.V."), or an
# initial glued to a given name ("J.-Pierre")
pair_given = st.one_of(
    initials,
    initials.map(lambda letters: letters.rstrip(".")).filter(lambda given: "." in given),
    st.builds(lambda first, given: first + "-" + given, initials, st.sampled_from(["Pierre", "Marie", "Peter"])),
    st.builds(lambda first, digraph: first + digraph, initials, st.sampled_from(["Yu", "Ya", "Zh", "Kh"])),
)
pair = st.builds(lambda surname, given: (f"{surname}, {given}", f"{given} {surname}"),
                 st.sampled_from(PAIR_SURNAMES), pair_given)


@given(st.lists(st.one_of(pair, glued_name.map(lambda name: (name, name))), min_size=1, max_size=5))
def test_semicolon_items_are_read_each_on_its_own(items):
    """A semicolon list of "Surname, Initials" pairs and glued whole names, in any order: each
    pair one person, each glued name itself."""
    assert names("; ".join(written for written, _ in items)) == [read for _, read in items]


# ---------------------------------------------------------------------------- a one-word item, then a full name
@pytest.mark.parametrize(("line", "expected"), [
    # two authors (Mausam and Parag Singla are real co-authors; ICML 2025's "Cheng, Hadi Amiri" is
    # Jiali Cheng and Hadi Amiri, the given name lost)
    ("Mausam, Parag Singla", ["Mausam", "Parag Singla"]),
    ("Cheng, Hadi Amiri", ["Cheng", "Hadi Amiri"]),
    ("Mansi, Harvineet Singh", ["Mansi", "Harvineet Singh"]),
    ("Martin, J.-P. Dupont", ["Martin", "J.-P. Dupont"]),
    ("Mausam, C.-P. Yuan", ["Mausam", "C.-P. Yuan"]),
    # one person: the second item is given names or initials
    ("Singla, Parag", ["Parag Singla"]),
    ("Oppenheimer, J. Robert", ["J. Robert Oppenheimer"]),
    ("Smith, John Paul", ["John Paul Smith"]),
    ("Garcia, Maria Jose", ["Maria Jose Garcia"]),
    ("Knuth, Donald E.", ["Donald E. Knuth"]),
    ("Smith, Jones", ["Jones Smith"]),  # two single words: the bibliography form (README)
    # real authors (ICLR 2024) written "Surname, Given Middle": two people before ("Tucker", "Aaron David")
    ("Tucker, Aaron David", ["Aaron David Tucker"]),
    ("Koepke, A. Sophia", ["A. Sophia Koepke"]),
    ("Yu, Adams Wei", ["Adams Wei Yu"]),  # "wei" a surname, but less often than "yu"
])
def test_the_second_item_is_an_author_of_its_own_only_when_it_is_a_whole_name(line, expected):
    assert names(line) == expected


# real authors (ICML 2025, ICLR 2024, arXiv) whose surnames the reference knows better as surnames
# than the mononyms (of real authors, or a surname alone: "Cheng")
FULL_NAMES = ["Parag Singla", "Hadi Amiri", "Harvineet Singh", "Fan Xia", "Jean Feng", "Qiuhao Zeng", "Boyu Wang",
              "Jerry Huang", "Peng Lu", "Daniel S. Weld", "Ann Lee", "Gezheng Xu", "Bingheng Li"]
MONONYMS = ["Mausam", "Mansi", "Nilaksh", "Cheng"]


@given(st.lists(st.one_of(glued_name, st.sampled_from(FULL_NAMES)), min_size=1, max_size=6),
       st.lists(st.sampled_from(MONONYMS), max_size=1))
def test_whole_names_joined_by_commas_read_back_as_themselves(people, mononym):
    """Whole names ("J.P.Hague", "Parag Singla"), a one-word author first or not, joined as a
    digest writes them: every name an author, in order."""
    people = mononym + people
    assert names(", ".join(people)) == people
    assert names(" and ".join(people)) == people


def real_lists() -> list[list[str]]:
    """Every real author list that is a list: ICLR 2024 (both sources), arXiv listings, ICML 2025."""
    lists = [record["authors"] for record in json.loads((REALDATA / "iclr2024_virtualsite_topics_airas.json").read_text())]
    for name in ("arxiv_daily_listings_dwdengwei.jsonl", "arxiv_daydayarxiv_csAI_listings.jsonl"):
        lists += [json.loads(line)["authors"] for line in (REALDATA / name).read_text(encoding="utf-8").splitlines()]
    with (REALDATA / "iclr2024_openreview_primary_area_dotd.tsv").open(encoding="utf-8") as f:
        lists += [row[1].split(";") for row in csv.reader(f, delimiter="\t")]
    icml = json.loads((REALDATA / "icml2025_titles_authors_papercopilot.json").read_text())
    return lists + [record["author"].split(", ") for record in icml]


@needs_realdata
def test_real_comma_lists_read_as_many_names_as_they_list():
    """Each real list joined by ", " (the seeds' form) reads as its count of items, those with a
    letter ("Veuns-Team, :, …" is one fewer; "Ryan, S Shin" of a real ICLR list is two)."""
    lines = [", ".join(name.strip() for name in names_ if name.strip()) for names_ in real_lists()]
    counts = split_authors(pl.DataFrame({"a": lines}), "a")["n_authors_shown"].to_list()
    items = [sum(any(c.isalpha() for c in item) for item in line.split(", ")) for line in lines]
    assert [line for line, n, expected in zip(lines, counts, items) if n != expected] == []


def _reference(kind: str, at_least: int = 5, times: int = 3) -> list[str]:
    """Reference parts of four letters or more, worn by `at_least` authors, more than `times` as
    often of `kind` than of the other kind."""
    parts = pl.read_csv(REFERENCE_PATH, skip_rows=1).pivot("kind", index="part", values="n").fill_null(0)
    other = "surname" if kind == "given" else "given"
    return sorted(parts.filter(pl.col("part").str.contains(r"^[a-z]{4,}$") & (pl.col(kind) >= at_least)
                               & (pl.col(kind) > times * pl.col(other)))["part"])


@needs_realdata
def test_real_names_as_a_lone_surname_given_pair_with_a_given_middle_name_are_one_person():
    """Every real name of three words whose middle word the reference knows better as a given
    name, written "Surname, Given Middle" ("Tucker, Aaron David"): one person."""
    names_ = {name.strip() for names_ in real_lists() for name in names_}
    given_middle = set(_reference("given", at_least=1, times=1))
    lines = sorted(f"{words[2]}, {words[0]} {words[1]}" for words in (name.split() for name in names_)
                   if len(words) == 3 and words[1][0].isupper() and words[1].lower() in given_middle)
    counts = split_authors(pl.DataFrame({"a": lines}), "a")["n_authors_shown"].to_list()
    assert len(lines) > 100 and [line for line, n in zip(lines, counts) if n != 1] == []


# ---------------------------------------------------------------------------- a name in capitals first
@pytest.mark.parametrize(("line", "expected"), [
    # real ICML 2025 lists: QIUHAO is the given name ("Qiuhao Zeng" in ICLR 2024)
    ("Jerry Huang, Peng Lu, QIUHAO Zeng", ["Jerry Huang", "Peng Lu", "QIUHAO Zeng"]),
    ("Ruiyi Fang, Bingheng Li, Jingyu Zhao, Ruizhi Pu, QIUHAO Zeng, Gezheng Xu, Charles X. Ling, Boyu Wang",
     ["Ruiyi Fang", "Bingheng Li", "Jingyu Zhao", "Ruizhi Pu", "QIUHAO Zeng", "Gezheng Xu", "Charles X. Ling", "Boyu Wang"]),
    ("Ann Lee, HADI Amiri, DAVID Wang", ["Ann Lee", "HADI Amiri", "DAVID Wang"]),
    # capitals the reference knows as a surname too stay a surname first ("Wei" is both)
    ("Ann Lee, WEI Zhang, MUSTAFA Maryam", ["Ann Lee", "Zhang Wei", "Maryam Mustafa"]),
    # the surname first in capitals, as on OpenReview profiles (real ICLR 2024 and ICML 2025)
    ("WANG Jiaxu, LIN Yong, REN Lianhai", ["Jiaxu Wang", "Yong Lin", "Lianhai Ren"]),
    ("ZENG Qiuhao, ALLGEUER Philipp", ["Qiuhao Zeng", "Philipp Allgeuer"]),
])
def test_a_name_in_capitals_first_is_reordered_only_when_it_is_the_surname(line, expected):
    assert names(line) == expected


KNOWN_GIVEN, KNOWN_SURNAMES = _reference("given"), _reference("surname")


@given(st.sampled_from(KNOWN_GIVEN), st.sampled_from(KNOWN_SURNAMES))
def test_capitals_follow_the_reference_either_way(given_name, surname):
    """"GIVEN Surname" stays as written, "SURNAME Given" is read "Given Surname", whichever
    parts the reference knows as such."""
    given_name, surname = given_name.title(), surname.title()
    assert names(f"Ann Lee, {given_name.upper()} {surname}") == ["Ann Lee", f"{given_name.upper()} {surname}"]
    assert names(f"Ann Lee, {surname.upper()} {given_name}") == ["Ann Lee", f"{given_name} {surname}"]
