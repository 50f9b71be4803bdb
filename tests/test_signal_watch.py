"""One watcher for the signals of a process (flows/signal_watch.py)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_sigterm_is_heard_by_the_ingest_watcher_while_a_read_block_runs():
    # Each module set its own wakeup fd: inside a Ctrl-C block SIGTERM's byte went to the read
    # watcher, which hears SIGINT only; the ingest's watcher never interrupted the connection nor
    # ran the hard exit of a stuck process.
    script = textwrap.dedent("""
        import os, signal, threading, time
        from flows import interrupts, shutdown
        shutdown.install(grace_s=60)  # no hard exit while the test looks
        heard = threading.Event()
        with shutdown.on_terminate(heard.set, lambda: None), interrupts.ctrl_c_interrupts():
            try:
                os.kill(os.getpid(), signal.SIGTERM)
                time.sleep(10)
            except SystemExit:  # Python's own handler, in the main thread
                pass
            print(heard.wait(10))
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout.strip()) == (0, "True"), done.stderr


def _ctrl_c_during_a_long_read(setup: str) -> subprocess.CompletedProcess:
    """A process that installs the SIGTERM handling, runs `setup`, then a long statement under
    Ctrl-C handling, and gets SIGINT a second in: prints "interrupted" when the statement stopped."""
    script = textwrap.dedent("""
        import os, signal, socket, threading, duckdb
        from flows import interrupts, shutdown
        shutdown.install()
        {setup}
        con = duckdb.connect()
        threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT)).start()
        try:
            with interrupts.ctrl_c_interrupts(), interrupts.interruptible(con):
                con.sql("SELECT count(*) FROM range(1000000000000) t(x) WHERE x % 7 = 3").fetchall()
        except KeyboardInterrupt:
            print("interrupted")
    """).format(setup=setup)
    return subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_ctrl_c_still_stops_a_read_after_the_sigterm_handling_is_installed():
    done = _ctrl_c_during_a_long_read("")
    assert (done.returncode, done.stdout.strip()) == (0, "interrupted"), done.stderr


def test_ctrl_c_stops_a_read_after_something_else_took_the_wakeup_fd():
    # an asyncio loop's signal handlers set the process's one wakeup fd to their own
    done = _ctrl_c_during_a_long_read(
        "other, _ = socket.socketpair(); other.setblocking(False); signal.set_wakeup_fd(other.fileno())")
    assert (done.returncode, done.stdout.strip()) == (0, "interrupted"), done.stderr
