"""Bad input: every case of issue 3 point 2 mixed into good rendered digests, ingested by the
real flow. Every good record loads, the audit finds no unaccounted line, each bad case has a
quarantine row (or a skipped_file row) with a clear reason, and nothing from a quarantined
span reaches the dimensions.

The corpus and its known answer are built by tests/support/bad_corpus.py: good files copied
from a bench.corpus rendering, files with bad records in place of some good ones ("carriers"),
whole files that are not digests, a copy under another name, and files that vanish or may not
be read. A second run after one file was edited checks that the edit is a new file version.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import duckdb
import polars as pl
import pytest
from typer.testing import CliRunner

from conftest import run_checks
from support.bad_corpus import SENTINEL, SENTINEL_AREA, SENTINEL_CODE, BadCorpus, build_bad_corpus, reason_matches
from transforms.pipeline import SourceFile, process_batch

try:
    from bench.corpus import default_realdata, render_corpus

    HAVE_REALDATA = (default_realdata() / "iclr2024_virtualsite_topics_airas.json").is_file()
except Exception:  # noqa: BLE001
    HAVE_REALDATA = False

IS_ROOT = os.geteuid() == 0


class Loaded:
    def __init__(self, corpus: BadCorpus, warehouse: Path, summary: dict):
        self.corpus, self.warehouse, self.summary = corpus, warehouse, summary

    def sql(self, query: str, params: list | None = None) -> pl.DataFrame:
        with duckdb.connect(str(self.warehouse), read_only=True) as con:
            return con.sql(query, params=params or None).pl()


def unreadable_guard(monkeypatch: pytest.MonkeyPatch, corpus: BadCorpus) -> None:
    """Make the unreadable file unreadable. As root chmod does not stop a read, so the
    extractor's reads of that one file fail with the error the kernel would give."""
    path = corpus.root.parent / corpus.unreadable
    if not IS_ROOT:
        path.chmod(0)
        return
    from flows import extract

    real_open = os.open

    def guarded_open(file, flags, *args, **kwargs):
        if os.path.realpath(file) == os.path.realpath(path):
            raise PermissionError(13, "Permission denied", os.fsdecode(file))
        return real_open(file, flags, *args, **kwargs)

    monkeypatch.setattr(extract.os, "open", guarded_open)  # the reader opens files with os.open


def vanish_after_discovery(monkeypatch: pytest.MonkeyPatch, corpus: BadCorpus) -> None:
    """Delete the vanishing file right after the flow discovered it."""
    from flows import extract

    discover = extract.discover

    def discover_then_vanish(*args, **kwargs):
        found = discover(*args, **kwargs)
        (corpus.root.parent / corpus.vanishing).unlink(missing_ok=True)
        return found

    monkeypatch.setattr(extract, "discover", discover_then_vanish)


@pytest.fixture(scope="module")
def first_run(run_ingest, tmp_path_factory) -> Loaded:
    if not HAVE_REALDATA:
        pytest.skip("real paper metadata not found (../shared/realdata): no corpus to render")
    rendered = tmp_path_factory.mktemp("rendered")
    render_corpus(rendered, 600, seed=5, noise=0.1)
    corpus = build_bad_corpus(rendered, tmp_path_factory.mktemp("bad") / "inbox")
    warehouse = tmp_path_factory.mktemp("bad_wh") / "w.duckdb"
    with pytest.MonkeyPatch.context() as mp:
        unreadable_guard(mp, corpus)
        vanish_after_discovery(mp, corpus)
        summary = run_ingest([corpus.root], warehouse)
    return Loaded(corpus, warehouse, summary)


@pytest.fixture(scope="module")
def second_run(first_run, run_ingest, tmp_path_factory) -> tuple[Loaded, str]:
    """The first run's warehouse, then the same folder again after one good file was edited
    (a record added at its end)."""
    warehouse = tmp_path_factory.mktemp("bad_wh2") / "w.duckdb"
    shutil.copyfile(first_run.warehouse, warehouse)
    changed = first_run.corpus.root.parent / first_run.corpus.changed
    text = changed.read_bytes().decode("utf-8-sig") if not changed.read_bytes().startswith(b"\xff\xfe") else \
        changed.read_bytes().decode("utf-16")
    n = text.count("\n#") + 1
    added = (f"\n#{n + 1:02d}Mar 03, 2026\ncs.DB\nA record added after the first ingest\n"
             "Ada Edited, Bo Later\nThis listing was appended to the file after it had been ingested once.")
    changed.write_bytes((text.replace("\r\n", "\n") + added).encode("utf-8"))
    with pytest.MonkeyPatch.context() as mp:
        unreadable_guard(mp, first_run.corpus)
        summary = run_ingest([first_run.corpus.root], warehouse)
    return Loaded(first_run.corpus, warehouse, summary), first_run.corpus.changed


# ---------------------------------------------------------------------------- first run
def test_every_good_record_loads(first_run):
    corpus = first_run.corpus
    loaded = first_run.sql(
        "SELECT s.path, f.line_start, f.line_end FROM fact_listing f JOIN dim_source_file s USING (source_file_id)")
    got: dict[str, list[tuple[int, int]]] = {}
    for path, start, end in loaded.iter_rows():
        got.setdefault(path, []).append((start, end))
    copy, original = corpus.duplicate
    # Two names, one content: the listings load once, under whichever name the run kept.
    kept = copy if copy in got else original
    expected = {p: sorted(s) for p, s in corpus.listings.items() if s}
    expected[kept] = expected.pop(original)
    assert {p: sorted(s) for p, s in got.items()} == expected
    assert loaded.height == corpus.n_listings
    assert first_run.summary["n_listings"] == corpus.n_listings


def test_audit_exits_zero_with_no_unaccounted_lines(first_run):
    from flows.cli import app

    result = CliRunner().invoke(app, ["audit", "--warehouse", str(first_run.warehouse), "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert {row["status"] for row in report} == {"ok"}
    assert sum(row["lines_unaccounted"] for row in report) == 0
    # Every file that was read is in the report: good, carriers, and whole-file rejects.
    copy, original = first_run.corpus.duplicate
    read = set(first_run.corpus.listings) - {copy, original}
    assert read <= {row["path"] for row in report}
    plain = CliRunner().invoke(app, ["audit", "--warehouse", str(first_run.warehouse)])
    assert plain.exit_code == 0 and "0 files with problems" in plain.output


def test_each_bad_case_is_quarantined_with_a_clear_reason(first_run):
    rows = first_run.sql("SELECT path, line_start, line_end, reason, raw_text FROM quarantine").to_dicts()
    missing = []
    for case in first_run.corpus.quarantine:
        span = (case.path, case.line_start, case.line_end)
        match = [r for r in rows if (r["path"], r["line_start"], r["line_end"]) == span]
        if not match or not any(reason_matches(case.reason, r["reason"]) for r in match):
            missing.append((case, [r["reason"] for r in match]))
    assert not missing, "bad cases without their quarantine row:\n" + "\n".join(map(str, missing))
    expected_spans = {(c.path, c.line_start, c.line_end) for c in first_run.corpus.quarantine}
    unexpected = [r for r in rows if (r["path"], r["line_start"], r["line_end"]) not in expected_spans]
    assert not unexpected, f"quarantine rows no bad case explains: {unexpected[:3]}"
    assert all(r["reason"].strip() for r in rows)
    assert first_run.summary["n_quarantined"] == len(rows)


def test_a_file_name_full_of_quotes_and_sql_is_just_a_name(first_run):
    names = first_run.sql("SELECT path, n_listings FROM dim_source_file WHERE path LIKE '%DROP TABLE%'").rows()
    assert len(names) == 1 and names[0][0].endswith("o'brien \"digest\"; DROP TABLE fact_listing;-- 论文 $(id).txt")
    assert names[0][1] > 0


def test_quarantine_keeps_the_text_but_not_all_of_a_ten_megabyte_line(first_run):
    rows = first_run.sql("SELECT path, length(raw_text) AS n FROM quarantine WHERE path LIKE '%ten_mb%'").rows()
    assert len(rows) == 2
    assert all(0 < n <= 100_000 for _, n in rows), rows


def test_nothing_from_a_quarantined_span_reaches_the_dimensions(first_run):
    like, codes = f"%{SENTINEL.lower()}%", [SENTINEL_CODE, SENTINEL_AREA]
    leaks = {
        "dim_paper": first_run.sql(
            "SELECT paper_id FROM dim_paper WHERE lower(coalesce(title, '')) LIKE $1 OR lower(abstract) LIKE $1 "
            "OR lower(array_to_string(authors, ',')) LIKE $1", [like]),
        "dim_author": first_run.sql("SELECT name FROM dim_author WHERE lower(name) LIKE $1", [like]),
        "author_name_variant": first_run.sql("SELECT name FROM author_name_variant WHERE lower(name) LIKE $1", [like]),
        "dim_category": first_run.sql("SELECT code FROM dim_category WHERE code IN ($2, $3) OR lower(code) LIKE $1",
                                      [like, *codes]),
        "fact_listing": first_run.sql("SELECT listing_id FROM fact_listing WHERE listed_code IN ($1, $2)", codes),
    }
    assert {t: f.height for t, f in leaks.items()} == dict.fromkeys(leaks, 0), {t: f.head(3) for t, f in leaks.items()}
    # The sentinels did reach the warehouse, in the quarantine: the check above is not vacuous.
    assert first_run.sql("SELECT count(*) AS n FROM quarantine WHERE lower(raw_text) LIKE $1", [like])["n"][0] >= 10
    # And no listing overlaps a quarantined span of its file.
    overlaps = first_run.sql(
        "SELECT count(*) AS n FROM fact_listing f JOIN quarantine q USING (source_file_id) "
        "WHERE f.line_start <= q.line_end AND q.line_start <= f.line_end")
    assert overlaps["n"][0] == 0


def test_skipped_files_record_the_duplicate_the_vanished_and_the_unreadable(first_run):
    corpus = first_run.corpus
    skipped = {r["path"]: r for r in first_run.sql("SELECT * FROM skipped_file").to_dicts()}
    copy, original = corpus.duplicate
    kept, dropped = (copy, original) if copy not in skipped else (original, copy)
    assert dropped in skipped and kept not in skipped, skipped.keys()
    assert "already ingested" in skipped[dropped]["reason"]
    kept_id = first_run.sql("SELECT source_file_id FROM dim_source_file WHERE path = ?", [kept])["source_file_id"][0]
    assert skipped[dropped]["same_as_source_file_id"] == kept_id
    assert "vanished" in skipped[corpus.vanishing]["reason"]
    assert "cannot be read" in skipped[corpus.unreadable]["reason"]
    assert "ermission" in skipped[corpus.unreadable]["reason"]
    assert set(skipped) == {dropped, corpus.vanishing, corpus.unreadable}
    files = set(first_run.sql("SELECT path FROM dim_source_file")["path"])
    assert not files & set(skipped), "a skipped file also has a file version"


def test_the_run_is_recorded_and_every_blocking_check_passes(first_run):
    assert run_checks(first_run.warehouse) == dict.fromkeys(run_checks(first_run.warehouse), 0)
    runs = first_run.sql("SELECT status, n_listings, n_quarantined FROM ingest_run").to_dicts()
    assert runs == [{"status": "completed", "n_listings": first_run.corpus.n_listings,
                     "n_quarantined": len(first_run.corpus.quarantine)}]


# ---------------------------------------------------------------------------- second run
def test_a_file_changed_after_ingest_is_a_new_version_on_the_next_run(second_run, first_run):
    loaded, changed = second_run
    versions = loaded.sql("SELECT version, n_listings, sha256 FROM dim_source_file WHERE path = ? ORDER BY version",
                          [changed]).to_dicts()
    assert [v["version"] for v in versions] == [1, 2]
    assert versions[1]["n_listings"] == versions[0]["n_listings"] + 1
    assert versions[0]["sha256"] != versions[1]["sha256"]
    # Only the edited file was read again; every other file version is unchanged.
    before = first_run.sql("SELECT source_file_id FROM dim_source_file")
    after = loaded.sql("SELECT source_file_id FROM dim_source_file")
    assert after.height == before.height + 1 and set(before["source_file_id"]) <= set(after["source_file_id"])
    assert loaded.summary["n_files_new"] == 1
    # The new version supersedes the old: its listings replace version 1's in the facts, and
    # version 1's are kept as history.
    assert [v["is_current"] for v in loaded.sql("SELECT is_current FROM dim_source_file WHERE path = ? "
                                                "ORDER BY version", [changed]).to_dicts()] == [False, True]
    n_facts = loaded.sql("SELECT count(*) AS n FROM fact_listing")["n"][0]
    assert n_facts == first_run.corpus.n_listings - versions[0]["n_listings"] + versions[1]["n_listings"]
    n_history = loaded.sql("SELECT count(*) AS n FROM fact_listing_history")["n"][0]
    assert n_history == versions[0]["n_listings"]
    from flows.cli import app

    audit = CliRunner().invoke(app, ["audit", "--warehouse", str(loaded.warehouse)])
    assert audit.exit_code == 0, audit.output
    assert loaded.sql("SELECT count(*) AS n FROM dim_author WHERE name = 'Ada Edited'")["n"][0] == 1


def test_the_second_run_records_the_unreadable_file_again(second_run):
    loaded, _ = second_run
    rows = loaded.sql("SELECT s.path, s.reason FROM skipped_file s JOIN ingest_run r USING (run_id) "
                      "ORDER BY r.started_at").rows()
    unreadable = [reason for path, reason in rows if path == loaded.corpus.unreadable]
    assert len(unreadable) == 2 and all("cannot be read" in r for r in unreadable)


# ---------------------------------------------------------------------------- pure, no flow
def test_latin1_bytes_in_a_utf8_listing_are_read_as_latin1_not_as_mojibake():
    """Regression: GB18030 reads a Latin-1 "\xfc" and the ASCII letter after it as one Chinese
    character, so this file once loaded with the author "J. M黮ler". Since issue 12 the file
    is read as Windows-1252 (a superset of Latin-1's letters): "J. Müller" loads."""
    data = (b"#01Oct 26, 2026\ncs.LG\nA Title\nJ. M\xfcller, A. Bee\nWe study things.\n"
            b"#02Oct 26, 2026\ncs.LG\nAnother Title\nC. Dee, E. Eff\nWe study other things.")
    result = process_batch([SourceFile(1, "latin1.txt", data)])
    names = [n for names in result.listings["authors"].to_list() for n in names]
    assert not any("\u9EEE" in n or "黮" in n for n in names), names
    assert "J. Müller" in names
    assert result.files["encoding"].to_list() == ["windows-1252"]
    assert result.quarantine.height == 0 and result.listings.height == 2


FIELDS_OUT_OF_PLACE = ("fields out of place (a line missing or one too many): the authors read as prose or the"
                       " abstract as names")


@pytest.mark.parametrize("field,text", [
    ("authors", "Ann Lee, \x1b]0;owned\x07Bo Chen"),  # a terminal escape: its ";" made an author "\x1b]0"
    ("title", "Control\x1b[31m Characters"),
    ("abstract", "We study text with control\x08 characters and show they survive; experiments confirm it."),
    ("title", "A title with a DEL\x7f and a C1 control\x9b in it"),
])
def test_a_record_with_control_characters_is_quarantined_not_loaded(field, text):
    """Control characters were loaded into titles, abstracts and names, and `digest query` printed
    them raw; dropped, they would leave "]0;owned" in a name. The record is quarantined, the next loads."""
    record = {"title": "A Study of Graphs", "authors": "Ann Lee, Bo Chen", "abstract": "We study graphs and prove bounds."}
    record[field] = text
    data = (f"#01Oct 26, 2026\ncs.LG\n{record['title']}\n{record['authors']}\n{record['abstract']}\n"
            "#02Oct 26, 2026\ncs.LG\nAnother Title\nC. Dee, E. Eff\nWe study other things.\n").encode("utf-8")
    result = process_batch([SourceFile(1, "controls.txt", data)])
    assert result.listings["authors"].to_list() == [["C. Dee", "E. Eff"]]
    assert result.quarantine["line_start"].to_list() == [1]  # (the escape's names line reads as prose first)
    assert result.quarantine["reason"].to_list()[0] in {"control characters in record", FIELDS_OUT_OF_PLACE}


def test_a_dos_end_of_file_mark_is_no_control_character_to_quarantine():
    """DOS editors end a file with ^Z (1A): the review found the last record quarantined with it."""
    data = ("#01Oct 26, 2026\ncs.LG\nA Title\nAnn Lee, Bo Chen\nWe study things.\n"
            "#02Oct 26, 2026\ncs.LG\nAnother Title\nC. Dee, E. Eff\nWe study other things.\n\x1a").encode("cp1252")
    result = process_batch([SourceFile(1, "dos.txt", data)])
    assert result.listings.height == 2 and result.quarantine.height == 0


@pytest.mark.parametrize("authors", ["Anonymous", "Anonymous Authors", "Anonymous, Anonymous", "Unknown"])
def test_a_record_whose_authors_are_withheld_is_quarantined_not_a_person(authors):
    """Review sites print "Anonymous" for the names of a paper under review: it was loaded as a
    person, the most prolific author of a conference's pages."""
    data = ("论文检索\n\nTheory · Learning Theory\n\n" + authors + "\n\nWe study a withheld paper's bounds.\n\n"
            "Theory · Learning Theory\n\nAnn Lee, Bo Chen\n\nWe study another paper's bounds.\n").encode("utf-8")
    result = process_batch([SourceFile(1, "review.txt", data)])
    assert result.listings["authors"].to_list() == [["Ann Lee", "Bo Chen"]]
    assert result.quarantine["reason"].to_list() == ["no author names"]


@pytest.mark.parametrize("encoding", ["utf-8", "cp1252"])
def test_a_stray_carriage_return_in_a_file_of_line_feeds_is_no_line_end(encoding):
    """A CR alone inside a line of an LF file (editors and `wc -l` count one line) was read as a
    line end: the abstract was loaded cut at it, its rest quarantined as stray lines, and every
    later line number was one more than the file's. A file of CR line ends still splits at them."""
    abstract = "We study things in Zürich.\rThe rest of the abstract continues here after the stray character."
    text = (f"#01Oct 26, 2026\ncs.LG\nA Title\nAnn Lee, Bo Chen\n{abstract}\n"
            "#02Oct 26, 2026\ncs.LG\nAnother Title\nCarl Dee, Di Eve\nWe study other things.\n")
    lf = process_batch([SourceFile(1, "lf.txt", text.encode(encoding))])
    assert lf.quarantine.height == 0 and lf.listings.height == 2
    assert lf.papers.sort("abstract")["abstract"].to_list()[1] == abstract.replace("\r", " ")
    assert lf.listings["line_start"].to_list() == [1, 6] and lf.listings["line_end"].to_list() == [5, 10]
    mac = process_batch([SourceFile(2, "cr.txt", text.replace("\r", " ").replace("\n", "\r").encode(encoding))])
    assert mac.quarantine.height == 0 and mac.listings.height == 2
    # a block of CR-ended records appended to a long LF file: its CRs end lines (the block was one
    # stray line, quarantined, when a file's CRs counted only if they were many)
    lf_records = "".join(f"#{i:02d}Oct 26, 2026\ncs.LG\nTitle {i}\nAnn Lee, Bo Chen\nWe study case {i} here.\n"
                         for i in range(1, 21))
    cr_block = "#21Oct 26, 2026\rcs.LG\rTitle 21\rCarl Dee\rWe study case 21.\r"
    joined = process_batch([SourceFile(3, "joined.txt", (lf_records + cr_block).encode(encoding))])
    assert joined.quarantine.height == 0 and joined.listings.height == 21


# ---------------------------------------------------------------------------- discovery, no flow
@pytest.mark.parametrize("target", ["/nonexistent/digest.txt", "/etc/hostname"], ids=["dangling", "outside"])
def test_a_symlink_pointing_outside_the_folder_does_not_fail_discovery(tmp_path, target):
    from conftest import SEED_FILES
    from flows import extract

    inbox = tmp_path / "inbox"
    inbox.mkdir()
    shutil.copy2(SEED_FILES[0], inbox / SEED_FILES[0].name)
    (inbox / "link.txt").symlink_to(target)
    _, found = extract.discover([inbox])
    assert f"inbox/{SEED_FILES[0].name}" in {f.path for f in found}


def test_a_file_name_that_is_not_utf8_does_not_fail_the_batch(tmp_path):
    from conftest import SEED_FILES
    from flows import extract

    inbox = tmp_path / "inbox"
    inbox.mkdir()
    shutil.copy2(SEED_FILES[0], inbox / SEED_FILES[0].name)
    with open(os.path.join(os.fsencode(inbox), b"caf\xe9.txt"), "wb") as handle:
        handle.write(SEED_FILES[1].read_bytes())
    _, found = extract.discover([inbox])
    sources, meta, skipped = extract.read_sources(found)
    assert len(sources) + skipped.height == len(found) == 2
    assert f"inbox/{SEED_FILES[0].name}" in {s.path for s in sources}
    process_batch(sources)


def test_a_warehouse_inside_the_ingested_folder_is_not_ingested(run_ingest, tmp_path):
    """The writer's own files (<name>.lock, a stale <name>.building left by a killed run) are
    not digests: a warehouse kept inside the folder it ingests must not feed on itself."""
    from conftest import SEED_FILES

    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for seed in SEED_FILES[:2]:
        shutil.copy2(seed, inbox / seed.name)
    warehouse = inbox / "papers.duckdb"
    first = run_ingest([inbox], warehouse)
    (inbox / "papers.duckdb.building").write_bytes(b"DUCK" + bytes(4096))  # as a SIGKILL leaves it
    second = run_ingest([inbox], warehouse)
    with duckdb.connect(str(warehouse), read_only=True) as con:
        paths = [p for (p,) in con.execute("SELECT path FROM dim_source_file ORDER BY path").fetchall()]
    assert paths == sorted(f"inbox/{seed.name}" for seed in SEED_FILES[:2])
    assert first["n_files_new"] == 2 and second["n_files_new"] == 0
