"""The landing folder's names: a file that arrives under a name an earlier day's file had is a
file of its own (landing/ is emptied by every run, so a new arrival is never an edit), and an
archive folder inside the landing folder is refused before it is walked."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path
from types import SimpleNamespace

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


def _on(monkeypatch, day: dt.date) -> None:
    """The landing flow's clock at 06:00 UTC of `day` (the default schedule's run)."""
    import flows.landing

    class Clock(dt.datetime):
        @classmethod
        def now(cls, tz=None):
            return dt.datetime.combine(day, dt.time(6, 0), tzinfo=dt.timezone.utc)

    monkeypatch.setattr(flows.landing, "dt", SimpleNamespace(datetime=Clock, timezone=dt.timezone, date=dt.date))


@pytest.mark.parametrize("left_by", ["still being written", "archive move failed"])
def test_a_file_left_in_landing_after_its_load_is_a_new_version_of_it_the_next_day(prefect_harness, tmp_path,
                                                                                    monkeypatch, left_by):
    """A digest still being written at the 06:00 run was loaded in part and left in landing (it
    changed); the next day's run loaded it in full under that day's archive name: two current
    files, every listing of its first records counted twice, and lineage naming a file never
    written (a hunt's find). So did a move that failed after the load."""
    import flows.ingest
    import flows.landing

    landing, archive, warehouse = tmp_path / "landing", tmp_path / "archive", tmp_path / "w.duckdb"
    text = DAY1.read_text(encoding="utf-8")
    cut = text.index("\n#", len(text) // 2) + 1  # at a record's start: the first part is whole records
    landing.mkdir()
    (landing / "daily.txt").write_text(text[:cut], encoding="utf-8")
    real_ingest = flows.ingest.ingest

    def writer_finishes_during_the_run(**kwargs):
        summary = real_ingest(**kwargs)
        if left_by == "still being written":
            (landing / "daily.txt").write_text(text, encoding="utf-8")
        else:
            monkeypatch.setattr(flows.landing.shutil, "move", _fails_once(flows.landing.shutil.move, monkeypatch))
        return summary

    monkeypatch.setattr(flows.landing, "configured_ingest", lambda settings: writer_finishes_during_the_run)
    _on(monkeypatch, dt.date(2026, 12, 6))
    if left_by == "still being written":
        assert flows.landing.ingest_landing(landing=landing, archive=archive, warehouse=warehouse)["archived"] == []
    else:
        with pytest.raises(OSError):
            flows.landing.ingest_landing(landing=landing, archive=archive, warehouse=warehouse)
        (landing / "daily.txt").write_text(text, encoding="utf-8")  # and the feed wrote the rest since
    monkeypatch.setattr(flows.landing, "configured_ingest", lambda settings: real_ingest)
    _on(monkeypatch, dt.date(2026, 12, 7))
    second = flows.landing.ingest_landing(landing=landing, archive=archive, warehouse=warehouse)

    assert second["archived"] == [str(archive / "2026" / "12" / "06" / "daily.txt")]
    assert _rows(warehouse, "SELECT path, version, is_current FROM dim_source_file ORDER BY version") == [
        ("archive/2026/12/06/daily.txt", 1, False), ("archive/2026/12/06/daily.txt", 2, True)]
    n_records = text.count("\n#") + text.startswith("#")
    assert _rows(warehouse, "SELECT count(*), count(DISTINCT paper_id) FROM fact_listing") == [(n_records, n_records)]
    assert sorted(p.name for p in landing.iterdir()) == []


def _fails_once(move, monkeypatch):
    def failing(source, target):
        import flows.landing

        monkeypatch.setattr(flows.landing.shutil, "move", move)
        raise PermissionError(f"cannot move {source}")
    return failing


def test_another_digest_under_a_left_file_s_name_is_a_file_of_its_own(prefect_harness, tmp_path, monkeypatch):
    """The file left in landing was replaced by the next day's digest under its name before the
    next run: a version of the claimed file, it would drop the first day's listings."""
    import flows.ingest
    import flows.landing

    landing, archive, warehouse = tmp_path / "landing", tmp_path / "archive", tmp_path / "w.duckdb"
    _land(landing, "daily.txt", DAY1)
    real_ingest = flows.ingest.ingest

    def touched_during_the_run(**kwargs):
        summary = real_ingest(**kwargs)
        with (landing / "daily.txt").open("a", encoding="utf-8") as f:
            f.write("\n")
        return summary

    monkeypatch.setattr(flows.landing, "configured_ingest", lambda settings: touched_during_the_run)
    _on(monkeypatch, dt.date(2026, 12, 6))
    flows.landing.ingest_landing(landing=landing, archive=archive, warehouse=warehouse)
    assert (archive / flows.landing.CLAIMS).exists()
    _land(landing, "daily.txt", DAY2)
    monkeypatch.setattr(flows.landing, "configured_ingest", lambda settings: real_ingest)
    _on(monkeypatch, dt.date(2026, 12, 7))
    flows.landing.ingest_landing(landing=landing, archive=archive, warehouse=warehouse)
    assert _rows(warehouse, "SELECT path, version, is_current FROM dim_source_file ORDER BY path") == [
        ("archive/2026/12/06/daily.txt", 1, True), ("archive/2026/12/07/daily.txt", 1, True)]
    assert not (archive / flows.landing.CLAIMS).exists()


def test_a_landing_run_that_finds_its_files_gone_has_nothing_to_do(prefect_harness, tmp_path, monkeypatch):
    """Two landing runs at once: the second waited for the writer lock while the first archived
    every file, then failed with a NothingFound traceback."""
    import flows.ingest
    import flows.landing

    landing, archive, warehouse = tmp_path / "landing", tmp_path / "archive", tmp_path / "w.duckdb"
    _land(landing, "daily.txt", DAY1)
    real_ingest = flows.ingest.ingest

    def another_run_went_first(**kwargs):
        (landing / "daily.txt").rename(tmp_path / "taken.txt")
        return real_ingest(**kwargs)

    monkeypatch.setattr(flows.landing, "configured_ingest", lambda settings: another_run_went_first)
    assert flows.landing.ingest_landing(landing=landing, archive=archive, warehouse=warehouse) == {"archived": []}


def test_a_claim_stays_while_its_file_is_in_landing_and_unreadable(prefect_harness, tmp_path, monkeypatch):
    """A claimed file unreadable at the next run (its permissions, a lock) lost its claim: the
    run after loaded it as a second file."""
    import flows.ingest
    import flows.landing

    landing, archive, warehouse = tmp_path / "landing", tmp_path / "archive", tmp_path / "w.duckdb"
    _land(landing, "daily.txt", DAY1)
    claims = archive / flows.landing.CLAIMS
    archive.mkdir()
    claims.write_text('{"daily.txt": "2026/12/06/daily.txt"}', encoding="utf-8")
    _land(landing, "other.txt", DAY2)
    found = [f for f in flows.landing.extract.discover([landing])[1] if f.path.endswith("other.txt")]
    monkeypatch.setattr(flows.landing.extract, "discover", lambda *a, **k: ([], found))  # daily.txt unread
    flows.landing.ingest_landing(landing=landing, archive=archive, warehouse=warehouse)
    assert flows.landing.read_claims(archive, landing) == {"daily.txt": "2026/12/06/daily.txt"}


def test_a_claims_prefix_check_reads_past_one_block_and_refuses_a_shorter_file(tmp_path):
    import hashlib

    from flows.landing import _begins_with

    data = bytes(range(256)) * 9000  # 2.2 MiB: three blocks
    path = tmp_path / "daily.txt"
    path.write_bytes(data + b"more records")
    assert _begins_with(path, len(data), hashlib.sha256(data).hexdigest())
    assert not _begins_with(path, len(data), hashlib.sha256(data[:-1] + b"x").hexdigest())
    path.write_bytes(data[:1000])
    assert not _begins_with(path, len(data), hashlib.sha256(data).hexdigest())
