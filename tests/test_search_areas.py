"""An arXiv code as a search page's area line ("hep-ph", "cs.LG", "CS.LG", "math.IT") is that
arXiv category, the row a listing's category line gives: read as a conference area it was a
second dim_category row of the same code (named the code, no parent), a paper listed in both
formats was counted twice under the code, and "cs.LG" fell out of the cs roll-up (hunt 46,
finding 4). dim_category holds one row per code (a blocking check), and a warehouse an older
load left with such a row is mended by the next run."""

from __future__ import annotations

import json
import shutil

import polars as pl
import pytest
from conftest import assert_same_tables, data_tables, read_sql, run_checks
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.corpus import default_realdata
from transforms.categories import ARXIV, CATEGORY_COLUMNS, CONFERENCE, arxiv_taxonomy, resolve_categories
from transforms.pipeline import SourceFile, process_batch

KAGGLE = default_realdata() / "arxiv_kaggle_oai_snapshot_first200.jsonl"
# Kaggle 0704.0006 (CC0), its names as a digest writes them.
TITLE = "Bosonic characters of atomic Cooper pairs across resonance"
AUTHORS = "Y. H. Pong, C. K. Law"
ABSTRACT = ("We study the two-particle wave function of paired atoms in a Fermi gas with tunable interaction "
            "strengths controlled by Feshbach resonance. The Cooper pair wave function is examined for its bosonic "
            "characters, which is quantified by the correction of Bose enhancement factor associated with the "
            "creation and annihilation composite particle operators.")
# Kaggle 0704.0008, a search page's second record.
OTHER_AUTHORS = "Damian C. Swift"
OTHER_ABSTRACT = ("A general formulation was developed to represent material models for applications in dynamic "
                  "loading. Numerical methods were devised to calculate response to shock and ramp compression, and "
                  "ramp decompression, generalizing previous solutions for scalar equations of state.")


def listing(code: str) -> str:
    return f"#01Oct 26, 2026\n{code}\n{TITLE}\n{AUTHORS}\n{ABSTRACT}\n"


def search_page(*records: tuple[str, str, str]) -> str:
    """A search page of (area, names, abstract) records."""
    return "论文检索\n\n" + "\n\n".join("\n\n".join(r) for r in records) + "\n"


def both_formats(listed: str, area: str):
    """One batch: the paper's listing under `listed` and its search twin under the area `area`."""
    return process_batch([SourceFile(1, "listing.txt", listing(listed).encode()),
                          SourceFile(2, "search.txt", search_page((area, AUTHORS, ABSTRACT)).encode())])


@pytest.mark.parametrize(("area", "code"), [
    ("hep-ph", "hep-ph"), ("quant-ph", "quant-ph"), ("gr-qc", "gr-qc"), ("cs.LG", "cs.LG"), ("math.AG", "math.AG"),
    ("astro-ph.CO", "astro-ph.CO"), ("cond-mat.mes-hall", "cond-mat.mes-hall"),
    # in another case (such a line was quarantined as a one-author record's: its record lost the area)
    ("CS.LG", "cs.LG"), ("Hep-Ph", "hep-ph"), ("HEP-PH", "hep-ph"), ("Cond-Mat.Mes-Hall", "cond-mat.mes-hall"),
    # aliases and legacy codes, as a listing resolves them
    ("math.IT", "cs.IT"), ("alg-geom", "math.AG"), ("cmp-lg", "cs.CL"), ("MATH.MP", "math-ph"),
    # a code the taxonomy does not know, in one of its archives: one row, the listing's
    ("cs.XY", "cs.XY"), ("CS.xy", "cs.XY"),
])
def test_an_arxiv_code_as_a_search_area_is_the_listings_category(area, code):
    result = both_formats(code, area)
    assert result.quarantine.is_empty(), result.quarantine.to_dicts()
    assert result.categories.select("code", "taxonomy").rows() == [(code, ARXIV)]
    assert result.listings["category_id"].n_unique() == 1 and result.listings["category_id"].null_count() == 0
    parent = code.split(".")[0]
    assert result.categories["parent_code"].item() == parent  # in its archive's roll-up ("cs")


def test_an_arxiv_code_area_beside_the_listing_of_another_spelling_is_one_row():
    result = both_formats("cs.LG", "cs.lg")
    assert result.categories.select("code", "taxonomy", "name").rows() == [("cs.LG", ARXIV, "Machine Learning")]


@pytest.mark.parametrize("area", ["Computation and Language", "Machine Learning", "Quantum Physics"])
def test_an_arxiv_name_as_an_area_stays_a_conference_area(area):
    """A name is the conference's own word ("Machine Learning" names cs.LG and stat.ML both): an
    area of its own, under a code no arXiv row has."""
    result = both_formats("cs.CL", area)
    assert result.quarantine.is_empty(), result.quarantine.to_dicts()
    rows = dict(result.categories.select("code", "taxonomy").rows())
    assert rows == {"cs.CL": ARXIV, area: CONFERENCE}


@pytest.mark.parametrize("area", ["hep-ph", "CS.LG", "math.IT"])
def test_an_arxiv_code_before_an_abstract_is_no_author(area):
    """With no names line between, the code was the paper's one author ("hep-ph")."""
    page = search_page((area, ABSTRACT), (OTHER_AUTHORS, OTHER_ABSTRACT))
    result = process_batch([SourceFile(1, "search.txt", page.encode())])
    assert result.listings.select("listed_code", "authors").rows() == [(None, [OTHER_AUTHORS])]
    assert result.quarantine.select("line_start", "line_end", "reason").rows() == [
        (3, 5, "abstract without an authors line")]


def test_an_arxiv_code_after_a_record_cut_before_its_abstract_is_the_next_records_area():
    """"Ann Lee" then "cs.LG": a record cut off, then an area (the pair was quarantined as unsure,
    and the next record lost its area)."""
    page = search_page(("Ann Lee",), ("cs.LG", OTHER_AUTHORS, OTHER_ABSTRACT))
    result = process_batch([SourceFile(1, "search.txt", page.encode())])
    assert result.listings.select("listed_code", "authors").rows() == [("cs.LG", [OTHER_AUTHORS])]
    assert result.quarantine.select("line_start", "reason").rows() == [(3, "record has no abstract")]


# ---------------------------------------------------------------------------- one row per code
@pytest.mark.parametrize(("area", "row"), [
    ("Home · cs.LG", ("cs.LG", ARXIV, "Machine Learning", "cs")),  # a breadcrumb's root left out: a code
    ("q-fin", ("q-fin", ARXIV, None, "q-fin")),  # an archive (no category of its own), as a listing's q-fin
    ("Deep Learning · cs.LG", ("Deep Learning · cs.LG", CONFERENCE, "cs.LG", "Deep Learning")),  # an area's level
])
def test_an_area_is_an_arxiv_row_when_its_code_is_shaped_as_one(area, row):
    rows = resolve_categories(pl.Series([area]), pl.Series([CONFERENCE]))
    assert rows.select("code", "taxonomy", "name", "parent_code").rows() == [row]


# One-level areas shaped as a code but no code of the taxonomy: real sub-areas ("First-order" is
# ICLR 2024's "Optimization->First-order") and words ("Node.js"), names ("Cs.Toth": Csaba Tóth).
NOT_CODES = ["First-order", "Meta-Learning", "Non-Convex", "Multi-agent", "AI-Safety", "FIRST-ORDER", "meta-learning",
             "self-supervised", "multi-agent", "e-commerce", "Node.js", "Foo.bar", "Cs.Toth", "Math.Smith", "Nlin.Wu"]


@pytest.mark.parametrize("area", NOT_CODES)
def test_an_area_shaped_as_a_code_the_taxonomy_does_not_know_stays_an_area(area):
    """A mixed-case "First-order" was no row at all (the code test was null: its record's listing
    had no category, nothing quarantined); "meta-learning" was an arXiv category without a name."""
    rows = resolve_categories(pl.Series([area]), pl.Series([CONFERENCE]))
    assert rows.select("code", "taxonomy", "name", "parent_code").rows() == [(area, CONFERENCE, area, None)]


@settings(max_examples=200)
@given(st.from_regex(r"\A[A-Za-z]{1,8}(?:[-.][A-Za-z]{1,8}){1,2}\Z"))
def test_a_code_shaped_area_is_an_arxiv_row_only_when_the_taxonomy_knows_its_code_or_archive(area):
    rows = resolve_categories(pl.Series([area]), pl.Series([CONFERENCE]))
    assert rows.height == 1  # (never lost)
    known, archives, aliases = arxiv_taxonomy()
    archive = area.split(".")[0] if "." in area else None
    is_code = (area.lower() in {c.lower() for c in [*known["code"], *aliases, *archives["parent_code"]] if "-" in c or "." in c}
               or any(archive in (a, a.upper()) for a in archives["parent_code"]))
    assert rows["taxonomy"].item() == (ARXIV if is_code else CONFERENCE), rows.to_dicts()


def test_a_search_page_under_a_hyphenated_area_keeps_its_category():
    """Its listing had no category and no row stood for the area; nothing was quarantined."""
    page = search_page(("Meta-Learning", AUTHORS, ABSTRACT), ("Optimization", OTHER_AUTHORS, OTHER_ABSTRACT))
    result = process_batch([SourceFile(1, "search.txt", page.encode())])
    assert result.quarantine.is_empty(), result.quarantine.to_dicts()
    assert result.listings["category_id"].null_count() == 0
    assert sorted(result.categories.select("code", "taxonomy").rows()) == [
        ("Meta-Learning", CONFERENCE), ("Optimization", CONFERENCE)]


@pytest.mark.parametrize("names", ["Cs.Toth", "Math.Smith", "Nlin.Wu"])
def test_a_name_shaped_as_a_code_in_an_archive_is_a_one_author_line(names):
    """"Cs." is a Hungarian initial (Csaba): read as an area in the archive cs, its record was
    quarantined as an abstract without an authors line."""
    page = search_page(("Deep Learning · Theory", names, ABSTRACT))
    result = process_batch([SourceFile(1, "search.txt", page.encode())])
    assert result.quarantine.is_empty(), result.quarantine.to_dicts()
    assert result.listings.select("listed_code", "authors").rows() == [("Deep Learning · Theory", [names])]


def test_the_mend_moves_only_areas_read_as_arxiv_codes():
    """An older warehouse's areas "meta-learning" and "First-order" are no arXiv code: a later run
    left them alone (it made "meta-learning" an arXiv row without a name)."""
    from transforms.categories import areas_read_as_codes

    stored = pl.DataFrame({"category_id": [1, 2, 3, 4, 5], "code": ["meta-learning", "First-order", "hep-ph", "CS.LG",
                                                                     "Cs.Toth"]})
    moved = areas_read_as_codes(stored)
    assert sorted(moved.select("from_id", "code").rows()) == [(3, "hep-ph"), (4, "cs.LG")]


def _codes() -> list[str]:
    known, _, aliases = arxiv_taxonomy()
    return sorted(c for c in [*known["code"], *aliases] if "." in c or "-" in c)


def _case(code: str, how: str) -> str:
    return {"as is": code, "lower": code.lower(), "upper": code.upper(), "title": code.title()}[how]


CASES = st.sampled_from(["as is", "lower", "upper", "title"])
AREAS = st.sampled_from(["Deep Learning · Attention Mechanisms", "Social Aspects", "Theory · Learning Theory",
                         "Home · cs.LG", "Computation and Language", "self-supervised", "Foo.bar", "e-commerce",
                         "First-order", "Meta-Learning", "Cs.Toth", "Node.js"])
CODE_SHAPED = st.from_regex(r"\A[a-zA-Z]{1,6}(?:\.[a-zA-Z]{1,4}|-[a-z]{1,4})\Z")


TAXONOMY_CODES = st.tuples(st.sampled_from(_codes()), CASES).map(lambda c: _case(*c))
LISTED = st.tuples(st.one_of(TAXONOMY_CODES, CODE_SHAPED), st.just(ARXIV))  # what a listing's category line holds
SHOWN = st.tuples(st.one_of(TAXONOMY_CODES, CODE_SHAPED, AREAS), st.just(CONFERENCE))  # a search page's area


@settings(max_examples=200)
@given(st.lists(st.one_of(LISTED, SHOWN), min_size=1, max_size=12))
def test_no_code_is_both_an_arxiv_category_and_an_area(listed):
    """Whatever listings list and search pages show, each (code, taxonomy) listed has one row, and
    a code has one row: one taxonomy, one name, one parent (so one id). Only an unknown code of no
    known archive a listing lists ("self-supervised") may also be an area's: the area stays one."""
    codes, taxonomies = zip(*listed)
    rows = resolve_categories(pl.Series(codes, dtype=pl.String), pl.Series(taxonomies, dtype=pl.String))
    assert rows.height == len(set(listed)), sorted(set(listed) - set(rows.select("listed_code", "listed_taxonomy").rows()))
    per_code = rows.select(*CATEGORY_COLUMNS).unique()
    assert per_code.select("code", "taxonomy").is_unique().all(), per_code.sort("code").to_dicts()
    areas = per_code.filter(pl.col("taxonomy") == CONFERENCE)["code"]
    assert per_code.filter((pl.col("taxonomy") == ARXIV) & pl.col("parent_name").is_not_null()
                           & pl.col("code").is_in(areas.implode())).is_empty()


@settings(max_examples=40)
@given(st.sampled_from(_codes()), st.sampled_from(["as is", "lower", "upper"]), CASES)  # (a listing reads no "Hep-Ph")
def test_any_taxonomy_code_in_any_case_is_one_category_in_both_formats(code, listed_case, area_case):
    result = both_formats(_case(code, listed_case), _case(code, area_case))
    assert result.quarantine.is_empty(), result.quarantine.to_dicts()
    assert result.categories.select("taxonomy").rows() == [(ARXIV,)]
    assert result.listings["category_id"].n_unique() == 1


@pytest.mark.skipif(not KAGGLE.is_file(), reason=f"real paper metadata not found at {KAGGLE} (set DIGEST_REALDATA)")
def test_kaggle_records_under_their_own_code_on_a_search_page_share_the_listings_categories():
    """The 200 Kaggle records listed under their first category, and each again on a search page
    with that code as its area (the hunt's re-render: 78 papers had their code twice)."""
    records = [json.loads(line) for line in KAGGLE.read_text(encoding="utf-8").splitlines()]

    def one_line(text: str) -> str:
        return " ".join(text.split())
    listings = "".join(f"#{i + 1:02d}Oct 26, 2026\n{r['categories'].split()[0]}\n{one_line(r['title'])}\n"
                       f"{one_line(r['authors'])}\n{one_line(r['abstract'])}\n" for i, r in enumerate(records))
    page = search_page(*[(r["categories"].split()[0], ", ".join(" ".join(p for p in (a[1], a[0]) if p)
                                                                for a in r["authors_parsed"]), one_line(r["abstract"]))
                         for r in records])
    result = process_batch([SourceFile(1, "listing.txt", listings.encode()), SourceFile(2, "search.txt", page.encode())])
    assert result.categories["taxonomy"].unique().to_list() == [ARXIV]
    assert result.categories["code"].is_unique().all()
    ids = result.listings.group_by("source_file_id").agg(pl.col("category_id").unique()).sort("source_file_id")
    listed, searched = ids["category_id"].to_list()
    assert len(searched) > 30 and set(searched) <= set(listed)


# ---------------------------------------------------------------------------- the warehouse
@pytest.fixture()
def folder(tmp_path):
    out = tmp_path / "digests"
    out.mkdir()
    (out / "a_listing.txt").write_text(listing("hep-ph"), encoding="utf-8")
    (out / "b_search.txt").write_text(search_page(("hep-ph", AUTHORS, ABSTRACT), ("cs.LG", OTHER_AUTHORS, OTHER_ABSTRACT)),
                                      encoding="utf-8")
    return out


def test_a_paper_in_both_formats_counts_once_under_its_code(run_ingest, folder, tmp_path):
    warehouse = tmp_path / "w.duckdb"
    run_ingest([folder], warehouse)
    assert read_sql(warehouse, "SELECT code, taxonomy, parent_code FROM dim_category ORDER BY code").rows() == [
        ("cs.LG", ARXIV, "cs"), ("hep-ph", ARXIV, "hep-ph")]
    assert read_sql(warehouse, "SELECT count(*) AS n FROM bridge_paper_category JOIN dim_category USING (category_id) "
                               "WHERE code = 'hep-ph'")["n"].item() == 1
    assert read_sql(warehouse, "SELECT count(*) AS n FROM marts.paper_category_levels "
                               "WHERE level = 'parent' AND code = 'cs'")["n"].item() == 1


def as_an_older_load_left_it(warehouse) -> None:
    """Each search listing's area as loads before session 46 stored it: a conference row of the
    code (named the code, no parent), the listing and its paper under it."""
    from flows.sql import connect

    with connect(warehouse) as con:
        con.execute("""
            CREATE TEMP TABLE old AS SELECT DISTINCT f.category_id AS arxiv_id, f.listed_code AS code,
                   stable_id(concat_ws(chr(31), 'conference', f.listed_code)) AS area_id
            FROM fact_listing f WHERE f.format = 'search' AND f.listed_code IS NOT NULL;
            INSERT INTO dim_category BY NAME SELECT area_id AS category_id, code, code AS name, 'conference' AS taxonomy
            FROM old ON CONFLICT DO NOTHING;
            UPDATE fact_listing SET category_id = o.area_id FROM old o
            WHERE fact_listing.format = 'search' AND fact_listing.listed_code = o.code;
            -- a category only a search page showed had no arXiv row
            DELETE FROM bridge_paper_category;
            INSERT INTO bridge_paper_category SELECT DISTINCT paper_id, category_id FROM fact_listing
            WHERE category_id IS NOT NULL;
            DELETE FROM dim_category WHERE category_id NOT IN (SELECT category_id FROM fact_listing);
        """)


def test_a_warehouse_an_older_load_left_with_an_area_of_an_arxiv_code_is_mended_by_the_next_run(
        run_ingest, folder, tmp_path):
    warehouse = tmp_path / "w.duckdb"
    run_ingest([folder], warehouse)
    as_an_older_load_left_it(warehouse)
    assert read_sql(warehouse, "SELECT code, taxonomy FROM dim_category ORDER BY ALL").rows() == [
        ("cs.LG", CONFERENCE), ("hep-ph", ARXIV), ("hep-ph", CONFERENCE)]
    assert {k: n for k, n in run_checks(warehouse).items() if n} == {
        "no conference area under an arXiv category's code (an area that is an arXiv code is that category: transforms/categories.py)": 1}
    (folder / "c_listing.txt").write_text(  # Kaggle 0704.0024: another paper, the next day
        "#01Oct 27, 2026\nnlin.PS\nFormation of quasi-solitons in transverse confined ferromagnetic film media\n"
        "A.A. Serga, M. Kostylev, B. Hillebrands\nThe formation of quasi-2D spin-wave waveforms in longitudinally "
        "magnetized stripes of ferrimagnetic film was observed by using time- and space-resolved Brillouin light "
        "scattering technique.\n", encoding="utf-8")
    run_ingest([folder], warehouse)
    fresh = tmp_path / "fresh.duckdb"
    run_ingest([folder], fresh)
    assert_same_tables(data_tables(warehouse), data_tables(fresh))
    assert {k: n for k, n in run_checks(warehouse).items() if n} == {}


def test_a_second_row_of_a_code_fails_its_check(seeds_warehouse, tmp_path):
    from flows.load import connect
    from flows.load import run_checks as checks

    warehouse = tmp_path / "w.duckdb"
    shutil.copyfile(seeds_warehouse[0], warehouse)
    name = "no conference area under an arXiv category's code (an area that is an arXiv code is that category: transforms/categories.py)"
    with connect(warehouse) as con:
        assert checks(con)[name] == 0
        con.execute("INSERT INTO dim_category (category_id, code, name, taxonomy) "
                    "SELECT category_id + 1, code, code, 'conference' FROM dim_category WHERE taxonomy = 'arxiv' LIMIT 1")
        assert checks(con)[name] == 1
