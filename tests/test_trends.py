"""Topics and trends through the real flow: a rendered corpus in which one topic's share grows
week by week and a frequent one stays flat (tests/support/trends_corpus.py). The rising view
ranks the growing topic first and never flags the flat one; counts fill empty weeks with zero;
terms loaded in two runs equal terms loaded in one; `digest trends` prints the same answer."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from pathlib import Path

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal
from typer.testing import CliRunner

from flows import analytics
from tests.support import trends_corpus as corpus

LAST_WEEK = corpus.FIRST_MONDAY + dt.timedelta(weeks=len(corpus.GROWING_COUNTS) - 1)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> list[Path]:
    return corpus.render(tmp_path_factory.mktemp("trends_src") / "digests")


@pytest.fixture(scope="module")
def warehouse(run_ingest, tmp_path_factory) -> Path:
    """All weeks in one run."""
    return corpus.warehouse(run_ingest, tmp_path_factory)


def read(warehouse: Path, sql: str, params=None) -> pl.DataFrame:
    return analytics.query(warehouse, sql, params)


def test_the_growing_topic_ranks_first_and_the_flat_one_is_not_flagged(warehouse):
    rising = read(warehouse, "SELECT term, n_papers, n_papers_before, p_value FROM marts.rising_terms "
                             "WHERE period = 'week' AND period_start = ? AND is_rising ORDER BY rising_rank", [LAST_WEEK])
    assert rising["term"][0] == corpus.GROWING
    assert (rising["n_papers"][0], rising["n_papers_before"][0]) == (14, 1 + 2 + 4 + 8)
    flat = read(warehouse, "SELECT period, period_start, n_papers, p_value, is_rising FROM marts.rising_terms "
                           "WHERE term = ?", [corpus.FLAT])
    assert flat.filter(pl.col("period") == "week")["n_papers"].to_list() == [corpus.FLAT_COUNT] * 6
    assert not flat["is_rising"].any()
    # Background phrases (one paper each) never reach the minimum support.
    assert read(warehouse, "SELECT count(*) FROM marts.rising_terms WHERE is_rising AND n_papers < 3").item() == 0


def test_weekly_counts_fill_empty_weeks_with_zero(warehouse):
    weeks = read(warehouse, "SELECT week_start, n_papers, n_all_papers FROM marts.term_papers_week "
                            "WHERE term = ? ORDER BY week_start", [corpus.GROWING])
    assert weeks["n_papers"].to_list() == list(corpus.GROWING_COUNTS[1:])  # from its first week on
    assert weeks["n_all_papers"].to_list() == [corpus.PAPERS_PER_WEEK] * 5
    assert weeks["week_start"].diff().drop_nulls().unique().to_list() == [dt.timedelta(days=7)]
    new = read(warehouse, "SELECT first_week_start, n_papers_first_week, n_papers FROM marts.new_terms WHERE term = ?",
               [corpus.GROWING]).row(0)
    assert new == (corpus.FIRST_MONDAY + dt.timedelta(weeks=1), 1, sum(corpus.GROWING_COUNTS))
    top = read(warehouse, "SELECT term, n_papers FROM marts.terms_per_category "
                          "WHERE code = 'cs.LG' AND rank_in_category <= 2 ORDER BY rank_in_category")
    assert top.rows() == [("reinforcement", 60), (corpus.FLAT, 60)]  # equal counts: by term


def test_terms_loaded_in_two_runs_equal_terms_loaded_in_one(warehouse, run_ingest, rendered, tmp_path_factory):
    root = tmp_path_factory.mktemp("trends_incremental")
    folder, target = root / "digests", root / "w.duckdb"
    folder.mkdir()
    for i, path in enumerate(rendered):
        shutil.copy2(path, folder / path.name)
        if i in (2, len(rendered) - 1):  # three weeks, then the other three
            run_ingest([folder], target)
    for table in ("dim_term", "bridge_paper_term"):
        assert_frame_equal(read(target, f"SELECT * FROM {table}").sort(pl.all()),
                           read(warehouse, f"SELECT * FROM {table}").sort(pl.all()))
    counts = read(target, "SELECT t.term_id, t.n_papers, count(b.paper_id) AS n FROM dim_term t "
                          "LEFT JOIN bridge_paper_term b USING (term_id) GROUP BY ALL HAVING t.n_papers <> n")
    assert counts.is_empty()


def test_terms_of_older_rules_are_extracted_again_by_the_next_run(warehouse, run_ingest, rendered, tmp_path_factory):
    """When the extraction rules change (transforms.terms.RULES_VERSION), the next run extracts
    every paper again, not only the new ones: kept, the old papers' terms would differ from the
    new papers' (a term the new rules find would look new in every paper after the upgrade). A
    warehouse without the version is one of the first rules."""
    import duckdb

    root = tmp_path_factory.mktemp("trends_rules")
    folder, target = root / "digests", root / "w.duckdb"
    folder.mkdir()
    for path in rendered[:3]:
        shutil.copy2(path, folder / path.name)
    run_ingest([folder], target)
    with duckdb.connect(str(target)) as con:  # what older rules left: other scores, no version
        con.execute("UPDATE bridge_paper_term SET score = -1; DELETE FROM term_rules")
    for path in rendered[3:]:
        shutil.copy2(path, folder / path.name)
    run_ingest([folder], target)
    for table in ("dim_term", "bridge_paper_term", "term_rules"):
        assert_frame_equal(read(target, f"SELECT * FROM {table}").sort(pl.all()),
                           read(warehouse, f"SELECT * FROM {table}").sort(pl.all()))


def test_terms_extracted_in_many_batches_on_many_threads_equal_one_batch(warehouse, run_ingest, rendered,
                                                                           tmp_path_factory, monkeypatch):
    """The extraction runs a batch per thread at once while the connection reads and writes
    others: on 4 threads (as a 4-core machine), 28 papers in flight make batches of 7 papers
    (dozens of them), and the terms are those of the one-batch load."""
    from flows import terms

    monkeypatch.setattr(terms, "PAPERS_IN_FLIGHT", 28)
    monkeypatch.setattr(terms, "MIN_BATCH_PAPERS", 1)
    monkeypatch.setattr(terms, "compute_threads", lambda: 4)
    assert terms.batch_papers(4) == 7
    target = tmp_path_factory.mktemp("trends_batches") / "w.duckdb"
    run_ingest([p.parent for p in rendered[:1]], target)
    assert read(target, "SELECT count(*) FROM dim_paper").item() > 20 * 7
    for table in ("dim_term", "bridge_paper_term"):
        assert_frame_equal(read(target, f"SELECT * FROM {table}").sort(pl.all()),
                           read(warehouse, f"SELECT * FROM {table}").sort(pl.all()))


def test_digest_trends_prints_the_rising_terms(warehouse):
    from flows.cli import app

    runner = CliRunner()
    result = runner.invoke(app, ["trends", "--warehouse", str(warehouse), "--format", "json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert rows[0]["term"] == corpus.GROWING and rows[0]["period_start"] == LAST_WEEK.isoformat()
    # its words rise with it and come after it, each said to be within it
    within = {r["term"]: r["within_term"] for r in rows if r["period_start"] == LAST_WEEK.isoformat()}
    assert within[corpus.GROWING] is None
    assert {w: within.get(w) for w in corpus.GROWING.split()} == dict.fromkeys(corpus.GROWING.split(), corpus.GROWING)
    result = runner.invoke(app, ["trends", "-w", str(warehouse), "--by", "week", "--since",
                                 corpus.FIRST_MONDAY.isoformat(), "--category", "cs", "--format", "csv"])
    assert result.exit_code == 0, result.output
    frame = pl.read_csv(result.stdout.encode())
    assert corpus.FLAT not in frame["term"].to_list()
    assert frame.filter(pl.col("term") == corpus.GROWING)["n_papers_in_category"].to_list() == [14, 8][: frame.filter(
        pl.col("term") == corpus.GROWING).height]
    result = runner.invoke(app, ["trends", "-w", str(warehouse), "--category", "math.AG"])
    assert result.exit_code == 0 and "no rising terms" in result.stdout
    # a category in another case is the same category ("cs.lg" found nothing)
    lower, upper = (runner.invoke(app, ["trends", "-w", str(warehouse), "--since", corpus.FIRST_MONDAY.isoformat(),
                                        "-c", c, "-f", "csv"]) for c in ("CS", "cs"))
    assert lower.exit_code == 0 and lower.stdout == upper.stdout and corpus.GROWING in lower.stdout
    # an arXiv alias is its canonical code, as the warehouse stores it (cmp-lg was looked up as such)
    result = runner.invoke(app, ["trends", "-w", str(warehouse), "-c", "cmp-lg"])
    assert result.exit_code == 0 and "no rising terms per week in cs.CL " in result.stdout


@pytest.mark.parametrize(("given", "stored"), [("math.IT", "cs.IT"), ("MATH.it", "cs.IT"), ("cmp-lg", "cs.CL"),
                                               (" cs.lg ", "cs.LG"), ("Deep Learning", "Deep Learning"),
                                               # an area as the load writes it (the "->" spelling found nothing)
                                               ("Deep Learning->Large Language Models", "Deep Learning · Large Language Models"),
                                               ("Deep Learning » Large Language Models", "Deep Learning · Large Language Models"),
                                               ("Reinforcement Learning · ", "Reinforcement Learning")])
def test_a_category_given_in_any_case_or_as_an_alias_is_the_stored_code(given, stored):
    from transforms.categories import canonical_code

    assert canonical_code(given) == stored


def test_digest_trends_on_a_file_that_is_no_warehouse_says_so_in_one_line(tmp_path):
    from flows.cli import app

    other = tmp_path / "other.duckdb"  # a traceback (exit 1) was all it said
    with duckdb.connect(str(other)) as con:
        con.execute("CREATE TABLE t (x INT)")
    result = CliRunner().invoke(app, ["trends", "-w", str(other)])
    assert result.exit_code == 2 and result.output.startswith("error: ") and len(result.output.strip().splitlines()) == 1


def _rising_view(papers: dict[str, list[tuple[dt.date, int]]]) -> duckdb.DuckDBPyConnection:
    """marts.rising_terms over a hand-made warehouse: `papers` maps a term to its papers, as
    (a week's Monday, paper ids listed that week) runs; terms that share ids share those papers."""
    con = duckdb.connect()
    con.execute("CREATE TABLE dim_paper (paper_id BIGINT, first_listed_on DATE);"
                "CREATE TABLE dim_term (term_id BIGINT, term VARCHAR, n_words INTEGER);"
                "CREATE TABLE bridge_paper_term (paper_id BIGINT, term_id BIGINT)")
    for term_id, (term, runs) in enumerate(papers.items()):
        con.execute("INSERT INTO dim_term VALUES (?, ?, ?)", [term_id, term, len(term.split())])
        rows = [[i, term_id] for _, ids in runs for i in ids]
        con.executemany("INSERT INTO bridge_paper_term VALUES (?, ?)", rows)
    weeks = {i: week for runs in papers.values() for week, ids in runs for i in ids}
    con.executemany("INSERT INTO dim_paper VALUES (?, ?)", [[i, week + dt.timedelta(days=1)] for i, week in weeks.items()])
    con.execute("CREATE SCHEMA marts")
    con.execute((Path(__file__).parents[1] / "schemas" / "marts" / "72_rising_terms.sql").read_text(encoding="utf-8"))
    return con


def test_a_part_that_only_repeats_a_longer_terms_rise_ranks_after_it():
    """Over real papers the parts of a growing phrase rise with it, and one with fewer papers
    before it ("annealing" among the top terms of 11 of the 15 earlier papers of "quantum
    annealing") ranked first. A part whose papers outside the phrase do not rise is `within_term`
    the phrase and ranks after every term rising on its own, whatever its p-value; a part that
    also rises on its own ("neural network" in 10 more papers this week) does not."""
    monday = dt.date(2027, 3, 1)
    week = [monday + dt.timedelta(weeks=w) for w in range(6)]
    counts = corpus.GROWING_COUNTS  # of 30 papers a week, as tests/support/trends_corpus.py
    growing = [(w, range(100 * i, 100 * i + n)) for i, (w, n) in enumerate(zip(week, counts))]
    background = [(w, range(1000 + 100 * i, 1000 + 100 * i + 30 - n)) for i, (w, n) in enumerate(zip(week, counts))]
    phrase = [(w, ids) for w, ids in growing]
    part = [(w, ids if w == week[5] else ids[1:]) for w, ids in growing]  # fewer papers before: a lower p
    own = [(week[5], range(1500, 1510))]  # 10 of the last week's other papers: rising on its own too
    con = _rising_view({"filler": background, "quantum annealing": phrase, "annealing": part,
                        "graph neural network": phrase, "neural network": phrase + own})
    rows = con.execute("SELECT term, within_term, rising_rank FROM marts.rising_terms "
                       "WHERE period = 'week' AND period_start = ? AND is_rising ORDER BY rising_rank", [week[5]]).fetchall()
    assert [r[0] for r in rows][:3] == ["neural network", "graph neural network", "quantum annealing"]
    assert rows[3:] == [("annealing", "quantum annealing", 4)]


def test_weeks_of_relistings_only_are_the_latest_period_and_zeros_in_the_counts(rendered, run_ingest, tmp_path):
    """The corpus, then four weeks later (the next month) one of its papers listed again, no new
    paper since. The counts stopped at the last week and month with a new paper, and `digest
    trends` called that week the latest period: the warehouse's last weeks were missing from
    every trend line."""
    from flows.cli import app

    folder = tmp_path / "digests"
    shutil.copytree(rendered[0].parent, folder)
    last = rendered[-1].read_text(encoding="utf-8").split("\n#02")[0]  # its first record
    relisted_on = LAST_WEEK + dt.timedelta(weeks=4, days=2)
    day = f"{corpus.MONTHS[relisted_on.month - 1]} {relisted_on.day:02d}, {relisted_on.year}"
    (folder / "relisted.txt").write_text("#01" + day + last[last.index("\n"):], encoding="utf-8")
    warehouse = tmp_path / "w.duckdb"
    run_ingest([folder], warehouse)
    weeks = read(warehouse, "SELECT week_start, n_papers, n_all_papers FROM marts.term_papers_week "
                            "WHERE term = ? ORDER BY week_start", [corpus.GROWING])
    assert weeks["week_start"].to_list()[-5:] == [LAST_WEEK + dt.timedelta(weeks=w) for w in range(5)]
    assert weeks["n_papers"].to_list()[-5:] == [14, 0, 0, 0, 0] and weeks["n_all_papers"].to_list()[-4:] == [0] * 4
    months = read(warehouse, "SELECT month_start, n_papers FROM marts.term_papers_month WHERE term = ? "
                             "ORDER BY month_start DESC LIMIT 1", [corpus.GROWING])
    assert months.row(0) == (relisted_on.replace(day=1), 0) != (LAST_WEEK.replace(day=1), 0)
    result = CliRunner().invoke(app, ["trends", "-w", str(warehouse)])
    latest = LAST_WEEK + dt.timedelta(weeks=4)
    assert result.exit_code == 0 and result.stdout.strip() == f"no rising terms per week in the latest week (the week of {latest})"


def test_a_listing_dated_years_ahead_is_named_in_the_runs_warning(run_ingest, tmp_path):
    """"Jan 19, 2062" for 2026 is a date the parser takes (years to 2099), and silently every trend
    and dim_date ran to 2062 (427,843 week rows where there had been 2,136): the run now says so."""
    ahead = dt.date.today().replace(day=1) + dt.timedelta(days=3 * 366)
    rng = corpus.random.Random(3)
    near = corpus._record(1, dt.date.today(), *corpus._paper(rng, corpus.FLAT), rng)
    far = corpus._record(1, ahead, *corpus._paper(rng, corpus.FLAT), rng)
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "near.txt").write_text(near, encoding="utf-8")
    assert run_ingest([tmp_path / "d"], tmp_path / "w.duckdb")["warning"] is None
    (tmp_path / "d" / "far.txt").write_text(near + "\n" + far.replace("#01", "#02", 1), encoding="utf-8")
    warning = run_ingest([tmp_path / "d"], tmp_path / "w.duckdb")["warning"]
    assert warning == (f"1 listing is dated more than a year ahead (from {ahead}, d/far.txt line 6): a mistyped year? "
                       "Trends and dim_date run to the latest date")
