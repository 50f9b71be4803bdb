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

Not a cost but a limit, on the same path: Prefect's server refuses a flow run whose parameters
take more than 512 KiB as JSON (422 Unprocessable Entity). `digest ingest` of ~8,000 files named
one by one (a shell glob) failed there, and so did every scheduled landing run once ~3,600 files
waited in landing (two entries a file). The run gets its values whole, in memory; the API (and its
UI) gets a list or dict of more than `SHOWN` items as its count and first items.
"""

from __future__ import annotations

import functools
import inspect
import itertools
import logging
from contextlib import contextmanager
from pathlib import PurePath
from typing import Any

from prefect import flow_engine
from prefect.flows import Flow

_PLAIN = (str, int, float, bool, type(None))
SHOWN = 10  # items of a long list or dict parameter that the API is sent


class LeanFlow(Flow):
    """A Prefect flow whose plain parameters are serialised without importing FastAPI, and
    whose long ones are sent shortened (`shortened`)."""

    def serialize_parameters(self, parameters: dict[str, Any]) -> dict[str, Any]:
        parameters = {key: shortened(value) for key, value in parameters.items()}
        if self.ismethod or self.isclassmethod:
            return super().serialize_parameters(parameters)
        rest = {key: value for key, value in parameters.items() if not _is_plain(value)}
        encoded = super().serialize_parameters(rest) if rest else {}
        return {key: encoded[key] if key in rest else _encoded(value)
                for key, value in parameters.items() if key in encoded or key not in rest}

    def with_options(self, **options: Any) -> LeanFlow:
        """Prefect's copy is a plain `Flow` (the Dask runner's flow sent every path again)."""
        copy = super().with_options(**options)
        copy.__class__ = type(self)  # a LeanFlow holds nothing a Flow does not
        return copy


def shortened(value: Any) -> Any:
    """A list, tuple or dict of more than `SHOWN` items as {"count": n, "first": its first
    items}; any other value as it is."""
    if isinstance(value, (list, tuple)) and len(value) > SHOWN:
        return {"count": len(value), "first": list(value[:SHOWN])}
    if isinstance(value, dict) and len(value) > SHOWN:
        return {"count": len(value), "first": dict(itertools.islice(value.items(), SHOWN))}
    return value


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
