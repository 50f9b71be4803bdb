"""Ctrl-C stops a read command, even in the middle of a DuckDB statement.

Python runs its SIGINT handler only in the main thread, between bytecodes: not while DuckDB runs
a statement, and duckdb-python does not look for signals itself (a `digest query` over a huge
cross join ran on after ^C, until killed). So, as flows/shutdown.py does for SIGTERM in an
ingest, the watcher thread of flows/signal_watch.py hears the signal and interrupts every open
read connection. DuckDB's error for the statement (a RuntimeError "Query interrupted", an
InterruptException, or an Arrow error while streaming) then comes out as KeyboardInterrupt.

Python's own handler is not relied on while a connection is open: it ran late or never (another
thread running Python code meanwhile), and a late KeyboardInterrupt cut the one-line message.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import duckdb

from flows import signal_watch

EXIT_CODE = 128 + signal.SIGINT
_open: dict[int, duckdb.DuckDBPyConnection] = {}
_received = threading.Event()  # SIGINT arrived while a connection was open


@contextmanager
def interruptible(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """While the block runs, Ctrl-C (under `ctrl_c_interrupts`) interrupts `con`."""
    _open[id(con)] = con
    try:
        yield
    finally:
        _open.pop(id(con), None)


@contextmanager
def ctrl_c_interrupts() -> Iterator[None]:
    """While the block runs, SIGINT interrupts the connections of `interruptible` blocks, and
    any failure after it is raised as KeyboardInterrupt. Only the main thread takes signals (the
    dashboard runs pages in others): elsewhere, or where SIGINT is ignored, a no-op."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is signal.SIG_IGN or not signal_watch.start()):
        yield
        return
    _received.clear()
    handler = signal.signal(signal.SIGINT, _on_sigint)
    try:
        with signal_watch.listening(signal.SIGINT, _interrupt_open):
            yield
    except BaseException as err:
        if _received.is_set():
            raise KeyboardInterrupt from err
        raise
    finally:
        if not _received.is_set():  # else left: a late call of Python's own would cut the message
            signal.signal(signal.SIGINT, handler)


def check() -> None:
    """Raise KeyboardInterrupt if Ctrl-C came while a connection was open: for loops of Python
    work (writing a result) that no DuckDB statement ends."""
    if _received.is_set():
        raise KeyboardInterrupt


def _on_sigint(signum, frame) -> None:
    # With a connection open, the watcher acts; without, this is Python's own behaviour.
    if not _open and not _received.is_set():
        raise KeyboardInterrupt


def _interrupt_open() -> None:
    if _open:
        _received.set()
        for con in list(_open.values()):
            try:
                con.interrupt()
            except duckdb.Error:  # closed meanwhile: nothing of it left to stop
                pass
