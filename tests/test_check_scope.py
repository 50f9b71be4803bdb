"""A run's blocking checks look at the rows it wrote (schemas/check_scope_run.sql) once the
warehouse has passed the same checks on the same schema; a first load, an upgrade or new checks
are checked whole. Whatever a run breaks among its own rows, or through them (a person removed
whose older papers still point at it), the run's scope finds exactly what the whole-warehouse
checks find; `digest audit` checks every row."""

from __future__ import annotations

import datetime as dt
import json
import shutil
from functools import partial
from pathlib import Path

import duckdb
import polars as pl
import pytest
from typer.testing import CliRunner

from flows import load
from flows.cli import app
from flows.resolve import resolve_entities
from tests.test_persons_warehouse import DAY1, DAY2
from transforms.pipeline import SourceFile, process_batch

DAY3 = DAY2.replace("Mar 3, 2027", "Mar 4, 2027").replace("Pablo Ibarra", "Pablo Ibarra, Wei Wang")
OTHERS = """#01Mar 5, 2027
cs.CL
Tokenizers for Low-Resource Scripts
Amara Okonkwo, Lars Eriksen
We study subword tokenizers for scripts with little written text and find that byte-level fallbacks halve the error of unigram models on three languages.
"""


def load_files(warehouse: Path, texts: dict[str, str], run_id: str, corrupt=None):
    """One run of the real loader; `corrupt(con)` runs between the merge and the checks.
    Returns the loader (its `checked`) and the checks over the run's scope and over every row."""
    sources = [SourceFile(i, path, text.encode()) for i, (path, text) in enumerate(texts.items(), 1)]
    batch = process_batch(sources)
    batch.files = batch.files.with_columns(
        path=pl.Series(list(texts)), sha256=pl.Series([f"{run_id}{i:060d}"[:64] for i in range(len(texts))]),
        size_bytes=pl.Series([len(t) for t in texts.values()], dtype=pl.Int64), mtime_ns=pl.lit(0, pl.Int64))
    con = load.connect(warehouse)
    loader = load.RunLoader(con, run_id, resolver=partial(resolve_entities, threshold=0.8))
    try:
        loader.begin()
        loader.stage(batch)
        stats = loader.merge(dt.datetime(2027, 3, 5, tzinfo=dt.timezone.utc))
        if corrupt:
            corrupt(con)
        scoped = load.run_checks(con, "check_scope_run.sql", {"run_id": run_id})
        whole = load.run_checks(con)
        try:
            loader.check()
        except load.WarehouseCheckError:
            return loader, scoped, whole
        load.record_run(con, run_id, dt.datetime(2027, 3, 5, tzinfo=dt.timezone.utc), "completed", len(texts), stats,
                        checked=loader.checked)
        loader.commit()
        return loader, scoped, whole
    finally:
        loader.rollback()
        con.close()


def failing(checks: dict[str, int]) -> dict[str, int]:
    return {name: n for name, n in checks.items() if n}


@pytest.fixture(scope="module")
def day1_loaded(tmp_path_factory) -> Path:
    warehouse = tmp_path_factory.mktemp("day1") / "w.duckdb"
    loader, _, _ = load_files(warehouse, {"day1.txt": DAY1}, "run1")
    assert loader.checked[0] == "warehouse"  # a first load has no checked run to build on
    return warehouse


@pytest.fixture
def day1(day1_loaded, tmp_path) -> Path:
    """A copy of the first load (its run committed: no WAL), for a test to load onto."""
    warehouse = tmp_path / "w.duckdb"
    shutil.copyfile(day1_loaded, warehouse)
    return warehouse


# Each breaks a row the second run wrote, or an older row through one (an author or paper of the
# run removed while older rows point at it).
CORRUPTIONS = {
    "a listing twice": "INSERT INTO fact_listing SELECT * FROM fact_listing WHERE listing_id = (SELECT min(listing_id) FROM stg_listings)",
    "a listing of no paper": "UPDATE fact_listing SET paper_id = 7 WHERE listing_id = (SELECT max(listing_id) FROM stg_listings)",
    "a touched paper removed": "DELETE FROM dim_paper WHERE paper_id IN (SELECT paper_id FROM touched)",
    "a person's row twice": "INSERT INTO dim_author SELECT * FROM dim_author WHERE author_id = (SELECT min(author_id) FROM touched_authors)",
    "a person removed under older papers": "DELETE FROM dim_author WHERE author_id IN (SELECT author_id FROM touched_authors)",
    "a spelling twice": "INSERT INTO author_name_variant SELECT * FROM author_name_variant WHERE name_key = (SELECT min(name_key) FROM stg_authors)",
    "a mention lost": "DELETE FROM author_mention WHERE paper_id = (SELECT min(paper_id) FROM touched) AND author_position = 1",
    "a mention twice": "INSERT INTO author_mention SELECT * FROM author_mention WHERE run_id = 'run2' LIMIT 1",
    "a person twice": "INSERT INTO author_person SELECT * FROM author_person WHERE author_id = (SELECT max(author_id) FROM touched_authors)",
    "a bridge row to nobody": "UPDATE bridge_paper_author SET author_id = 7 WHERE paper_id = (SELECT max(paper_id) FROM touched) AND author_position = 1",
    "a bridge row lost": "DELETE FROM bridge_paper_author WHERE paper_id = (SELECT max(paper_id) FROM touched)",
    # one person at two places of a list, the later place's bridge row gone (a hunt's find: a rare name
    # shown twice lost its later place, and no check saw it)
    "a shown place without its bridge row": """
        CREATE TEMP TABLE two_places AS SELECT paper_id, author_id FROM author_mention
        WHERE paper_id = (SELECT max(paper_id) FROM author_mention WHERE run_id = 'run2' AND author_position = 2)
          AND author_position = 1;
        UPDATE author_mention SET author_id = t.author_id, decided_id = t.author_id FROM two_places t
        WHERE author_mention.paper_id = t.paper_id AND author_mention.author_position = 2;
        DELETE FROM bridge_paper_author WHERE paper_id = (SELECT paper_id FROM two_places) AND author_position = 2;""",
    "a paper's count off": "UPDATE dim_paper SET n_listings = n_listings + 1 WHERE paper_id = (SELECT min(paper_id) FROM touched)",
}


@pytest.mark.parametrize("sql", CORRUPTIONS.values(), ids=CORRUPTIONS.keys())
def test_the_runs_scope_finds_what_the_whole_warehouse_checks_find(day1, sql):
    loader, scoped, whole = load_files(day1, {"day2.txt": DAY2}, "run2", corrupt=lambda con: con.execute(sql))
    assert not loader.check_whole
    assert failing(whole)  # the corruption breaks something
    assert scoped == whole
    assert loader.checked is None  # the run was refused


def test_a_clean_second_run_checks_its_own_rows_and_says_so(day1):
    loader, scoped, whole = load_files(day1, {"day2.txt": DAY2}, "run2")
    assert failing(scoped) == failing(whole) == {}
    assert loader.checked == ("run", loader.checks_digest)
    loader, _, _ = load_files(day1, {"day3.txt": DAY3}, "run3")
    assert loader.checked[0] == "run"
    with duckdb.connect(str(day1), read_only=True) as con:
        rows = con.execute("SELECT run_id, checks_scope FROM ingest_run ORDER BY run_id").fetchall()
    assert rows == [("run1", "warehouse"), ("run2", "run"), ("run3", "run")]


def test_other_checks_or_an_upgraded_schema_are_checked_whole(day1):
    with duckdb.connect(str(day1)) as con:  # the content passed other (older) checks
        con.execute("UPDATE ingest_run SET checks_digest = 'older'")
    loader, _, _ = load_files(day1, {"day2.txt": DAY2}, "run2")
    assert loader.checked[0] == "warehouse"
    with duckdb.connect(str(day1)) as con:  # an upgrade (here by hand) changed the schema since
        con.execute("ALTER TABLE dim_paper ADD COLUMN upgraded_by_hand INTEGER")
    loader, _, _ = load_files(day1, {"day3.txt": DAY3}, "run3")
    assert loader.checked[0] == "warehouse"
    with duckdb.connect(str(day1)) as con:  # the last run was older code, which recorded no checks
        con.execute("UPDATE ingest_run SET checks_digest = NULL WHERE run_id = 'run3'")
    loader, _, _ = load_files(day1, {"others.txt": OTHERS}, "run4")
    assert loader.checked[0] == "warehouse"


def test_a_row_broken_outside_any_run_is_left_to_digest_audit(day1):
    """A run trusts what earlier runs checked; an edit by hand is what `digest audit` is for."""
    with duckdb.connect(str(day1)) as con:
        con.execute("INSERT INTO dim_author SELECT * FROM dim_author LIMIT 1")
    loader, scoped, whole = load_files(day1, {"others.txt": OTHERS}, "run2")
    assert failing(whole) and not failing(scoped)
    result = CliRunner().invoke(app, ["audit", "--warehouse", str(day1)])
    assert result.exit_code == 1
    assert "one dim_author row per author_id" in result.output
    as_json = CliRunner().invoke(app, ["audit", "--warehouse", str(day1), "--json"])
    assert as_json.exit_code == 1 and "one dim_author row per author_id" in as_json.stderr
    assert json.loads(as_json.stdout)  # the files, as before


# The tables a run's checks read through a scope, the scope macro each is read through, and the
# column it is keyed on there.
SCOPED = {"fact_listing": ("check_papers", "paper_id"), "dim_paper": ("check_papers", "paper_id"),
          "author_mention": ("check_papers", "paper_id"), "bridge_paper_author": ("check_papers", "paper_id"),
          "dim_author": ("check_authors", "author_id"), "author_person": ("check_authors", "author_id"),
          "author_name_variant": ("check_names", "name_key")}


def table_rows(con, table: str) -> set[tuple]:
    return {tuple(tuple(v) if isinstance(v, list) else v for v in row)
            for row in con.execute(f"SELECT * FROM {table}").fetchall()}


def test_every_row_a_run_changes_is_in_its_scope(day1):
    """The guard for the merge as it grows: every row a run inserts, updates or deletes in a
    scoped table has its key in the run's scope (a new file, a new version of a stored file that
    supersedes its listings, persons of both days)."""
    texts = {"day2.txt": DAY2, "day1.txt": DAY1.replace("microsecond latency", "microsecond latency and low power")}
    sources = [SourceFile(i, path, text.encode()) for i, (path, text) in enumerate(texts.items(), 1)]
    batch = process_batch(sources)
    batch.files = batch.files.with_columns(
        path=pl.Series(list(texts)), sha256=pl.Series([f"v2{i:062d}" for i in range(len(texts))]),
        size_bytes=pl.Series([len(t) for t in texts.values()], dtype=pl.Int64), mtime_ns=pl.lit(0, pl.Int64))
    con = load.connect(day1)
    loader = load.RunLoader(con, "run2", resolver=partial(resolve_entities, threshold=0.8))
    try:
        loader.begin()
        loader.stage(batch)
        before = {t: table_rows(con, t) for t in SCOPED}
        loader.merge(dt.datetime(2027, 3, 5, tzinfo=dt.timezone.utc))
        load.run_sql_file(con, "check_scope_run.sql", {"run_id": "run2"})
        for table, (scope, key) in SCOPED.items():
            columns = [c for (c,) in con.execute(f"SELECT column_name FROM duckdb_columns() WHERE table_name = '{table}' "
                                                 "AND database_name = current_database() ORDER BY column_index").fetchall()]
            after = table_rows(con, table)
            changed = {row[columns.index(key)] for row in before[table] ^ after}
            in_scope = {k for (k,) in con.execute(f"SELECT {key} FROM {scope}").fetchall()}
            assert changed, table  # the run changed the table (else the test shows nothing)
            assert changed <= in_scope, (table, changed - in_scope)
        assert con.execute("SELECT count(*) FROM fact_listing_history").fetchall()[0][0] > 0  # a version superseded
    finally:
        loader.rollback()
        con.close()
