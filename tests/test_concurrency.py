"""Concurrency: one writer at a time, and readers that never see a lock error or half a run.

Real `digest ingest` processes (forked from one pre-imported process, on one Prefect server:
tests/support/processes.py) run on a warehouse that already holds a published state (`base`,
part_a of a rendered corpus); the run adds part_b, ending in the reference state `ref`.

* A second ingest on the same warehouse, started while the first holds the writer lock,
  refuses at once with a clear message (or, with DIGEST_LOCK_TIMEOUT_S, waits for the first
  to end); the warehouse ends exactly as one clean run leaves it.
* A reader process polls the published warehouse in a loop during an ingest, opening it
  read-only for every query, and only ever sees the state before or the state after.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import duckdb
import pytest

from support.processes import building, run_to_end, split_warehouses, start_ingest

N_LISTINGS = int(os.environ.get("DIGEST_CRASH_LISTINGS", "6000"))
SEED = int(os.environ.get("DIGEST_CRASH_SEED", "3"))

READER = r"""
import json, sys, time
from pathlib import Path
import duckdb
warehouse, out, stop = sys.argv[1:4]
SQL = ("SELECT (SELECT count(*) FROM fact_listing), (SELECT count(*) FROM dim_paper), "
       "(SELECT count(*) FROM ingest_run), "
       "(SELECT run_id FROM ingest_run ORDER BY started_at DESC, run_id DESC LIMIT 1)")
with open(out, "w") as log:
    while not Path(stop).exists():
        row = {"t": time.monotonic()}
        try:
            con = duckdb.connect(warehouse, read_only=True)
            try:
                row["state"] = list(con.execute(SQL).fetchall()[0])
            finally:
                con.close()
        except Exception as err:
            row["error"] = f"{type(err).__name__}: {err}"
        log.write(json.dumps(row) + "\n")
        log.flush()
"""


def reader_state(warehouse: Path) -> list:
    with duckdb.connect(str(warehouse), read_only=True) as con:
        return list(con.execute(
            "SELECT (SELECT count(*) FROM fact_listing), (SELECT count(*) FROM dim_paper), "
            "(SELECT count(*) FROM ingest_run), "
            "(SELECT run_id FROM ingest_run ORDER BY started_at DESC, run_id DESC LIMIT 1)").fetchall()[0])


def content(warehouse: Path) -> dict:
    from flows.integrity import content_checksums

    return content_checksums(warehouse)


def wait_for_lock(warehouse: Path, pid: int, child, timeout: float = 120) -> None:
    """Until the writer lock file names `pid` (written once the lock is held)."""
    lock = warehouse.with_name(warehouse.name + ".lock")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if lock.exists() and f"pid {pid} " in lock.read_text():
            return
        assert child.running(), f"the first ingest ended before it was seen holding the lock: {child.stderr()[-2000:]}"
        time.sleep(0.01)
    raise TimeoutError("the first ingest never held the writer lock")


@pytest.fixture(scope="module")
def split():
    return split_warehouses(N_LISTINGS, SEED)


def test_second_ingest_refuses_with_a_clear_message_and_never_corrupts(split, tmp_path):
    """The writer lock is held (as a running ingest holds it) for as long as the second ingest
    takes to start and give up: racing two real ingests would let a fast first one finish
    before the second even asks."""
    from flows.publish import writer_lock

    target = tmp_path / "w.duckdb"
    shutil.copyfile(split.base, target)
    before = content(target)
    with writer_lock(target):
        second = start_ingest(target, split.corpus, "part_a", "part_b")
        code = second.wait(timeout=120)
    assert code != 0, f"the second ingest ran while the warehouse was held: {second.stdout()}"
    message = second.stderr() + second.stdout()
    assert "another ingest" in message, message[-2000:]
    assert content(target) == before, "a refused ingest must not change the warehouse"
    assert reader_state(target)[2] == 1, "a refused ingest must leave no run row"
    assert not building(target).exists()


def test_second_ingest_with_a_lock_timeout_waits_for_the_first(split, tmp_path):
    target = tmp_path / "w.duckdb"
    shutil.copyfile(split.base, target)
    first = start_ingest(target, split.corpus, "part_a", "part_b")
    wait_for_lock(target, first.pid, first)
    second = start_ingest(target, split.corpus, "part_a", "part_b", env={"DIGEST_LOCK_TIMEOUT_S": "300"})
    run_to_end(first, target)
    assert second.wait(timeout=300) == 0, second.stderr()[-2000:]
    # It waited: it ran after the first published (found nothing new). It may still exit
    # before the first process ends its own teardown, so exit times prove nothing.
    assert content(target) == content(split.ref)
    assert reader_state(target)[2] == 2, "the waiting ingest found nothing new: no second run row"


def test_reader_polling_during_an_ingest_sees_only_whole_published_states(split, tmp_path):
    target = tmp_path / "w.duckdb"
    shutil.copyfile(split.base, target)
    before = reader_state(target)
    out, stop = tmp_path / "reads.jsonl", tmp_path / "stop"
    reader = subprocess.Popen([sys.executable, "-c", READER, str(target), str(out), str(stop)],
                              start_new_session=True, stderr=subprocess.PIPE)

    def n_reads() -> int:
        return len(out.read_text().splitlines()) if out.exists() else 0

    try:
        deadline = time.monotonic() + 60
        while n_reads() < 5 and time.monotonic() < deadline:
            time.sleep(0.05)
        writer = start_ingest(target, split.corpus, "part_a", "part_b")
        started = time.monotonic()
        run_to_end(writer, target)
        ended = time.monotonic()
        settled = n_reads() + 5
        while n_reads() < settled and time.monotonic() < deadline + 120:
            time.sleep(0.05)
    finally:
        stop.touch()
        reader.wait(timeout=60)
    after = reader_state(target)
    assert after != before and after[2] == before[2] + 1

    reads = [json.loads(line) for line in out.read_text().splitlines()]
    errors = [r for r in reads if "error" in r]
    assert not errors, f"{len(errors)} of {len(reads)} reads failed, e.g. {errors[:3]}"
    seen = [("before" if r["state"] == before else "after" if r["state"] == after else r["state"]) for r in reads]
    partial = [s for s in seen if s not in ("before", "after")]
    assert not partial, f"a reader saw a state that is neither before nor after the run: {partial[:3]}"
    assert seen == sorted(seen, key=lambda s: s == "after"), "a reader saw the old state again after the new one"
    during = [r for r in reads if started <= r["t"] <= ended]
    print(f"\n{len(reads)} reads, {len(during)} while the ingest ran ({ended - started:.1f} s): "
          f"{seen.count('before')} before, {seen.count('after')} after")
    assert len(during) >= 20, f"only {len(during)} reads while the ingest ran: the reader did not really poll it"
    assert seen[0] == "before" and seen[-1] == "after"
