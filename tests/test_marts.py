"""Analytics marts: each view returns its golden rows on a known corpus; rows checked by hand;
an incremental warehouse gives the same marts as a fresh load; the data dictionary and the
Parquet export match the warehouse.

Regenerate the golden files (and docs/data-dictionary.md) after an intended change with
DIGEST_UPDATE_GOLDEN=1 pytest tests/test_marts.py, then review the diff.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from pathlib import Path

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal
from typer.testing import CliRunner

from flows import analytics
from tests.support import marts as corpus

REPO = Path(__file__).resolve().parent.parent
MARTS_SQL = sorted((REPO / "schemas" / "marts").glob("*.sql"))
GOLDEN = REPO / "tests" / "golden" / "marts"
UPDATE = os.environ.get("DIGEST_UPDATE_GOLDEN") == "1"
VIEW_NAME = re.compile(r"CREATE OR REPLACE VIEW marts\.(\w+)")
VIEWS = [m for f in MARTS_SQL for m in VIEW_NAME.findall(f.read_text(encoding="utf-8"))]
# When and how long a run took: different on every run, so left out of the golden files.
VOLATILE = {"started_at", "finished_at", "ingested_at", "run_started_at", "last_run_started_at", "seconds"}
# Views (and columns) that describe the runs themselves: they differ between an incremental
# and a fresh load of the same files by design.
PER_RUN_VIEWS = {"dq_runs", "dq_quarantine_reasons", "warehouse_summary"}


@pytest.fixture(scope="module")
def warehouse(run_ingest, tmp_path_factory) -> Path:
    return corpus.incremental_warehouse(run_ingest, tmp_path_factory)


def read(warehouse: Path, sql: str, params=None) -> pl.DataFrame:
    return analytics.query(warehouse, sql, params)


def normalised(warehouse: Path, view: str) -> pl.DataFrame:
    """The view's rows without timings, run ids as run1/run2 (in start order), sorted."""
    frame = read(warehouse, f"SELECT * FROM marts.{view}").drop(VOLATILE, strict=False)
    if "run_id" in frame.columns:
        runs = read(warehouse, "SELECT run_id, 'run' || run_number AS run FROM marts.dq_runs")
        frame = frame.with_columns(pl.col("run_id").replace_strict(dict(runs.iter_rows()), default="unrecorded"))
    return frame.sort(frame.columns, nulls_last=True)


# ---------------------------------------------------------------------------- golden rows
@pytest.mark.parametrize("view", VIEWS)
def test_view_returns_its_golden_rows(warehouse, view):
    actual = normalised(warehouse, view)
    path = GOLDEN / f"{view}.csv"
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        actual.write_csv(path)
    assert path.is_file(), f"no golden file for marts.{view}: run with DIGEST_UPDATE_GOLDEN=1"
    assert actual.height > 0, f"marts.{view} is empty on the test corpus"
    expected = pl.read_csv(path, schema=actual.schema)
    assert_frame_equal(actual, expected, rel_tol=1e-9)


def test_every_golden_file_belongs_to_a_view():
    assert sorted(p.stem for p in GOLDEN.glob("*.csv")) == sorted(VIEWS)


def test_one_view_per_file_every_view_and_column_described(warehouse):
    assert [len(VIEW_NAME.findall(f.read_text(encoding="utf-8"))) for f in MARTS_SQL] == [1] * len(MARTS_SQL)
    views = read(warehouse, "SELECT view_name, comment FROM duckdb_views() WHERE schema_name = 'marts'")
    assert sorted(views["view_name"]) == sorted(VIEWS)
    assert views.filter(pl.col("comment").is_null()).is_empty()
    bare = read(warehouse, "SELECT table_name, column_name FROM duckdb_columns() "
                           "WHERE schema_name = 'marts' AND (comment IS NULL OR comment = '')")
    assert bare.is_empty(), f"columns without a comment: {bare.rows()}"


# ---------------------------------------------------------------------------- checked by hand
QUANT_TITLE = "Quantitative Generalization Bounds for Multi-Layer Transformers: A Few Long Strings can Beat Many Short Ones"


def test_a_paper_relisted_for_months(warehouse):
    # Listed in the three Oct 26 samples, then on Dec 31, Jan 1 and Feb 2.
    row = read(warehouse, "SELECT * FROM marts.papers_most_listed WHERE title = ?", [QUANT_TITLE]).row(0, named=True)
    assert (row["n_listings"], row["n_digests"], row["n_days_listed"]) == (6, 6, 4)
    assert (row["first_listed_on"], row["last_listed_on"]) == (dt.date(2026, 10, 26), dt.date(2027, 2, 2))
    assert row["listed_span_days"] == 100 and row["seen_in"] == "listing" and row["rank_by_listings"] == 1


def test_iso_week_spans_new_year_and_papers_are_distinct_within_it(warehouse):
    week = read(warehouse, "SELECT * FROM marts.papers_per_category_week WHERE iso_year = 2026 AND iso_week = 53 "
                           "AND level = 'category' AND code = 'cs.LG'").row(0, named=True)
    # The relisted paper (Dec 31 and Jan 1) counts once; the curriculum paper and the MoE
    # paper (first dated that week) are new; five listings in all.
    assert (week["week_start"], week["week_end"]) == (dt.date(2026, 12, 28), dt.date(2027, 1, 3))
    assert (week["n_papers"], week["n_new_papers"], week["n_listings"]) == (3, 2, 5)
    # A paper counts in every category it has: the MoE paper, listed as stat.ML on Dec 31, is
    # in cs.LG too (its Jan 1 listing), so December has three cs.LG papers.
    months = read(warehouse, "SELECT year, month, n_papers FROM marts.papers_per_category_month "
                             "WHERE level = 'category' AND code = 'cs.LG' ORDER BY year, month")
    assert months.rows() == [(2026, 10, 7), (2026, 12, 3), (2027, 1, 2), (2027, 2, 2)]


def test_parent_roll_up_counts_a_paper_once(warehouse):
    # The MoE paper is in cs.LG and stat.ML; on Jan 1 it is listed once as cs.LG.
    day = read(warehouse, "SELECT level, code, n_papers FROM marts.papers_per_category_day "
                          "WHERE date = DATE '2027-01-01' AND taxonomy = 'arxiv' ORDER BY level, code")
    assert day.rows() == [("category", "cs.AI", 1), ("category", "cs.LG", 2), ("category", "q-bio.NC", 1),
                          ("category", "stat.ML", 1), ("parent", "cs", 3), ("parent", "q-bio", 1),
                          ("parent", "stat", 1)]
    # math.IT is an alias: the paper lands in cs.IT.
    it = read(warehouse, "SELECT n_papers FROM marts.papers_per_category WHERE code = 'cs.IT'")
    assert it.item() == 2


def test_coauthors_and_name_variants(warehouse):
    pair = read(warehouse, "SELECT * FROM marts.coauthor_pairs WHERE name_a = 'Dan Alistarh' AND name_b = 'Mahdi Nikdan'")
    assert pair["n_papers"].item() == 4  # two samples, the MoE paper and "DAN ALISTARH, Mahdi Nikdan"
    both_ways = read(warehouse, "SELECT name, n_papers FROM marts.author_collaborators "
                                "WHERE collaborator_name IN ('Dan Alistarh', 'Mahdi Nikdan') "
                                "AND name IN ('Dan Alistarh', 'Mahdi Nikdan') ORDER BY name")
    assert both_ways.rows() == [("Dan Alistarh", 4), ("Mahdi Nikdan", 4)]
    kempe = read(warehouse, "SELECT * FROM marts.top_authors WHERE name = 'Julia Kempe'").row(0, named=True)
    assert (kempe["n_papers"], kempe["rank_by_papers"]) == (6, 1)
    months = read(warehouse, "SELECT month_start, n_papers_listed, n_new_papers, cumulative_new_papers "
                             "FROM marts.author_productivity_month WHERE name = 'Julia Kempe' ORDER BY month_start")
    assert months.rows() == [(dt.date(2026, 12, 1), 2, 2, 2), (dt.date(2027, 2, 1), 2, 1, 3)]


def test_category_cooccurrence_across_taxonomies(warehouse):
    rows = read(warehouse, "SELECT code_b, n_papers FROM marts.category_cooccurrence "
                           "WHERE level = 'category' AND code_a = 'cs.LG' AND taxonomy_b = 'conference' ORDER BY code_b")
    assert rows.rows() == [("Deep Learning · Algorithms", 1), ("Deep Learning · Large Language Models", 2)]


def test_author_list_completeness_partitions_papers(warehouse):
    rows = read(warehouse, "SELECT * FROM marts.author_list_completeness ORDER BY seen_in")
    assert rows["n_papers"].sum() == read(warehouse, "SELECT count(*) FROM dim_paper").item()
    both = rows.filter(pl.col("seen_in") == "listing+search").row(0, named=True)
    # "and 2 more" in the listing, all five names on the search page: complete.
    assert (both["n_papers"], both["n_complete"]) == (4, 4)
    search = rows.filter(pl.col("seen_in") == "search").row(0, named=True)
    assert search["n_incomplete_unknown_total"] == 5  # "等" lists: four samples and one hand-written


def test_data_quality_facts(warehouse):
    reasons = read(warehouse, "SELECT reason_kind, n_spans, example_path, example_line_start, example_line_end "
                              "FROM marts.dq_quarantine_reasons ORDER BY reason_kind")
    assert reasons.rows() == [
        ("abstract without an authors line", 1, "corpus/run2/followups_search.txt", 9, 11),
        ("impossible listing date", 1, "corpus/run2/2027-02-03_arxiv.txt", 1, 5),
        ("record cut off at end of file", 1, "corpus/run2/2027-02-02_arxiv.txt", 16, 18),
        ("unknown format", 1, "corpus/run2/notes.txt", 1, 2),
    ]
    runs = read(warehouse, "SELECT run_number, n_files_loaded, n_files_unknown_format, n_quarantined_spans "
                           "FROM marts.dq_runs ORDER BY run_number")
    assert runs.rows() == [(1, 9, 0, 0), (2, 5, 1, 4)]
    notes = read(warehouse, "SELECT format, share_lines_quarantined, quarantine_reasons FROM marts.dq_files "
                            "WHERE path = 'corpus/run2/notes.txt'")
    assert notes.rows() == [("unknown", 1.0, "unknown format")]


def test_marts_agree_with_the_star(warehouse):
    summary = read(warehouse, "SELECT * FROM marts.warehouse_summary").row(0, named=True)
    counts = read(warehouse, "SELECT (SELECT count(*) FROM dim_paper) AS p, (SELECT count(*) FROM fact_listing) AS l, "
                             "(SELECT count(*) FROM dim_author) AS a").row(0)
    assert (summary["n_papers"], summary["n_listings"], summary["n_authors"]) == counts
    mismatched = read(warehouse, "SELECT t.name FROM marts.top_authors t JOIN dim_author a USING (author_id) "
                                 "WHERE t.n_papers <> a.n_papers")
    assert mismatched.is_empty()
    listed = read(warehouse, "SELECT sum(n_listings) FROM marts.papers_most_listed").item()
    assert listed == counts[1]


# ---------------------------------------------------------------------------- incremental
@pytest.mark.parametrize("view", sorted(set(VIEWS) - PER_RUN_VIEWS))
def test_incremental_marts_equal_a_fresh_load(warehouse, run_ingest, tmp_path_factory, view):
    fresh = corpus.fresh_warehouse(run_ingest, tmp_path_factory)
    left, right = normalised(warehouse, view), normalised(fresh, view)
    per_run = [c for c in left.columns if c == "run_id"]
    assert_frame_equal(left.drop(per_run).sort(pl.all()), right.drop(per_run).sort(pl.all()), rel_tol=1e-9)


# ---------------------------------------------------------------------------- docs and export
def test_data_dictionary_is_committed_and_current(warehouse):
    from flows.cli import app

    result = CliRunner().invoke(app, ["docs", "--warehouse", str(warehouse), "--out", "-"])
    assert result.exit_code == 0, result.output
    committed = REPO / "docs" / "data-dictionary.md"
    if UPDATE:
        committed.write_text(result.stdout, encoding="utf-8")
    assert result.stdout == committed.read_text(encoding="utf-8"), (
        "docs/data-dictionary.md is out of date: run `make run && digest docs` (or DIGEST_UPDATE_GOLDEN=1)")
    for view in VIEWS:
        assert f"### marts.{view}\n" in result.stdout


def test_export_writes_one_parquet_file_per_table(warehouse, tmp_path):
    from flows.cli import app

    result = CliRunner().invoke(app, ["export", "--parquet", str(tmp_path), "--warehouse", str(warehouse)])
    assert result.exit_code == 0, result.output
    tables = read(warehouse, "SELECT table_name, estimated_size FROM duckdb_tables() WHERE schema_name = 'main'")
    assert sorted(p.stem for p in tmp_path.glob("*.parquet")) == sorted(tables["table_name"])
    for name in tables["table_name"]:
        assert pl.read_parquet(tmp_path / f"{name}.parquet").height == read(warehouse, f'SELECT count(*) FROM "{name}"').item()
    assert sorted(p.stem for p in (tmp_path / "marts").glob("*.parquet")) == sorted(VIEWS)
    exported = pl.read_parquet(tmp_path / "marts" / "top_authors.parquet").sort("author_id")
    assert exported.equals(read(warehouse, "SELECT * FROM marts.top_authors").sort("author_id"))
    # again without the marts: the earlier mart files go (they stayed, read beside the new tables)
    result = CliRunner().invoke(app, ["export", "--parquet", str(tmp_path), "-w", str(warehouse), "--no-marts"])
    assert result.exit_code == 0, result.output
    assert not list((tmp_path / "marts").glob("*.parquet")) and not list(tmp_path.rglob(".*partial"))
    assert sorted(p.stem for p in tmp_path.glob("*.parquet")) == sorted(tables["table_name"])


def test_an_export_stopped_midway_leaves_the_last_export_whole(warehouse, tmp_path, monkeypatch):
    # each file was moved in as soon as it was written: an export stopped after its tables left
    # the marts of the export before, read by a BI tool as one warehouse
    tiny = tmp_path / "tiny.duckdb"
    with duckdb.connect(str(tiny)) as con:
        con.execute("CREATE TABLE dim_paper AS SELECT 1 AS paper_id; CREATE SCHEMA marts;"
                    "CREATE VIEW marts.top_authors AS SELECT 1 AS author_id")
    out = tmp_path / "out"
    with analytics.open_read_only(tiny, allow_files=True) as con:
        analytics.export_parquet(con, out)
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*.parquet")}
    written = []
    real = duckdb.DuckDBPyRelation.write_parquet

    def stop_at_the_marts(rel, path, **kw):
        if "marts" in path:
            raise KeyboardInterrupt
        written.append(path)
        return real(rel, path, **kw)

    monkeypatch.setattr(duckdb.DuckDBPyRelation, "write_parquet", stop_at_the_marts)
    with analytics.open_read_only(warehouse, allow_files=True) as con, pytest.raises(KeyboardInterrupt):
        analytics.export_parquet(con, out)
    assert written  # the tables were written, then it stopped
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*.parquet")} == before
    assert not [p for p in out.rglob("*") if "partial" in p.name]


def test_two_exports_write_their_partial_files_under_names_of_their_own(warehouse, tmp_path, monkeypatch):
    names = []
    real = duckdb.DuckDBPyRelation.write_parquet
    monkeypatch.setattr(duckdb.DuckDBPyRelation, "write_parquet",
                        lambda rel, path, **kw: (names.append(path), real(rel, path, **kw))[1])
    for _ in range(2):
        with analytics.open_read_only(warehouse, allow_files=True) as con:
            analytics.export_parquet(con, tmp_path, with_marts=False)
    first, second = names[:len(names) // 2], names[len(names) // 2:]
    assert not set(first) & set(second)


def test_readers_do_not_hold_the_warehouse(warehouse):
    read(warehouse, "SELECT count(*) FROM marts.top_authors")
    with duckdb.connect(str(warehouse)) as writer:  # a writer could take it right after
        assert writer.execute("SELECT count(*) FROM dim_paper").fetchall()[0][0] > 0


def test_like_pattern_takes_wildcards_literally():
    assert analytics.like_pattern("50%_off\\") == "%50\\%\\_off\\\\%"


def test_top_author_labels_tell_every_person_apart():
    """Namesakes of one main category and years had one label ("Xiao Wang (cs.CV, 2026–2026)" three
    times in a hunt's warehouse): the Authors page offered identical choices and the chart drew
    one bar over another. The top co-author tells them apart, then a number."""
    con = duckdb.connect()
    con.execute("""
        CREATE SCHEMA marts;
        CREATE TABLE dim_author AS SELECT * FROM (VALUES
            (1, 'Xiao Wang', 'xiao wang'), (2, 'Xiao Wang', 'xiao wang'), (3, 'Xiao Wang', 'xiao wang'),
            (4, 'Xiao Wang', 'xiao wang'), (5, 'Jin Tang', 'jin tang'), (6, 'Bin Yang', 'bin yang'),
            (7, 'Ann Lee', 'ann lee'), (8, 'Ann Lee', 'ann lee.')) t(author_id, name, name_key);
        CREATE TABLE dim_paper AS SELECT * FROM (VALUES
            (10, 1, DATE '2026-01-05', DATE '2026-01-05'), (11, 1, DATE '2026-02-05', DATE '2026-02-05'),
            (12, 1, DATE '2026-03-05', DATE '2026-03-05'), (13, 1, DATE '2026-04-05', DATE '2026-04-05'),
            (14, 1, DATE '2026-05-05', DATE '2026-05-05'), (15, 1, DATE '2026-06-05', DATE '2026-06-05'))
            t(paper_id, n_listings, first_listed_on, last_listed_on);
        CREATE TABLE bridge_paper_author AS SELECT * FROM (VALUES
            (10, 1, 1), (10, 5, 2), (11, 2, 1), (11, 6, 2), (12, 3, 1), (12, 6, 2), (13, 4, 1),
            (14, 7, 1), (15, 8, 1)) t(paper_id, author_id, author_position);
        CREATE TABLE fact_listing AS SELECT paper_id, 1 AS source_file_id FROM dim_paper;
        CREATE TABLE dim_category AS SELECT 1 AS category_id, 'cs.CV' AS code;
        CREATE TABLE bridge_paper_category AS SELECT paper_id, 1 AS category_id FROM dim_paper;
        CREATE TABLE author_person AS SELECT author_id, false AS is_repeat FROM dim_author;
    """)
    con.execute((REPO / "schemas" / "marts" / "22_top_authors.sql").read_text(encoding="utf-8"))
    labels = dict(con.execute("SELECT author_id, label FROM marts.top_authors").fetchall())
    assert len(set(labels.values())) == len(labels)
    assert labels[1] == "Xiao Wang (cs.CV, 2026–2026, with Jin Tang)"
    assert {labels[2], labels[3]} == {"Xiao Wang (cs.CV, 2026–2026, with Bin Yang) #1",
                                      "Xiao Wang (cs.CV, 2026–2026, with Bin Yang) #2"}
    assert labels[4] == "Xiao Wang (cs.CV, 2026–2026)"
    assert labels[5] == "Jin Tang"
    assert labels[7] != labels[8] and labels[7].startswith("Ann Lee (")  # one display name, two keys
