"""Members of a .zip or .tar that cannot each be a file of their own: two at one path (a tar
appended to with `tar rf`, a zip written twice) and a path that climbs out (`b/../../x.txt`).
Each is kept or refused with a skipped_file row; none fails the run, none vanishes."""

from __future__ import annotations

import io
import re
import tarfile
import warnings
import zipfile
from pathlib import Path

import duckdb

from flows import extract

SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"
DAY1, DAY2, GOOD = (p.read_bytes() for p in sorted(SAMPLES.iterdir())[:3])
LIMITS = extract.ReadLimits(max_file_bytes=1 << 24)


def _zip(members: list[tuple[str, bytes]]) -> bytes:
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns of a duplicate name, and writes it
        for name, data in members:
            archive.writestr(name, data)
    return packed.getvalue()


def _tar(members: list[tuple[str, bytes]]) -> bytes:
    packed = io.BytesIO()
    with tarfile.open(fileobj=packed, mode="w") as archive:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return packed.getvalue()


def _read(folder: Path) -> tuple[dict[str, bytes], dict[str, str]]:
    found = extract.discover([folder], limits=LIMITS)[1]
    sources, _, skipped = extract.read_sources(found, LIMITS)
    return {s.path: s.data for s in sources}, dict(skipped.iter_rows())


def test_of_two_members_at_one_path_the_last_is_read_and_the_other_recorded(tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "twice.zip").write_bytes(_zip([("day.txt", b"old"), ("other.txt", b"o"), ("day.txt", b"new")]))
    (inbox / "appended.tar").write_bytes(_tar([("./day.txt", b"old"), ("day.txt", b"newer")]))  # tar rf
    read, skipped = _read(inbox)
    assert read == {"inbox/twice.zip!/day.txt": b"new", "inbox/twice.zip!/other.txt": b"o",
                    "inbox/appended.tar!/day.txt": b"newer"}
    assert skipped.keys() == {"inbox/twice.zip!/day.txt", "inbox/appended.tar!/day.txt"}
    assert all(reason.startswith("duplicate member path") for reason in skipped.values())


def test_a_member_path_that_climbs_out_is_recorded_not_dropped(tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "a.zip").write_bytes(_zip([("b/evil/../../x.txt", b"evil"), ("b/ok.txt", b"ok"),
                                        ("..\\up.txt", b"up"), ("b/.hidden", b"h")]))
    (inbox / "t.tar").write_bytes(_tar([("../x.txt", b"evil")]))
    read, skipped = _read(inbox)
    assert read == {"inbox/a.zip!/b/ok.txt": b"ok"}  # the hidden member is left out, as before
    paths = {re.sub(r"\\+", "/", path) for path in skipped}  # (a backslash is escaped)
    assert paths == {"inbox/a.zip!/b/evil/../../x.txt", "inbox/a.zip!/../up.txt", "inbox/t.tar!/../x.txt"}
    assert all(reason.startswith("unsafe member path") for reason in skipped.values())
    assert list(tmp_path.iterdir()) == [inbox]  # nothing written anywhere


def test_a_run_with_duplicate_and_unsafe_members_completes_and_loads_the_good_file(run_ingest, tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "good.txt").write_bytes(GOOD)
    (inbox / "twice.zip").write_bytes(_zip([("day.txt", DAY1), ("day.txt", DAY2), ("b/../../x.txt", DAY1)]))
    (inbox / "appended.tar").write_bytes(_tar([("day.txt", DAY2), ("day.txt", DAY1)]))
    warehouse = tmp_path / "w.duckdb"
    summary = run_ingest([inbox], warehouse)

    with duckdb.connect(str(warehouse), read_only=True) as con:
        files = con.execute("SELECT path, is_current FROM dim_source_file ORDER BY path").fetchall()
        skipped = dict(con.execute("SELECT path, reason FROM skipped_file").fetchall())
        (status,) = con.execute("SELECT status FROM ingest_run").fetchone()
    assert status == "completed"
    assert files == [("inbox/appended.tar!/day.txt", True), ("inbox/good.txt", True), ("inbox/twice.zip!/day.txt", True)]
    assert skipped["inbox/twice.zip!/day.txt"].startswith("duplicate member path")
    assert skipped["inbox/appended.tar!/day.txt"].startswith("duplicate member path")
    assert skipped["inbox/twice.zip!/b/../../x.txt"].startswith("unsafe member path")
    assert summary["n_listings"] > 0 and "could not be read" in summary["warning"]
