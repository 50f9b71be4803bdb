"""`digest query` hardening, second round: SQL hidden in a function's text argument (it wrote a
file under --allow-files), dates Python cannot hold (a traceback in JSON), TIMETZ offsets (lost
in every output).

The warehouse is a small DuckDB file made here: `digest query` needs nothing of the real schema
but a table to read, and an ingest would only slow these tests down.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner


def cli(*args):
    from flows.cli import app

    return CliRunner().invoke(app, [str(a) for a in args])


def one_line_error(result) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), result.output
    assert "Traceback" not in result.output
    return lines[0]


def digest_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def warehouse(tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("query_wh") / "w.duckdb"
    with duckdb.connect(str(target)) as con:
        con.execute("CREATE TABLE dim_paper AS SELECT 1 AS paper_id, 'A title' AS title")
    return target


# ---------------------------------------------------------------------------- SQL given as text
# Each hides a write from the syntax-tree check in a string: the first wrote w5.parquet under
# --allow-files (the tester's report), the second wrote through query() holding it.
HIDDEN_WRITES = {
    "serialized_copy_in_with": (
        "json_execute_serialized_sql",
        "SELECT * FROM json_execute_serialized_sql(json_serialize_sql("
        "'WITH x AS (COPY (SELECT * FROM dim_paper) TO ''{out}/w5.parquet'') SELECT 1'))"),
    "query_holding_serialized_copy": (
        "query",
        "SELECT * FROM query('SELECT * FROM json_execute_serialized_sql(json_serialize_sql("
        "''WITH x AS (COPY (SELECT * FROM dim_paper) TO ''''{out}/w6.csv'''') SELECT 1''))')"),
    "serialized_in_serialized": (
        "json_execute_serialized_sql",
        "SELECT * FROM json_execute_serialized_sql(json_serialize_sql('SELECT * FROM json_execute_serialized_sql("
        "json_serialize_sql(''WITH x AS (COPY dim_paper TO ''''{out}/w7.csv'''') SELECT 1''))'))"),
    "serialized_in_scalar_subquery": (
        "json_execute_serialized_sql",
        "SELECT (SELECT count(*) FROM json_execute_serialized_sql(json_serialize_sql("
        "'WITH x AS (COPY dim_paper TO ''{out}/w8.csv'') SELECT 1'))) AS n"),
    "qualified_upper_case_name": (
        "json_execute_serialized_sql",
        'FROM system.main."JSON_EXECUTE_SERIALIZED_SQL"(json_serialize_sql('
        "'WITH x AS (COPY dim_paper TO ''{out}/w9.csv'') SELECT 1'))"),
    "serialized_export": (
        "json_execute_serialized_sql",
        "SELECT * FROM json_execute_serialized_sql(json_serialize_sql('EXPORT DATABASE ''{out}/exported'''))"),
    "query_copy": ("query", "SELECT * FROM query('COPY (SELECT * FROM dim_paper) TO ''{out}/w10.csv''')"),
    "plan_of_copy": ("json_serialize_plan", "SELECT 'WITH x AS (COPY dim_paper TO ''{out}/w11.csv'') SELECT 1'.json_serialize_plan() AS p"),
}


@pytest.mark.parametrize("allow_files", [False, True])
def test_query_refuses_functions_that_take_sql_as_text(warehouse, tmp_path, allow_files):
    before = digest_of(warehouse)
    for name, (function, attack) in HIDDEN_WRITES.items():
        result = cli("query", attack.format(out=tmp_path), "-w", warehouse, *(["--allow-files"] if allow_files else []))
        assert result.exit_code == 2, (name, result.output)
        error = one_line_error(result)
        # Said for what it is, not as a file read that --allow-files would let through.
        assert error.startswith("error: refused:") and f"{function}()" in error, (name, error)
        assert "reading other files" not in error, (name, error)
    assert not list(tmp_path.iterdir()), "a query wrote a file"
    assert digest_of(warehouse) == before


# Functions that call a table function named by a string (DuckDB 2.0's external resources): the
# first wrote w12.csv through json_execute_serialized_sql under --allow-files (hunt 51).
NAMED_CALLS = {
    "deleter_runs_serialized_copy": (
        "destroy_external_resource",
        "SELECT * FROM destroy_external_resource('json_execute_serialized_sql', json_serialize_sql("
        "'WITH x AS (COPY (SELECT * FROM dim_paper) TO ''{out}/w12.csv'') SELECT 1'))"),
    "deleter_runs_query": (
        "destroy_external_resource",
        "SELECT (SELECT count(*) FROM destroy_external_resource('query', 'COPY dim_paper TO ''{out}/w13.csv'''))"),
    "resource_type_with_a_create_function": (
        "register_external_resource_type",
        "FROM register_external_resource_type('t', 'k', 'json_execute_serialized_sql', 'x', 'x', 'x', 'x')"),
    "create_resource": ("create_external_resource", "FROM create_external_resource('t', MAP {{'a': 'b'}})"),
    "register_resource": (
        "register_external_resource",
        "FROM register_external_resource('t', 'n', MAP {{'a': 'b'}}, 'u', 'duckdb', 'json_execute_serialized_sql')"),
    "deregister_resource": ("deregister_external_resource", "FROM deregister_external_resource('n')"),
}


@pytest.mark.parametrize("allow_files", [False, True])
def test_query_refuses_functions_that_call_a_function_named_as_text(warehouse, tmp_path, allow_files):
    before = digest_of(warehouse)
    for name, (function, attack) in NAMED_CALLS.items():
        result = cli("query", attack.format(out=tmp_path), "-w", warehouse, *(["--allow-files"] if allow_files else []))
        assert result.exit_code == 2, (name, result.output)
        error = one_line_error(result)
        assert error.startswith("error: refused:") and f"{function}()" in error, (name, error)
    assert not list(tmp_path.iterdir()), "a query wrote a file"
    assert digest_of(warehouse) == before


def test_every_function_of_duckdb_that_calls_a_function_by_name_is_refused_or_reviewed():
    """A DuckDB upgrade that adds a function taking another function's name fails here until it is refused."""
    from flows.analytics import NAMED_FUNCTION_CALLERS

    with duckdb.connect() as con:
        names = {row[0] for row in con.execute(
            "SELECT DISTINCT function_name FROM duckdb_functions() WHERE function_name ~ '(?i)(resource|callback|exec|eval)' "
            "OR list_has_any(list_transform(parameters, lambda p: regexp_matches(p, '(?i)(function|callback|deleter|handler)')), [true])"
        ).fetchall()}
    # Reviewed: list_aggregate and its aliases call an aggregate by name (aggregates write nothing);
    # python_map_function needs a Python callable; the rest only list or check.
    reviewed = {"list_aggregate", "list_aggr", "aggregate", "array_aggregate", "array_aggr", "python_map_function",
                "has_function_privilege", "duckdb_external_resources", "duckdb_external_resource_types",
                "duckdb_functions", "functions", "json_execute_serialized_sql", "pg_function_is_visible"}
    assert NAMED_FUNCTION_CALLERS <= names
    assert names - NAMED_FUNCTION_CALLERS - reviewed == set()


def test_allow_files_still_reads_local_files_and_sql_text_helpers_that_run_nothing(warehouse, tmp_path):
    table = tmp_path / "own.csv"
    table.write_text("a,b\n1,2\n")
    allowed = cli("query", f"SELECT * FROM read_csv('{table}')", "-w", warehouse, "--allow-files", "-f", "csv")
    assert allowed.exit_code == 0 and allowed.stdout == "a,b\n1,2\n", allowed.output
    for query in ("SELECT json_deserialize_sql(json_serialize_sql('SELECT 1')) AS s", "FROM query_table('dim_paper')"):
        assert cli("query", query, "-w", warehouse, "-f", "csv").exit_code == 0, query
    refused = cli("query", f"SELECT * FROM read_csv('{table}')", "-w", warehouse)
    error = one_line_error(refused)
    assert refused.exit_code == 2 and "--allow-files" in error and "never write" in error, error
    assert sorted(p.name for p in tmp_path.iterdir()) == ["own.csv"]


# Functions reviewed as taking SQL (or a query) as text but running none: parse or print only,
# name tables, or report on the session.
RUN_NOTHING = {"json_serialize_sql", "json_deserialize_sql", "query_table", "current_query", "current_query_id",
               "duckdb_live_query_metrics", "duckdb_prepared_statements"}


def test_every_function_of_duckdb_that_takes_sql_text_is_refused_or_reviewed():
    """A DuckDB upgrade that adds a function running SQL text fails here until it is refused."""
    from flows.analytics import SQL_TEXT_FUNCTIONS

    with duckdb.connect() as con:
        names = {row[0] for row in con.execute(
            "SELECT DISTINCT function_name FROM duckdb_functions() WHERE function_name ~ '(?i)(sql|query|statement)' "
            "OR list_has_any(list_transform(parameters, lambda p: regexp_matches(p, '(?i)(sql|query|statement)')), [true])"
        ).fetchall()}
    assert SQL_TEXT_FUNCTIONS <= names  # still DuckDB's names
    assert names - SQL_TEXT_FUNCTIONS - RUN_NOTHING == set()


# ---------------------------------------------------------------------------- dates and TIMETZ
# Dates Python cannot hold raised "year ... is out of range" in JSON (`to_dicts`); a TIMETZ lost
# its offset in every output (Arrow has no time with an offset). Each comes as DuckDB's text.
ODD_TIMES = {
    "DATE '10000-01-01'": "10000-01-01",
    "DATE '0044-03-15 (BC)'": "0044-03-15 (BC)",
    "make_date(-1, 1, 1)": "0002-01-01 (BC)",
    "TIMESTAMP '10000-01-01 12:30:00'": "10000-01-01 12:30:00",
    "'0044-03-15 (BC)'::TIMESTAMP_MS": "0044-03-15 (BC) 00:00:00",
    "[DATE '10000-01-01']": "[10000-01-01]",
    "TIMETZ '12:00:00+03'": "12:00:00+03",
    "[TIMETZ '08:15:00-05:30']": "['08:15:00-05:30']",
    "{'at': TIMETZ '12:00:00+03'}": "{'at': '12:00:00+03'}",
}


@pytest.mark.parametrize("expression", list(ODD_TIMES))
def test_query_shows_dates_python_cannot_hold_and_time_offsets_in_every_output(warehouse, expression):
    expected = ODD_TIMES[expression]
    sql = f"SELECT {expression} AS v, DATE '2020-02-29' AS d"
    for output in ("table", "csv"):
        result = cli("query", sql, "-w", warehouse, "-f", output)
        assert result.exit_code == 0 and expected in result.stdout, (output, result.output)
    result = cli("query", sql, "-w", warehouse, "-f", "json")
    assert result.exit_code == 0 and "Traceback" not in result.output, result.output
    assert json.loads(result.stdout) == [{"v": expected, "d": "2020-02-29"}]


# ---------------------------------------------------------------------------- what parses as SQL
def test_sql_that_begins_with_a_comment_is_the_query_not_an_option(warehouse):
    # click read "-- top papers\nSELECT ..." as an unknown option: "No such option: -- top papers..."
    sql = "-- the one paper\nSELECT paper_id FROM dim_paper"
    for args in (["query", sql, "-w", warehouse, "-f", "csv"], ["query", "-f", "csv", sql, "-w", warehouse],
                 ["query", "-w", warehouse, "-f", "csv", "--", sql]):
        result = cli(*args)
        assert result.exit_code == 0 and result.stdout == "paper_id\n1\n", (args, result.output)
    typo = cli("query", "--fromat", "csv", "SELECT 1", "-w", warehouse)
    assert typo.exit_code == 2 and "No such option: --fromat" in typo.output


# A PIVOT without its values is a MULTI statement (an ENUM of the values made first, then the SELECT)
# and was refused as "not MULTI". Those around another statement, or under --allow-files, still are.
PIVOT = "PIVOT dim_paper ON title USING count(*)"
PIVOT_WRITES = {
    "copy_of_pivot": f"COPY ({PIVOT}) TO '{{out}}/p.csv'",
    "create_as_pivot": f"CREATE TEMP TABLE p AS {PIVOT}",
    "insert_pivot": f"INSERT INTO dim_paper SELECT * FROM ({PIVOT})",
    "pivot_then_copy": f"{PIVOT}; COPY dim_paper TO '{{out}}/q.csv'",
    "explain_analyze": f"EXPLAIN ANALYZE {PIVOT}",
}


def test_a_pivot_that_lists_no_values_runs_and_writes_around_one_stay_refused(warehouse, tmp_path):
    before = digest_of(warehouse)
    for sql in (PIVOT, f"-- wide\n{PIVOT.lower()}", f"-- größe\n{PIVOT}", "PIVOT dim_paper ON title IN ('A title') USING count(*)",
                "UNPIVOT (SELECT 1 AS a, 2 AS b) ON a, b INTO NAME k VALUE v ORDER BY k"):
        result = cli("query", sql, "-w", warehouse, "-f", "csv")
        assert result.exit_code == 0 and result.stdout.splitlines()[1] in ("1,1", "a,1"), (sql, result.output)
    for allow_files in ([], ["--allow-files"]):
        for name, attack in PIVOT_WRITES.items():
            result = cli("query", attack.format(out=tmp_path), "-w", warehouse, *allow_files)
            assert result.exit_code == 2 and one_line_error(result).startswith("error: refused:"), (name, result.output)
        # the values made from a query that hides a COPY: nothing may be written
        hidden = cli("query", f"PIVOT (FROM query('COPY dim_paper TO ''{tmp_path}/h.csv''')) ON title USING count(*)",
                     "-w", warehouse, *allow_files)
        assert hidden.exit_code == 2, hidden.output
        one_line_error(hidden)
    refused = cli("query", PIVOT, "-w", warehouse, "--allow-files")
    assert "list them" in one_line_error(refused)
    assert not list(tmp_path.iterdir()), "a query wrote a file"
    assert digest_of(warehouse) == before


def test_a_pivot_that_lists_no_values_writes_nothing_into_the_spill_folder(warehouse, tmp_path):
    """External access off still lets DuckDB write its spill folder (`<warehouse>.tmp/`, there
    while a reader spills or after one was killed): a COPY hidden in json_execute_serialized_sql
    inside an unchecked PIVOT wrote its file there (hunt 51)."""
    own = tmp_path / "w.duckdb"
    own.write_bytes(warehouse.read_bytes())
    spill = tmp_path / "w.duckdb.tmp"
    spill.mkdir()
    before = digest_of(own)
    attacks = {
        "json_execute_serialized_sql": "PIVOT (SELECT * FROM json_execute_serialized_sql(json_serialize_sql("
                                       "'WITH x AS (COPY (SELECT 1 AS title) TO ''{out}/p1.csv'') SELECT 1 AS title'))) "
                                       "ON title USING count(*)",
        "query": 'PIVOT (FROM system.main."QUERY"(\'SELECT 1 AS title\')) ON title USING count(*)',
        "destroy_external_resource": "PIVOT (SELECT * FROM destroy_external_resource('json_execute_serialized_sql', "
                                     "json_serialize_sql('WITH x AS (COPY (SELECT 1 AS t) TO ''{out}/p2.csv'') SELECT 1 AS t'))) "
                                     "ON \"Success\" USING count(*)",
    }
    for function, attack in attacks.items():
        result = cli("query", attack.format(out=spill), "-w", own)
        assert result.exit_code == 2, (function, result.output)
        error = one_line_error(result)
        assert error.startswith("error: refused:") and f"{function}()" in error, (function, error)
    assert not list(spill.iterdir()), "a query wrote into the spill folder"
    assert digest_of(own) == before


# ---------------------------------------------------------------------------- large results
def test_read_connections_take_the_memory_budget_of_the_settings(warehouse, monkeypatch):
    # a reader took DuckDB's default (80% of the machine) whatever DIGEST_DUCKDB_MEMORY_LIMIT said
    from flows import analytics

    monkeypatch.setenv("DIGEST_DUCKDB_MEMORY_LIMIT", "300MB")
    result = cli("query", "SELECT current_setting('memory_limit') AS m", "-w", warehouse, "-f", "csv")
    assert result.exit_code == 0 and result.stdout == "m\n286.1 MiB\n", result.output
    assert analytics.query(warehouse, "SELECT current_setting('memory_limit') AS m").item() == "286.1 MiB"


# ---------------------------------------------------------------------------- Ctrl-C
def _holds_open(pid: int, path: Path) -> bool:
    fds = Path(f"/proc/{pid}/fd")
    try:
        return any(os.path.realpath(fd) == str(path.resolve()) for fd in fds.iterdir())
    except FileNotFoundError:  # ended, or a descriptor closed while listed
        return False


def test_ctrl_c_stops_a_long_query_in_one_line(warehouse):
    # ^C did nothing: DuckDB ran on (minutes, here) until the process was killed
    child = subprocess.Popen([str(Path(sys.executable).parent / "digest"), "query",
                              "SELECT count(*) FROM range(1000000000000) t(x) WHERE x % 7 = 3", "-w", str(warehouse)],
                             cwd=Path(__file__).resolve().parent.parent, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    try:
        deadline = time.monotonic() + 60
        while not _holds_open(child.pid, warehouse):  # the connection open: the query is about to run
            assert child.poll() is None and time.monotonic() < deadline, child.communicate()
            time.sleep(0.05)
        time.sleep(1)
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=30)
    finally:
        child.kill()
        child.wait()
    assert (child.returncode, out, err) == (130, "", "error: interrupted\n"), err


def test_sigterm_stops_a_query_and_leaves_no_spill_files(warehouse):
    # `timeout 60 digest query ...` (the workaround for a query with no time limit) sends SIGTERM:
    # the process died in the middle of the statement and left DuckDB's spill files (476 MB in
    # the hunt) in `<warehouse>.tmp` (hunt 51). Now as Ctrl-C: the statement stops, exit 143.
    spill = warehouse.parent / f"{warehouse.name}.tmp"
    sql = ("SELECT count(*) FROM (SELECT i, any_value(i::VARCHAR || 'padpadpadpadpadpad') AS s "
           "FROM range(1000000000) t(i) GROUP BY i)")
    child = subprocess.Popen([str(Path(sys.executable).parent / "digest"), "query", sql, "-w", str(warehouse)],
                             cwd=Path(__file__).resolve().parent.parent, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True, env={**os.environ, "DIGEST_DUCKDB_MEMORY_LIMIT": "100MB"})
    try:
        deadline = time.monotonic() + 60
        while not (spill.is_dir() and any(spill.iterdir())):  # spilling: the statement is running
            assert child.poll() is None and time.monotonic() < deadline, child.communicate()
            time.sleep(0.05)
        child.send_signal(signal.SIGTERM)
        out, err = child.communicate(timeout=30)
    finally:
        child.kill()
        child.wait()
    assert (child.returncode, out, err) == (143, "", "error: interrupted by SIGTERM\n"), err
    assert not spill.exists()


def test_the_table_shows_the_first_rows_and_says_how_many_it_left_out(warehouse):
    # every row was formatted, ~14 KB of memory a row: 5 GB for 345k rows
    from flows.cli import TABLE_ROWS

    result = cli("query", "SELECT range AS n FROM range(2500) ORDER BY n", "-w", warehouse)
    assert result.exit_code == 0, result.output
    shown = [int(n) for n in re.findall(r"^│ (\d+) +│$", result.stdout, re.M)]
    assert shown == list(range(TABLE_ROWS))
    assert result.stderr == f"{2500 - TABLE_ROWS:,} more rows not shown (2,500 in all): --format csv gives them all\n"
    small = cli("query", "SELECT 1 AS n", "-w", warehouse)
    assert small.exit_code == 0 and small.stderr == ""


def test_csv_and_json_of_many_batches_are_the_whole_result_as_one_text(warehouse):
    from flows.analytics import BATCH_ROWS

    n = 2 * BATCH_ROWS + 7
    sql = f"SELECT range AS n, 'r' || range AS s, [range] AS l FROM range({n}) ORDER BY n DESC"
    rows = [{"n": i, "s": f"r{i}", "l": [i]} for i in reversed(range(n))]
    csv = cli("query", sql, "-w", warehouse, "-f", "csv")
    assert csv.stdout == "n,s,l\n" + "".join(f"{i},r{i},[{i}]\n" for i in reversed(range(n)))
    assert cli("query", sql, "-w", warehouse, "-f", "json").stdout == json.dumps(rows, indent=2) + "\n"
    for output, empty in (("csv", "n,s,l\n"), ("json", "[]\n")):
        assert cli("query", f"{sql} LIMIT 0", "-w", warehouse, "-f", output).stdout == empty


@pytest.mark.parametrize("output", ["csv", "json"])
def test_csv_and_json_hold_a_batch_in_memory_not_the_result(warehouse, output):
    # the whole result was held, then its whole text: 1.8 GB of memory for a 345k-row JSON
    def peak_kb(sql: str) -> int:
        script = ("import atexit, resource, sys; from flows.cli import app; atexit.register(lambda: print("
                  "resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)); app()")
        child = subprocess.run([sys.executable, "-c", script, "query", sql, "-w", str(warehouse), "-f", output],
                               cwd=Path(__file__).resolve().parent.parent, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, timeout=300)
        assert child.returncode == 0, child.stderr
        return int(child.stderr.split()[-1])

    rows = "SELECT range AS n, repeat('x', 1000) AS s FROM range({})"  # 1 KB a row
    assert peak_kb(rows.format(300_000)) - peak_kb(rows.format(100_000)) < 80_000  # 200 MB more of text


# ---------------------------------------------------------------------------- JSON integers
def test_json_writes_a_column_holding_an_integer_past_2_53_as_strings(warehouse):
    # jq and JavaScript read 2866790353306518606 as 2866790353306518500: an id that matches no row
    sql = ("SELECT 2866790353306518606 AS id, 1 AS small, [2866790353306518606, 1] AS ids, "
           "9007199254740991 AS edge, -9007199254740992 AS below, {'k': 9007199254740992, 'n': 2} AS s, "
           "'123456789012345678901234567890'::HUGEINT AS huge, 12345678901234567890.0::DECIMAL(38, 1) AS d")
    result = cli("query", sql, "-w", warehouse, "-f", "json")
    assert json.loads(result.stdout) == [{
        "id": "2866790353306518606", "small": 1, "ids": ["2866790353306518606", "1"], "edge": 9007199254740991,
        "below": "-9007199254740992", "s": {"k": "9007199254740992", "n": "2"},
        "huge": "123456789012345678901234567890", "d": "12345678901234567890"}]
    # one type per column: the large id in the last batch makes every value of the column a string
    from flows.analytics import BATCH_ROWS

    late = cli("query", f"SELECT if(range = {2 * BATCH_ROWS}, 2866790353306518606, range) AS id "
                        f"FROM range({2 * BATCH_ROWS + 1})", "-w", warehouse, "-f", "json")
    ids = [row["id"] for row in json.loads(late.stdout)]
    assert ids[:2] == ["0", "1"] and ids[-1] == "2866790353306518606" and all(isinstance(i, str) for i in ids)
    csv = cli("query", sql, "-w", warehouse, "-f", "csv")  # the same digits; lists as JSON text
    assert csv.stdout.splitlines()[1].startswith('2866790353306518606,1,"[""2866790353306518606"", ""1""]",9007199254740991,')


# ---------------------------------------------------------------------------- control characters
OSC = "\x1b]0;owned\x07\x1b[31mRed\x1b[0m"  # sets the terminal's title, then colours


def test_the_table_escapes_control_characters_and_csv_and_json_keep_them(warehouse):
    # the table printed ESC sequences raw; CSV piped lost them (click's echo strips ANSI off a pipe)
    sql = "SELECT chr(27) || ']0;owned' || chr(7) || chr(27) || '[31mRed' || chr(27) || '[0m' AS t, [chr(155)] AS l"
    table = cli("query", sql, "-w", warehouse)
    assert table.exit_code == 0 and "\\x1b]0;owned\\x07\\x1b[31mRed\\x1b[0m" in table.stdout and "\\x9b" in table.stdout
    assert not re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f]", table.stdout)
    assert cli("query", sql, "-w", warehouse, "-f", "csv").stdout_bytes == f't,l\n{OSC},"[""\x9b""]"\n'.encode()
    assert json.loads(cli("query", sql, "-w", warehouse, "-f", "json").stdout) == [{"t": OSC, "l": ["\x9b"]}]


def test_status_and_the_ingest_summary_escape_control_characters(tmp_path):
    # a file named with an OSC sequence set the terminal's title from the ingest's warning and status
    from flows.cli import _summary_text

    target = tmp_path / f"w{OSC}.duckdb"
    with duckdb.connect(str(target)) as con:
        for table in ("fact_listing", "dim_paper", "dim_author", "dim_category", "quarantine"):
            con.execute(f"CREATE TABLE {table} AS SELECT 1 AS source_file_id")
        con.execute("CREATE TABLE dim_source_file AS SELECT 1 AS source_file_id, true AS is_current")
        con.execute(f"CREATE TABLE ingest_run AS SELECT 'r' AS run_id, 'failed' AS status, now() AS started_at, "
                    f"now() AS finished_at, 0 AS n_files_new, 0 AS n_listings, 0 AS n_new_papers, 0 AS n_quarantined, "
                    f"'cannot read bad{OSC}.zip' AS message")
    status = cli("status", "-w", target)
    assert status.exit_code == 0 and "bad\\x1b]0;owned\\x07" in status.stdout and "w\\x1b]0;owned" in status.stdout
    summary = _summary_text({"run_id": "r", "warehouse": str(target), "files_seen": 1, "n_files_new": 0,
                             "n_files_skipped": 1, "n_listings": 0, "n_new_papers": 0, "n_papers": 0, "n_authors": 0,
                             "n_quarantined": 0, "seconds": 1.0, "warning": f"1 file could not be read: bad{OSC}.zip"})
    for text in (status.stdout, summary):
        assert "\x1b" not in text and "\x07" not in text, text


def test_a_stdout_that_cannot_encode_a_character_shows_it_escaped(warehouse):
    # PYTHONIOENCODING=cp1252 (or a Windows console): a UnicodeEncodeError traceback, exit 1
    def run(*args):
        return subprocess.run([str(Path(sys.executable).parent / "digest"), "query", "SELECT 'μ→😀' AS s",
                               "-w", str(warehouse), *args], cwd=Path(__file__).resolve().parent.parent,
                              env={**os.environ, "PYTHONIOENCODING": "cp1252"}, capture_output=True, timeout=120)

    table = run()
    assert table.returncode == 0 and b"\\u2192\\U0001f600" in table.stdout, table.stderr
    assert run("-f", "csv").stdout == "s\nμ→😀\n".encode()  # data: UTF-8, whatever the terminal's encoding


@pytest.mark.parametrize("output", ["csv", "json"])
def test_csv_and_json_say_when_the_spool_of_the_result_finds_no_room(warehouse, output):
    # CSV and JSON spool the whole result to a temporary file before the first row: a full
    # TMPDIR said "error: [Errno 28] No space left on device", naming no place, the user's output
    # (a pipe here) not the one at fault (hunt 51). A file-size limit gives the same kind of error.
    import resource

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (1 << 20, 1 << 20))

    done = subprocess.run([str(Path(sys.executable).parent / "digest"), "query",
                           "SELECT i, repeat('x', 100) AS pad FROM range(300000) t(i)", "-w", str(warehouse), "-f", output],
                          cwd=Path(__file__).resolve().parent.parent, capture_output=True, text=True, timeout=120,
                          preexec_fn=limit)
    assert done.returncode == 2 and done.stdout == "", done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert done.stderr.startswith("error: ") and "while spooling the result" in done.stderr and "TMPDIR" in done.stderr, done.stderr


def test_a_select_nested_as_deep_as_duckdb_allows_is_checked_and_runs(warehouse):
    # The syntax tree of "SELECT 1 + 1 + ... + 1" (500 terms) is 1,507 JSON levels deep: json.loads
    # raised RecursionError past Python's limit of 1,000, a traceback and exit 1 (hunt 51).
    import sys as _sys

    limit = _sys.getrecursionlimit()
    for sql, answer in (("SELECT 1" + " + 1" * 500 + " AS s", "501"),
                        ("SELECT " + "abs(" * 900 + "-1" + ")" * 900 + " AS s", "1"),
                        ("SELECT 'a'" + " || 'a'" * 600 + " AS s", "a" * 601)):
        result = cli("query", sql, "-w", warehouse, "-f", "csv")
        assert result.exit_code == 0 and result.stdout == f"s\n{answer}\n", result.output[-300:]
    assert _sys.getrecursionlimit() == limit


def test_a_pivot_over_a_column_named_like_a_refused_function_runs(warehouse):
    """Review of hunt 51: the names of an unchecked PIVOT are refused where they call a function
    (a "(" follows), not where a column or alias wears the name."""
    for name in ("query", "create_external_resource"):
        sql = f"PIVOT (SELECT title AS {name}, paper_id FROM dim_paper) ON {name} USING count(*)"
        result = cli("query", sql, "-w", warehouse)
        assert result.exit_code == 0, (name, result.output)
