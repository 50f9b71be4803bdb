"""What a run did, for people: a table of files and a Markdown summary, published as Prefect
artifacts, stored in ingest_run.report and printed by the CLI."""

from __future__ import annotations

import re

import duckdb
import polars as pl

from flows.run_stats import RunStats

# Every ASCII mark that Markdown, HTML or LaTeX ($...$) could interpret.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>$~&:\"'=^])")


def escape_md(text: object) -> str:
    """Text from the data made inert for Markdown (run reports, the dashboard): each special
    character is backslash-escaped, line breaks become spaces."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", "" if text is None else str(text)).replace("\n", " ")


# A table artifact of every file grows with the files, a row of path, counts and reason each
# (Prefect's server keeps every run's): the table is the files to look at first, and says where
# the rest are.
ARTIFACT_FILES = 1_000


def files_table(con: duckdb.DuckDBPyConnection, run_id: str, limit: int = ARTIFACT_FILES) -> pl.DataFrame:
    """The files the run saw, for its table artifact: those with quarantined spans, then the
    skipped ones with their reason, then the rest by path; at most `limit`, and then a last row
    that says how many more there are and where every file is."""
    files = con.sql(
        """
        WITH seen AS (
            SELECT path, 'ingested' AS status, format, encoding, n_listings, n_quarantined, NULL AS reason
            FROM dim_source_file WHERE run_id = $run_id
            UNION ALL
            SELECT path, 'skipped', NULL, NULL, 0, 0, reason FROM skipped_file WHERE run_id = $run_id
        )
        SELECT *, count(*) OVER () AS n_files FROM seen
        ORDER BY n_quarantined > 0 DESC, status = 'skipped' DESC, path LIMIT $limit
        """,
        params={"run_id": run_id, "limit": limit},
    ).pl()
    n_more = (files["n_files"][0] if files.height else 0) - files.height
    files = files.drop("n_files")
    if n_more <= 0:
        return files
    note = f"... and {n_more:,} more files: every one is in the tables dim_source_file and skipped_file (by run_id)"
    return pl.concat([files, pl.DataFrame({"path": [note]})], how="diagonal_relaxed")


def artifact_rows(files: pl.DataFrame) -> list[dict]:
    """The files table as rows for Prefect's table artifact (rendered as Markdown): paths and
    reasons come from file names, so they are escaped as the Markdown report escapes text."""
    return files.fill_null("").with_columns(
        pl.col(c).map_elements(escape_md, return_dtype=pl.String) for c in ("path", "reason")
    ).to_dicts()


def top_categories(con: duckdb.DuckDBPyConnection, run_id: str, limit: int = 5) -> pl.DataFrame:
    return con.sql(
        """
        SELECT c.code, c.name, count(*) AS n_listings
        FROM fact_listing f JOIN dim_category c USING (category_id)
        WHERE f.source_file_id IN (SELECT source_file_id FROM dim_source_file WHERE run_id = $run_id)
        GROUP BY ALL ORDER BY n_listings DESC, c.code LIMIT $limit
        """,
        params={"run_id": run_id, "limit": limit},
    ).pl()


def summary_markdown(stats: RunStats, top: pl.DataFrame, warning: str | None) -> str:
    lines = [
        "# Ingest run",
        "",
        f"- files: {stats.n_files_new} new, {stats.n_files_skipped} skipped",
        f"- listings loaded: {stats.n_listings}",
        f"- papers: {stats.n_new_papers} new, {stats.n_papers} in total",
        f"- authors: {stats.n_new_authors} new, {stats.n_authors} in total",
        f"- quarantined spans: {stats.n_quarantined}",
    ]
    if warning:
        lines += ["", f"**Warning:** {escape_md(warning)}"]
    if top.height:
        lines += ["", "## Top categories of this run", "", "| category | name | listings |", "|---|---|---|"]
        lines += [f"| {escape_md(r['code'])} | {escape_md(r['name'] or '')} | {r['n_listings']} |"
                  for r in top.iter_rows(named=True)]
    return "\n".join(lines)


def quarantine_warning(stats: RunStats) -> str | None:
    if not stats.n_quarantined:
        return None
    n = stats.n_quarantined
    spans = "span of input was" if n == 1 else "spans of input were"
    return f"{n} {spans} quarantined: see the quarantine table or `digest audit`"


def run_warning(con: duckdb.DuckDBPyConnection, stats: RunStats) -> str | None:
    """What the run's user must look at: quarantined spans, and files found but not read (too
    large, unreadable, a corrupt archive, vanished; the run's staged `stg_skipped`). Those were
    counted as "skipped" beside the unchanged files and nothing more was said: a file over
    max_file_bytes left the summary saying "1 skipped" only."""
    n_unread, path, reason = con.execute(
        "SELECT count(*), min(path), arg_min(reason, path) FROM stg_skipped").fetchall()[0]  # fetchone leaves the result open
    parts = [quarantine_warning(stats)]
    if n_unread:
        files = "1 file" if n_unread == 1 else f"{n_unread:,} files"
        more = f" and {n_unread - 1:,} more" if n_unread > 1 else ""
        parts.append(f"{files} could not be read: {path} ({reason}){more}; see the skipped_file table")
    parts.append(future_dates_warning(con))
    return "; ".join(p for p in parts if p) or None


def future_dates_warning(con: duckdb.DuckDBPyConnection) -> str | None:
    """This run's listings dated more than a year after today: a mistyped year ("2062" for
    2026) loads as a date, and every trend then runs to it (decades of empty weeks)."""
    n, on, path, line = con.execute(
        "SELECT count(*), min(l.listed_on), arg_min(f.path, l.listed_on), arg_min(l.line_start, l.listed_on) "
        "FROM stg_listings l JOIN new_files f USING (source_file_id) "
        "WHERE l.listed_on > current_date + INTERVAL 1 YEAR").fetchall()[0]
    if not n:
        return None
    listings = "1 listing is" if n == 1 else f"{n:,} listings are"
    return (f"{listings} dated more than a year ahead (from {on}, {path} line {line}): a mistyped year? "
            "Trends and dim_date run to the latest date")
