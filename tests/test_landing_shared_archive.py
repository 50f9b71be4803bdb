"""One archive folder, two writers: two landing folders' runs (each with its warehouse), or a
person copying a file in. A name recorded in a warehouse must always hold the bytes loaded under
it (a hunt found two runs both recording `daily.txt`, the second's bytes archived beside it as
`daily-1.txt`), and each landing folder keeps its own claims."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import shutil
from pathlib import Path

import duckdb

SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"
DAY1, DAY2 = sorted(SAMPLES.iterdir())[:2]  # two digests without a paper in common
DAY = dt.date(2026, 12, 6)


def _land(landing: Path, name: str, source: Path) -> None:
    landing.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, landing / name)


def _found(landing: Path):
    from flows import extract

    return extract.discover([landing])[1]


def _hidden(folder: Path) -> list[str]:
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob(".*"))


def test_two_landing_folders_choose_distinct_names_before_either_moves(tmp_path):
    from flows.landing import archive_files, archive_targets

    archive = tmp_path / "archive"
    _land(tmp_path / "L1", "daily.txt", DAY1)
    _land(tmp_path / "L2", "daily.txt", DAY2)
    found1, found2 = _found(tmp_path / "L1"), _found(tmp_path / "L2")
    first = archive_targets(found1, tmp_path / "L1", archive, DAY)
    second = archive_targets(found2, tmp_path / "L2", archive, DAY)  # before the first moves

    day = archive / "2026" / "12" / "06"
    assert list(first.values()) == [day / "daily.txt"]
    assert list(second.values()) == [day / "daily-1.txt"]
    assert archive_files(found2, second) == [day / "daily-1.txt"]  # the second moves first
    assert archive_files(found1, first) == [day / "daily.txt"]
    assert (day / "daily.txt").read_bytes() == DAY1.read_bytes()
    assert (day / "daily-1.txt").read_bytes() == DAY2.read_bytes()
    assert _hidden(day) == []  # the reservations are gone once the files are there


def test_a_file_copied_in_at_the_reserved_name_is_set_aside_not_recorded_as_ours(tmp_path):
    """The loaded file goes to the name it was recorded under; what a person put there in the
    meantime is moved beside it, under a name no warehouse recorded."""
    from flows.landing import archive_files, archive_targets

    archive, landing = tmp_path / "archive", tmp_path / "landing"
    _land(landing, "daily.txt", DAY1)
    found = _found(landing)
    targets = archive_targets(found, landing, archive, DAY)
    target = targets[found[0].abs_path]
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(b"copied in by hand\n")  # between the load and the move

    assert archive_files(found, targets) == [target]
    assert target.read_bytes() == DAY1.read_bytes()
    assert (target.parent / "daily-1.txt").read_bytes() == b"copied in by hand\n"
    assert list(landing.iterdir()) == [] and _hidden(archive) == []


def test_a_name_another_landing_folder_reserved_is_not_a_claim_s(tmp_path):
    """A claim continues only to a name no one else holds."""
    from flows.landing import archive_targets

    archive = tmp_path / "archive"
    _land(tmp_path / "L1", "daily.txt", DAY1)
    _land(tmp_path / "L2", "daily.txt", DAY2)
    held = archive_targets(_found(tmp_path / "L1"), tmp_path / "L1", archive, DAY)
    claims = {"daily.txt": "2026/12/06/daily.txt"}  # a legacy claims file, read by every folder
    other = archive_targets(_found(tmp_path / "L2"), tmp_path / "L2", archive, DAY, claims)
    assert set(other.values()).isdisjoint(held.values())


def test_two_landing_folders_keep_their_own_claims(tmp_path):
    from flows.landing import read_claims, save_claims

    archive = tmp_path / "archive"
    save_claims(archive, tmp_path / "L1", {"daily.txt": "2026/12/06/daily.txt"})
    save_claims(archive, tmp_path / "L2", {"daily.txt": "2026/12/06/daily-1.txt"})
    assert read_claims(archive, tmp_path / "L1") == {"daily.txt": "2026/12/06/daily.txt"}
    assert read_claims(archive, tmp_path / "L2") == {"daily.txt": "2026/12/06/daily-1.txt"}
    save_claims(archive, tmp_path / "L1", {})
    assert read_claims(archive, tmp_path / "L1") == {}
    assert read_claims(archive, tmp_path / "L2") == {"daily.txt": "2026/12/06/daily-1.txt"}


def test_a_claims_file_of_the_previous_code_is_still_read(tmp_path):
    """Existing archives hold a flat {name in landing: archive name}: its landing folder is not
    known, so every landing folder reads it until a run of the folder that has the file settles it."""
    from flows.landing import CLAIMS, read_claims, save_claims

    archive = tmp_path / "archive"
    archive.mkdir()
    (archive / CLAIMS).write_text('{"daily.txt": "2026/12/06/daily.txt"}', encoding="utf-8")
    assert read_claims(archive, tmp_path / "L1") == {"daily.txt": "2026/12/06/daily.txt"}
    save_claims(archive, tmp_path / "L2", {"other.txt": "2026/12/06/other.txt"})  # L2 has no daily.txt
    # L2's own daily.txt (another digest: the claim was not continued) is claimed under another name
    save_claims(archive, tmp_path / "L2", {"daily.txt": "2026/12/06/daily-1.txt", "other.txt": "2026/12/06/other.txt"})
    assert read_claims(archive, tmp_path / "L2")["daily.txt"] == "2026/12/06/daily-1.txt"
    assert read_claims(archive, tmp_path / "L1") == {"daily.txt": "2026/12/06/daily.txt"}
    save_claims(archive, tmp_path / "L1", {}, settled={"daily.txt"})  # L1 moved it
    assert read_claims(archive, tmp_path / "L1") == {}
    assert read_claims(archive, tmp_path / "L2") == {"daily.txt": "2026/12/06/daily-1.txt",
                                                     "other.txt": "2026/12/06/other.txt"}
    assert "daily.txt" not in json.loads((archive / CLAIMS).read_text(encoding="utf-8"))


def test_two_landing_runs_on_one_archive_record_the_names_their_bytes_are_under(prefect_harness, tmp_path,
                                                                               monkeypatch):
    """The second run chooses its names, loads and moves while the first is loading (the hunt's
    race, made certain): each warehouse's names hold the bytes it loaded, and no claim is left."""
    import flows.ingest
    import flows.landing

    archive = tmp_path / "archive"
    _land(tmp_path / "L1", "daily.txt", DAY1)
    _land(tmp_path / "L2", "daily.txt", DAY2)
    real_ingest = flows.ingest.ingest

    def the_other_run_meanwhile(**kwargs):
        monkeypatch.setattr(flows.landing, "configured_ingest", lambda settings: real_ingest)
        flows.landing.ingest_landing(landing=tmp_path / "L2", archive=archive, warehouse=tmp_path / "W2.duckdb")
        return real_ingest(**kwargs)

    monkeypatch.setattr(flows.landing, "configured_ingest", lambda settings: the_other_run_meanwhile)
    flows.landing.ingest_landing(landing=tmp_path / "L1", archive=archive, warehouse=tmp_path / "W1.duckdb")

    recorded = {}
    for warehouse in ("W1.duckdb", "W2.duckdb"):
        with duckdb.connect(str(tmp_path / warehouse), read_only=True) as con:
            recorded[warehouse] = con.execute("SELECT path, sha256 FROM dim_source_file").fetchall()
    assert sorted(Path(path).name for rows in recorded.values() for path, _ in rows) == ["daily-1.txt", "daily.txt"]
    for rows in recorded.values():
        [(path, sha256)] = rows
        assert hashlib.sha256((tmp_path / path).read_bytes()).hexdigest() == sha256
    assert not (archive / flows.landing.CLAIMS).exists()
    assert [p for p in _hidden(archive) if not p.endswith(".lock")] == []
    assert list((tmp_path / "L1").iterdir()) == list((tmp_path / "L2").iterdir()) == []


def test_a_claimed_name_stays_reserved_for_its_landing_folder_between_runs(prefect_harness, tmp_path, monkeypatch):
    """A file left in L1 mid-write holds its name till its next run: another landing folder's run
    the same day chose it once it was free again, and L1's next load was a second file (its
    first part counted twice)."""
    import flows.ingest
    import flows.landing

    archive = tmp_path / "archive"
    text = DAY1.read_text(encoding="utf-8")
    cut = text.index("\n#", len(text) // 2) + 1
    (tmp_path / "L1").mkdir()
    (tmp_path / "L1" / "daily.txt").write_text(text[:cut], encoding="utf-8")
    real_ingest = flows.ingest.ingest

    def still_being_written(**kwargs):
        summary = real_ingest(**kwargs)
        (tmp_path / "L1" / "daily.txt").write_text(text, encoding="utf-8")
        return summary

    monkeypatch.setattr(flows.landing, "configured_ingest", lambda settings: still_being_written)
    w1 = tmp_path / "W1.duckdb"
    assert flows.landing.ingest_landing(landing=tmp_path / "L1", archive=archive, warehouse=w1)["archived"] == []
    monkeypatch.setattr(flows.landing, "configured_ingest", lambda settings: real_ingest)
    _land(tmp_path / "L2", "daily.txt", DAY2)
    second = flows.landing.ingest_landing(landing=tmp_path / "L2", archive=archive, warehouse=tmp_path / "W2.duckdb")
    third = flows.landing.ingest_landing(landing=tmp_path / "L1", archive=archive, warehouse=w1)

    [taken] = second["archived"]
    [continued] = third["archived"]
    assert Path(continued).read_text(encoding="utf-8") == text and Path(taken).read_bytes() == DAY2.read_bytes()
    with duckdb.connect(str(w1), read_only=True) as con:
        assert con.execute("SELECT path, version, is_current FROM dim_source_file ORDER BY version").fetchall() == [
            (Path(continued).relative_to(tmp_path).as_posix(), 1, False),
            (Path(continued).relative_to(tmp_path).as_posix(), 2, True)]
    assert [p for p in _hidden(archive) if not p.endswith(".lock")] == []
