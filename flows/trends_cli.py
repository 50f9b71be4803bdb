"""`digest trends`: the rising and new terms of the latest week or month (marts.rising_terms,
marts.new_terms), read-only."""

from __future__ import annotations

import datetime as dt
from enum import Enum
from typing import Annotated, Optional

import typer

from flows.analytics_cli import WarehouseOpt, _warehouse, read_errors, table_text, write_csv, write_json


class Period(str, Enum):
    week = "week"
    month = "month"


class TrendsFormat(str, Enum):
    table = "table"
    csv = "csv"
    json = "json"


# Rising terms of each period from $since (default: the latest period only, the one of the last
# listing: a week of relistings only has no rising term, not last month's); with a category (any case),
# those of its papers (the test itself is over all papers: a category's share of a term is
# shown beside it, not tested on its own).
LATEST_SQL = "SELECT date_trunc($period, max(listed_on))::DATE AS period_start FROM main.fact_listing"
RISING_SQL = f"""
WITH latest AS ({LATEST_SQL}),
in_category AS (
    SELECT b.term_id, date_trunc($period, p.first_listed_on)::DATE AS period_start,
           count(DISTINCT p.paper_id) AS n_papers_in_category
    FROM main.bridge_paper_term b
    JOIN main.dim_paper p USING (paper_id)
    JOIN main.bridge_paper_category pc USING (paper_id)
    JOIN main.dim_category c USING (category_id)
    WHERE $category IS NOT NULL AND (lower(c.code) = lower($category) OR lower(c.parent_code) = lower($category))
    GROUP BY ALL
)
SELECT r.period_start, r.rising_rank, r.term, r.n_papers, r.n_papers_before, r.n_all_papers,
       round(r.share_of_papers, 4) AS share, round(r.share_before, 4) AS share_before, r.p_value,
       r.within_term, i.n_papers_in_category
FROM marts.rising_terms r
LEFT JOIN in_category i USING (term_id, period_start)
WHERE r.period = $period AND r.is_rising
  AND r.period_start >= coalesce($since, (SELECT period_start FROM latest))
  AND ($category IS NULL OR i.n_papers_in_category > 0)
ORDER BY r.period_start DESC, r.rising_rank
LIMIT $limit
"""


def trends(
    by: Annotated[Period, typer.Option("--by", help="Period: week (ISO, Monday start) or month.")] = Period.week,
    category: Annotated[Optional[str], typer.Option("--category", "-c", help="Only terms with papers in this category or parent (cs.LG, cs, \"Deep Learning\").")] = None,
    since: Annotated[Optional[dt.datetime], typer.Option("--since", formats=["%Y-%m-%d"], help="Every period starting on or after this date (default: the latest period).")] = None,
    output: Annotated[TrendsFormat, typer.Option("--format", "-f", help="table, csv or json.")] = TrendsFormat.table,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, help="Rows at most.")] = 50,
    warehouse: WarehouseOpt = None,
) -> None:
    """Rising terms: key phrases of the abstracts whose share of new papers grew against the 4
    periods before (exact binomial test, at least 3 papers; see marts.rising_terms).

    Example: digest trends --by month --category cs.LG --since 2027-01-01 --format csv
    """
    from flows import analytics
    from transforms.categories import canonical_code

    category = canonical_code(category) if category else None  # an alias: math.IT is stored as cs.IT
    params = {"period": by.value, "category": category, "limit": limit,
              "since": since.date() if since else None}
    # (a DuckDB file that is no warehouse, or one from before the marts: DuckDB's first line, not a traceback)
    with read_errors(), analytics.open_read_only(_warehouse(warehouse)) as con:
        frame = con.sql(RISING_SQL, params=params).pl()
        latest = con.sql(LATEST_SQL, params={"period": by.value}).fetchall()[0][0]
    if not category:
        frame = frame.drop("n_papers_in_category")
    if output is TrendsFormat.csv:
        write_csv([frame])
    elif output is TrendsFormat.json:
        write_json([frame])
    elif frame.is_empty():
        typer.echo(f"no rising terms per {by.value}" + (f" in {category}" if category else "")
                   + (f" since {since.date()}" if since else f" in the latest {by.value} ({_period_name(latest, by)})"))
    else:
        typer.echo(table_text(frame, tbl_rows=-1, tbl_cols=-1, fmt_str_lengths=60, tbl_hide_dataframe_shape=True,
                              tbl_hide_column_data_types=True))


def _period_name(start: dt.date | None, by: Period) -> str:
    if start is None:
        return "no dated listing yet"
    return f"the week of {start}" if by is Period.week else start.strftime("%B %Y")


def register(app: typer.Typer) -> None:
    """Add this module's commands to the `digest` app."""
    app.command()(trends)
