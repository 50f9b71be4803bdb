"""CLI commands for analytics: docs, export, dashboard."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `digest` app."""
