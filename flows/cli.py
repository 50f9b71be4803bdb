"""`digest`: the command line (GUIDE.md §4)."""

from __future__ import annotations

import atexit
import gc
import json
import os
import sys
import traceback
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer
from typer.core import TyperCommand

from flows.analytics_cli import WarehouseOpt, fail as _fail, read_errors, table_text, visible, write_csv, write_json
from flows.settings import Settings, apply_prefect_defaults

apply_prefect_defaults()

HELP = """Turn research-paper digests into a DuckDB warehouse.

Examples:

  digest ingest data/samples --warehouse papers.duckdb

  digest query "SELECT name, n_papers FROM dim_author ORDER BY n_papers DESC LIMIT 10"

  digest status        digest audit        digest verify        digest config

Settings: flags, then DIGEST_* environment variables (or .env), then defaults (digest config).

Exit codes: 0 done (quarantined records included) · 1 run or check failed · 2 bad usage or query error · 130 Ctrl-C.

Errors print one line; add --verbose (ingest) for the full trace.
"""

app = typer.Typer(
    help=HELP,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class OutputFormat(str, Enum):
    table = "table"
    csv = "csv"
    json = "json"


@app.callback()
def _settings_first() -> None:
    # A terminal or file whose encoding lacks a character (cp1252 on Windows, PYTHONIOENCODING)
    # shows it as an escape: a UnicodeEncodeError traceback was all it said. (CSV and JSON are
    # written as UTF-8 bytes: analytics_cli.write_bytes.)
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="backslashreplace")
    # Settings are read before any command runs: a bad DIGEST_* value (or .env line) is one line
    # and exit 2, not pydantic's traceback from whichever command read it first.
    from pydantic import ValidationError

    from flows.settings import settings_problem

    try:
        Settings()
    except ValidationError as err:
        _fail(f"bad setting: {settings_problem(err)}", 2)
    except UnicodeDecodeError as err:  # the .env file: a traceback from every command
        _fail(f"bad setting: .env is not UTF-8 text ({err.reason} at byte {err.start}): save it as UTF-8", 2)


@app.command()
def ingest(
    paths: Annotated[Optional[list[Path]], typer.Argument(help="Files or folders (recursive). Default: the bundled samples.")] = None,
    warehouse: WarehouseOpt = None,
    batch_mb: Annotated[Optional[int], typer.Option(help="Megabytes of files per parse task.", min=1)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Show the full trace on errors.")] = False,
) -> None:
    """Ingest digest files or folders into the warehouse, then print a summary.

    Example: digest ingest ~/digests --warehouse papers.duckdb
    """
    os.environ.setdefault("PREFECT_LOGGING_LEVEL", "INFO" if verbose else "CRITICAL")
    from flows import prefect_server, shutdown

    shutdown.install()  # SIGTERM: exit 143 within seconds, lock released, no staging left

    settings = Settings()
    target = warehouse or settings.warehouse
    if target.is_dir():  # `-w ""` is the working folder: the run failed late, "Is a directory"
        _fail(f"the warehouse {target} is a folder: name a file, e.g. {target / 'warehouse.duckdb'}", 2)
    # Starts while the imports below run. Not for Dask workers on other hosts: they could not
    # reach a server on this host's loopback address (Prefect sends them its settings).
    remote_workers = settings.task_runner == "dask" and settings.dask_address
    server = None if remote_workers else prefect_server.start_early()
    sources = paths or [settings.samples]
    if not settings.flow_run_when_nothing_new:
        from flows.discovery import summary_if_nothing_new

        noop = summary_if_nothing_new(sources, target, settings)
        if noop is not None:  # the early server, still starting, ends with this process (atexit)
            _print_summary(noop, as_json)
            return
    # Prefect and the flow's modules create ~125k tracked objects that live as long as the
    # process: the cyclic collector is paused while they load (it found nothing to free there, in
    # 0.15-0.2 s of passes), and at exit it is not run over them again (0.4-0.5 s measured on a
    # no-op; the memory is returned with the process anyway).
    collecting = gc.isenabled()
    gc.disable()
    try:
        from flows import progress
        from flows.ingest import configured_ingest
    finally:
        if collecting:
            gc.enable()
    atexit.register(gc.freeze)

    # A bar in a terminal; plain progress lines in logs and pipes.
    bar = (_progress_bar() if sys.stderr.isatty() else (None, _log_progress)) if not as_json else None
    if bar:
        progress.subscribe(bar[1])
    try:
        if server:
            server.adopt()
        summary = configured_ingest(settings)(paths=sources, warehouse=target,
                                              batch_bytes=batch_mb * 1024 * 1024 if batch_mb else None)
    except Exception as err:  # noqa: BLE001 - one clear line, trace on demand
        if shutdown.requested(wait_s=0.2):
            # The watcher interrupted DuckDB before the main thread ran the signal handler: the
            # error ("Query interrupted", or Prefect's teardown) ends a terminated run, exit 143.
            # The wait: while Prefect's handler is installed only the watcher thread sets the flag.
            if verbose:
                traceback.print_exc()
            _fail(f"interrupted by SIGTERM ({err})", shutdown.EXIT_CODE)
        if verbose:
            raise
        _fail(f"ingest failed: {err}", 1)
    finally:
        if bar:
            if bar[0]:
                bar[0].stop()
            progress.unsubscribe(bar[1])
    _print_summary(summary, as_json)


def _print_summary(summary: dict, as_json: bool) -> None:
    typer.echo(json.dumps(summary, indent=2) if as_json else _summary_text(summary))


def _summary_text(s: dict) -> str:
    return (
        f"ingest {s['run_id']} → {visible(s['warehouse'])}\n"
        f"  files       {s['files_seen']} seen, {s['n_files_new']} new, {s['n_files_skipped']} skipped\n"
        f"  listings    {s['n_listings']} loaded\n"
        f"  papers      {s['n_new_papers']} new, {s['n_papers']} in total\n"
        f"  authors     {s['n_authors']} in total\n"
        f"  quarantined {s['n_quarantined']} spans"
        + ("  (see the quarantine table)" if s["n_quarantined"] else "")
        + f"\n  time        {s['seconds']:.1f} s" + ("" if s.get("flow_run", True) else " (nothing new: no flow run)")
        + (f"\nwarning: {visible(s['warning'])}" if s.get("warning") else "")
    )


def _log_progress(stage: str, done: int, total: int) -> None:
    typer.echo(f"{stage}: {done}/{total} files", err=True)


def _progress_bar():
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   transient=True)
    task_id = bar.add_task("files parsed", total=None)
    bar.start()

    def update(stage: str, done: int, total: int) -> None:
        bar.update(task_id, completed=done, total=total)

    return bar, update


class _SqlCommand(TyperCommand):
    """SQL that begins with a comment ("-- top papers\nSELECT ...") is the query, not an unknown
    option: an argument that starts with "-" and holds a space or line break cannot be an option."""

    def parse_args(self, ctx, args: list[str]) -> list[str]:
        sql = [a for a in args if a.startswith("-") and any(c.isspace() for c in a)]
        if sql and "--" not in args:  # after "--", click reads what follows as arguments
            args = [a for a in args if a not in sql] + ["--", *sql]
        return super().parse_args(ctx, args)


# Rows the table format shows at most: formatting a table held ~14 KB a row (5 GB for 345k rows).
TABLE_ROWS = 1_000


@app.command(cls=_SqlCommand)
def query(
    sql: Annotated[str, typer.Argument(help="One SELECT statement (read-only).")],
    warehouse: WarehouseOpt = None,
    output: Annotated[OutputFormat, typer.Option("--format", "-f", help=f"table (the first {TABLE_ROWS:,} rows), csv or json.")] = OutputFormat.table,
    allow_files: Annotated[bool, typer.Option("--allow-files", help="Let the query read other files (read_csv, read_parquet on a path).")] = False,
) -> None:
    """Run one read-only SELECT on the warehouse. Nothing else runs: no COPY, ATTACH, INSTALL,
    SET, PRAGMA or second statement, and no file but the warehouse is read unless --allow-files.
    CSV and JSON hold every row, written as they come; the table shows the first rows. JSON
    writes an integer column holding a value past ±(2^53 - 1), as the 64-bit ids do, as strings
    (the whole column): JSON readers such as jq and JavaScript round such numbers.

    Example: digest query "SELECT name, n_papers FROM dim_author ORDER BY n_papers DESC LIMIT 5"
    """
    from flows import analytics

    target = _existing(warehouse)
    with read_errors(), analytics.open_read_only(target, allow_files) as con:
        result = analytics.checked_query(con, sql)
        if output is not OutputFormat.table:
            with analytics.result_batches(result) as frames:
                (write_csv if output is OutputFormat.csv else write_json)(frames)
            return
        frame, total = analytics.result_head(result, TABLE_ROWS)
    typer.echo(table_text(frame, tbl_rows=-1, tbl_cols=-1, fmt_str_lengths=80, tbl_hide_dataframe_shape=True,
                          tbl_hide_column_data_types=True))
    if total > frame.height:
        typer.echo(f"{total - frame.height:,} more rows not shown ({total:,} in all): --format csv gives them all", err=True)


def _existing(warehouse: Optional[Path]) -> Path:
    target = warehouse or Settings().warehouse
    if not target.is_file():
        _fail(f"no warehouse at {target}: run `digest ingest` first", 2)
    return target


@app.command()
def audit(
    warehouse: WarehouseOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per file.")] = False,
) -> None:
    """Prove every input line is accounted for: in a listing, in quarantine, or a separator;
    and run the blocking checks over every row (a run checks the rows it wrote). Exits 1 when
    any file has a gap or an overlap, or a check fails.

    Example: digest audit --warehouse papers.duckdb
    """
    import polars as pl

    from flows.integrity import audit_report, check_report
    from flows.load import describe_failures

    with read_errors():
        report = audit_report(_existing(warehouse))
        failed = {name: n for name, n in check_report(_existing(warehouse)).items() if n}
    bad = report.filter(pl.col("status") != "ok")
    summary = "blocking checks: " + (describe_failures(failed) if failed else "all pass")
    if as_json:  # the files as before; a failed check on stderr (and the exit code)
        typer.echo(json.dumps(report.to_dicts(), default=str, indent=2))
        if failed:
            typer.echo(summary, err=True)
    else:
        typer.echo(f"{report.height} file versions, {int(report['n_lines'].sum() or 0)} lines: "
                   f"{int(report['lines_in_listings'].sum() or 0)} in listings, "
                   f"{int(report['lines_in_quarantine'].sum() or 0)} quarantined, "
                   f"{int(report['n_separator_lines'].sum() or 0)} separators; {bad.height} files with problems")
        if bad.height:
            typer.echo(table_text(bad, tbl_rows=-1, fmt_str_lengths=80))
        typer.echo(summary)
    if bad.height or failed:
        raise typer.Exit(1)


@app.command()
def verify(
    warehouse: WarehouseOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Per-table rows and checksums as JSON.")] = False,
) -> None:
    """Print an order-independent checksum of the warehouse content (run bookkeeping left
    out): two warehouses with the same checksum hold the same data.

    Example: digest verify --warehouse papers.duckdb
    """
    from flows.integrity import content_checksums, warehouse_checksum

    with read_errors():
        sums = content_checksums(_existing(warehouse))
    total = warehouse_checksum(sums)
    if as_json:
        typer.echo(json.dumps({"checksum": total, "tables": {t: {"rows": n, "checksum": d} for t, (n, d) in sums.items()}}, indent=2))
    else:
        for table, (n, digest) in sums.items():
            typer.echo(f"{table:<24} {n:>10} rows  {digest}")
        typer.echo(f"checksum {total}")


@app.command()
def status(
    warehouse: WarehouseOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print as JSON.")] = False,
) -> None:
    """Show the warehouse: files, listings, papers, authors, quarantine, and the last run.

    Example: digest status --json
    """
    from flows.analytics import open_read_only

    target = _existing(warehouse)
    with read_errors(), open_read_only(target) as con:
        counts = dict(zip(
            ["files", "listings", "papers", "authors", "categories", "quarantined_spans"],
            # current file versions, as marts.warehouse_summary (not read: a failed first run leaves no marts)
            con.execute("SELECT (SELECT count(*) FROM dim_source_file WHERE is_current), (SELECT count(*) FROM fact_listing), "
                        "(SELECT count(*) FROM dim_paper), (SELECT count(*) FROM dim_author), "
                        "(SELECT count(*) FROM dim_category), (SELECT count(*) FROM quarantine "
                        "SEMI JOIN (FROM dim_source_file WHERE is_current) USING (source_file_id))").fetchall()[0],
        ))
        last = con.sql("SELECT run_id, status, started_at, finished_at, n_files_new, n_listings, n_new_papers, "
                       "n_quarantined, message FROM ingest_run ORDER BY started_at DESC LIMIT 1").pl().to_dicts()
    info = {"warehouse": str(target), **counts, "last_run": last[0] if last else None}
    if as_json:
        typer.echo(json.dumps(info, default=str, indent=2))
        return
    typer.echo(f"warehouse {visible(target)}")
    for key, value in counts.items():
        typer.echo(f"  {key:<18} {value}")
    if last:
        run = last[0]
        typer.echo(f"  last run           {run['status']} at {run['finished_at']}: {run['n_files_new']} files, "
                   f"{run['n_listings']} listings, {run['n_new_papers']} new papers"
                   + (f" ({visible(run['message'])})" if run["message"] else ""))


@app.command()
def config(as_json: Annotated[bool, typer.Option("--json", help="Print as JSON.")] = False) -> None:
    """Print the effective settings (flags aside): DIGEST_* variables, .env, defaults."""
    values = Settings().model_dump(mode="json")
    if as_json:
        typer.echo(json.dumps(values, indent=2))
    else:
        for key, value in values.items():
            typer.echo(f"DIGEST_{key.upper():<24} {value}")


@app.command()
def serve() -> None:
    """Serve the `ingest-landing` flow on the cron schedule of DIGEST_SCHEDULE: new files in
    DIGEST_LANDING are ingested, then archived under DIGEST_ARCHIVE/YYYY/MM/DD. Needs a Prefect
    server (`prefect server start`, then PREFECT_API_URL=http://127.0.0.1:4200/api).

    Example: DIGEST_SCHEDULE="0 6 * * *" digest serve
    """
    from flows.landing import landing_deployment, refuse_archive_inside_landing, refuse_missing_landing, serve_deployment

    if not os.environ.get("PREFECT_API_URL"):
        _fail("digest serve needs a Prefect server: run `prefect server start` and set "
              "PREFECT_API_URL=http://127.0.0.1:4200/api (the temporary server cannot schedule)", 2)
    settings = Settings()
    try:  # at start, not at the first scheduled run
        refuse_archive_inside_landing(settings.landing, settings.archive)
        refuse_missing_landing(settings.landing)
    except (ValueError, FileNotFoundError) as err:
        _fail(str(err), 2)
    try:
        deployment = landing_deployment(settings)
    except ValueError as err:  # Prefect's check of the cron string (a pydantic error is one too)
        _fail(f"DIGEST_SCHEDULE={settings.schedule!r}: {str(err).splitlines()[-1].strip()}", 2)
    import httpx

    try:
        serve_deployment(deployment)
    except httpx.HTTPError as err:  # the server down or the URL wrong: two chained tracebacks were all it said
        _fail(f"the Prefect server at PREFECT_API_URL={os.environ['PREFECT_API_URL']} did not answer: {err}", 1)


# Command groups kept in their own modules; each adds its commands to `app`.
from flows import analytics_cli  # noqa: E402

analytics_cli.register(app)
from flows import trends_cli; trends_cli.register(app)  # noqa: E402,E702 (issue 16)

if __name__ == "__main__":
    app()
