"""transforms.pipeline.process_batch (no Prefect, no warehouse): seeds, merge rules, rejects."""

from __future__ import annotations

from pathlib import Path

import codecs
import unicodedata

import duckdb
import polars as pl
import pytest

from conftest import LISTING_SEEDS, SEARCH_SEEDS, SEED_FILES
from transforms.dedupe import merge_papers
from transforms.pipeline import SourceFile, process_batch


def sources(paths) -> list[SourceFile]:
    return [SourceFile(i + 1, p.name, p.read_bytes()) for i, p in enumerate(paths)]


@pytest.fixture(scope="module")
def seeds():
    return process_batch(sources(SEED_FILES))


def paper_of(result, title_prefix: str) -> dict:
    return result.papers.filter(pl.col("title").str.starts_with(title_prefix)).row(0, named=True)


# ---------------------------------------------------------------------------- the seeds
def test_seeds_give_55_listings_and_49_papers(seeds):
    assert seeds.listings.height == 55
    assert seeds.papers.height == 49
    assert seeds.quarantine.is_empty()
    assert seeds.listings["listing_id"].is_unique().all()
    assert seeds.listings["paper_key"].n_unique() == 49


def test_seed_files_are_described(seeds):
    files = seeds.files.sort("source_file_id")
    assert files["format"].to_list() == ["listing"] * 3 + ["search"] * 2
    assert set(files["encoding"]) == {"utf-8"}
    per_file = seeds.listings.group_by("source_file_id").len().sort("source_file_id")["len"].to_list()
    assert per_file == [5, 5, 5, 20, 20]


def test_paper_listed_in_three_files_is_one_paper(seeds):
    paper = paper_of(seeds, "Quantitative Generalization Bounds for Multi-Layer Transformers")
    listings = seeds.listings.filter(pl.col("paper_key") == paper["paper_key"])
    assert listings.height == 3
    assert sorted(listings["source_file_id"].to_list()) == [1, 2, 3]
    assert paper["authors"] == ["Marius Henry", "Michael Rizvi-Martel", "Michael Hahn"]
    assert (paper["author_total"], paper["has_complete_listing"]) == (3, True)


def test_and_3_more_paper_declares_six_authors(seeds):
    paper = paper_of(seeds, "FOCUS: Active Critic Learning")
    assert paper["author_total"] == 6
    assert paper["authors"] == ["Zhengping Jiang", "William Jurayj", "Liaoyaqi Wang"]
    assert paper["has_complete_listing"] is False


def test_search_only_papers_have_no_title(seeds):
    search_keys = seeds.listings.filter(pl.col("format") == "search")["paper_key"]
    papers = seeds.papers.filter(pl.col("paper_key").is_in(search_keys.implode()))
    assert papers.height == 40 and papers["title"].null_count() == 40


def test_et_al_papers_have_unknown_totals(seeds):
    et_al = seeds.listings.filter(pl.col("is_truncated") & (pl.col("format") == "search"))
    assert et_al.height == 4 and et_al["author_total"].null_count() == 4
    papers = seeds.papers.filter(pl.col("paper_key").is_in(et_al["paper_key"].implode()))
    assert papers["author_total"].null_count() == 4
    assert (papers["authors"].list.len() == 10).all()


def test_seed_categories_and_authors(seeds):
    cats = {row["code"]: row for row in seeds.categories.iter_rows(named=True)}
    assert cats["cs.LG"]["name"] == "Machine Learning"
    assert cats["Social Aspects"]["parent_code"] is None
    assert cats["Social Aspects · Trustworthy Machine Learning"]["parent_code"] == "Social Aspects"
    assert seeds.categories["category_id"].is_unique().all()
    names = set(seeds.authors["name"])
    assert {"Steve Hanneke", "Erdem Koyuncu", "Carola-Bibiane Schönlieb"} <= names
    assert "Social Aspects" not in names and "Theory · Learning Theory" not in names


def test_batch_is_deterministic_and_order_independent(seeds):
    again = process_batch(list(reversed(sources(SEED_FILES))))
    key = ["listing_id"]
    assert again.listings.drop("file_idx").sort(key).equals(seeds.listings.drop("file_idx").sort(key))
    assert again.papers.sort("paper_key").equals(seeds.papers.sort("paper_key"))
    assert again.categories.equals(seeds.categories)


# ---------------------------------------------------------------------------- merge rules
ABSTRACT = ("We study policy gradient methods for continuous control and show that, under mild "
            "assumptions on the step size, they converge to a stationary point at a linear rate.")
SIX = ["Rémi Munos", "Leif Döring", "Jan van der Berg", "Adrià Garriga-Alonso", "Shreya Meel", "Itzhak Tamo"]
TWELVE = SIX + ["Sennur Ulukus", "Michael Hahn", "Marius Henry", "Steve Hanneke", "Erdem Koyuncu", "Yao Shu"]


def listing_file(*records: tuple[str, str, str]) -> bytes:
    """records: (title, authors line, abstract)."""
    lines = []
    for i, (title, authors, abstract) in enumerate(records, 1):
        lines += [f"#{i:02d}Oct 26, 2026", "cs.LG", title, authors, abstract]
    return "\n".join(lines).encode("utf-8")


def search_file(*records: tuple[str | None, str, str]) -> bytes:
    """records: (category or None, authors line, abstract)."""
    paras = ["论文检索"]
    for category, authors, abstract in records:
        paras += ([category] if category else []) + [authors, abstract]
    return "\n\n".join(paras).encode("utf-8")


def batch(*files: bytes):
    return process_batch([SourceFile(i + 1, f"f{i + 1}.txt", data) for i, data in enumerate(files)])


def loaded_papers(tmp_path: Path, *files: bytes) -> list[dict]:
    """The papers the warehouse makes of these files: the batch keys listings exactly (a
    listing and an untitled search record of one paper have two keys); the load links them."""
    from tests.test_resolve import Warehouse

    tmp_path.mkdir(parents=True, exist_ok=True)
    warehouse = Warehouse(tmp_path / "w.duckdb")
    warehouse.ingest([f.decode("utf-8") for f in files])
    with duckdb.connect(str(warehouse.path), read_only=True) as con:
        return con.sql("SELECT * FROM dim_paper").pl().to_dicts()


def test_merge_takes_title_from_listing_and_longest_author_list_from_search(tmp_path):
    noisy = unicodedata.normalize("NFD", ABSTRACT).replace(" ", "\u00a0", 3).upper()
    search = search_file(("Reinforcement Learning · Everything Else", ", ".join(SIX), ABSTRACT))
    listed = listing_file(("Policy Gradients Converge", "RÉMI MUNOS, Leif Döring, Jan van der Berg and 3 more", noisy))
    assert batch(search, listed).quarantine.is_empty()
    (paper,) = loaded_papers(tmp_path, search, listed)
    assert paper["title"] == "Policy Gradients Converge"
    assert paper["authors"] == SIX
    assert paper["author_count"] == 6
    assert paper["has_complete_listing"] is True


def test_merge_declared_total_beats_et_al(tmp_path):
    (paper,) = loaded_papers(
        tmp_path,
        search_file((None, ", ".join(TWELVE[:10]) + " 等", ABSTRACT)),
        listing_file(("Policy Gradients Converge", ", ".join(TWELVE[:3]) + " and 9 more", ABSTRACT)),
    )
    assert (paper["author_count"], len(paper["authors"]), paper["has_complete_listing"]) == (12, 10, False)


def test_search_only_et_al_paper_has_no_total_and_no_title():
    result = batch(search_file(("Social Aspects", ", ".join(TWELVE[:10]) + " 等", ABSTRACT)))
    paper = result.papers.row(0, named=True)
    assert (paper["title"], paper["author_total"], paper["has_complete_listing"]) == (None, None, False)


def test_merge_keeps_the_longest_title_whatever_the_order(tmp_path):
    """Listed the same day, a title cut short and the full one: one paper, the full title."""
    short = listing_file(("Policy Gradients", "Rémi Munos", ABSTRACT))
    long = listing_file(("Policy Gradients Converge Linearly", "Rémi Munos", ABSTRACT))
    for i, files in enumerate([(short, long), (long, short)]):
        papers = loaded_papers(tmp_path / str(i), *files)
        assert [p["title"] for p in papers] == ["Policy Gradients Converge Linearly"]


def test_different_abstracts_are_different_papers():
    other = ABSTRACT.replace("linear rate", "sublinear rate")
    result = batch(listing_file(("T", "Ann Lee", ABSTRACT), ("T", "Ann Lee", other)))
    assert result.papers.height == 2


def test_merge_papers_is_order_independent(seeds):
    shuffled = seeds.listings.sample(fraction=1.0, shuffle=True, seed=3)
    # merge_papers needs the title and abstract the batch result drops: rebuild them per key
    texts = seeds.papers.select("paper_key", "title", "abstract")
    left = merge_papers(seeds.listings.join(texts, on="paper_key")).sort("paper_key")
    right = merge_papers(shuffled.join(texts, on="paper_key")).sort("paper_key")
    assert left.equals(right)


# ---------------------------------------------------------------------------- rejects
def test_unusable_files_are_quarantined_and_the_rest_loads():
    good = SEARCH_SEEDS[0].read_bytes()
    result = process_batch([
        SourceFile(1, "good.txt", good),
        SourceFile(2, "letter.txt", b"Dear colleagues,\nplease find the minutes attached.\n"),
        SourceFile(3, "image.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256))),
        SourceFile(4, "empty.txt", b""),
        SourceFile(5, "blank.txt", b"\n \n\t\n"),
    ])
    assert result.listings.height == 20
    assert set(result.listings["source_file_id"]) == {1}
    reasons = dict(result.quarantine.select("path", "reason").iter_rows())
    assert set(reasons) == {"letter.txt", "image.png", "empty.txt", "blank.txt"}
    assert "unknown" in reasons["letter.txt"] and "binary" in reasons["image.png"]
    assert "empty" in reasons["empty.txt"] and "blank" in reasons["blank.txt"]
    formats = dict(result.files.select("path", "format").iter_rows())
    assert formats["good.txt"] == "search" and formats["letter.txt"] == "unknown"


def test_bad_records_are_quarantined_with_their_file_and_lines():
    lines = LISTING_SEEDS[0].read_text(encoding="utf-8").split("\n")
    lines[10] = "#03Feb 30, 2026"  # impossible date in record 3
    damaged = "\n".join(lines[:23]).encode("utf-8")  # and record 5 cut off
    result = process_batch([SourceFile(9, "damaged.txt", codecs.BOM_UTF8 + damaged)])
    assert result.listings["position"].to_list() == [1, 2, 4]
    spans = result.quarantine.select("source_file_id", "path", "line_start", "line_end").rows()
    assert spans == [(9, "damaged.txt", 11, 15), (9, "damaged.txt", 21, 23)]
    assert result.quarantine["raw_text"].to_list()[0].startswith("#03Feb 30, 2026")


def test_a_latin1_byte_in_a_utf8_file_is_read_as_windows_1252():
    text = SEARCH_SEEDS[0].read_text(encoding="utf-8")
    raw = text.encode("utf-8").replace(b"Erdem Koyuncu", b"Erdem Koy\xfcncu")  # one Latin-1 byte
    result = process_batch([SourceFile(1, "s.txt", raw)])
    assert result.files["encoding"].item() == "utf-8+windows-1252"
    assert result.listings.height == 20 and "Erdem Koyüncu" in result.authors["name"].to_list()


def test_undecodable_bytes_quarantine_only_their_record():
    text = SEARCH_SEEDS[0].read_text(encoding="utf-8")
    raw = text.encode("utf-8").replace(b"Erdem Koyuncu", b"Erdem Koy\x81\x8dncu")  # bytes no code page reads
    result = process_batch([SourceFile(1, "s.txt", raw)])
    assert result.files["encoding"].item() == "utf-8-lossy"
    assert result.listings.height == 19
    bad = result.quarantine.row(0, named=True)
    assert "undecodable" in bad["reason"] and (bad["line_start"], bad["line_end"]) == (15, 19)


def test_a_collaboration_of_five_thousand_authors_loads_whole():
    """The author line of the largest collaborations (5,154 names on the ATLAS and CMS Higgs mass
    combination, ~100,000 characters in full) was refused as a broken file (AUTHORS_MAX was 50,000
    characters: ~2,500 names) and the paper quarantined."""
    given = ["Georges", "Brad", "Ahmed", "Maria", "Wei", "Hao", "Yue", "Jan", "Peter", "Anna", "Olga", "Luca",
             "Chen", "Ivan", "Sara", "Tomas", "Elena", "Marco", "Yuki", "Omar", "Ines", "Pavel", "Lena", "Kofi",
             "Rahul", "Sofia", "Jonas", "Aiko", "Diego", "Noor", "Felix", "Hana", "Igor", "Lars", "Mina", "Nils",
             "Oskar", "Priya", "Quentin", "Rosa", "Sven", "Tariq", "Uma", "Viktor", "Wanda", "Xavier", "Yara", "Zoltan",
             "Amir", "Bianca", "Carlos", "Dana", "Emil", "Farah", "Gustav", "Helga", "Ilya", "Jana", "Karl", "Leila",
             "Mateo", "Nadia", "Otto", "Paula", "Rafael", "Selin", "Theo", "Ursula", "Vera", "Walter", "Ximena", "Yosef"]
    surnames = [g + "son" for g in given]
    names = [f"{g} {s}" for g in given for s in surnames][:5154]
    authors = ", ".join(names)
    assert len(authors) > 50_000
    text = f"#01Jul 31, 2015\nhep-ex\nCombined Measurement of the Higgs Boson Mass\n{authors}\nWe combine the measurements.\n"
    result = process_batch([SourceFile(1, "collab.txt", text.encode())])
    assert result.quarantine.is_empty()
    assert result.listings["n_authors_shown"].to_list() == [5154]
