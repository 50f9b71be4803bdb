"""One thread hears the signals a command handles while DuckDB works: SIGTERM ends an ingest
(flows/shutdown.py), SIGINT stops a read command (flows/interrupts.py).

Python runs signal handlers only in the main thread, between bytecodes: not while DuckDB runs a
statement, nor while the main thread waits on a stuck worker. The C-level handler writes the
signal's number to the wakeup fd at once; this thread reads it and calls what listens for that
signal. A process has one wakeup fd: when each module set its own, the second silenced the first
(a read command's Ctrl-C watcher took it, and SIGTERM went unheard). So there is one watcher,
started on first use and kept for the life of the process.
"""

from __future__ import annotations

import signal
import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

_listeners: dict[int, dict[int, Callable[[], None]]] = {}
_lock = threading.Lock()
_ends: tuple[socket.socket, socket.socket] | None = None  # the watcher's socket pair, once started


def start() -> bool:
    """Start the watcher if it is not running, and point the wakeup fd at it: something else may
    have taken the fd since (an asyncio loop's signal handlers do). Only the main thread may set
    the wakeup fd: False elsewhere (the dashboard runs pages in other threads), nothing watched."""
    global _ends
    if threading.current_thread() is not threading.main_thread():
        return _ends is not None
    with _lock:
        if _ends is None:
            reader, writer = socket.socketpair()
            writer.setblocking(False)
            threading.Thread(target=_watch, args=(reader,), name="signal-watcher", daemon=True).start()
            _ends = (reader, writer)
        signal.set_wakeup_fd(_ends[1].fileno(), warn_on_full_buffer=False)
        return True


def listen(signum: int, callback: Callable[[], None]) -> int:
    """Call `callback` on the watcher thread whenever `signum` arrives; returns a key for `forget`."""
    key = id(callback)
    with _lock:
        _listeners.setdefault(signum, {})[key] = callback
    return key


def forget(signum: int, key: int) -> None:
    with _lock:
        _listeners.get(signum, {}).pop(key, None)


@contextmanager
def listening(signum: int, callback: Callable[[], None]) -> Iterator[None]:
    """While the block runs, `signum` calls `callback` (on the watcher thread)."""
    key = listen(signum, callback)
    try:
        yield
    finally:
        forget(signum, key)


def _watch(reader: socket.socket) -> None:
    while received := reader.recv(64):
        for signum in dict.fromkeys(received):  # one call per signal, in the order they came
            with _lock:
                callbacks = list(_listeners.get(signum, {}).values())
            for callback in callbacks:
                try:
                    callback()
                except Exception:  # noqa: BLE001 - a listener's failure must not end the watcher
                    pass
