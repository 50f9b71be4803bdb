"""The private copy an ingest loads into (flows.publish.StagingCopy): made on a thread while the
run's first batches are parsed, whole or not at all, stopped when the run ends early."""

from __future__ import annotations

import errno
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from flows import publish


def _published(tmp_path: Path, data: bytes) -> Path:
    path = tmp_path / "w.duckdb"
    path.write_bytes(data)
    return path


@settings(max_examples=25, deadline=None)
@given(data=st.binary(max_size=5000), piece=st.integers(1, 700))
def test_the_copy_is_the_published_file_byte_for_byte(tmp_path_factory, data, piece):
    published = _published(tmp_path_factory.mktemp("w"), data)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(publish.StagingCopy, "PIECE", piece)  # many pieces, and a last short one
        with publish.StagingCopy(published) as copy:
            assert copy.wait().read_bytes() == data
    assert published.read_bytes() == data


def test_a_first_run_has_nothing_to_copy(tmp_path):
    with publish.StagingCopy(tmp_path / "w.duckdb") as copy:
        assert not copy.wait().exists()


def test_a_copy_the_kernel_cannot_make_is_made_through_a_buffer(tmp_path, monkeypatch):
    """copy_file_range fails across some file systems (EXDEV) and on some kernels (ENOSYS)."""
    def refuses(*args):
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(os, "copy_file_range", refuses)
    monkeypatch.setattr(publish.StagingCopy, "PIECE", 1000)
    data = os.urandom(10_500)
    with publish.StagingCopy(_published(tmp_path, data)) as copy:
        assert copy.wait().read_bytes() == data


def test_a_full_disk_during_the_copy_is_raised_by_wait(tmp_path, monkeypatch):
    def full(*args):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "copy_file_range", full)
    with publish.StagingCopy(_published(tmp_path, b"x" * 100)) as copy, pytest.raises(OSError) as raised:
        copy.wait()
    assert publish.is_disk_full(raised.value)


def test_leaving_early_stops_the_copy_and_nothing_writes_it_after(tmp_path, monkeypatch):
    """A run that fails or is terminated while the copy is under way removes the copy: the
    thread must have stopped writing it by then."""
    monkeypatch.setattr(publish.StagingCopy, "PIECE", 1 << 10)
    pieces = threading.Semaphore(0)
    copy_range = os.copy_file_range

    def slow(*args):
        pieces.release()
        threading.Event().wait(0.01)
        return copy_range(*args)

    monkeypatch.setattr(os, "copy_file_range", slow)
    published = _published(tmp_path, os.urandom(4 << 20))  # 4,096 pieces: ~40 s if not stopped
    with publish.StagingCopy(published) as copy:
        pieces.acquire()  # the copy is under way
    assert not copy._thread.is_alive()
    with pytest.raises(RuntimeError, match="stopped before it was whole"):
        copy.wait()  # a copy cut short is never handed out as whole
    written = copy.staging.stat().st_size
    assert 0 < written < published.stat().st_size
    publish.discard(copy.staging)
    assert not copy.staging.exists()


def test_a_daily_run_parses_its_files_while_the_warehouse_is_copied(seeds_warehouse, run_ingest, tmp_path,
                                                                    monkeypatch):
    """The copy cannot finish until a batch is being parsed: a run that copied first and parsed
    after would wait out the timeout here. The run then loads as any other."""
    import transforms.pipeline

    parsing = threading.Event()
    process_decoded, copy_pieces = transforms.pipeline.process_decoded, publish._copy_pieces

    def parse(*args, **kwargs):
        parsing.set()
        return process_decoded(*args, **kwargs)

    def copy_after_the_parse_began(*args):
        assert parsing.wait(timeout=60), "no batch was parsed while the warehouse was copied"
        return copy_pieces(*args)

    monkeypatch.setattr(transforms.pipeline, "process_decoded", parse)  # what a parse task calls
    monkeypatch.setattr(publish, "_copy_pieces", copy_after_the_parse_began)
    warehouse = tmp_path / "w.duckdb"
    shutil.copyfile(seeds_warehouse[0], warehouse)
    day2 = tmp_path / "day2.txt"
    day2.write_text("#01Mar 3, 2027\ncs.CV\nEvent Cameras for Low-Light Depth Estimation\nWei Wang, Yuki Tanaka\n"
                    "Event cameras report brightness changes with microsecond latency and a high dynamic range, "
                    "which makes them attractive for depth estimation at night.\n", encoding="utf-8")
    summary = run_ingest([day2], warehouse)
    assert summary["n_listings"] == 1 and {"copy", "copy_wait"} <= set(summary["stage_seconds"])
    with duckdb.connect(str(warehouse), read_only=True) as con:
        before = duckdb.connect(str(seeds_warehouse[0]), read_only=True)
        n_before = before.execute("SELECT count(*) FROM fact_listing").fetchall()[0][0]
        before.close()
        assert con.execute("SELECT count(*) FROM fact_listing").fetchall()[0][0] == n_before + 1
    assert not publish.staging_path(warehouse).exists()


def test_a_parse_that_fails_before_the_copy_is_whole_is_recorded_as_a_failed_run(seeds_warehouse, run_ingest,
                                                                                  tmp_path, monkeypatch):
    """No batch was staged, so no connection was open: the run waits for the copy, records its
    failure there and publishes that row alone, as a run failing later does."""
    import transforms.pipeline

    def broken(*args, **kwargs):
        raise RuntimeError("the parser broke here")

    monkeypatch.setattr(transforms.pipeline, "process_decoded", broken)
    warehouse = tmp_path / "w.duckdb"
    shutil.copyfile(seeds_warehouse[0], warehouse)
    day2 = tmp_path / "day2.txt"
    day2.write_text("#01Mar 3, 2027\ncs.CV\nA Title\nWei Wang\nAn abstract long enough to be one.\n", encoding="utf-8")
    with pytest.raises(Exception, match="the parser broke here"):
        run_ingest([day2], warehouse)
    with duckdb.connect(str(warehouse), read_only=True) as con:
        runs = con.execute("SELECT status, message FROM ingest_run ORDER BY started_at DESC LIMIT 1").fetchall()
    assert runs[0][0] == "failed" and "the parser broke here" in runs[0][1]
    assert not publish.staging_path(warehouse).exists()


def test_a_whole_copy_is_flushed_to_disk_while_the_run_goes_on(tmp_path, monkeypatch):
    """`publish` must fsync the copy before it replaces the published file; the copy's pages are
    flushed on the copy's thread as soon as it is whole, so the run's end does not wait for
    them. wait() returns before the flush ends; synced() waits for it."""
    flushing, release = threading.Event(), threading.Event()
    fsync = os.fsync

    def slow_fsync(fd):
        assert threading.current_thread().name == "staging-copy"
        flushing.set()
        assert release.wait(timeout=30)
        fsync(fd)

    monkeypatch.setattr(os, "fsync", slow_fsync)
    data = os.urandom(10_000)
    with publish.StagingCopy(_published(tmp_path, data)) as copy:
        assert copy.wait().read_bytes() == data
        assert flushing.wait(timeout=30)
    assert copy._thread.is_alive()  # leaving the block does not wait for the flush
    release.set()
    copy.synced()
    assert not copy._thread.is_alive()


def test_a_failed_flush_of_the_copy_is_raised_by_synced(tmp_path, monkeypatch):
    def broken(fd):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fsync", broken)
    with publish.StagingCopy(_published(tmp_path, b"x" * 100)) as copy:
        copy.wait()  # the copy itself is whole
    with pytest.raises(OSError, match="Input/output error"):
        copy.synced()


def test_a_daily_run_whose_copy_cannot_reach_the_disk_publishes_nothing(seeds_warehouse, run_ingest, tmp_path,
                                                                        monkeypatch):
    """An fsync error is reported once: the copy's thread sees it, so the run must ask the thread
    (a later fsync in `publish` may return success for pages that never reached the disk)."""
    fsync = os.fsync

    def fails_on_the_copy_thread(fd):
        if threading.current_thread().name == "staging-copy":
            raise OSError(errno.EIO, "Input/output error")
        fsync(fd)

    monkeypatch.setattr(os, "fsync", fails_on_the_copy_thread)
    warehouse = tmp_path / "w.duckdb"
    shutil.copyfile(seeds_warehouse[0], warehouse)
    before = warehouse.read_bytes()
    day2 = tmp_path / "day2.txt"
    day2.write_text("#01Mar 3, 2027\ncs.CV\nA Title\nWei Wang\nAn abstract long enough to be one.\n", encoding="utf-8")
    with pytest.raises(Exception, match="Input/output error"):
        run_ingest([day2], warehouse)
    assert warehouse.read_bytes() == before
    assert not publish.staging_path(warehouse).exists()


def test_the_replaced_warehouse_is_freed_after_publish_returns(tmp_path, monkeypatch):
    """Freeing a large replaced file (its blocks, its cached pages) took 1.7 s in the rename of a
    daily run: the file is held open across the rename and let go on a thread."""
    published = _published(tmp_path, b"old" * 1000)
    staging = publish.staging_path(published)
    staging.write_bytes(b"new")
    old_inode = published.stat().st_ino
    let_go, close = threading.Event(), os.close
    held: list[int] = []

    def close_when_let_go(fd):
        if threading.current_thread().name == "release-replaced-warehouse":
            held.append(os.fstat(fd).st_ino)
            assert let_go.wait(timeout=30)
        close(fd)

    monkeypatch.setattr(os, "close", close_when_let_go)
    publish.publish(staging, published)
    assert published.read_bytes() == b"new" and not staging.exists()
    releasing = [t for t in threading.enumerate() if t.name == "release-replaced-warehouse"]
    assert len(releasing) == 1 and not releasing[0].daemon  # the process waits for it at exit
    let_go.set()
    releasing[0].join(timeout=30)
    assert held == [old_inode]


def test_a_first_publish_has_nothing_to_release(tmp_path):
    published, staging = tmp_path / "w.duckdb", tmp_path / "w.duckdb.building"
    staging.write_bytes(b"new")
    publish.publish(staging, published)
    assert published.read_bytes() == b"new"
    assert not [t for t in threading.enumerate() if t.name == "release-replaced-warehouse"]


def test_no_connection_of_the_tool_draws_a_progress_bar(tmp_path):
    """DuckDB's Python client draws a progress bar on stdout for any statement over two seconds:
    on a 1M-listing load it put bar text into `digest ingest --json`, and `digest verify --json`
    or `status --json` on a large warehouse would do the same. The load's connections (the
    loader's, the id hasher's) and the read paths' have it off, and a read connection's
    configuration is still locked. In a child process: under pytest DuckDB starts with the bar
    off, as a user's shell does not."""
    script = """
from flows import analytics, sql
from transforms import ids
setting = "SELECT current_setting('enable_progress_bar')"
with sql.connect('w.duckdb') as con:
    print(con.execute(setting).fetchone()[0], ids._hasher().execute(setting).fetchone()[0])
with analytics.open_read_only('w.duckdb') as con:
    print(con.execute(setting).fetchone()[0])
    con.execute('SET enable_external_access = true')
"""
    shown = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True)
    assert shown.stdout.split() == ["False", "False", "False"]
    assert "the configuration has been locked" in shown.stderr
