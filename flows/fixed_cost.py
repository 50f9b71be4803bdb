"""Prefect's fixed cost in a short run, cut without changing what Prefect records (issue 15: a
`digest ingest` with no new files in at most 3 s with a running server).

Measured on a no-op run (2 loaded cores, running server, `python -m bench.noop`):

- When a synchronous flow ends, Prefect 3.9 joins its heartbeat thread, which sleeps in steps
  of one second: the run waited up to 1 s (0.6-0.9 s measured) for nothing. No setting turns
  heartbeats off or makes that sleep shorter (`PREFECT_FLOWS_HEARTBEAT_FREQUENCY` is an integer
  of at least 30 s), so the flow engine's heartbeat context is wrapped to stop the thread
  without joining it, as Prefect's own asynchronous engine does (`join_on_exit=False`). The
  heartbeats are the same: one when the run starts, then one every interval; the thread sees
  its stop flag within a second and returns, or ends with the process (it is a daemon).
  That second also let Prefect's events worker send the run's last events before the process
  ended; now it sends them at exit (its drain, tens of milliseconds), and says so on stderr
  ("EventsWorker - Still processing items: 3 items remaining..."): that progress line is
  filtered out, any other message of the worker is kept.
- A flow run's parameters are sent to the API through FastAPI's `jsonable_encoder`, and
  importing `fastapi.encoders` imports FastAPI's whole application stack (0.2-0.4 s). `LeanFlow`
  encodes what our flows take (paths, numbers, text, lists and dicts of them) itself, with the
  same result, and leaves anything else to Prefect.
"""

from __future__ import annotations

import functools
import inspect
import logging
from contextlib import contextmanager
from pathlib import PurePath
from typing import Any

from prefect import flow_engine
from prefect.flows import Flow

_PLAIN = (str, int, float, bool, type(None))


class LeanFlow(Flow):
    """A Prefect flow whose plain parameters are serialised without importing FastAPI."""

    def serialize_parameters(self, parameters: dict[str, Any]) -> dict[str, Any]:
        if self.ismethod or self.isclassmethod:
            return super().serialize_parameters(parameters)
        rest = {key: value for key, value in parameters.items() if not _is_plain(value)}
        encoded = super().serialize_parameters(rest) if rest else {}
        return {key: encoded[key] if key in rest else _encoded(value)
                for key, value in parameters.items() if key in encoded or key not in rest}


def lean_flow(**options: Any):
    """`@prefect.flow(**options)`, making a `LeanFlow`."""
    return lambda fn: LeanFlow(fn=fn, **options)


def _is_plain(value: Any) -> bool:
    if isinstance(value, (*_PLAIN, PurePath)):
        return True
    if isinstance(value, (list, tuple)):
        return all(_is_plain(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _is_plain(v) for k, v in value.items())
    return False


def _encoded(value: Any) -> Any:
    """What `fastapi.encoders.jsonable_encoder` returns for a plain value."""
    if isinstance(value, PurePath):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_encoded(v) for v in value]
    if isinstance(value, dict):
        return {k: _encoded(v) for k, v in value.items()}
    return value


def install() -> None:
    """Flow runs in this process stop their heartbeat thread without waiting for it (once)."""
    original = getattr(flow_engine, "_send_heartbeats", None)
    if original is None or getattr(original, "_no_join", False):
        return
    if "join_on_exit" not in inspect.signature(original).parameters:
        return  # another Prefect: leave it as it is

    @contextmanager
    @functools.wraps(original)
    def send_heartbeats(engine, join_on_exit: bool = True):
        with original(engine, join_on_exit=False):
            yield

    send_heartbeats._no_join = True
    flow_engine._send_heartbeats = send_heartbeats
    logging.getLogger("EventsWorker").addFilter(_drain_progress)  # Prefect's QueueService logger


def _drain_progress(record: logging.LogRecord) -> bool:
    return not str(record.msg).startswith("Still processing items")
