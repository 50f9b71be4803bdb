"""The landing-folder lifecycle, for scheduled runs: digests dropped into `landing/` are
ingested, then moved to `archive/YYYY/MM/DD/` once the load has committed and published. A
failed run moves nothing; the bytes are moved, never rewritten (a rename, or a copy that keeps
them when archive is on another disk). Each file is recorded under the archive path it is moved
to, so a name that arrives every day (`daily.txt`) is a new file each day, never a version of
the last one. A file the run recorded but left in landing (it changed during the run: a feed
still writing it; or its move failed) keeps that name on later days (`CLAIMS`): its next load is
a new version of it, never a second file beside it."""

from __future__ import annotations

import datetime as dt
import fcntl
import hashlib
import json
import logging
import os
import shutil
from pathlib import Path

from flows.settings import Settings, apply_prefect_defaults

apply_prefect_defaults()

import prefect  # noqa: E402
from prefect import flow, get_run_logger  # noqa: E402
from prefect.exceptions import MissingContextError  # noqa: E402
from prefect.deployments.runner import RunnerDeployment  # noqa: E402
from prefect.schedules import Cron  # noqa: E402

from flows import extract, load  # noqa: E402
from flows.discovery import NothingFound  # noqa: E402
from flows.ingest import configured_ingest  # noqa: E402

DEPLOYMENT = "daily-landing"
# In the archive folder (hidden: `digest ingest` of the archive's parent leaves it out): the names
# under which files still in landing were recorded, by landing folder, then by their path in it.
CLAIMS = ".landing-claims.json"
CLAIMS_LOCK = ".landing-claims.lock"  # one saver of CLAIMS at a time
UNREADABLE = (extract.VANISHED, extract.CANNOT_READ, extract.OTHER_FILE_AT_PATH)  # not loaded: stays in landing


@flow(name="ingest-landing", log_prints=False)
def ingest_landing(landing: Path | None = None, archive: Path | None = None,
                   warehouse: Path | None = None) -> dict:
    settings = Settings()
    landing, archive = landing or settings.landing, archive or settings.archive
    warehouse = warehouse or settings.warehouse
    refuse_archive_inside_landing(landing, archive)
    refuse_missing_landing(landing)
    _, arrived = extract.discover([landing], exclude=extract.warehouse_files(warehouse))  # never move the warehouse
    if not arrived:
        get_run_logger().info("nothing in %s", landing)
        return {"archived": []}
    day = dt.datetime.now(dt.timezone.utc).date()
    stored_claims = read_claims(archive, landing)
    claims = continued_claims(stored_claims, arrived, landing, archive, warehouse)
    fresh = not archive.exists()  # a failed run leaves no archive folder of its making
    targets = archive_targets(arrived, landing, archive, day, claims)  # reserved until moved
    saved = stored_claims  # the claims as they stay if the run fails before saving them
    try:
        # Each file is recorded under its archive name, not its landing one: landing/ is emptied
        # by every run, so `daily.txt` today is another file than `daily.txt` yesterday, not its
        # next version (which moved yesterday's listings to fact_listing_history).
        names = {source: recorded_name(target, archive) for source, target in targets.items()}
        # and is known by where it goes: a later `digest ingest` of any folder above it meets it there
        locations = {source: extract.location(target) for source, target in targets.items()}
        try:
            # the task runner of the settings (DIGEST_TASK_RUNNER=dask): the deployment ran in one process, unsaid
            summary = configured_ingest(settings)(paths=[landing], warehouse=warehouse,
                                                  recorded_as=names, located_as=locations)  # raises on failure: nothing is moved
        except NothingFound:  # another landing run took them while this one waited for the writer lock
            get_run_logger().info("nothing left in %s: another run took what was found", landing)
            return {"archived": []}
        left = _unreadable(warehouse, summary["run_id"])
        recorded = [f for f in arrived
                    if f.abs_path in targets and recorded_name(targets[f.abs_path], archive) not in left]
        moved: list[Path] = []
        try:
            moved = archive_files(recorded, targets)
        finally:  # a failed move leaves its file recorded under a name no file has yet: claimed too
            unmoved = {_in_landing(f, landing): targets[f.abs_path].relative_to(archive).as_posix()
                       for f in recorded if targets[f.abs_path] not in moved}
            done = {_in_landing(f, landing) for f in recorded if targets[f.abs_path] in moved}
            # an earlier run's claim stays while its file does (unreadable this time, or being written)
            earlier = {name: target for name, target in stored_claims.items()
                       if name not in done and (landing / name).exists()}
            saved = {**earlier, **unmoved}
            save_claims(archive, landing, saved, settled=set(claims))
    finally:  # a claimed name keeps its reservation for the next run; every other one is freed
        chosen = {*targets.values(), *(archive / target for target in stored_claims.values())}
        _release(chosen - {archive / target for target in saved.values()}, archive.parent if fresh else archive,
                 _owner(landing))
    get_run_logger().info("archived %d files to %s", len(moved), archive)
    return {**summary, "archived": [str(dest) for dest in moved]}


def refuse_archive_inside_landing(landing: Path, archive: Path) -> None:
    """An archive in the landing folder would be found by the next run, ingested and moved into
    itself, one level deeper each run (archive/2026/12/06/archive/2026/12/06/...)."""
    if archive.resolve().is_relative_to(landing.resolve()):
        raise ValueError(f"the archive folder {archive} is inside the landing folder {landing}: every run "
                         "would ingest and archive it again; set DIGEST_ARCHIVE to a folder outside it")


def refuse_missing_landing(landing: Path) -> None:
    """A landing folder that is not there is a typo or a share not mounted: it was created, and
    every scheduled run found nothing in it and ended Completed, day after day."""
    if not landing.is_dir():
        what = "is not a folder" if landing.exists() else "does not exist"
        raise FileNotFoundError(f"the landing folder {landing} {what} (DIGEST_LANDING): create it "
                                f"(mkdir -p {landing}) or mount its share")


def archive_targets(found: list[extract.FoundFile], landing: Path, archive: Path, day: dt.date,
                    claims: dict[str, str] | None = None) -> dict[str, Path]:
    """Where each readable file found in landing goes: the name an earlier run recorded it under
    and could not move it to (`claims`), else archive/YYYY/MM/DD/<its path in landing>, or
    name-1, name-2, ... when an earlier run (or another file of this run) took the name.
    Chosen before the load, since the file is recorded under it; each name is reserved
    (`_reserve`) as it is chosen, so another run on this archive chooses another."""
    folder = archive / f"{day:%Y}" / f"{day:%m}" / f"{day:%d}"
    owner = _owner(landing)
    targets: dict[str, Path] = {}
    taken: set[Path] = set()
    for f in found:
        if not f.skip_reason:  # not read: it stays in landing under its own name
            claimed = (claims or {}).get(_in_landing(f, landing))
            if claimed and archive / claimed not in taken and _holds(archive / claimed, owner):
                target = archive / claimed
            else:
                target = _free_name(folder / _in_landing(f, landing), taken, owner)
            targets[f.abs_path] = target
            taken.add(target)
    return targets


def _owner(landing: Path) -> str:
    """Who holds a reservation: the landing folder, so that its next run continues a claim."""
    return str(landing.resolve())


def _sidecar(target: Path) -> Path:
    """A name's reservation, beside it: hidden, so `digest ingest archive/` never reads it."""
    return target.with_name(f".{target.name}.reserved")


def _reserve(target: Path, owner: str) -> bool:
    """Reserve the name for `owner` at once (O_EXCL): False when another run holds it. Two runs
    sharing one archive chose the same name before their loads, and the second to move archived
    its file beside it while its warehouse recorded the first's. A run killed by SIGKILL leaves
    its reservations: those names stay taken (harmless: the next file takes name-1)."""
    for _ in range(3):
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(_sidecar(target), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            return False
        except FileNotFoundError:  # another run removed the empty folder in between (`_release`)
            continue
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(owner)
        return True
    return False


def _holder(target: Path) -> str | None:
    try:
        return _sidecar(target).read_text(encoding="utf-8")
    except (OSError, ValueError):
        return None


def _holds(target: Path, owner: str) -> bool:
    """The name is free for `owner`: no file has it, and the reservation is its own (a claim
    keeps its reservation between runs) or could be made now."""
    return not os.path.lexists(target) and (_holder(target) == owner or _reserve(target, owner))


def _release(targets: set[Path], top: Path, owner: str) -> None:
    """Drop the reservations `owner` holds among `targets` (its file moved there, or it was
    never recorded), and the day folders left empty, so a failed run leaves the archive as it was."""
    for target in targets:
        if _holder(target) != owner:
            continue
        _sidecar(target).unlink(missing_ok=True)
        folder = target.parent
        while folder != top and folder.is_relative_to(top):
            try:
                folder.rmdir()
            except OSError:  # not empty
                break
            folder = folder.parent


def _in_landing(found: extract.FoundFile, landing: Path) -> str:
    return Path(found.abs_path).relative_to(landing.absolute()).as_posix()


def read_claims(archive: Path, landing: Path) -> dict[str, str]:
    """The names recorded for files left in `landing` (`CLAIMS` holds them by landing folder:
    two landing folders sharing one archive dropped each other's), and those of a claims file of
    the earlier code (a flat {name: archive name}, its landing folder unknown: every folder reads
    them, and `continued_claims` holds one only for the bytes loaded under it). None if the file
    is missing or unreadable (then such a file is loaded the next day as a file of its own)."""
    whole = _read_claims_file(archive)
    own = whole.get(_owner(landing))
    own = {k: v for k, v in own.items() if isinstance(k, str) and isinstance(v, str)} if isinstance(own, dict) else {}
    return {**_legacy(whole), **own}


def _read_claims_file(archive: Path) -> dict:
    try:
        claims = json.loads((archive / CLAIMS).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as err:
        _log().warning("%s unreadable (%s): files left in landing by earlier runs are new files", CLAIMS, err)
        return {}
    return claims if isinstance(claims, dict) else {}


def _legacy(whole: dict) -> dict[str, str]:
    """The claims of the earlier flat file: a landing folder's key is its absolute path, with a
    dict; a legacy claim's key is a name in landing, with a string."""
    return {k: v for k, v in whole.items() if isinstance(v, str)}


def continued_claims(claims: dict[str, str], arrived: list[extract.FoundFile], landing: Path, archive: Path,
                     warehouse: Path) -> dict[str, str]:
    """The claims whose file is still in landing and begins with the bytes loaded under the
    claimed name: the same digest, finished since. Another digest written under that name (the
    next day's `daily.txt`) is a file of its own: as a version of the claimed one it would drop
    that day's listings."""
    here = {_in_landing(f, landing): Path(f.abs_path) for f in arrived if not f.skip_reason}
    wanted = {name: target for name, target in claims.items() if name in here}
    if not wanted or not warehouse.exists():
        return {}
    with load.connect(warehouse, read_only=True) as con:
        loaded = {path: (size, sha256) for path, size, sha256 in con.execute(
            "SELECT path, size_bytes, sha256 FROM dim_source_file WHERE is_current AND path IN (SELECT unnest(?))",
            [[recorded_name(archive / target, archive) for target in wanted.values()]]).fetchall()}
    return {name: target for name, target in wanted.items()
            if _begins_with(here[name], *loaded.get(recorded_name(archive / target, archive), (None, None)))}


def _begins_with(path: Path, size: int | None, sha256: str | None) -> bool:
    """The file's first `size` bytes hash to `sha256`: read in blocks (a digest of gigabytes
    was held whole in memory)."""
    if size is None:
        return False
    digest, left = hashlib.sha256(), size
    try:
        with path.open("rb") as f:
            while left and (block := f.read(min(left, 1 << 20))):
                digest.update(block)
                left -= len(block)
    except OSError:
        return False
    return not left and digest.hexdigest() == sha256


def save_claims(archive: Path, landing: Path, claims: dict[str, str], settled: set[str] = frozenset()) -> None:
    """This landing folder's claims, written whole or not at all, under a lock (another landing
    folder's run saving at once would drop them); the file is removed when no folder has any.
    A legacy claim (`_legacy`) becomes this folder's only once one of its runs continued it
    (`settled`: the bytes loaded under it are this folder's); till then every folder reads it."""
    path = archive / CLAIMS
    if not claims and not path.exists():
        return
    archive.mkdir(parents=True, exist_ok=True)
    with (archive / CLAIMS_LOCK).open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released by the kernel if the run dies
        whole = _read_claims_file(archive)
        legacy = _legacy(whole)
        own = {k: v for k, v in claims.items() if k in settled or legacy.get(k) != v}
        whole = {k: v for k, v in whole.items() if not (k in legacy and k in settled) and k != _owner(landing)}
        if own:
            whole[_owner(landing)] = dict(sorted(own.items()))
        if not whole:
            path.unlink(missing_ok=True)
            return
        partial = path.with_name(path.name + ".tmp")
        partial.write_text(json.dumps(whole, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        os.replace(partial, path)


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
        if target is None or not extract.unchanged_since_found(f):
            continue  # not read, or it changed during the run: the next run ingests the new content
        if os.path.lexists(target):
            _set_aside(target, source)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(source, target)
        _sidecar(target).unlink(missing_ok=True)  # the file holds the name now
        moved.append(target)
    return moved


def _set_aside(target: Path, source: Path) -> None:
    """Something was put at a reserved name during the run: not by a landing run (they choose
    another name), by a person copying a file in. The warehouse recorded the landed file under
    that name, so the name gets the landed file and the intruder moves beside it, under a name no
    warehouse recorded. (Archiving the landed file beside it left lineage naming other bytes;
    leaving it in landing too, and its next load, under another name, counted it twice.)"""
    holder = f"set aside by process {os.getpid()}"
    aside = _free_name(target, set(), holder)
    os.rename(target, aside)
    _sidecar(aside).unlink(missing_ok=True)
    _log().warning("%s was put in the archive during the run, at the name %s was loaded under: "
                   "moved to %s", target, source, aside)


def _log():
    """The run's logger; the module's own outside a flow run (a function called directly)."""
    try:
        return get_run_logger()
    except MissingContextError:
        return logging.getLogger(__name__)


def _free_name(target: Path, taken: set[Path], owner: str) -> Path:
    """The target, or target-1, target-2, ... when a file of that name was archived already, is
    `taken` by another file of the run or reserved by another run; reserved for `owner`."""
    candidate, n = target, 0
    while candidate in taken or os.path.lexists(candidate) or not _reserve(candidate, owner):
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
    schedule = Cron(settings.schedule, timezone=settings.timezone)  # Prefect's check of the string first
    if len(settings.schedule.split()) != 5 and not settings.schedule.strip().startswith("@"):
        # Prefect takes six fields, the first as seconds: "0 0 6 * * *" (06:00 in Quartz's
        # habit) ran every second of 00:00 on the 6th, "* * * * * *" every second
        raise ValueError("a cron of five fields (minute hour day month weekday), e.g. '0 6 * * *': "
                         "Prefect reads a sixth field as seconds")
    if not _fires(settings.schedule, settings.timezone):
        raise ValueError("a cron that never fires (no such day, e.g. the 31st of February): "
                         "the deployment would wait forever without a word")
    return ingest_landing.to_deployment(
        name=DEPLOYMENT,
        schedules=[schedule],
        parameters={"landing": str(settings.landing), "archive": str(settings.archive),
                    "warehouse": str(settings.warehouse)},
        description="Ingest new digests from the landing folder, then archive them.",
    )


def _fires(cron: str, timezone: str) -> bool:
    """Whether the cron names a time that exists: Prefect's scheduler finds none for "0 6 31 2 *"
    and logs its error on the server only, at every scheduling pass."""
    import asyncio

    from prefect.server.schemas.schedules import CronSchedule  # the server's own date search

    try:
        return bool(asyncio.run(CronSchedule(cron=cron, timezone=timezone).get_dates(1)))
    except Exception as err:
        if type(err).__name__ == "CroniterBadDateError":  # "failed to find next date" (Prefect's vendored croniter)
            return False
        raise


def serve_deployment(deployment: RunnerDeployment) -> None:
    """Serve the landing deployment until interrupted (needs a Prefect server)."""
    prefect.serve(deployment)
