"""transforms.clean (authors, keys, record rejects) and transforms.categories (taxonomy)."""

from __future__ import annotations

import json

import polars as pl
import pytest

from conftest import LISTING_SEEDS, SEARCH_SEEDS, parse_text
from transforms.categories import ARXIV, CONFERENCE, arxiv_taxonomy, resolve_categories
from transforms.clean import clean_listings, split_authors


def split(lines: list[str]) -> list[tuple]:
    df = pl.DataFrame({"a": lines}).select(**split_authors(pl.col("a")))
    return df.select("authors", "n_authors_shown", "author_total", "is_truncated").rows()


# ---------------------------------------------------------------------------- split_authors
def test_and_more_shows_three_of_six():
    assert split(["Zhengping Jiang, William Jurayj, Liaoyaqi Wang and 3 more"]) == [
        (["Zhengping Jiang", "William Jurayj", "Liaoyaqi Wang"], 3, 6, True)]


@pytest.mark.parametrize("line", [
    "A. Smith, B. Jones, C. Wu and 12 more",
    "A. Smith, B. Jones, C. Wu, and 12 more",
    "A. Smith, B. Jones, C. Wu AND 12 MORE",
    "A. Smith, B. Jones, C. Wu and 12 others",
])
def test_and_more_variants(line):
    assert split([line]) == [(["A. Smith", "B. Jones", "C. Wu"], 3, 15, True)]


def test_ten_names_and_et_al_sign_has_no_total():
    names = ["Xinpeng Lv", "Yunxin Mao", "Renzhe Xu", "Chunyuan Zheng", "Haoxuan Li", "Yikai Chen",
             "Jinxuan Yang", "Wanrong Huang", "Yuanlong Chen", "Mingyang Geng"]
    for line in [", ".join(names) + " 等", ", ".join(names) + "等", ", ".join(names) + " et al."]:
        assert split([line]) == [(names, 10, None, True)]


@pytest.mark.parametrize(("line", "names"), [
    ("Marius Henry, Michael Rizvi-Martel, Michael Hahn", ["Marius Henry", "Michael Rizvi-Martel", "Michael Hahn"]),
    ("Steve Hanneke", ["Steve Hanneke"]),
    ("Jan van der Berg, danah boyd", ["Jan van der Berg", "danah boyd"]),
    ("Moshe Eliasof, Eldad Haber, Carola-Bibiane Schönlieb",
     ["Moshe Eliasof", "Eldad Haber", "Carola-Bibiane Schönlieb"]),
    ("张伟，李娜", ["张伟", "李娜"]),  # full-width comma from Chinese pages
    ("Ann Lee ,Bo Chen,  Carl Dee", ["Ann Lee", "Bo Chen", "Carl Dee"]),
])
def test_plain_lists_are_complete(line, names):
    assert split([line]) == [(names, len(names), len(names), False)]


def test_empty_items_are_not_names():
    assert split([", Ann Lee,, Bo Chen ,"]) == [(["Ann Lee", "Bo Chen"], 2, 2, False)]


def test_declared_total_counts_every_shown_item():
    (_, _, total, truncated), = split(["Veuns-Team, :, Changlong Gao and 25 more"])
    assert (total, truncated) == (28, True)


def test_split_authors_is_vectorised_over_a_column():
    rows = split(["Ann Lee", "A, B, C and 1 more", "A 等"])
    assert [r[1:] for r in rows] == [(1, 1, False), (3, 4, True), (1, None, True)]


# ---------------------------------------------------------------------------- clean_listings
def files_frame(fmt: str) -> pl.DataFrame:
    return pl.DataFrame({"file_idx": [0], "source_file_id": [42], "format": [fmt]})


def test_clean_listings_keys_names_and_abstracts():
    text = ("#01Oct 26, 2026\ncs.LG\nA\u00a0Title\u200b\nREMI MUNOS, Re\u0301mi\u00a0Munos, Leif Døring\n"
            "Policy  gradient methods converge.\u00a0")
    records, _ = parse_text(text)
    listings, quarantine = clean_listings(records, files_frame("listing"))
    assert quarantine.is_empty()
    row = listings.row(0, named=True)
    assert row["title"] == "A Title"
    assert row["authors"] == ["REMI MUNOS", "Rémi Munos", "Leif Døring"]
    assert row["author_keys"] == ["remi munos", "remi munos", "leif doring"]
    assert row["abstract"] == "Policy gradient methods converge."
    assert row["abstract_key"] == "policy gradient methods converge."  # case-folded; punctuation is the resolver's
    assert (row["source_file_id"], row["format"], row["listed_code"], row["taxonomy"]) == (42, "listing", "cs.LG", ARXIV)


def test_clean_listings_search_categories_are_conference_areas():
    records, _ = parse_text(SEARCH_SEEDS[1].read_text(encoding="utf-8"))
    listings, quarantine = clean_listings(records, files_frame("search"))
    assert quarantine.is_empty() and listings.height == 20
    typed = listings.select("listed_code", "taxonomy").drop_nulls("listed_code")
    assert set(typed["taxonomy"]) == {CONFERENCE}
    assert listings.filter(pl.col("listed_code").is_null())["taxonomy"].null_count() == 1


@pytest.mark.parametrize(("record", "reason"), [
    ("#01Oct 26, 2026\ncs.LG\nOn Schr\ufffddinger Bridges\nAnn Lee\nWe study bridges.", "undecodable"),
    ("#01Oct 26, 2026\ncs.LG\nA Title\n—, ...\nWe study bridges.", "author"),
    ("#01Oct 26, 2026\ncs.LG\nA Title\nAnn Lee\n— ... —", "abstract"),
])
def test_clean_listings_quarantines_untrustworthy_records(record, reason):
    good = "#02Oct 26, 2026\ncs.LG\nAnother Title\nBo Chen\nAn abstract that is fine."
    records, _ = parse_text(record + "\n" + good)
    listings, quarantine = clean_listings(records, files_frame("listing"))
    assert listings["position"].to_list() == [2]
    assert quarantine.select("line_start", "line_end").rows() == [(1, 5)]
    assert reason in quarantine["reason"].item()


def test_clean_listings_on_listing_seeds_keeps_every_record():
    for path in LISTING_SEEDS:
        records, _ = parse_text(path.read_text(encoding="utf-8"))
        listings, quarantine = clean_listings(records, files_frame("listing"))
        assert quarantine.is_empty() and listings.height == 5
        assert (listings["n_authors_shown"] <= 3).all()


# ---------------------------------------------------------------------------- categories
def resolve(pairs: list[tuple[str | None, str | None]]) -> dict[str, dict]:
    codes, taxonomies = zip(*pairs)
    df = resolve_categories(pl.Series(codes, dtype=pl.String), pl.Series(taxonomies, dtype=pl.String))
    assert df["listed_code"].is_unique().all()
    return {row["listed_code"]: row for row in df.iter_rows(named=True)}


def test_arxiv_code_gets_name_archive_and_group():
    row = resolve([("cs.LG", ARXIV)])["cs.LG"]
    assert (row["code"], row["name"], row["parent_code"], row["parent_name"], row["taxonomy"]) == (
        "cs.LG", "Machine Learning", "cs", "Computer Science", ARXIV)
    assert row["group_name"] == "Computer Science"


def test_arxiv_alias_resolves_to_its_canonical_code():
    rows = resolve([("math.IT", ARXIV), ("cs.IT", ARXIV), ("stat.TH", ARXIV), ("alg-geom", ARXIV)])
    assert rows["math.IT"]["code"] == rows["cs.IT"]["code"] == "cs.IT"
    assert rows["math.IT"]["name"] == "Information Theory" and rows["math.IT"]["parent_code"] == "cs"
    assert rows["stat.TH"]["code"] == "math.ST"
    assert (rows["alg-geom"]["code"], rows["alg-geom"]["parent_code"]) == ("math.AG", "math")


def test_archive_that_is_also_a_category():
    row = resolve([("hep-th", ARXIV)])["hep-th"]
    assert (row["code"], row["parent_code"]) == ("hep-th", "hep-th")
    assert row["name"] == "High Energy Physics - Theory"


def test_unknown_well_formed_code_keeps_its_archive_prefix():
    rows = resolve([("cs.ZZ", ARXIV), ("astro-ph.XX", ARXIV)])
    assert (rows["cs.ZZ"]["code"], rows["cs.ZZ"]["name"], rows["cs.ZZ"]["parent_code"]) == ("cs.ZZ", None, "cs")
    assert (rows["cs.ZZ"]["parent_name"], rows["cs.ZZ"]["group_name"]) == ("Computer Science", "Computer Science")
    assert rows["astro-ph.XX"]["parent_code"] == "astro-ph"


def test_conference_area_and_subarea():
    row = resolve([("Deep Learning · Attention Mechanisms", CONFERENCE)])["Deep Learning · Attention Mechanisms"]
    assert (row["code"], row["name"], row["parent_code"], row["parent_name"], row["taxonomy"]) == (
        "Deep Learning · Attention Mechanisms", "Attention Mechanisms", "Deep Learning", "Deep Learning", CONFERENCE)
    assert row["group_code"] is None


def test_one_level_conference_area():
    row = resolve([("Social Aspects", CONFERENCE)])["Social Aspects"]
    assert (row["code"], row["name"], row["parent_code"], row["taxonomy"]) == (
        "Social Aspects", "Social Aspects", None, CONFERENCE)


def test_nulls_and_repeats_are_dropped():
    rows = resolve([("cs.LG", ARXIV), (None, None), ("cs.LG", ARXIV), ("Social Aspects", CONFERENCE)])
    assert set(rows) == {"cs.LG", "Social Aspects"}


def test_vendored_taxonomy_is_consistent_and_attributed():
    from transforms.categories import TAXONOMY_FILE

    source = json.loads(TAXONOMY_FILE.read_text(encoding="utf-8"))["source"]
    assert "arxiv-base" in source and "MIT" in source and "Cornell" in source
    known, _, aliases = arxiv_taxonomy()
    assert known["code"].is_unique().all()
    assert known.height > 150 and "cs.LG" in known["code"].to_list()
    assert aliases["math.IT"] == "cs.IT"
    assert not set(aliases) & set(known["code"])
