"""Row-group compaction (flows/load.py, ROW_GROUP_SLACK): a run lets DuckDB compact row groups
at its COMMIT only once some table holds more row groups than its rows need, beyond the slack.
Compacting at every run rewrote ~300 MB of abstracts in a +1 % run at 1M listings."""

from __future__ import annotations

import shutil

import duckdb

from flows import load


def _vacuum_tasks(con: duckdb.DuckDBPyConnection) -> int:
    return con.execute("SELECT current_setting('max_vacuum_tasks')").fetchone()[0]


def _fragment(con: duckdb.DuckDBPyConnection, table: str, n_runs: int) -> None:
    """One small table appended to by many runs, none of them compacting: one row group each."""
    con.execute("SET max_vacuum_tasks = 0")
    con.execute(f"CREATE TABLE {table} (x INTEGER)")
    for run in range(n_runs):
        con.execute(f"INSERT INTO {table} VALUES (?)", [run])
        con.execute("CHECKPOINT")
    con.execute("RESET max_vacuum_tasks")


def test_a_run_on_a_compact_warehouse_does_not_compact(seeds_warehouse, tmp_path):
    path = tmp_path / "w.duckdb"
    shutil.copyfile(seeds_warehouse[0], path)
    with load.connect(path) as con:
        loader = load.RunLoader(con, "run-1")
        loader.begin()
        assert loader.compacting == [] and _vacuum_tasks(con) == 0
        loader.rollback()


def test_a_table_past_the_slack_is_compacted_by_the_next_run(seeds_warehouse, tmp_path):
    path = tmp_path / "w.duckdb"
    shutil.copyfile(seeds_warehouse[0], path)
    with load.connect(path) as con:
        _fragment(con, "scratch", load.MIN_EXTRA_ROW_GROUPS + 1)  # at the slack: its rows need one group
        assert load.fragmented_tables(con) == []
        con.execute("INSERT INTO scratch VALUES (-1)")
        con.execute("SET max_vacuum_tasks = 0")
        con.execute("CHECKPOINT")
        con.execute("RESET max_vacuum_tasks")
        assert load.row_groups(con, "scratch") == load.MIN_EXTRA_ROW_GROUPS + 2
        assert load.fragmented_tables(con) == ["scratch"]
        loader = load.RunLoader(con, "run-1")
        loader.begin()
        assert loader.compacting == ["scratch"] and _vacuum_tasks(con) > 0
        con.execute("INSERT INTO scratch VALUES (-2)")
        loader.commit()
        con.execute("CHECKPOINT")  # a run's COMMIT checkpoints once its log passes DuckDB's threshold
        assert load.row_groups(con, "scratch") == 1 and load.fragmented_tables(con) == []


def test_a_users_own_table_with_any_name_is_measured(seeds_warehouse, tmp_path):
    path = tmp_path / "w.duckdb"
    shutil.copyfile(seeds_warehouse[0], path)
    odd = 'my.notes "draft", it\'s ünïcode'
    with load.connect(path) as con:
        _fragment(con, '"' + odd.replace('"', '""') + '"', load.MIN_EXTRA_ROW_GROUPS + 2)
        assert load.fragmented_tables(con) == [odd]
        loader = load.RunLoader(con, "run-1")
        loader.begin()
        assert loader.compacting == [odd]
        loader.rollback()


def test_small_runs_add_row_groups_until_the_vacuum_merges_them(seeds_warehouse, tmp_path, capsys):
    """What the setting relies on, through bench.compaction's simulated runs: with the vacuum off a
    run appends row groups and rewrites nothing old; with it on, they are merged again."""
    from bench import compaction

    path = tmp_path / "w.duckdb"
    shutil.copyfile(seeds_warehouse[0], path)
    with duckdb.connect(str(path)) as con:
        start = load.row_groups(con, "paper_version")
        for run in range(3):
            compaction._run(con, run, vacuum=False, touched=5, new=3)
        assert load.row_groups(con, "paper_version") == start + 3
        compaction._run(con, 3, vacuum=True, touched=5, new=3)
        assert load.row_groups(con, "paper_version") == 1
    assert "vacuum on" in capsys.readouterr().out
