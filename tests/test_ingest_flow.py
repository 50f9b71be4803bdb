"""The real Prefect `ingest` flow, end to end, under one session-scoped Prefect test harness:
the seeds, a realistic rendered corpus with its known answer, and the `digest` CLI."""

from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import subprocess
import unicodedata
from pathlib import Path

import polars as pl
import pytest

from conftest import REPO, SEED_FILES, assert_same_tables, data_tables, read_sql, run_checks, table_contents
from transforms.clean import split_authors
from transforms.decode import decode_bytes
from transforms.text import clean_text, fold_key

QUANTITATIVE = "Quantitative Generalization Bounds for Multi-Layer Transformers"


def copy_warehouse(src: Path, dst: Path) -> Path:
    shutil.copyfile(src, dst)
    return dst


def fold(values: list[str | None]) -> list[str | None]:
    return pl.DataFrame({"v": values}, schema={"v": pl.String}).select(fold_key(clean_text(pl.col("v"))))["v"].to_list()


def facts_with_paths(warehouse: Path) -> pl.DataFrame:
    return read_sql(warehouse, """
        SELECT s.path, f.*, p.title, p.abstract, p.author_keys
        FROM fact_listing f JOIN dim_source_file s USING (source_file_id) JOIN dim_paper p USING (paper_id)
        ORDER BY s.path, f.position""")


# ============================================================================ the seeds
def test_seeds_counts(seeds_warehouse):
    warehouse, summary = seeds_warehouse
    assert (summary["n_listings"], summary["n_papers"], summary["n_quarantined"]) == (55, 49, 0)
    counts = read_sql(warehouse, """SELECT (SELECT count(*) FROM fact_listing) AS listings,
        (SELECT count(*) FROM dim_paper) AS papers, (SELECT count(*) FROM dim_source_file) AS files,
        (SELECT count(*) FROM quarantine) AS quarantined""").row(0)
    assert counts == (55, 49, 5, 0)


def test_seeds_source_files(seeds_warehouse):
    warehouse, _ = seeds_warehouse
    files = read_sql(warehouse, "SELECT path, format, encoding, size_bytes, sha256, n_listings FROM dim_source_file ORDER BY path")
    assert [Path(p).name for p in files["path"]] == [p.name for p in SEED_FILES]
    assert not any(p.startswith("/") for p in files["path"])
    assert files["format"].to_list() == ["listing"] * 3 + ["search"] * 2
    assert files["n_listings"].to_list() == [5, 5, 5, 20, 20]
    assert files["size_bytes"].to_list() == [p.stat().st_size for p in SEED_FILES]


def test_seeds_source_files_hold_the_stat_fingerprint_of_what_was_read(seeds_warehouse, seeds_dir):
    """mtime, ctime and inode of each file as read: the next run skips it unread. New versions
    get theirs when inserted (an UPDATE of every file read afterwards took 1.1 s at 100,000)."""
    warehouse, _ = seeds_warehouse
    stored = read_sql(warehouse, "SELECT path, mtime_ns, ctime_ns, inode FROM dim_source_file ORDER BY path")
    stats = [os.stat(seeds_dir / Path(p).name) for p in stored["path"]]
    assert stored.select("mtime_ns", "ctime_ns", "inode").rows() == [(s.st_mtime_ns, s.st_ctime_ns, s.st_ino) for s in stats]


def test_paper_in_three_listings_is_one_paper(seeds_warehouse):
    warehouse, _ = seeds_warehouse
    papers = read_sql(warehouse, f"SELECT paper_id, n_listings, first_listed_on FROM dim_paper "
                                 f"WHERE title LIKE '{QUANTITATIVE}%'")
    assert papers.height == 1
    assert papers["n_listings"].item() == 3
    facts = read_sql(warehouse, f"SELECT count(DISTINCT source_file_id) AS n FROM fact_listing "
                                f"WHERE paper_id = {papers['paper_id'].item()}")
    assert facts["n"].item() == 3


def test_one_author_line_is_an_author(seeds_warehouse):
    warehouse, _ = seeds_warehouse
    authors = read_sql(warehouse, "SELECT name, name_key, n_papers FROM dim_author WHERE name IN ('Steve Hanneke', 'Erdem Koyuncu')")
    assert sorted(authors.rows()) == [("Erdem Koyuncu", "erdem koyuncu", 1), ("Steve Hanneke", "steve hanneke", 1)]
    not_authors = read_sql(warehouse, "SELECT count(*) AS n FROM dim_author WHERE name LIKE '%·%' OR name = 'Social Aspects'")
    assert not_authors["n"].item() == 0


def test_one_level_area_is_a_category(seeds_warehouse):
    warehouse, _ = seeds_warehouse
    cats = read_sql(warehouse, "SELECT code, name, parent_code, taxonomy FROM dim_category WHERE code LIKE 'Social Aspects%' ORDER BY code")
    assert cats.rows() == [
        ("Social Aspects", "Social Aspects", None, "conference"),
        ("Social Aspects · Trustworthy Machine Learning", "Trustworthy Machine Learning", "Social Aspects", "conference"),
    ]
    lg = read_sql(warehouse, "SELECT name, parent_code, parent_name FROM dim_category WHERE code = 'cs.LG'")
    assert lg.rows() == [("Machine Learning", "cs", "Computer Science")]


def test_and_3_more_paper_has_author_count_6(seeds_warehouse):
    warehouse, _ = seeds_warehouse
    paper = read_sql(warehouse, """SELECT p.author_count, p.n_authors_shown, p.is_author_list_complete
        FROM dim_paper p WHERE p.title LIKE 'FOCUS: Active Critic Learning%'""")
    assert paper.rows() == [(6, 3, False)]
    bridge = read_sql(warehouse, """SELECT a.name FROM bridge_paper_author b JOIN dim_author a USING (author_id)
        JOIN dim_paper p USING (paper_id) WHERE p.title LIKE 'FOCUS%' ORDER BY b.author_position""")
    assert bridge["name"].to_list() == ["Zhengping Jiang", "William Jurayj", "Liaoyaqi Wang"]


def locate(path: str, folder: Path) -> Path:
    """The file a recorded path names: relative to the ingested folder or to its parent."""
    for root in (folder.parent, folder):
        if (root / path).is_file():
            return root / path
    raise AssertionError(f"recorded path {path} is not under {folder}")


def check_lineage(facts: pl.DataFrame, folder: Path) -> int:
    """Every fact's (file, line_start, line_end) holds its record: the lines are read back
    from the file and compared with what the warehouse says the listing is. Returns the
    number of facts checked. The lines are gathered row by row, then cleaned and compared in
    one Polars pass (a pass per row took 100 s for the corpus sample)."""
    texts: dict[str, list[str]] = {}
    records = []
    for row in facts.select("path", "line_start", "line_end", "format", "rank", "listed_code").iter_rows(named=True):
        lines = texts.get(row["path"])
        if lines is None:
            raw = locate(row["path"], folder).read_bytes()
            lines = texts.setdefault(row["path"], decode_bytes(raw).text.split("\n"))
        span = [line for line in lines[row["line_start"] - 1: row["line_end"]] if line.strip()]
        where = f"{row['path']}:{row['line_start']}"
        is_listing = row["format"] == "listing"
        assert len(span) == (5 if is_listing else 3 if row["listed_code"] else 2), where
        code_line = span[1] if is_listing else span[0] if row["listed_code"] else None
        records.append((where, span[0] if is_listing else None, code_line, span[-2], span[-1]))
    read = pl.DataFrame(records, schema=["where", "rank_line", "code_line", "names_line", "abstract_line"], orient="row")
    read = split_authors(read.with_columns(names_line=clean_text(pl.col("names_line"))), "names_line")
    compared = pl.concat([read, facts.select("rank", "listed_code", "abstract", "author_keys")], how="horizontal").with_columns(
        rank_ok=pl.col("rank_line").is_null() | clean_text(pl.col("rank_line")).str.starts_with(
            pl.format("#{}", pl.col("rank").cast(pl.String).str.zfill(2))),
        code_ok=clean_text(pl.col("code_line")).eq_missing(pl.col("listed_code")),
        # the abstract is the record's last line; the names shown are the paper's first authors
        abstract_ok=fold_key(clean_text(pl.col("abstract_line"))).eq_missing(fold_key(clean_text(pl.col("abstract")))),
        shown=pl.col("authors").list.eval(fold_key(clean_text(pl.element()))))
    compared = compared.with_columns(
        names_ok=pl.col("shown").eq_missing(pl.col("author_keys").list.head(pl.col("shown").list.len())))
    for check in ("rank_ok", "code_ok", "abstract_ok", "names_ok"):
        wrong = compared.filter(~pl.col(check).fill_null(False))  # a null (a listing without rank) fails too
        assert wrong.is_empty(), f"{check} fails at {wrong['where'].to_list()[:5]}"
    return facts.height


def test_seeds_every_fact_has_lineage_to_its_lines(seeds_warehouse, seeds_dir):
    warehouse, _ = seeds_warehouse
    assert check_lineage(facts_with_paths(warehouse), seeds_dir) == 55


def test_seeds_blocking_checks_pass(seeds_warehouse):
    warehouse, _ = seeds_warehouse
    checks = run_checks(warehouse)
    assert checks and all(n == 0 for n in checks.values()), checks


def test_seeds_dates_and_run_record(seeds_warehouse):
    warehouse, summary = seeds_warehouse
    dates = read_sql(warehouse, "SELECT date, year, month, day FROM dim_date")
    assert dates.rows() == [(dt.date(2026, 10, 26), 2026, 10, 26)]
    runs = read_sql(warehouse, "SELECT run_id, status FROM ingest_run")
    assert runs.rows() == [(summary["run_id"], "completed")]


def test_seeds_second_run_changes_nothing(run_ingest, seeds_warehouse, seeds_dir, tmp_path):
    warehouse = copy_warehouse(seeds_warehouse[0], tmp_path / "w.duckdb")
    before = table_contents(warehouse)
    summary = run_ingest([seeds_dir], warehouse)
    assert (summary["n_listings"], summary["n_files_new"]) == (0, 0)
    assert_same_tables(table_contents(warehouse), before)


def test_seeds_second_run_of_touched_files_changes_nothing(run_ingest, seeds_warehouse, seeds_dir, tmp_path):
    """Same content, new mtimes: the files are read again, recognised by their hash, and skipped."""
    touched = tmp_path / seeds_dir.name  # same folder name: same recorded paths
    shutil.copytree(seeds_dir, touched)
    for path in touched.iterdir():
        os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 10**9))
    warehouse = copy_warehouse(seeds_warehouse[0], tmp_path / "w.duckdb")
    before = data_tables(warehouse)
    summary = run_ingest([touched], warehouse)
    assert (summary["n_listings"], summary["n_files_new"]) == (0, 0)
    assert_same_tables(data_tables(warehouse), before)


def test_seeds_ids_are_deterministic_across_fresh_warehouses(run_ingest, seeds_warehouse, seeds_dir, tmp_path):
    other_copy = tmp_path / seeds_dir.name  # another place, the same folder name
    other_copy.mkdir()
    for path in SEED_FILES:
        shutil.copy(path, other_copy / path.name)  # new mtimes, same names and bytes
    warehouse = tmp_path / "fresh.duckdb"
    run_ingest([other_copy], warehouse)
    assert_same_tables(data_tables(warehouse), data_tables(seeds_warehouse[0]))


def test_seeds_adding_a_file_later_adds_only_its_listings(run_ingest, seeds_warehouse, seeds_dir, tmp_path):
    folder = tmp_path / seeds_dir.name
    folder.mkdir()
    late = SEED_FILES[2]  # 002 shares papers with 000 and 001
    for path in SEED_FILES:
        if path != late:
            shutil.copy(path, folder / path.name)
    warehouse = tmp_path / "w.duckdb"
    first = run_ingest([folder], warehouse)
    assert first["n_listings"] == 50
    facts_before = read_sql(warehouse, "SELECT * FROM fact_listing ORDER BY listing_id")
    papers_before = read_sql(warehouse, "SELECT paper_id FROM dim_paper ORDER BY paper_id")
    authors_before = read_sql(warehouse, "SELECT author_id, name_key FROM dim_author ORDER BY author_id")

    shutil.copy(late, folder / late.name)
    second = run_ingest([folder], warehouse)
    assert (second["n_files_new"], second["n_listings"]) == (1, 5)
    facts_after = read_sql(warehouse, "SELECT * FROM fact_listing ORDER BY listing_id")
    assert facts_after.height == 55
    kept = facts_after.join(facts_before.select("listing_id"), on="listing_id", how="semi")
    assert kept.equals(facts_before)  # old facts untouched, ids included
    added = facts_after.join(facts_before.select("listing_id"), on="listing_id", how="anti")
    new_file = read_sql(warehouse, f"SELECT source_file_id FROM dim_source_file WHERE path LIKE '%{late.name}'")
    assert set(added["source_file_id"]) == {new_file["source_file_id"].item()}
    assert papers_before.join(read_sql(warehouse, "SELECT paper_id FROM dim_paper"), on="paper_id", how="anti").is_empty()
    assert authors_before.join(read_sql(warehouse, "SELECT author_id, name_key FROM dim_author"),
                               on=["author_id", "name_key"], how="anti").is_empty()
    # and the warehouse ends where a one-shot load of all five files ends
    assert_same_tables(data_tables(warehouse), data_tables(seeds_warehouse[0]))


def test_damaged_files_are_quarantined_and_the_run_completes(cli, prefect_harness, tmp_path):
    """`digest ingest` exits 0 with quarantined records; each keeps its file and lines."""
    folder = tmp_path / "inbox"
    folder.mkdir()
    lines = SEED_FILES[0].read_text(encoding="utf-8").split("\n")
    lines[10] = "#03Feb 30, 2026"
    (folder / "damaged.txt").write_text("\n".join(lines[:23]), encoding="utf-8")  # and cut off
    (folder / "letter.txt").write_text("Dear colleagues,\nthe minutes are attached.\n", encoding="utf-8")
    shutil.copy(SEED_FILES[3], folder / SEED_FILES[3].name)
    warehouse = tmp_path / "w.duckdb"
    result = cli("ingest", folder, "--warehouse", warehouse, "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert (summary["n_listings"], summary["n_quarantined"]) == (3 + 20, 3)
    spans = read_sql(warehouse, "SELECT path, line_start, line_end, reason FROM quarantine ORDER BY path, line_start")
    assert [(Path(p).name, s, e) for p, s, e, _ in spans.rows()] == [
        ("damaged.txt", 11, 15), ("damaged.txt", 21, 23), ("letter.txt", 1, 2)]
    assert all(spans["reason"])
    files = read_sql(warehouse, "SELECT path, format, n_listings, n_quarantined FROM dim_source_file ORDER BY path")
    assert [(Path(p).name, f, n, q) for p, f, n, q in files.rows()] == [
        (SEED_FILES[3].name, "search", 20, 0), ("damaged.txt", "listing", 3, 2), ("letter.txt", "unknown", 0, 1)]
    assert all(n == 0 for n in run_checks(warehouse).values())


# ============================================================================ a realistic corpus
CORPUS_SEED = 11


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> tuple[Path, dict]:
    from bench.corpus import render_corpus

    out = tmp_path_factory.mktemp("corpus")
    try:
        summary = render_corpus(out, n_listings=None, seed=CORPUS_SEED, noise=0.05)
    except FileNotFoundError as err:
        pytest.skip(f"no real data to render a corpus from: {err}")
    return out, summary


@pytest.fixture(scope="module")
def corpus_warehouse(run_ingest, corpus, tmp_path_factory) -> tuple[Path, dict]:
    out, _ = corpus
    warehouse = tmp_path_factory.mktemp("corpus_wh") / "w.duckdb"
    summary = run_ingest([out / "listing", out / "search"], warehouse)
    return warehouse, summary


@pytest.fixture(scope="module")
def corpus_truth(corpus, corpus_warehouse) -> pl.DataFrame:
    """answer.parquet joined to the warehouse facts on (path, position)."""
    out, _ = corpus
    answer = pl.read_parquet(out / "answer.parquet").with_columns(pl.col("position", "line_start", "line_end").cast(pl.Int64))
    facts = facts_with_paths(corpus_warehouse[0]).select(
        "path", pl.col("position").cast(pl.Int64), "paper_id", wh_line_start=pl.col("line_start").cast(pl.Int64),
        wh_line_end=pl.col("line_end").cast(pl.Int64), wh_listed_on="listed_on", wh_code="listed_code",
        wh_format="format")
    return answer.join(facts, on=["path", "position"], how="full", coalesce=True)


def test_corpus_paper_and_listing_counts(corpus, corpus_warehouse):
    _, truth = corpus
    warehouse, summary = corpus_warehouse
    counts = read_sql(warehouse, """SELECT (SELECT count(*) FROM fact_listing), (SELECT count(*) FROM dim_paper),
        (SELECT count(*) FROM dim_source_file), (SELECT count(*) FROM quarantine)""").row(0)
    assert counts == (truth["n_listings"], truth["n_papers"], truth["n_files"], 0)
    assert summary["n_listings"] == truth["n_listings"]


def test_corpus_every_listing_points_at_its_truth_paper(corpus_truth):
    assert corpus_truth.filter(pl.col("truth_id").is_null() | pl.col("paper_id").is_null()).is_empty()
    pairs = corpus_truth.select("truth_id", "paper_id").unique()
    assert pairs["truth_id"].is_unique().all(), "a truth paper split into several papers"
    assert pairs["paper_id"].is_unique().all(), "several truth papers merged into one"


def test_corpus_lineage_matches_the_answer(corpus_truth):
    assert corpus_truth.filter(
        (pl.col("line_start") != pl.col("wh_line_start")) | (pl.col("line_end") != pl.col("wh_line_end"))
    ).is_empty()
    assert (corpus_truth["format"] == corpus_truth["wh_format"]).all()
    assert corpus_truth.filter(pl.col("listed_on").ne_missing(pl.col("wh_listed_on"))).is_empty()
    assert corpus_truth.filter(pl.col("category").ne_missing(pl.col("wh_code"))).is_empty()


def test_corpus_lines_hold_their_records(corpus, corpus_warehouse):
    out, _ = corpus
    facts = facts_with_paths(corpus_warehouse[0])
    sample = facts.filter(pl.col("path").is_in(facts["path"].unique().sort().gather_every(4).implode()))
    assert check_lineage(sample, out / "listing") > 1000


def truth_papers(corpus, corpus_truth, corpus_warehouse) -> pl.DataFrame:
    """One row per truth paper with what is knowable about it and what the warehouse says."""
    out, _ = corpus
    per_truth = corpus_truth.group_by("truth_id").agg(
        paper_id=pl.col("paper_id").first(),
        in_listing=(pl.col("format") == "listing").any(),
        in_search=(pl.col("format") == "search").any(),
        first_listed_on=pl.col("listed_on").min(),
        last_listed_on=pl.col("listed_on").max(),
    )
    papers = pl.read_parquet(out / "papers.parquet").select(
        "truth_id", "title", "author_total", "authors", "alias_ids", truth_n_listings="n_listings")
    warehouse = read_sql(corpus_warehouse[0], "SELECT * FROM dim_paper").rename(
        {"title": "wh_title", "authors": "wh_authors", "first_listed_on": "wh_first", "last_listed_on": "wh_last"})
    return per_truth.join(papers, on="truth_id").join(warehouse, on="paper_id")


def junk_name(name: str) -> bool:
    """A real author entry with no letter or digit (arXiv's "Veuns-Team, :, ..."): see
    test_declared_total_counts_every_shown_item."""
    return not any(ch.isalnum() for ch in name)


def expected_author_columns() -> dict[str, pl.Expr]:
    """What the files make knowable: a listing line shows 3 names and declares the total;
    a search line shows up to 10, and the total only when it shows them all."""
    max_shown = pl.when(pl.col("in_search")).then(10).otherwise(3)
    shown = pl.min_horizontal(pl.col("author_total"), max_shown)
    return {
        "exp_count": pl.when(pl.col("in_listing") | (pl.col("author_total") <= 10)).then(pl.col("author_total")),
        "exp_shown": shown,
        "exp_complete": shown == pl.col("author_total"),
    }


def test_corpus_author_counts_are_what_the_files_declare(corpus, corpus_truth, corpus_warehouse):
    papers = truth_papers(corpus, corpus_truth, corpus_warehouse).with_columns(**expected_author_columns())
    clean = papers.filter(~pl.col("authors").list.eval(
        pl.element().map_elements(junk_name, return_dtype=pl.Boolean)).list.any())
    assert papers.height - clean.height <= 3  # the junk-name papers are rare
    assert clean.filter(pl.col("author_count").ne_missing(pl.col("exp_count"))).is_empty()
    assert clean.filter(pl.col("n_authors_shown") != pl.col("exp_shown")).is_empty()
    assert clean.filter(pl.col("is_author_list_complete") != pl.col("exp_complete")).is_empty()
    # listing-format papers always have a declared total
    assert clean.filter(pl.col("in_listing") & pl.col("author_count").is_null()).is_empty()


def test_corpus_author_counts_for_every_paper(corpus, corpus_truth, corpus_warehouse):
    papers = truth_papers(corpus, corpus_truth, corpus_warehouse).with_columns(**expected_author_columns())
    assert papers.filter(pl.col("author_count").ne_missing(pl.col("exp_count"))).is_empty()


def test_corpus_titles_dates_and_listing_counts(corpus, corpus_truth, corpus_warehouse):
    papers = truth_papers(corpus, corpus_truth, corpus_warehouse)
    assert (papers["wh_title"].is_null() == papers["title"].is_null()).all()
    plain = papers.filter(pl.col("alias_ids").list.len() == 0, pl.col("title").is_not_null())
    nfc = [unicodedata.normalize("NFC", t) for t in plain["title"]]
    assert clean_titles(nfc) == plain["wh_title"].to_list()
    assert (papers["n_listings"] == papers["truth_n_listings"]).all()
    assert papers.filter(pl.col("wh_first").ne_missing(pl.col("first_listed_on"))
                         | pl.col("wh_last").ne_missing(pl.col("last_listed_on"))).is_empty()


def clean_titles(titles: list[str]) -> list[str]:
    return pl.DataFrame({"t": titles}).select(clean_text(pl.col("t")))["t"].to_list()


def test_corpus_author_names_and_keys(corpus_warehouse):
    warehouse, _ = corpus_warehouse
    authors = read_sql(warehouse, "SELECT name, name_key FROM dim_author")
    assert fold(authors["name"].to_list()) == authors["name_key"].to_list()
    # several persons may wear one name (namesakes, split on evidence), each under a spelling of its
    # own: one its papers' current lists show at its places, or its letters in the name's mixed case
    # (all showed the name's best spelling, a namesake's "YuAn Wang" too); a rare name is one person
    # (beside a person of its own for each later place of the name on one list: "wei mao, ..., Wei Mao")
    per_key = authors.group_by("name_key").agg(persons=pl.len())
    assert per_key["persons"].max() > 1  # the corpus's common names are split somewhere
    borrowed = read_sql(warehouse, """
        WITH own AS (SELECT DISTINCT m.author_id, v.authors[m.author_position] AS name FROM author_mention m
                     JOIN (SELECT DISTINCT paper_id, paper_key FROM fact_listing) k USING (paper_id)
                     JOIN paper_version v USING (paper_key) WHERE v.author_keys[m.author_position] = m.mention_key)
        SELECT a.name FROM dim_author a
        WHERE NOT EXISTS (SELECT 1 FROM own o WHERE o.author_id = a.author_id AND lower(o.name) = lower(a.name))""")
    assert borrowed.is_empty(), borrowed["name"].to_list()[:5]
    split_rare = read_sql(warehouse, "SELECT name_key FROM author_mention WHERE rule = 'rare_name' GROUP BY name_key "
                                     "HAVING count(DISTINCT author_id) > 1")
    assert split_rare.is_empty(), split_rare["name_key"].to_list()[:5]
    # a name seen both in CAPITALS (scraper noise) and in mixed case is displayed in mixed case
    shouting = read_sql(warehouse, """SELECT a.name FROM dim_author a WHERE a.name = upper(a.name)
        AND EXISTS (SELECT 1 FROM author_name_variant v WHERE v.name_key = a.name_key AND v.name <> upper(v.name))""")
    assert shouting.is_empty(), shouting["name"].to_list()[:5]


def test_corpus_blocking_checks_pass(corpus_warehouse):
    checks = run_checks(corpus_warehouse[0])
    assert all(n == 0 for n in checks.values()), checks


def test_corpus_second_run_changes_nothing(run_ingest, corpus, corpus_warehouse, tmp_path):
    out, _ = corpus
    warehouse = copy_warehouse(corpus_warehouse[0], tmp_path / "w.duckdb")
    before = table_contents(warehouse)
    summary = run_ingest([out / "listing", out / "search"], warehouse)
    assert summary["n_listings"] == 0
    assert_same_tables(table_contents(warehouse), before)


def test_corpus_in_two_runs_equals_one_run(run_ingest, corpus, corpus_warehouse, tmp_path):
    out, _ = corpus
    files = sorted(p for p in (out / "listing").rglob("*.txt")) + sorted(p for p in (out / "search").rglob("*.txt"))
    halves = [files[0::2], files[1::2]]  # each half holds both formats, so paths keep the root `out`
    warehouse = tmp_path / "halves.duckdb"
    n_listings = [run_ingest(half, warehouse)["n_listings"] for half in halves]
    assert sum(n_listings) == read_sql(corpus_warehouse[0], "SELECT count(*) AS n FROM fact_listing")["n"].item()
    assert_same_tables(data_tables(warehouse), data_tables(corpus_warehouse[0]))


# ============================================================================ the CLI
@pytest.fixture()
def cli(monkeypatch):
    from typer.testing import CliRunner

    from flows.cli import app

    monkeypatch.setenv("PREFECT_LOGGING_LEVEL", "WARNING")  # `digest ingest` would set it for the session
    runner = CliRunner()
    return lambda *args: runner.invoke(app, [str(a) for a in args])


def test_cli_query_csv(cli, seeds_warehouse):
    result = cli("query", "SELECT format, count(*) AS n FROM fact_listing GROUP BY format ORDER BY format",
                 "--warehouse", seeds_warehouse[0], "--format", "csv")
    assert result.exit_code == 0, result.output
    assert result.stdout == "format,n\nlisting,15\nsearch,40\n"


def test_cli_query_csv_writes_lists_as_json_text(cli, seeds_warehouse):
    """An author list in CSV (bug: a traceback, "CSV format does not support nested data")."""
    result = cli("query", "SELECT authors FROM dim_paper WHERE title LIKE 'Quantitative Generalization%'",
                 "--warehouse", seeds_warehouse[0], "--format", "csv")
    assert result.exit_code == 0, result.output
    assert result.stdout == 'authors\n"[""Marius Henry"", ""Michael Rizvi-Martel"", ""Michael Hahn""]"\n'


def test_cli_query_json(cli, seeds_warehouse):
    result = cli("query", "SELECT name, n_papers FROM dim_author WHERE name = 'Steve Hanneke'",
                 "-w", seeds_warehouse[0], "-f", "json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == [{"name": "Steve Hanneke", "n_papers": 1}]


def test_cli_query_table_is_the_default(cli, seeds_warehouse):
    result = cli("query", "SELECT count(*) AS n_papers FROM dim_paper", "-w", seeds_warehouse[0])
    assert result.exit_code == 0 and "n_papers" in result.stdout and "49" in result.stdout


@pytest.mark.parametrize("sql", [
    "DELETE FROM fact_listing",
    "INSERT INTO dim_date VALUES ('2030-01-01', 2030, 1, 1, 1, 1, 'Tuesday')",
    "CREATE TABLE scratch AS SELECT 1 AS x",
    "DROP TABLE dim_paper",
])
def test_cli_query_refuses_writes(cli, seeds_warehouse, tmp_path, sql):
    warehouse = copy_warehouse(seeds_warehouse[0], tmp_path / "w.duckdb")
    before = table_contents(warehouse)
    result = cli("query", sql, "-w", warehouse)
    assert result.exit_code != 0
    assert result.stderr.strip().startswith("error:") and len(result.stderr.strip().splitlines()) == 1
    assert_same_tables(table_contents(warehouse), before)


def test_cli_query_without_a_warehouse(cli, tmp_path):
    result = cli("query", "SELECT 1", "-w", tmp_path / "none.duckdb")
    assert result.exit_code != 0 and "none.duckdb" in result.stderr


def test_cli_ingest_missing_path_is_a_one_line_error(cli, prefect_harness, tmp_path):
    missing = tmp_path / "no-such-folder"
    result = cli("ingest", missing, "--warehouse", tmp_path / "w.duckdb")
    assert result.exit_code != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and "no-such-folder" in lines[0]
    assert "Traceback" not in result.output


def test_digest_entry_point_runs_a_query(seeds_warehouse):
    """The installed `digest` script, as users run it (no Prefect server needed for a query)."""
    digest = REPO / ".venv" / "bin" / "digest"
    if not digest.exists():
        pytest.skip("no .venv/bin/digest: the package is not installed in .venv")
    done = subprocess.run([str(digest), "query", "SELECT count(*) AS n FROM fact_listing", "-w",
                           str(seeds_warehouse[0]), "--format", "json"],
                          capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [{"n": 55}]


def test_abstracts_and_names_are_stored_uncompressed(seeds_warehouse):
    """DuckDB's default string compression (DICT_FSST) made writing the abstracts the load's
    costliest statements (`python -m bench.compression`: 300k abstracts 6.07 s, uncompressed 1.25 s;
    1M listings: merge_papers 24.3 -> 12.5 s), for a file ~1.4x larger at 100k distinct listings;
    names 3-4x slower (`bench.compression --column names`: 3M names and keys 1.86 -> 0.44 s)."""
    warehouse, _ = seeds_warehouse
    columns = [("dim_paper", "abstract"), ("paper_version", "abstract"), ("dim_author", "name"),
               ("dim_author", "name_key"), ("author_name_variant", "name_key"), ("author_name_variant", "name"),
               ("author_mention", "mention_key"), ("author_mention", "name_key")]
    storage = read_sql(warehouse, " UNION ALL ".join(
        f"SELECT '{t}.{c}' AS c, compression FROM pragma_storage_info('{t}') "
        f"WHERE column_name = '{c}' AND segment_type = 'VARCHAR'" for t, c in columns))
    assert sorted(set(storage.iter_rows())) == sorted((f"{t}.{c}", "Uncompressed") for t, c in columns)


# ============================================================================ a withdrawn version
def test_a_withdrawn_relisting_is_one_paper_through_the_flow(run_ingest, tmp_path):
    """Day 2 relists a paper with its title, authors and category, its abstract now arXiv's
    withdrawal notice: one paper, counted once, keeping its real abstract; a namesake paper
    ("Introduction" by other people) and two real papers of one title and authors stay apart."""
    title, authors = "Unifying approach to uniform expressivity of graph neural networks", "Huan Luo, Jonni Virtema"
    real = ("The expressive power of Graph Neural Networks (GNNs) is often analysed via correspondence to the "
            "Weisfeiler-Leman algorithm and fragments of first-order logic. We formalize an architectural trend by "
            "introducing Template GNNs, a generalized framework where node features are updated by aggregating over "
            "valid template embeddings, and establish an equivalence with a graded template modal logic.")
    intro_a = ("We survey the use of optimal transport in generative modelling, from Wasserstein objectives to flow "
               "matching, and organise the field by the coupling each method learns between noise and data samples, "
               "with a short guide to the open problems of scaling these methods to high-dimensional video data.")
    intro_b = ("This chapter introduces the basic notions of category theory used in the rest of the book: categories, "
               "functors, natural transformations and adjunctions, each illustrated on examples from algebra and "
               "topology, with exercises that prepare the reader for the chapters on monads and sheaves that follow.")
    day1 = (f"#01Oct 26, 2026\ncs.LG; cs.AI; cs.LO\n{title}\n{authors}\n{real}\n"
            f"#02Oct 26, 2026\ncs.LG\nIntroduction\nAda Stone\n{intro_a}\n"
            f"#03Oct 26, 2026\ncs.LO\nIntroduction\nAda Stone\n{intro_b}\n")
    day2 = (f"#01Oct 27, 2026\ncs.LG; cs.AI; cs.LO\n{title}\n{authors}\n"
            "This paper has been withdrawn by the author due to an error in the proof of Theorem 2.\n"
            f"#02Oct 27, 2026\ncs.LG\nIntroduction\nBo Reyes\nWithdrawn.\n")
    (tmp_path / "day1.txt").write_text(day1, encoding="utf-8")
    (tmp_path / "day2.txt").write_text(day2, encoding="utf-8")
    warehouse = tmp_path / "w.duckdb"
    run_ingest([tmp_path / "day1.txt", tmp_path / "day2.txt"], warehouse)
    papers = read_sql(warehouse, "SELECT title, abstract, n_listings FROM dim_paper ORDER BY title, abstract")
    assert papers.rows() == [("Introduction", intro_b, 1), ("Introduction", intro_a, 1), ("Introduction", "Withdrawn.", 1),
                             (title, real, 2)]
    assert read_sql(warehouse, "SELECT n_papers FROM dim_author WHERE name = 'Huan Luo'").item() == 1
    day2_new = read_sql(warehouse, """SELECT sum(n_new_papers) FROM marts.papers_per_category_day
                                      WHERE date = DATE '2026-10-27' AND level = 'category' AND code = 'cs.LG'""").item()
    assert day2_new == 1  # Bo Reyes' withdrawn "Introduction" only
    assert read_sql(warehouse, "SELECT rule FROM paper_match WHERE is_merge").rows() == [("notice_abstract",)]
