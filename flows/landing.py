"""The landing-folder lifecycle, for scheduled runs: digests dropped into `landing/` are
ingested, then moved to `archive/YYYY/MM/DD/` once the load has committed and published. A
failed run moves nothing; the bytes are moved, never rewritten (a rename, or a copy that keeps
them when archive is on another disk). Each file is recorded under the archive path it is moved
to, so a name that arrives every day (`daily.txt`) is a new file each day, never a version of
the last one."""

from __future__ import annotations

import datetime as dt
import os
import shutil
from pathlib import Path

from flows.settings import Settings, apply_prefect_defaults

apply_prefect_defaults()

import prefect  # noqa: E402
from prefect import flow, get_run_logger  # noqa: E402
from prefect.deployments.runner import RunnerDeployment  # noqa: E402
from prefect.schedules import Cron  # noqa: E402

from flows import extract, load  # noqa: E402
from flows.ingest import ingest  # noqa: E402

DEPLOYMENT = "daily-landing"
UNREADABLE = (extract.VANISHED, extract.CANNOT_READ)


@flow(name="ingest-landing", log_prints=False)
def ingest_landing(landing: Path | None = None, archive: Path | None = None,
                   warehouse: Path | None = None) -> dict:
    settings = Settings()
    landing, archive = landing or settings.landing, archive or settings.archive
    warehouse = warehouse or settings.warehouse
    refuse_archive_inside_landing(landing, archive)
    landing.mkdir(parents=True, exist_ok=True)
    _, arrived = extract.discover([landing], exclude=extract.warehouse_files(warehouse))  # never move the warehouse
    if not arrived:
        get_run_logger().info("nothing in %s", landing)
        return {"archived": []}
    day = dt.datetime.now(dt.timezone.utc).date()
    targets = archive_targets(arrived, landing, archive, day)
    # Each file is recorded under its archive name, not its landing one: landing/ is emptied by
    # every run, so `daily.txt` today is another file than `daily.txt` yesterday, not its next
    # version (which moved yesterday's listings to fact_listing_history).
    names = {source: recorded_name(target, archive) for source, target in targets.items()}
    summary = ingest(paths=[landing], warehouse=warehouse, recorded_as=names)  # raises on failure: nothing is moved
    left = _unreadable(warehouse, summary["run_id"])
    moved = archive_files([f for f in arrived if recorded_name(targets.get(f.abs_path), archive) not in left],
                          targets)
    get_run_logger().info("archived %d files to %s", len(moved), archive)
    return {**summary, "archived": [str(dest) for dest in moved]}


def refuse_archive_inside_landing(landing: Path, archive: Path) -> None:
    """An archive in the landing folder would be found by the next run, ingested and moved into
    itself, one level deeper each run (archive/2026/12/06/archive/2026/12/06/...)."""
    if archive.resolve().is_relative_to(landing.resolve()):
        raise ValueError(f"the archive folder {archive} is inside the landing folder {landing}: every run "
                         "would ingest and archive it again; set DIGEST_ARCHIVE to a folder outside it")


def archive_targets(found: list[extract.FoundFile], landing: Path, archive: Path, day: dt.date) -> dict[str, Path]:
    """Where each readable file found in landing goes: archive/YYYY/MM/DD/<its path in landing>,
    or name-1, name-2, ... when an earlier run (or another file of this run) took the name.
    Chosen before the load, since the file is recorded under it."""
    folder = archive / f"{day:%Y}" / f"{day:%m}" / f"{day:%d}"
    targets: dict[str, Path] = {}
    taken: set[Path] = set()
    for f in found:
        if not f.skip_reason:  # not read: it stays in landing under its own name
            target = _free_name(folder / Path(f.abs_path).relative_to(landing.absolute()), taken)
            targets[f.abs_path] = target
            taken.add(target)
    return targets


def recorded_name(target: Path | None, archive: Path) -> str | None:
    """A landed file's path in the warehouse: its archive path from the archive folder's name on
    ("archive/2026/12/06/daily.txt"), as `digest ingest` of the archive's parent names it."""
    if target is None:
        return None
    return extract.display_path(target.absolute().relative_to(archive.absolute().parent))


def archive_files(files: list[extract.FoundFile], targets: dict[str, Path]) -> list[Path]:
    """Move each file that is still as it was found to its target (`archive_targets`)."""
    moved = []
    for f in files:
        source, target = Path(f.abs_path), targets.get(f.abs_path)
        if target is None or not _unchanged_since_found(source, f):
            continue  # not read, or it changed during the run: the next run ingests the new content
        if os.path.lexists(target):  # taken during the run by something else than a landing run
            get_run_logger().warning("%s exists: %s is archived beside it", target, source)
            target = _free_name(target, set())
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(source, target)
        moved.append(target)
    return moved


def _unchanged_since_found(path: Path, found: extract.FoundFile) -> bool:
    try:
        stat = path.stat()
    except FileNotFoundError:
        return False
    return stat.st_size == found.size_bytes and stat.st_mtime_ns == found.mtime_ns


def _free_name(target: Path, taken: set[Path]) -> Path:
    """The target, or target-1, target-2, ... when a file of that name was archived already (or
    is `taken` by another file of the run)."""
    candidate, n = target, 0
    while os.path.lexists(candidate) or candidate in taken:
        n += 1
        candidate = target.with_name(f"{target.stem}-{n}{target.suffix}")
    return candidate


def _unreadable(warehouse: Path, run_id: str) -> set[str]:
    """Landing files the run could not read: they stay in landing for the next run."""
    with load.connect(warehouse, read_only=True) as con:
        rows = con.execute("SELECT path, reason FROM skipped_file WHERE run_id = ?", [run_id]).fetchall()
    return {path for path, reason in rows if reason.startswith(UNREADABLE)}


def landing_deployment(settings: Settings) -> RunnerDeployment:
    """`ingest-landing` on the configured cron schedule, with the configured folders."""
    return ingest_landing.to_deployment(
        name=DEPLOYMENT,
        schedules=[Cron(settings.schedule, timezone=settings.timezone)],
        parameters={"landing": str(settings.landing), "archive": str(settings.archive),
                    "warehouse": str(settings.warehouse)},
        description="Ingest new digests from the landing folder, then archive them.",
    )


def serve_deployment(deployment: RunnerDeployment) -> None:
    """Serve the landing deployment until interrupted (needs a Prefect server)."""
    prefect.serve(deployment)
