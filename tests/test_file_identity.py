"""One file on disk is one file in the warehouse, whatever folder it was named through (hunt 44,
finding 1): its path was relative to the folders named, so a file corrected in place and read
again through its sub-folder, its parent, by its own name from another working directory or
through a symlinked folder became a second current file beside its old version (the old
listings counted twice, a deleted record and a removed author stayed, `digest audit` passed).
Now each version records where its file is (`dim_source_file.location`) and a file found there
again is that path's next version. And the reverse: two different files that get one relative
path under two roots are not versions of each other while both are on disk."""

from __future__ import annotations

import io
import json
import os
import shutil
import zipfile
from pathlib import Path

import duckdb
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import rows

# Two records of a daily listing, as arXiv's mailer prints them (realdata-like titles, authors, abstracts).
RECORD_1 = ("Sparse Autoencoders Find Interpretable Features in Vision Transformers",
            "Hannah Rieger, Tomasz Kowalski, Priya Raman",
            "We train sparse autoencoders on the residual stream of vision transformers and show that most learned "
            "features respond to a single visual concept. Features transfer across model sizes and reveal failure "
            "modes that attention maps miss.")
RECORD_2 = ("Curriculum Sampling for Low-Resource Speech Recognition",
            "Mateo Alvarez, Yuki Tanaka",
            "Low-resource speech recognition suffers from noisy and unevenly difficult training data. We propose a "
            "curriculum sampler that orders utterances by an estimate of their difficulty and cut word error rates "
            "by a fifth on four languages.")
DAY = "Feb 13, 2026"


def listing(*records: tuple[str, str, str]) -> str:
    return "\n".join(f"#{i:02d}{DAY}\ncs.LG\n{title}\n{authors}\n{abstract}"
                     for i, (title, authors, abstract) in enumerate(records, 1)) + "\n"


ORIGINAL = listing(RECORD_1, RECORD_2)
# Corrected in place: a wrong third author removed, the second record (a wrong paste) deleted.
CORRECTED = listing((RECORD_1[0], "Hannah Rieger, Tomasz Kowalski", RECORD_1[2]))




def files(warehouse: Path) -> list[tuple]:
    return rows(warehouse, "SELECT path, version, is_current, n_listings FROM dim_source_file ORDER BY path, version")


def papers(warehouse: Path) -> list[tuple]:
    return rows(warehouse, "SELECT title, authors, n_listings FROM dim_paper ORDER BY title")


def assert_corrected(warehouse: Path, path: str = "digests/feb/day.txt") -> None:
    """What a fresh load of the corrected file holds, the first version kept as history."""
    assert files(warehouse) == [(path, 1, False, 2), (path, 2, True, 1)]
    assert papers(warehouse) == [(RECORD_1[0], ["Hannah Rieger", "Tomasz Kowalski"], 1)]
    assert rows(warehouse, "SELECT count(*) FROM fact_listing") == [(1,)]
    assert rows(warehouse, "SELECT n_listings FROM marts.warehouse_summary") == [(1,)]


@pytest.fixture()
def tree(tmp_path) -> Path:
    """tmp/archive/digests/feb/day.txt; the warehouse beside the archive."""
    feb = tmp_path / "archive" / "digests" / "feb"
    feb.mkdir(parents=True)
    (feb / "day.txt").write_text(ORIGINAL, encoding="utf-8")
    return tmp_path


def _subfolder(tree: Path, monkeypatch) -> list[Path]:
    return [tree / "archive" / "digests" / "feb"]


def _parent(tree: Path, monkeypatch) -> list[Path]:
    return [tree / "archive"]


def _the_file(tree: Path, monkeypatch) -> list[Path]:
    return [tree / "archive" / "digests" / "feb" / "day.txt"]


def _relative_from_another_cwd(tree: Path, monkeypatch) -> list[Path]:
    monkeypatch.chdir(tree / "archive" / "digests")
    return [Path("feb")]


def _symlinked_folder(tree: Path, monkeypatch) -> list[Path]:
    (tree / "this-month").symlink_to(tree / "archive" / "digests" / "feb", target_is_directory=True)
    return [tree / "this-month"]


@pytest.mark.parametrize("named", [_subfolder, _parent, _the_file, _relative_from_another_cwd, _symlinked_folder],
                         ids=["its sub-folder", "the parent folder", "the file itself",
                              "relative, from another cwd", "a symlinked folder"])
def test_a_file_corrected_in_place_is_its_next_version_whatever_folder_is_named(cli, tree, monkeypatch, named):
    warehouse = tree / "w.duckdb"
    cli("ingest", tree / "archive" / "digests", "-w", warehouse)
    assert files(warehouse) == [("digests/feb/day.txt", 1, True, 2)]

    (tree / "archive" / "digests" / "feb" / "day.txt").write_text(CORRECTED, encoding="utf-8")
    other_way = named(tree, monkeypatch)
    cli("ingest", *other_way, "-w", warehouse)
    assert_corrected(warehouse)
    assert "0 files with problems" in cli("audit", "-w", warehouse).output
    location = rows(warehouse, "SELECT DISTINCT location FROM dim_source_file")
    assert location == [(os.path.realpath(tree / "archive" / "digests" / "feb" / "day.txt"),)]
    unchanged = json.loads(cli("ingest", *other_way, "-w", warehouse, "--json").stdout)
    assert (unchanged["n_files_new"], unchanged["flow_run"]) == (0, False)  # known where it is: skipped unread


@pytest.mark.parametrize("link", ["digests/feb/alias.txt", "digests/feb/zz-link.txt", "digests/picks/fav.txt"])
def test_a_file_and_a_link_to_it_stay_one_file_when_it_is_edited(cli, tree, link):
    """A file and a link to it, found in one run, have one location: once the file was edited both
    took its path, and every run failed (a listing id twice) until the link was removed (the
    session's review). Now one takes the path; the link meets it as a copy."""
    (tree / "archive" / link).parent.mkdir(parents=True, exist_ok=True)
    (tree / "archive" / link).symlink_to(tree / "archive" / "digests" / "feb" / "day.txt")
    warehouse = tree / "w.duckdb"
    cli("ingest", tree / "archive" / "digests", "-w", warehouse)
    first = rows(warehouse, "SELECT path FROM dim_source_file")
    (tree / "archive" / "digests" / "feb" / "day.txt").write_text(CORRECTED, encoding="utf-8")
    cli("ingest", tree / "archive" / "digests", "-w", warehouse)
    assert_corrected(warehouse, first[0][0])
    assert "0 files with problems" in cli("audit", "-w", warehouse).output
    again = json.loads(cli("ingest", tree / "archive" / "digests", "-w", warehouse, "--json").stdout)
    assert again["n_files_new"] == 0


def test_a_link_added_as_its_file_is_edited_does_not_keep_the_old_version(cli, tree):
    """A link named before the file ("aaa.txt") made with the edit: both read the new content, and
    the first path won, a new file beside the old version, which stayed current (its listings
    counted twice). The path the warehouse knows takes its next version."""
    warehouse = tree / "w.duckdb"
    cli("ingest", tree / "archive" / "digests", "-w", warehouse)
    day = tree / "archive" / "digests" / "feb" / "day.txt"
    day.write_text(CORRECTED, encoding="utf-8")
    (day.parent / "aaa.txt").symlink_to(day)
    cli("ingest", tree / "archive" / "digests", "-w", warehouse)
    assert_corrected(warehouse)


def _zip(member_text: str) -> bytes:
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        archive.writestr("day.txt", member_text)
    return packed.getvalue()


def test_an_archive_named_directly_is_the_next_version_of_its_members(cli, tmp_path):
    folder, warehouse = tmp_path / "digests", tmp_path / "w.duckdb"
    (folder / "2026").mkdir(parents=True)
    packed = folder / "2026" / "feb.zip"
    packed.write_bytes(_zip(ORIGINAL))
    cli("ingest", folder, "-w", warehouse)
    packed.write_bytes(_zip(CORRECTED))
    cli("ingest", packed, "-w", warehouse)  # recorded as 2026/feb.zip!/day.txt before
    assert_corrected(warehouse, "digests/2026/feb.zip!/day.txt")
    assert rows(warehouse, "SELECT DISTINCT location FROM dim_source_file") == [
        (os.path.realpath(packed) + "!/day.txt",)]


def test_a_moved_archive_meets_its_files_by_path_and_its_new_place_is_kept(cli, tree):
    warehouse = tree / "w.duckdb"
    cli("ingest", tree / "archive" / "digests", "-w", warehouse)
    shutil.move(tree / "archive", tree / "elsewhere")  # the whole folder moved: its files keep their ctime
    moved = tree / "elsewhere" / "digests"
    cli("ingest", moved, "-w", warehouse)  # same relative paths: nothing new, and it is known where it is now
    assert files(warehouse) == [("digests/feb/day.txt", 1, True, 2)]

    (moved / "feb" / "day.txt").write_text(CORRECTED, encoding="utf-8")
    cli("ingest", moved / "feb", "-w", warehouse)  # its sub-folder, at the new place
    assert_corrected(warehouse)
    assert rows(warehouse, "SELECT DISTINCT location FROM dim_source_file") == [
        (os.path.realpath(moved / "feb" / "day.txt"),)]


def test_two_different_files_at_one_relative_path_do_not_replace_each_other(cli, tree):
    """`digest ingest /a/digests`, then `/b/digests`: two digests, not two versions of one. The
    second replaced the first's listings without a word; now it is skipped, loudly, and a run
    naming a folder that holds both loads both."""
    warehouse = tree / "w.duckdb"
    cli("ingest", tree / "archive" / "digests", "-w", warehouse)
    other = tree / "mirror" / "digests" / "feb"
    other.mkdir(parents=True)
    (other / "day.txt").write_text(listing(RECORD_2), encoding="utf-8")  # another day's digest, same name

    result = cli("ingest", tree / "mirror" / "digests", "-w", warehouse)
    assert "another file is current at this path" in result.output
    assert files(warehouse) == [("digests/feb/day.txt", 1, True, 2)]  # the first file's listings stay
    (reason,) = rows(warehouse, "SELECT reason FROM skipped_file WHERE path = 'digests/feb/day.txt'")[0]
    assert os.path.realpath(tree / "archive" / "digests" / "feb" / "day.txt") in reason

    cli("ingest", tree / "archive", tree / "mirror", "-w", warehouse)  # what the reason says: both, from above
    assert files(warehouse) == [("digests/feb/day.txt", 1, True, 2), ("mirror/digests/feb/day.txt", 1, True, 1)]
    assert rows(warehouse, "SELECT count(*) FROM fact_listing") == [(3,)]

    shutil.copytree(tree / "archive" / "digests", tree / "backup" / "digests")  # a byte copy: no warning
    result = cli("ingest", tree / "backup" / "digests", "-w", warehouse)
    assert "warning" not in result.output
    assert rows(warehouse, "SELECT reason FROM skipped_file WHERE path = 'digests/feb/day.txt' ORDER BY reason") == [
        ("another file is current at this path" + reason.removeprefix("another file is current at this path"),),
        ("content already ingested",)]
    assert rows(warehouse, "SELECT location FROM dim_source_file WHERE path = 'digests/feb/day.txt'") == [
        (os.path.realpath(tree / "archive" / "digests" / "feb" / "day.txt"),)]  # still the original's


def test_a_warehouse_from_before_locations_learns_them_on_its_next_run(cli, tree):
    warehouse = tree / "w.duckdb"
    cli("ingest", tree / "archive" / "digests", "-w", warehouse)
    with duckdb.connect(str(warehouse)) as con:  # as a warehouse of the earlier code holds it
        con.execute("ALTER TABLE dim_source_file DROP COLUMN IF EXISTS location")
    cli("ingest", tree / "archive" / "digests", "-w", warehouse)  # read once more: content already ingested
    (tree / "archive" / "digests" / "feb" / "day.txt").write_text(CORRECTED, encoding="utf-8")
    cli("ingest", tree / "archive" / "digests" / "feb", "-w", warehouse)
    assert_corrected(warehouse)


def test_a_landed_file_is_known_at_its_archive_place(prefect_harness, cli, tmp_path):
    """The landing flow records a file under its archive path and where it is moved to: edited
    there and read through a folder of the archive, it is that file's next version."""
    from flows.landing import ingest_landing

    landing, archive, warehouse = tmp_path / "landing", tmp_path / "archive", tmp_path / "w.duckdb"
    landing.mkdir()
    (landing / "day.txt").write_text(ORIGINAL, encoding="utf-8")
    (archived,) = ingest_landing(landing=landing, archive=archive, warehouse=warehouse)["archived"]
    recorded = Path(archived).relative_to(tmp_path).as_posix()  # archive/YYYY/MM/DD/day.txt
    assert files(warehouse) == [(recorded, 1, True, 2)]

    Path(archived).write_text(CORRECTED, encoding="utf-8")
    cli("ingest", Path(archived).parent, "-w", warehouse)  # the day's folder of the archive
    assert_corrected(warehouse, recorded)
    assert rows(warehouse, "SELECT DISTINCT location FROM dim_source_file") == [(os.path.realpath(archived),)]


FOLDER_NAMES = st.text(st.sampled_from("ab-_ !é\\x"), min_size=1, max_size=5).filter(
    lambda n: n.strip() and not n.startswith(".") and n not in {".", ".."})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(folders=st.lists(FOLDER_NAMES, min_size=1, max_size=4), linked=st.integers(0, 3), cwd=st.integers(0, 4))
def test_one_file_has_one_location_whatever_it_is_named_through(tmp_path_factory, folders, linked, cwd):
    """Discovery's `location` of a file is the same through each of its folders, the file itself,
    a symlink to one of its folders and a path relative to another working directory; recorded
    under the first naming's path, every other naming is identified as that path."""
    from flows import extract

    top = tmp_path_factory.mktemp("identity")
    chain = [top.joinpath(*folders[:i]) for i in range(1, len(folders) + 1)]
    chain[-1].mkdir(parents=True)
    day = chain[-1] / "day.txt"
    day.write_text(ORIGINAL, encoding="utf-8")
    link = top / "link"
    link.symlink_to(chain[min(linked, len(chain) - 1)], target_is_directory=True)
    here = chain[min(cwd, len(chain) - 1)].parent
    namings = [[folder] for folder in chain] + [[day], [link], [Path(os.path.relpath(day, here))]]
    found = {}
    old = os.getcwd()
    try:
        os.chdir(here)
        for naming in namings:
            (f,) = extract.discover(naming)[1]
            found[str(naming[0])] = f
    finally:
        os.chdir(old)
    assert {f.location for f in found.values()} == {extract.location(day)}
    first = found[str(chain[0])]
    current = {first.path: {first.location}}
    # each naming is a run of its own (found together, one of them takes the path: the link test above)
    assert {extract.identified([f], current)[0].path for f in found.values()} == {first.path}
