"""Prefect's temporary API server, started before this process loads the pipeline.

With no API configured, Prefect starts a temporary server when the first flow runs: it first
imports the server's code in this process (~2 s), then starts the server's own process and
waits while that process imports the same code (~5 s), all after our own imports (~3 s).
`digest ingest` instead starts that server process first (the uvicorn command and settings
Prefect uses, its output to /dev/null instead of ours), so it starts while this process
imports, and this process never imports the server. A configured server (PREFECT_API_URL in
the environment, a profile or prefect.toml) is used as before, and the early one is stopped.
The server ends with this process: at exit, on SIGTERM, and (Linux) if this process is killed.
"""

from __future__ import annotations

import atexit
import ctypes
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from urllib.parse import urlsplit

# What Prefect's SubprocessASGIServer sets for its temporary server: no UI, no services.
_SERVER_ENV = {"PREFECT_UI_ENABLED": "0", "PREFECT__SERVER_EPHEMERAL": "1", "PREFECT__SERVER_FINAL": "1"}
# Either name turns temporary servers off (the second is the older alias).
_EPHEMERAL_SWITCHES = ("PREFECT_SERVER_EPHEMERAL_ENABLED", "PREFECT_SERVER_ALLOW_EPHEMERAL_MODE")
_FALSE = {"0", "false", "no", "off"}
_PR_SET_PDEATHSIG = 1


@dataclass
class EarlyServer:
    process: subprocess.Popen
    api_url: str

    def adopt(self) -> None:
        """Point Prefect at this server, unless another one is configured; wait until it answers."""
        from prefect.context import refresh_global_settings_context
        from prefect.settings import get_current_settings

        settings = get_current_settings()
        if settings.api.url or not settings.server.ephemeral.enabled:
            self.stop()
            return
        os.environ["PREFECT_API_URL"] = self.api_url
        refresh_global_settings_context()  # Prefect read its settings at import
        if not self._answers_within(settings.server.ephemeral.startup_timeout_seconds):
            # It could not start (its port taken meanwhile?): Prefect starts its own, as usual.
            self.stop()
            del os.environ["PREFECT_API_URL"]
            refresh_global_settings_context()

    def _answers_within(self, timeout_s: float) -> bool:
        """True once /health answers while our process still runs (an answer from another
        server that took the port would come with our process gone: it could not bind).

        Uvicorn listens only once the app has started, so until the port takes a connection
        only a TCP connect is tried (~0.01 ms of CPU): an `httpx.get` builds a client and its
        TLS context each call (~60 ms of CPU on a loaded machine), and polled every 50 ms it
        took most of a core from the server starting beside it (issue 15, fixed cost)."""
        import httpx

        address = urlsplit(self.api_url)
        deadline = time.monotonic() + timeout_s
        client = None
        try:
            while time.monotonic() < deadline and self.process.poll() is None:
                if _accepts(address.hostname, address.port):
                    client = client or httpx.Client(timeout=2)
                    try:
                        if client.get(f"{self.api_url}/health").status_code == 200:
                            time.sleep(0.05)  # a failed bind ends uvicorn at once
                            return self.process.poll() is None
                    except httpx.TransportError:
                        pass
                time.sleep(0.05)
            return False
        finally:
            if client is not None:
                client.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_early() -> EarlyServer | None:
    """Start the server process now, or None when Prefect would not start one: an API URL or
    Prefect's own settings are already known, or temporary servers are turned off."""
    if os.environ.get("PREFECT_API_URL") or "prefect" in sys.modules or any(
            os.environ.get(name, "true").lower() in _FALSE for name in _EPHEMERAL_SWITCHES):
        return None
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "uvicorn", "--app-dir", str(_prefect_parent()), "--factory",
         "prefect.server.api.server:create_app", "--host", "127.0.0.1", "--port", str(port),
         "--log-level", "error", "--lifespan", "on"],
        env={**os.environ, **_SERVER_ENV},
        stdout=subprocess.DEVNULL,  # `digest ingest --json` owns stdout
        preexec_fn=_end_with_parent if sys.platform == "linux" else None,
    )
    server = EarlyServer(process, f"http://127.0.0.1:{port}/api")
    atexit.register(server.stop)
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, _exit_on_sigterm)  # so atexit runs; Prefect's own handler nests
    return server


def _exit_on_sigterm(signum, frame) -> None:
    sys.exit(128 + signum)


def _end_with_parent() -> None:
    """In the server's process, before it runs: SIGTERM when the process that started it dies,
    even by SIGKILL, when no atexit runs."""
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def _accepts(host: str, port: int) -> bool:
    """Something listens at host:port."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(1)
        return sock.connect_ex((host, port)) == 0


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _prefect_parent() -> Path:
    """The folder holding the prefect package, found without importing it (that is the cost)."""
    return Path(find_spec("prefect").origin).parent.parent
