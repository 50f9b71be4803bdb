"""Scale-out (issue 5): the parse tasks on a local Dask cluster give exactly the warehouse the
in-process run gives."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import polars as pl
import pytest

from flows import extract
from flows.integrity import content_checksums
from flows.settings import Settings
from transforms.pipeline import BatchResult

SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"


def test_dask_run_and_in_process_run_build_identical_warehouses(prefect_harness, tmp_path):
    from flows.ingest import configured_ingest

    small_batches = 8 * 1024  # several parse tasks, so results really come back from workers
    threads = configured_ingest(Settings(task_runner="threads"))(
        paths=[SAMPLES], warehouse=tmp_path / "threads.duckdb", batch_bytes=small_batches)
    dask = configured_ingest(Settings(task_runner="dask"))(
        paths=[SAMPLES], warehouse=tmp_path / "dask.duckdb", batch_bytes=small_batches)

    assert dask["n_listings"] == threads["n_listings"] == 55
    assert content_checksums(tmp_path / "dask.duckdb") == content_checksums(tmp_path / "threads.duckdb")


def test_a_parse_task_elsewhere_that_finds_none_of_the_flows_files_fails_the_run(tmp_path):
    """Remote workers without the digest files (another machine, another mount) recorded each
    file "vanished": nothing loaded, exit 0. A file read here, or truly gone, is as before."""
    from flows.ingest import WorkersCannotRead, refuse_unseen_by_worker

    here = tmp_path / "daily.txt"
    here.write_text("#01Oct 26, 2026\n")
    gone = tmp_path / "gone.txt"
    stat = here.stat()
    batch = [extract.FoundFile(path=p.name, abs_path=str(p), size_bytes=stat.st_size, mtime_ns=stat.st_mtime_ns)
             for p in (here, gone)]

    def result(read_by, paths):
        empty = pl.DataFrame()
        return BatchResult(empty, empty, empty, empty, empty, empty, read_by=read_by,
                           skipped=pl.DataFrame({"path": paths, "reason": [extract.VANISHED] * len(paths)}))

    with pytest.raises(WorkersCannotRead, match="daily.txt: Dask workers need the digest files"):
        refuse_unseen_by_worker(result(("worker-7", 4242), ["daily.txt"]), batch)
    refuse_unseen_by_worker(result(("worker-7", 4242), ["gone.txt"]), batch)  # vanished here too
    refuse_unseen_by_worker(result((socket.gethostname(), os.getpid()), ["daily.txt"]), batch)  # read here
    here.write_text("#01Oct 27, 2026\n#02Oct 27, 2026\n")  # gone and back, rewritten, during the run
    refuse_unseen_by_worker(result(("worker-7", 4242), ["daily.txt"]), batch)


def test_an_address_that_accepts_and_never_speaks_dask_fails_in_one_line(monkeypatch):
    """A port that accepts and never answers (an HTTP server, a listener gone quiet): the run
    waited forever at "Connecting to an existing Dask cluster"."""
    import dask

    from flows.ingest import DaskUnreachable, configured_ingest

    with socket.socket() as quiet, dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        quiet.bind(("127.0.0.1", 0))
        quiet.listen()
        address = f"tcp://127.0.0.1:{quiet.getsockname()[1]}"
        with pytest.raises(DaskUnreachable, match=f"DIGEST_DASK_ADDRESS={address}: no Dask scheduler"):
            configured_ingest(Settings(task_runner="dask", dask_address=address))


@pytest.mark.parametrize("n_workers", [0, 1])
def test_a_scheduler_is_taken_only_with_a_worker(n_workers):
    # a scheduler without workers: the run waited for one, without a word, forever
    import dask
    from distributed import LocalCluster

    from flows.ingest import DaskUnreachable, configured_ingest

    with dask.config.set({"distributed.comm.timeouts.connect": "2s"}), \
            LocalCluster(n_workers=n_workers, processes=False, dashboard_address=None) as cluster:
        settings = Settings(task_runner="dask", dask_address=cluster.scheduler_address)
        if n_workers:
            assert configured_ingest(settings).task_runner.address == cluster.scheduler_address
        else:
            with pytest.raises(DaskUnreachable, match="TimeoutError"):
                configured_ingest(settings)
