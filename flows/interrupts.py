"""Ctrl-C stops a read command, even in the middle of a DuckDB statement.

Python runs its SIGINT handler (KeyboardInterrupt) only in the main thread, between bytecodes:
not while DuckDB runs a statement, and duckdb-python does not look for signals itself (a
`digest query` over a huge cross join ran on after ^C, until killed). So, as flows/shutdown.py
does for SIGTERM in an ingest, a watcher thread hears the signal through the wakeup fd and
interrupts every open read connection; DuckDB then hands control back, and Python's own
handler raises KeyboardInterrupt in the main thread.
"""

from __future__ import annotations

import signal
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import duckdb

EXIT_CODE = 128 + signal.SIGINT
_open: dict[int, duckdb.DuckDBPyConnection] = {}


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
    """While the block runs, SIGINT interrupts the connections of `interruptible` blocks too.
    Only the main thread can take signals (the dashboard runs pages in others): elsewhere a no-op."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    reader, writer = socket.socketpair()
    writer.setblocking(False)
    previous = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    watcher = threading.Thread(target=_watch, args=(reader,), name="sigint-watcher", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        signal.set_wakeup_fd(previous)  # an ingest's SIGTERM watcher in this process, if any
        writer.close()  # the watcher reads the end of the stream and stops
        watcher.join()
        reader.close()


def _watch(reader: socket.socket) -> None:
    while received := reader.recv(64):
        if signal.SIGINT in received:
            for con in list(_open.values()):
                try:
                    con.interrupt()
                except duckdb.Error:  # closed meanwhile: nothing of it left to stop
                    pass
