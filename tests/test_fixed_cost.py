"""Issue 15, fixed cost: a `digest ingest` that finds nothing new loads no frame library and no
loader, does not wait for Prefect's heartbeat thread, and still records and prints what it did.

The timing itself is measured by `python -m bench.noop` (bench/README.md), not here.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

# What a run with nothing new never needs: the frame libraries, the loader and its report,
# the parsers, the resolver, and FastAPI (which Prefect imports to encode flow parameters).
HEAVY = ("polars", "numpy", "pyarrow", "pandas", "pandera", "rapidfuzz", "fastapi", "flows.load",
         "flows.report", "transforms.pipeline")
PROBE = ("import atexit, json, sys\n"
         f"atexit.register(lambda: print('LOADED ' + json.dumps([m for m in {HEAVY!r} if m in sys.modules]), file=sys.stderr))\n"
         "from flows.cli import app\n"
         "sys.exit(app())\n")


@pytest.fixture()
def loaded_copy(seeds_warehouse, tmp_path) -> Path:
    """A copy of the seeds' warehouse: its files are all loaded already."""
    copy = tmp_path / "w.duckdb"
    shutil.copyfile(seeds_warehouse[0], copy)
    return copy


def test_a_run_with_nothing_new_loads_no_frame_library_and_prints_only_its_summary(
        loaded_copy, seeds_dir, seeds_warehouse, tmp_path):
    from prefect.settings import get_current_settings

    from bench.run import child_env

    env = {**child_env(), "PREFECT_API_URL": get_current_settings().api.url}  # the session's server
    env.pop("PREFECT_LOGGING_LEVEL", None)  # the CLI's own default
    done = subprocess.run([sys.executable, "-c", PROBE, "ingest", str(seeds_dir), "--warehouse", str(loaded_copy),
                           "--json"], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    summary = json.loads(done.stdout)
    assert summary["n_files_new"] == 0 and summary["n_files_skipped"] == seeds_warehouse[1]["files_seen"]
    assert (summary["n_papers"], summary["n_authors"]) == (seeds_warehouse[1]["n_papers"], seeds_warehouse[1]["n_authors"])
    loaded, *other = [ln for ln in done.stderr.splitlines() if ln.strip()][::-1]
    assert json.loads(loaded.removeprefix("LOADED ")) == []
    # Prefect's events worker, draining at exit, says nothing (tests the filter of flows.fixed_cost).
    assert other == [], done.stderr


def test_a_run_with_nothing_new_keeps_the_summary_of_a_run_that_loads(loaded_copy, seeds_dir, seeds_warehouse,
                                                                      run_ingest):
    from flows.run_stats import RunStats

    loaded = seeds_warehouse[1]
    again = run_ingest([seeds_dir], loaded_copy)
    assert list(again) == list(loaded)  # same keys, same order (`digest ingest --json`)
    counts = [f.name for f in dataclasses.fields(RunStats)]
    assert list(again)[3:3 + len(counts)] == counts
    assert {k: again[k] for k in counts} == {**{k: 0 for k in counts}, "n_files_skipped": loaded["files_seen"],
                                             "n_papers": loaded["n_papers"], "n_authors": loaded["n_authors"]}
    assert again["warning"] is None and again["stage_seconds"] == {}


def test_lean_flow_encodes_parameters_as_prefect_does():
    from prefect.flows import Flow

    from flows.fixed_cost import LeanFlow

    def fn(paths, warehouse, batch_bytes=None, options=None, tags=None, other=None):
        return None

    parameters = {"paths": [Path("/a/b"), Path("c")], "warehouse": Path("w.duckdb"), "batch_bytes": None,
                  "options": {"n": 3, "x": 0.5, "ok": True, "p": [Path("d"), ("e", 1)]}, "tags": {"b", "a"},
                  "other": object()}
    ours = LeanFlow(fn=fn, name="lean").serialize_parameters(parameters)
    prefects = Flow(fn=fn, name="plain").serialize_parameters(parameters)
    assert ours == prefects
    assert list(ours) == list(prefects)


def test_a_flow_end_does_not_wait_for_the_heartbeat_thread():
    """Prefect's heartbeat thread sleeps in one-second steps: joining it cost up to 1 s a run."""
    from prefect import flow_engine

    from flows import fixed_cost

    fixed_cost.install()
    beats = []

    class Engine:  # what _send_heartbeats reads of a flow run engine
        heartbeat_seconds = 30
        flow_run = None
        logger = logging.getLogger("test-heartbeat")

        def _build_heartbeat_event_template(self):
            return None, None

        def _emit_flow_run_heartbeat(self, resource, related):
            beats.append(time.monotonic())

    started = time.monotonic()
    with flow_engine._send_heartbeats(Engine()):
        time.sleep(0.2)  # the first heartbeat is sent, the thread sleeps
    assert time.monotonic() - started < 0.6  # joined: ~1 s (the rest of the thread's one-second sleep)
    assert len(beats) == 1  # one heartbeat when the run starts, as before
