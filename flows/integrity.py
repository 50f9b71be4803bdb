"""Checks a person can run on a published warehouse: line accounting (`digest audit`) and an
order-independent content checksum (`digest verify`)."""

from __future__ import annotations

import hashlib
from pathlib import Path

import polars as pl

from flows import load
from flows.analytics import open_read_only

# Run bookkeeping that legitimately differs between two loads of the same files.
# (and where the files were: a copy of them elsewhere is the same content)
VOLATILE_COLUMNS = {"run_id", "ingested_at", "mtime_ns", "ctime_ns", "inode", "location", "started_at", "finished_at"}
# Logs of what each run did: the resolver's decisions record what a new key was compared with,
# which depends on the order files arrived in (the papers they give do not).
VOLATILE_TABLES = {"ingest_run", "skipped_file", "paper_match", "resolve_capped_block", "person_alias"}
# The person decisions: which person each mention is stays in; how the decision was reached (the
# candidates met, their scores, the evidence gathered so far) depends on the order too.
DECISION_COLUMNS = {
    "author_mention": {"decided_id", "rule", "score", "name_lambda", "prior", "n_persons", "n_candidates", "candidates",
                       "candidate_scores", "coauthors_shared", "category_level", "words_shared", "years_apart"},
    "author_person": {"founded_key", "first_on", "last_on", "n_mentions", "paper_ids", "coauthors", "categories", "words",
                      "name_lambda"},
}


def audit_report(warehouse: Path) -> pl.DataFrame:
    with open_read_only(warehouse) as con:
        return load.audit(con)


def check_report(warehouse: Path) -> dict[str, int]:
    """The blocking checks over every row (a run checks the rows it wrote: schemas/checks.sql)."""
    with open_read_only(warehouse) as con:
        return load.run_checks(con)


def content_checksums(warehouse: Path) -> dict[str, tuple[int, str]]:
    """table → (rows, checksum of its rows in any order), run bookkeeping left out."""
    sums = {}
    with open_read_only(warehouse) as con:
        columns = con.execute(
            "SELECT table_name, list(column_name ORDER BY column_index) FROM duckdb_columns() "
            "WHERE schema_name = 'main' AND NOT internal GROUP BY table_name ORDER BY table_name"
        ).fetchall()
        tables = {t for (t,) in con.execute(
            "SELECT table_name FROM duckdb_tables() WHERE schema_name = 'main'").fetchall()}
        for table, cols in columns:
            if table not in tables or table in VOLATILE_TABLES:
                continue
            left_out = VOLATILE_COLUMNS | DECISION_COLUMNS.get(table, set())
            kept = ", ".join(f'"{c}"' for c in cols if c not in left_out)
            # A sum, not an XOR: two equal rows must not cancel out.
            n, digest = con.execute(
                f'SELECT count(*), sum(md5_number_lower(t::VARCHAR)::HUGEINT) FROM (SELECT {kept} FROM "{table}") t'
            ).fetchall()[0]
            sums[table] = (n, f"{int(digest or 0) % 2**64:016x}")
    return sums


def warehouse_checksum(sums: dict[str, tuple[int, str]]) -> str:
    text = "\n".join(f"{t}:{n}:{d}" for t, (n, d) in sorted(sums.items()))
    return hashlib.sha256(text.encode()).hexdigest()
