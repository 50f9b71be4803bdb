"""`digest` as a user types it, run in this process (the tests share one Prefect server)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


@contextmanager
def digest_cli() -> Iterator[Callable]:
    """Yields run(*args) -> click Result; Prefect logs at WARNING meanwhile."""
    from typer.testing import CliRunner

    from flows.cli import app

    runner = CliRunner()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PREFECT_LOGGING_LEVEL", "WARNING")
        yield lambda *args: runner.invoke(app, [str(a) for a in args])


@contextmanager
def passing_cli() -> Iterator[Callable]:
    """Yields run(*args) -> click Result, failing the test on a non-zero exit."""
    with digest_cli() as digest:
        def run(*args):
            result = digest(*args)
            assert result.exit_code == 0, result.output
            return result
        yield run


def json_query(cli: Callable, warehouse: Path) -> Callable[[str], list[dict]]:
    """query(sql) -> rows, through `digest query --format json`."""
    def run(sql: str) -> list[dict]:
        result = cli("query", sql, "--warehouse", warehouse, "--format", "json")
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)
    return run
