"""The README's operations walkthrough, end to end: start a Prefect server, `digest serve`,
drop a digest into landing/, trigger a run, see the artifacts and the archived file."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
SEED = REPO / "data" / "samples" / "000_2fe0bc6f923800c6.txt"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = predicate()
        if result:
            return result
        time.sleep(0.5)
    raise TimeoutError(f"timed out waiting for {what}")


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/health", timeout=2) as response:
            return response.status == 200
    except OSError:
        return False


@pytest.fixture()
def prefect_server(tmp_path):
    port = _free_port()
    env = {**os.environ, "PREFECT_HOME": str(tmp_path / "prefect-home"), "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
           "PREFECT_API_URL": f"http://127.0.0.1:{port}/api"}
    server = subprocess.Popen([str(BIN / "prefect"), "server", "start", "--host", "127.0.0.1", "--port", str(port)],
                              env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        _wait(lambda: _healthy(env["PREFECT_API_URL"]), 120, "the Prefect server")
        yield env
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_readme_walkthrough(prefect_server, tmp_path, monkeypatch):
    env = {**prefect_server, "DIGEST_LANDING": str(tmp_path / "landing"), "DIGEST_ARCHIVE": str(tmp_path / "archive"),
           "DIGEST_WAREHOUSE": str(tmp_path / "w.duckdb"), "DIGEST_SCHEDULE": "0 6 * * *"}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    (tmp_path / "landing").mkdir()
    serving = subprocess.Popen([str(BIN / "digest"), "serve"], env=env, cwd=REPO, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    # This process may already talk to the test harness's server: point it at ours.
    from prefect.settings import PREFECT_API_URL, temporary_settings

    with temporary_settings(updates={PREFECT_API_URL: env["PREFECT_API_URL"]}):
        try:
            _walkthrough(env, tmp_path)
        finally:
            serving.terminate()
            serving.wait(timeout=30)


def _walkthrough(env: dict, tmp_path: Path) -> None:
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterId
    from prefect.deployments import run_deployment

    def deployment():
        try:
            with get_client(sync_client=True) as client:
                return client.read_deployment_by_name("ingest-landing/daily-landing")
        except Exception:  # noqa: BLE001 - not registered yet
            return None

    served = _wait(deployment, 120, "digest serve to register its deployment")
    assert served.schedules[0].schedule.cron == "0 6 * * *"

    shutil.copy(SEED, tmp_path / "landing" / SEED.name)
    flow_run = run_deployment("ingest-landing/daily-landing", timeout=300)
    assert flow_run.state.is_completed(), flow_run.state

    archived = list((tmp_path / "archive").rglob(SEED.name))
    assert [p.read_bytes() for p in archived] == [SEED.read_bytes()]
    assert not any((tmp_path / "landing").iterdir())
    with get_client(sync_client=True) as client:
        children = client.read_flow_runs(
            flow_run_filter=FlowRunFilter(parent_flow_run_id={"any_": [flow_run.id]}))
        run_ids = [flow_run.id, *(r.id for r in children)]
        artifacts = client.read_artifacts(flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=run_ids)))
    assert {"ingest-files", "ingest-summary"} <= {a.key for a in artifacts}
    status = subprocess.run([str(BIN / "digest"), "status"], env=env, capture_output=True, text=True, check=True)
    assert "listings           5" in status.stdout and "completed" in status.stdout
