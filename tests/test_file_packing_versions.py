"""A location on disk whose bytes change packing between versions (hunt 45, finding F4): `day.txt`
ingested as plain text, then re-saved under its name as gzip bytes with one record removed (the
bytes, not the name, say what is packed). Its member `day.txt!/day.txt` became a current file
beside the old plain version, which stayed current: every listing counted twice, the removed
record stayed, `digest audit` passed. The same for every packing, both ways: what a location
holds now replaces what it held before, as a fresh load of the files as they are would have it."""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import tarfile
import zipfile
from pathlib import Path

import duckdb
import pytest

from bench.corpus import default_realdata
from tests.conftest import rows

LISTINGS = default_realdata() / "arxiv_daydayarxiv_csAI_listings.jsonl"
pytestmark = pytest.mark.skipif(not LISTINGS.is_file(), reason=f"real listings not found at {LISTINGS} "
                                "(set DIGEST_REALDATA to ../shared/realdata)")
DAY = "Feb 10, 2026"


def real_records(n: int) -> list[str]:
    """`n` records of real cs.AI listings (distinct titles), as arXiv's mailer prints them, unnumbered."""
    records, titles = [], set()
    with LISTINGS.open(encoding="utf-8") as lines:
        for line in lines:
            paper = json.loads(line)
            title, authors = " ".join(paper["title"].split()), [" ".join(a.split()) for a in paper["authors"]]
            if title in titles or not authors:
                continue
            titles.add(title)
            shown = ", ".join(authors[:3]) + (f" and {len(authors) - 3} more" if len(authors) > 3 else "")
            records.append(f"{paper['primary_category']}\n{title}\n{shown}\n{' '.join(paper['abstract'].split())}")
            if len(records) == n:
                return records
    raise AssertionError(f"fewer than {n} usable records in {LISTINGS}")


def digest(records: list[str]) -> bytes:
    return "".join(f"#{i:02d}{DAY}\n{r}\n" for i, r in enumerate(records, 1)).encode()


def _zip(members: dict[str, bytes]) -> bytes:
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return packed.getvalue()


def _tar(members: dict[str, bytes]) -> bytes:
    packed = io.BytesIO()
    with tarfile.open(fileobj=packed, mode="w") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return packed.getvalue()


# What a location's bytes are, given its records: each under the same name on disk.
PACKINGS = {
    "plain": digest,
    "gz": lambda records: gzip.compress(digest(records)),
    "bz2": lambda records: bz2.compress(digest(records)),
    "xz": lambda records: lzma.compress(digest(records)),
    "zip": lambda records: _zip({"day.txt": digest(records)}),
    "zip2": lambda records: _zip({"a.txt": digest(records[:1]), "b.txt": digest(records[1:])}),  # several members
    "tar": lambda records: _tar({"feb/day.txt": digest(records)}),
    "tgz": lambda records: gzip.compress(_tar({"feb/day.txt": digest(records)})),
    "zipgz": lambda records: _zip({"day.txt": gzip.compress(digest(records))}),  # a member packed in turn
    "zip-renamed": lambda records: _zip({"day-renamed.txt": digest(records)}),
}
# (before, after, whether the records stay the same: only the packing changes)
CHANGES = [(a, b, False) for a in ("gz", "bz2", "xz", "zip", "zip2", "tar", "tgz") for b in ("plain",)] + \
          [(a, b, False) for a in ("plain",) for b in ("gz", "bz2", "xz", "zip", "zip2", "tar", "tgz")] + \
          [("gz", "zip2", False), ("zip2", "tar", False), ("zip", "zipgz", False), ("zipgz", "zip", False),
           ("plain", "gz", True), ("gz", "plain", True), ("zip2", "plain", True), ("zip", "zip-renamed", True)]


def location_name(i: int, before: str, after: str, same: bool) -> str:
    return f"{i:02d}-{before}-to-{after}{'-same' if same else ''}.txt"




def current_state(warehouse: Path) -> dict[str, list[tuple]]:
    """What a fresh load and an incremental one of the same files must agree on."""
    return {
        "files": rows(warehouse, "SELECT path, n_listings FROM dim_source_file WHERE is_current ORDER BY path"),
        "listings": rows(warehouse, "SELECT f.path, l.position, p.title FROM fact_listing l "
                                    "JOIN dim_source_file f USING (source_file_id) JOIN dim_paper p USING (paper_id) "
                                    "ORDER BY ALL"),
        "papers": rows(warehouse, "SELECT title, authors, author_count, n_listings FROM dim_paper ORDER BY title"),
        "authors": rows(warehouse, "SELECT name, n_papers FROM dim_author ORDER BY ALL"),
        "summary": rows(warehouse, "SELECT n_files, n_listings, n_papers, n_authors, n_listing_days "
                                   "FROM marts.warehouse_summary"),
    }


def test_a_location_whose_bytes_change_packing_holds_only_its_newest_files(cli, tmp_path):
    """Each location: three records, then the same name re-saved in another packing with the
    second record removed (or, "-same", only the packing changed, or a member renamed)."""
    folder = tmp_path / "digests"
    folder.mkdir()
    records = real_records(3 * len(CHANGES))
    removed, paths = set(), {}
    for i, (before, after, same) in enumerate(CHANGES):
        mine = records[3 * i: 3 * i + 3]
        name = location_name(i, before, after, same)
        (folder / name).write_bytes(PACKINGS[before](mine))
        paths[name] = (after, mine if same else [mine[0], mine[2]])
        removed |= set() if same else {mine[1].split("\n")[1]}
    warehouse = tmp_path / "w.duckdb"
    cli("ingest", folder, "-w", warehouse)
    assert rows(warehouse, "SELECT n_listings FROM marts.warehouse_summary") == [(3 * len(CHANGES),)]

    for name, (after, kept) in paths.items():
        (folder / name).write_bytes(PACKINGS[after](kept))
    cli("ingest", folder, "-w", warehouse)

    fresh = tmp_path / "fresh.duckdb"
    cli("ingest", folder, "-w", fresh)
    incremental = current_state(warehouse)
    assert incremental == current_state(fresh)
    assert incremental["summary"][0][1] == 3 * len(CHANGES) - len(removed)
    assert {n for *_, n in incremental["papers"]} == {1}  # none counted twice
    assert not removed & {title for title, *_ in incremental["papers"]}  # a removed record is gone
    # one packing per location: never its plain file and its members both current
    assert rows(warehouse, "SELECT count(*) FROM dim_source_file d JOIN dim_source_file m "
                           "ON starts_with(m.path, d.path || '!/') WHERE d.is_current AND m.is_current") == [(0,)]
    assert "0 files with problems" in cli("audit", "-w", warehouse).output
    again = json.loads(cli("ingest", folder, "-w", warehouse, "--json").stdout)
    assert (again["n_files_new"], again["flow_run"]) == (0, False)


def test_a_single_member_pack_is_the_next_version_of_the_plain_file_it_replaced(cli, tmp_path):
    """Lineage: the plain version is superseded by the member now at its place, and back."""
    folder, warehouse = tmp_path / "digests", tmp_path / "w.duckdb"
    folder.mkdir()
    day = folder / "day.txt"
    records = real_records(3)
    day.write_bytes(digest(records))
    cli("ingest", folder, "-w", warehouse)
    day.write_bytes(gzip.compress(digest(records[:2])))
    cli("ingest", folder, "-w", warehouse)
    day.write_bytes(digest(records[1:]))
    cli("ingest", folder, "-w", warehouse)
    versions = rows(warehouse, """
        SELECT d.path, d.version, d.is_current, d.n_listings, s.path
        FROM dim_source_file d LEFT JOIN dim_source_file s ON s.source_file_id = d.superseded_by_source_file_id
        ORDER BY d.ingested_at, d.path""")
    assert versions == [("digests/day.txt", 1, False, 3, "digests/day.txt!/day.txt"),
                        ("digests/day.txt!/day.txt", 1, False, 2, "digests/day.txt"),
                        ("digests/day.txt", 2, True, 2, None)]
    history = rows(warehouse, "SELECT count(*), count(superseded_by_source_file_id) FROM fact_listing_history")
    assert history == [(5, 5)]


def test_a_warehouse_holding_both_packings_of_a_location_is_mended_by_its_next_run(cli, tmp_path):
    """Warehouses loaded before this fix hold a plain version and the members at its place both
    current. The file is unchanged since, so it was never read again; now its next run reads it
    once more and keeps what it holds."""
    folder, warehouse = tmp_path / "digests", tmp_path / "w.duckdb"
    folder.mkdir()
    day = folder / "day.txt"
    records = real_records(4)
    day.write_bytes(digest(records[:3]))
    cli("ingest", folder, "-w", warehouse)
    day.write_bytes(gzip.compress(digest(records)))  # a record added: no paper left to restore below
    cli("ingest", folder, "-w", warehouse)
    fresh = tmp_path / "fresh.duckdb"
    cli("ingest", folder, "-w", fresh)
    with duckdb.connect(str(warehouse)) as con:  # the plain version back to current, as the code before left it
        (plain,) = con.execute("SELECT source_file_id FROM dim_source_file WHERE path = 'digests/day.txt'").fetchone()
        con.execute("UPDATE dim_source_file SET is_current = true, superseded_by_source_file_id = NULL "
                    "WHERE source_file_id = ?", [plain])
        con.execute("INSERT INTO fact_listing BY NAME SELECT * EXCLUDE (superseded_by_source_file_id, superseded_run_id) "
                    "FROM fact_listing_history WHERE source_file_id = ?", [plain])
        con.execute("DELETE FROM fact_listing_history WHERE source_file_id = ?", [plain])
        con.execute("UPDATE dim_paper SET n_listings = (SELECT count(*) FROM fact_listing f "
                    "WHERE f.paper_id = dim_paper.paper_id)")
    assert rows(warehouse, "SELECT n_listings FROM marts.warehouse_summary") == [(7,)]

    cli("ingest", folder, "-w", warehouse)
    assert current_state(warehouse) == current_state(fresh)
    assert rows(warehouse, "SELECT n_listings FROM marts.warehouse_summary") == [(4,)]
