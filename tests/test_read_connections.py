"""Read connections of one process (the dashboard serves each browser session from a thread).

DuckDB gives every `connect` to one file path in a process one shared database instance, with
one configuration. Before: the first reader's `SET lock_configuration = true` locked that shared
configuration, so a second reader opening meanwhile failed on its own first SET ("The warehouse
could not be read" on the dashboard, for 20 of 30 page loads of 10 sessions); and a reader
opening while another was open got the open instance, so after an ingest replaced the file it
read the replaced one (answers of the run before, cached under the new file's version)."""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

import duckdb
import pytest

from flows import analytics


def warehouse(path, n_papers: int):
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE dim_paper AS SELECT range AS paper_id FROM range(?)", [n_papers])
    return path


def test_readers_in_many_threads_at_once_all_read(tmp_path):
    w = warehouse(tmp_path / "w.duckdb", 7)
    start = threading.Barrier(8)

    def read_many(_):
        start.wait()
        return [analytics.query(w, "SELECT count(*) AS n FROM dim_paper")["n"][0] for _ in range(20)]

    with ThreadPoolExecutor(8) as pool:
        counts = [n for ns in pool.map(read_many, range(8)) for n in ns]
    assert counts == [7] * 160


def test_a_reader_opened_after_a_publish_reads_the_new_file_while_another_is_open(tmp_path):
    w = warehouse(tmp_path / "w.duckdb", 3)
    new = warehouse(tmp_path / "new.duckdb", 5)
    with analytics.open_read_only(w) as old_reader:
        os.replace(new, w)  # as flows.publish does
        assert analytics.query(w, "SELECT count(*) AS n FROM dim_paper")["n"][0] == 5
        assert old_reader.execute("SELECT count(*) FROM dim_paper").fetchone()[0] == 3  # its own snapshot


@pytest.mark.parametrize("sql", ["SELECT * FROM read_csv('/etc/passwd')", "ATTACH '/tmp/x.duckdb' AS x",
                                 "SET enable_external_access = true", "COPY dim_paper TO 'x.csv'",
                                 "CREATE TABLE t AS SELECT 1"])
def test_a_read_connection_stays_locked_down(tmp_path, sql):
    w = warehouse(tmp_path / "w.duckdb", 3)
    with analytics.open_read_only(w) as con, pytest.raises(duckdb.Error):
        con.execute(sql)


@pytest.mark.parametrize("name", ["sales.duckdb", "sales.v2.duckdb", "sales", "sales.db"])
def test_a_read_connection_names_the_warehouse_as_before(tmp_path, name):
    # the catalog is named as a direct open names it (the file name to its first dot): qualified
    # names keep working
    w = warehouse(tmp_path / name, 2)
    assert analytics.query(w, "SELECT count(*) AS n FROM sales.main.dim_paper")["n"][0] == 2


@pytest.mark.parametrize("sql", ["SELECT count(*) AS n FROM dim_paper;\n-- end", "SELECT count(*) AS n FROM dim_paper; ;",
                                 "-- papers\nSELECT count(*) AS n FROM dim_paper /* all */; /* done */",
                                 "SELECT count(*) AS n FROM dim_paper -- no line end after this",
                                 # DuckDB's tokenizer counts bytes: the cut fell inside the comment
                                 "SELECT count(*) AS n FROM dim_paper WHERE 'Müller' <> 'Čapek' -- é",
                                 "-- Übersicht\nSELECT count(*) AS n FROM dim_paper; -- ß"])
def test_a_query_may_end_in_semicolons_and_comments(tmp_path, sql):
    """A .sql file's text ("...;\\n-- end") is one statement to DuckDB and to the check, but the
    result is read as a subquery, where the kept ";" was a syntax error."""
    w = warehouse(tmp_path / "w.duckdb", 3)
    assert analytics.query(w, sql)["n"].to_list() == [3]
    with analytics.open_read_only(w) as con:  # as `digest query` reads it: a head for the table, batches else
        assert analytics.result_head(analytics.checked_query(con, sql), 10)[0]["n"].to_list() == [3]
        with analytics.result_batches(analytics.checked_query(con, sql)) as frames:
            assert [n for frame in frames for n in frame["n"]] == [3]
