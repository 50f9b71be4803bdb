"""The warehouse's SQL, in one place: connections, the `.sql` files under `schemas/` and the one
runner that executes them, and the bridge from Polars frames into DuckDB. The loader and the
resolver both use these; neither calls back into the other. `on_threads` computes on frames read
from the one connection while it reads and writes the next."""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections import deque
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path

import duckdb
import polars as pl

from flows.settings import QUIET, usable_cpus
from transforms.dedupe import plain_sql_macros
from transforms.ids import ID_SQL
from transforms.persons import GIVEN_RE, ONE_WORD_LAMBDA, REF_NAMES, REFERENCE_WEIGHT, SURNAME_RE, WORDS_FROM


def schema_sql(name: str) -> str:
    """The text of `schemas/<name>` (e.g. "warehouse.sql", "merge/10_files.sql")."""
    return resources.files("schemas").joinpath(name).read_text(encoding="utf-8")


def first_error(err: BaseException) -> BaseException:
    """The error that aborted a DuckDB transaction, behind the "Current transaction is aborted"
    that DuckDB answers every later statement with (one raised while handling it, in an except
    or a finally that ran SQL, carries it as its context). A 10M-listing run reported only the
    "aborted" of the statement after the one that failed."""
    while (isinstance(err, duckdb.TransactionException) and "transaction is aborted" in str(err)
           and err.__context__ is not None):
        err = err.__context__
    return err


def connect(path: Path, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect(str(path), read_only=read_only)
    con.execute(QUIET)
    con.execute(f"CREATE OR REPLACE TEMP MACRO stable_id(k) AS {ID_SQL.format('k')}")
    # a name key's given name and surname, as transforms.persons.name_parts reads them
    con.execute(f"CREATE OR REPLACE TEMP MACRO given_name(k) AS regexp_extract(k, '{GIVEN_RE}', 1)")
    con.execute(f"CREATE OR REPLACE TEMP MACRO surname_of(k) AS regexp_extract(k, '{SURNAME_RE}', 1)")
    con.execute("CREATE OR REPLACE TEMP MACRO n_words(k) AS length(k) - length(replace(k, ' ', '')) + 1")
    for macro in plain_sql_macros():  # is_plain, plain_form: a text's variants (transforms.dedupe.PLAIN_MAP)
        con.execute(macro)
    # how common a name is (transforms.persons.commonness_from_counts): the same double operations
    # in the same order (times the reciprocal, not a division), so SQL and Polars agree to the last bit
    weight = f"{float(REFERENCE_WEIGHT)!r}::DOUBLE"
    per_key = f"(1 / greatest(n_keys + {weight}, 1))"
    con.execute("CREATE OR REPLACE TEMP MACRO name_commonness(two_words, n_given, share_given, n_surname, share_surname, "
                f"n_keys) AS CASE WHEN two_words THEN (n_given + {weight} * coalesce(share_given, 0)) * {per_key} "
                f"* ((n_surname + {weight} * coalesce(share_surname, 0)) * {per_key}) * {REF_NAMES} "
                f"ELSE {float(ONE_WORD_LAMBDA)!r}::DOUBLE END")
    # a mention's place in the canonical order persons are decided in, as one number (date, paper
    # id, position: transforms.persons.CANONICAL, undated last), and the label of a founding
    # mention (transforms.persons._founded_key: zero-padded, never cut). min/max over a name's
    # mentions compare ranks; only the winner is written out as its key. Exact for any date from
    # year 1 and any paper id and position (a BIGINT of 63 bits, an INTEGER of 32: 117 bits).
    con.execute("CREATE OR REPLACE TEMP MACRO canonical_key(listed_on, paper_id, author_position) AS "
                "strftime(coalesce(listed_on, DATE '9999-12-31'), '%Y-%m-%d') || '|' || lpad(paper_id::VARCHAR, 19, '0') "
                "|| '|' || printf('%05d', author_position)")
    con.execute("CREATE OR REPLACE TEMP MACRO canonical_rank(listed_on, paper_id, author_position) AS "
                "((coalesce(listed_on, DATE '9999-12-31') - DATE '0001-01-01')::HUGEINT << 95) "
                "| (paper_id::HUGEINT << 32) | author_position::HUGEINT")
    con.execute("CREATE OR REPLACE TEMP MACRO canonical_key_of(rank) AS canonical_key("
                "DATE '0001-01-01' + (rank >> 95)::INTEGER, ((rank >> 32) & 9223372036854775807)::BIGINT, "
                "(rank & 4294967295)::INTEGER)")
    # What the person model reads of a paper's text (its title and the abstract's opening,
    # flows.persons._papers_sql), as one hash: the person step re-decides the names of a paper whose
    # hash a run changed (schemas/resolve/person_reopen.sql).
    con.execute("CREATE OR REPLACE TEMP MACRO person_words_md5(title, abstract) AS "
                f"md5(coalesce(title, '') || chr(0) || coalesce(left(abstract, {WORDS_FROM}), ''))")
    return con


def memory_limit_bytes(con: duckdb.DuckDBPyConnection) -> float:
    """DuckDB's memory limit in bytes, read from the size it prints ('1.9 GiB', '512.0 MiB')."""
    number, unit = con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0].split()
    powers = {"bytes": 0, "kib": 1, "mib": 2, "gib": 3, "tib": 4, "pib": 5, "eib": 6, "kb": 1, "mb": 2, "gb": 3, "tb": 4}
    base = 1000 if unit.lower() in ("kb", "mb", "gb", "tb") else 1024
    return float(number) * base ** powers[unit.lower()]


@contextlib.contextmanager
def scratch_file(con: duckdb.DuckDBPyConnection, suffix: str) -> Iterator[Path]:
    """The path of a new empty file in DuckDB's spill folder (its temp_directory: for a run, beside
    the warehouse copy, where a full disk is diagnosed and a killed run's leftovers are removed
    with the copy), removed when the block ends, however it ends. A folder made for it (DuckDB had
    not spilled yet) is removed too when it is empty then; DuckDB removes only a folder it made."""
    setting = con.execute("SELECT current_setting('temp_directory')").fetchall()[0][0]
    folder = Path(setting) if setting else Path(tempfile.gettempdir())  # '': spilling disabled
    made = not folder.is_dir()
    folder.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(suffix=suffix, dir=folder)
    os.close(handle)
    try:
        yield Path(name)
    finally:
        Path(name).unlink(missing_ok=True)
        if made:
            with contextlib.suppress(OSError):  # DuckDB spilled into it meanwhile
                folder.rmdir()


@contextlib.contextmanager
def optimizer_off(con: duckdb.DuckDBPyConnection, name: str) -> Iterator[None]:
    """DuckDB's optimizer `name` (duckdb_optimizers()) off while the block runs, on again after (in
    a transaction a failure aborted it stays off: the run only rolls back then). None is off
    otherwise."""
    con.execute(f"SET disabled_optimizers = '{name}'")
    try:
        yield
    finally:
        with contextlib.suppress(duckdb.Error):
            con.execute("RESET disabled_optimizers")


def run_sql_file(con: duckdb.DuckDBPyConnection, name: str, params: dict | None = None, **constants) -> None:
    """Execute the statements of `schemas/<name>` in order. `$name` parameters are bound from
    `params` (each statement gets the ones it uses); `{name}` placeholders are filled from
    `constants` (settings of the method, table names: never user data)."""
    script = schema_sql(name)
    if constants:
        script = script.format(**constants)
    for number, statement in enumerate(script.split(";\n"), start=1):
        code = _code(statement)
        if code.strip():
            try:
                con.execute(statement, {k: v for k, v in (params or {}).items() if f"${k}" in code})
            except duckdb.Error as err:  # which statement: a failure at 10M listings said only "out of memory"
                err.add_note(f"in schemas/{name}, statement {number}: {' '.join(code.split())[:120]}")
                raise


def _code(statement: str) -> str:
    """The statement without its `--` comments (which may name parameters it does not use)."""
    return "\n".join(line.split("--", 1)[0] for line in statement.splitlines())


def write_frame(con: duckdb.DuckDBPyConnection, sql: str, frame: pl.DataFrame) -> None:
    """Run `sql`, which reads `frame` under the name "frame" (DuckDB's replacement scan of the
    caller's locals). Not `register`: inside the load's one transaction every registered view is
    kept, with its Arrow data, until commit, so registering each batch held the whole run in
    memory (tests/test_memory.py; flat with the scan)."""
    assert isinstance(frame, pl.DataFrame)  # the name `frame` is what the SQL reads
    con.execute(sql)


def insert_frame(con: duckdb.DuckDBPyConnection, table: str, frame: pl.DataFrame, conflict: str = "") -> None:
    """Append `frame`'s rows to `table` by column name."""
    if not frame.is_empty():
        write_frame(con, f"INSERT INTO {table} BY NAME SELECT * FROM frame {conflict}", frame)


def read_frame(con: duckdb.DuckDBPyConnection, query: str) -> pl.DataFrame:
    """A query's rows as a Polars frame (read fully before the connection is reused), its
    numbers copied. Polars takes numbers, dates, structs and lists of them from Arrow in place,
    and such a column kept the whole batch it came in alive, every other column's buffers too:
    the resolver kept the key columns of each chunk of pairs, and with them every chunk's
    abstracts (one template abstract under 16k titles peaked at 4.45 GiB, 2.69 GiB copied: README,
    Session 38). Strings longer than 12 bytes point into
    the batch as well (Polars' string views): a caller keeping text from many reads copies it."""
    frame = pl.from_arrow(con.sql(query).to_arrow_table())
    in_place = [name for name, dtype in frame.schema.items() if not _only_strings(dtype)]
    if not in_place:
        return frame
    return frame.with_columns(pl.col(in_place).gather(pl.int_range(pl.len(), dtype=pl.get_index_type())))


def stream_frames(con: duckdb.DuckDBPyConnection, query: str, size: int) -> Iterator[pl.DataFrame]:
    """A query's rows as Polars frames of `size` rows, read as DuckDB makes them: nothing is
    materialised. The connection runs nothing else until the generator is used up or closed (close
    it in a `finally`: an open stream refuses every later statement, the run's ROLLBACK included).
    A DuckDB error mid-stream reaches Arrow's reader as an OSError with DuckDB's message: it is
    raised as DuckDB's own (the run names the budget to raise for an out-of-memory, flows.ingest)."""
    stream = con.sql(query).to_arrow_reader(size)
    try:
        while True:
            try:
                batch = stream.read_next_batch()
            except StopIteration:
                return
            except OSError as err:
                raise _duckdb_error(err) from err
            if batch.num_rows:
                yield pl.from_arrow(batch)
    finally:
        stream.close()


def _duckdb_error(err: OSError) -> duckdb.Error:
    """DuckDB's exception for its message ("Out of Memory Error: ..." -> OutOfMemoryException)."""
    kind = str(err).split(" Error:", 1)[0].replace(" ", "").lower() + "exception"
    known = {name.lower(): cls for name, cls in vars(duckdb).items()
             if isinstance(cls, type) and issubclass(cls, duckdb.Error)}
    return known.get(kind, duckdb.Error)(str(err))


def _only_strings(dtype: pl.DataType) -> bool:
    """Strings, or lists of them: a gather would copy their views only, not what they point to."""
    while isinstance(dtype, (pl.List, pl.Array)):
        dtype = dtype.inner
    return dtype == pl.String


def compute_threads() -> int:
    """Threads for `on_threads`: the CPUs this process may use (its affinity, not the machine's
    count), two at least, so that one computes while the caller reads and writes."""
    return max(2, usable_cpus())


def on_threads(fn, chunks, threads: int | None = None, ahead: int | None = None):
    """fn of each chunk, in order, computed on `threads` threads (default `compute_threads()`; the
    string and numpy work of one chunk runs mostly on one core). Chunks are read, and results used,
    by the calling thread (one connection), at most `ahead` chunks ahead (default: `threads`). One
    thread with two ahead overlaps the caller's reads and writes with one computation at a time."""
    threads = threads or compute_threads()
    ahead = threads if ahead is None else ahead
    with ThreadPoolExecutor(max_workers=threads) as pool:
        pending: deque = deque()
        for chunk in chunks:
            pending.append(pool.submit(fn, chunk))
            if len(pending) >= ahead:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
