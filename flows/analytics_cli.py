"""CLI commands for analytics: docs, export, dashboard."""

from __future__ import annotations

import json
import math
import os
import re
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Optional

import typer


def _expanded(path: Optional[Path]) -> Optional[Path]:
    # `--warehouse=~/x.duckdb` reaches us unexpanded: bash expands a tilde only at a word's start
    return path.expanduser() if path else path


WarehouseOpt = Annotated[Optional[Path], typer.Option("--warehouse", "-w", callback=_expanded,
                                                      help="DuckDB file (default: DIGEST_WAREHOUSE or data/warehouse.duckdb).")]


def _warehouse(path: Path | None) -> Path:
    from flows.settings import Settings

    target = path or Settings().warehouse
    if not target.is_file():
        fail(f"no warehouse at {target}: run `digest ingest` first")
    return target


@contextmanager
def read_errors() -> Iterator[None]:
    """A read command's failure as one accurate line and exit 2: no warehouse, not a DuckDB
    file, locked by a writer, a refused statement, DuckDB's own error (first line), or a file
    that cannot be written or read (the export's folder is a file, a disk full). Ctrl-C stops a
    DuckDB statement too: "error: interrupted", exit 130."""
    import duckdb

    from flows import interrupts
    from flows.analytics import StatementRefused, WarehouseUnavailable

    try:
        with interrupts.ctrl_c_interrupts():
            yield
    except KeyboardInterrupt:
        if interrupts.terminated():
            fail("interrupted by SIGTERM", interrupts.TERM_EXIT_CODE)
        fail("interrupted", interrupts.EXIT_CODE)
    except BrokenPipeError:  # `| head`: ended quietly, as click does
        raise
    except (WarehouseUnavailable, StatementRefused) as err:
        fail(f"{'refused: ' if isinstance(err, StatementRefused) else ''}{err}")
    except duckdb.Error as err:
        fail(_explain(str(err).splitlines()[0]))
    except OSError as err:  # a file the command writes (export, docs) or reads: a traceback was all it said
        fail(f"{err.filename}: {err.strerror or err}" if err.filename else str(err))


# JSON readers (jq, JavaScript) hold a number as a double: an integer past ±(2^53 - 1) loses its
# last digits (paper_id 2866790353306518606 read back as ...500, which matches no row).
SAFE_INTEGER = 2**53 - 1


def json_text(value, indent: int | None = None) -> str:
    """JSON that any reader takes: NaN and infinities (which json.dumps writes bare, and JSON
    has not) as the strings "NaN", "Infinity" and "-Infinity"; decimals as numbers (a SUM of
    integers is a HUGEINT, a Decimal here: it came out as the string "55"), exactly: integral
    ones as integers, others as floats when their digits fit one, else as text; dates as text;
    an integer past ±(2^53 - 1), which JSON readers round, as text (`digest query` makes the
    whole column text: analytics.result_batches)."""
    return json.dumps(_json_ready(value), default=str, ensure_ascii=False, indent=indent, allow_nan=False)


def write_csv(frames: Iterable) -> None:
    """Polars frames as one CSV, a frame at a time, the header from the first."""
    for i, frame in enumerate(frames):
        write_bytes(_flat(frame).write_csv(include_header=i == 0).encode())


def write_json(frames: Iterable) -> None:
    """Polars frames as one JSON array of an object per row, as json.dumps(rows, indent=2) writes
    it, a frame at a time."""
    opening = b"["
    for frame in frames:
        if frame.height:
            rows = json_text(frame.to_dicts(), indent=2)  # "[\n  {...},\n  {...}\n]"
            write_bytes(opening + rows[1:-2].encode())
            opening = b","
    write_bytes(b"[]\n" if opening == b"[" else b"\n]\n")


# C0 and C1 control characters, DEL among them: stored text (a quarantined line, a title, a file
# name) holding an ESC sequence set the terminal's title or its colours when printed raw.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_CONTROLS = [chr(c) for c in (*range(0x20), *range(0x7F, 0xA0))]


def visible(text: object) -> str:
    """Text for a terminal: control characters as escapes ("\\x1b")."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", str(text))


def table_text(frame, **config) -> str:
    """A frame as the read commands print it (pl.Config `config`), control characters escaped:
    in text cells before the table is laid out (its borders line up), then in what is left
    (text inside lists and structs)."""
    import polars as pl

    escaped = frame.with_columns(pl.col(pl.String).str.replace_many(_CONTROLS, [visible(c) for c in _CONTROLS]))
    with pl.Config(**config):
        text = str(escaped)
    return "\n".join(visible(line) for line in text.split("\n"))


def write_bytes(data: bytes) -> None:
    """Data (CSV, JSON) to stdout as its UTF-8 bytes, exactly: click's echo strips ANSI sequences
    from the text when stdout is not a terminal (a quarantined line's ESC sequence was lost in
    `-f csv > file`), and a terminal's encoding may not hold every character."""
    sys.stdout.flush()
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def _flat(frame):
    """CSV holds no lists or structs (an author list, a row of a struct): those cells are
    written as JSON text instead."""
    import polars as pl

    nested = [name for name, dtype in frame.schema.items() if dtype.is_nested()]
    return frame.with_columns(
        pl.Series(name, [None if v is None else json_text(v) for v in frame[name].to_list()], dtype=pl.String)
        for name in nested)


def _json_ready(value):
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, Decimal):
        if value == value.to_integral_value():
            return _json_ready(int(value))
        return float(value) if len(value.as_tuple().digits) <= 15 else str(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > SAFE_INTEGER:
        return str(value)
    if isinstance(value, dict):
        return {key: _json_ready(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_json_ready(item) for item in value]
    return value


def _explain(message: str) -> str:
    # Not "reading needs --allow-files": the statement refused may be one that writes, which
    # --allow-files never permits either.
    if "disabled by configuration" in message and "file" in message:
        return f"{message} (other files are off limits; --allow-files lets a query read them, never write)"
    return message


def fail(message: str, code: int = 2) -> None:
    """One line "error: ..." on stderr (`one_line`), then exit `code`."""
    typer.secho(f"error: {one_line(message)}", fg=typer.colors.RED, err=True)
    raise typer.Exit(code)


MAX_LINE = 1_000  # characters of an error's line


def one_line(message: object) -> str:
    """The message with control characters escaped, at most `MAX_LINE` characters: its
    beginning (what failed) and its end (what to do, in our own messages). A server's error can
    hold the whole request: Prefect's refusal of a run named each of its 20,000 paths (3 MB)."""
    shown = visible(message)
    if len(shown) <= MAX_LINE:
        return shown
    head, tail = MAX_LINE * 2 // 3, MAX_LINE // 4
    return f"{shown[:head]} … [{len(shown) - head - tail:,} characters left out] … {shown[-tail:]}"


def docs(
    warehouse: WarehouseOpt = None,
    out: Annotated[Optional[Path], typer.Option("--out", "-o", help="Markdown file to write, or - for stdout (default: docs/data-dictionary.md).")] = None,
) -> None:
    """Write the data dictionary (every table, view and column with its description) as Markdown.

    Example: digest docs --out docs/data-dictionary.md
    """
    from flows import analytics

    with read_errors(), analytics.open_read_only(_warehouse(warehouse)) as con:
        text = analytics.data_dictionary(con)
    if out == Path("-"):
        typer.echo(text, nl=False)
        return
    target = out or analytics.DATA_DICTIONARY
    with read_errors():
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    typer.echo(f"data dictionary → {target}")


def export(
    parquet: Annotated[Path, typer.Option("--parquet", help="Folder to write one Parquet file per table into.")],
    warehouse: WarehouseOpt = None,
    marts: Annotated[bool, typer.Option("--marts/--no-marts", help="Also write each marts view to DIR/marts/.")] = True,
) -> None:
    """Export the star schema as Parquet, one file per table, for tools that cannot open DuckDB.

    Example: digest export --parquet exports/
    """
    from flows import analytics

    # Files allowed: the export writes them (its SQL is ours, never the user's).
    with read_errors(), analytics.open_read_only(_warehouse(warehouse), allow_files=True) as con:
        written = analytics.export_parquet(con, parquet, with_marts=marts)
    typer.echo(f"{len(written)} Parquet files → {parquet}")


def dashboard(
    warehouse: WarehouseOpt = None,
    port: Annotated[int, typer.Option(help="Port on 127.0.0.1.")] = 8501,
) -> None:
    """Serve the dashboard on http://127.0.0.1:PORT (Streamlit, offline, read-only per query).

    Example: digest dashboard --port 8501
    """
    from flows import analytics

    argv, env = analytics.dashboard_command(_warehouse(warehouse), port)
    typer.echo(f"dashboard on http://127.0.0.1:{port}  (Ctrl-C to stop)")
    sys.stdout.flush()
    # Become the server process, so Ctrl-C and service managers' signals reach Streamlit itself.
    os.execve(argv[0], argv, env)


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `digest` app."""
    app.command()(docs)
    app.command()(export)
    app.command()(dashboard)
