"""Real `digest` processes for the crash and concurrency tests.

* `prefect_server()`: one `prefect server start` for the whole pytest process (a temporary
  server per subprocess would cost ~10 s each), stopped at exit.
* `digest_forkserver()`: runs `digest` commands in forked children of one process that has
  imported the CLI once (tests/support/forkserver.py), so a command starts at once instead of
  paying the 5-10 s import, and a SIGKILL lands in the run, not in the imports.
* `render_split_corpus()`: a bench.corpus rendering split into part_a (the warehouse's previous
  state) and part_b (what the run under test adds), cached per pytest process.

Every process here is started in its own session and ended by its own process-group id.
"""

from __future__ import annotations

import atexit
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from support.forkserver import ForkServer

REPO = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
DIGEST = VENV_BIN / "digest"


# ---------------------------------------------------------------------------- prefect server
@dataclass
class PrefectServer:
    api_url: str
    home: Path
    process: subprocess.Popen


_SERVER: PrefectServer | None = None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def prefect_server(timeout_s: float = 180) -> PrefectServer:
    """Start (once) a Prefect server on a free port, with its own PREFECT_HOME."""
    global _SERVER
    if _SERVER is not None and _SERVER.process.poll() is None:
        return _SERVER
    home = Path(tempfile.mkdtemp(prefix="digest_prefect_home_"))
    port = _free_port()
    env = {**os.environ, "PREFECT_HOME": str(home), "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
           "DO_NOT_TRACK": "1", "PREFECT_API_URL": "", "PREFECT_UI_ENABLED": "false"}
    log = open(home / "server.log", "wb")
    process = subprocess.Popen([str(VENV_BIN / "prefect"), "server", "start", "--host", "127.0.0.1", "--port",
                                str(port)], env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
                               cwd=home)
    _SERVER = PrefectServer(f"http://127.0.0.1:{port}/api", home, process)
    atexit.register(_stop_server, _SERVER)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"prefect server exited: {(home / 'server.log').read_text()[-2000:]}")
        try:
            with urllib.request.urlopen(f"{_SERVER.api_url}/health", timeout=2) as resp:
                if resp.status == 200:
                    return _SERVER
        except OSError:
            time.sleep(0.5)
    _stop_server(_SERVER)
    raise RuntimeError(f"prefect server not healthy after {timeout_s} s")


def _stop_server(server: PrefectServer) -> None:
    kill_group(server.process, signal.SIGTERM)
    try:
        server.process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        kill_group(server.process, signal.SIGKILL)
        server.process.wait(timeout=15)
    shutil.rmtree(server.home, ignore_errors=True)


def kill_group(process: subprocess.Popen, sig: int) -> None:
    """Signal the process we started and its children (its own session), by its id."""
    try:
        os.killpg(process.pid, sig)
    except ProcessLookupError:
        pass


def digest_env(server: PrefectServer, workdir: Path, **digest_settings) -> dict[str, str]:
    """Environment for a `digest` subprocess: the shared server, INFO logs (they show which
    stage a run is in), no settings leaking in from the caller's DIGEST_* variables."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("DIGEST_")}
    env.update({
        "PREFECT_API_URL": server.api_url, "PREFECT_HOME": str(server.home),
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false", "DO_NOT_TRACK": "1", "PREFECT_LOGGING_LEVEL": "INFO",
        "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1",
    })
    env.update({f"DIGEST_{k.upper()}": str(v) for k, v in digest_settings.items()})
    workdir.mkdir(parents=True, exist_ok=True)
    return env


def run_digest(args: list[str], cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    """The installed `digest` executable, to completion, on the shared Prefect server."""
    env = digest_env(prefect_server(), cwd)
    return subprocess.run([str(DIGEST), *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=timeout)


# ---------------------------------------------------------------------------- fork server
_FORK_SERVER: ForkServer | None = None


def digest_forkserver() -> ForkServer:
    """One fork server (see forkserver.py) for the pytest process, on the shared Prefect server."""
    global _FORK_SERVER
    if _FORK_SERVER is None or _FORK_SERVER.process.poll() is not None:
        workdir = Path(tempfile.mkdtemp(prefix="digest_forkserver_"))
        _FORK_SERVER = ForkServer(digest_env(prefect_server(), workdir), workdir)
        atexit.register(_FORK_SERVER.close)
        atexit.register(shutil.rmtree, workdir, True)
        _FORK_SERVER.wait_ready()
    return _FORK_SERVER


def stage_of(log: str, building_exists: bool) -> str:
    """Which stage a run was in, from its INFO log so far (Prefect and `digest` progress lines)."""
    if "Task run 'load" in log:
        return "checkpoint/publish"  # committed: checkpoint, fsync, rename, flow end
    if "Task run 'dedupe" in log:
        return "validate/commit"
    if "files to read" in log:
        done = [line for line in log.splitlines() if line.startswith("parse: ")]
        last = done[-1].split()[1] if done else "0/1"
        n_done, n_all = (int(x) for x in last.split("/"))
        return "merge" if n_all and n_done == n_all else "parse"
    if "Beginning flow run" in log:
        return "discover"
    return "startup"


# ---------------------------------------------------------------------------- corpus
_CORPORA: dict[tuple, Path] = {}


def render_split_corpus(n_listings: int, seed: int, share_b: float) -> Path:
    """bench.corpus files split at random into <root>/part_a and <root>/part_b (relative
    layout kept); cached per process. The answer files stay beside them in <root>/answer."""
    key = (n_listings, seed, share_b)
    if key in _CORPORA:
        return _CORPORA[key]
    from bench.corpus import render_corpus

    root = Path(tempfile.mkdtemp(prefix=f"digest_split_{n_listings}_"))
    atexit.register(shutil.rmtree, root, True)
    try:
        render_corpus(root / "answer", n_listings, seed=seed)
    except FileNotFoundError as err:  # no ../shared/realdata on this machine
        import pytest

        pytest.skip(str(err))
    files = sorted((root / "answer").rglob("*.txt"))
    rng = random.Random(seed)
    for f in files:
        part = "part_b" if rng.random() < share_b else "part_a"
        target = root / part / f.relative_to(root / "answer")
        target.parent.mkdir(parents=True, exist_ok=True)
        f.rename(target)
    _CORPORA[key] = root
    return root


# ---------------------------------------------------------------------------- runs and states
@dataclass
class Timeline:
    seconds: float  # start → exit
    published_at: float  # start → the staged copy renamed over the published file
    stages: dict[str, float]  # stage → first seen at


def building(warehouse: Path) -> Path:
    return warehouse.with_name(warehouse.name + ".building")


def run_to_end(child, warehouse: Path, timeout: float = 300) -> Timeline:
    """Wait for a started `digest ingest` child (exit 0 expected), noting when each stage began
    and when it published."""
    stages: dict[str, float] = {}
    published_at, saw_building = None, False
    deadline = time.monotonic() + timeout
    while child.running() and time.monotonic() < deadline:
        now = child.elapsed()
        exists = building(warehouse).exists()
        saw_building |= exists
        if saw_building and not exists and published_at is None:
            published_at = now
        stages.setdefault(stage_of(child.stderr(), exists), now)
        time.sleep(0.02)
    code = child.wait(timeout=max(1.0, deadline - time.monotonic()))
    assert code == 0, f"ingest failed ({code}): {child.stderr()[-3000:]}"
    seconds = child.elapsed()
    return Timeline(seconds, published_at or seconds, stages)


@dataclass
class SplitWarehouses:
    corpus: Path  # part_a/, part_b/
    base: Path  # part_a ingested into a fresh warehouse
    ref: Path  # base, then part_a + part_b ingested: the state a run on base must reach
    base_timeline: Timeline
    ref_timeline: Timeline


RUN_ENV = {"DIGEST_BATCH_BYTES": str(1024 * 1024)}  # several parse tasks per run
_WAREHOUSES: dict[tuple, SplitWarehouses] = {}


def start_ingest(warehouse: Path, corpus: Path, *parts: str, env: dict[str, str] | None = None):
    """`digest ingest <corpus/part>... --warehouse <warehouse>` in a new forked child, now."""
    args = ["ingest", *(str(corpus / p) for p in parts), "--warehouse", str(warehouse)]
    return digest_forkserver().start(args, env={**RUN_ENV, **(env or {})})


def split_warehouses(n_listings: int, seed: int) -> SplitWarehouses:
    """The base and reference warehouses of a split corpus, built once per process."""
    key = (n_listings, seed)
    if key not in _WAREHOUSES:
        digest_forkserver()  # the Prefect server and the imports, before any clock starts
        corpus = render_split_corpus(n_listings, seed=seed, share_b=0.25)
        base, ref = corpus / "base.duckdb", corpus / "ref.duckdb"
        base_timeline = run_to_end(start_ingest(base, corpus, "part_a"), base)
        shutil.copyfile(base, ref)
        ref_timeline = run_to_end(start_ingest(ref, corpus, "part_a", "part_b"), ref)
        _WAREHOUSES[key] = SplitWarehouses(corpus, base, ref, base_timeline, ref_timeline)
    return _WAREHOUSES[key]
