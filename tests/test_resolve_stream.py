"""The resolver scores candidate pairs from a stream of their texts (issue 15: a temp table of
every pair's two abstracts, titles and author lists spilled 4.2 GB at 100k listings of many
revisions each): the scored rows are those of every pair scored at once, no table holds the
texts, and the scratch file of scored rows goes however the scoring ends, leaving the connection
able to roll the run back."""

from __future__ import annotations

import contextlib
import datetime as dt
import re
from pathlib import Path

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

from bench.corpus import default_realdata, render_corpus
from flows import load
from flows import resolve as flows_resolve
from flows.sql import _duckdb_error, read_frame, schema_sql, stream_frames
from transforms.pipeline import SourceFile, process_batch

THRESHOLD = 0.8
PAIR = ["paper_key", "other", "other_is_paper"]


@pytest.fixture(scope="module")
def revisions(tmp_path_factory) -> list[Path]:
    """The files of a small corpus of many near-identical versions of each paper (real records,
    bench.corpus' revisions shape): blocks scored all with all, and capped ones."""
    if not default_realdata().is_dir():
        pytest.skip(f"real data not found at {default_realdata()} (../shared/realdata)")
    out = tmp_path_factory.mktemp("revisions")
    render_corpus(out, 1500, seed=0, shape="revisions")
    return sorted(p for p in out.rglob("*") if p.is_file() and p.parent.name != out.name)


def _batch(files: list[Path], first_id: int):
    sources = [SourceFile(first_id + i, f.name, f.read_bytes()) for i, f in enumerate(files)]
    batch = process_batch(sources)
    batch.files = batch.files.with_columns(
        path=pl.Series([s.path for s in sources]), sha256=pl.Series([f"{s.source_file_id:064d}" for s in sources]),
        size_bytes=pl.Series([len(s.data) for s in sources], dtype=pl.Int64), mtime_ns=pl.lit(0, pl.Int64))
    return batch


def _ingest(warehouse: Path, files: list[Path], first_id: int = 1) -> None:
    """One run of the real load (RunLoader with the entity resolver), committed."""
    con = load.connect(warehouse)
    loader = load.RunLoader(con, f"run{first_id}", resolver=flows_resolve.resolve_entities)
    try:
        loader.begin()
        loader.stage(_batch(files, first_id))
        loader.merge(dt.datetime(2026, 10, 27, tzinfo=dt.timezone.utc))
        loader.commit()
    finally:
        loader.rollback()
        con.close()


class RecordingConnection:
    """A connection that keeps the text of every statement run through it."""

    def __init__(self, con) -> None:
        self._con, self.statements = con, []

    def __getattr__(self, name):
        return getattr(self._con, name)

    def execute(self, query, *args, **kwargs):
        self.statements.append(str(query))
        return self._con.execute(query, *args, **kwargs)

    def sql(self, query, *args, **kwargs):
        self.statements.append(str(query))
        return self._con.sql(query, *args, **kwargs)


def test_scored_pairs_are_every_pair_scored_at_once_and_no_table_holds_their_texts(revisions, tmp_path, monkeypatch):
    """Two runs (the second meets stored papers): scored_pairs holds what scoring every candidate
    pair in one frame gives, row for row and type for type (title_ratio, Float32, stays FLOAT),
    and the only table made while scoring is scored_pairs itself, without texts."""
    seen = []
    score_candidates = flows_resolve._score_candidates

    def checked(con, threshold):
        con.execute("SET python_scan_all_frames = true")  # frames written through the wrapper
        recording = RecordingConnection(con)
        score_candidates(recording, threshold)
        got = read_frame(con, "SELECT * FROM scored_pairs")
        want = flows_resolve._score_chunk(read_frame(con, schema_sql("resolve/pair_texts.sql")), threshold)
        seen.append((got, want, recording.statements))

    monkeypatch.setattr(flows_resolve, "_score_candidates", checked)
    half = len(revisions) // 2
    _ingest(tmp_path / "w.duckdb", revisions[:half])
    _ingest(tmp_path / "w.duckdb", revisions[half:], first_id=half + 1)

    assert len(seen) == 2
    for got, want, statements in seen:
        assert want.height > 2 * flows_resolve.CHUNK_KEYS  # several chunks
        assert_frame_equal(got.sort(PAIR), want.sort(PAIR))
        made = [s for s in statements if re.match(r"\s*CREATE\b", s, re.IGNORECASE)]
        assert made and all("scored_pairs" in s and "read_parquet" in s for s in made), made
    assert seen[1][1]["other_is_paper"].any()  # the second run met stored papers
    assert set(seen[0][0].columns) == set(flows_resolve.SCORED_COLUMNS)


def test_no_candidate_pair_gives_an_empty_table_of_the_scored_types(tmp_path):
    con = load.connect(tmp_path / "w.duckdb")
    con.execute("CREATE TEMP TABLE candidates (paper_key BIGINT, other BIGINT, other_is_paper BOOLEAN, other_key BIGINT)")
    con.execute("CREATE TEMP TABLE resigned_keys (paper_key BIGINT)")
    con.execute("CREATE TEMP TABLE stg_fullest (paper_key BIGINT, title VARCHAR, abstract VARCHAR, "
                "author_keys VARCHAR[], author_count INTEGER)")
    con.execute("CREATE TEMP TABLE dim_paper AS SELECT paper_key AS paper_id, * EXCLUDE (paper_key) FROM stg_fullest")
    flows_resolve._score_candidates(con, THRESHOLD)
    types = dict(con.execute("SELECT column_name, column_type FROM (DESCRIBE scored_pairs)").fetchall())
    assert types == {"paper_key": "BIGINT", "other": "BIGINT", "other_is_paper": "BOOLEAN", "other_key": "BIGINT",
                     "abstract_ratio": "DOUBLE", "shingle_jaccard": "DOUBLE", "shingle_containment": "DOUBLE",
                     "title_ratio": "DOUBLE", "author_agreement": "DOUBLE", "score": "DOUBLE", "rule": "VARCHAR",
                     "is_match": "BOOLEAN"}
    assert con.execute("SELECT count(*) FROM scored_pairs").fetchall() == [(0,)]
    assert con.execute("SELECT current_setting('disabled_optimizers')").fetchall() == [("",)]  # on again
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.duckdb"]


@pytest.fixture
def scratch_files(monkeypatch) -> list[dict]:
    """Each scratch file the scoring takes: its path, and its size when the block ended (None:
    it ended by an error)."""
    taken = []
    scratch_file = flows_resolve.scratch_file

    def spy(con, suffix):
        with scratch_file(con, suffix) as path:
            taken.append({"path": path, "size": None})
            yield path
            taken[-1]["size"] = path.stat().st_size

    monkeypatch.setattr(flows_resolve, "scratch_file", contextlib.contextmanager(spy))
    return taken


def test_the_scratch_file_is_written_in_duckdbs_spill_folder_and_removed(revisions, tmp_path, scratch_files):
    _ingest(tmp_path / "w.duckdb", revisions[:6])
    (taken,) = scratch_files
    assert taken["path"].parent == tmp_path / "w.duckdb.tmp" and taken["size"] > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.duckdb"]  # the folder made for it too


@pytest.mark.parametrize("failure", [RuntimeError("scoring failed"), KeyboardInterrupt(), "interrupt"],
                         ids=["error", "ctrl-c", "interrupt"])
def test_a_failure_mid_stream_removes_the_scratch_file_and_the_run_rolls_back(
        revisions, tmp_path, scratch_files, monkeypatch, failure):
    """An error or a Ctrl-C in a scoring thread, or the connection interrupted as a SIGTERM does it
    (flows.shutdown), while the stream is open: the run fails with that error (the connection is
    not left with an open result, which refused the ROLLBACK), the scratch file is gone, and the
    warehouse is as before the run."""
    warehouse = tmp_path / "w.duckdb"
    _ingest(warehouse, revisions[:4])
    monkeypatch.setattr(flows_resolve, "CHUNK_KEYS", 50)  # many chunks: fail in the middle
    calls, score_chunk = [], flows_resolve._score_chunk
    con = load.connect(warehouse)

    def failing(chunk, threshold):
        calls.append(chunk.height)
        if len(calls) == 3:
            if failure != "interrupt":
                raise failure
            con.interrupt()
        return score_chunk(chunk, threshold)

    monkeypatch.setattr(flows_resolve, "_score_chunk", failing)
    before = con.execute("SELECT count(*) FROM dim_paper").fetchall()
    loader = load.RunLoader(con, "failing", resolver=flows_resolve.resolve_entities)
    loader.begin()
    loader.stage(_batch(revisions[4:12], 100))
    expected = duckdb.InterruptException if failure == "interrupt" else type(failure)
    with pytest.raises(expected):
        loader.merge(dt.datetime(2026, 10, 27, tzinfo=dt.timezone.utc))
    loader.rollback()
    assert con.execute("SELECT count(*) FROM dim_paper").fetchall() == before
    if failure != "interrupt":  # an aborted transaction refuses the RESET (flows.sql.optimizer_off)
        assert con.execute("SELECT current_setting('disabled_optimizers')").fetchall() == [("",)]
    con.close()
    assert len(calls) >= 3 and max(calls) <= 50
    taken = scratch_files[-1]  # the failed run's (the first run took one too)
    assert len(scratch_files) == 2 and taken["size"] is None and not taken["path"].exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.duckdb"]


def test_a_duckdb_error_mid_stream_is_duckdbs_own_and_frees_the_connection():
    """Arrow's reader raises DuckDB's errors as OSError: an out-of-memory there was no longer
    reported with the budget to raise (flows.ingest reads OutOfMemoryException)."""
    con = duckdb.connect()
    query = "SELECT CASE WHEN range > 5000000 THEN ('x' || range)::INTEGER END AS v FROM range(10000000)"
    frames = stream_frames(con, query, 1000)
    assert next(frames).height == 1000
    with pytest.raises(duckdb.ConversionException, match="Could not convert string 'x"):
        list(frames)
    assert con.execute("SELECT 1").fetchall() == [(1,)]
    assert isinstance(_duckdb_error(OSError("Out of Memory Error: could not allocate")), duckdb.OutOfMemoryException)
    assert isinstance(_duckdb_error(OSError("IO Error: No space left on device")), duckdb.IOException)
    assert type(_duckdb_error(OSError("something else"))) is duckdb.Error


def test_a_stream_closed_early_frees_the_connection():
    con = duckdb.connect()
    con.execute("BEGIN")
    con.execute("CREATE TEMP TABLE t AS SELECT range AS k FROM range(50000)")
    frames = stream_frames(con, "SELECT * FROM t", 1000)
    assert sum(f.height for f, _ in zip(frames, range(3))) == 3000
    frames.close()
    con.execute("ROLLBACK")
