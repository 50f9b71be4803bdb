"""A name written with an initial ("X. Li") is as common as every given name the initial opens
(`transforms.persons.given_counts`): counted as itself, the initial "x" was rarer than
"Tongliang", so five people signing "X. Li" in five fields were one person, first in top authors."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
import polars as pl
from hypothesis import given
from hypothesis import strategies as st

from tests.test_persons_warehouse import _listing, assert_as_common_as_counted, watch_commonness, write

# Five people sign "X. Li", each with co-authors and a field of their own; the vision one twice.
PAPERS = [
    ("cs.CV", "Event Cameras for Low-Light Depth Estimation", ["X. Li", "Yuki Tanaka"],
     "We fuse events with sparse lidar returns through a recurrent network and halve the depth error at night."),
    ("cs.CV", "Self-Supervised Stereo from Event Streams", ["Yuki Tanaka", "X. Li"],
     "We train a stereo network by warping events between two cameras and enforcing temporal consistency."),
    ("math.AP", "Liouville Theorems for Degenerate Parabolic Equations", ["Henrik Solberg", "X. Li"],
     "We prove Liouville theorems for ancient solutions of degenerate parabolic equations with rough coefficients."),
    ("q-bio.NC", "Grid Cells Remap in Virtual Corridors", ["X. Li", "Amara Okafor"],
     "Recordings from the entorhinal cortex of mice show that grid cells remap when a corridor is stretched."),
    ("astro-ph.GA", "Bar Formation in Gas-Rich Disc Galaxies", ["Lucia Bianchi", "X. Li"],
     "Simulations of gas-rich discs show that bars form later and weaker when the gas fraction exceeds a half."),
    ("econ.EM", "Inference for Panel Data with Interactive Effects", ["X. Li", "Tomas Berg"],
     "We propose a bootstrap for panel data models with interactive fixed effects that is valid under weak factors."),
]


@given(st.lists(st.sampled_from(["x", "xin", "xiaoyu", "y", "yue", "j", "jean", "é", "élodie", "xx", "и", "иван",
                                  "王", "王伟"]), min_size=1, max_size=30))
def test_an_initial_counts_every_given_name_it_opens(givens):
    """A letter of a cased script is an initial; one CJK character is a name ("王 伟")."""
    from transforms.persons import given_counts

    counts = dict(given_counts(pl.DataFrame({"given": givens})).iter_rows())
    initial = {"x", "y", "j", "é", "и"}
    assert counts == {g: sum(o.startswith(g) for o in givens) if g in initial else givens.count(g) for g in set(givens)}


def test_an_initial_is_as_common_in_sql_as_in_polars():
    """The warehouse's macro reads an initial as Polars does."""
    from flows.sql import connect, read_frame
    from transforms.persons import is_initial

    givens = pl.DataFrame({"given": ["x", "é", "и", "王", "xin", "", "1", "ß"]})
    with connect(Path(":memory:")) as con:
        con.register("givens", givens.to_arrow())
        got = read_frame(con, "SELECT given, is_initial(given) AS initial FROM givens")
    want = givens.with_columns(initial=is_initial(pl.col("given")))
    assert got.sort("given").equals(want.sort("given"))


def test_an_initials_reference_share_is_every_given_name_it_opens():
    from transforms.persons import _reference_counts, reference_shares

    parts, n_keys = _reference_counts()
    given = parts.filter(pl.col("kind") == "given")
    opened = given.filter(pl.col("part").str.starts_with("x"))["n"].sum() / n_keys
    shares = dict(reference_shares()[0].iter_rows())
    assert shares["x"] == pytest.approx(opened, rel=1e-12) and shares["xin"] < opened


def _persons(warehouse: Path) -> list[int]:
    with duckdb.connect(str(warehouse), read_only=True) as con:
        return sorted(n for (n,) in con.execute("SELECT n_papers FROM dim_author WHERE name_key = 'x li'").fetchall())


def test_people_signing_one_initial_and_surname_are_split_on_evidence(run_ingest, tmp_path):
    """Before: one "X. Li" of 6 papers (rule rare_name). Now the vision "X. Li" is one person of
    two papers (a shared co-author), the four others each a person."""
    folder = tmp_path / "land"
    write(folder, "2027-03-02_arxiv.txt", _listing("Mar 2, 2027", PAPERS))
    run_ingest([folder], tmp_path / "w.duckdb")
    assert _persons(tmp_path / "w.duckdb") == [1, 1, 1, 1, 2]


def test_an_initial_is_as_common_in_the_warehouse_as_in_polars(run_ingest, tmp_path, monkeypatch):
    """The warehouse counts the names an initial opens itself (person_name_stats.sql): the same
    commonness as `name_commonness` over the warehouse's names."""
    seen = watch_commonness(monkeypatch)
    folder = tmp_path / "land"
    write(folder, "2027-03-02_arxiv.txt", _listing("Mar 2, 2027", PAPERS[:3]))
    run_ingest([folder], tmp_path / "w.duckdb")
    more = [(cat, f"{title}, Revisited", [name.replace("X. Li", "Xin Li") for name in names] + ["Xiaoyu Li"], text)
            for cat, title, names, text in PAPERS[3:]]
    write(folder, "2027-03-03_arxiv.txt", _listing("Mar 3, 2027", PAPERS[3:] + more))
    run_ingest([folder], tmp_path / "w.duckdb")
    read, population = seen[-1]
    assert "x li" in read["name_key"].to_list()
    assert_as_common_as_counted(read, population)
