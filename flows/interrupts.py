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
from contextlib import contextmanager, nullcontext

import duckdb

from flows import signal_watch

EXIT_CODE = 128 + signal.SIGINT
_open: dict[int, duckdb.DuckDBPyConnection] = {}
_received = threading.Event()  # SIGINT arrived while a connection was open
# SIGTERM (`timeout 60 digest query ...`, a service stopped) is heard as Ctrl-C is, where nothing
# else handles it (an ingest's flows/shutdown.py does): it killed the process in the middle of a
# statement, and DuckDB's spill files (hundreds of MB) stayed beside the warehouse.
TERM_EXIT_CODE = 128 + signal.SIGTERM
_terminated = threading.Event()


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
    _terminated.clear()
    handler = signal.signal(signal.SIGINT, _on_sigint)
    term = signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    term_handler = signal.signal(signal.SIGTERM, _on_sigterm) if term else None
    try:
        with (signal_watch.listening(signal.SIGINT, _interrupt_open),
              signal_watch.listening(signal.SIGTERM, _terminate_open) if term else nullcontext()):
            yield
    except BaseException as err:
        if _received.is_set():
            raise KeyboardInterrupt from err
        raise
    finally:
        if not _received.is_set():  # else left: a late call of Python's own would cut the message
            signal.signal(signal.SIGINT, handler)
            if term:
                signal.signal(signal.SIGTERM, term_handler)


def terminated() -> bool:
    """The interruption was SIGTERM's (exit TERM_EXIT_CODE), not Ctrl-C's."""
    return _terminated.is_set()


def check() -> None:
    """Raise KeyboardInterrupt if Ctrl-C came while a connection was open: for loops of Python
    work (writing a result) that no DuckDB statement ends."""
    if _received.is_set():
        raise KeyboardInterrupt


def _on_sigint(signum, frame) -> None:
    # With a connection open, the watcher acts; without, this is Python's own behaviour.
    if not _open and not _received.is_set():
        raise KeyboardInterrupt


def _on_sigterm(signum, frame) -> None:
    _terminated.set()
    if not _open and not _received.is_set():
        raise KeyboardInterrupt


def _terminate_open() -> None:
    if _open:
        _terminated.set()
        _interrupt_open()


def _interrupt_open() -> None:
    if _open:
        _received.set()
        for con in list(_open.values()):
            try:
                con.interrupt()
            except duckdb.Error:  # closed meanwhile: nothing of it left to stop
                pass
