"""Progress events from the flow to whoever shows them (the CLI's bar), without Prefect
parameters: a listener is a plain callable registered for the process."""

from __future__ import annotations

from collections.abc import Callable

Listener = Callable[[str, int, int], None]  # (stage, done, total)
_listeners: list[Listener] = []


def subscribe(listener: Listener) -> None:
    _listeners.append(listener)


def unsubscribe(listener: Listener) -> None:
    if listener in _listeners:
        _listeners.remove(listener)


def report(stage: str, done: int, total: int) -> None:
    for listener in list(_listeners):
        listener(stage, done, total)
