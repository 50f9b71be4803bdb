"""All configuration in one pydantic-settings object: flags, then DIGEST_* variables (or a
.env file), then these defaults."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

REPO_ROOT = Path(__file__).resolve().parent.parent

# Run on each connection the load opens (a session setting: DuckDB refuses it in `connect`'s
# config). Its Python client draws a progress bar on stdout for any statement over two seconds,
# which put bar text into `digest ingest --json` on a 1M-listing load.
QUIET = "SET enable_progress_bar = false"

# Prefect settings the project owns, so no user has to know them (GUIDE.md §6).
PREFECT_DEFAULTS = {
    "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
    "DO_NOT_TRACK": "1",
    "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "90",
    "PREFECT_RESULTS_PERSIST_BY_DEFAULT": "false",
    "PREFECT_FLOWS_HEARTBEAT_FREQUENCY": "60",  # crashed served runs are noticed within minutes
}


def usable_cpus() -> int:
    """The CPUs this process may use (its affinity, not the machine's count)."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


DEFAULT_BATCH_BYTES = 16 * 1024 * 1024
# What parsing holds at its peak: memory for each byte of a file and, above all, for each of its
# lines, however short (a line is a Python string, then a row of several frames). Each file alone
# in a fresh process (`python -m bench.big_files shapes` makes them, `... memory FILE...` measures;
# tests/test_memory.py keeps the table): ordinary digests (250-310 bytes a line) 7.4-10.3 bytes a
# byte; files of short lines 168-205 bytes a line (line ends only), 264-345 (one letter each),
# 442-528 (stray one-letter lines after a record, after a search page's block), 318-526 (records
# of one-word fields), 717-798 (record headers alone, each quarantined). Charged by its bytes
# alone, a 32 MB file of line ends peaked at 5.1 GB where the guards allowed for 384 MB (hunt 45).
# A file's lines are counted once it is read (`flows.parse_memory`).
PARSE_BYTES_PER_BYTE = 8
PARSE_BYTES_PER_LINE = 800
# What sizes are planned by before anything is read (the batches parsed at once, the largest file
# read): an ordinary digest's bytes, 10.6-11.2 bytes of memory a byte by the model above (measured
# 7.4-10.3; `bench.big_files memory` of 15 / 116 MB listing files 8.1-9.0x and 57 MB of search pages
# 9.4-9.5x: README, Performance, Session 24), and a margin.
PARSE_BYTES_PER_INPUT_BYTE = 12


def parse_cost(n_bytes: int, n_lines: int) -> int:
    """Bytes of memory parsing a file of `n_bytes` and `n_lines` holds at its peak, at most."""
    return PARSE_BYTES_PER_BYTE * n_bytes + PARSE_BYTES_PER_LINE * n_lines


def parse_memory_budget() -> int:
    """Bytes of memory the parses under way in one process may hold together (by `parse_cost`):
    the share of memory `parse_slots` plans batches for."""
    return _default_budget_bytes()


def default_batches_in_flight() -> int:
    """Parse tasks under way at once: one per usable CPU and two more (`parse_slots` bounds them
    by memory). A task holds the GIL while it reads and decodes its files, and the flow's one
    thread stages finished batches; the two extra tasks keep the cores busy meanwhile. On this
    2-core machine, 1M listings, running server (`bench.settings_ab`, README, Performance,
    Session 23): parsing 65.1 s with 2 in flight, 51.8 s with 4 (medians), 8 no better than 4;
    peak RSS the same (the merge's)."""
    return max(2, usable_cpus()) + 2


def parse_slots(in_flight: int, batch_bytes: int) -> int:
    """Batch sizes parsed or waiting to be staged at once: `in_flight` (max_batches_in_flight),
    and no more than a share of memory the size of DuckDB's default budget holds while they parse
    (PARSE_BYTES_PER_INPUT_BYTE per byte of `batch_bytes`, the run's batch size): 4 of 16 MiB on
    this 24 GiB machine, as many as before; a 64-core machine with 8 GiB parses 3 at once, not 66
    (~13 GB), and 64 MiB batches here 2, not 4."""
    return max(1, min(in_flight, _default_budget_bytes() // (PARSE_BYTES_PER_INPUT_BYTE * batch_bytes)))


def _default_max_file_bytes() -> int:
    """The largest file whose parse fits in half of this machine's memory (parsing holds
    PARSE_BYTES_PER_INPUT_BYTE per byte of its input), between 256 MiB and 2 GiB: far above any
    digest (1.0 GiB on 24 GiB; it was a sixteenth of memory, set without that measure)."""
    return min(max(physical_memory() // (2 * PARSE_BYTES_PER_INPUT_BYTE), 256 << 20), 2 << 30)


def physical_memory() -> int:
    """Bytes of memory of this machine (8 GiB when it cannot be read)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 8 << 30


def default_memory_limit() -> str:
    """A twelfth of this machine's memory, at least 512 MiB, as DuckDB writes sizes. The run's
    Python (interpreter, Prefect, the parse batches, the resolver's and person step's frames) needs
    about as much again beside DuckDB at 1M listings (bench.profile: 0.6-1.6 GiB), so the whole
    process stays near a sixth of the machine; with an eighth, DuckDB's share alone held 2.9 GiB
    of a 24 GiB machine and the 1M distinct load peaked at 4.6-4.8 GiB."""
    return f"{_default_budget_bytes() >> 20}MiB"


def _default_budget_bytes() -> int:
    return max(physical_memory() // 12, 512 << 20)


# A run's default budget grows with what it loads: its new rows' index entries (DuckDB keeps the
# ART indexes of a transaction's inserts in memory) and the operators that hold them beside the
# spilled temp tables. 1M listings (1.55 GB) load within a twelfth of 24 GiB; 10M (15.5 GB)
# failed there after 20 minutes and loaded with 6 GiB (README, "10M listings").
BUDGET_PER_INPUT_BYTE = 0.4
MAX_MACHINE_SHARE = 3  # the default never takes more than a third of the machine


def run_memory_limit(settings: Settings, input_bytes: int) -> str:
    """DuckDB's budget for a run that loads `input_bytes` of files: the setting when it is set
    (DIGEST_DUCKDB_MEMORY_LIMIT, .env), else the machine's default (`default_memory_limit`) or,
    for a run that large, BUDGET_PER_INPUT_BYTE of its input, at most a third of the machine.
    Packed files count at the size of their text (`extract.sized`)."""
    if "duckdb_memory_limit" in settings.model_fields_set:
        return settings.duckdb_memory_limit
    wanted = min(int(input_bytes * BUDGET_PER_INPUT_BYTE), physical_memory() // MAX_MACHINE_SHARE)
    return f"{max(_default_budget_bytes(), wanted) >> 20}MiB"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="DIGEST_", env_file=".env", extra="ignore")

    warehouse: Path = REPO_ROOT / "data" / "warehouse.duckdb"
    samples: Path = REPO_ROOT / "data" / "samples"
    batch_bytes: int = Field(default=DEFAULT_BATCH_BYTES, gt=0)  # files per parse task, by size: coarse tasks, bounded memory
    # parse tasks under way or waiting to be staged, in batch sizes (a file of 5 batch sizes counts
    # as 5), within what memory holds (default_batches_in_flight, parse_slots)
    max_batches_in_flight: int = Field(default_factory=default_batches_in_flight, gt=0)
    # The warehouse's memory budget (DuckDB spills to disk beyond it): a twelfth of this machine's
    # memory by default (default_memory_limit), not a figure fitted to one corpus.
    # a size as DuckDB reads one ("600MB", "2 GiB", "1.5GB"), its unit written: another value
    # ("lots", or "2000000000" without a unit) failed only when the load began, with DuckDB's
    # parser error
    duckdb_memory_limit: str = Field(default_factory=lambda: default_memory_limit(),
                                     pattern=r"(?i)^\s*\d+(\.\d+)?\s*(b|bytes?|[kmgt]i?b?)\s*$")
    match_threshold: float = Field(default=0.8, ge=0, le=1, allow_inf_nan=False)  # near-duplicate papers: score at or above which two abstracts are one paper
    # namesakes: log-odds a mention needs to join a known person of its name (higher: more persons);
    # finite: at NaN no score reaches it, and every mention of a common name was a person of its own
    person_split_threshold: float = Field(default=-1.0, allow_inf_nan=False)
    ingest_root: Path | None = None  # paths are recorded relative to it (default: parent of the folders given)
    # A run that finds nothing new ends before Prefect starts: no flow run (`flow_run: false` in
    # its summary). True: it still runs the flow, e.g. for a server that watches every run.
    flow_run_when_nothing_new: bool = False
    lock_timeout_s: float = Field(default=0.0, ge=0, allow_inf_nan=False)  # a second ingest on the same warehouse waits this long, then refuses
    landing: Path = REPO_ROOT / "data" / "landing"  # `digest serve` ingests what arrives here...
    archive: Path = REPO_ROOT / "data" / "archive"  # ...then moves it to archive/YYYY/MM/DD/
    schedule: str = "0 6 * * *"  # cron, for `digest serve` and prefect.yaml
    timezone: str = "UTC"
    task_runner: Literal["threads", "dask"] = "threads"  # where parse tasks run
    dask_address: str | None = None  # tcp://scheduler:8786; unset with task_runner=dask: a local cluster
    max_file_bytes: int = Field(default_factory=_default_max_file_bytes, gt=0)  # larger files (unpacked archives) are skipped
    follow_outside_root: bool = False  # read symlinks whose target is outside the ingest root

    @field_validator("*")
    @classmethod
    def _home_expanded(cls, value):
        """A path from DIGEST_*, .env or a flag as a shell would expand it: "~/papers.duckdb" (usual
        in .env, where no shell expands it) made a folder named "~" in the working directory."""
        return value.expanduser() if isinstance(value, Path) else value

    @field_validator("warehouse", "samples", "landing", "archive", "ingest_root", mode="before")
    @classmethod
    def _a_path_is_named(cls, value):
        """An empty DIGEST_WAREHOUSE= (a variable left blank) was the working folder: the ingest
        left its lock file beside it and failed with "Is a directory"."""
        if isinstance(value, str) and not value.strip():
            raise ValueError("empty: name a path, or unset the variable for the default")
        return value

    @field_validator("duckdb_memory_limit")
    @classmethod
    def _more_than_nothing(cls, size: str) -> str:
        """"0MB" matched the pattern: the run failed, advising "about twice that, e.g. 0MB"."""
        if float(re.match(r"\s*([\d.]+)", size).group(1)) == 0:
            raise ValueError("a budget of no memory: give a size above zero, e.g. 2GB")
        return size

    @field_validator("timezone")
    @classmethod
    def _known_timezone(cls, name: str) -> str:
        """An IANA name, as Prefect's schedule takes it: "Mars/Base" passed here and failed with a
        traceback when `digest serve` made its schedule."""
        import zoneinfo

        if name not in zoneinfo.available_timezones():
            raise ValueError("not an IANA time zone name (e.g. UTC, Europe/Berlin)")
        return name


def apply_prefect_defaults() -> None:
    """Set before Prefect is imported; a user's own environment still wins."""
    for key, value in PREFECT_DEFAULTS.items():
        os.environ.setdefault(key, value)


def settings_problem(error) -> str:
    """A pydantic ValidationError of Settings as one line naming each variable, its value and
    what is wrong ("DIGEST_BATCH_BYTES='abc': Input should be a valid integer, ...")."""
    return "; ".join(f"DIGEST_{'_'.join(map(str, e['loc'])).upper()}={e.get('input')!r}: {e['msg']}"
                     for e in error.errors())
