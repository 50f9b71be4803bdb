"""Every shown author keeps its place in bridge_paper_author (GUIDE §3: one row per shown author
position), whatever the name (a hunt's find: a rare name shown twice on one list, real in ICML
2025 and ICLR 2024 lists, lost its later place while n_authors_shown and author_count kept it; a
common one kept both). A person holds one place of a list: the same name twice on one list is two
persons, rare or common, fresh or incremental, through edits and through a name's change of
class; a warehouse an older release wrote gets its lost places back."""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flows.load import run_checks
from tests.test_persons_warehouse import _listing, _made_up, fresh_load, persons, write
from transforms.ids import with_stable_ids
from transforms.persons import assign_persons

# Real author lists that show one name twice (../shared/realdata: ICML 2025, ICLR 2024 and arXiv
# listings); the abstracts are made up.
REPEATS = {
    "rare, far apart (ICML)": (
        "cs.LG", "Interpolating Neural Network-Tensor Decomposition (INN-TD): a scalable and interpretable approach "
        "for large-scale physics-based problems",
        ["Jiachen Guo", "Xiaoyu Xie", "Chanwook Park", "Hantao Zhang", "Matthew Politis", "Gino Domel", "Jiachen Guo"],
        "A tensor decomposition interpolates neural networks for physics problems at large scale and stays "
        "interpretable, with errors below one percent on three benchmark problems."),
    "rare, side by side (ICML)": (
        "cs.CR", "GaussMarker: Robust Dual-Domain Watermark for Diffusion Models",
        ["Zhicong Huang", "Zhicong Huang", "Xinwen Hou", "Cheng Hong"],
        "We watermark images from diffusion models in the spatial and the frequency domain at once, so the mark "
        "survives cropping, compression and regeneration attacks."),
    "one name in two cases (ICLR)": (
        "cs.CV", "Neural SDF Flow for 3D Reconstruction of Dynamic Scenes",
        ["wei mao", "Richard Hartley", "Mathieu Salzmann", "Wei Mao"],
        "We reconstruct dynamic scenes from multi-view video by estimating the flow of a signed distance field, "
        "which relates the change of the surface to the scene flow of its points."),
    "common (arXiv)": (
        "cs.AI", "Generative Retrieval via Diffusion Transformer with Metric-Oriented Identifiers",
        ["Chenghao Liu", "Yu Zhang", "Zhongtao Jiang", "Kun Xu", "Zhenwei An", "Renzhi Wang", "Zhao Wang",
         "Jiachen Zhang", "Yuxiao Zhang", "Kun Xu", "Songfang Huang"],
        "Generative retrieval decodes document identifiers directly; we decode them with a diffusion transformer "
        "and design identifiers that follow the retrieval metric."),
    "common, last two (arXiv)": (
        "cs.CL", "Detecting RLVR Training Data via Structural Convergence of Reasoning",
        ["Hongbo Zhang", "Yue Yang", "Jianhao Yan", "Guangsheng Bao", "Yue Zhang", "Yue Zhang"],
        "Models trained with verifiable rewards converge to a few reasoning structures on their training prompts, "
        "which lets us tell those prompts apart from unseen ones."),
}


def places(warehouse: Path) -> dict[str, list[tuple]]:
    """Per paper title: n_authors_shown and its bridge rows (position, person, name key), in order."""
    with duckdb.connect(str(warehouse), read_only=True) as con:
        rows = con.execute(
            "SELECT p.title, p.n_authors_shown, list((b.author_position, b.author_id, a.name_key) "
            "ORDER BY b.author_position) FROM dim_paper p LEFT JOIN bridge_paper_author b USING (paper_id) "
            "LEFT JOIN dim_author a USING (author_id) GROUP BY ALL").fetchall()
    return {title: (shown, [tuple(r.values()) if isinstance(r, dict) else tuple(r) for r in bridge])
            for title, shown, bridge in rows}


def assert_every_place_kept(warehouse: Path) -> None:
    """Each paper's bridge rows are its shown places 1..n, no person at two of them; every
    person's paper count is its papers; the blocking checks pass."""
    for title, (shown, bridge) in places(warehouse).items():
        assert [pos for pos, _, _ in bridge] == list(range(1, shown + 1)), title
        assert len({author for _, author, _ in bridge}) == shown, title
    with duckdb.connect(str(warehouse)) as con:
        miscounted = con.execute("SELECT count(*) FROM dim_author a JOIN (SELECT author_id, count(DISTINCT paper_id) AS n "
                                 "FROM bridge_paper_author GROUP BY ALL) b USING (author_id) WHERE a.n_papers <> b.n").fetchall()
        assert miscounted == [(0,)]
        con.execute(f"CREATE OR REPLACE TEMP MACRO stable_id(k) AS {__import__('transforms.ids').ids.ID_SQL.format('k')}")
        assert {k: v for k, v in run_checks(con).items() if v} == {}


def decisions(warehouse: Path) -> list[tuple]:
    with duckdb.connect(str(warehouse), read_only=True) as con:
        return con.execute("SELECT p.title, m.author_position, m.author_id, m.rule FROM author_mention m "
                           "JOIN dim_paper p USING (paper_id) ORDER BY ALL").fetchall()


def test_a_name_shown_twice_on_a_list_keeps_both_places(run_ingest, tmp_path):
    """Rare or common, side by side or far apart, in one case or two: each place is a person."""
    write(tmp_path / "day", "2026-06-27.txt", _listing("Jun 27, 2026", list(REPEATS.values())))
    run_ingest([tmp_path / "day"], tmp_path / "w.duckdb")
    assert_every_place_kept(tmp_path / "w.duckdb")
    got = places(tmp_path / "w.duckdb")
    for _, title, names, _ in REPEATS.values():
        assert got[title][0] == len(names)


def test_a_rare_name_shown_twice_is_one_author_in_the_marts(run_ingest, tmp_path):
    """The later place's person keeps the bridge row, but the marts count the name's person once: no
    namesake of itself, no co-author pair with itself, no second top-authors row (a hunt's find:
    "Erzhen Hu" listed twice was "2 people named Erzhen Hu", each the other's co-author)."""
    write(tmp_path / "day", "2026-06-27.txt", _listing("Jun 27, 2026", [REPEATS["rare, far apart (ICML)"],
                                                                        REPEATS["rare, side by side (ICML)"]]))
    run_ingest([tmp_path / "day"], tmp_path / "w.duckdb")
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        def one(sql: str) -> list[tuple]:
            return con.execute(sql).fetchall()
        assert one("SELECT count(*) FROM dim_author WHERE name_key IN ('jiachen guo', 'zhicong huang')") == [(4,)]
        assert one("SELECT name_key FROM marts.namesakes") == []
        assert one("SELECT count(*) FROM marts.coauthor_pairs WHERE name_a = name_b") == [(0,)]
        assert one("SELECT count(*) FROM marts.author_collaborators WHERE name = collaborator_name") == [(0,)]
        assert one("SELECT name, n_persons_of_name, label, n_coauthors FROM marts.top_authors "
                   "WHERE name IN ('Jiachen Guo', 'Zhicong Huang') ORDER BY 1") == [
            ("Jiachen Guo", 1, "Jiachen Guo", 5), ("Zhicong Huang", 1, "Zhicong Huang", 2)]
        assert one("SELECT count(*) FROM marts.author_productivity_month WHERE name IN ('Jiachen Guo', 'Zhicong Huang')") == [(2,)]


# The ICML list as a listing shows it ("and 4 more": three names), then whole on a search page: the
# later place of "Jiachen Guo" arrives in a later run, on a paper already stored.
INNTD = REPEATS["rare, far apart (ICML)"]
SHORT = _listing("Jul 14, 2026", [(INNTD[0], INNTD[1], INNTD[2][:3], INNTD[3])]).replace(
    "Chanwook Park\n", "Chanwook Park and 4 more\n")
WHOLE = "论文检索\n\nApplications · Physics\n\n" + ", ".join(INNTD[2]) + "\n\n" + INNTD[3] + "\n"
# and a later paper of the same Jiachen Guo: the name's person, not the repeat one
LATER = _listing("Jul 20, 2026", [("cs.LG", "Tensor Decomposition Solvers for Additive Manufacturing Simulation",
                                   ["Jiachen Guo", "Wing Kam Liu"],
                                   "We solve the heat equation of metal additive manufacturing with a space-time "
                                   "tensor decomposition and reach part scale on one GPU.")])


TEXTS = {"short.txt": SHORT, "whole.txt": WHOLE, "later.txt": LATER}


@pytest.fixture(scope="module")
def fresh_texts(run_ingest, tmp_path_factory) -> Path:
    """TEXTS in one run into a fresh warehouse: what every order of loading them must give."""
    return fresh_load(run_ingest, tmp_path_factory.mktemp("fresh_texts"), TEXTS)


@pytest.mark.parametrize("order", [["short.txt", "whole.txt", "later.txt"], ["later.txt", "whole.txt", "short.txt"]])
def test_a_repeat_shown_in_a_later_run_gives_the_persons_of_a_fresh_load(run_ingest, fresh_texts, tmp_path, order):
    for name in order:
        write(tmp_path / "land", name, TEXTS[name])
        run_ingest([tmp_path / "land"], tmp_path / "incremental.duckdb")
    assert_every_place_kept(tmp_path / "incremental.duckdb")
    incremental, fresh = persons(tmp_path / "incremental.duckdb"), persons(fresh_texts)
    assert incremental == fresh
    assert sorted(len(papers) for _, papers in fresh["jiachen guo"]) == [1, 2]  # the later paper: the name's person
    assert decisions(tmp_path / "incremental.duckdb") == decisions(fresh_texts)


# An edited file moves the name onto the first place, or off it: the stored decision of the place
# that did not change is the other kind now (the name's person <-> a person of its own).
BEFORE_EDIT = ["Hantao Zhang", "Xiaoyu Xie", "Jiachen Guo"]
AFTER_EDIT = ["Jiachen Guo", "Xiaoyu Xie", "Jiachen Guo"]


@pytest.mark.parametrize("lists", [(BEFORE_EDIT, AFTER_EDIT), (AFTER_EDIT, BEFORE_EDIT)], ids=["onto", "off"])
def test_an_edit_that_moves_a_repeat_gives_the_persons_of_a_fresh_load(run_ingest, tmp_path, lists):
    def day(names):
        return _listing("Jul 14, 2026", [(INNTD[0], INNTD[1], names, INNTD[3])])

    write(tmp_path / "land", "day.txt", day(lists[0]))
    write(tmp_path / "land", "later.txt", LATER)
    run_ingest([tmp_path / "land"], tmp_path / "incremental.duckdb")
    write(tmp_path / "land", "day.txt", day(lists[1]))
    run_ingest([tmp_path / "land"], tmp_path / "incremental.duckdb")
    run_ingest([tmp_path / "land"], tmp_path / "fresh.duckdb")
    assert_every_place_kept(tmp_path / "incremental.duckdb")
    assert persons(tmp_path / "incremental.duckdb") == persons(tmp_path / "fresh.duckdb")
    assert decisions(tmp_path / "incremental.duckdb") == decisions(tmp_path / "fresh.duckdb")


def _twice(name: str) -> list[tuple]:
    return [("physics.chem-ph", "Solvent Effects on Proton Transfer in Enzymes", [name, "Ada Lindqvist", name],
             "We compute free energy profiles of proton transfer in three enzymes with explicit solvent and show that "
             "solvent reorganisation accounts for most of the barrier."),
            ("math.GT", "Knot Floer Homology of Twisted Torus Knots", ["Bruno Vasquez-Ortega", name],
             "We determine the knot Floer homology of an infinite family of twisted torus knots and deduce their "
             "genera and fiberedness.")]


def test_a_repeated_rare_name_that_turns_common_keeps_its_places(run_ingest, tmp_path):
    """A small first load: Zorblax Quintaro is rare, shown twice on one list (two persons). A crowd of
    Zorblaxes and Quintaros makes it common: decided again on evidence, as a fresh load decides."""
    write(tmp_path / "land", "day1.txt", _listing("Mar 2, 2027", _twice("Zorblax Quintaro")))
    run_ingest([tmp_path / "land"], tmp_path / "incremental.duckdb")
    assert_every_place_kept(tmp_path / "incremental.duckdb")
    crowd = [("cs.LG", f"Benchmark Study {_made_up(i, 'ev')} of Sparse Models",
              [f"Zorblax {_made_up(10 * i + j, 'ev')}" for j in range(5)]
              + [f"{_made_up(10 * i + j, 'ev')}a Quintaro" for j in range(5)],
              f"Study {_made_up(i, 'ev')} measures how sparse models behave on benchmark suite "
              f"{_made_up(i, 'ev')} and reports variance.") for i in range(60)]
    write(tmp_path / "land", "day2.txt", _listing("Mar 3, 2027", crowd))
    run_ingest([tmp_path / "land"], tmp_path / "incremental.duckdb")
    run_ingest([tmp_path / "land"], tmp_path / "fresh.duckdb")
    assert_every_place_kept(tmp_path / "incremental.duckdb")
    assert persons(tmp_path / "incremental.duckdb") == persons(tmp_path / "fresh.duckdb")


def test_a_repeated_common_name_that_turns_rare_keeps_its_places(run_ingest, tmp_path):
    """Zorblax Quintaro is common in a first load (16 Zorblaxes, 16 Quintaros): the model's
    cannot-link makes its second place another person. 400 unrelated names make it rare: decided
    again by the rare rule, whose later place is a person of its own, as a fresh load decides."""
    zorblaxes = [f"Zorblax {_made_up(j, 'ov')}" for j in range(16)]
    quintaros = [f"{_made_up(j, 'ix')} Quintaro" for j in range(16)]
    write(tmp_path / "land", "day1.txt", _listing("Mar 2, 2027", [
        *_twice("Zorblax Quintaro"),
        *[("cs.LG", f"Sparse Model Study {_made_up(i, 'um')}", (zorblaxes + quintaros)[8 * i:8 * i + 8],
           f"Study {_made_up(i, 'um')} measures how sparse models behave on a benchmark suite and reports variance.")
          for i in range(4)]]))
    run_ingest([tmp_path / "land"], tmp_path / "incremental.duckdb")
    assert_every_place_kept(tmp_path / "incremental.duckdb")
    strangers = [f"{_made_up(i, 'ana')} {_made_up(i, 'ski')}" for i in range(400)]
    write(tmp_path / "land", "day2.txt", _listing("Mar 3, 2027", [
        ("cs.CL", f"Parsing Study {_made_up(i, 'ot')}", strangers[10 * i:10 * i + 10],
         f"Study {_made_up(i, 'ot')} parses a treebank of a low-resource language and reports attachment scores.")
        for i in range(40)]))
    run_ingest([tmp_path / "land"], tmp_path / "incremental.duckdb")
    run_ingest([tmp_path / "land"], tmp_path / "fresh.duckdb")
    assert_every_place_kept(tmp_path / "incremental.duckdb")
    incremental, fresh = persons(tmp_path / "incremental.duckdb"), persons(tmp_path / "fresh.duckdb")
    assert incremental == fresh
    assert sorted(len(papers) for _, papers in fresh["zorblax quintaro"]) == [1, 2]  # rare: one person, and the repeat
    assert decisions(tmp_path / "incremental.duckdb") == decisions(tmp_path / "fresh.duckdb")


def test_a_warehouse_that_lost_a_place_gets_it_back(run_ingest, tmp_path):
    """What the previous release wrote: the later place of a rare name decided into the name's
    person, no bridge row for it, no is_repeat column. The next run (another day's file) decides
    those places again: the warehouse is then what a fresh load of the same files gives."""
    write(tmp_path / "land", "day1.txt", _listing("Jun 27, 2026", list(REPEATS.values())))
    warehouse = tmp_path / "old.duckdb"
    run_ingest([tmp_path / "land"], warehouse)
    with duckdb.connect(str(warehouse)) as con:
        con.execute("""
            CREATE TEMP TABLE repeats AS SELECT m.paper_id, m.author_position, m.author_id, p.author_id AS main_id
            FROM author_mention m JOIN author_person p ON p.name_key = m.name_key AND p.first_of_name
            WHERE m.rule = 'repeat_name';
            UPDATE author_mention SET author_id = r.main_id, decided_id = r.main_id, rule = 'rare_name' FROM repeats r
            WHERE author_mention.paper_id = r.paper_id AND author_mention.author_position = r.author_position;
            DELETE FROM bridge_paper_author WHERE (paper_id, author_position) IN (SELECT (paper_id, author_position) FROM repeats);
            DELETE FROM dim_author WHERE author_id IN (SELECT author_id FROM repeats);
            DELETE FROM author_person WHERE author_id IN (SELECT author_id FROM repeats);
            ALTER TABLE author_person DROP COLUMN is_repeat;""")
        assert con.execute("SELECT count(*) FROM repeats").fetchall() == [(3,)]  # the rare ones lost a place
    write(tmp_path / "land", "day2.txt", LATER)
    run_ingest([tmp_path / "land"], warehouse)
    run_ingest([tmp_path / "land"], tmp_path / "fresh.duckdb")
    assert_every_place_kept(warehouse)
    assert persons(warehouse) == persons(tmp_path / "fresh.duckdb")
    assert decisions(warehouse) == decisions(tmp_path / "fresh.duckdb")


# ----------------------------------------------------------------------------- the rule, on frames
RARE_NAMES = [f"{_made_up(i, 'ula')} {_made_up(i, 'vesk')}" for i in range(6)]  # made up: rare


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.sampled_from(RARE_NAMES), min_size=1, max_size=6), min_size=1, max_size=6))
def test_a_person_holds_one_place_of_a_list(lists):
    """Whatever names repeat on whatever lists: every place is decided, no person holds two places
    of a list, and each name's first place on a list is the name's one person (stable_id of the
    name), the rare rule's; a later place is a person of its own, founded by that mention."""
    mentions = pl.DataFrame([(paper, pos, name.lower()) for paper, names in enumerate(lists, 1)
                             for pos, name in enumerate(names, 1)],
                            schema={"paper_id": pl.Int64, "author_position": pl.Int32, "name_key": pl.String}, orient="row")
    n = len(lists)
    papers = pl.DataFrame({"paper_id": list(range(1, n + 1)), "title": [None] * n, "abstract": [None] * n,
                           "first_listed_on": [None] * n},
                          schema={"paper_id": pl.Int64, "title": pl.String, "abstract": pl.String, "first_listed_on": pl.Date})
    r = assign_persons(mentions, papers, pl.DataFrame(schema={"paper_id": pl.Int64, "code": pl.String}))
    got = mentions.join(r.assignments.select("paper_id", "author_position", "person_id", "rule"),
                        on=["paper_id", "author_position"], how="left")
    assert got["person_id"].null_count() == 0
    assert got.select(pl.struct("paper_id", "person_id").is_unique().all()).item()
    first = pl.col("author_position") == pl.col("author_position").min().over("paper_id", "name_key")
    want = with_stable_ids(got, {"name_id": ["name_key"], "mention_id": ["name_key", "paper_id", "author_position"]})
    want = want.with_columns(expected=pl.when(first).then("name_id").otherwise("mention_id"),
                             expected_rule=pl.when(first).then(pl.lit("rare_name")).otherwise(pl.lit("repeat_name")))
    assert (want["person_id"] == want["expected"]).all() and (want["rule"] == want["expected_rule"]).all()
    repeats = r.persons.filter("is_repeat")
    assert sorted(repeats["person_id"]) == sorted(want.filter(~first)["person_id"])


# ----------------------------------------------------------------------------- real days, whole lists
def _real_days_whole(folder: Path) -> list[Path]:
    """The real arXiv listings of ../shared/realdata as one listing file per day, every author
    shown (the lists that show a name twice: "Kun Xu", "Bin Wang", "Yue Zhang")."""
    import datetime as dt
    import json

    from eval.keywords import REALDATA

    sources = {"arxiv_daily_listings_dwdengwei.jsonl": ("summary", lambda r: r["categories"][0]),
               "arxiv_daydayarxiv_csAI_listings.jsonl": ("abstract", lambda r: r["primary_category"])}
    if not all((REALDATA / name).is_file() for name in sources):
        pytest.skip("real arXiv listings not found (../shared/realdata)")
    days: dict[str, list[tuple]] = {}
    for name, (abstract, category) in sources.items():
        for line in (REALDATA / name).read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            days.setdefault(r["digest_date"], []).append(
                (category(r), " ".join(r["title"].split()), r["authors"], " ".join(r[abstract].split())))
    paths = []
    for day, records in sorted(days.items()):
        header = dt.date.fromisoformat(day).strftime("%b %d, %Y")
        write(folder, f"{day}.txt", _listing(header, records))
        paths.append(folder / f"{day}.txt")
    return paths


@pytest.mark.slow
def test_real_days_with_whole_lists_give_the_persons_and_names_of_a_fresh_load(run_ingest, tmp_path):
    """Each real day in its own run, then all at once: the same persons, display names and bridge
    rows, and every shown place kept."""
    days = _real_days_whole(tmp_path / "days")
    for day in days:
        run_ingest([day], tmp_path / "incremental.duckdb")
    run_ingest(days, tmp_path / "fresh.duckdb")
    assert_every_place_kept(tmp_path / "incremental.duckdb")
    assert persons(tmp_path / "incremental.duckdb") == persons(tmp_path / "fresh.duckdb")
    tables = []
    for warehouse in ("incremental.duckdb", "fresh.duckdb"):
        with duckdb.connect(str(tmp_path / warehouse), read_only=True) as con:
            tables.append((con.execute("SELECT author_id, name, n_papers FROM dim_author ORDER BY ALL").fetchall(),
                           con.execute("SELECT * FROM bridge_paper_author ORDER BY ALL").fetchall()))
    assert tables[0] == tables[1]
    with duckdb.connect(str(tmp_path / "fresh.duckdb"), read_only=True) as con:  # the real repeats are there
        assert con.execute("SELECT count(*) FROM (SELECT paper_id, name_key FROM author_mention "
                           "GROUP BY ALL HAVING count(*) > 1)").fetchall()[0][0] >= 3
