"""The `ingest` flow: discover → parse+clean batches → dedupe (merge) → validate → load.

Tasks are coarse (a batch of files each, sized by bytes) and thin: the work is in the pure
transforms and in the warehouse's set SQL. Parsed batches stream into staging tables as they
finish, at most `max_batches_in_flight` at a time, so memory follows the batch size.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import shutil
import socket
import time
import uuid
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from flows.settings import Settings, apply_prefect_defaults, parse_slots, physical_memory, run_memory_limit

apply_prefect_defaults()

from prefect import get_run_logger, task  # noqa: E402
from prefect.artifacts import (  # noqa: E402
    create_markdown_artifact,
    create_progress_artifact,
    create_table_artifact,
    update_progress_artifact,
)
from prefect.cache_policies import NO_CACHE  # noqa: E402
from prefect.states import Completed  # noqa: E402
from prefect.runtime import flow_run  # noqa: E402

import duckdb  # noqa: E402

from flows import discovery, extract, fixed_cost, progress, publish, shutdown  # noqa: E402
from flows.discovery import read_limits  # noqa: E402
from flows.run_stats import RunStats  # noqa: E402

fixed_cost.install()  # a flow's end does not wait for its heartbeat thread's one-second sleep

# The loader and the run report (Polars, NumPy, the merge's modules: 0.4-0.5 s) load when a run
# has files to read, not in a run with nothing new (issue 15, fixed cost).
if TYPE_CHECKING:
    import polars as pl

    from flows import load
    from transforms.pipeline import BatchResult


@task(name="discover", cache_policy=NO_CACHE)
def discover(paths: list[Path], warehouse: Path, settings: Settings,
             recorded_as: dict[str, str] | None = None, located_as: dict[str, str] | None = None) -> discovery.Look:
    return discovery.look(paths, warehouse, settings, recorded_as, located_as)


@task(name="parse-clean", cache_policy=NO_CACHE, retries=2, retry_delay_seconds=1,
      retry_condition_fn=lambda task, run, state: _is_transient(state))
def parse_batch(batch: extract.FileBatch, limits: extract.ReadLimits = extract.ReadLimits()) -> BatchResult:
    # The parsers and their frame checks (Pandera, which imports pandas: ~0.9 s) load when a
    # file is read, not in a run that finds nothing new.
    from flows.parse_memory import parse_within_memory

    started = time.perf_counter()
    sources, meta, skipped = extract.read_sources(batch.files, limits)
    read_s = time.perf_counter() - started
    result = parse_within_memory(sources, limits.max_file_bytes)  # weighed by their lines too
    result.files = result.files.join(meta.drop("path"), on="source_file_id", how="left")
    result.skipped = skipped.vstack(result.skipped)
    result.timings = {"read": read_s, **result.timings}
    result.read_by = (socket.gethostname(), os.getpid())
    return result


class WorkersCannotRead(RuntimeError):
    """Parse tasks ran where the flow's files are not (a Dask worker on another machine)."""


def refuse_unseen_by_worker(result: BatchResult, batch: list[extract.FoundFile]) -> None:
    """A parse task that ran in another process and did not find files the flow finds: the
    workers do not see the flow's files (another machine, another mount). Each was recorded as
    "vanished", nothing was loaded, and the run ended Completed."""
    if result.read_by is None or result.read_by == (socket.gethostname(), os.getpid()):
        return
    import polars as pl  # loaded with the result already

    vanished = set(result.skipped.filter(pl.col("reason") == extract.VANISHED)["path"])
    # here still as it was found: not a file that went and came back during the run
    here = [f.abs_path for f in batch if f.path in vanished and extract.unchanged_since_found(f)]
    if here:
        host, pid = result.read_by
        raise WorkersCannotRead(
            f"{len(here)} file(s) the flow finds were not found by the parse task on {host} (process {pid}), "
            f"e.g. {here[0]}: Dask workers need the digest files at the same paths (DIGEST_DASK_ADDRESS)")


def _is_transient(state) -> bool:
    """Retry reads that may work next time (I/O errors); never deterministic parse errors."""
    try:
        state.result()
    except OSError:
        return True
    except Exception:  # noqa: BLE001 - any other failure is deterministic
        return False
    return False


@task(name="dedupe", cache_policy=NO_CACHE)
def dedupe(loader: load.RunLoader, ingested_at: dt.datetime) -> RunStats:
    from flows import load

    stats = loader.merge(ingested_at)
    if loader.staged:  # the stat fingerprints of what was read: the next run skips it unread
        loader.con.execute(load.schema_sql("source_fingerprint.sql"))
    return stats


@task(name="validate", cache_policy=NO_CACHE)
def validate(loader: load.RunLoader) -> None:
    loader.check()


@task(name="load", cache_policy=NO_CACHE)
def commit(loader: load.RunLoader) -> None:
    loader.commit()


@fixed_cost.lean_flow(name="ingest", log_prints=False)  # @flow, its parameters sent without FastAPI
def ingest(paths: list[Path], warehouse: Path, batch_bytes: int | None = None,
           recorded_as: dict[str, str] | None = None, located_as: dict[str, str] | None = None):
    """Ingest digest files into the warehouse and publish the result as one new snapshot.
    `recorded_as`, `located_as`: the landing flow's names for its files and where it moves them
    (`discovery.look`).

    Ends Completed (with a warning when spans were quarantined) and returns the summary dict;
    a failed load ends Failed with the reason, leaving the previous snapshot published.
    """
    settings = Settings()
    logger = get_run_logger()
    global _artifacts_failed
    _artifacts_failed = False
    started = time.perf_counter()
    started_at = dt.datetime.now(dt.timezone.utc)
    run_id = str(flow_run.id or uuid.uuid4())
    shown = warehouse
    warehouse = publish.real_path(warehouse)  # a symlinked warehouse: its target is staged and replaced
    warehouse.parent.mkdir(parents=True, exist_ok=True)
    report = None
    with publish.writer_lock(warehouse, settings.lock_timeout_s):
        seen = discover(paths, warehouse, settings, recorded_as, located_as)
        if not seen.to_read:  # nothing new: leave the published snapshot untouched
            stats, timings, warning = discovery.nothing_new(seen), {}, None
        else:
            batch_bytes = batch_bytes or settings.batch_bytes
            batches = extract.plan_batches(extract.sized(seen.to_read), batch_bytes)
            logger.info("%d files to read in %d batches (%d unchanged)", len(seen.to_read), len(batches),
                        seen.n_unchanged)
            stats, timings, report, warning = _load_and_publish(warehouse, batches, batch_bytes, run_id, started_at,
                                                                seen.n_unchanged, settings)
    summary = {**discovery.summary(run_id, shown, seen, stats, started, timings, warning), "flow_run": True}
    if report is not None:
        _best_effort("the run's table and summary", _publish_artifacts, *report)
    logger.info("ingest summary: %s", summary)
    if summary["warning"]:
        logger.warning(summary["warning"])
        return Completed(message=summary["warning"], data=summary)
    return summary


def configured_ingest(settings: Settings):
    """The ingest flow with the task runner the settings ask for: threads in this process
    (default), or Dask (a local cluster, or the scheduler at DIGEST_DASK_ADDRESS) for the
    parse tasks. The load always stays in this process: one writer."""
    if settings.task_runner != "dask":
        return ingest
    from prefect_dask import DaskTaskRunner

    if settings.dask_address:
        answering_scheduler(settings.dask_address)
        return ingest.with_options(task_runner=DaskTaskRunner(address=settings.dask_address))
    return ingest.with_options(task_runner=DaskTaskRunner(
        cluster_kwargs={"n_workers": 2, "threads_per_worker": 1, "processes": True, "dashboard_address": None}))


class DaskUnreachable(RuntimeError):
    """DIGEST_DASK_ADDRESS names no Dask scheduler with a worker."""


def answering_scheduler(address: str) -> None:
    """A scheduler answers at `address` and has a worker, within Dask's own connect timeout
    (`distributed.comm.timeouts.connect`), each. Dask's client waited forever on a port that
    accepted and never spoke (an HTTP server), and on a scheduler without workers; a port that
    spoke something else ended in "Unable to allocate 3.07 EiB". The look runs on a thread of
    its own, so a client that never returns is given up on, not waited for."""
    import threading

    import dask
    from dask.utils import parse_timedelta
    from distributed import Client

    wait_s = parse_timedelta(dask.config.get("distributed.comm.timeouts.connect"), "s")
    outcome: dict[str, object] = {}

    def look() -> None:
        try:
            with Client(address, timeout=wait_s) as client:
                client.wait_for_workers(1, timeout=wait_s)
            outcome["ok"] = True
        except BaseException as err:  # noqa: BLE001 - reported below, in one line
            outcome["error"] = err

    looking = threading.Thread(target=look, name="dask-look", daemon=True)
    looking.start()
    looking.join(2 * wait_s + 5)
    if "ok" not in outcome:
        err = outcome.get("error")
        why = f"no answer in {2 * wait_s + 5:.0f} s"
        if err is not None:
            why = f"{type(err).__name__}: {(str(err).splitlines() or [''])[0]}"
        raise DaskUnreachable(f"DIGEST_DASK_ADDRESS={address}: no Dask scheduler with a worker answered there ({why})")


# This run's artifacts failed once: the rest are skipped. (A plain flag, not an Event: the Dask
# runner pickles this module's tasks, and a lock is no pickle.)
_artifacts_failed = False


def _best_effort(what: str, call: Callable, *args, **kwargs):
    """Artifacts are for the Prefect UI: a server that stopped answering must not fail a load
    (after the commit, "ingest failed" and exit 1 were said of a published run). Warns once per
    run, and later calls are skipped: each one waited out the client's retries (~1 min)."""
    global _artifacts_failed
    if _artifacts_failed:
        return None
    try:
        return call(*args, **kwargs)
    except Exception as err:  # noqa: BLE001 - httpx, Prefect's client errors: the UI misses it, the data does not
        _artifacts_failed = True
        get_run_logger().warning("%s not recorded in Prefect (%s: %s); the load goes on without them",
                                 what, type(err).__name__, err)
        return None


def _publish_artifacts(files: pl.DataFrame, markdown: str) -> None:
    from flows import report as rpt

    create_table_artifact(key="ingest-files", table=rpt.artifact_rows(files),
                          description="Files of this run: status, listings, quarantined spans")
    create_markdown_artifact(key="ingest-summary", markdown=markdown, description="Ingest run summary")


def _load_and_publish(warehouse: Path, batches: list[list[extract.FoundFile]], batch_bytes: int, run_id: str,
                      started_at: dt.datetime, n_unchanged: int, settings: Settings):
    """Load into a private copy, then publish it; a failed run publishes only its run row.
    A SIGTERM (or Ctrl-C) publishes nothing and leaves no staging file behind."""
    from flows import load, resolve, sql  # numpy, rapidfuzz: only for a run that loads something
    from flows import report as rpt

    n_seen = sum(len(b) for b in batches) + n_unchanged
    budget = run_memory_limit(settings, sum(f.text_bytes for batch in batches for f in batch))
    staging = publish.staging_path(warehouse)
    con, copy = None, None
    with shutdown.on_terminate(lambda: con and con.interrupt(), lambda: publish.discard(staging)):
        try:
            timings: dict[str, float] = {}

            def open_loader() -> load.RunLoader:  # when the first parsed batch is ready
                nonlocal con
                waited = time.perf_counter()
                con = load.connect(copy.wait())
                timings.update(copy=copy.seconds, copy_wait=time.perf_counter() - waited)
                loader = load.RunLoader(con, run_id, memory_limit=budget,
                                        resolver=partial(resolve.resolve_entities, threshold=settings.match_threshold),
                                        persons=load.PersonSettings(split_threshold=settings.person_split_threshold))
                loader.begin()
                return loader

            # The published warehouse is copied while the first batches are parsed (a daily run
            # onto a 3.7 GB warehouse copied it first, alone); they are staged once it is whole.
            with publish.StagingCopy(warehouse) as copy:
                try:
                    loader = _stage_batches(open_loader, batches, parse_slots(settings.max_batches_in_flight, batch_bytes),
                                            read_limits(settings), timings, batch_bytes)
                except Exception:  # before any batch was staged: the failed run is recorded in the whole copy
                    con = con or load.connect(copy.wait())
                    raise
            timed = time.perf_counter()
            stats = dedupe(loader, started_at)
            timings["merge_and_resolve"] = time.perf_counter() - timed
            timings.update({f"merge.{step}": seconds for step, seconds in loader.step_seconds.items()})
            timed = time.perf_counter()
            validate(loader)
            timings["checks"] = time.perf_counter() - timed
            stats = replace(stats, n_files_skipped=stats.n_files_skipped + n_unchanged)
            warning = rpt.run_warning(con, stats)
            files = rpt.files_table(con, run_id)
            markdown = rpt.summary_markdown(stats, rpt.top_categories(con, run_id), warning)
            load.record_run(con, run_id, started_at, "completed", n_seen, stats, warning, markdown,
                            checked=loader.checked)
            timed = time.perf_counter()
            commit(loader)
            timings["commit"] = time.perf_counter() - timed
            timed = time.perf_counter()
            _close_and_publish(con, staging, warehouse, copy)
            timings.update(publish=time.perf_counter() - timed, copy_sync=copy.sync_seconds)
        except Exception as err:
            if shutdown.requested():  # interrupted by SIGTERM: not a failure to record
                _abandon(con, staging)
                raise
            message = _failure_message(sql.first_error(err), warehouse, batches, budget)
            try:
                _record_failure(con, staging, warehouse, copy, run_id, started_at, n_seen, message)
            except BaseException:  # a SIGTERM while the failure is recorded: nothing left behind
                _abandon(con, staging)
                raise
            if message != str(err):
                raise RunFailed(message) from err
            raise
        except BaseException:  # SIGTERM, Ctrl-C: nothing published, nothing left behind
            _abandon(con, staging)
            raise
    return stats, timings, (files, markdown), warning


class RunFailed(RuntimeError):
    """A run failed for a reason outside the data (disk full): the message says what to do."""


def _failure_message(err: Exception, warehouse: Path, batches: list[list[extract.FoundFile]], budget: str) -> str:
    """The error, or for a full disk what failed and roughly how much space the run needs; for
    a memory budget too small, the setting to raise and a size to try."""
    if not publish.is_disk_full(err):
        return _out_of_memory_message(err, budget) if isinstance(err, duckdb.OutOfMemoryException) else str(err)
    published = warehouse.stat().st_size if warehouse.exists() else 0
    input_bytes = sum(f.text_bytes for batch in batches for f in batch)
    ours = _allocated(publish.staging_path(warehouse))  # the copy and its spill files: freed when removed
    # the copy, plus about twice the input as tables and WAL; a large run's spill files outgrow that
    # (10M-listing first loads had written 43 and 50 GB for 15.5 GB of input when the disk filled)
    needed = max(published + 2 * input_bytes, ours)
    free = shutil.disk_usage(warehouse.parent).free + ours
    reason = str(err).splitlines()[0][:160] if str(err) else type(err).__name__
    if "max_temp_directory_size" in str(err):
        reason += "; the spill files reached DuckDB's max_temp_directory_size, 90 % of the disk's free space"
    return (f"No space left on device while writing the warehouse copy and DuckDB's spill files in {warehouse.parent}"
            f" ({reason}): this run needs "
            f"about {_mb(needed)} free or more (the {_mb(published)} warehouse plus {_mb(input_bytes)} of input; "
            f"the copy and DuckDB's spill files had reached {_mb(ours)} when the disk filled), "
            f"{_mb(free)} is free; nothing was published")


def _allocated(staging: Path) -> int:
    """Disk space the copy, its WAL and its spill folder hold (allocated blocks: spill files may be sparse)."""
    copy, wal, spill = publish.leftovers(staging)
    files = [copy, wal, *(spill.iterdir() if spill.is_dir() else [])]
    total = 0
    for path in files:
        with contextlib.suppress(OSError):
            total += path.stat().st_blocks * 512
    return total


def _out_of_memory_message(err: Exception, limit: str) -> str:
    total = physical_memory()
    return (f"the warehouse needed more memory than its budget DIGEST_DUCKDB_MEMORY_LIMIT={limit} allows "
            f"(this machine has {total >> 20} MiB): run again with DIGEST_DUCKDB_MEMORY_LIMIT set to about twice "
            f"that, e.g. {_double(limit)}; nothing was published ({str(err).splitlines()[0][:200]}"
            f"{''.join('; ' + note for note in getattr(err, '__notes__', []))})")


def _double(limit: str) -> str:
    """Twice a DuckDB size such as '600MB' or '3072MiB' (the text itself when it does not parse)."""
    digits = "".join(ch for ch in limit if ch.isdigit() or ch == ".")
    unit = limit[len(digits):].strip() or "MiB"
    try:
        return f"{float(digits) * 2:g}{unit}"
    except ValueError:
        return limit


def _mb(n: int) -> str:
    return f"{n / 1e6:.1f} MB"


def _record_failure(con, staging: Path, warehouse: Path, copy: publish.StagingCopy | None, run_id: str,
                    started_at: dt.datetime, n_seen: int, message: str) -> None:
    """Publish the failed run's row when the copy can still take it; else leave the published
    warehouse as it was and remove the copy."""
    from flows import load

    try:
        if con is None:
            raise RuntimeError("no staging connection")
        with contextlib.suppress(duckdb.Error):  # a failed COMMIT has already rolled back
            con.execute("ROLLBACK")
        load.ensure_schema(con)  # the run may have failed before it made the schema
        load.record_run(con, run_id, started_at, "failed", n_seen, None, message)
        _close_and_publish(con, staging, warehouse, copy)
    except Exception:  # noqa: BLE001 - the disk may still be full: the original error is what counts
        _abandon(con, staging)


def _abandon(con, staging: Path) -> None:
    if con is not None:
        with contextlib.suppress(Exception):
            con.close()
    publish.discard(staging)


def _close_and_publish(con, staging: Path, warehouse: Path, copy: publish.StagingCopy | None) -> None:
    if copy is not None:  # its flush to disk, begun when it was whole: an error there is the run's
        copy.synced()
    con.execute("CHECKPOINT")
    con.close()
    publish.publish(staging, warehouse)


def _stage_batches(open_loader: Callable[[], load.RunLoader], batches: list[list[extract.FoundFile]], in_flight: int,
                   limits: extract.ReadLimits, timings: dict[str, float], batch_bytes: int) -> load.RunLoader:
    """Submit parse tasks, staging each result in order as it completes; at most `in_flight`
    batch sizes are parsed or held in memory at once (`batch_slots`: a file of five batch sizes
    counts as five, and is parsed alone when it outweighs them all). The loader is opened when the
    first batch is ready to stage (`open_loader`: the copy of the warehouse may still be under
    way). Adds each stage's seconds to `timings`."""
    pending: deque = deque()  # (parse task, its batch's slots, its files), oldest first
    n_files = sum(len(b) for b in batches)
    done = 0
    loader = None

    def stage_oldest() -> None:
        nonlocal done, loader
        task, _slots, batch = pending.popleft()
        result = task.result()
        refuse_unseen_by_worker(result, batch)
        loader = loader or open_loader()
        begun = time.perf_counter()
        loader.stage(result)
        done += len(batch)  # files found, as n_files counts them: an archive's members are one file
        # Prefect holds every task's return value until the flow ends: empty it, or memory grows
        # with the corpus, not with the batch size (tests/test_memory.py).
        result.release()
        for key, value in {**result.timings, "stage": time.perf_counter() - begun}.items():
            timings[key] = timings.get(key, 0.0) + value
        progress.report("parse", done, n_files)
        if artifact_id is not None:
            _best_effort("the progress bar", update_progress_artifact, artifact_id, progress=100.0 * done / max(n_files, 1))

    artifact_id = _best_effort("the progress bar", create_progress_artifact, progress=0.0, key="ingest-progress",
                               description="Files parsed (%)")
    progress.report("parse", 0, n_files)
    for batch in batches:
        slots = batch_slots(batch, batch_bytes)
        while pending and sum(held for _, held, _ in pending) + slots > in_flight:
            stage_oldest()
        pending.append((parse_batch.submit(extract.FileBatch(batch), limits), slots, batch))
    while pending:
        stage_oldest()
    return loader or open_loader()


def batch_slots(batch: list[extract.FoundFile], batch_bytes: int) -> int:
    """How many batch sizes a batch holds (at least one): parsing holds memory in proportion to
    its text (`flows.settings.PARSE_BYTES_PER_INPUT_BYTE`; packed files at their size unpacked,
    `extract.sized`), and a planned batch of small files ends just past `batch_bytes`, so it
    counts as one. Bug: counted as one whatever its size, four 116 MB files were parsed at once
    and a 1M-listing load of such files peaked at 6.0 GB."""
    return max(1, sum(f.text_bytes for f in batch) // batch_bytes)
