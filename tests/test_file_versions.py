"""A new version of a file supersedes the old one (issue 12, item 11), through the real CLI:
its listings leave the facts (kept as history), counts follow the current versions, a revert is
a new version, and a paper's title comes from its most recent listing."""

from __future__ import annotations

import codecs
import json
import datetime as dt
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import LISTING_SEEDS, SEARCH_SEEDS, SEED_FILES, read_sql

ABSTRACT_1 = ("We propose a graph attention model that learns node representations from neighbourhoods and show "
              "strong results on citation benchmarks with fewer parameters than prior work in every setting.")
ABSTRACT_2 = ("We study how tokenisation choices change downstream accuracy of language models across twelve "
              "languages and find that vocabulary size interacts with script in ways benchmarks hide.")
ABSTRACT_3 = ("A solver for sparse linear systems on graphics processors is presented that reorders rows by degree "
              "and reaches twice the throughput of vendor libraries on matrices from circuit simulation.")


def listing(records: list[tuple[str, str, str]], day: str) -> str:
    return "\n".join(f"#{i:02d}{day}\ncs.LG\n{title}\n{authors}\n{abstract}"
                     for i, (title, authors, abstract) in enumerate(records, 1)) + "\n"



def write_keeping_stat(path: Path, text: str) -> None:
    """Rewrite a file as an editor with a preserved timestamp would (same size: the test keeps it)."""
    before = path.stat()
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))


def test_an_edited_file_supersedes_its_old_version_and_a_revert_is_a_new_version(cli, tmp_path):
    folder, warehouse = tmp_path / "digests", tmp_path / "w.duckdb"
    folder.mkdir()
    day = folder / "daily-26.txt"
    typo = listing([("Learning on Grpahs with Attention", "Ana Silva, Bo Chen", ABSTRACT_1),
                    ("Tokenizers Matter", "Carla Diaz", ABSTRACT_2)], "Oct 26, 2026")
    day.write_text(typo, encoding="utf-8")
    (folder / "daily-27.txt").write_text(listing([("Sparse Solvers on GPUs", "Dan Wu", ABSTRACT_3)], "Oct 27, 2026"))
    cli("ingest", folder, "-w", warehouse)

    fixed = typo.replace("Grpahs", "Graphs")
    write_keeping_stat(day, fixed)  # an edit that keeps size and modification time
    cli("ingest", folder, "-w", warehouse)
    facts = read_sql(warehouse, "SELECT count(*) AS n FROM fact_listing")["n"].item()
    assert facts == 3  # not 5: version 1's listings left the facts
    papers = dict(read_sql(warehouse, "SELECT title, n_listings FROM dim_paper").rows())
    assert papers == {"Learning on Graphs with Attention": 1, "Tokenizers Matter": 1, "Sparse Solvers on GPUs": 1}
    history = read_sql(warehouse, "SELECT count(*) AS n FROM fact_listing_history")["n"].item()
    assert history == 2  # what version 1 said is still there

    write_keeping_stat(day, typo)  # the revert: a version of its own, not "content already ingested"
    cli("ingest", folder, "-w", warehouse)
    versions = read_sql(warehouse, "SELECT version, is_current, n_listings FROM dim_source_file "
                                   "WHERE path LIKE '%daily-26.txt' ORDER BY version").rows()
    assert versions == [(1, False, 2), (2, False, 2), (3, True, 2)]
    titles = set(read_sql(warehouse, "SELECT title FROM dim_paper")["title"])
    assert "Learning on Grpahs with Attention" in titles and len(titles) == 3
    assert read_sql(warehouse, "SELECT sum(n_listings) AS n FROM dim_paper")["n"].item() == 3
    assert read_sql(warehouse, "SELECT count(*) AS n FROM fact_listing")["n"].item() == 3
    audit = cli("audit", "-w", warehouse).output
    assert "0 files with problems" in audit


def test_a_papers_title_comes_from_its_most_recent_listing(cli, tmp_path):
    """The same paper listed on two days, its title corrected on the later day: the correction
    wins, although the typo is the lexicographically larger text of the same length."""
    folder, warehouse = tmp_path / "digests", tmp_path / "w.duckdb"
    folder.mkdir()
    (folder / "a.txt").write_text(listing([("Learning on Grpahs with Attention", "Ana Silva", ABSTRACT_1)], "Oct 26, 2026"))
    (folder / "b.txt").write_text(listing([("Learning on Graphs with Attention", "Ana Silva", ABSTRACT_1)], "Oct 28, 2026"))
    cli("ingest", folder, "-w", warehouse)
    assert read_sql(warehouse, "SELECT title, n_listings FROM dim_paper").rows() == [
        ("Learning on Graphs with Attention", 2)]


def test_a_copy_of_the_replaced_content_is_ingested_in_its_own_right(cli, tmp_path):
    """b.txt is a copy of a.txt (skipped as a duplicate); when a.txt is edited, the content it
    replaced still lives in b.txt: the same run ingests b.txt instead of losing its listings."""
    folder, warehouse = tmp_path / "digests", tmp_path / "w.duckdb"
    folder.mkdir()
    original = listing([("Tokenizers Matter", "Carla Diaz", ABSTRACT_2)], "Oct 26, 2026")
    (folder / "a.txt").write_text(original)
    (folder / "b.txt").write_text(original)
    cli("ingest", folder, "-w", warehouse)
    assert read_sql(warehouse, "SELECT count(*) AS n FROM fact_listing")["n"].item() == 1
    (folder / "a.txt").write_text(listing([("Sparse Solvers on GPUs", "Dan Wu", ABSTRACT_3)], "Oct 27, 2026"))
    cli("ingest", folder, "-w", warehouse)
    current = read_sql(warehouse, "SELECT path, n_listings FROM dim_source_file WHERE is_current ORDER BY path").rows()
    assert [(p.rsplit("/", 1)[-1], n) for p, n in current] == [("a.txt", 1), ("b.txt", 1)]
    assert sorted(read_sql(warehouse, "SELECT title FROM dim_paper")["title"]) == ["Sparse Solvers on GPUs",
                                                                                   "Tokenizers Matter"]


DAY_26 = listing([("Learning on Graphs with Attention", "Ana Silva, Bo Chen", ABSTRACT_1)], "Oct 26, 2026")
DAY_27 = listing([("Sparse Solvers on GPUs", "Dan Wu", ABSTRACT_3)], "Oct 27, 2026")


def tokenizers_on(day: str) -> str:
    return listing([("Tokenizers Matter", "Carla Diaz", ABSTRACT_2)], day)


@pytest.fixture(scope="module")
def fresh_fixed_month(prefect_harness, tmp_path_factory) -> Path:
    """A fresh load of the month's archive once its date typo is fixed: the same files whichever
    typo it was, so one load for every typo case below."""
    import zipfile

    from support.cli import passing_cli

    folder = tmp_path_factory.mktemp("fixed_month")
    with zipfile.ZipFile(folder / "2026-10.zip", "w") as z:
        z.writestr("daily-26.txt", DAY_26 + tokenizers_on("Oct 26, 2026"))
        z.writestr("daily-27.txt", DAY_27)
    with passing_cli() as cli:
        cli("ingest", folder, "-w", folder / "fresh.duckdb")
    return folder / "fresh.duckdb"


@pytest.mark.parametrize("typo", ["Oct 26, 2062", "Oct 26, 2016", "Dec 26, 2026", None],
                         ids=["a later year", "an earlier year", "a later month", "the file removed"])
def test_dim_date_spans_the_current_listings_only(cli, tmp_path, typo, request):
    """A date typo fixed in the next version of its file (or the file's digest gone from its
    archive) left dim_date spanning the typo's days: 13,150 rows for a fresh load's one."""
    import zipfile

    folder = tmp_path / "digests"
    folder.mkdir()
    day, other, wrong = DAY_26, DAY_27, tokenizers_on(typo or "Mar 3, 2031")
    with zipfile.ZipFile(folder / "2026-10.zip", "w") as z:
        z.writestr("daily-26.txt", day + wrong if typo else day)
        z.writestr("daily-27.txt", other)
        if not typo:
            z.writestr("daily-31.txt", wrong)
    cli("ingest", folder, "-w", tmp_path / "w.duckdb")
    with zipfile.ZipFile(folder / "2026-10.zip", "w") as z:
        z.writestr("daily-26.txt", day + wrong.replace(typo, "Oct 26, 2026") if typo else day)
        z.writestr("daily-27.txt", other)
    cli("ingest", folder, "-w", tmp_path / "w.duckdb")
    if typo:  # the same files as fresh_fixed_month's
        assert wrong.replace(typo, "Oct 26, 2026") == tokenizers_on("Oct 26, 2026")
        fresh = request.getfixturevalue("fresh_fixed_month")
    else:
        fresh = tmp_path / "fresh.duckdb"
        cli("ingest", folder, "-w", fresh)
    dates = [read_sql(w, "SELECT min(date) AS lo, max(date) AS hi, count(*) AS n FROM dim_date").rows()
             for w in (tmp_path / "w.duckdb", fresh)]
    assert dates[0] == dates[1] == [(dt.date(2026, 10, 26), dt.date(2026, 10, 27), 2)]


@pytest.mark.parametrize("across_runs", [False, True], ids=["one run", "two runs"])
def test_a_copy_in_other_line_ends_or_encoding_is_content_already_ingested(cli, tmp_path, across_runs):
    """The same digest saved again as CRLF, with a BOM, or in UTF-16 or Windows-1252 holds the
    same listings: skipped as a duplicate (as a byte-identical copy is), not counted twice."""
    folder, warehouse = tmp_path / "digests", tmp_path / "w.duckdb"
    folder.mkdir()
    text = listing([("Tokenizers Matter", "Carla Díaz, Jürgen Müller", ABSTRACT_2),
                    ("Sparse Solvers on GPUs", "Dan Wu", ABSTRACT_3)], "Oct 26, 2026")
    (folder / "a.txt").write_text(text, encoding="utf-8")
    if across_runs:
        cli("ingest", folder, "-w", warehouse)
    copies = {"b-crlf.txt": text.replace("\n", "\r\n").encode(), "c-bom.txt": b"\xef\xbb\xbf" + text.encode(),
              "d-utf16.txt": text.encode("utf-16"), "e-1252.txt": text.encode("windows-1252")}
    for name, data in copies.items():
        (folder / name).write_bytes(data)
    cli("ingest", folder, "-w", warehouse)
    assert read_sql(warehouse, "SELECT count(*) AS n FROM fact_listing")["n"].item() == 2
    assert read_sql(warehouse, "SELECT sum(n_listings) AS n FROM dim_paper")["n"].item() == 2
    files = read_sql(warehouse, "SELECT path FROM dim_source_file")["path"].to_list()
    assert [p.rsplit("/", 1)[-1] for p in files] == ["a.txt"]
    skipped = read_sql(warehouse, "SELECT s.path, s.reason, d.path AS same_as FROM skipped_file s "
                                  "JOIN dim_source_file d ON d.source_file_id = s.same_as_source_file_id")
    assert sorted(p.rsplit("/", 1)[-1] for p in skipped["path"]) == sorted(copies)
    assert set(skipped["reason"]) == {"content already ingested"}
    assert {p.rsplit("/", 1)[-1] for p in skipped["same_as"]} == {"a.txt"}


def test_a_file_resaved_in_other_line_ends_at_its_path_keeps_its_listings(cli, tmp_path):
    """An editor re-saving a.txt with CRLF: the path's next version, with the same listings once."""
    folder, warehouse = tmp_path / "digests", tmp_path / "w.duckdb"
    folder.mkdir()
    text = listing([("Tokenizers Matter", "Carla Diaz", ABSTRACT_2)], "Oct 26, 2026")
    (folder / "a.txt").write_text(text)
    cli("ingest", folder, "-w", warehouse)
    (folder / "a.txt").write_bytes(text.replace("\n", "\r\n").encode())
    cli("ingest", folder, "-w", warehouse)
    assert read_sql(warehouse, "SELECT sum(n_listings) AS n FROM dim_paper")["n"].item() == 1
    assert read_sql(warehouse, "SELECT count(*) AS n FROM fact_listing")["n"].item() == 1
    assert "0 files with problems" in cli("audit", "-w", warehouse).output


def test_a_member_gone_from_a_new_version_of_its_archive_leaves_the_facts(cli, tmp_path):
    """Another member of the kind "a new version supersedes the old": a zip re-saved without one
    of its digests. The member's listings leave the facts (kept as history)."""
    import zipfile

    folder, warehouse = tmp_path / "digests", tmp_path / "w.duckdb"
    folder.mkdir()
    day26 = listing([("Tokenizers Matter", "Carla Diaz", ABSTRACT_2)], "Oct 26, 2026")
    day27 = listing([("Sparse Solvers on GPUs", "Dan Wu", ABSTRACT_3)], "Oct 27, 2026")
    with zipfile.ZipFile(folder / "2026-10.zip", "w") as z:
        z.writestr("daily-26.txt", day26)
        z.writestr("daily-27.txt", day27)
    cli("ingest", folder, "-w", warehouse)
    assert read_sql(warehouse, "SELECT count(*) AS n FROM fact_listing")["n"].item() == 2
    with zipfile.ZipFile(folder / "2026-10.zip", "w") as z:
        z.writestr("daily-26.txt", day26)
    cli("ingest", folder, "-w", warehouse)
    current = read_sql(warehouse, "SELECT path FROM dim_source_file WHERE is_current")["path"].to_list()
    assert [p.rsplit("!/", 1)[-1] for p in current] == ["daily-26.txt"]
    assert read_sql(warehouse, "SELECT title FROM dim_paper")["title"].to_list() == ["Tokenizers Matter"]
    assert "0 files with problems" in cli("audit", "-w", warehouse).output


def test_files_whose_bytes_were_lost_alike_are_not_one_content():
    """A UTF-8 file with a stray Latin-1 byte is read with U+FFFD where its non-ASCII bytes were:
    two such files differing only in those bytes ("Padülla" / "Padölla") had one text checksum,
    and the second was skipped as content already ingested."""
    from transforms.pipeline import SourceFile, process_batch

    text = listing([("Tokenizers Matter", "Rafaël Padilla, Carla Diaz", ABSTRACT_2)], "Oct 26, 2026").encode()
    variants = [text.replace(b"Padilla", b"Pad" + byte + b"lla") for byte in (b"\xfc", b"\xf6")]
    files = process_batch([SourceFile(i, f"{i}.txt", v) for i, v in enumerate(variants)]).files
    assert files["encoding"].to_list() == ["unknown-8bit"] * 2  # (the lossy reading the test is about)
    assert files["text_sha256"].n_unique() == 2


# What no parser reads, and so no copy of a digest may differ by (issue: a copy saved with a
# final newline loaded every listing twice): the line-end style, a UTF-8 BOM, and the line ends
# and blanks after the last character.
LINE_ENDS = st.sampled_from(["\n", "\r\n", "\r"])
TRAILING = st.lists(st.one_of(LINE_ENDS, st.sampled_from([" ", "\t"])), max_size=6).map("".join)


@settings(max_examples=60)
@given(seed=st.sampled_from(SEED_FILES), style=st.one_of(st.just("mac"), st.lists(st.sampled_from(["\n", "\r\n"]))),
       trailing=TRAILING, bom=st.booleans())
def test_line_end_style_final_line_ends_bom_and_trailing_blanks_give_one_content(seed, style, trailing, bom):
    """Any mix of LF and CRLF (or CR only), any trailing line ends and blanks, with or without a
    BOM: one content checksum, the one of the seed file as it is."""
    from transforms.decode import decode_bytes
    from transforms.pipeline import SourceFile, _text_sha256

    def checksum(data: bytes) -> str:
        return _text_sha256(SourceFile(0, "x.txt", data), decode_bytes(data))

    text = seed.read_text(encoding="utf-8").rstrip("\n")
    lines = text.split("\n")
    style = ["\r"] if style == "mac" else style or ["\n"]
    ends = [style[i % len(style)] for i in range(len(lines))]
    copy = "".join(line + end for line, end in zip(lines[:-1], ends)) + lines[-1] + trailing
    assert checksum((codecs.BOM_UTF8 if bom else b"") + copy.encode()) == checksum(seed.read_bytes())


@pytest.mark.parametrize("change", [lambda t: t.replace("\n", "\n\n", 1), lambda t: t.replace(".", ",", 1),
                                    lambda t: "\n" + t, lambda t: t.replace("\n", " \n", 1)],
                         ids=["a blank line more inside", "a character", "a blank line first", "a blank inside"])
def test_a_change_that_moves_or_changes_a_line_is_another_content(change):
    """Line numbers are lineage (fact_listing.line_start): a blank line inside or before the text is
    another content, and so is a blank at the end of an inner line (quarantine keeps raw text)."""
    from transforms.decode import decode_bytes
    from transforms.pipeline import SourceFile, _text_sha256

    for seed in (LISTING_SEEDS[0], SEARCH_SEEDS[0]):
        datas = [seed.read_bytes(), change(seed.read_text(encoding="utf-8")).encode()]
        assert datas[0] != datas[1]
        assert len({_text_sha256(SourceFile(0, "x.txt", d), decode_bytes(d)) for d in datas}) == 2


@pytest.mark.parametrize("across_runs", [False, True], ids=["one run", "two runs"])
def test_a_copy_with_other_final_line_ends_or_trailing_blanks_is_content_already_ingested(cli, tmp_path, across_runs):
    """A real listing and a real search page, each saved again with a final newline, two, CRLF
    with a final CRLF, a BOM and no final line end, or blanks after the last word: skipped as
    content already ingested, every listing counted once (each copy loaded it again before)."""
    folder, warehouse = tmp_path / "digests", tmp_path / "w.duckdb"
    folder.mkdir()
    seeds = {"a-listing.txt": LISTING_SEEDS[0].read_text(encoding="utf-8"),
             "a-search.txt": SEARCH_SEEDS[0].read_text(encoding="utf-8")}
    for name, text in seeds.items():
        (folder / name).write_text(text, encoding="utf-8")
    if across_runs:
        cli("ingest", folder, "-w", warehouse)
    n_listings = read_sql(warehouse, "SELECT count(*) AS n FROM fact_listing")["n"].item() if across_runs else None
    copies = {}
    for name, text in seeds.items():
        base = text.rstrip("\n")
        crlf = base.replace("\n", "\r\n")
        for kind, data in {"eol": (base + "\n").encode(), "2eol": (base + "\n\n").encode(),
                           "crlf": (crlf + "\r\n").encode(), "bom": codecs.BOM_UTF8 + base.encode(),
                           "blanks": (base + "  \n").encode()}.items():
            copies[f"b-{kind}-{name}"] = data
    for name, data in copies.items():
        (folder / name).write_bytes(data)
    cli("ingest", folder, "-w", warehouse)
    files = read_sql(warehouse, "SELECT path FROM dim_source_file ORDER BY path")["path"].to_list()
    assert [p.rsplit("/", 1)[-1] for p in files] == sorted(seeds)
    skipped = read_sql(warehouse, "SELECT path, reason FROM skipped_file")
    assert sorted(p.rsplit("/", 1)[-1] for p in skipped["path"]) == sorted(copies)
    assert set(skipped["reason"]) == {"content already ingested"}
    n = read_sql(warehouse, "SELECT (SELECT count(*) FROM fact_listing) AS facts, (SELECT sum(n_listings) "
                            "FROM dim_paper) AS counted, (SELECT sum(n_listings) FROM dim_source_file) AS read")
    assert n["facts"].item() == n["counted"].item() == n["read"].item() == (n_listings or n["read"].item())


def test_a_version_stored_under_the_former_text_checksum_still_meets_its_copies(cli, tmp_path):
    """Versions stored before trailing line ends left the text checksum hold the checksum of their
    text with them (for plain UTF-8, the bytes' one): a byte-identical copy is still content
    already ingested, and the same bytes read again at their path are no new version."""
    import duckdb

    folder, warehouse = tmp_path / "digests", tmp_path / "w.duckdb"
    folder.mkdir()
    text = LISTING_SEEDS[1].read_text(encoding="utf-8").rstrip("\n") + "\n"
    (folder / "a.txt").write_text(text, encoding="utf-8")
    cli("ingest", folder, "-w", warehouse)
    with duckdb.connect(str(warehouse)) as con:
        con.execute("UPDATE dim_source_file SET text_sha256 = sha256")  # the former checksum
    (folder / "b.txt").write_text(text, encoding="utf-8")
    os.utime(folder / "a.txt")  # (its stat changes: read again)
    cli("ingest", folder, "-w", warehouse)
    files = read_sql(warehouse, "SELECT path, version FROM dim_source_file").rows()
    assert [(p.rsplit("/", 1)[-1], v) for p, v in files] == [("a.txt", 1)]
    skipped = read_sql(warehouse, "SELECT path, reason FROM skipped_file").rows()
    assert ("b.txt", "content already ingested") in [(p.rsplit("/", 1)[-1], r) for p, r in skipped]


@pytest.mark.parametrize("corrected", ["Ana Silva, Bo Chen, Yuxin Dong", "Ana Silva, Bo Chen"],
                         ids=["a name replaced", "a name removed"])
def test_an_author_list_corrected_in_an_edited_file_replaces_the_old_one(cli, tmp_path, corrected):
    """The paper kept the replaced file's list ("Zebulon Quartermaine" stayed its author, with his
    co-author pairs): its key's stored version was merged with the new one, and the longer list, or
    the larger text of two, won. Now it is what a fresh load of the current file gives."""
    folder = tmp_path / "digests"
    folder.mkdir()
    day = folder / "daily-26.txt"
    day.write_text(listing([("Learning on Graphs with Attention", "Ana Silva, Bo Chen, Zebulon Quartermaine", ABSTRACT_1),
                            ("Tokenizers Matter", "Carla Diaz", ABSTRACT_2)], "Oct 26, 2026"), encoding="utf-8")
    cli("ingest", folder, "-w", tmp_path / "w.duckdb")
    day.write_text(day.read_text(encoding="utf-8").replace("Ana Silva, Bo Chen, Zebulon Quartermaine", corrected))
    cli("ingest", folder, "-w", tmp_path / "w.duckdb")
    cli("ingest", folder, "-w", tmp_path / "fresh.duckdb")
    for warehouse in ("w.duckdb", "fresh.duckdb"):
        papers = dict(read_sql(tmp_path / warehouse, "SELECT title, authors FROM dim_paper").rows())
        assert papers["Learning on Graphs with Attention"] == corrected.split(", ")
        authors = set(read_sql(tmp_path / warehouse, "SELECT name FROM dim_author")["name"])
        assert authors == {*corrected.split(", "), "Carla Diaz"}
        pairs = read_sql(tmp_path / warehouse, "SELECT name_a, name_b FROM marts.coauthor_pairs")
        assert "Zebulon Quartermaine" not in {*pairs["name_a"], *pairs["name_b"]}


def test_a_paper_dropped_by_an_edited_file_and_listed_again_later_has_only_its_new_list(cli, tmp_path):
    """Hunt 41: an edited file dropped a paper; a later run listed it again with its list corrected.
    The stored version of its key (no listing left) was merged back: "Zebulon Quartermaine" returned
    as its author, a person no current file names. A fresh load of the same files has three names."""
    folder = tmp_path / "digests"
    folder.mkdir()
    day = folder / "daily-21.txt"
    graphs = ("Learning on Graphs with Attention", "Ana Silva, Bo Chen, Yuxin Dong, Zebulon Quartermaine", ABSTRACT_1)
    tokens = ("Tokenizers Matter", "Carla Diaz", ABSTRACT_2)
    day.write_text(listing([graphs, tokens], "Oct 21, 2026"), encoding="utf-8")
    cli("ingest", folder, "-w", tmp_path / "w.duckdb")
    day.write_text(listing([tokens], "Oct 21, 2026"), encoding="utf-8")  # the paper dropped
    cli("ingest", folder, "-w", tmp_path / "w.duckdb")
    (folder / "daily-25.txt").write_text(listing([(graphs[0], "Ana Silva, Bo Chen, Yuxin Dong", graphs[2])],
                                                 "Oct 25, 2026"), encoding="utf-8")
    cli("ingest", folder, "-w", tmp_path / "w.duckdb")
    cli("ingest", folder, "-w", tmp_path / "fresh.duckdb")
    for warehouse in ("w.duckdb", "fresh.duckdb"):
        papers = read_sql(tmp_path / warehouse, "SELECT title, authors, author_count FROM dim_paper").rows()
        assert (graphs[0], ["Ana Silva", "Bo Chen", "Yuxin Dong"], 3) in papers, warehouse
        authors = set(read_sql(tmp_path / warehouse, "SELECT name FROM dim_author")["name"])
        assert "Zebulon Quartermaine" not in authors, warehouse


def test_a_run_counts_the_papers_and_persons_it_added_not_the_change_in_totals(cli, tmp_path):
    """An edited file that drops two papers and adds one added one paper (and its two people),
    though the totals fell by one paper: the run said '-1 new' (a difference of totals)."""
    folder, warehouse = tmp_path / "digests", tmp_path / "w.duckdb"
    folder.mkdir()
    day = folder / "daily-26.txt"
    day.write_text(listing([("Graph Attention", "Ana Silva, Bo Chen", ABSTRACT_1),
                            ("Tokenizers Matter", "Carla Diaz", ABSTRACT_2),
                            ("Sparse Solvers on GPUs", "Dan Wu", ABSTRACT_3)], "Oct 26, 2026"), encoding="utf-8")
    cli("ingest", folder, "-w", warehouse)
    day.write_text(listing([("Graph Attention", "Ana Silva, Bo Chen", ABSTRACT_1),
                            ("Rare Events in Queues", "Eve Moreau, Femi Ade",
                             "We bound the probability of long waits in networks of queues under heavy load and "
                             "check the bounds against simulations of call centres over a year of traffic.")],
                           "Oct 26, 2026"), encoding="utf-8")
    cli("ingest", folder, "-w", warehouse)
    runs = read_sql(warehouse, "SELECT n_new_papers, n_new_authors FROM ingest_run ORDER BY started_at")
    assert runs.rows() == [(3, 4), (1, 2)]
    assert read_sql(warehouse, "SELECT count(*) FROM dim_paper").item() == 2


def test_headline_counts_follow_the_current_versions_after_a_fix_in_place(cli, tmp_path):
    """A file with a bad header, fixed in place and ingested again: the warehouse's headline
    counts (marts.warehouse_summary, `digest status`) said 2 files and 1 quarantined span, a
    fresh load of the fixed file 1 and 0."""
    folder, fresh = tmp_path / "digests", tmp_path / "fresh"
    folder.mkdir()
    fresh.mkdir()
    good = listing([("Graph Attention", "Ana Silva, Bo Chen", ABSTRACT_1),
                    ("Tokenizers Matter", "Carla Diaz", ABSTRACT_2)], "Oct 26, 2026")
    (folder / "day.txt").write_text(good.replace("#02Oct 26, 2026", "#02Oct 26, 20266"), encoding="utf-8")
    cli("ingest", folder, "-w", tmp_path / "inc.duckdb")
    assert read_sql(tmp_path / "inc.duckdb", "SELECT n_quarantined_spans FROM marts.warehouse_summary").item() > 0
    (folder / "day.txt").write_text(good, encoding="utf-8")
    cli("ingest", folder, "-w", tmp_path / "inc.duckdb")
    (fresh / "day.txt").write_text(good, encoding="utf-8")
    cli("ingest", fresh, "-w", tmp_path / "fresh.duckdb")
    headline = "SELECT n_files, n_listings, n_papers, n_quarantined_spans FROM marts.warehouse_summary"
    assert read_sql(tmp_path / "inc.duckdb", headline).rows() == read_sql(tmp_path / "fresh.duckdb", headline).rows() \
        == [(1, 2, 2, 0)]
    assert read_sql(tmp_path / "inc.duckdb", "SELECT n_file_versions FROM marts.warehouse_summary").item() == 2
    status = json.loads(cli("status", "-w", tmp_path / "inc.duckdb", "--json").output)
    assert (status["files"], status["quarantined_spans"]) == (1, 0)
