"""Shared fixtures: the Prefect harness (one per session), seed files, helpers to read a warehouse.

Prefect must see its startup timeout before it is imported: a busy 2-core machine can miss the
default (GUIDE.md §6).
"""

from __future__ import annotations

import os

os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "90")
os.environ.setdefault("PREFECT_SERVER_ANALYTICS_ENABLED", "false")
os.environ.setdefault("DO_NOT_TRACK", "1")

import shutil  # noqa: E402
from pathlib import Path  # noqa: E402

import duckdb  # noqa: E402
import polars as pl  # noqa: E402
import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "data" / "samples"  # copies of /work/shared/seeds
SEED_FILES = sorted(SAMPLES.glob("*.txt"))
LISTING_SEEDS = [p for p in SEED_FILES if p.name[:3] in {"000", "001", "002"}]
SEARCH_SEEDS = [p for p in SEED_FILES if p.name[:3] in {"003", "004"}]

# Modest example counts keep the whole suite fast on 2 cores; no deadline (Polars warm-up,
# a busy machine). The default run is derandomized: the same examples every run, so `make test`
# (and CI) pass or fail on the code, not on the draw. New examples are hunted on purpose with
# `make hunt` (HYPOTHESIS_PROFILE=hunt); what a hunt finds becomes an @example or a test.
_COMMON = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("digest", max_examples=150, derandomize=True, **_COMMON)
settings.register_profile("hunt", max_examples=150, **_COMMON)
# HYPOTHESIS_PROFILE=thorough: a longer hunt, for a run before a release.
settings.register_profile("thorough", max_examples=2000, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "digest"))


@pytest.fixture(scope="session", autouse=True)
def prefect_logging_on_pytest_stderr():
    """Prefect creates its console log handlers once per process, on the sys.stderr of that
    moment. When the first in-process `digest ingest` of a session ran under typer's CliRunner,
    they wrote to that invocation's closed stream ever after, and every later in-process run
    printed 'Logging error' tracebacks on its stderr (which tests read): set up here first."""
    from prefect.logging.configuration import setup_logging

    setup_logging()


@pytest.fixture(scope="session")
def prefect_harness():
    """One temporary Prefect server for the whole run (starting one costs ~10 s)."""
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=None):
        yield


@pytest.fixture(scope="session")
def run_ingest(prefect_harness):
    """Call the real `ingest` flow: run_ingest([paths], warehouse) -> summary dict."""
    from flows.ingest import ingest

    def run(paths: list[Path], warehouse: Path) -> dict:
        return ingest(paths=[Path(p) for p in paths], warehouse=Path(warehouse))

    return run


@pytest.fixture(scope="session")
def seeds_dir(tmp_path_factory) -> Path:
    """A private copy of the five seed files (tests may not touch data/samples). The folder
    has a fixed name: recorded paths (and so source_file_id) may include it."""
    out = tmp_path_factory.mktemp("seeds") / "samples"
    out.mkdir()
    for p in SEED_FILES:
        shutil.copy2(p, out / p.name)
    return out


@pytest.fixture(scope="session")
def seeds_warehouse(run_ingest, seeds_dir, tmp_path_factory) -> tuple[Path, dict]:
    """The seeds ingested once into a fresh warehouse: (path, run summary)."""
    warehouse = tmp_path_factory.mktemp("seeds_wh") / "w.duckdb"
    summary = run_ingest([seeds_dir], warehouse)
    return warehouse, summary


# ---------------------------------------------------------------------------- warehouse helpers
# Columns that record *when* or *by which run* a row was written: they legitimately differ
# between two runs over the same files.
RUN_COLUMNS = {"ingested_at", "run_id", "mtime_ns", "ctime_ns", "inode", "location"}  # stat fingerprint, place too
# Tables that log what each run did rather than what the data is: a re-run adds to them
# (skipped_file: "content already ingested"), and the near-duplicate decision log records
# what a new key was compared with, which depends on the order files arrived in.
RUN_LOG_TABLES = {"ingest_run", "skipped_file", "paper_match", "resolve_capped_block", "person_alias"}


def read_sql(warehouse: Path, sql: str) -> pl.DataFrame:
    with duckdb.connect(str(warehouse), read_only=True) as con:
        return con.sql(sql).pl()


def rows(warehouse: Path, sql: str) -> list[tuple]:
    return read_sql(warehouse, sql).rows()


@pytest.fixture()
def cli(prefect_harness):
    """digest(*args) in this process, failing the test on a non-zero exit (a test file that
    checks failing runs defines its own `cli` with tests.support.cli.digest_cli)."""
    from support.cli import passing_cli

    with passing_cli() as run:
        yield run


def table_contents(warehouse: Path, drop_run_columns: bool = False,
                   exclude: set[str] = frozenset({"ingest_run"})) -> dict[str, pl.DataFrame]:
    """Every base table but `exclude`, rows sorted, for whole-warehouse comparisons."""
    from flows.integrity import DECISION_COLUMNS

    with duckdb.connect(str(warehouse), read_only=True) as con:
        names = [r[0] for r in con.execute(
            "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main' AND NOT temporary "
            "ORDER BY table_name").fetchall()]
        tables = {}
        for name in names:
            if name in exclude:
                continue
            df = con.sql(f'SELECT * FROM "{name}"').pl()
            if drop_run_columns:  # and how person decisions were reached (as `digest verify`)
                df = df.drop([c for c in df.columns if c in RUN_COLUMNS | DECISION_COLUMNS.get(name, set())])
            sortable = [c for c, t in df.schema.items() if not isinstance(t, (pl.List, pl.Array, pl.Struct))]
            tables[name] = df.sort(sortable, nulls_last=True)
    return tables


def data_tables(warehouse: Path) -> dict[str, pl.DataFrame]:
    """The warehouse's data, without run bookkeeping: what two loads of the same files share."""
    return table_contents(warehouse, drop_run_columns=True, exclude=RUN_LOG_TABLES)


def assert_same_tables(left: dict[str, pl.DataFrame], right: dict[str, pl.DataFrame]) -> None:
    assert left.keys() == right.keys()
    for name in left:
        assert left[name].equals(right[name]), f"table {name} differs"


def run_checks(warehouse: Path) -> dict[str, int]:
    from flows.load import connect, run_checks as checks

    with connect(warehouse, read_only=True) as con:
        return checks(con)


# ---------------------------------------------------------------------------- parser helpers
def lines_frame(text: str, file_idx: int = 0) -> pl.DataFrame:
    """A decoded file's text as the parsers receive it (file_idx, line_no, line)."""
    text = text[:-1] if text.endswith("\n") else text  # as pipeline._decode does
    lines = text.split("\n")
    return pl.DataFrame({
        "file_idx": [file_idx] * len(lines),
        "line_no": list(range(1, len(lines) + 1)),
        "line": lines,
    }, schema={"file_idx": pl.Int64, "line_no": pl.Int64, "line": pl.String})


def parse_text(text: str, fmt: str | None = None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Detect (unless given) and parse one file's text → (records, quarantine)."""
    from transforms.formats import detect_format, get_format

    body = text[:-1] if text.endswith("\n") else text
    fmt = fmt or detect_format(body)
    return get_format(fmt).parse(lines_frame(text))
