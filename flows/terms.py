"""The warehouse step of terms (issue 16): keep dim_term and bridge_paper_term current.

Called inside the load's transaction after the papers are merged, while the temp table
`touched` (paper_id) lists the papers this run added or changed. Only those are extracted
again (transforms.terms, scored within each paper), so a run costs in proportion to what it
brings, and an incremental load ends where a fresh load of the same files would.
"""

from __future__ import annotations

import duckdb
import polars as pl

from flows.sql import compute_threads, on_threads, read_frame, write_frame
from transforms.ids import ID_SQL
from transforms.terms import ABSTRACT_CHARS, RULES_VERSION, paper_term_codes

# Papers being extracted at once, over every thread: bounds the memory of a large first load
# whatever the number of cores (two threads of 50k papers on the 2-core machine it was measured on).
PAPERS_IN_FLIGHT = 100_000
# Fewer papers than that are still split over the threads, in batches of at least this many: in
# one batch, a 100k-listing load's 33k papers were extracted on one core while the other waited.
MIN_BATCH_PAPERS = 5_000


def batch_papers(threads: int) -> int:
    """Papers a batch extracts when `threads` batches are extracted at once."""
    return max(1, PAPERS_IN_FLIGHT // threads)


def update_terms(con: duckdb.DuckDBPyConnection) -> int:
    """Re-extract the terms of the touched papers (all papers, on the first run after terms were
    added to an existing warehouse or after the rules changed: `term_rules`); returns the number of
    papers extracted. Terms carry no run: they are a function of the text."""
    threads = compute_threads()
    con.execute(_TODO_SQL, {"batch_papers": batch_papers(threads), "threads": threads, "min_batch": MIN_BATCH_PAPERS,
                            "rules": RULES_VERSION})
    # Terms these papers had before: their paper counts change, and some may lose their last paper.
    con.execute("CREATE OR REPLACE TEMP TABLE changed_terms AS "
                "SELECT DISTINCT term_id FROM bridge_paper_term SEMI JOIN term_todo USING (paper_id)")
    con.execute("DELETE FROM bridge_paper_term WHERE paper_id IN (SELECT paper_id FROM term_todo)")
    n_batches = con.execute("SELECT coalesce(max(batch), 0) FROM term_todo").fetchall()[0][0]
    # Only the text the extraction reads (the title and the abstract's first characters), read
    # from dim_paper once, in batch order: each batch reading dim_paper scanned every abstract
    # of the table again (9 s of 20 at 1M distinct listings, 16 batches; py-spy).
    con.execute(f"CREATE OR REPLACE TEMP TABLE term_papers AS SELECT t.batch, p.paper_id, p.title, "
                f"left(p.abstract, {ABSTRACT_CHARS}) AS abstract FROM dim_paper p JOIN term_todo t USING (paper_id) "
                f"ORDER BY t.batch")
    # A batch per thread is extracted at once (numpy and Polars release the GIL) while this thread
    # reads the next and writes the last: a batch at a time left a core idle.
    batches = (read_frame(con, f"SELECT paper_id, title, abstract FROM term_papers WHERE batch = {batch:d}")
               for batch in range(1, n_batches + 1))
    for rows, terms in on_threads(paper_term_codes, batches, threads=threads):
        _insert_terms(con, rows, terms)
    con.execute(_REFRESH_SQL)
    con.execute("DELETE FROM term_rules; INSERT INTO term_rules VALUES ($rules)", {"rules": RULES_VERSION})
    return con.execute("SELECT count(*) FROM term_todo").fetchall()[0][0]


def _insert_terms(con: duckdb.DuckDBPyConnection, rows: pl.DataFrame, terms: pl.DataFrame) -> None:
    """Write one batch of extracted terms: each distinct term's id is hashed once, in DuckDB."""
    write_frame(con, "CREATE OR REPLACE TEMP TABLE term_batch AS "
                     f"SELECT term_code, term, n_words, {ID_SQL.format('term')} AS term_id FROM frame", terms)
    write_frame(con, "INSERT INTO bridge_paper_term BY NAME SELECT paper_id, term_id, score, term_rank "
                     "FROM frame JOIN term_batch USING (term_code)", rows)
    con.execute("INSERT INTO dim_term BY NAME SELECT DISTINCT term_id, term, n_words, 0 AS n_papers FROM term_batch "
                "ON CONFLICT DO NOTHING")
    con.execute("INSERT INTO changed_terms SELECT DISTINCT term_id FROM term_batch")


# Papers to extract: the touched ones; on the first run after an upgrade (papers but no terms
# yet, or terms of other rules than $rules), every paper. Numbered into batches of $batch_papers,
# or of an equal share per thread when that is smaller (but at least $min_batch, and never more
# than $batch_papers: that bounds the memory).
_TODO_SQL = """
CREATE OR REPLACE TEMP TABLE term_todo AS
WITH todo AS (
    SELECT paper_id FROM touched
    UNION
    SELECT paper_id FROM dim_paper
    WHERE EXISTS (SELECT 1 FROM dim_paper d WHERE d.paper_id NOT IN (SELECT paper_id FROM touched))
      AND (NOT EXISTS (SELECT 1 FROM bridge_paper_term)
           OR (SELECT coalesce(max(version), 1) FROM term_rules) <> $rules)
)
SELECT paper_id, (row_number() OVER (ORDER BY paper_id) - 1)
                 // least($batch_papers, greatest(ceil(count(*) OVER () / $threads)::BIGINT, $min_batch)) + 1 AS batch
FROM todo
"""

# Paper counts of the terms that gained or lost papers; terms left with none are dropped.
_REFRESH_SQL = """
CREATE OR REPLACE TEMP TABLE changed_counts AS
SELECT c.term_id, count(b.paper_id) AS n_papers
FROM (SELECT DISTINCT term_id FROM changed_terms) c LEFT JOIN bridge_paper_term b USING (term_id)
GROUP BY c.term_id;
DELETE FROM dim_term WHERE term_id IN (SELECT term_id FROM changed_counts WHERE n_papers = 0);
UPDATE dim_term SET n_papers = c.n_papers FROM changed_counts c
WHERE dim_term.term_id = c.term_id AND dim_term.n_papers <> c.n_papers;
"""
