"""The warehouse writer: one DuckDB transaction per run.

Batches are staged as they finish parsing (temp tables), then merged into the star with set
SQL (schemas/merge/10_files.sql, then the resolver, then schemas/merge/20_papers.sql, the person
step of flows/persons.py, schemas/merge/30_authors.sql): the warehouse does the set work, so memory follows the batch, not the corpus. Merge rules
are the same order-independent rules as `transforms.dedupe`, so a re-run or an incremental run
ends where a fresh load of the same files would. Blocking checks run before the commit.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import time
from collections.abc import Callable
from typing import TYPE_CHECKING
from dataclasses import asdict
from importlib import resources

import duckdb
import polars as pl

from flows.sql import connect, read_frame, run_sql_file, schema_sql, write_frame  # noqa: F401 (connect, schema_sql: used by the flow)
from flows.persons import decide_persons
from flows.run_stats import RunStats, totals
from flows.terms import update_terms
from transforms.persons import PersonSettings

if TYPE_CHECKING:  # the parsers load when a run reads a file, not for a run with nothing new
    from transforms.pipeline import BatchResult

# A resolver maps every paper key of stg_listings in paper_key_map (given the run id, for the
# decisions it records).
Resolver = Callable[[duckdb.DuckDBPyConnection, str], None]

# DuckDB compacts row groups when it checkpoints (the run's COMMIT). A parallel insert leaves
# part-full row groups, and the next run's few appended rows let DuckDB merge them: a +1 % run at
# 1M listings rewrote ~300 MB of paper_version's abstracts that way (12 of its 14 s of COMMIT;
# `bench.profile --onto`, blocks compared; `python -m bench.compaction`). So a run compacts only once some table holds more row
# groups than its rows need plus ROW_GROUP_SLACK of that (at least MIN_EXTRA_ROW_GROUPS more):
# each run appends about one row group to each table it writes, and the rewrite is paid once
# per many runs.
ROW_GROUP_ROWS = 122_880  # DuckDB's default row group size
ROW_GROUP_SLACK = 1.0
MIN_EXTRA_ROW_GROUPS = 16

STAGING = ("stg_files", "stg_listings", "stg_papers", "stg_authors", "stg_categories", "stg_quarantine",
           "stg_skipped")


class WarehouseCheckError(RuntimeError):
    """A blocking check failed: the load was rolled back."""


def ensure_schema(con: duckdb.DuckDBPyConnection) -> None:
    """Create what is missing, in one transaction: each of the ~260 statements committed on its
    own (a WAL write each), 0.12 s of every run on an idle machine and 0.5-0.9 s on a busy one,
    even on a warehouse that had them all (0.05 s in one; `python -m bench.schema_cost`)."""
    _drop_unique_name_key(con)
    con.execute("BEGIN TRANSACTION")
    try:
        con.execute(schema_sql("warehouse.sql"))
        con.execute(schema_sql("comments.sql"))
    except BaseException:
        con.execute("ROLLBACK")
        raise
    con.execute("COMMIT")


def _drop_unique_name_key(con: duckdb.DuckDBPyConnection) -> None:
    """Warehouses from before persons held one author per name key (UNIQUE). DuckDB cannot drop a
    constraint, so the table is rebuilt once, rows and ids as they were."""
    unique = con.execute("SELECT count(*) FROM duckdb_constraints() WHERE table_name = 'dim_author' "
                         "AND constraint_type = 'UNIQUE' AND constraint_column_names = ['name_key']").fetchall()[0][0]
    if unique:
        con.execute("BEGIN TRANSACTION")
        con.execute("ALTER TABLE dim_author RENAME TO dim_author_before_persons")
        con.execute(schema_sql("warehouse.sql"))
        con.execute("INSERT INTO dim_author BY NAME SELECT * FROM dim_author_before_persons")
        con.execute("DROP TABLE dim_author_before_persons")
        con.execute("COMMIT")


def fragmented_tables(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Stored tables holding more row groups than their rows need, beyond the slack above."""
    sizes = con.execute("SELECT table_name, coalesce(estimated_size, 0) FROM duckdb_tables() "
                        "WHERE database_name = current_database() AND schema_name = 'main' AND NOT temporary").fetchall()
    fragmented = []
    for table, n_rows in sizes:
        needed = -(-n_rows // ROW_GROUP_ROWS)
        if row_groups(con, table) > needed + max(needed * ROW_GROUP_SLACK, MIN_EXTRA_ROW_GROUPS):
            fragmented.append(table)
    return fragmented


def row_groups(con: duckdb.DuckDBPyConnection, table: str) -> int:
    """How many row groups a table of `main` holds (a user's own table may have any name)."""
    quoted = '"' + table.replace('"', '""') + '"'
    return con.execute("SELECT count(DISTINCT row_group_id) FROM pragma_storage_info(?) WHERE column_id = 0",
                       [f"main.{quoted}"]).fetchone()[0]


def run_checks(con: duckdb.DuckDBPyConnection, scope: str = "check_scope_all.sql",
               params: dict | None = None) -> dict[str, int]:
    """Violations per check (all zero on a healthy warehouse), over the rows `scope` names
    (schemas/checks.sql): the whole warehouse unless a run says otherwise."""
    run_sql_file(con, scope, params)
    results = {}
    for block in schema_sql("checks.sql").split("-- name: ")[1:]:
        name, query = block.split("\n", 1)
        results[name.strip()] = con.execute(query).fetchall()[0][0]
    return results


def describe_failures(failed: dict[str, int]) -> str:
    """Failed checks as one line: "name (n rows); ..." (the run's error, `digest audit`)."""
    return "; ".join(f"{name} ({n} rows)" for name, n in failed.items())


def checks_digest(con: duckdb.DuckDBPyConnection) -> str:
    """What the blocking checks are, and the schema they ran on: content that passed them under
    another digest (older checks, or a schema an upgrade has changed since, even one a failed run
    published) is checked whole once."""
    schema = con.execute(
        "SELECT string_agg(x, chr(10) ORDER BY x) FROM ("
        " SELECT concat_ws(' ', table_name, column_name, data_type) AS x FROM duckdb_columns()"
        " WHERE database_name = current_database() AND schema_name = 'main'"
        " UNION ALL SELECT concat_ws(' ', table_name, constraint_type, constraint_text) FROM duckdb_constraints()"
        " WHERE database_name = current_database() AND schema_name = 'main')").fetchone()[0]
    text = "".join(schema_sql(name) for name in ("checks.sql", "check_scope_all.sql", "check_scope_run.sql"))
    return hashlib.sha256(f"{text}\n{schema}".encode()).hexdigest()[:16]


def last_checks_digest(con: duckdb.DuckDBPyConnection) -> str | None:
    """The checks the published content last passed: those of the run that last committed it
    (finished_at: its transaction's start, under the writer lock; started_at precedes the lock).
    None when that run recorded none (older code): then the next run checks whole."""
    row = con.execute("SELECT checks_digest FROM ingest_run WHERE status = 'completed' "
                      "ORDER BY finished_at DESC NULLS LAST LIMIT 1").fetchone()
    return row[0] if row else None


def mend_categories(con: duckdb.DuckDBPyConnection) -> int:
    """Move the conference areas an older load stored under a code now read as an arXiv code to
    that arXiv row (schemas/merge/05_categories.sql); the number moved. Areas are few: a look at
    them all costs nothing, and the SQL runs only when one moves."""
    from transforms.categories import areas_read_as_codes  # (the parsers load when a run reads a file)

    moves = areas_read_as_codes(read_frame(con, "SELECT category_id, code FROM dim_category WHERE taxonomy = 'conference'"))
    if not moves.is_empty():
        write_frame(con, "CREATE OR REPLACE TEMP TABLE category_moves AS SELECT * FROM frame", moves)
        run_sql_file(con, "merge/05_categories.sql")
    return moves.height


def resolve_exact(con: duckdb.DuckDBPyConnection, run_id: str) -> None:
    """The default paper resolver: each new matcher key is a paper of its own unless the key
    is already known. A resolver maps every paper_key of stg_listings in paper_key_map."""
    con.execute("INSERT INTO paper_key_map SELECT DISTINCT paper_key, paper_key FROM stg_listings ON CONFLICT DO NOTHING")


def ensure_marts(con: duckdb.DuckDBPyConnection) -> None:
    """(Re)create the analytics views of schemas/marts/*.sql, in file-name order."""
    con.execute("CREATE SCHEMA IF NOT EXISTS marts")
    for sql_file in sorted(resources.files("schemas").joinpath("marts").iterdir(), key=lambda f: f.name):
        if sql_file.name.endswith(".sql"):
            con.execute(sql_file.read_text(encoding="utf-8"))


def audit(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Line accounting per file version (schemas/audit.sql)."""
    return con.sql(schema_sql("audit.sql")).pl()


class RunLoader:
    """Stage batches, then merge, check and commit, all in one transaction."""

    def __init__(self, con: duckdb.DuckDBPyConnection, run_id: str,
                 resolver: Resolver = resolve_exact, persons: PersonSettings = PersonSettings(),
                 memory_limit: str | None = None):
        self.con, self.run_id, self.resolver, self.persons = con, run_id, resolver, persons
        self.memory_limit = memory_limit  # DuckDB's budget (e.g. '2GB'); None: the connection's own
        self.staged = False
        self.open = False
        self.step_seconds: dict[str, float] = {}
        self.step_cpu_seconds: dict[str, float] = {}  # the process's CPU (every thread) per step
        self.compacting: list[str] = []  # tables whose row groups this run's COMMIT compacts
        self.check_whole = True  # check every row, not only what this run wrote (see begin)
        self.checks_digest: str | None = None
        self.checked: tuple[str, str] | None = None  # (scope, digest) once the checks have passed

    def begin(self) -> None:
        if self.memory_limit:
            self.con.execute("SET memory_limit = ?", [self.memory_limit])
        ensure_schema(self.con)
        # The run's own rows suffice when the content passed these same checks on this schema (a
        # first load has no checked run: it is checked whole).
        self.checks_digest = checks_digest(self.con)
        self.check_whole = last_checks_digest(self.con) != self.checks_digest
        self.compacting = fragmented_tables(self.con)
        if not self.compacting:  # see ROW_GROUP_SLACK; kept until the run closes its connection
            self.con.execute("SET max_vacuum_tasks = 0")
        self.con.execute("BEGIN TRANSACTION")
        self.open = True

    def stage(self, batch: BatchResult) -> None:
        # A file's stat fingerprint and location go in with its new version (merge/10_files.sql): null when
        # the caller staged files it did not stat (tests, the evaluation harnesses).
        files = batch.files.with_columns(
            [pl.lit(None, pl.Int64).alias(c) for c in ("mtime_ns", "ctime_ns", "inode") if c not in batch.files.columns]
            + [pl.lit(None, pl.String).alias(c) for c in ("location", "other_file") if c not in batch.files.columns])
        frames = dict(zip(STAGING, (files, batch.listings, batch.papers, batch.authors,
                                    batch.categories, batch.quarantine, batch.skipped)))
        for table, frame in frames.items():
            if self.staged:
                write_frame(self.con, f"INSERT INTO {table} BY NAME SELECT * FROM frame", frame)
            else:
                write_frame(self.con, f"CREATE TEMP TABLE {table} AS SELECT * FROM frame", frame)
        self.staged = True

    def merge(self, ingested_at: dt.datetime) -> RunStats:
        if not self.staged:
            return RunStats(0, 0, 0, 0, *totals(self.con), 0)
        params = {"run_id": self.run_id, "ingested_at": ingested_at}
        steps = [("mend_categories", lambda: mend_categories(self.con)),
                 ("merge_files", lambda: run_sql_file(self.con, "merge/10_files.sql", params)),
                 ("resolve_papers", lambda: self.resolver(self.con, self.run_id)),
                 ("merge_papers", lambda: run_sql_file(self.con, "merge/20_papers.sql", params)),
                 ("persons", lambda: decide_persons(self.con, self.run_id, self.persons, self.step_seconds,
                                                   budget=self.memory_limit)),
                 ("merge_authors", lambda: self._merge_authors(params)),
                 ("terms", lambda: update_terms(self.con)),
                 ("marts", lambda: ensure_marts(self.con))]
        for name, step in steps:  # seconds per step: the benchmark reports them
            started, cpu = time.perf_counter(), time.process_time()
            try:
                step()
            except duckdb.Error as err:
                err.add_note(f"in the merge's {name} step")
                raise
            self.step_seconds[name] = time.perf_counter() - started
            self.step_cpu_seconds[name] = time.process_time() - cpu
        new, seen = self._count("new_files"), self._count("stg_files")
        n_listings = self._count("stg_listings")
        n_quarantined = self._count("stg_quarantine")
        papers, authors = totals(self.con)
        skipped = seen - new + self._count("stg_skipped")
        new_papers, new_authors = self._new_rows()
        return RunStats(new, skipped, n_listings, new_papers, papers, authors, n_quarantined, new_authors)

    def _merge_authors(self, params: dict) -> None:
        run_sql_file(self.con, "merge/30_authors.sql", params)
        run_sql_file(self.con, "resolve/person_forward.sql", params)  # a person that ended points where it went
        run_sql_file(self.con, "resolve/person_marks.sql")  # a name whose marked person left marks another

    def check(self) -> None:
        whole = self.check_whole or not self.staged  # unstaged: the merge left no scope
        scope = "check_scope_all.sql" if whole else "check_scope_run.sql"
        failed = {name: n for name, n in run_checks(self.con, scope, {"run_id": self.run_id}).items() if n}
        gaps = audit(self.con).filter(pl.col("status") != "ok")
        if gaps.height:
            failed["every input line is accounted for (digest audit)"] = gaps.height
        if failed:
            raise WarehouseCheckError("blocking checks failed: " + describe_failures(failed))
        self.checked = ("warehouse" if whole else "run", self.checks_digest)

    def commit(self) -> None:
        self.con.execute("COMMIT")
        self.open = False

    def rollback(self) -> None:
        if self.open:
            self.con.execute("ROLLBACK")
            self.open = False

    def _new_rows(self) -> tuple[int, int]:
        """Papers and persons that did not exist before this run: only touched ones can be new
        (merge/20_papers.sql and 30_authors.sql keep which of those existed before)."""
        return self.con.execute(
            "SELECT (SELECT count(*) FROM dim_paper SEMI JOIN touched USING (paper_id) "
            "        ANTI JOIN paper_dates_before USING (paper_id)),"
            "       (SELECT count(*) FROM dim_author SEMI JOIN touched_authors USING (author_id) "
            "        ANTI JOIN authors_before USING (author_id))").fetchall()[0]

    def _count(self, table: str) -> int:
        return self.con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0]


def record_run(con: duckdb.DuckDBPyConnection, run_id: str, started_at: dt.datetime, status: str,
               n_files_seen: int, stats: RunStats | None, message: str | None = None,
               report: str | None = None, checked: tuple[str, str] | None = None) -> None:
    """The run's row, in a warehouse whose schema is ensured; `checked`: the rows its blocking
    checks covered ("run", "warehouse") and their digest (`checks_digest`)."""
    scope, digest = checked or (None, None)
    row = {"run_id": run_id, "started_at": started_at, "status": status, "n_files_seen": n_files_seen,
           **asdict(stats or RunStats(0, 0, 0, 0, 0, 0, 0)), "message": message, "report": report,
           "checks_scope": scope, "checks_digest": digest}
    names = ", ".join(row)
    con.execute(
        f"INSERT OR REPLACE INTO ingest_run ({names}, finished_at) VALUES ({', '.join('?' * len(row))}, now())",
        list(row.values()),
    )
