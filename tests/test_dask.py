"""Scale-out (issue 5): the parse tasks on a local Dask cluster give exactly the warehouse the
in-process run gives."""

from __future__ import annotations

from pathlib import Path

from flows.integrity import content_checksums
from flows.settings import Settings

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
