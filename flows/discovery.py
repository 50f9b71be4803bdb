"""What a run has to read: the files found under the paths asked for, less those already loaded
unchanged (same stat fingerprint as an ingested version).

The `discover` task of the ingest flow asks this, and so does `digest ingest` before it starts
Prefect: a run that finds nothing new ends there, without a flow run (issue 15, fixed cost: a
no-op spent 6.8-7.2 s waiting for Prefect's temporary server to start, ~2.5 s with a running
one, for a look that takes ~0.2 s). Plain DuckDB and the extract module: no Prefect, no frames.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import duckdb

from flows import extract, publish
from flows.run_stats import RunStats, totals
from flows.settings import QUIET, Settings


class NothingFound(ValueError):
    """The paths asked for hold no file at all."""


@dataclass(frozen=True)
class Look:
    to_read: list[extract.FoundFile]
    n_unchanged: int
    stored: tuple[int, int] | None  # papers and authors held, read when nothing is left to read


def _renamed(found: list[extract.FoundFile], names: dict[str, str],
             locations: dict[str, str] | None = None) -> list[extract.FoundFile]:
    """Each file found at a path of `names` under its name there (and its `locations`: where it
    is moved to), and no other file to read: one that arrived after the landing run looked has
    no name yet (the next run takes it). Files not to be read keep their own path in `skipped_file`."""
    locations = locations or {}
    kept = [replace(f, path=names[f.abs_path], location=locations.get(f.abs_path, f.location))
            if f.abs_path in names else f for f in found if f.abs_path in names or f.skip_reason]
    return sorted(kept, key=lambda f: f.path)


def look(paths: list[Path], warehouse: Path, settings: Settings, recorded_as: dict[str, str] | None = None,
         located_as: dict[str, str] | None = None) -> Look:
    """Files to read (or to record as skipped, with their reason) and how many were skipped
    unread; when nothing is left to read, the warehouse's totals (read in the same look at it).
    The warehouse's own files are left out wherever they are. `recorded_as`, `located_as`: a
    landing run's names of its files and where they go (their archive paths and locations, by
    absolute path; `_renamed`). A file the warehouse holds is known by its location, whatever
    folder was named (`extract.identified`)."""
    _, found = extract.discover(paths, settings.ingest_root, read_limits(settings),
                                exclude=extract.warehouse_files(warehouse))
    if recorded_as is not None:
        found = _renamed(found, recorded_as, located_as)
    if not found:
        raise NothingFound(f"no files found in {extract.some(paths)} "
                           "(hidden entries inside a folder and warehouse files are not read)")
    if not warehouse.exists():
        return Look(found, 0, None)
    with _looked_at(warehouse) as con:
        con.execute(QUIET)
        current = extract.current_locations(con)
        found = extract.identified(found, current)
        skip = extract.unchanged(found, extract.fingerprints(con))
        to_read = extract.other_files([f for f in found if f.path not in skip], current)
        stored = None if to_read else totals(con)
    return Look(to_read, len(skip), stored)


class WarehouseHeld(RuntimeError):
    """Another program holds the published warehouse open with write access."""


def _looked_at(warehouse: Path) -> duckdb.DuckDBPyConnection:
    """The published warehouse, read-only (plain rows: no frame, no macros). A session of
    another program writing to it (a DuckDB shell, a notebook) ended the run with DuckDB's lock
    message, which named a PID but not what to do."""
    try:
        return duckdb.connect(str(warehouse), read_only=True)
    except duckdb.IOException as err:
        holder = publish.lock_holder(err)
        if holder is None:
            raise
        raise WarehouseHeld(f"{warehouse} is open with write access in another program ({holder}): "
                            "an ingest never writes under another writer; close that session and run again") from err


def read_limits(settings: Settings) -> extract.ReadLimits:
    return extract.ReadLimits(settings.max_file_bytes, settings.follow_outside_root)


def summary(run_id: str, shown: Path, seen: Look, stats: RunStats, started: float,
            timings: dict[str, float] | None = None, warning: str | None = None) -> dict:
    """The run's summary (`digest ingest --json`), in its order."""
    return {
        "run_id": run_id,
        "warehouse": str(shown),
        "files_seen": len(seen.to_read) + seen.n_unchanged,
        **asdict(stats),
        "seconds": round(time.perf_counter() - started, 3),
        "stage_seconds": {k: round(v, 3) for k, v in (timings or {}).items()},
        "warning": warning,
    }


def nothing_new(seen: Look) -> RunStats:
    return RunStats(0, seen.n_unchanged, 0, 0, *(seen.stored or (0, 0)), 0)


def summary_if_nothing_new(paths: list[Path], warehouse: Path, settings: Settings) -> dict | None:
    """The summary of a run that would find nothing new, looked up without Prefect, or None
    when the flow has to run: files to read, none found, or a warehouse that cannot be read now
    (the flow then says why, as before). Read from the published snapshot without the writer's
    lock: a run loading meanwhile publishes whole snapshots, and a run with nothing new writes
    nothing."""
    started = time.perf_counter()
    try:
        seen = look(paths, publish.real_path(warehouse), settings)
    except Exception:  # noqa: BLE001 - the flow looks again and reports it
        return None
    if seen.to_read:  # (nothing to read means the warehouse exists: its totals were read)
        return None
    return {**summary(str(uuid.uuid4()), warehouse, seen, nothing_new(seen), started), "flow_run": False}
