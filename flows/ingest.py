"""The `ingest` flow: discover → parse+clean batches → dedupe (merge) → validate → load.

Tasks are coarse (a batch of files each, sized by bytes) and thin: the work is in the pure
transforms and in the warehouse's set SQL. Parsed batches stream into staging tables as they
finish, at most `max_batches_in_flight` at a time, so memory follows the batch size.
"""

from __future__ import annotations

import datetime as dt
import time
import uuid
from collections import deque
from dataclasses import asdict
from pathlib import Path

from flows.settings import Settings, apply_prefect_defaults

apply_prefect_defaults()

from prefect import flow, get_run_logger, task  # noqa: E402
from prefect.cache_policies import NO_CACHE  # noqa: E402
from prefect.runtime import flow_run  # noqa: E402

from flows import extract, load, progress  # noqa: E402
from transforms.pipeline import BatchResult, process_batch  # noqa: E402


@task(name="discover", cache_policy=NO_CACHE)
def discover(paths: list[Path], warehouse: Path) -> tuple[list[extract.FoundFile], int]:
    """Files to read, and how many were skipped unread (same path, size and mtime as before)."""
    _, found = extract.discover(paths)
    skip = extract.unchanged(found, load.known_files(warehouse))
    return [f for f in found if f.path not in skip], len(skip)


@task(name="parse-clean", cache_policy=NO_CACHE, retries=2, retry_delay_seconds=1,
      retry_condition_fn=lambda task, run, state: _is_transient(state))
def parse_batch(batch: list[extract.FoundFile]) -> BatchResult:
    started = time.perf_counter()
    sources, meta = extract.read_sources(batch)
    read_s = time.perf_counter() - started
    result = process_batch(sources)
    result.files = result.files.join(meta.drop("path"), on="source_file_id", how="left")
    result.timings = {"read": read_s, **result.timings}
    return result


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
def dedupe(loader: load.RunLoader, ingested_at: dt.datetime) -> load.RunStats:
    return loader.merge(ingested_at)


@task(name="validate", cache_policy=NO_CACHE)
def validate(loader: load.RunLoader) -> None:
    loader.check()


@task(name="load", cache_policy=NO_CACHE)
def commit(loader: load.RunLoader) -> None:
    loader.commit()


@flow(name="ingest", log_prints=False)
def ingest(paths: list[Path], warehouse: Path, batch_bytes: int | None = None) -> dict:
    settings = Settings()
    logger = get_run_logger()
    started = time.perf_counter()
    started_at = dt.datetime.now(dt.timezone.utc)
    run_id = str(flow_run.id or uuid.uuid4())
    warehouse.parent.mkdir(parents=True, exist_ok=True)
    to_read, n_unchanged = discover(paths, warehouse)
    batches = extract.plan_batches(to_read, batch_bytes or settings.batch_bytes)
    logger.info("%d files to read in %d batches (%d unchanged)", len(to_read), len(batches), n_unchanged)

    con = load.connect(warehouse)
    con.execute(f"SET memory_limit = '{settings.duckdb_memory_limit}'")
    loader = load.RunLoader(con, run_id)
    try:
        loader.begin()
        timings = _stage_batches(loader, batches, settings.max_batches_in_flight)
        stats = dedupe(loader, started_at)
        validate(loader)
        commit(loader)
        load.record_run(con, run_id, started_at, "completed", len(to_read) + n_unchanged, stats)
    except Exception as err:
        loader.rollback()
        load.record_run(con, run_id, started_at, "failed", len(to_read) + n_unchanged, None, str(err))
        raise
    finally:
        con.close()
    summary = {
        "run_id": run_id,
        "warehouse": str(warehouse),
        "files_seen": len(to_read) + n_unchanged,
        **asdict(stats),
        "n_files_skipped": stats.n_files_skipped + n_unchanged,
        "seconds": round(time.perf_counter() - started, 3),
        "stage_seconds": {k: round(v, 3) for k, v in timings.items()},
    }
    logger.info("ingest summary: %s", summary)
    return summary


def _stage_batches(loader: load.RunLoader, batches: list[list[extract.FoundFile]], in_flight: int) -> dict:
    """Submit parse tasks, staging each result in order as it completes; at most `in_flight`
    parsed batches are held in memory at once."""
    timings: dict[str, float] = {}
    pending: deque = deque()
    n_files = sum(len(b) for b in batches)
    done = 0

    def stage_oldest() -> None:
        nonlocal done
        result = pending.popleft().result()
        begun = time.perf_counter()
        loader.stage(result)
        for key, value in {**result.timings, "stage": time.perf_counter() - begun}.items():
            timings[key] = timings.get(key, 0.0) + value
        done += result.files.height
        progress.report("parse", done, n_files)

    progress.report("parse", 0, n_files)
    for batch in batches:
        pending.append(parse_batch.submit(batch))
        if len(pending) >= in_flight:
            stage_oldest()
    while pending:
        stage_oldest()
    return timings
