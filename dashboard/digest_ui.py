"""What every dashboard page shares: the warehouse path, cached read-only queries, safe text.

Safety rules kept here so pages cannot forget them:
- every query takes user input as bound parameters (`query(sql, params)`); SQL text is fixed;
- text from the data goes through `st.dataframe`/`st.text`, or `md_escape` before any Markdown.
"""

from __future__ import annotations

import os
from pathlib import Path

import altair as alt
import duckdb
import polars as pl
import streamlit as st

from flows import analytics
from flows.report import escape_md
from flows.settings import Settings
from transforms.terms import readable_text


def warehouse_path() -> Path:
    """DIGEST_WAREHOUSE (set by `digest dashboard --warehouse`), else the settings default."""
    env = os.environ.get("DIGEST_WAREHOUSE")
    return Path(env) if env else Settings().warehouse


@st.cache_data(ttl=900, max_entries=512, show_spinner=False)
def _cached_query(path: str, version: tuple[int, int, int], sql: str, params: dict | list) -> pl.DataFrame:
    # `version` is part of the cache key only: a newly published snapshot gets fresh answers.
    return analytics.query(Path(path), sql, params)


def query(sql: str, params: dict | list | tuple = ()) -> pl.DataFrame:
    """Run read-only SQL on the published warehouse (opened and closed per query), user input
    only ever as bound parameters: `$name` with a dict or `?` with a list. A warehouse that
    cannot be read stops the page with one message (it was a stack trace on every page)."""
    path = warehouse_path()
    try:
        return _cached_query(str(path), analytics.snapshot_version(path), sql,
                             params if isinstance(params, dict) else list(params))
    except (analytics.WarehouseUnavailable, duckdb.Error) as err:
        st.error(_unreadable(err))
        st.text(f"Warehouse: {path}")
        st.stop()


def _unreadable(err: Exception) -> str:
    first = md_escape(str(err).splitlines()[0])
    if isinstance(err, analytics.WarehouseUnavailable):
        return f"The warehouse cannot be opened: {first}"
    if isinstance(err, duckdb.CatalogException):  # a DuckDB file from elsewhere, or from before the marts
        return f"This DuckDB file is not a digest warehouse, or lacks the marts: {first}. Build one with `digest ingest PATH`."
    return f"The warehouse could not be read: {first}"


def scalar_row(sql: str, params: dict | list | tuple = ()) -> dict:
    frame = query(sql, params)
    return frame.row(0, named=True) if frame.height else {}


def require_warehouse() -> None:
    """Stop the page with a clear message when there is nothing to show."""
    path = warehouse_path()
    if not path.is_file():
        st.error("No warehouse found. Build one with `digest ingest PATH`, then reload.")
        st.text(f"Looked for: {path}")
        st.stop()
    query("SELECT 1 FROM marts.warehouse_summary LIMIT 0")  # not DuckDB, no marts, locked: said here, once


# (A bare URL may still be shown as a link to itself; long free text goes to st.text instead.)
md_escape = escape_md


def fmt_int(value: object) -> str:
    return "–" if value is None else f"{int(value):,}"


COUNT_AXIS = alt.Axis(format="d", tickMinStep=1)  # counts: no 0.5 ticks
# Period names of the pages → the step between two periods, for fill_gaps.
EVERY = {"Day": "1d", "Week": "1w", "Month": "1mo"}


def bar_chart(frame: pl.DataFrame, label: str, value: str, title: str, limit: int = 15,
              color: str | None = None) -> None:
    """Horizontal bars, largest first: readable with long category and author names."""
    data = frame.sort([value, label], descending=[True, False]).head(limit)
    if data.is_empty():
        st.caption(f"{title}: nothing yet.")
        return
    encoding = {
        "x": alt.X(f"{value}:Q", title=value.replace("_", " "), axis=COUNT_AXIS),
        "y": alt.Y(f"{label}:N", sort="-x", title=None, axis=alt.Axis(labelLimit=320)),
        "tooltip": [alt.Tooltip(f"{label}:N"), alt.Tooltip(f"{value}:Q")],
    }
    if color:
        encoding["color"] = alt.Color(f"{color}:N")
    # One readable band per bar; the element's height also holds the title and the x axis.
    plot_height = 26 * data.height
    chart = alt.Chart(data.to_pandas(), title=title).mark_bar().encode(**encoding).properties(height=plot_height)
    st.altair_chart(chart, width="stretch", height=plot_height + 100)


def table(frame: pl.DataFrame, **kwargs) -> None:
    """st.dataframe (cells shown as plain text, never Markdown) with dates shown as dates and
    64-bit ids as text, since browsers cannot show integers above 2^53 exactly."""
    ids = [c for c, t in frame.schema.items() if c.endswith("_id") and t.is_integer()]
    config = {c: st.column_config.DateColumn(format="YYYY-MM-DD") for c, t in frame.schema.items() if t == pl.Date}
    config |= {c: st.column_config.DatetimeColumn(format="YYYY-MM-DD HH:mm:ss")
               for c, t in frame.schema.items() if isinstance(t, pl.Datetime)}
    st.dataframe(frame.with_columns(pl.col(ids).cast(pl.String)), hide_index=True, column_config=config, **kwargs)


def fill_gaps(frame: pl.DataFrame, x: str, y: str, every: str, color: str | None = None) -> pl.DataFrame:
    """Every period from the first to the last (`every`: "1d", "1w", "1mo") for every series,
    with y = 0 where the data has no row: a line across an empty period would draw an invented
    slope. `x` holds period starts (dates)."""
    if frame.is_empty():
        return frame
    periods = pl.date_range(frame[x].min(), frame[x].max(), interval=every, eager=True).alias(x).to_frame()
    grid = periods.join(frame.select(color).unique(), how="cross") if color else periods
    keys = [x, color] if color else [x]
    return (grid.join(frame, on=keys, how="left")
            .with_columns(pl.col(y).fill_null(0))
            .sort(keys))


def line_chart(frame: pl.DataFrame, x: str, y: str, title: str, color: str | None = None,
               every: str | None = None) -> None:
    """A trend over time; one line per `color` value. With `every` ("1d", "1w", "1mo"), periods
    without data are drawn as zero (fill_gaps), not bridged by a straight line."""
    if frame.is_empty():
        st.caption(f"{title}: no dated listings yet.")
        return
    if every:
        frame = fill_gaps(frame.with_columns(pl.col(x).cast(pl.Date)), x, y, every, color)
    encoding = {
        "x": alt.X(f"{x}:T", title=None),
        "y": alt.Y(f"{y}:Q", title=y.replace("_", " "), axis=COUNT_AXIS),
        "tooltip": [alt.Tooltip(f"{x}:T"), alt.Tooltip(f"{y}:Q")] + ([alt.Tooltip(f"{color}:N")] if color else []),
    }
    if color:
        encoding["color"] = alt.Color(f"{color}:N", title=None)
    chart = alt.Chart(frame.to_pandas(), title=title).mark_line(point=True).encode(**encoding)
    st.altair_chart(chart, width="stretch")


def readable(text: str | None) -> str | None:
    """An abstract as a reader wants it: LaTeX such as `$3\\times$` shown as "3×" (plain text
    still: never rendered as Markdown)."""
    return readable_text(text)
