"""An author-list item that is a whole name on its own is never half of a "Last, First" pair
(hunt 46, finding 1).

Before: "J.P.Hague, N.d'Ambrumenil" (Kaggle 0704.0030 as a digest writes it, "and" as ", ") loaded
as one person "N.d'Ambrumenil J.P.Hague", "A.Smith, B.Jones, C.Brown, D.White" as two."""

from __future__ import annotations

import json

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bench.corpus import default_realdata
from transforms.clean import split_authors

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
