"""Crash safety: SIGKILL a real `digest ingest` at random moments; the published warehouse is
always a whole published state, and a rerun ends exactly where a clean run does.

Setup (tests/support/processes.py: one Prefect server and one fork server for the pytest
process, so each `digest ingest` starts at once): a rendered corpus split into part_a and
part_b; `base` = part_a ingested cleanly into a fresh warehouse; `ref` = base, then
part_a + part_b ingested cleanly: the reference end state, whose run calibrates the kill times.
Each kill cycle then:

1. puts the base state in place (the previous published state; leftovers of earlier kills,
   such as a stale `.building` copy, stay where they are),
2. starts `digest ingest part_a part_b` and SIGKILLs its process group after a seeded random
   delay: half the kills at moments stratified over the whole run (calibrated by the latest
   reruns; the first of them before parse begins, in startup or discovery), half at a random
   moment within 0.15 s of a late stage showing in the run's log (merge, checks/commit,
   checkpoint/publish), whose windows are short; so kills land in every
   stage, early, mid-parse, during merge and publish, and after publishing,
3. checks the published warehouse: no WAL beside it, it opens read-only, passes the audit and
   holds either the previous or the new content, with the matching number of runs,
4. reruns to completion and checks content and run count equal the reference.

The first cycle kills a first-ever run (no warehouse yet; its reference is `base`). At the end
`digest verify` prints the same checksum for the last warehouse as for the clean reference.

DIGEST_CRASH_KILLS (default 10: `make test`; `make hunt` runs 20), DIGEST_CRASH_SEED and
DIGEST_CRASH_LISTINGS tune it. Ten kills still aim one at the early stages, hit every late
stage by trigger and spread the timed ones over five strata of the run; the spread is asserted
from ten kills up.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import time
from collections import Counter
from pathlib import Path

import duckdb
import polars as pl
import pytest

from support.processes import building, run_digest, run_to_end, split_warehouses, stage_of, start_ingest

KILLS = int(os.environ.get("DIGEST_CRASH_KILLS", "10"))
SEED = int(os.environ.get("DIGEST_CRASH_SEED", "3"))
N_LISTINGS = int(os.environ.get("DIGEST_CRASH_LISTINGS", "6000"))
KILL_SPAN = 1.15  # timed kills spread over [0, 1.15 × time to publish]: a few land after it too
ORDER = ["startup", "discover", "parse", "merge", "validate/commit", "checkpoint/publish"]
LATE_STAGES = ["merge", "validate/commit", "checkpoint/publish"]
STAGES_FROM = {s: set(ORDER[ORDER.index(s):]) for s in LATE_STAGES}  # that stage or a later one
LATE_STAGE_WINDOW = 0.15  # s after a late stage shows in the log


def checksums(warehouse: Path) -> dict[str, tuple[int, str]]:
    from flows.integrity import content_checksums

    return content_checksums(warehouse)


def state_of(warehouse: Path) -> dict:
    """What a reader of the published warehouse sees: run counts and content checksums."""
    if not warehouse.exists():
        return {"exists": False}
    with duckdb.connect(str(warehouse), read_only=True) as con:
        n_runs, n_completed = con.execute(
            "SELECT count(*), count(*) FILTER (WHERE status = 'completed') FROM ingest_run").fetchall()[0]
    return {"exists": True, "runs": n_runs, "completed": n_completed, "content": checksums(warehouse)}


def audit_problems(warehouse: Path) -> pl.DataFrame:
    from flows.integrity import audit_report

    return audit_report(warehouse).filter(pl.col("status") != "ok")


def verify_checksum(warehouse: Path, cwd: Path) -> str:
    out = run_digest(["verify", "--warehouse", str(warehouse)], cwd)
    assert out.returncode == 0, out.stderr
    return re.search(r"^checksum (\w+)$", out.stdout, re.M).group(1)


@pytest.fixture(scope="module")
def split():
    split = split_warehouses(N_LISTINGS, SEED)
    print(f"\ncalibration: base run {split.base_timeline}\nincremental run {split.ref_timeline}")
    return split


def test_reference_runs_are_clean(split):
    for warehouse in (split.base, split.ref):
        assert audit_problems(warehouse).height == 0
        assert not building(warehouse).exists()
        assert not warehouse.with_name(warehouse.name + ".wal").exists()
    assert state_of(split.base)["runs"] == 1 and state_of(split.ref)["runs"] == 2
    assert checksums(split.base) != checksums(split.ref), "part_b must add content, or the kills prove nothing"


@pytest.mark.skipif(KILLS < 1, reason="DIGEST_CRASH_KILLS=0")
def test_sigkill_at_random_moments_then_rerun_matches_a_clean_run(split, tmp_path):
    rng = random.Random(SEED)
    target = tmp_path / "crashed.duckdb"
    base_state, ref_state = state_of(split.base), state_of(split.ref)
    log, hit = [], Counter()
    # Kill delays follow the machine: scaled by the time to publish of the latest full reruns.
    recent = [split.ref_timeline.published_at]
    recent_parse = [split.ref_timeline.stages.get("parse", split.ref_timeline.published_at)]  # parse began at
    for i in range(KILLS):
        first_ever = i == 0  # a killed first run: no published warehouse before it
        parts = ("part_a",) if first_ever else ("part_a", "part_b")
        to_publish = split.base_timeline.published_at if first_ever else sorted(recent[-5:])[len(recent[-5:]) // 2]
        before, after = ({"exists": False}, base_state) if first_ever else (base_state, ref_state)
        if not first_ever:
            shutil.copyfile(split.base, target)
        # Most kills at a random moment of the whole run; every other one at a random moment
        # shortly after a late stage begins, so the short merge/commit/publish windows are hit.
        trigger = None if first_ever or i % 2 else LATE_STAGES[(i // 2) % len(LATE_STAGES)]
        delay = (rng.uniform(0, LATE_STAGE_WINDOW) if trigger else
                 to_publish * KILL_SPAN * (i // 2 + rng.random()) / max(1, (KILLS + 1) // 2))
        if i == 1:  # the first timed rerun kill aims at startup/discover, before parse began lately
            delay = rng.uniform(0.1, 0.9) * sorted(recent_parse[-5:])[len(recent_parse[-5:]) // 2]

        child = start_ingest(target, split.corpus, *parts)
        if trigger:
            while stage_of(child.stderr(), True) not in STAGES_FROM[trigger] and child.running():
                time.sleep(0.002)
            started = child.elapsed()
            while child.elapsed() < started + delay and child.running():
                time.sleep(0.002)
            delay = child.elapsed()
        else:
            while child.elapsed() < delay and child.running():
                time.sleep(0.005)
        stage = stage_of(child.stderr(), building(target).exists())
        ended_first = not child.running()
        child.sigkill()

        # The published warehouse is a whole published state: the previous one or the new one.
        assert not target.with_name(target.name + ".wal").exists(), f"kill {i}: a WAL beside the published file"
        state = state_of(target)
        which = "before" if state == before else "after" if state == after else None
        if which is None:
            pytest.fail(f"kill {i} at {delay:.2f} s ({stage}): the published warehouse is neither the previous "
                        f"nor the new state: {state}")
        if state["exists"]:
            problems = audit_problems(target)
            assert problems.height == 0, f"kill {i} ({stage}): the audit fails on the published warehouse: {problems}"
        if which == "after" and stage == "checkpoint/publish":
            stage = "after publish"
        hit[stage] += 1
        log.append((i, round(delay, 2), stage, which, ended_first))

        # A rerun completes to exactly the clean content.
        rerun = run_to_end(start_ingest(target, split.corpus, *parts), target)
        if which == "before" and not first_ever:
            recent.append(rerun.published_at)
            recent_parse.append(rerun.stages.get("parse", rerun.published_at))
        final = state_of(target)
        assert final["content"] == after["content"], f"kill {i} ({stage}): the rerun's content differs from a clean run"
        assert final == after, f"kill {i} ({stage}): runs after the rerun {final} vs a clean run {after}"
        assert audit_problems(target).height == 0
        assert not building(target).exists(), f"kill {i} ({stage}): the staged copy outlived a completed run"

    print("\nkills (cycle, delay s, stage, published state after the kill, run had already ended):")
    for row in log:
        print("  ", row)
    print("stages hit:", dict(hit))
    if KILLS >= 10:
        early, late = hit["startup"] + hit["discover"], sum(hit[s] for s in LATE_STAGES)
        spread = early and hit["parse"] and late >= 3 and len(hit) >= 5
        assert spread, f"kills did not spread over the stages: {dict(hit)}"
        assert sum(ended for *_, ended in log) <= KILLS // 3, "over a third of the kills came after the run had ended"

    # The last warehouse (a rerun after a kill) and the clean run: the same `digest verify`.
    assert verify_checksum(target, tmp_path) == verify_checksum(split.ref, tmp_path)


def test_incremental_runs_match_one_clean_run_into_a_fresh_warehouse(split, tmp_path):
    """The kill cycles compare with base-then-increment, the state a rerun must reach; a fresh
    warehouse fed everything in one run must hold the same content (GUIDE: re-runs and
    incremental runs agree with a fresh load)."""
    fresh = tmp_path / "fresh.duckdb"
    run_to_end(start_ingest(fresh, split.corpus, "part_a", "part_b"), fresh)
    outputs = [run_digest(["verify", "--warehouse", str(w), "--json"], tmp_path) for w in (fresh, split.ref)]
    fresh_sums, ref_sums = (json.loads(o.stdout) for o in outputs)
    differing = {t: (fresh_sums["tables"][t], ref_sums["tables"].get(t)) for t in fresh_sums["tables"]
                 if fresh_sums["tables"][t] != ref_sums["tables"].get(t)}
    assert fresh_sums["checksum"] == ref_sums["checksum"], f"tables differing (fresh, incremental): {differing}"
