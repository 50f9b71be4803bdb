"""The warehouse writer: one DuckDB transaction per run.

Batches are staged as they finish parsing (temp tables), then merged into the star with set
SQL: the warehouse does the set work, so memory follows the batch, not the corpus. Merge rules
are the same order-independent rules as `transforms.dedupe`, so a re-run or an incremental run
ends where a fresh load of the same files would. Blocking checks run before the commit.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path

import duckdb
import polars as pl

from transforms.ids import ID_SQL
from transforms.pipeline import BatchResult

STAGING = ("stg_files", "stg_listings", "stg_papers", "stg_authors", "stg_categories", "stg_quarantine",
           "stg_skipped")


class WarehouseCheckError(RuntimeError):
    """A blocking check failed: the load was rolled back."""


@dataclass(frozen=True)
class RunStats:
    n_files_new: int
    n_files_skipped: int
    n_listings: int
    n_new_papers: int
    n_papers: int
    n_authors: int
    n_quarantined: int
    n_new_authors: int = 0


def schema_sql(name: str) -> str:
    return resources.files("schemas").joinpath(name).read_text(encoding="utf-8")


def connect(path: Path, read_only: bool = False) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect(str(path), read_only=read_only)
    con.execute(f"CREATE OR REPLACE TEMP MACRO stable_id(k) AS {ID_SQL.format('k')}")
    return con


def write_frame(con: duckdb.DuckDBPyConnection, sql: str, frame: pl.DataFrame) -> None:
    """Run `sql`, which reads `frame` under the name "frame" (DuckDB's replacement scan of the
    caller's locals). Not `register`: inside the load's one transaction every registered view is
    kept, with its Arrow data, until commit, so registering each batch held the whole run in
    memory (tests/test_memory.py; flat with the scan)."""
    assert isinstance(frame, pl.DataFrame)  # the name `frame` is what the SQL reads
    con.execute(sql)


def ensure_schema(con: duckdb.DuckDBPyConnection) -> None:
    con.execute(schema_sql("warehouse.sql"))
    con.execute(schema_sql("comments.sql"))


def known_files(path: Path) -> pl.DataFrame:
    """(path, sha256, size_bytes, mtime_ns) of every ingested file version; empty if no warehouse."""
    schema = {"path": pl.String, "sha256": pl.String, "size_bytes": pl.Int64, "mtime_ns": pl.Int64}
    if not path.exists():
        return pl.DataFrame(schema=schema)
    with connect(path, read_only=True) as con:
        tables = {r[0] for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}
        if "dim_source_file" not in tables:
            return pl.DataFrame(schema=schema)
        return con.sql("SELECT path, sha256, size_bytes, mtime_ns FROM dim_source_file").pl().cast(schema)


def run_checks(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    """Violations per check (all zero on a healthy warehouse)."""
    results = {}
    for block in schema_sql("checks.sql").split("-- name: ")[1:]:
        name, query = block.split("\n", 1)
        results[name.strip()] = con.execute(query).fetchall()[0][0]
    return results


def resolve_exact(con: duckdb.DuckDBPyConnection) -> None:
    """The default paper resolver: each new matcher key is a paper of its own unless the key
    is already known. A resolver maps every paper_key of stg_listings in paper_key_map."""
    con.execute("INSERT INTO paper_key_map SELECT DISTINCT paper_key, paper_key FROM stg_listings ON CONFLICT DO NOTHING")


def ensure_marts(con: duckdb.DuckDBPyConnection) -> None:
    """(Re)create the analytics views of schemas/marts/*.sql, in file-name order."""
    con.execute("CREATE SCHEMA IF NOT EXISTS marts")
    for sql_file in sorted(resources.files("schemas").joinpath("marts").iterdir(), key=lambda f: f.name):
        if sql_file.name.endswith(".sql"):
            con.execute(sql_file.read_text(encoding="utf-8"))


def audit(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Line accounting per file version (schemas/audit.sql)."""
    return con.sql(schema_sql("audit.sql")).pl()


class RunLoader:
    """Stage batches, then merge, check and commit, all in one transaction."""

    def __init__(self, con: duckdb.DuckDBPyConnection, run_id: str,
                 resolver: Callable[[duckdb.DuckDBPyConnection], None] = resolve_exact):
        self.con, self.run_id, self.resolver = con, run_id, resolver
        self.staged = False
        self.open = False

    def begin(self) -> None:
        ensure_schema(self.con)
        self.con.execute("BEGIN TRANSACTION")
        self.open = True

    def stage(self, batch: BatchResult) -> None:
        frames = dict(zip(STAGING, (batch.files, batch.listings, batch.papers, batch.authors,
                                    batch.categories, batch.quarantine, batch.skipped)))
        for table, frame in frames.items():
            if self.staged:
                write_frame(self.con, f"INSERT INTO {table} BY NAME SELECT * FROM frame", frame)
            else:
                write_frame(self.con, f"CREATE TEMP TABLE {table} AS SELECT * FROM frame", frame)
        self.staged = True

    def merge(self, ingested_at: dt.datetime) -> RunStats:
        if not self.staged:
            return RunStats(0, 0, 0, 0, *totals(self.con), 0)
        n_papers_before, n_authors_before = totals(self.con)
        params = {"run_id": self.run_id, "ingested_at": ingested_at}
        files_sql, papers_sql = MERGE_SQL.split("-- split: the paper resolver runs here")
        self._run_script(files_sql, params)
        self.con.execute("SET VARIABLE digest_run_id = ?", [self.run_id])  # for resolvers that record decisions
        self.resolver(self.con)
        self._run_script(papers_sql, params)
        from flows.terms import update_terms; update_terms(self.con, self.run_id)  # noqa: E702 (issue 16; local import: flows.terms is a later stage)
        ensure_marts(self.con)
        new, seen = self._count("new_files"), self._count("stg_files")
        n_listings = self._count("stg_listings")
        n_quarantined = self._count("stg_quarantine")
        papers, authors = totals(self.con)
        skipped = seen - new + self._count("stg_skipped")
        return RunStats(new, skipped, n_listings, papers - n_papers_before, papers, authors, n_quarantined,
                        max(authors - n_authors_before, 0))

    def _run_script(self, script: str, params: dict) -> None:
        for statement in filter(str.strip, script.split(";\n")):
            self.con.execute(statement, {k: v for k, v in params.items() if f"${k}" in statement})

    def check(self) -> None:
        failed = {name: n for name, n in run_checks(self.con).items() if n}
        gaps = audit(self.con).filter(pl.col("status") != "ok")
        if gaps.height:
            failed["every input line is accounted for (digest audit)"] = gaps.height
        if failed:
            raise WarehouseCheckError("blocking checks failed: " + "; ".join(f"{k} ({v} rows)" for k, v in failed.items()))

    def commit(self) -> None:
        self.con.execute("COMMIT")
        self.open = False

    def rollback(self) -> None:
        if self.open:
            self.con.execute("ROLLBACK")
            self.open = False

    def _count(self, table: str) -> int:
        return self.con.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0]


def totals(con: duckdb.DuckDBPyConnection) -> tuple[int, int]:
    """Papers and authors in the warehouse."""
    return con.execute("SELECT (SELECT count(*) FROM dim_paper), (SELECT count(*) FROM dim_author)").fetchall()[0]


def record_run(con: duckdb.DuckDBPyConnection, run_id: str, started_at: dt.datetime, status: str,
               n_files_seen: int, stats: RunStats | None, message: str | None = None,
               report: str | None = None) -> None:
    row = {"run_id": run_id, "started_at": started_at, "status": status, "n_files_seen": n_files_seen,
           **asdict(stats or RunStats(0, 0, 0, 0, 0, 0, 0)), "message": message, "report": report}
    ensure_schema(con)
    names = ", ".join(row)
    con.execute(
        f"INSERT OR REPLACE INTO ingest_run ({names}, finished_at) VALUES ({', '.join('?' * len(row))}, now())",
        list(row.values()),
    )


# The fullest version of each paper: per `key`, the longest title, abstract and author list of
# `source` and the largest declared author `count`; equal lengths broken by the larger text
# (mixed case beats CAPITALS). The rule of `transforms.dedupe.merge_papers`: associative, so
# batches, runs and a single load agree.
# Keys with one row pass through untouched (most of them); for the others, lengths first, then
# the larger text among the longest: ordering by (length, text) structs would copy every
# abstract (`python -m bench.profile` times this statement, stg_fullest).
FULLEST_SQL = """
WITH repeated AS (SELECT {key} FROM {source} GROUP BY {key} HAVING count(*) > 1),
lengths AS (
    SELECT {key}, max(length(title)) AS n_title, max(length(abstract)) AS n_abstract, max(len(authors)) AS n_authors
    FROM {source} SEMI JOIN repeated USING ({key}) GROUP BY {key}
), fullest AS (
    SELECT s.{key},
           max(s.title) FILTER (WHERE length(s.title) = l.n_title) AS title,
           max(s.abstract) FILTER (WHERE length(s.abstract) = l.n_abstract) AS abstract,
           arg_max(s.rowid, array_to_string(s.authors, ', ')) FILTER (WHERE len(s.authors) = l.n_authors) AS authors_row,
           max(s.{count}) AS author_count, bool_or(s.has_complete_listing) AS has_complete_listing
    FROM {source} s JOIN lengths l USING ({key}) GROUP BY s.{key}
)
SELECT {key}, title, abstract, authors, author_keys, {count} AS author_count, has_complete_listing
FROM {source} ANTI JOIN repeated USING ({key})
UNION ALL
SELECT f.{key}, f.title, f.abstract, a.authors, a.author_keys, f.author_count, f.has_complete_listing
FROM fullest f JOIN {source} a ON a.rowid = f.authors_row
"""

# One statement list, run in the open transaction. Staged rows of files whose content is
# already current in the warehouse (or twice in this run: the first path wins) are dropped first.
# A new content at a known path is that path's next version: it supersedes the current one,
# whose listings move to fact_listing_history (a revert to an old content is a new version too).
MERGE_SQL = """
CREATE OR REPLACE TEMP TABLE new_files AS
SELECT * FROM stg_files
WHERE sha256 NOT IN (SELECT sha256 FROM dim_source_file WHERE is_current)
QUALIFY row_number() OVER (PARTITION BY sha256 ORDER BY path) = 1;

INSERT INTO skipped_file BY NAME
SELECT $run_id AS run_id, s.path, 'content already ingested' AS reason, s.sha256,
       coalesce(d.source_file_id, n.source_file_id) AS same_as_source_file_id
FROM stg_files s
LEFT JOIN (SELECT sha256, min(source_file_id) AS source_file_id FROM dim_source_file WHERE is_current GROUP BY sha256) d
  USING (sha256)
LEFT JOIN new_files n USING (sha256)
WHERE s.source_file_id NOT IN (SELECT source_file_id FROM new_files)
ON CONFLICT DO NOTHING;

INSERT INTO skipped_file BY NAME
SELECT DISTINCT $run_id AS run_id, path, reason FROM stg_skipped ON CONFLICT DO NOTHING;

DELETE FROM stg_listings WHERE source_file_id NOT IN (SELECT source_file_id FROM new_files);
DELETE FROM stg_quarantine WHERE source_file_id NOT IN (SELECT source_file_id FROM new_files);

-- Version numbers, and ids: a content seen before at this path (a revert) gets an id of its version.
CREATE OR REPLACE TEMP TABLE file_version AS
SELECT n.source_file_id AS staged_id, v.version,
       CASE WHEN n.source_file_id IN (SELECT source_file_id FROM dim_source_file)
            THEN stable_id(concat_ws(chr(31), n.path, n.sha256, v.version::VARCHAR))
            ELSE n.source_file_id END AS source_file_id
FROM new_files n, (SELECT 1 + count(*) AS version FROM dim_source_file d WHERE d.path = n.path) v;

UPDATE stg_listings SET source_file_id = f.source_file_id,
       listing_id = stable_id(concat_ws(chr(31), f.source_file_id::VARCHAR, stg_listings.position::VARCHAR))
FROM file_version f WHERE stg_listings.source_file_id = f.staged_id AND f.source_file_id <> f.staged_id;
UPDATE stg_quarantine SET source_file_id = f.source_file_id
FROM file_version f WHERE stg_quarantine.source_file_id = f.staged_id AND f.source_file_id <> f.staged_id;
UPDATE new_files SET source_file_id = f.source_file_id
FROM file_version f WHERE new_files.source_file_id = f.staged_id AND f.source_file_id <> f.staged_id;

CREATE OR REPLACE TEMP TABLE superseded AS
SELECT d.source_file_id, n.source_file_id AS by_id
FROM dim_source_file d JOIN new_files n USING (path) WHERE d.is_current
UNION ALL  -- warehouses from before versions superseded each other: the latest version of a path wins
SELECT d.source_file_id, l.latest_id
FROM dim_source_file d JOIN (
    SELECT path, arg_max(source_file_id, version) AS latest_id, max(version) AS latest
    FROM dim_source_file WHERE is_current GROUP BY path HAVING count(*) > 1
) l USING (path)
WHERE d.is_current AND d.version < l.latest AND d.path NOT IN (SELECT path FROM new_files);

INSERT INTO fact_listing_history BY NAME
SELECT f.*, s.by_id AS superseded_by_source_file_id, $run_id AS superseded_run_id
FROM fact_listing f JOIN superseded s USING (source_file_id);

CREATE OR REPLACE TEMP TABLE superseded_papers AS
SELECT DISTINCT paper_id FROM fact_listing WHERE source_file_id IN (SELECT source_file_id FROM superseded);

DELETE FROM fact_listing WHERE source_file_id IN (SELECT source_file_id FROM superseded);

UPDATE dim_source_file SET is_current = false, superseded_by_source_file_id = s.by_id
FROM superseded s WHERE dim_source_file.source_file_id = s.source_file_id;

INSERT INTO dim_source_file BY NAME
SELECT n.source_file_id, n.path, n.sha256, n.format, n.encoding, n.size_bytes, n.mtime_ns, n.n_lines,
       n.n_separator_lines, f.version, true AS is_current,
       $ingested_at AS ingested_at, $run_id AS run_id,
       (SELECT count(*) FROM stg_listings l WHERE l.source_file_id = n.source_file_id) AS n_listings,
       (SELECT count(*) FROM stg_quarantine q WHERE q.source_file_id = n.source_file_id) AS n_quarantined
FROM new_files n JOIN file_version f USING (source_file_id);

INSERT INTO quarantine BY NAME
SELECT DISTINCT stable_id(concat_ws(chr(31), source_file_id, line_start, line_end, reason)) AS quarantine_id,
       source_file_id, path, line_start, line_end, reason, raw_text, $run_id AS run_id
FROM stg_quarantine ON CONFLICT DO NOTHING;

INSERT INTO dim_category BY NAME SELECT DISTINCT * FROM stg_categories ON CONFLICT DO NOTHING;

-- The fullest version of each paper key of this run's listings, with what the key showed before
-- (paper_version): what the resolver compares, and the key's new stored version.
DELETE FROM stg_papers WHERE paper_key NOT IN (SELECT paper_key FROM stg_listings);
CREATE OR REPLACE TEMP TABLE key_lists AS
SELECT paper_key, title, abstract, authors, author_keys, author_total, has_complete_listing FROM stg_papers
UNION ALL
SELECT paper_key, title, abstract, authors, author_keys, author_total, has_complete_listing
FROM paper_version SEMI JOIN stg_papers USING (paper_key);
CREATE OR REPLACE TEMP TABLE stg_fullest AS {fullest_by_key};

-- split: the paper resolver runs here
INSERT INTO fact_listing BY NAME
SELECT l.listing_id, m.paper_id, l.source_file_id, l.position, l.rank, l.listed_on, l.category_id,
       l.line_start, l.line_end, l.format, l.listed_code, l.paper_key, l.n_authors_shown,
       l.author_total, l.is_truncated, l.secondary_category_ids
FROM stg_listings l JOIN paper_key_map m USING (paper_key)
ON CONFLICT DO NOTHING;

DELETE FROM paper_version WHERE paper_key IN (SELECT paper_key FROM stg_fullest);
INSERT INTO paper_version BY NAME
SELECT paper_key, title, abstract, authors, author_keys, author_count AS author_total, has_complete_listing
FROM stg_fullest;

CREATE OR REPLACE TEMP TABLE touched AS
SELECT DISTINCT m.paper_id FROM stg_listings JOIN paper_key_map m USING (paper_key)
UNION  -- papers that lost listings to a newer version of their file
SELECT paper_id FROM superseded_papers
UNION -- papers naming an author merged away by this run's aliases (their bridge rows change)
SELECT DISTINCT paper_id FROM bridge_paper_author
WHERE author_id IN (SELECT stable_id(name_key) FROM author_alias WHERE run_id = $run_id);

-- The stored version of every key with a current listing of a touched paper, and that key's most
-- recent listing date. Keys stored before paper_version existed stand in with the stored paper.
CREATE OR REPLACE TEMP TABLE key_recency AS
SELECT paper_id, paper_key, max(listed_on) AS last_on
FROM fact_listing SEMI JOIN touched USING (paper_id) GROUP BY paper_id, paper_key;
CREATE OR REPLACE TEMP TABLE paper_lists AS
SELECT r.paper_id, r.last_on, v.title, v.abstract, v.authors, v.author_keys, v.author_total AS author_count,
       v.has_complete_listing
FROM key_recency r JOIN paper_version v USING (paper_key)
UNION ALL
SELECT p.paper_id, r.last_on, p.title, p.abstract, p.authors, p.author_keys, p.author_count, p.has_complete_listing
FROM (SELECT paper_id, max(last_on) AS last_on FROM key_recency ANTI JOIN paper_version USING (paper_key)
      GROUP BY paper_id) r
JOIN dim_paper p USING (paper_id);

-- Title and abstract: of the most recent listing that has one (undated search pages last), ties to
-- the longest, then the larger text; the author list: the longest. A paper with no current
-- listing (its file superseded) has no row here and leaves dim_paper.
CREATE OR REPLACE TEMP TABLE merged AS
SELECT paper_id,
       first(title ORDER BY last_on DESC NULLS LAST, length(title) DESC, title DESC)
           FILTER (WHERE title IS NOT NULL) AS title,
       first(abstract ORDER BY last_on DESC NULLS LAST, length(abstract) DESC, abstract DESC) AS abstract,
       first(authors ORDER BY len(authors) DESC, array_to_string(authors, ', ') DESC) AS authors,
       first(author_keys ORDER BY len(authors) DESC, array_to_string(authors, ', ') DESC) AS author_keys,
       max(author_count) AS author_count, bool_or(has_complete_listing) AS has_complete_listing
FROM paper_lists GROUP BY paper_id;

-- Delete and insert: an upsert rewrites the wide rows (abstracts) through the index; this does not.
DELETE FROM dim_paper WHERE paper_id IN (SELECT paper_id FROM touched);
INSERT INTO dim_paper BY NAME
SELECT m.paper_id, m.title, m.abstract, m.authors, m.author_keys,
       len(m.authors) AS n_authors_shown, m.author_count, m.has_complete_listing,
       m.has_complete_listing OR coalesce(m.author_count = len(m.authors), false) AS is_author_list_complete,
       f.first_listed_on, f.last_listed_on, f.n_listings
FROM merged m JOIN (
    SELECT paper_id, min(listed_on) AS first_listed_on, max(listed_on) AS last_listed_on, count(*) AS n_listings
    FROM fact_listing SEMI JOIN touched USING (paper_id) GROUP BY paper_id
) f USING (paper_id);

INSERT INTO author_name_variant BY NAME SELECT DISTINCT name_key, name, display_rank FROM stg_authors
ON CONFLICT DO NOTHING;

-- The person of each name key of this run: its alias (author_alias), else its own id.
CREATE OR REPLACE TEMP TABLE key_author AS
SELECT k.name_key, coalesce(a.author_id, stable_id(k.name_key)) AS author_id
FROM (SELECT DISTINCT unnest(author_keys) AS name_key FROM merged UNION SELECT name_key FROM stg_authors) k
LEFT JOIN author_alias a USING (name_key);

-- Authors whose paper count or name may change: on the old or the new lists of touched papers,
-- given a new spelling, or merged by this run's aliases.
CREATE OR REPLACE TEMP TABLE touched_authors AS
SELECT DISTINCT author_id FROM bridge_paper_author SEMI JOIN touched USING (paper_id)
UNION
SELECT author_id FROM key_author
WHERE name_key IN (SELECT unnest(author_keys) FROM merged) OR author_id IN (SELECT author_id FROM dim_author)
UNION
SELECT author_id FROM author_alias WHERE run_id = $run_id;

DELETE FROM bridge_paper_author WHERE paper_id IN (SELECT paper_id FROM touched);
INSERT INTO bridge_paper_author BY NAME
SELECT paper_id, author_id, min(author_position) AS author_position FROM (
    SELECT paper_id, unnest(author_keys) AS name_key, unnest(range(1, len(author_keys) + 1)) AS author_position
    FROM merged
) JOIN key_author USING (name_key) GROUP BY paper_id, author_id;

-- Every key of a touched author (its own key, its aliases), resolved again: a merged-away id has none.
CREATE OR REPLACE TEMP TABLE author_keys_touched AS
SELECT k.name_key, coalesce(a.author_id, stable_id(k.name_key)) AS author_id
FROM (  -- candidates only: stored keys whose row or alias names a touched author (not every author)
    SELECT name_key FROM key_author
    UNION SELECT name_key FROM dim_author SEMI JOIN touched_authors USING (author_id)
    UNION SELECT name_key FROM author_alias SEMI JOIN touched_authors USING (author_id)
) k LEFT JOIN author_alias a USING (name_key)
WHERE coalesce(a.author_id, stable_id(k.name_key)) IN (SELECT author_id FROM touched_authors);

CREATE OR REPLACE TEMP TABLE author_rows AS
SELECT v.author_id, v.name, v.name_key, coalesce(p.n_papers, 0) AS n_papers
FROM (
    SELECT k.author_id,
           first(n.name ORDER BY n.display_rank DESC, length(n.name_key) DESC, n.name DESC) AS name,
           first(k.name_key) FILTER (WHERE stable_id(k.name_key) = k.author_id) AS name_key
    FROM author_keys_touched k JOIN author_name_variant n USING (name_key) GROUP BY k.author_id
) v LEFT JOIN (
    SELECT author_id, count(DISTINCT paper_id) AS n_papers FROM bridge_paper_author
    WHERE author_id IN (SELECT author_id FROM touched_authors) GROUP BY author_id
) p USING (author_id)
WHERE v.name_key IS NOT NULL;
DELETE FROM dim_author WHERE author_id IN (SELECT author_id FROM author_rows);
INSERT INTO dim_author BY NAME SELECT * FROM author_rows;
DELETE FROM dim_author WHERE n_papers = 0 OR name_key IN (SELECT name_key FROM author_alias);

-- A touched paper's categories: the primary and cross-listed categories of its current listings.
DELETE FROM bridge_paper_category WHERE paper_id IN (SELECT paper_id FROM touched);
INSERT INTO bridge_paper_category BY NAME
SELECT DISTINCT paper_id, category_id FROM (
    SELECT paper_id, category_id FROM fact_listing SEMI JOIN touched USING (paper_id)
    UNION ALL
    SELECT paper_id, unnest(secondary_category_ids) AS category_id FROM fact_listing SEMI JOIN touched USING (paper_id)
) WHERE category_id IS NOT NULL;

INSERT INTO dim_date BY NAME
SELECT d::DATE AS date, year(d) AS year, quarter(d) AS quarter, month(d) AS month, day(d) AS day,
       weekofyear(d) AS iso_week, dayname(d) AS weekday
FROM (SELECT min(listed_on) AS lo, max(listed_on) AS hi FROM fact_listing) r,
     range(r.lo::TIMESTAMP, r.hi::TIMESTAMP + INTERVAL 1 DAY, INTERVAL 1 DAY) t(d)
WHERE r.lo IS NOT NULL
ON CONFLICT DO NOTHING;
""".format(
    fullest_by_key=FULLEST_SQL.format(key="paper_key", source="key_lists", count="author_total"),
)
