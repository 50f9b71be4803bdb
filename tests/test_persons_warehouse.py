"""Persons in the warehouse (issue 13), through the real flow: namesakes split on evidence across
runs with the same persons as a fresh load, every decision stored, and a warehouse built
before persons existed (one author per name key, UNIQUE) upgraded in place without moving an id."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import duckdb
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from flows.load import run_checks
from tests.support import marts as corpus

REPO = Path(__file__).resolve().parent.parent

# Two papers each for two people named Wei Wang (vision with Yuki Tanaka, PDEs with Henrik
# Solberg), and a rare name on papers of both fields: one person whatever the context.
DAY1 = """#01Mar 2, 2027
cs.CV
Event Cameras for Low-Light Depth Estimation
Wei Wang, Yuki Tanaka
Event cameras report brightness changes with microsecond latency and a high dynamic range, which makes them attractive for depth estimation at night. We fuse events with sparse lidar returns through a recurrent network and halve the depth error of frame-based methods in low light.
#02Mar 2, 2027
math.AP
Liouville Theorems for Degenerate Parabolic Equations
Henrik Solberg, Wei Wang, Ottoline Fairweather-Quist
We prove Liouville theorems for ancient solutions of degenerate parabolic equations with bounded measurable coefficients. The argument rests on a parabolic Harnack chain adapted to the intrinsic geometry of the equation.
"""
DAY2 = """#01Mar 3, 2027
cs.CV
Self-Supervised Stereo from Event Streams
Yuki Tanaka, Wei Wang
Stereo matching from event streams lacks dense ground truth. We train a stereo network by warping events between the two cameras and enforcing temporal consistency, and reach the accuracy of supervised methods on two driving datasets.
#02Mar 3, 2027
math.AP
Gradient Estimates for Porous Medium Type Equations
Wei Wang, Henrik Solberg
We derive sharp gradient estimates for nonnegative solutions of porous medium type equations in bounded domains and use them to bound the waiting time of the free boundary.
#03Mar 3, 2027
cs.CV
Benchmarks for Depth Completion at Night
Ottoline Fairweather-Quist, Pablo Ibarra
We release a benchmark of night-time driving scenes with dense depth and evaluate twelve depth completion methods under low light.
"""


def persons(warehouse: Path) -> dict[str, list[tuple]]:
    with duckdb.connect(str(warehouse), read_only=True) as con:
        unmarked = con.execute("SELECT count(*) FROM (SELECT name_key FROM author_person GROUP BY name_key "
                               "HAVING count(*) FILTER (first_of_name) != 1)").fetchall()[0][0]
        assert unmarked == 0  # name statistics count names by their one marked row
        rows = con.execute("SELECT a.name_key, a.author_id, list(b.paper_id ORDER BY b.paper_id) FROM dim_author a "
                           "JOIN bridge_paper_author b USING (author_id) GROUP BY ALL ORDER BY ALL").fetchall()
    out: dict[str, list[tuple]] = {}
    for key, author_id, papers in rows:
        out.setdefault(key, []).append((author_id, tuple(papers)))
    return out


def write(folder: Path, name: str, text: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")


def fresh_load(run_ingest, folder: Path, texts: dict[str, str]) -> Path:
    """`texts` (file name -> text) in one run into a fresh warehouse in `folder`: what any order of
    loading them must give."""
    land = folder / "land"
    for name, text in texts.items():
        write(land, name, text)
    run_ingest([land], folder / "fresh.duckdb")
    return folder / "fresh.duckdb"


@pytest.fixture(scope="module")
def fresh_two_days(run_ingest, tmp_path_factory) -> Path:
    """DAY1 and DAY2 loaded in one run into a fresh warehouse (the two tests below compare with it)."""
    daily = tmp_path_factory.mktemp("fresh_two_days") / "daily"
    write(daily, "2027-03-02_arxiv.txt", DAY1)
    write(daily, "2027-03-03_arxiv.txt", DAY2)
    run_ingest([daily], daily.parent / "fresh.duckdb")
    return daily.parent / "fresh.duckdb"


def test_namesakes_are_split_the_same_way_fresh_and_incremental(run_ingest, fresh_two_days, tmp_path):
    daily = tmp_path / "daily"
    write(daily, "2027-03-02_arxiv.txt", DAY1)
    run_ingest([daily], tmp_path / "incremental.duckdb")
    write(daily, "2027-03-03_arxiv.txt", DAY2)
    run_ingest([daily], tmp_path / "incremental.duckdb")
    incremental, fresh = persons(tmp_path / "incremental.duckdb"), persons(fresh_two_days)
    assert incremental == fresh
    wei = incremental["wei wang"]
    assert len(wei) == 2 and sorted(len(papers) for _, papers in wei) == [2, 2]
    assert len(incremental["ottoline fairweather quist"]) == 1  # rare: one person across fields
    with duckdb.connect(str(tmp_path / "incremental.duckdb"), read_only=True) as con:
        decided = con.execute("SELECT rule, count(*) FROM author_mention WHERE name_key = 'wei wang' "
                              "GROUP BY ALL ORDER BY ALL").fetchall()
        assert decided == [("joined", 2), ("new_person", 2)]
        shown = con.execute("SELECT n_persons, top_categories FROM marts.namesakes ORDER BY top_categories").fetchall()
        assert shown == [(2, "cs.CV"), (2, "math.AP")]


def test_older_files_loaded_later_give_the_persons_of_a_fresh_load(run_ingest, fresh_two_days, tmp_path):
    """The later day first, then the earlier one: its mentions of the common name come before the
    stored ones in the canonical order, so the name is decided again (person_reopen.sql) and its
    persons, ids included (a further person's id hashes its founding mention), are a fresh load's."""
    later, earlier = tmp_path / "later", tmp_path / "earlier"
    write(later, "2027-03-03_arxiv.txt", DAY2)
    write(earlier, "2027-03-02_arxiv.txt", DAY1)
    run_ingest([later], tmp_path / "incremental.duckdb")
    run_ingest([earlier], tmp_path / "incremental.duckdb")
    incremental, fresh = persons(tmp_path / "incremental.duckdb"), persons(fresh_two_days)
    assert incremental == fresh and len(fresh["wei wang"]) == 2


VERIFY = ("Large language models generate promising reasoning paths but remain weak at verifying them. We train one "
          "model to generate and to verify its own solutions, and the verifier improves the generator in turn.")
BUDGET = ("Reinforcement learning with verifiable rewards improves reasoning, but group policy optimisation spends "
          "the same budget on every prompt. We allocate rollouts by the capability of the model on each prompt.")
TEAM = ["Qi Gu", "Hui Su", "Xunliang Cai"]


def test_co_authors_shown_later_give_the_persons_of_a_fresh_load(run_ingest, tmp_path):
    """A listing shows three names "and 9 more"; a later run's search page shows ten, among them
    the co-authors the common name shares with its other paper. The stored decision at the
    unchanged position was never taken again (two persons), a fresh load joins them (one)."""
    first, later = tmp_path / "first", tmp_path / "later"
    write(first, "2026-02-04.txt", _listing("Feb 04, 2026", [("cs.LG", "Budgets for Reinforcement Learning",
                                                              ["Zhiyuan Yao", "Wei Wang", *TEAM], BUDGET)]))
    write(first, "2026-02-10.txt", _listing("Feb 10, 2026", [("cs.CL", "Learning to Self-Verify",
                                                              ["Wei Wang", "Ziang Ye", "Yaorui Shi and 9 more"], VERIFY)]))
    shown = ", ".join(["Wei Wang", "Ziang Ye", "Yaorui Shi", "Zhengzhou Cai", "Lin Xu", "Jie Fu", *TEAM, "Xiang Wang"])
    write(later, "search.txt", f"论文检索\n\n{shown} 等\n\n{VERIFY}\n")
    run_ingest([first], tmp_path / "incremental.duckdb")
    run_ingest([later], tmp_path / "incremental.duckdb")
    run_ingest([first, later], tmp_path / "fresh.duckdb")
    incremental, fresh = persons(tmp_path / "incremental.duckdb"), persons(tmp_path / "fresh.duckdb")
    assert incremental == fresh and len(fresh["wei wang"]) == 1


def test_a_warehouse_from_before_persons_is_upgraded_without_moving_an_id(run_ingest, tmp_path):
    folder = tmp_path / "corpus"
    shutil.copytree(corpus.SAMPLES, folder / "samples")
    warehouse = tmp_path / "warehouse.duckdb"
    run_ingest([folder], warehouse)
    with duckdb.connect(str(warehouse)) as con:  # make it what the previous release wrote
        before = con.execute("SELECT author_id, name, name_key, n_papers FROM dim_author ORDER BY ALL").fetchall()
        con.execute("DROP TABLE author_mention; DROP TABLE author_person; DROP TABLE person_alias")
        con.execute("CREATE TABLE old_author AS SELECT * FROM dim_author; DROP TABLE dim_author")
        con.execute("CREATE TABLE dim_author (author_id BIGINT PRIMARY KEY, name VARCHAR NOT NULL, "
                    "name_key VARCHAR NOT NULL UNIQUE, n_papers INTEGER NOT NULL)")
        con.execute("INSERT INTO dim_author SELECT * FROM old_author; DROP TABLE old_author")
        con.execute("ALTER TABLE author_alias DROP COLUMN to_name_key")
    shutil.copytree(corpus.CORPUS / "run1", folder / "run1")  # new papers, and a second Wei Wang later
    run_ingest([folder], warehouse)
    with duckdb.connect(str(warehouse)) as con:
        kept = con.execute("SELECT author_id, name, name_key FROM dim_author "
                           "WHERE author_id IN (SELECT unnest(?))", [[r[0] for r in before]]).fetchall()
        assert sorted(kept) == sorted((a, n, k) for a, n, k, _ in before)
        assert con.execute("SELECT count(*) FROM author_mention WHERE rule = 'one_name_one_person'").fetchall()[0][0] > 0
        con.execute(f"CREATE OR REPLACE TEMP MACRO stable_id(k) AS {__import__('transforms.ids').ids.ID_SQL.format('k')}")
        assert {k: v for k, v in run_checks(con).items() if v} == {}


def _listing(day: str, records: list[tuple[str, str, list[str], str]]) -> str:
    return "\n".join(f"#{i:02d}{day}\n{cat}\n{title}\n{', '.join(names)}\n{abstract}"
                     for i, (cat, title, names, abstract) in enumerate(records, 1)) + "\n"


def test_a_name_shown_twice_on_a_list_counts_the_paper_once_per_person(run_ingest, tmp_path):
    """A person's papers are counted from the bridge's rows (one per paper and person): a list that
    shows a name twice, and a relisting that adds a spelling variant of it, must not count the
    paper twice, fresh or after the relisting. The name's two places are two persons (a person
    holds one place of a list: tests/test_persons_places.py), each counting the paper once."""
    abstract = ("We fuse events with sparse lidar returns through a recurrent network and halve the depth "
                "error of frame-based methods in low light at night.")
    folder = tmp_path / "digests"
    folder.mkdir()
    (folder / "day1.txt").write_text(_listing("Mar 3, 2027", [
        ("cs.CV", "Event Cameras for Depth", ["Zorblax Quintaro", "Ada Lindqvist", "Zorblax Quintaro"], abstract),
        ("math.GT", "Knot Floer Homology of Twisted Torus Knots", ["Zorblax Quintaro"],
         "We determine the knot Floer homology of an infinite family of twisted torus knots and deduce their "
         "genera and fiberedness."),
    ]), encoding="utf-8")
    warehouse = tmp_path / "w.duckdb"

    def counted() -> list[tuple]:
        with duckdb.connect(str(warehouse), read_only=True) as con:
            return con.execute(
                "SELECT a.n_papers, count(DISTINCT b.paper_id), count(*) FROM dim_author a "
                "JOIN bridge_paper_author b USING (author_id) WHERE a.name_key = 'zorblax quintaro' "
                "GROUP BY a.author_id, a.n_papers ORDER BY ALL DESC").fetchall()

    run_ingest([folder], warehouse)
    assert counted() == [(2, 2, 2), (1, 1, 1)]
    (folder / "day2.txt").write_text(_listing("Mar 4, 2027", [
        ("cs.CV", "Event Cameras for Depth", ["ZORBLAX QUINTARO", "Ada Lindqvist", "Zorblax Quintaro"], abstract),
    ]), encoding="utf-8")
    run_ingest([folder], warehouse)
    assert counted() == [(2, 2, 2), (1, 1, 1)]


# Two papers of "Zorblax Quintaro" with nothing in common: a chemist and a topologist.
ZORBLAX_CHEMIST_AND_TOPOLOGIST = [
    ("physics.chem-ph", "Solvent Effects on Proton Transfer in Enzymes", ["Zorblax Quintaro", "Ada Lindqvist"],
     "We compute free energy profiles of proton transfer in three enzymes with explicit solvent and show that "
     "solvent reorganisation accounts for most of the barrier."),
    ("math.GT", "Knot Floer Homology of Twisted Torus Knots", ["Bruno Vasquez-Ortega", "Zorblax Quintaro"],
     "We determine the knot Floer homology of an infinite family of twisted torus knots and deduce their "
     "genera and fiberedness."),
]


def test_a_name_that_turns_common_is_decided_again_on_evidence(run_ingest, tmp_path):
    """Zorblax Quintaro is a rare name in a first, small load (neither part is known), so its two
    mentions there, a chemist and a topologist with nothing in common, are one person. A later
    load full of Zorblaxes and Quintaros makes the name common: the stored mentions are decided
    again with the new ones, as a fresh load of both would decide them, and the name's first
    person keeps its id."""
    folder = tmp_path / "digests"
    write(folder, "day1_arxiv.txt", _listing("Mar 2, 2027", ZORBLAX_CHEMIST_AND_TOPOLOGIST))
    run_ingest([folder], tmp_path / "incremental.duckdb")
    with duckdb.connect(str(tmp_path / "incremental.duckdb"), read_only=True) as con:
        first = con.execute("SELECT author_id FROM dim_author WHERE name_key = 'zorblax quintaro'").fetchall()
    assert len(first) == 1  # rare: one person
    crowd = [("cs.LG", f"Benchmark Study {_made_up(i, 'ev')} of Sparse Models",
              [f"Zorblax {_made_up(10 * i + j, 'ev')}" for j in range(5)]
              + [f"{_made_up(10 * i + j, 'ev')}a Quintaro" for j in range(5)],
              f"Study {_made_up(i, 'ev')} measures how sparse models behave on benchmark suite "
              f"{_made_up(i, 'ev')} and reports variance.")
             for i in range(60)]
    write(folder, "day2_arxiv.txt", _listing("Mar 3, 2027", crowd))
    run_ingest([folder], tmp_path / "incremental.duckdb")
    run_ingest([folder], tmp_path / "fresh.duckdb")
    incremental, fresh = persons(tmp_path / "incremental.duckdb"), persons(tmp_path / "fresh.duckdb")
    assert len(incremental["zorblax quintaro"]) == 2 and incremental == fresh
    assert first[0][0] in [author_id for author_id, _ in incremental["zorblax quintaro"]]


def _made_up(n: int, suffix: str) -> str:
    """A made-up name part (letters only, as names are), unknown to the reference frequencies."""
    return "".join(chr(97 + (n // 26 ** k) % 26) for k in range(3)).capitalize() + suffix


def test_a_name_that_turns_rare_without_sharing_a_part_with_the_run_is_decided_again(run_ingest, tmp_path):
    """Every run adds name keys, so every name's frequency falls a little, not only the names
    sharing a part with the run. Zorblax Quintaro is common in a first load (16 other Zorblaxes and
    16 other Quintaros among ~35 names: ~1.1 expected wearers per 100k), so a chemist and a
    topologist wearing it are two persons. A second load of 400 unrelated names makes it rare
    (~0.98): a fresh load of both decides one person, and so must the incremental one."""
    folder = tmp_path / "digests"
    zorblaxes = [f"Zorblax {_made_up(j, 'ov')}" for j in range(16)]
    quintaros = [f"{_made_up(j, 'ix')} Quintaro" for j in range(16)]
    write(folder, "day1_arxiv.txt", _listing("Mar 2, 2027", [
        *ZORBLAX_CHEMIST_AND_TOPOLOGIST,
        *[("cs.LG", f"Sparse Model Study {_made_up(i, 'um')}", (zorblaxes + quintaros)[8 * i:8 * i + 8],
           f"Study {_made_up(i, 'um')} measures how sparse models behave on a benchmark suite and reports variance.")
          for i in range(4)],
    ]))
    run_ingest([folder], tmp_path / "incremental.duckdb")
    assert len(persons(tmp_path / "incremental.duckdb")["zorblax quintaro"]) == 2  # common: split on evidence
    strangers = [f"{_made_up(i, 'ana')} {_made_up(i, 'ski')}" for i in range(400)]
    write(folder, "day2_arxiv.txt", _listing("Mar 3, 2027", [
        ("cs.CL", f"Parsing Study {_made_up(i, 'ot')}", strangers[10 * i:10 * i + 10],
         f"Study {_made_up(i, 'ot')} parses a treebank of a low-resource language and reports attachment scores.")
        for i in range(40)]))
    run_ingest([folder], tmp_path / "incremental.duckdb")
    run_ingest([folder], tmp_path / "fresh.duckdb")
    incremental, fresh = persons(tmp_path / "incremental.duckdb"), persons(tmp_path / "fresh.duckdb")
    assert len(fresh["zorblax quintaro"]) == 1 and incremental == fresh


def test_a_name_whose_first_person_leaves_keeps_one_marked_row(run_ingest, tmp_path):
    """The vision Wei Wang is the name's first person (its id is stable_id("wei wang")). New
    versions of both files drop the vision papers: that person has no mention left and goes, and
    the PDE Wei Wang, still there, becomes the row that counts the name in the statistics."""
    daily = tmp_path / "daily"
    write(daily, "2027-03-02_arxiv.txt", DAY1)
    write(daily, "2027-03-03_arxiv.txt", DAY2)
    warehouse = tmp_path / "w.duckdb"
    run_ingest([daily], warehouse)
    assert len(persons(warehouse)["wei wang"]) == 2
    without_vision = [r for r in DAY1.split("#")[1:] if "cs.CV" not in r]
    write(daily, "2027-03-02_arxiv.txt", "".join("#" + r for r in without_vision))
    write(daily, "2027-03-03_arxiv.txt", "".join("#" + r for r in DAY2.split("#")[1:] if "Wei Wang" not in r or "math.AP" in r))
    run_ingest([daily], warehouse)
    wei = persons(warehouse)["wei wang"]  # persons() checks one marked row per name
    assert len(wei) == 1 and len(wei[0][1]) == 2


def test_a_groups_size_follows_duckdbs_memory_limit():
    """The person step's groups are sized from DuckDB's budget (the frames sit beside it), not
    a constant fitted to one corpus: a quarter of the limit gives a quarter of the group."""
    from flows.persons import MIN_CHUNK_MENTIONS, chunk_mentions

    con = duckdb.connect()
    sizes = {}
    for limit in ("256MiB", "1GiB", "4GiB", "3GB"):
        con.execute(f"SET memory_limit = '{limit}'")
        sizes[limit] = chunk_mentions(con)
    assert sizes["256MiB"] * 4 == pytest.approx(sizes["1GiB"], rel=0.01)
    assert sizes["1GiB"] * 4 == pytest.approx(sizes["4GiB"], rel=0.01)
    assert sizes["4GiB"] > sizes["3GB"] > sizes["1GiB"] >= MIN_CHUNK_MENTIONS
    con.execute("SET memory_limit = '1MB'")
    assert chunk_mentions(con) == MIN_CHUNK_MENTIONS
    con.execute("SET memory_limit = '-1'")  # no limit: one group however large the run
    assert chunk_mentions(con) > 10**9


def test_a_run_decided_in_many_groups_gives_the_persons_of_one_group(run_ingest, seeds_warehouse, tmp_path,
                                                                    monkeypatch):
    """The sample corpus loaded with groups of a handful of mentions (a tiny budget's groups)
    gives the same persons, ids and decisions as one group (the session's load of the seeds)."""
    from flows import persons as person_step

    one = seeds_warehouse[0]
    monkeypatch.setattr(person_step, "MIN_CHUNK_MENTIONS", 3)  # groups of common names only: ~25 mentions
    monkeypatch.setattr(person_step, "BYTES_PER_MENTION", 10**15)
    chunks = []
    real = person_step._name_chunks
    monkeypatch.setattr(person_step, "_name_chunks", lambda new, size: chunks.append(list(real(new, size))) or chunks[-1])
    run_ingest([corpus.SAMPLES], tmp_path / "many.duckdb")
    assert len(chunks[0]) > 5
    # every mention in one group, every name in one group only
    assert sum(part.height for part in chunks[0]) == pl.concat(chunks[0]).unique(["paper_id", "author_position"]).height
    assert pl.concat([part.select("name_key").unique() for part in chunks[0]])["name_key"].is_unique().all()
    assert persons(one) == persons(tmp_path / "many.duckdb")
    query = "SELECT paper_id, author_position, author_id, rule, round(score, 9) FROM author_mention ORDER BY ALL"
    with duckdb.connect(str(one), read_only=True) as one_group, \
         duckdb.connect(str(tmp_path / "many.duckdb"), read_only=True) as many:
        assert one_group.execute(query).fetchall() == many.execute(query).fetchall()


def test_groups_are_decided_one_at_a_time_beside_the_next_ones_read(run_ingest, tmp_path, monkeypatch):
    """The person step decides a group on a worker while the connection writes the group before
    and reads the next: the next group's evidence is read before a group is written, one group is
    decided at a time (two at once held twice the frames beside DuckDB's budget, and
    assign_persons switches the process's gc off and on), and no more than two groups are held."""
    import threading
    import time

    from flows import persons as person_step

    monkeypatch.setattr(person_step, "MIN_CHUNK_MENTIONS", 3)
    monkeypatch.setattr(person_step, "BYTES_PER_MENTION", 10**15)
    events, deciding, peak, lock = [], [0], [0], threading.Lock()
    decide, read, write = person_step.assign_persons, person_step._group_evidence, person_step._write_group

    def slow_decide(*args, **kwargs):
        with lock:
            deciding[0] += 1
            peak[0] = max(peak[0], deciding[0])
        time.sleep(0.05)  # long enough for a second worker, if there were one, to start the next group
        try:
            return decide(*args, **kwargs)
        finally:
            with lock:
                deciding[0] -= 1

    def reading(*args, **kwargs):
        events.append("read")
        return read(*args, **kwargs)

    def writing(*args, **kwargs):
        events.append("write")
        return write(*args, **kwargs)

    monkeypatch.setattr(person_step, "assign_persons", slow_decide)
    monkeypatch.setattr(person_step, "_group_evidence", reading)
    monkeypatch.setattr(person_step, "_write_group", writing)
    run_ingest([corpus.SAMPLES], tmp_path / "w.duckdb")
    n = events.count("read")
    assert n > 5 and events.count("write") == n and peak[0] == 1
    held = [events[:i + 1].count("read") - events[:i + 1].count("write") for i in range(len(events))]
    assert max(held) == 2  # the group deciding and the one read ahead
    assert events[:2] == ["read", "read"]  # the second group is read while the first is decided


@pytest.fixture(scope="module")
def sql_con():
    """One connection with the warehouse's macros and the reference name shares, for the property
    tests below (connecting and registering the reference took ~0.1 s of each example)."""
    from flows.sql import connect
    from transforms.persons import reference_shares

    con = connect(Path(":memory:"))
    ref_given, ref_surname = reference_shares()
    con.register("ref_given", ref_given.to_arrow())
    con.register("ref_surname", ref_surname.to_arrow())
    yield con
    con.close()


@given(rows=st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 10**6), st.integers(1, 4),
                                st.sampled_from(["wei", "maria", "zzyzx", "jean"]),
                                st.sampled_from(["wang", "garcia", "qqxq", "dupont"])), min_size=1, max_size=50),
       n_keys=st.integers(0, 10**8))
def test_names_are_as_common_in_the_warehouse_as_in_polars(sql_con, rows, n_keys):
    """A run's names are classed rare or common in SQL (person_classes.sql) and the common ones'
    model reads the same commonness in Polars: both must agree to the last bit, or a name exactly
    at the line would be classed one way and scored the other, and stored name_lambda values would
    differ between code paths (Polars divides a column by a scalar through its reciprocal, but a
    frame of one row plainly: a plain SQL division differed in the last bit for ~4 % of names)."""
    from flows.sql import read_frame
    from transforms.persons import commonness_from_counts

    counts = pl.DataFrame([(f"k{i}", g, s, t, ng, ns) for i, (ng, ns, t, g, s) in enumerate(rows)], orient="row",
                          schema={"name_key": pl.String, "given": pl.String, "surname": pl.String,
                                  "n_tokens": pl.Int64, "n_given": pl.Int64, "n_surname": pl.Int64})
    want = commonness_from_counts(counts, n_keys)
    sql_con.register("counts", counts.to_arrow())
    got = read_frame(sql_con, "SELECT c.name_key, name_commonness(c.n_tokens >= 2, c.n_given, g.share, c.n_surname, "
                          f"s.share, {n_keys}) AS lam FROM counts c LEFT JOIN ref_given g ON g.part = c.given "
                          "LEFT JOIN ref_surname s ON s.part = c.surname")
    both = want.join(got, on="name_key", suffix="_sql")
    assert both.height == counts.height
    assert both.filter(pl.col("lam") != pl.col("lam_sql")).is_empty()



@given(mentions=st.lists(st.tuples(st.one_of(st.none(), st.dates(dt.date(1991, 1, 1), dt.date(9999, 12, 31))),
                                   st.integers(0, 2**63 - 1),
                                   st.one_of(st.integers(1, 99_999), st.integers(1, 2**31 - 1))),
                         min_size=1, max_size=30))
def test_a_names_first_and_last_mentions_are_the_same_by_rank_as_in_the_model(sql_con, mentions):
    """The person step compares mentions by canonical_rank (one number) and writes the first one's
    canonical_key: the same mention must come first and last as in transforms.persons (sorted by
    date, undated last, paper id and position, as numbers), labelled as it labels them, for any
    position (a list of 100,000 names or more: a key cut to five digits sorted 100000 before 99999)."""
    from transforms.persons import _founded_key

    con = sql_con
    con.execute("CREATE OR REPLACE TEMP TABLE m (listed_on DATE, paper_id BIGINT, author_position INTEGER)")
    con.executemany("INSERT INTO m VALUES (?, ?, ?)", mentions)
    got = con.execute("SELECT canonical_key_of(min(canonical_rank(listed_on, paper_id, author_position))), "
                      "canonical_key_of(max(canonical_rank(listed_on, paper_id, author_position))) FROM m").fetchall()[0]
    ordered = sorted(mentions, key=lambda m: (m[0] or dt.date(9999, 12, 31), m[1], m[2]))
    assert got == (_founded_key(*ordered[0]), _founded_key(*ordered[-1]))


RELISTED = """#01Mar 3, 2027
cs.CV
Event Cameras for Low-Light Depth Estimation
Wei Wang, Yuki Tanaka, Yan Li
Event cameras report brightness changes with microsecond latency and a high dynamic range, which makes them attractive for depth estimation at night. We fuse events with sparse lidar returns through a recurrent network and halve the depth error of frame-based methods in low light.
#02Mar 3, 2027
cs.LG
Tanaka Lattices for Sparse Attention
Aiko Tanaka, Botan Tanaka, Chiyo Tanaka, Daichi Tanaka
We organise sparse attention patterns on lattices and show that the lattice structure bounds the number of hops between any two tokens by the logarithm of the sequence length.
"""


def test_every_name_is_as_common_whenever_the_step_reads_it(run_ingest, tmp_path, monkeypatch):
    """The names on the common names' papers that the run does not bring (stored co-authors of a
    relisted paper: "yuki tanaka") had their commonness counted after the run's rare names were
    written as persons, and those names were then counted twice (as new names and as stored
    ones): four new "... tanaka" made "tanaka" look commoner than a fresh count says. Every
    commonness the step reads must be the one counted over the warehouse's names, each once."""
    from flows import persons as person_step
    from flows.sql import read_frame
    from transforms.persons import name_commonness

    seen = []
    write_group = person_step._write_group

    def watched(con, *args, **kwargs):  # when the model has read every commonness it reads
        seen.append((read_frame(con, "SELECT name_key, lam FROM name_lam"), read_frame(
            con, "SELECT name_key FROM author_person WHERE first_of_name UNION SELECT name_key FROM new_name_keys "
                 "UNION SELECT name_key FROM taken_back_keys")))  # (a name taken back is still a name)
        return write_group(con, *args, **kwargs)

    monkeypatch.setattr(person_step, "_write_group", watched)
    daily = tmp_path / "daily"
    write(daily, "2027-03-02_arxiv.txt", DAY1)
    run_ingest([daily], tmp_path / "w.duckdb")
    write(daily, "2027-03-03_arxiv.txt", RELISTED)
    run_ingest([daily], tmp_path / "w.duckdb")
    read, population = seen[-1]
    assert "yuki tanaka" in read["name_key"].to_list()
    fresh = name_commonness(population["name_key"])
    both = read.join(fresh.select("name_key", lam_fresh="lam"), on="name_key", how="left")
    assert both.filter(pl.col("lam") != pl.col("lam_fresh")).is_empty(), both


def _real_days(folder: Path) -> list[Path]:
    """The two real arXiv listing files of ../shared/realdata as one listing file per day."""
    import json

    from eval.keywords import REALDATA

    sources = {"arxiv_daily_listings_dwdengwei.jsonl": ("summary", lambda r: r["categories"][0]),
               "arxiv_daydayarxiv_csAI_listings.jsonl": ("abstract", lambda r: r["primary_category"])}
    if not all((REALDATA / name).is_file() for name in sources):
        pytest.skip("real arXiv listings not found (../shared/realdata)")
    days: dict[str, list[str]] = {}
    for name, (abstract, category) in sources.items():
        for line in (REALDATA / name).read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            authors = ", ".join(r["authors"][:3]) + (f" and {len(r['authors']) - 3} more" if len(r["authors"]) > 3 else "")
            days.setdefault(r["digest_date"], []).append(
                (category(r), " ".join(r["title"].split()), authors, " ".join(r[abstract].split())))
    paths = []
    for day, records in sorted(days.items()):
        header = dt.date.fromisoformat(day).strftime("%b %d, %Y")
        write(folder, f"{day}.txt", "".join(f"#{i:02d}{header}\n{c}\n{t}\n{a}\n{s}\n" for i, (c, t, a, s) in
                                             enumerate(records, 1)))
        paths.append(folder / f"{day}.txt")
    return paths


def test_real_days_loaded_a_day_at_a_time_give_the_persons_of_a_fresh_load(run_ingest, tmp_path):
    """February in one run, then each June day: "Ruoyu Wang" was common when first decided (a
    person on evidence), rare on the next day's statistics (joined by the rare-name rule), common
    again at the end. A stored name was reopened only when every mention was the rare rule's, so
    the two mentions stayed one person where a fresh load has two."""
    days = _real_days(tmp_path / "days")
    february = [p for p in days if p.name.startswith("2026-02")]
    run_ingest(february, tmp_path / "incremental.duckdb")
    for day in days:
        if day not in february:
            run_ingest([day], tmp_path / "incremental.duckdb")
    run_ingest(days, tmp_path / "fresh.duckdb")
    incremental, fresh = persons(tmp_path / "incremental.duckdb"), persons(tmp_path / "fresh.duckdb")
    assert incremental == fresh


# Two people named Yue Zhang (robots with Ilaria Fontanesi; clinical notes with Thandiwe
# Nkosi-Ramirez) whom one co-author name, Yang Liu, joined on the second day.
ROBOTS = _listing("Mar 02, 2026", [
    ("cs.AI", "Graph Priors for Sparse Reward Exploration in Warehouse Robots",
     ["Kwame Osei-Bonsu", "Yue Zhang", "Ilaria Fontanesi"],
     "We study exploration for warehouse robots under sparse rewards and propose graph priors built from floor plans "
     "that guide a policy toward unexplored aisles; experiments on three simulated depots show faster coverage."),
    ("cs.AI", "Curriculum Shaping for Shelf Picking with Tactile Feedback", ["Yue Zhang", "Yang Liu", "Ilaria Fontanesi"],
     "Shelf picking with tactile feedback is hard to learn from scratch, so we shape a curriculum from easy to "
     "cluttered shelves and show that tactile signals double the success rate on deformable items."),
])
CLINICAL = [
    ("cs.AI", "Calibrated Uncertainty for Clinical Note Summarisation Models", ["Thandiwe Nkosi-Ramirez", "Yue Zhang"],
     "Summaries of clinical notes must say when they are unsure; we calibrate token level uncertainty of a "
     "summarisation model with conformal prediction and show that clinicians catch more omissions."),
    ("cs.AI", "Auditing Hallucinated Medications in Discharge Summaries",
     ["Thandiwe Nkosi-Ramirez", "Yue Zhang", "Yang Liu"],
     "Discharge summaries written by language models sometimes list medications the patient never received; we "
     "build an audit that aligns each drug with the pharmacy record and find that retrieval grounding removes them."),
]


@pytest.mark.parametrize("edit", ["co-author corrected", "co-author dropped", "record dropped"])
def test_a_merge_of_two_persons_goes_when_the_paper_that_joined_them_changes(run_ingest, tmp_path, edit):
    """The merge of two Yue Zhangs stood on one paper's Yang Liu. An edited file corrected that
    name (or dropped the record): a fresh load kept two persons, the incremental warehouse one,
    its alias citing a paper gone from dim_paper (a hunt's find)."""
    daily = tmp_path / "daily"
    write(daily, "2026-03-02.txt", ROBOTS)
    write(daily, "2026-03-09.txt", _listing("Mar 09, 2026", CLINICAL))
    run_ingest([daily], tmp_path / "incremental.duckdb")
    assert len(persons(tmp_path / "incremental.duckdb")["yue zhang"]) == 1
    fixed, (area, title, names, abstract) = CLINICAL[:1], CLINICAL[1]
    if edit == "co-author corrected":
        fixed.append((area, title, [n.replace("Yang Liu", "Junghun Phee") for n in names], abstract))
    elif edit == "co-author dropped":  # the last of the list: no position of the others moves
        fixed.append((area, title, [n for n in names if n != "Yang Liu"], abstract))
    write(daily, "2026-03-09.txt", _listing("Mar 09, 2026", fixed))
    run_ingest([daily], tmp_path / "incremental.duckdb")
    run_ingest([daily], tmp_path / "fresh.duckdb")
    incremental, fresh = persons(tmp_path / "incremental.duckdb"), persons(tmp_path / "fresh.duckdb")
    assert incremental == fresh and len(fresh["yue zhang"]) == 2
    with duckdb.connect(str(tmp_path / "incremental.duckdb"), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM person_alias WHERE name_key = 'yue zhang'").fetchall() == [(0,)]
