"""flows/prefect_server.py: `digest ingest` starts Prefect's temporary server before its
imports, uses it only when no server is configured, and stops it at exit.

Each case runs in its own Python process: the module points Prefect's process-wide settings at
the server, which must not leak into the other tests' harness.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest

REPO = Path(__file__).resolve().parent.parent
SAMPLES = REPO / "data" / "samples"
DIGEST = Path(sys.executable).parent / "digest"


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """This environment without Prefect or digest settings, with a PREFECT_HOME of its own."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_", "DIGEST_"))}
    env.update({"PREFECT_HOME": str(tmp_path / "prefect"), "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
                "DO_NOT_TRACK": "1", "PREFECT_LOGGING_LEVEL": "CRITICAL",
                "PREFECT_PROFILES_PATH": str(tmp_path / "profiles.toml"), **extra})
    return env


def _python(script: str, tmp_path: Path, **env: str) -> dict:
    """Run `script` in a fresh interpreter (see _env); it prints one JSON line."""
    done = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], cwd=tmp_path, env=_env(tmp_path, **env),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def _servers_of(tmp_path: Path) -> list[psutil.Process]:
    """Prefect server processes running with the PREFECT_HOME of _env(tmp_path)."""
    home, found = str(tmp_path / "prefect"), []
    for proc in psutil.process_iter(["cmdline"]):
        try:
            if "prefect.server.api.server:create_app" in proc.info["cmdline"] and proc.environ().get("PREFECT_HOME") == home:
                found.append(proc)
        except (psutil.NoSuchProcess, psutil.AccessDenied, TypeError):
            pass
    return found


def _until(condition, timeout_s: float) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.1)
    return False


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_ingest_runs_on_the_early_server_without_importing_the_server_here(tmp_path):
    out = _python(f"""
        import json, os, sys
        from pathlib import Path
        from flows import prefect_server
        server = prefect_server.start_early()
        from flows.ingest import ingest
        server.adopt()
        summary = ingest(paths=[Path({str(SAMPLES)!r})], warehouse=Path("w.duckdb"))
        print(json.dumps({{"pid": server.process.pid, "ours": server.api_url,
                          "used": os.environ.get("PREFECT_API_URL"), "n_listings": summary["n_listings"],
                          "server_code_here": "prefect.server.api.server" in sys.modules}}))
    """, tmp_path)
    assert out["used"] == out["ours"]
    assert out["n_listings"] > 0
    # Prefect's own temporary server would have imported the server code into this process.
    assert not out["server_code_here"]
    assert not _alive(out["pid"]), "the server process outlived the command"


def test_a_server_configured_in_a_profile_wins(tmp_path):
    (tmp_path / "profiles.toml").write_text(
        'active = "team"\n[profiles.team]\nPREFECT_API_URL = "http://127.0.0.1:9/api"\n')
    out = _python("""
        import json, os
        from flows import prefect_server
        server = prefect_server.start_early()
        server.adopt()
        from prefect.settings import get_current_settings
        print(json.dumps({"stopped": server.process.poll() is not None,
                          "url": get_current_settings().api.url}))
    """, tmp_path)
    assert out == {"stopped": True, "url": "http://127.0.0.1:9/api"}


def test_no_early_server_when_the_environment_names_one_or_forbids_it(tmp_path):
    script = """
        import json
        from flows import prefect_server
        print(json.dumps({"started": prefect_server.start_early() is not None}))
    """
    assert _python(script, tmp_path, PREFECT_API_URL="http://127.0.0.1:9/api") == {"started": False}
    assert _python(script, tmp_path, PREFECT_SERVER_ALLOW_EPHEMERAL_MODE="false") == {"started": False}


def test_a_server_that_cannot_start_leaves_prefect_to_start_its_own(tmp_path):
    out = _python(f"""
        import json, os, subprocess, sys
        from pathlib import Path
        from flows.prefect_server import EarlyServer
        dead = subprocess.Popen([sys.executable, "-c", "raise SystemExit(3)"])  # uvicorn: port taken
        EarlyServer(dead, "http://127.0.0.1:9/api").adopt()
        from prefect.settings import get_current_settings
        before = {{"env": os.environ.get("PREFECT_API_URL"), "url": get_current_settings().api.url}}
        from flows.ingest import ingest
        summary = ingest(paths=[Path({str(SAMPLES)!r})], warehouse=Path("w.duckdb"))
        print(json.dumps({{**before, "n_listings": summary["n_listings"],
                          "prefects_own": "prefect.server.api.server" in sys.modules}}))
    """, tmp_path, PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS="240")  # a second server beside the suite's
    assert out["env"] is None and out["url"] is None
    assert out["n_listings"] > 0 and out["prefects_own"]


def test_digest_ingest_leaves_no_server_behind(tmp_path):
    done = subprocess.run([str(DIGEST), "ingest", str(SAMPLES), "--warehouse", str(tmp_path / "w.duckdb"), "--json"],
                          env=_env(tmp_path), cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    assert json.loads(done.stdout)["n_listings"] > 0  # stdout is the summary only: the server writes none
    assert _until(lambda: not _servers_of(tmp_path), 10)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
def test_the_server_ends_with_a_killed_command(tmp_path, sig):
    """Killed while it imports (before Prefect has a handler of its own), or by SIGKILL (no
    atexit at all): the server must not outlive it."""
    command = subprocess.Popen([str(DIGEST), "ingest", str(SAMPLES), "--warehouse", str(tmp_path / "w.duckdb")],
                               env=_env(tmp_path), cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert _until(lambda: _servers_of(tmp_path), 60), "no early server was started"
        command.send_signal(sig)
        command.wait(timeout=30)
        assert _until(lambda: not _servers_of(tmp_path), 15), "the server outlived the command"
    finally:
        command.kill()
        for proc in _servers_of(tmp_path):
            proc.kill()


def test_a_run_with_nothing_new_loads_no_parser(tmp_path):
    """Fixed cost (issue 15): the CLI and the flow module load without the parsers, their Pandera
    checks (which import pandas: ~0.9 s of every run) and the resolver (numpy, rapidfuzz); a run
    loads them when it reads a file."""
    out = _python("""
        import json, sys
        import flows.cli, flows.ingest
        print(json.dumps({m: m in sys.modules for m in ("transforms.pipeline", "pandera", "pandas", "rapidfuzz")}))
    """, tmp_path)
    assert out == {"transforms.pipeline": False, "pandera": False, "pandas": False, "rapidfuzz": False}
