"""A fork server for `digest` commands: one process imports the CLI (5-10 s on a busy 2-core
machine), then forks a child per command, so each command starts at once.

Each child is a real, separate process running `flows.cli.app` with its own session (so a
SIGKILL of its process group takes down it and any helper it started), its own stdout/stderr
files, and its exit status written by the server, which reaps it, to `<name>.rc` (a
SIGKILLed child reports -9). Prefect resets its internal threads in a forked child
(prefect/_internal/concurrency); the server itself starts no threads and does no work before
forking.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

_SERVER_SCRIPT = r"""
import json, os, select, sys
from flows import cli
import flows.ingest  # noqa: F401 - the heavy imports, paid once
commands = sys.stdin.buffer
print("ready", flush=True)
children = {}  # pid -> rc path

def reap():
    while children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        rc = os.waitstatus_to_exitcode(status)
        path = children.pop(pid)
        with open(path + ".tmp", "w") as f:
            f.write(str(rc))
        os.replace(path + ".tmp", path)

while True:
    ready, _, _ = select.select([commands], [], [], 0.01)
    reap()
    if not ready:
        continue
    line = commands.readline()
    if not line:
        break
    cmd = json.loads(line)
    pid = os.fork()
    if pid == 0:
        os.setsid()
        for fd, name, mode in ((0, "/dev/null", os.O_RDONLY), (1, cmd["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                               (2, cmd["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
            os.dup2(os.open(name, mode, 0o644), fd)
        sys.stdout = os.fdopen(1, "w", buffering=1)
        sys.stderr = os.fdopen(2, "w", buffering=1)
        code = 0
        try:
            os.environ.update(cmd["env"])
            sys.argv = ["digest", *cmd["args"]]
            cli.app()
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else (0 if exit_.code is None else 1)
        except BaseException:
            import traceback
            traceback.print_exc()
            code = 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    children[pid] = cmd["rc"]
    with open(cmd["rc"] + ".pid.tmp", "w") as f:
        f.write(str(pid))
    os.replace(cmd["rc"] + ".pid.tmp", cmd["rc"] + ".pid")
while children:
    reap()
"""


class ForkServer:
    def __init__(self, env: dict[str, str], cwd: Path):
        self.cwd = cwd
        self.log_dir = cwd / "logs"
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self._log = open(self.log_dir / "forkserver.log", "wb")
        self.process = subprocess.Popen([sys.executable, "-c", _SERVER_SCRIPT], env=env, cwd=cwd,
                                        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log,
                                        start_new_session=True)
        self.n = 0

    def wait_ready(self, timeout: float = 180) -> None:
        line = self.process.stdout.readline()  # blocks until the imports are done
        if line.strip() != b"ready":
            raise RuntimeError(f"fork server did not start: {(self.log_dir / 'forkserver.log').read_text()[-2000:]}")

    def start(self, args: list[str], name: str | None = None, env: dict[str, str] | None = None) -> "Child":
        """Run `digest <args>` in a new child; `env` is added to the child's environment."""
        self.n += 1
        name = name or f"cmd{self.n:03d}"
        child = Child(self.log_dir / name)
        cmd = {"args": args, "stdout": str(child.stdout_path), "stderr": str(child.stderr_path),
               "rc": str(child.rc_path), "env": env or {}}
        child.started_at = time.monotonic()
        self.process.stdin.write((json.dumps(cmd) + "\n").encode())
        self.process.stdin.flush()
        child.wait_pid()
        return child

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.stdin.close()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)
        self._log.close()


class Child:
    def __init__(self, base: Path):
        self.stdout_path, self.stderr_path = base.with_suffix(".out"), base.with_suffix(".err")
        self.rc_path = base.with_suffix(".rc")
        self.pid_path = Path(str(self.rc_path) + ".pid")
        self.pid = 0
        self.started_at = 0.0

    def wait_pid(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while not self.pid_path.exists():
            if time.monotonic() > deadline:
                raise TimeoutError("fork server did not start the command")
            time.sleep(0.002)
        self.pid = int(self.pid_path.read_text())

    def elapsed(self) -> float:
        return time.monotonic() - self.started_at

    def returncode(self) -> int | None:
        return int(self.rc_path.read_text()) if self.rc_path.exists() else None

    def running(self) -> bool:
        return self.returncode() is None

    def wait(self, timeout: float = 300) -> int:
        deadline = time.monotonic() + timeout
        while (rc := self.returncode()) is None:
            if time.monotonic() > deadline:
                self.sigkill()
                raise TimeoutError(f"command did not end in {timeout} s: {self.stderr()[-2000:]}")
            time.sleep(0.01)
        return rc

    def sigkill(self) -> int:
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        return self.wait(timeout=30)

    def stdout(self) -> str:
        return self.stdout_path.read_text(errors="replace") if self.stdout_path.exists() else ""

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace") if self.stderr_path.exists() else ""
