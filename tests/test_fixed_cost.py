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
         f"atexit.register(lambda: print('LOADED ' + json.dumps([m for m in {HEAVY + ('prefect',)!r} if m in sys.modules]), file=sys.stderr))\n"
         "from flows.cli import app\n"
         "sys.exit(app())\n")


@pytest.fixture()
def loaded_copy(seeds_warehouse, tmp_path) -> Path:
    """A copy of the seeds' warehouse: its files are all loaded already."""
    copy = tmp_path / "w.duckdb"
    shutil.copyfile(seeds_warehouse[0], copy)
    return copy


def run_cli_ingest(paths: list[Path], warehouse: Path, cwd: Path, extra_env: dict | None = None
                   ) -> tuple[dict, list[str], list[str]]:
    """`digest ingest --json` in a child process with the session's Prefect server: (summary,
    modules of HEAVY and Prefect it loaded, its other stderr lines)."""
    from prefect.settings import get_current_settings

    from bench.run import child_env

    env = {**child_env(), "PREFECT_API_URL": get_current_settings().api.url, **(extra_env or {})}
    env.pop("PREFECT_LOGGING_LEVEL", None)  # the CLI's own default
    done = subprocess.run([sys.executable, "-c", PROBE, "ingest", *map(str, paths), "--warehouse", str(warehouse),
                           "--json"], env=env, cwd=cwd, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    loaded, *other = [ln for ln in done.stderr.splitlines() if ln.strip()][::-1]
    return json.loads(done.stdout), json.loads(loaded.removeprefix("LOADED ")), other


@pytest.mark.parametrize("flow_run", [False, True], ids=["ends-before-prefect", "flow-run-asked-for"])
def test_a_run_with_nothing_new_loads_no_frame_library_and_prints_only_its_summary(
        loaded_copy, seeds_dir, seeds_warehouse, tmp_path, flow_run):
    extra = {"DIGEST_FLOW_RUN_WHEN_NOTHING_NEW": "true"} if flow_run else {}
    summary, loaded, other = run_cli_ingest([seeds_dir], loaded_copy, tmp_path, extra)
    assert summary["n_files_new"] == 0 and summary["n_files_skipped"] == seeds_warehouse[1]["files_seen"]
    assert (summary["n_papers"], summary["n_authors"]) == (seeds_warehouse[1]["n_papers"], seeds_warehouse[1]["n_authors"])
    assert summary["flow_run"] is flow_run
    # Without a flow run, not even Prefect is imported (its import alone is ~1.3 s).
    assert loaded == (["prefect"] if flow_run else [])
    # Prefect's events worker, draining at exit, says nothing (tests the filter of flows.fixed_cost).
    assert other == [], other


def test_a_run_with_nothing_new_ends_before_prefect_and_says_so(loaded_copy, seeds_dir, tmp_path):
    """The published file is left as it was, and a run with one changed file still runs the flow."""
    before = loaded_copy.read_bytes()
    summary, _, _ = run_cli_ingest([seeds_dir], loaded_copy, tmp_path)
    assert summary["flow_run"] is False and loaded_copy.read_bytes() == before
    extra = tmp_path / "more" / "samples"
    shutil.copytree(seeds_dir, extra)
    first = sorted(extra.iterdir())[0]
    first.write_text(first.read_text(encoding="utf-8") + "\n", encoding="utf-8")  # changed: read again
    summary, _, _ = run_cli_ingest([extra], loaded_copy, tmp_path, {"DIGEST_INGEST_ROOT": str(extra.parent)})
    assert summary["flow_run"] is True and summary["n_files_new"] >= 1


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


def test_a_run_with_nothing_new_leaves_no_temporary_server_behind(loaded_copy, seeds_dir, tmp_path):
    """No PREFECT_API_URL: `digest ingest` starts Prefect's temporary server before it knows
    there is nothing new; the run ends without importing Prefect, and the server with it."""
    import uuid

    import psutil

    from bench.run import child_env

    marker = str(uuid.uuid4())
    env = {**child_env(), "PREFECT_HOME": str(tmp_path / "prefect-home"), "DIGEST_TEST_MARKER": marker}
    for name in ("PREFECT_API_URL", "PREFECT_PROFILES_PATH", "PREFECT_LOGGING_LEVEL"):
        env.pop(name, None)
    done = subprocess.run([sys.executable, "-c", PROBE, "ingest", str(seeds_dir), "--warehouse", str(loaded_copy),
                           "--json"], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout)["flow_run"] is False
    assert [ln for ln in done.stderr.splitlines() if ln.startswith("LOADED ")] == ["LOADED []"]

    def ours(p: psutil.Process) -> bool:
        try:
            return p.environ().get("DIGEST_TEST_MARKER") == marker
        except (psutil.Error, OSError):
            return False

    left = [p.cmdline() for p in psutil.process_iter() if ours(p)]
    assert left == [], left


def test_prefect_does_not_walk_the_files_of_a_parse_task(run_ingest, seeds_dir, tmp_path, monkeypatch):
    """Prefect walks a task's arguments item by item (to find upstream futures, then to resolve
    them): ~0.1 ms for each file of a batch, twice. A batch of 10,000 small files spent longer
    there than in its parse (a corpus of one listing per file, README Session 25). The batch is
    passed as one opaque value (`extract.FileBatch`), so its files are never visited."""
    import prefect.utilities.collections as collections

    from flows import extract

    visited: list[extract.FoundFile] = []
    fields = collections.fields

    def counting_fields(obj):
        if isinstance(obj, extract.FoundFile):
            visited.append(obj)
        return fields(obj)

    monkeypatch.setattr(collections, "fields", counting_fields)
    summary = run_ingest([seeds_dir], tmp_path / "w.duckdb")
    assert summary["n_files_new"] > 0 and not visited
