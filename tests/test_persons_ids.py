"""Person ids through edits and re-decisions, through the real CLI (a hunt's finds): a paper whose
first listing moves later decides its common names again, as a fresh load would (an id stayed on
the wrong namesake); and a person id that stops existing is forwarded by person_alias to the person
now holding its mentions, so an id a user saved still resolves."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb
import pytest

from tests.support.cli import digest_cli
from tests.test_persons_warehouse import (ZORBLAX_CHEMIST_AND_TOPOLOGIST, _listing, _made_up, persons)

EVENTS = ("cs.CV", "Event Cameras for Low-Light Depth Estimation", ["Wei Wang", "Yuki Tanaka"],
          "Event cameras report brightness changes with microsecond latency and a high dynamic range, which makes "
          "them attractive for depth estimation at night. We fuse events with sparse lidar returns through a "
          "recurrent network and halve the depth error of frame-based methods in low light.")
LIOUVILLE = ("math.AP", "Liouville Theorems for Degenerate Parabolic Equations",
             ["Henrik Solberg", "Wei Wang", "Ottoline Fairweather-Quist"],
             "We prove Liouville theorems for ancient solutions of degenerate parabolic equations with bounded "
             "measurable coefficients. The argument rests on a parabolic Harnack chain adapted to the intrinsic "
             "geometry of the equation.")
STEREO = ("cs.CV", "Self-Supervised Stereo from Event Streams", ["Yuki Tanaka", "Wei Wang"],
          "Stereo matching from event streams lacks dense ground truth. We train a stereo network by warping events "
          "between the two cameras and enforcing temporal consistency, and reach the accuracy of supervised methods "
          "on two driving datasets.")
NIGHT = ("cs.CV", "Benchmarks for Depth Completion at Night", ["Ottoline Fairweather-Quist", "Pablo Ibarra"],
         "We release a benchmark of night-time driving scenes with dense depth and evaluate twelve depth completion "
         "methods under low light.")


@pytest.fixture()
def cli(prefect_harness):
    with digest_cli() as run:
        yield run


def ingest(cli, folder: Path, warehouse: Path) -> None:
    result = cli("ingest", folder, "--warehouse", warehouse)
    assert result.exit_code == 0, result.output


def author_ids(warehouse: Path) -> set[int]:
    with duckdb.connect(str(warehouse), read_only=True) as con:
        return {row[0] for row in con.execute("SELECT author_id FROM dim_author").fetchall()}


def unresolved(warehouse: Path, saved: set[int]) -> dict[int, str]:
    """The saved ids that neither name an author now nor are forwarded to one by person_alias."""
    with duckdb.connect(str(warehouse), read_only=True) as con:
        current = {row[0] for row in con.execute("SELECT author_id FROM dim_author").fetchall()}
        forwarded = dict(con.execute("SELECT from_author_id, to_author_id FROM person_alias").fetchall())
    return {i: f"-> {forwarded.get(i)}" for i in saved if i not in current and forwarded.get(i) not in current}


def load_day_by_day(cli, folder: Path, warehouse: Path, days: dict[str, str]) -> set[int]:
    """Each file in its own run, into a growing folder; returns every author id any run showed."""
    folder.mkdir(parents=True, exist_ok=True)
    seen: set[int] = set()
    for name, text in days.items():
        (folder / name).write_text(text, encoding="utf-8")
        ingest(cli, folder, warehouse)
        seen |= author_ids(warehouse)
    return seen


THREE_DAYS = {"2026-02-04.txt": _listing("Feb 04, 2026", [EVENTS, NIGHT]),
              "2026-02-10.txt": _listing("Feb 10, 2026", [LIOUVILLE]),
              "2026-02-11.txt": _listing("Feb 11, 2026", [STEREO])}


@dataclass
class Edited:
    """THREE_DAYS loaded day by day, then one edit loaded into the same warehouse."""
    folder: Path
    incremental: Path
    seen: set[int]  # every author id the runs showed
    pde_before: int  # the PDE Wei Wang's id before the edit


def pde_wei_wang(warehouse: Path) -> int:
    """The id of the Wei Wang of the Liouville paper."""
    with duckdb.connect(str(warehouse), read_only=True) as con:
        return con.execute("SELECT author_id FROM bridge_paper_author JOIN dim_author USING (author_id) "
                           "JOIN dim_paper USING (paper_id) WHERE name_key = 'wei wang' "
                           "AND title LIKE 'Liouville%'").fetchall()[0][0]


def load_and_edit(cli, root: Path, edit: str) -> Edited:
    folder, incremental = root / "land", root / "incremental.duckdb"
    seen = load_day_by_day(cli, folder, incremental, THREE_DAYS)
    pde_before = pde_wei_wang(incremental)
    if edit == "header date corrected":
        (folder / "2026-02-04.txt").write_text(_listing("Mar 01, 2026", [EVENTS, NIGHT]), encoding="utf-8")
    else:
        (folder / "2026-02-04.txt").write_text(_listing("Feb 04, 2026", [NIGHT]), encoding="utf-8")
        (folder / "2026-02-11.txt").write_text(_listing("Feb 11, 2026", [STEREO, EVENTS]), encoding="utf-8")
    ingest(cli, folder, incremental)
    return Edited(folder, incremental, seen, pde_before)


@pytest.fixture(scope="module")
def edited(prefect_harness, tmp_path_factory):
    """edited(edit) -> Edited, loaded once per edit for the module: the two tests of the header
    correction read the same four runs (they are not changed after)."""
    done: dict[str, Edited] = {}

    def get(edit: str) -> Edited:
        if edit not in done:
            with digest_cli() as cli:
                done[edit] = load_and_edit(cli, tmp_path_factory.mktemp("edited"), edit)
        return done[edit]

    return get


@pytest.mark.parametrize("edit", ["header date corrected", "record moved to a later day"])
def test_a_paper_listed_later_after_an_edit_gives_the_persons_of_a_fresh_load(edited, cli, tmp_path, edit):
    """The vision Wei Wang founded the name on Feb 04, so holds stable_id("wei wang"). An edit moves
    that paper's first listing later (Mar 01, or Feb 11): a fresh load founds the name with the
    PDE Wei Wang (Feb 10). The incremental warehouse kept the old decision, so the id named the
    vision person there and the PDE person in a fresh load; every id the runs showed resolves."""
    loaded = edited(edit)
    ingest(cli, loaded.folder, tmp_path / "fresh.duckdb")
    incremental, fresh = persons(loaded.incremental), persons(tmp_path / "fresh.duckdb")
    assert incremental == fresh and len(fresh["wei wang"]) == 2
    assert unresolved(loaded.incremental, loaded.seen) == {}


def test_an_id_that_ends_is_forwarded_to_the_person_holding_its_mentions(edited):
    """The header correction above re-decides Wei Wang: the PDE person's further id ends (the name's
    first id is its now), and person_alias says where its mention went, with the reason."""
    loaded = edited("header date corrected")
    pde_now = pde_wei_wang(loaded.incremental)
    with duckdb.connect(str(loaded.incremental), read_only=True) as con:
        alias = con.execute("SELECT to_author_id, name_key, rule, reason FROM person_alias WHERE from_author_id = ?",
                            [loaded.pde_before]).fetchall()
    assert pde_now != loaded.pde_before
    assert alias == [(pde_now, "wei wang", "forwarded", "name decided again")]


def test_a_person_that_ends_when_its_name_turns_rare_is_forwarded(cli, tmp_path):
    """A chemist and a topologist wearing a common Zorblax Quintaro are two persons; a later load of
    400 unrelated names makes the name rare: one person, as a fresh load decides, and the
    topologist's id forwards to it (it was dropped without a trace: "zixuan huang" in a hunt)."""
    zorblaxes = [f"Zorblax {_made_up(j, 'ov')}" for j in range(16)]
    quintaros = [f"{_made_up(j, 'ix')} Quintaro" for j in range(16)]
    strangers = [f"{_made_up(i, 'ana')} {_made_up(i, 'ski')}" for i in range(400)]
    days = {
        "day1_arxiv.txt": _listing("Mar 2, 2027", [
            *ZORBLAX_CHEMIST_AND_TOPOLOGIST,
            *[("cs.LG", f"Sparse Model Study {_made_up(i, 'um')}", (zorblaxes + quintaros)[8 * i:8 * i + 8],
               f"Study {_made_up(i, 'um')} measures how sparse models behave on a benchmark suite and reports "
               "variance.") for i in range(4)]]),
        "day2_arxiv.txt": _listing("Mar 3, 2027", [
            ("cs.CL", f"Parsing Study {_made_up(i, 'ot')}", strangers[10 * i:10 * i + 10],
             f"Study {_made_up(i, 'ot')} parses a treebank of a low-resource language and reports attachment "
             "scores.") for i in range(40)]),
    }
    seen = load_day_by_day(cli, tmp_path / "land", tmp_path / "w.duckdb", days)
    assert len(persons(tmp_path / "w.duckdb")["zorblax quintaro"]) == 1
    assert unresolved(tmp_path / "w.duckdb", seen) == {}


def test_older_files_loaded_later_leave_every_id_resolvable(cli, tmp_path):
    """Newest day first: each older day moves Wei Wang's first mention earlier, so the name is decided
    again each run and ids end; each that ends is forwarded."""
    seen = load_day_by_day(cli, tmp_path / "land", tmp_path / "w.duckdb", dict(reversed(THREE_DAYS.items())))
    ingest(cli, tmp_path / "land", tmp_path / "fresh.duckdb")
    assert persons(tmp_path / "w.duckdb") == persons(tmp_path / "fresh.duckdb")
    assert unresolved(tmp_path / "w.duckdb", seen) == {}



# The PDE Wei Wang writes with Yang Liu (a common name: a weak tie); a third paper with Yang Liu reads
# as PDEs, so joins that person while it is filed under math.AP, and not once filed under cs.CV.
GRADIENT = ("math.AP", "Gradient Estimates for Porous Medium Type Equations", ["Wei Wang", "Henrik Solberg", "Yang Liu"],
            "We derive sharp gradient estimates for nonnegative solutions of porous medium type equations in bounded "
            "domains and use them to bound the waiting time of the free boundary.")
FREE_BOUNDARY = ("Regularity of Free Boundaries in Porous Medium Flows", ["Wei Wang", "Yang Liu"],
                 "We prove regularity of the free boundary for degenerate parabolic equations of porous medium type, "
                 "with gradient estimates and a Harnack chain adapted to the intrinsic geometry of the equation.")


def test_a_corrected_category_gives_the_persons_of_a_fresh_load(cli, tmp_path):
    """Wei Wang is two persons (vision, PDEs). A third paper, its one shared co-author a common name,
    joins the PDE person on its category and words. An edited file corrects its category (cs.CV for
    math.AP): its author list is the same, so its mentions were never decided again, where a fresh
    load decides them on the paper as it now reads (Yang Liu: two persons, not one). The same rule
    covers a title or an abstract's opening edited in place (the words the model reads)."""
    title, names, abstract = FREE_BOUNDARY
    days = {"2026-03-02.txt": _listing("Mar 02, 2026", [EVENTS, LIOUVILLE]),
            "2026-03-03.txt": _listing("Mar 03, 2026", [STEREO, GRADIENT]),
            "2026-03-09.txt": _listing("Mar 09, 2026", [("math.AP", title, names, abstract)])}
    seen = load_day_by_day(cli, tmp_path / "land", tmp_path / "incremental.duckdb", days)
    joined = persons(tmp_path / "incremental.duckdb")["wei wang"]
    assert len(joined) == 2 and sorted(len(papers) for _, papers in joined) == [2, 3]
    fixed = ("cs.CV", title, names, abstract)
    (tmp_path / "land" / "2026-03-09.txt").write_text(_listing("Mar 09, 2026", [fixed]), encoding="utf-8")
    ingest(cli, tmp_path / "land", tmp_path / "incremental.duckdb")
    ingest(cli, tmp_path / "land", tmp_path / "fresh.duckdb")
    incremental, fresh = persons(tmp_path / "incremental.duckdb"), persons(tmp_path / "fresh.duckdb")
    assert incremental == fresh
    assert unresolved(tmp_path / "incremental.duckdb", seen) == {}


def test_an_ended_person_is_forwarded_to_whoever_holds_its_own_place_on_the_list():
    """A paper listing two persons of one name ("Wei Wang" 1st and 3rd): the first one's person
    ended, its mention decided again to person 30. Matched by name only, both of the paper's
    "wei wang" mentions were candidates, and the tie went to the lower id, the other person (the
    session's review)."""
    import duckdb

    from flows.load import ensure_schema
    from flows.sql import run_sql_file

    con = duckdb.connect()
    ensure_schema(con)
    con.execute("CREATE TEMP TABLE mentions_taken_back AS SELECT 7::BIGINT AS paper_id, 1 AS author_position, "
                "'wei wang' AS mention_key, 'wei wang' AS name_key, 50::BIGINT AS author_id, 50::BIGINT AS decided_id, "
                "'name decided again' AS reason")
    con.execute("INSERT INTO author_person (author_id, name_key) VALUES (30, 'wei wang'), (20, 'wei wang')")
    con.execute("INSERT INTO author_mention (paper_id, author_position, mention_key, name_key, author_id, decided_id, rule) "
                "VALUES (7, 1, 'wei wang', 'wei wang', 30, 30, 'x'), (7, 3, 'wei wang', 'wei wang', 20, 20, 'x')")
    run_sql_file(con, "resolve/person_forward.sql", {"run_id": "r"})
    assert con.execute("SELECT from_author_id, to_author_id, author_position FROM person_alias").fetchall() == [(50, 30, 1)]
