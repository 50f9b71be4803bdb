"""SIGTERM ends an ingest promptly, whatever it is doing, and leaves nothing behind.

Python runs signal handlers only in the main thread, between bytecodes: not while DuckDB runs a
long statement, nor while the main thread waits on a stuck worker. So the watcher thread of
flows/signal_watch.py hears the signal at once, and this module:

1. interrupts what was registered (the staging connection), so the main thread gets control
   back and unwinds through its own cleanup (the handler raises SystemExit(143); inside a flow
   Prefect's handler raises TerminationSignal and re-sends the signal to ours when done);
2. if the process is still alive after `grace_s`, runs the registered cleanups (delete the
   half-built copy) and exits with 143 at once. The writer lock is a flock: the kernel
   releases it with the process. The published file is only ever replaced atomically, so
   ending at any moment leaves it whole (tests/test_crash.py kills harder than this).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from flows import signal_watch

EXIT_CODE = 128 + signal.SIGTERM
_interrupts: dict[int, Callable[[], None]] = {}
_cleanups: dict[int, Callable[[], None]] = {}
_requested = threading.Event()
_ending = threading.Event()  # the watcher has begun ending the process
_installed = False


def install(grace_s: float = 2.0) -> None:
    """Handle SIGTERM in this process (call from the main thread, once)."""
    global _installed
    if _installed or threading.current_thread() is not threading.main_thread() or not signal_watch.start():
        return
    signal.signal(signal.SIGTERM, _on_sigterm)
    signal_watch.listen(signal.SIGTERM, lambda: _terminate(grace_s))
    _installed = True


def requested(wait_s: float = 0.0) -> bool:
    """A SIGTERM arrived (or arrives within `wait_s`): a failure now is the interruption, not
    something to record."""
    return _requested.wait(wait_s) if wait_s > 0 else _requested.is_set()


@contextmanager
def on_terminate(interrupt: Callable[[], None], cleanup: Callable[[], None]) -> Iterator[None]:
    """While the block runs, a SIGTERM calls `interrupt` at once and, if the process has not
    ended within the grace period, `cleanup` before the hard exit."""
    key = id(interrupt)
    _interrupts[key], _cleanups[key] = interrupt, cleanup
    try:
        yield
    finally:
        _interrupts.pop(key, None)
        _cleanups.pop(key, None)


def _on_sigterm(signum, frame) -> None:
    _requested.set()
    raise SystemExit(EXIT_CODE)


def _terminate(grace_s: float) -> None:
    if _ending.is_set():  # a second SIGTERM: the first is being handled
        return
    _ending.set()
    _requested.set()
    _run_all(_interrupts)
    # The grace period runs in a thread of its own: the watcher goes on hearing other signals.
    threading.Thread(target=_end_after, args=(grace_s,), name="sigterm-grace", daemon=True).start()


def _end_after(grace_s: float) -> None:
    threading.Event().wait(grace_s)  # the main thread's own unwinding usually ends the process first
    _run_all(_cleanups)
    sys.stderr.flush()
    os._exit(EXIT_CODE)


def _run_all(callbacks: dict[int, Callable[[], None]]) -> None:
    for callback in list(callbacks.values()):
        try:
            callback()
        except Exception:  # noqa: BLE001 - best effort: the process is ending
            pass
