"""The person model reads a category's taxonomy and parent as the warehouse holds them
(dim_category: `transforms.categories`), not from the code's shape (issue 13).

A regex once decided both: a lowercase conference area ("meta-learning", "robotics") was read as
an arXiv code, so two namesakes' areas counted as "other arXiv archive" (-2), an area beside its
own sub-area ("meta-learning · few-shot") shared nothing, and a lowercase area beside an arXiv
code counted as another archive too."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import duckdb
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from transforms.categories import ARXIV, CONFERENCE, arxiv_taxonomy, resolve_categories
from transforms.persons import assign_persons

# "wei w*" and "* wang" frequent: "wei wang" is a common name, decided on evidence
KNOWN = pl.Series([f"wei w{i}" for i in range(150)] + [f"g{i} wang" for i in range(150)]
                  + [f"rare{i} person{i}" for i in range(3000)])

# One search page: each pair of papers shares a name and a co-author, in two categories.
SEARCH_PAGE = """论文检索

meta-learning

Wei Wang, Yang Liu

We learn to adapt classifiers across tasks.

reinforcement-learning

Wei Wang, Yang Liu

We study exploration bonuses for sparse rewards.

meta-learning · few-shot

Jun Li, Yuki Tanaka

Few-shot adaptation with priors.

meta-learning

Jun Li, Yuki Tanaka

Learning to learn quickly.

robotics

Hao Chen, Lei Zhang

Grasping with tactile sensing.
"""
# The arXiv side: Hao Chen's robotics paper listed (dated, so decided before the search records);
# Jun Li in two codes of an archive the taxonomy does not know: arXiv's by the listing format, one
# archive "foo" (by the code alone they would be two conference areas).
LISTING = """#01Mar 2, 2027
cs.RO
Tactile Grasp Planning
Hao Chen, Lei Zhang
We plan grasps from tactile maps.
#02Mar 2, 2027
foo.BAR
Sheaf Models of Signal Flow
Min Zhou, Carla Brandt
We model signal flow with sheaves.
#03Mar 2, 2027
foo.BAZ
Sheaf Cohomology of Networks
Min Zhou, Carla Brandt
We compute sheaf cohomology of networks.
"""


def decisions(warehouse: Path) -> dict[str, set[tuple]]:
    """name key -> its mentions' (rule, category_level), for the names decided on evidence (the
    second mention of each is scored against the person of the first)."""
    with duckdb.connect(str(warehouse), read_only=True) as con:
        rows = con.execute("SELECT name_key, rule, category_level FROM author_mention "
                           "WHERE rule NOT IN ('rare_name', 'repeat_name')").fetchall()
    out: dict[str, set[tuple]] = {}
    for key, rule, level in rows:
        out.setdefault(key, set()).add((rule, level))
    return out


def test_lowercase_conference_areas_are_areas_in_person_decisions(run_ingest, tmp_path):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "2027-03-02_arxiv.txt").write_text(LISTING, encoding="utf-8")
    (folder / "search.txt").write_text(SEARCH_PAGE, encoding="utf-8")
    run_ingest([folder], tmp_path / "w.duckdb")
    got = decisions(tmp_path / "w.duckdb")
    # two different conference areas: "other area" (-0.5), not "other arXiv archive" (-2); with
    # a shared co-author that is enough for Wei Wang and Yang Liu to be one person each
    assert got["wei wang"] == got["yang liu"] == {("new_person", None), ("joined", "other_area")}
    # a one-level area and its own sub-area share the area
    assert got["jun li"] == {("new_person", None), ("joined", "parent")}
    # a conference area against an arXiv code: neither same archive nor same area
    assert got["hao chen"] == {("new_person", None), ("joined", "none_known")}
    # two codes of one archive, as the listing format made them arXiv's (not the codes' shape)
    assert got["min zhou"] == {("new_person", None), ("joined", "parent")}


# ----------------------------------------------------------------------------- frames only
def frames(cats: list[str], listed_as: list[str] | None = None):
    """One paper per category, each by "wei wang" and "alice smith" (undated: decided in paper
    order, each scored against the person of the first), and dim_category's rows of the codes as
    a load would write them from the format that listed them (`listed_as`; default: a search
    page)."""
    n = len(cats)
    m = pl.DataFrame({"paper_id": [i for i in range(1, n + 1) for _ in (0, 1)],
                      "author_position": [1, 2] * n, "name_key": ["wei wang", "alice smith"] * n},
                     schema={"paper_id": pl.Int64, "author_position": pl.Int32, "name_key": pl.String})
    p = pl.DataFrame({"paper_id": list(range(1, n + 1)), "title": ["t"] * n, "abstract": [None] * n,
                      "first_listed_on": [None] * n},
                     schema={"paper_id": pl.Int64, "title": pl.String, "abstract": pl.String, "first_listed_on": pl.Date})
    listed_as = listed_as or [CONFERENCE] * n
    dim = resolve_categories(pl.Series(cats, dtype=pl.String), pl.Series(listed_as, dtype=pl.String))
    code_of = dict(zip(zip(dim["listed_code"], dim["listed_taxonomy"]), dim["code"]))
    c = pl.DataFrame({"paper_id": list(range(1, n + 1)), "code": [code_of[x] for x in zip(cats, listed_as)]})
    return m, p, c, dim.select("code", "parent_code", "taxonomy")


def level_of_second(cats, listed_as=None, with_info=True) -> str:
    m, p, c, info = frames(cats, listed_as)
    r = assign_persons(m, p, c, known_name_keys=KNOWN, category_info=info if with_info else None)
    return r.assignments.filter((pl.col("paper_id") == 2) & (pl.col("name_key") == "wei wang"))["category_level"].item()


@pytest.mark.parametrize("cats, level", [
    (["meta-learning", "reinforcement-learning"], "other_area"),  # two lowercase areas
    (["meta-learning", "meta-learning · few-shot"], "parent"),  # an area and its sub-area
    (["Social Aspects", "Social Aspects · Fairness"], "parent"),  # as the regex had it: unchanged
    (["Deep Learning", "Theory"], "other_area"),  # two one-level areas share nothing
    (["robotics", "cs.RO"], "none_known"),  # an area and an arXiv code
    (["hep-ph", "hep-th"], "different"),  # two archives
    (["cs.LG", "cs.CV"], "parent"),
    (["math.IT", "cs.CV"], "parent"),  # an alias: cs.IT, of the archive cs
])
def test_category_level_follows_dim_category(cats, level):
    assert level_of_second(cats) == level
    # without dim_category's rows at hand the model reads a code as a load would read it alone
    assert level_of_second(cats, with_info=False) == level


def test_the_rows_given_are_read_not_the_codes_shape():
    """Codes of an archive the taxonomy does not know are arXiv's when a listing carried them
    (dim_category says so); read alone they would be two conference areas."""
    assert level_of_second(["foo.BAR", "foo.BAZ"], [ARXIV, ARXIV]) == "parent"
    assert level_of_second(["foo.BAR", "foo.BAZ"], [ARXIV, ARXIV], with_info=False) == "other_area"


# ----------------------------------------------------------------------------- property
_known = arxiv_taxonomy()[0]["code"].to_list()
_area_words = ["Deep Learning", "Theory", "Optimization", "meta-learning", "robotics", "Social Aspects"]
_formats = st.sampled_from([ARXIV, CONFERENCE])
# (code, the taxonomy of the format that listed it): codes in a listing or on a search page, areas
# on a search page
_codes = st.one_of(
    st.tuples(st.sampled_from(_known), _formats),  # a code of the taxonomy
    st.tuples(st.sampled_from(_known).map(str.upper), _formats),  # in capitals ("CS.LG", "HEP-TH")
    st.tuples(st.sampled_from(["cs.XY", "math.XY", "foo.XY", "foo.ZZ"]), _formats),  # codes it lacks
    st.tuples(st.sampled_from(_area_words), st.just(CONFERENCE)),  # a one-level area
    st.tuples(st.tuples(st.sampled_from(_area_words), st.sampled_from(["Fairness", "few-shot", "Theory"]))
              .map(" · ".join), st.just(CONFERENCE)),  # an area and its sub-area
)


def expected_level(a: dict, b: dict) -> str:
    """category_level from two dim_category rows: a one-level area (parent_code null) is its own area."""
    if a["code"] == b["code"]:
        return "same"
    if a["taxonomy"] == b["taxonomy"] and (a["parent_code"] or a["code"]) == (b["parent_code"] or b["code"]):
        return "parent"
    if a["taxonomy"] == b["taxonomy"] == ARXIV:
        return "different"
    return "other_area" if a["taxonomy"] == b["taxonomy"] else "none_known"


@settings(max_examples=60, deadline=None)
@given(_codes, _codes)
def test_category_level_is_dim_categorys_for_any_code(first, second):
    """For codes of every shape the loader reads, in either format, the level the model records is
    the one dim_category's rows (taxonomy, parent_code) give."""
    (a, listed_a), (b, listed_b) = first, second
    _, _, c, info = frames([a, b], [listed_a, listed_b])
    rows = dict(zip(info["code"], info.iter_rows(named=True)))
    codes = c["code"].to_list()
    assert level_of_second([a, b], [listed_a, listed_b]) == expected_level(rows[codes[0]], rows[codes[1]])
