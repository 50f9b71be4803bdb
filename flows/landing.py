"""The landing-folder lifecycle, for scheduled runs: digests dropped into `landing/` are
ingested, then moved to `archive/YYYY/MM/DD/` once the load has committed and published. A
failed run moves nothing; the bytes are moved, never rewritten (a rename, or a copy that keeps
them when archive is on another disk)."""

from __future__ import annotations

import datetime as dt
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
    landing.mkdir(parents=True, exist_ok=True)
    _, arrived = extract.discover([landing])
    if not arrived:
        get_run_logger().info("nothing in %s", landing)
        return {"archived": []}
    summary = ingest(paths=[landing], warehouse=warehouse)  # raises on failure: nothing is moved
    left = _unreadable(warehouse, summary["run_id"])
    day = dt.datetime.now(dt.timezone.utc).date()
    moved = archive_files([f for f in arrived if f.path not in left], landing, archive, day)
    get_run_logger().info("archived %d files to %s", len(moved), archive)
    return {**summary, "archived": [str(dest) for dest in moved]}


def archive_files(files: list[extract.FoundFile], landing: Path, archive: Path, day: dt.date) -> list[Path]:
    """Move each file that is still as it was found to archive/YYYY/MM/DD/<its path in landing>."""
    folder = archive / f"{day:%Y}" / f"{day:%m}" / f"{day:%d}"
    moved = []
    for f in files:
        source = Path(f.abs_path)
        if not _unchanged_since_found(source, f):
            continue  # it changed during the run: the next run ingests the new content
        target = _free_name(folder / source.relative_to(landing.resolve()))
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


def _free_name(target: Path) -> Path:
    """The target, or target-1, target-2, ... when a file of that name was archived already."""
    candidate, n = target, 0
    while candidate.exists():
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
