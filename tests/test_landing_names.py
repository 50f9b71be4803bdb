"""The landing folder's names: a file that arrives under a name an earlier day's file had is a
file of its own (landing/ is emptied by every run, so a new arrival is never an edit), and an
archive folder inside the landing folder is refused before it is walked."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import pytest

SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"
DAY1, DAY2 = sorted(SAMPLES.iterdir())[:2]  # two digests without a paper in common


def _land(landing: Path, name: str, source: Path) -> None:
    landing.mkdir(exist_ok=True)
    shutil.copyfile(source, landing / name)


def _rows(warehouse: Path, sql: str) -> list[tuple]:
    with duckdb.connect(str(warehouse), read_only=True) as con:
        return con.execute(sql).fetchall()


def test_a_name_that_lands_again_is_a_new_file_not_a_new_version(prefect_harness, tmp_path):
    from flows.landing import ingest_landing

    landing, archive, warehouse = tmp_path / "landing", tmp_path / "archive", tmp_path / "w.duckdb"
    _land(landing, "daily.txt", DAY1)
    first = ingest_landing(landing=landing, archive=archive, warehouse=warehouse)
    _land(landing, "daily.txt", DAY2)  # the feed writes the same name every day
    second = ingest_landing(landing=landing, archive=archive, warehouse=warehouse)

    assert [Path(p).name for p in first["archived"] + second["archived"]] == ["daily.txt", "daily-1.txt"]
    files = _rows(warehouse, "SELECT path, version, is_current FROM dim_source_file ORDER BY path")
    day = Path(first["archived"][0]).parent.relative_to(tmp_path).as_posix()  # archive/YYYY/MM/DD
    assert files == [(f"{day}/daily-1.txt", 1, True), (f"{day}/daily.txt", 1, True)]
    assert _rows(warehouse, "SELECT count(*) FROM fact_listing_history") == [(0,)]
    n_listings = first["n_listings"] + second["n_listings"]
    assert _rows(warehouse, "SELECT count(*) FROM fact_listing") == [(n_listings,)]
    # papers listed on day 1 only are still there
    assert _rows(warehouse, "SELECT count(*) FROM dim_paper") == [(first["n_papers"] + second["n_new_papers"],)]
    assert second["n_new_papers"] > 0


def test_a_file_edited_in_place_is_still_a_new_version_for_digest_ingest(run_ingest, tmp_path):
    """The version rule of a folder ingested where it is stays as it was."""
    folder, warehouse = tmp_path / "feed", tmp_path / "w.duckdb"
    _land(folder, "daily.txt", DAY1)
    run_ingest([folder], warehouse)
    _land(folder, "daily.txt", DAY2)
    run_ingest([folder], warehouse)
    assert _rows(warehouse, "SELECT path, version, is_current FROM dim_source_file ORDER BY version") == [
        ("feed/daily.txt", 1, False), ("feed/daily.txt", 2, True)]


@pytest.mark.parametrize("inside", ["arch", "."])
def test_an_archive_inside_the_landing_folder_is_refused_before_anything_moves(prefect_harness, tmp_path, inside):
    from flows.landing import ingest_landing

    landing = tmp_path / "landing"
    _land(landing, "daily.txt", DAY1)
    with pytest.raises(ValueError, match="inside the landing folder"):
        ingest_landing(landing=landing, archive=landing / inside, warehouse=tmp_path / "w.duckdb")
    assert sorted(p.name for p in landing.iterdir()) == ["daily.txt"]
    assert not (tmp_path / "w.duckdb").exists()
