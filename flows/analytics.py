"""Analytics helpers: read-only queries, the data dictionary, Parquet export, the dashboard command.

Readers never hold the warehouse: each query opens it read-only, runs and closes, so an ingest
can replace the published file between two queries (GUIDE.md §6). Nothing here interpolates
user text into SQL: values are bound parameters, identifiers come from DuckDB's own catalog.
"""

from __future__ import annotations

import errno
import json
import os
import re
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import date
from itertools import chain
from pathlib import Path

import duckdb
import polars as pl
from duckdb.sqltypes import DuckDBPyType

from flows import interrupts, publish
from flows.analytics_cli import SAFE_INTEGER
from flows.settings import QUIET, REPO_ROOT, Settings
from transforms.ids import ID_SQL

DASHBOARD_APP = REPO_ROOT / "dashboard" / "app.py"
DATA_DICTIONARY = REPO_ROOT / "docs" / "data-dictionary.md"
MARTS_SCHEMA = "marts"
# A writer locks the file against every other process; readers retry for a moment, then give up.
LOCK_RETRIES = 5
LOCK_BACKOFF_S = 0.2


class WarehouseUnavailable(RuntimeError):
    """The warehouse file is missing, is not a DuckDB file, or stayed locked by a writer."""


class StatementRefused(ValueError):
    """SQL that a read path does not run: anything but one SELECT statement."""


# A read connection touches nothing but the warehouse file: no other files (read_csv, COPY TO,
# ATTACH, EXPORT), no extensions (INSTALL/LOAD, autoload), no persistent secrets, no scans of
# Python variables, and the configuration locked so no SET or PRAGMA gives any of it back (locked
# by `open_read_only` right after it turns the progress bar off, a session setting that `connect`
# refuses in its config: flows.settings.QUIET).
LOCKED_DOWN = {
    "enable_external_access": False,
    "autoload_known_extensions": False,
    "autoinstall_known_extensions": False,
    "allow_community_extensions": False,
    "allow_unsigned_extensions": False,
    "allow_persistent_secrets": False,
    "python_enable_replacements": False,
}
# The one statement type a read path runs (DuckDB's parser decides, not a regex): DESCRIBE,
# SHOW, SUMMARIZE, FROM-first and VALUES parse as SELECT too. Not EXPLAIN: EXPLAIN ANALYZE runs
# the statement it explains, COPY TO included.
READ_STATEMENTS = {duckdb.StatementType.SELECT}
# The query nodes a SELECT may hold. DuckDB parses "WITH x AS (COPY ... TO 'f') SELECT ..." (or
# INSERT, UPDATE, DELETE in the WITH) as a SELECT: the statement's type let it write a file.
READ_NODES = {"SELECT_NODE", "SET_OPERATION_NODE", "RECURSIVE_CTE_NODE", "CTE_NODE"}
# Functions that run or plan SQL handed to them as text: the syntax-tree check sees only a string,
# so `json_execute_serialized_sql(json_serialize_sql('WITH x AS (COPY … TO …) SELECT 1'))`, or
# query() holding it, wrote a file under --allow-files. json_serialize_plan only plans its text,
# but binds SQL the check never saw. Refused by name: DuckDB 2.0.1 has no setting that disables a
# function, nor one that lets files be read but not written (allowed_directories and allowed_paths
# let COPY TO write there too). tests/test_query_hardening.py keeps this list in step with DuckDB.
SQL_TEXT_FUNCTIONS = {"query", "json_execute_serialized_sql", "json_serialize_plan"}
# Functions that call another function named as text (DuckDB 2.0's external resources: a deleter,
# or a resource type's create/destroy function, is a table function's name). The tree shows only
# the string: `destroy_external_resource('json_execute_serialized_sql', json_serialize_sql(...))`
# wrote a COPY's file under --allow-files. Refused by name, as above.
NAMED_FUNCTION_CALLERS = {"destroy_external_resource", "register_external_resource", "deregister_external_resource",
                          "create_external_resource", "register_external_resource_type"}
# A PIVOT that does not list its values (`PIVOT t ON col USING sum(x)`) is several statements to
# DuckDB's parser (MULTI): one makes a temporary ENUM of the column's values, then the SELECT. No
# syntax tree of it can be had (json_serialize_sql takes SELECTs only), so it runs only where the
# connection itself can write nothing: external access off (no file), the database read-only, the
# configuration locked. Under --allow-files it is refused; listed values make it a plain SELECT.
PIVOT_WORDS = {"pivot", "pivot_wider"}
_NOT_DUCKDB = "not a valid DuckDB database file"
# Catalog names DuckDB keeps for itself (or that read as a schema): a warehouse "memory.duckdb"
# is attached under another name.
_RESERVED_CATALOGS = {"memory", "system", "temp", "main"}


def read_config(allow_files: bool = False) -> dict:
    """Connection settings of every read path; `allow_files` lets SELECTs read other files
    (read_csv, read_parquet on a path): a user's opt-in, and what `digest export` needs to write.
    DuckDB's memory budget is the ingest's (DIGEST_DUCKDB_MEMORY_LIMIT): without it a reader took
    DuckDB's default, 80% of the machine."""
    return {**LOCKED_DOWN, "enable_external_access": allow_files, "memory_limit": Settings().duckdb_memory_limit}


@contextmanager
def open_read_only(path: Path, allow_files: bool = False) -> Iterator[duckdb.DuckDBPyConnection]:
    """A locked-down read-only connection, closed on exit; retried briefly while a writer holds
    the file."""
    if not Path(path).is_file():
        raise WarehouseUnavailable(f"no warehouse at {path}: run `digest ingest` first")
    for attempt in range(LOCK_RETRIES):
        try:
            con = _attached(Path(path), allow_files)
            break
        except duckdb.IOException as err:
            if _NOT_DUCKDB in str(err):
                raise WarehouseUnavailable(f"{path} is not a DuckDB warehouse (not a valid DuckDB database file)") from err
            if "lock" not in str(err).lower():
                raise WarehouseUnavailable(f"cannot open warehouse {path}: {str(err).splitlines()[0]}") from err
            if attempt == LOCK_RETRIES - 1:
                holder = publish.lock_holder(err) or "a writer"
                raise WarehouseUnavailable(f"warehouse {path} is open with write access in another program ({holder}): "
                                           "close that session and read again") from err
            time.sleep(LOCK_BACKOFF_S * (attempt + 1))
    try:
        con.execute(QUIET)  # `digest verify --json`, `status --json`: stdout holds the answer only
        con.execute("SET lock_configuration = true")
        con.execute(f"CREATE OR REPLACE TEMP MACRO stable_id(k) AS {ID_SQL.format('k')}")
        with interrupts.interruptible(con):  # Ctrl-C stops its statements (flows/interrupts.py)
            yield con
    finally:
        con.close()


def _attached(path: Path, allow_files: bool) -> duckdb.DuckDBPyConnection:
    """A database instance of its own with the warehouse attached read-only. DuckDB shares one
    instance among all `connect`s to a path in a process: its configuration, locked by the first
    reader, refused every other reader's SET (the dashboard's sessions are threads), and a reader
    opened beside another read the file an ingest had replaced. Attached under the name a direct
    open gives it; then file access goes and the configuration is locked."""
    config = {**read_config(allow_files), "enable_external_access": True, "temp_directory": f"{path}.tmp"}
    con = duckdb.connect(":memory:", config=config)
    try:
        name = path.name.split(".")[0]  # as DuckDB names a file it opens: "wh.v2.duckdb" is "wh"
        name = name if name and name.lower() not in _RESERVED_CATALOGS else "warehouse"
        con.execute(f"ATTACH '{str(path).replace(chr(39), chr(39) * 2)}' AS {_ident(name)} (READ_ONLY)")
        con.execute(f"USE {_ident(name)}")
        if not allow_files:
            con.execute("SET enable_external_access = false")
    except BaseException:
        con.close()
        raise
    return con


def check_read_only(con: duckdb.DuckDBPyConnection, sql: str) -> None:
    """Refuse, before running it, SQL that is not exactly one SELECT statement. Several
    statements are refused even when all are SELECTs: one query, one answer."""
    try:
        statements = con.extract_statements(sql)
    except duckdb.Error as err:
        raise StatementRefused(str(err).splitlines()[0]) from err
    if len(statements) != 1:
        raise StatementRefused(f"one statement per query, got {len(statements)}")
    kind = statements[0].type
    if kind == duckdb.StatementType.MULTI and _first_word(sql) in PIVOT_WORDS:
        if _files_allowed(con):
            raise StatementRefused("a PIVOT that does not list its values cannot be checked, so --allow-files does not run it: "
                                   "list them (PIVOT t ON col IN ('a', 'b') USING ...)")
        # Without a tree, a name is all there is to see. External access off still lets DuckDB
        # write its spill folder (`<warehouse>.tmp/`, an allowed directory): a COPY hidden in
        # json_execute_serialized_sql wrote its file there from inside such a PIVOT.
        hidden = _identifiers(sql, called=True) & (SQL_TEXT_FUNCTIONS | NAMED_FUNCTION_CALLERS)
        if hidden:
            names = ", ".join(f"{name}()" for name in sorted(hidden))
            raise StatementRefused(f"{names} runs SQL or a function handed to it as text, which this check cannot see")
        return
    if kind == duckdb.StatementType.MULTI:
        raise StatementRefused("a PIVOT inside another statement must list its values (PIVOT t ON col IN ('a', 'b') USING ...)")
    if kind not in READ_STATEMENTS:
        raise StatementRefused(f"only SELECT queries are allowed here, not {kind.name}")
    tree = _syntax_tree(con, sql)
    inside = _query_nodes(tree) - READ_NODES
    if inside:
        names = ", ".join(sorted(node.removesuffix("_NODE").removesuffix("_QUERY") for node in inside))
        raise StatementRefused(f"only SELECT queries are allowed here, not {names} inside one")
    hidden = _function_names(tree) & SQL_TEXT_FUNCTIONS
    if hidden:
        names = ", ".join(f"{name}()" for name in sorted(hidden))
        raise StatementRefused(f"{names} takes SQL as text, which this check cannot see: write that SQL in the query itself")
    calls = _function_names(tree) & NAMED_FUNCTION_CALLERS
    if calls:
        names = ", ".join(f"{name}()" for name in sorted(calls))
        raise StatementRefused(f"{names} runs a function named as text, which this check cannot see: a read query has no use for it")


def _first_word(sql: str) -> str:
    """The statement's first word, comments skipped, by DuckDB's own tokenizer ("pivot")."""
    text = sql.encode()  # the tokenizer's offsets count UTF-8 bytes
    starts = [start for start, kind in duckdb.tokenize(sql) if kind != duckdb.token_type.comment]
    return re.match(rb"\w*", text[starts[0]:]).group().decode().lower() if starts else ""


def _identifiers(sql: str, called: bool = False) -> set[str]:
    """Every identifier of the SQL text, by DuckDB's tokenizer, lower-cased and unquoted; `called`:
    only those a "(" follows (comments aside), the names of calls: a column or alias named "query"
    in a PIVOT is no call of query()."""
    text = sql.encode()
    tokens = duckdb.tokenize(sql)
    ends = [start for start, _ in tokens[1:]] + [len(text)]
    following = [t for t in tokens if t[1] != duckdb.token_type.comment]
    opens_call = {a[0] for a, b in zip(following, following[1:])
                  if b[1] == duckdb.token_type.operator and text[b[0]:b[0] + 1] == b"("}
    names = set()
    for (start, kind), end in zip(tokens, ends):
        if kind == duckdb.token_type.identifier and (not called or start in opens_call):
            word = re.match(rb'"(?:[^"]|"")*"|[^\s.(),;]*', text[start:end]).group().decode()
            names.add(word[1:-1].replace('""', '"').lower() if word.startswith('"') else word.lower())
    return names


def _files_allowed(con: duckdb.DuckDBPyConnection) -> bool:
    return con.execute("SELECT current_setting('enable_external_access')").fetchall()[0][0]


def _syntax_tree(con: duckdb.DuckDBPyConnection, sql: str) -> list[dict]:
    """Every object in a SELECT's syntax tree (DuckDB's own parse, as JSON), at any depth: its
    CTEs, subqueries, set operations and expressions. A SELECT DuckDB cannot write as JSON is
    refused rather than run unseen."""
    tree = _deep_json(con.execute("SELECT json_serialize_sql(?)", [sql]).fetchall()[0][0])
    if tree.get("error"):
        raise StatementRefused(f"this SELECT cannot be checked: {tree.get('error_message')}")
    found: list[dict] = []
    stack = [tree]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found.append(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


# JSON nesting the syntax tree of a SELECT may reach: DuckDB's parser allows expressions 1,000
# deep (max_expression_depth, locked), three JSON levels each ("SELECT 1 + 1 + ... + 1" of 500
# terms is 1,507 deep), past Python's recursion limit of 1,000: json.loads raised RecursionError,
# a traceback and exit 1 for a query DuckDB runs. Deeper than this is refused in one line.
TREE_DEPTH = 20_000


def _deep_json(text: str):
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, TREE_DEPTH))
    try:
        return json.loads(text)
    except RecursionError as err:
        raise StatementRefused("this SELECT is nested too deeply to be checked") from err
    finally:
        sys.setrecursionlimit(limit)


def _query_nodes(tree: list[dict]) -> set[str]:
    """The kinds of query node in a syntax tree."""
    return {item["type"] for item in tree if isinstance(item.get("type"), str) and item["type"].endswith("_NODE")}


def _function_names(tree: list[dict]) -> set[str]:
    """The functions a syntax tree calls, scalar and table ones, without their schema."""
    return {item["function_name"].lower() for item in tree
            if item.get("class") == "FUNCTION" and isinstance(item.get("function_name"), str)}


def query(path: Path, sql: str, params: Sequence | dict | None = None, allow_files: bool = False) -> pl.DataFrame:
    """Run one read-only query with bound parameters and return the whole result."""
    with open_read_only(path, allow_files) as con:
        return result_frame(checked_query(con, sql, params))


def checked_query(con: duckdb.DuckDBPyConnection, sql: str, params: Sequence | dict | None = None) -> duckdb.DuckDBPyRelation:
    """One read-only query with bound parameters, checked, not yet run."""
    check_read_only(con, sql)
    return con.sql(_without_final_semicolons(sql), params=params)


def _without_final_semicolons(sql: str) -> str:
    """The statement without the semicolons (and comments) that end it: the result is read as a
    subquery (`_unique_names`), where "SELECT 1;\n-- end" was a syntax error at the ";"."""
    text = sql.encode()  # the tokenizer's offsets count UTF-8 bytes ("'Müller' -- é" was cut inside the comment)
    end = len(text)
    for start, kind in reversed(duckdb.tokenize(sql)):
        if kind != duckdb.token_type.comment and not text.startswith(b";", start):
            break
        end = start
    return text[:end].decode()


# DuckDB types that Polars cannot take from Arrow (an interval, a union: `.pl()` raised), alone or
# inside a list or struct, TIMESTAMP_S (its 'infinity' came out of Arrow as 1969-12-31 23:59:59)
# and TIMETZ (Arrow has no time with an offset: '12:00:00+03' came out as 12:00:00): such a
# column comes as DuckDB's own text ("1 day").
_AS_TEXT = {"interval", "union", "timestamp_s", "time with time zone"}
# Dates Python cannot hold (JSON goes through `to_dicts`: a BC date or DATE '10000-01-01' raised
# "year out of range"), timestamps past years 1723 to 2217 (inside both Polars' and Python's
# calendars), and a date Polars holds that is not one (a TIMESTAMP_NS 'infinity' is the largest
# integer: "2262-04-11"): physical values outside these, per unit, come as DuckDB's text
# ("infinity", "0044-03-15 (BC)").
_EPOCH = date(1970, 1, 1)
_CALENDAR_BOUND = {"d": ((date.min - _EPOCH).days, (date.max - _EPOCH).days),
                   "ms": (-7_800_000_000_000, 7_800_000_000_000),
                   "us": (-7_800_000_000_000_000, 7_800_000_000_000_000), "ns": (-(2**63 - 2), 2**63 - 2)}
_DECIMAL_BOUND = 10**38 - 1
_PLAIN = (pl.String, pl.Boolean, pl.Null, pl.Categorical, pl.Enum, pl.Decimal)


def result_frame(result: duckdb.DuckDBPyRelation) -> pl.DataFrame:
    """A query's result as a Polars frame that every output (table, CSV, JSON) can show: columns
    of the types above, of types Polars holds as bytes or as an extension (a BLOB, a BIT string,
    a BIGNUM, a VARIANT, a GEOMETRY: CSV raised), and date or time columns holding values past
    the bounds above, as DuckDB's text."""
    as_text = _text_types(result)
    frame = _as_text(result, as_text).pl()
    redo = _text_values(frame, result.types)
    return _as_text(result, as_text | redo).pl() if redo else frame


# Rows per batch of a streamed result: memory holds a batch or two, not the result (`digest
# query -f json` held 1.8 GB for 345k listing rows, the table format 5.0 GB).
BATCH_ROWS = 10_000


@contextmanager
def result_batches(result: duckdb.DuckDBPyRelation) -> Iterator[Iterator[pl.DataFrame]]:
    """A query's whole result as frames of about BATCH_ROWS rows, for CSV and JSON: columns as
    `result_frame` gives them, and every integer of a column holding one past SAFE_INTEGER as
    text (the whole column: one type per column). The first frame has no rows (the columns of a
    result without rows too). The rows are spooled to a temporary file (Arrow IPC) first: what
    comes as text is known only once every row was seen."""
    result = _unique_names(result)
    as_text = _text_types(result)
    with tempfile.TemporaryFile(buffering=0) as spool:  # unbuffered: no flush at close to fail again on a full disk
        try:
            redo, wide = _spool(_as_text(result, as_text), result.types, spool)
            if redo:  # rare (a date past Python's calendar): run again with those columns as text
                spool.seek(0)
                spool.truncate()
                _, wide = _spool(_as_text(result, as_text | redo), result.types, spool)
        except OSError as err:
            # The spool's disk, not the output's: "[Errno 28] No space left on device" alone sent
            # the user looking at the file they redirected to, and no row had been written.
            if err.errno not in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
                raise
            raise OSError(err.errno, f"{err.strerror} while spooling the result: CSV and JSON hold every row in a "
                                     f"temporary file here first (TMPDIR sets the folder)",
                          tempfile.gettempdir()) from err
        spool.seek(0)
        yield _unspool(spool, wide)


def result_head(result: duckdb.DuckDBPyRelation, rows: int) -> tuple[pl.DataFrame, int]:
    """The first `rows` rows of a query's result, columns as `result_frame` gives them, and how
    many rows the result has in all (the rest are counted, never held)."""
    result = _unique_names(result)
    as_text = _text_types(result)
    head, total = _head(_as_text(result, as_text), rows)
    redo = _text_values(head, result.types)
    return (_head(_as_text(result, as_text | redo), rows)[0] if redo else head), total


def _unique_names(result: duckdb.DuckDBPyRelation) -> duckdb.DuckDBPyRelation:
    """The result read as a subquery: DuckDB then names "SELECT 1 a, 2 a" a, a_1, as `.pl()` does
    (Polars takes no two columns of one name; Arrow batches keep them)."""
    return result.query("result", "FROM result")


def _spool(relation: duckdb.DuckDBPyRelation, types: list[DuckDBPyType], spool) -> tuple[set[int], set[str]]:
    """Write the relation's rows to `spool`; return the columns `_text_values` and `_wide_integers` find."""
    import pyarrow as pa  # here: the dashboard and the other commands never need it

    redo: set[int] = set()
    wide: set[str] = set()
    reader = relation.to_arrow_reader(BATCH_ROWS)
    try:  # an open reader holds the connection: closed even when a batch fails
        with pa.ipc.new_stream(spool, reader.schema) as writer:
            for batch in reader:
                frame = pl.from_arrow(batch)
                redo |= _text_values(frame, types)
                wide |= _wide_integers(frame)
                writer.write_batch(batch)
    finally:
        reader.close()
    return redo, wide


def _unspool(spool, wide: set[str]) -> Iterator[pl.DataFrame]:
    import pyarrow as pa

    reader = pa.ipc.open_stream(spool)
    no_rows = pa.Table.from_batches([], schema=reader.schema)  # not schema.empty_table(): it imports pandas (0.3 s)
    for batch in chain([no_rows], reader):
        interrupts.check()  # writing a large result is Python's work: no statement to interrupt
        frame = pl.from_arrow(batch)
        yield frame.with_columns(pl.col(name).cast(_integers_as_text(frame.schema[name])) for name in wide)


def _wide_integers(frame: pl.DataFrame) -> set[str]:
    """Columns holding an integer past SAFE_INTEGER, at any depth (a list of ids)."""
    return {column.name for column in frame.iter_columns()
            if any(_integral(leaf.dtype) and bool((leaf.cast(pl.Float64).abs() > SAFE_INTEGER).any())
                   for leaf in _leaves(column))}


def _integers_as_text(dtype: pl.DataType) -> pl.DataType:
    """`dtype` with every integer in it as text (a list of integers as a list of strings)."""
    if _integral(dtype):
        return pl.String
    if isinstance(dtype, pl.List):
        return pl.List(_integers_as_text(dtype.inner))
    if isinstance(dtype, pl.Array):
        return pl.Array(_integers_as_text(dtype.inner), dtype.shape)
    if isinstance(dtype, pl.Struct):
        return pl.Struct({field.name: _integers_as_text(field.dtype) for field in dtype.fields})
    return dtype


def _integral(dtype: pl.DataType) -> bool:
    # a HUGEINT (a SUM of integers) comes as a decimal of scale 0
    return dtype.is_integer() or (isinstance(dtype, pl.Decimal) and dtype.scale == 0)


def _head(relation: duckdb.DuckDBPyRelation, rows: int) -> tuple[pl.DataFrame, int]:
    import pyarrow as pa

    kept, total = [], 0
    reader = relation.to_arrow_reader(BATCH_ROWS)
    try:
        for batch in reader:
            if total < rows:
                kept.append(batch.slice(0, rows - total))
            total += batch.num_rows
    finally:
        reader.close()
    return pl.from_arrow(pa.Table.from_batches(kept, schema=reader.schema)), total


def _text_types(result: duckdb.DuckDBPyRelation) -> set[int]:
    """Columns that come as text for their type (`_AS_TEXT`)."""
    return {i for i, dtype in enumerate(result.types) if _AS_TEXT & _type_ids(dtype)}


def _text_values(frame: pl.DataFrame, types: list[DuckDBPyType]) -> set[int]:
    """Columns that come as text for their values, or for the type Polars gave them."""
    return {i for i, (column, dtype) in enumerate(zip(frame.iter_columns(), types))
            if not _shown(column.dtype) or any(_unshowable(leaf, "uhugeint" in _type_ids(dtype)) for leaf in _leaves(column))}


def _type_ids(dtype: DuckDBPyType) -> set[str]:
    """The kinds of a DuckDB type and of every type inside it (not its text: a struct's key may be
    named "INTERVAL")."""
    children = dtype.children if dtype.id in ("struct", "union", "map", "list", "array") else []
    return {dtype.id}.union(*(_type_ids(child) for _, child in children if isinstance(child, DuckDBPyType)))


def _shown(dtype: pl.DataType) -> bool:
    """Whether every output writes values of this Polars type as they are (a list or struct of them too)."""
    if isinstance(dtype, (pl.List, pl.Array)):
        return _shown(dtype.inner)
    if isinstance(dtype, pl.Struct):
        return all(_shown(field.dtype) for field in dtype.fields)
    return dtype.is_numeric() or dtype.is_temporal() or isinstance(dtype, _PLAIN)


def _as_text(result: duckdb.DuckDBPyRelation, columns: set[int]) -> duckdb.DuckDBPyRelation:
    if not columns:
        return result
    # Renamed by position first: a result may hold two columns of one name ("SELECT 1 a, 2 a").
    renamed = ", ".join(f"c{i}" for i in range(len(result.columns)))
    select = ", ".join(f"{f'CAST(c{i} AS VARCHAR)' if i in columns else f'c{i}'} AS {_ident(name)}"
                       for i, name in enumerate(result.columns))
    return result.query("result", f"SELECT {select} FROM result AS result({renamed})")


def _leaves(column: pl.Series) -> Iterator[pl.Series]:
    """The values of a column's scalar type, out of any lists and structs around them."""
    if isinstance(column.dtype, pl.List):
        yield from _leaves(column.list.explode())
    elif isinstance(column.dtype, pl.Array):
        yield from _leaves(column.arr.explode())
    elif isinstance(column.dtype, pl.Struct):
        for field in column.dtype.fields:
            yield from _leaves(column.struct.field(field.name))
    else:
        yield column


def _unshowable(column: pl.Series, unsigned: bool) -> bool:
    """Values Polars holds wrongly or Python cannot hold: dates and times past `_CALENDAR_BOUND`, and
    (U)HUGEINTs past its 38-digit decimal (a UHUGEINT past 2^127 wraps to a negative number;
    a 39-digit HUGEINT loses its last digits when printed)."""
    if isinstance(column.dtype, pl.Decimal):
        physical = column.to_physical()
        return bool(((physical > _DECIMAL_BOUND) | (physical < (0 if unsigned else -_DECIMAL_BOUND))).any())
    if not isinstance(column.dtype, (pl.Date, pl.Datetime)):
        return False
    low, high = _CALENDAR_BOUND["d" if column.dtype == pl.Date else column.dtype.time_unit]
    physical = column.to_physical()
    return bool(((physical < low) | (physical > high)).any())


def snapshot_version(path: Path) -> tuple[int, int, int]:
    """Identity of the file now on disk (inode, mtime, size): a cache key that changes when an
    ingest publishes a new warehouse, so cached answers are never older than the snapshot."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return (0, 0, 0)
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def like_pattern(text: str) -> str:
    """`%text%` for LIKE/ILIKE ... ESCAPE '\\', with the user's own % and _ taken literally."""
    return "%" + re.sub(r"([\\%_])", r"\\\1", text) + "%"


# ---------------------------------------------------------------------------------------------
# Data dictionary


@dataclass(frozen=True)
class CatalogObject:
    schema: str
    name: str
    kind: str  # "table" or "view"
    comment: str | None
    columns: list[tuple[str, str, str | None]]  # (name, type, comment)

    @property
    def qualified(self) -> str:
        return self.name if self.schema == "main" else f"{self.schema}.{self.name}"


def catalog(con: duckdb.DuckDBPyConnection) -> list[CatalogObject]:
    """Every persistent table and view of the warehouse with its columns and comments."""
    objects = con.execute(
        """
        SELECT schema_name, table_name, 'table' AS kind, comment FROM duckdb_tables()
        WHERE database_name = current_database() AND NOT temporary AND NOT internal
        UNION ALL
        SELECT schema_name, view_name, 'view', comment FROM duckdb_views()
        WHERE database_name = current_database() AND NOT temporary AND NOT internal
        ORDER BY kind, schema_name, 2
        """
    ).fetchall()
    columns = con.execute(
        """
        SELECT schema_name, table_name, column_name, data_type, comment FROM duckdb_columns()
        WHERE database_name = current_database() AND NOT internal
        ORDER BY schema_name, table_name, column_index
        """
    ).fetchall()
    by_relation: dict[tuple[str, str], list[tuple[str, str, str | None]]] = {}
    for schema, table, column, dtype, comment in columns:
        by_relation.setdefault((schema, table), []).append((column, dtype, comment))
    return [CatalogObject(s, n, k, c, by_relation.get((s, n), [])) for s, n, k, c in objects]


def data_dictionary(con: duckdb.DuckDBPyConnection) -> str:
    """Markdown of every table, view and column with its description, from the schema alone
    (no row counts or dates), so the same schema always gives the same page."""
    relations = catalog(con)
    tables = [r for r in relations if r.kind == "table"]
    views = [r for r in relations if r.kind == "view"]
    out = [
        "# Data dictionary",
        "",
        "Generated by `digest docs` from the warehouse's own catalog (DuckDB table, view and column",
        "comments). Do not edit by hand: change the `COMMENT ON` statements in `schemas/warehouse.sql`",
        "or `schemas/marts/*.sql`, rebuild (`make run`) and run `digest docs`.",
        "",
        f"- **Tables** (star schema, schema `main`): {_links(tables)}",
        f"- **Views** (analytics marts, schema `{MARTS_SCHEMA}`): {_links(views)}",
    ]
    for title, group in (("Tables", tables), ("Views", views)):
        out += ["", f"## {title}"]
        for rel in group:
            out += ["", f"### {rel.qualified}", "", _cell(rel.comment) or "_No description._", "",
                    "| column | type | description |", "|---|---|---|"]
            out += [f"| `{name}` | {dtype} | {_cell(comment)} |" for name, dtype, comment in rel.columns]
    return "\n".join(out) + "\n"


def _links(relations: list[CatalogObject]) -> str:
    return ", ".join(f"[{r.qualified}](#{_anchor(r.qualified)})" for r in relations) or "none"


def _anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def _cell(text: str | None) -> str:
    """A comment as one Markdown table cell: one line, pipes escaped."""
    return " ".join((text or "").split()).replace("|", "\\|")


# ---------------------------------------------------------------------------------------------
# Parquet export


def export_parquet(con: duckdb.DuckDBPyConnection, out_dir: Path, with_marts: bool = True) -> list[Path]:
    """One Parquet file per star-schema table (`<table>.parquet`) and, for tools that cannot run
    the views, one per mart (`marts/<view>.parquet`). Returns the files written.

    Without the marts, an earlier export's mart files are removed: left, they were read beside
    the new tables as if they were of the same warehouse. Every file is written beside its place
    under a name of this export's own, and all are moved in at the end: a reader never sees half
    a file, an export stopped midway leaves the one before whole (its tables were new and its
    marts old), and two exports into one folder no longer write one partial file (their moves
    may still interleave). The folder holds both exports at the peak."""
    planned = [(rel, out_dir / f"{rel.name}.parquet" if rel.kind == "table" else out_dir / rel.schema / f"{rel.name}.parquet")
               for rel in catalog(con)
               if (rel.kind == "table" and rel.schema == "main") or (rel.kind == "view" and rel.schema == MARTS_SCHEMA)]
    dropped = [target for rel, target in planned if rel.kind == "view" and not with_marts]
    kept = [(rel, target) for rel, target in planned if target not in dropped]
    own = f"{os.getpid()}-{os.urandom(4).hex()}"
    partials = [target.with_name(f".{target.name}.{own}.partial") for _, target in kept]
    try:
        for (rel, target), partial in zip(kept, partials):
            target.parent.mkdir(parents=True, exist_ok=True)
            # The path goes to DuckDB's COPY as an argument, never spliced into SQL text.
            con.sql(f"SELECT * FROM {_ident(rel.schema)}.{_ident(rel.name)}").write_parquet(str(partial), compression="zstd")
        for (_, target), partial in zip(kept, partials):
            partial.replace(target)
        for target in dropped:
            target.unlink(missing_ok=True)
    finally:  # stopped or failed: this export's partial files go
        for partial in partials:
            partial.unlink(missing_ok=True)
    return [target for _, target in kept]


def _ident(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


# ---------------------------------------------------------------------------------------------
# Dashboard


def dashboard_command(warehouse: Path, port: int, address: str = "127.0.0.1") -> tuple[list[str], dict[str, str]]:
    """argv and environment for `streamlit run dashboard/app.py`: local only, headless, no usage
    statistics, no file watcher (nothing to fetch or watch offline)."""
    argv = [
        sys.executable, "-m", "streamlit", "run", str(DASHBOARD_APP),
        "--server.address", address,
        "--server.port", str(port),
        "--server.headless", "true",
        "--server.fileWatcherType", "none",
        "--server.runOnSave", "false",
        "--browser.gatherUsageStats", "false",
        "--browser.serverAddress", address,
        "--global.developmentMode", "false",
        "--client.toolbarMode", "viewer",
        "--theme.base", "light",
    ]
    env = {**os.environ, "DIGEST_WAREHOUSE": str(Path(warehouse).resolve()),
           "STREAMLIT_BROWSER_GATHER_USAGE_STATS": "false"}
    return argv, env


@contextmanager
def running_dashboard(warehouse: Path, port: int, startup_timeout_s: float = 60.0) -> Iterator[str]:
    """The dashboard served in the background for as long as the block runs; yields its URL.
    For browser tests and screenshots; `digest dashboard` runs it in the foreground."""
    import subprocess
    import urllib.request

    argv, env = dashboard_command(warehouse, port)
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + startup_timeout_s
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"dashboard exited with {proc.returncode}: {proc.stderr.read()[-2000:]}")
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"dashboard did not answer on {url} within {startup_timeout_s:.0f} s")
            time.sleep(0.25)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
