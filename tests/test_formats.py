"""transforms.formats: the listing and search parsers and the detection registry.

Expected values are read from the seed files independently of the parsers (the listing format
has fixed five-line records; the search seeds are split on blank lines by hand here).
"""

from __future__ import annotations

import codecs
import datetime as dt
import json
import textwrap
import unicodedata

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import LISTING_SEEDS, REPO, SEARCH_SEEDS, parse_text
from transforms.clean import split_authors
from transforms.formats import FORMATS, UNKNOWN, detect_format, get_format
from transforms.formats.common import QUARANTINE_SCHEMA, RECORD_SCHEMA, is_names_text
from transforms.formats.listing import may_be_names
from transforms.pipeline import SourceFile, process_batch
from transforms.text import clean_text

SEED_DATE = dt.date(2026, 10, 26)


def seed_text(path) -> str:
    return path.read_text(encoding="utf-8")


def clean(values: list[str | None]) -> list[str | None]:
    return pl.DataFrame({"v": values}, schema={"v": pl.String}).select(clean_text(pl.col("v")))["v"].to_list()


def search_blocks(text: str) -> list[list[tuple[int, str]]]:
    """The seed's paragraphs as (line number, text), grouped into records by hand: a record
    ends at its abstract, the only paragraph longer than 300 characters in the seeds."""
    records, current = [], []
    for no, line in enumerate(text.split("\n"), 1):
        if no == 1 or not line.strip():
            continue
        current.append((no, line))
        if len(line) > 300:
            records.append(current)
            current = []
    assert not current
    return records


# ---------------------------------------------------------------------------- schema, registry
def test_parsers_return_the_common_record_and_quarantine_schemas():
    for path in LISTING_SEEDS + SEARCH_SEEDS:
        records, quarantine = parse_text(seed_text(path))
        assert dict(records.schema) == RECORD_SCHEMA
        assert dict(quarantine.schema) == QUARANTINE_SCHEMA


def test_registry_names_both_formats():
    assert {fmt.name for fmt in FORMATS} == {"listing", "search"}
    assert get_format("listing").name == "listing" and get_format("search").name == "search"


@pytest.mark.parametrize("path", LISTING_SEEDS, ids=lambda p: p.name[:3])
def test_detect_listing_seeds(path):
    assert detect_format(seed_text(path)) == "listing"


@pytest.mark.parametrize("path", SEARCH_SEEDS, ids=lambda p: p.name[:3])
def test_detect_search_seeds(path):
    assert detect_format(seed_text(path)) == "search"


@pytest.mark.parametrize("text", [
    "\ufeff论文检索\n\nSteve Hanneke\n\nWe study learning.",  # BOM left by a decoder
    "\n\n  论文检索  \n\nA B\n\nabstract",  # leading blank lines, padded marker
    "\u200b论文检索\n\nA B\n\nabstract",
])
def test_detect_search_despite_leading_noise(text):
    assert detect_format(text) == "search"


def test_detect_listing_after_a_short_preamble():
    text = "Daily arXiv digest\nForwarded message\n\n" + seed_text(LISTING_SEEDS[0])
    assert detect_format(text) == "listing"


@pytest.mark.parametrize("text", [
    "",
    "\n\n   \n",
    "Dear colleagues,\nplease find attached the minutes of our meeting.\nBest, Ann",
    "title,authors,abstract\nA,B,C\n",
    "# 01 Oct 26, 2026 is not a header\ncs.LG\n",
    "A letter that mentions 论文检索 inside a sentence\n\nA B\n\nabstract",  # the marker is a whole line
    "Mail about #01Oct 26, 2026 in a sentence\ncs.LG\n",  # a header is a whole line
])
def test_detect_unknown(text):
    assert detect_format(text) == UNKNOWN


_LINES = st.sampled_from(["论文检索", " 论文检索 ", "#01Oct 26, 2026", "#7 Oct 26, 2026", "cs.LG", "Ann Lee, Bo Chen",
                          "a line of prose about 论文检索", "Mail about #01Oct 26, 2026", "", "x" * 30,
                          "论文检索 and more", "#01Oct 26, 20261"])  # lines a cut could make a marker or header


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINES, max_size=12), st.integers(0, 120))
def test_a_format_found_in_the_head_is_the_one_the_whole_text_gives(lines, head):
    """detect_format looks at a file's head first (HEAD_CHARS, cut at a line end): its answer is
    the whole text's, whatever the lines and wherever the head ends."""
    import transforms.formats as formats

    text = "\n".join(lines)
    old, formats.HEAD_CHARS = formats.HEAD_CHARS, head
    try:
        assert detect_format(text) == (formats._first(text) or UNKNOWN)
    finally:
        formats.HEAD_CHARS = old


# ---------------------------------------------------------------------------- listing seeds
@pytest.mark.parametrize("path", LISTING_SEEDS, ids=lambda p: p.name[:3])
def test_listing_seed_gives_five_records_with_their_lines(path):
    text = seed_text(path)
    lines = text.split("\n")
    records, quarantine = parse_text(text)
    assert quarantine.is_empty()
    assert records["position"].to_list() == [1, 2, 3, 4, 5]
    assert records["line_start"].to_list() == [1, 6, 11, 16, 21]
    assert records["line_end"].to_list() == [5, 10, 15, 20, 25]
    assert records["rank"].to_list() == [1, 2, 3, 4, 5]
    assert records["listed_on"].to_list() == [SEED_DATE] * 5
    # every field is the line the lineage points at
    for row in records.iter_rows(named=True):
        span = lines[row["line_start"] - 1: row["line_end"]]
        assert span[0] == f"#{row['rank']:02d}Oct 26, 2026"
        assert [row["category_raw"], row["title"], row["authors_raw"], row["abstract"]] == span[1:]
        assert row["raw_text"] == "\n".join(span)


def test_listing_seed_fields_spot_check():
    records, _ = parse_text(seed_text(LISTING_SEEDS[0]))
    first, fourth = records.row(0, named=True), records.row(3, named=True)
    assert first["category_raw"] == "cs.LG"
    assert first["title"].startswith("Quantitative Generalization Bounds for Multi-Layer Transformers")
    assert first["authors_raw"] == "Marius Henry, Michael Rizvi-Martel, Michael Hahn"
    assert fourth["authors_raw"] == "Zhengping Jiang, William Jurayj, Liaoyaqi Wang and 3 more"
    assert records["category_raw"].to_list() == ["cs.LG", "cs.LG", "cs.IT", "cs.LG", "cs.CL"]


# ---------------------------------------------------------------------------- search seeds
@pytest.mark.parametrize("path", SEARCH_SEEDS, ids=lambda p: p.name[:3])
def test_search_seed_gives_twenty_records_with_their_lines(path):
    text = seed_text(path)
    expected = search_blocks(text)
    records, quarantine = parse_text(text)
    assert quarantine.is_empty()
    assert len(expected) == records.height == 20
    assert records["position"].to_list() == list(range(1, 21))
    assert records["rank"].null_count() == 20 and records["listed_on"].null_count() == 20
    assert records["title"].null_count() == 20
    for row, block in zip(records.iter_rows(named=True), expected):
        assert (row["line_start"], row["line_end"]) == (block[0][0], block[-1][0])
        assert row["abstract"] == block[-1][1]
        assert row["authors_raw"] == block[-2][1]
        assert row["category_raw"] == (block[0][1] if len(block) == 3 else None)


def test_search_seed_categories_present_and_absent():
    counts = []
    for path in SEARCH_SEEDS:
        records, _ = parse_text(seed_text(path))
        counts.append(records["category_raw"].null_count())
    assert counts == [8, 1]


def test_one_level_area_is_a_category_and_one_author_is_an_author():
    records, _ = parse_text(seed_text(SEARCH_SEEDS[1]))
    by_line = {row["line_start"]: row for row in records.iter_rows(named=True)}
    social = by_line[49]
    assert social["category_raw"] == "Social Aspects"
    assert social["authors_raw"].startswith("Jingru Jia, Zehua Yuan")
    hanneke = by_line[73]
    assert (hanneke["category_raw"], hanneke["authors_raw"]) == ("Theory · Learning Theory", "Steve Hanneke")
    assert by_line[85]["category_raw"] == "Social Aspects"
    assert by_line[79]["category_raw"] == "Social Aspects · Trustworthy Machine Learning"

    records, _ = parse_text(seed_text(SEARCH_SEEDS[0]))
    koyuncu = records.filter(pl.col("authors_raw") == "Erdem Koyuncu").row(0, named=True)
    assert koyuncu["category_raw"] == "Theory · Deep Learning"
    assert "Erdem Koyuncu" not in records["category_raw"].drop_nulls().to_list()


@pytest.mark.parametrize("abstract", ["No abstract available.", "Withdrawn by the authors.", "Abstract not given.",
                                      "To appear.", "See the paper for details!", "Withdrawn.", "Withdrawn", "TBD",
                                      "N/A", "No abstract available", "暂无摘要", "Abstract not available"])
def test_a_one_line_abstract_is_not_a_names_line(abstract):
    """A titles-only search page ("No abstract available." under each record, as ICML's): the
    sentence was shaped like one name, so each record read as names after names, and records took
    their neighbours into quarantine (a page without areas lost every record)."""
    records_in = [("Deep Learning · Algorithms", "Yuchen Wang, Hongjue Zhao"), (None, "Junshu Wang"),
                  (None, "Bokun Wang, Tianbao Yang"), ("Theory", "Steve Hanneke"), (None, "Wei Wang")]
    paragraphs = ["论文检索"] + [p for area, names in records_in for p in ([area] if area else []) + [names, abstract]]
    records, quarantine = parse_text("\n\n".join(paragraphs) + "\n")
    assert quarantine.is_empty()
    assert records.select("category_raw", "authors_raw", "abstract").rows() == [
        (area, names, abstract) for area, names in records_in]


@pytest.mark.parametrize("abstract", ["Withdrawn", "TBD", "暂无摘要", "Withdrawn by the authors."])
def test_a_listing_of_lower_case_names_above_a_placeholder_abstract_loads(abstract):
    """"Withdrawn" reads as a name while "yu chen, Jing Lian" (lower case) does not: the record was
    taken for a shifted one (abstract as names) and quarantined; 175 of ICML's 3,340 papers as a
    titles-only listing (`python -m eval.titles_only --placeholder Withdrawn`)."""
    text = "\n".join(["#01Jul 13, 2025", "cs.LG", "A Chaotic Dynamics Framework for Event Signal Processing",
                      "yu chen, Jing Lian, Zhaofei Yu", abstract]) + "\n"
    records, quarantine = parse_text(text)
    assert quarantine.is_empty()
    assert records.select("authors_raw", "abstract").rows() == [("yu chen, Jing Lian, Zhaofei Yu", abstract)]


def test_an_area_line_with_its_names_below_it_and_no_blank_line_between():
    """Joined as one paragraph, "Deep Learning · Robustness" and the names under it loaded as
    the authors ["Deep Learning", "Robustness Runqi Lin", ...], the paper without its area."""
    text = "\n\n".join([
        "论文检索",
        "Deep Learning · Robustness\nRunqi Lin, Chaojian Yu, Bo Han, Tongliang Liu",
        "Adversarial training is widely used to improve the robustness of deep networks.",
        "Theory · Learning Theory\nSteve Hanneke",
        "We sharply characterize the optimal query complexity of agnostic active learning.",
    ]) + "\n"
    records, quarantine = parse_text(text)
    assert quarantine.is_empty()
    assert records.select("category_raw", "authors_raw").rows() == [
        ("Deep Learning · Robustness", "Runqi Lin, Chaojian Yu, Bo Han, Tongliang Liu"),
        ("Theory · Learning Theory", "Steve Hanneke")]


def test_one_level_area_followed_by_a_one_author_line():
    """"Social Aspects" then "Steve Hanneke": both short, no comma; the first is the area."""
    text = "\n\n".join([
        "论文检索",
        "Social Aspects", "Steve Hanneke", "We study sample compression schemes for partial concept classes in general.",
        "Erdem Koyuncu", "We study compute reduction in neural networks through a unified view here.",
        "Deep Learning", "Leif Döring, Rémi Munos", "Policy gradient methods converge under mild assumptions on the step size.",
    ])
    records, quarantine = parse_text(text)
    assert quarantine.is_empty()
    assert records.select("category_raw", "authors_raw").rows() == [
        ("Social Aspects", "Steve Hanneke"), (None, "Erdem Koyuncu"), ("Deep Learning", "Leif Döring, Rémi Munos")]
    assert records["line_start"].to_list() == [3, 9, 13]
    assert records["line_end"].to_list() == [7, 11, 17]


def test_ten_names_and_et_al_sign():
    records, _ = parse_text(seed_text(SEARCH_SEEDS[0]))
    first = records.row(0, named=True)
    assert first["authors_raw"].endswith("Mingyang Geng 等")
    parts = split_authors(pl.DataFrame({"a": [first["authors_raw"]]}), "a")
    assert parts["authors"].to_list()[0][0] == "Xinpeng Lv" and parts["authors"].list.len().item() == 10
    assert (parts["author_total"].item(), parts["is_truncated"].item()) == (None, True)


# ---------------------------------------------------------------------------- listing corners
LISTING = seed_text(LISTING_SEEDS[0])
LISTING_LINES = LISTING.split("\n")


def test_listing_cut_off_at_end_of_file():
    records, quarantine = parse_text("\n".join(LISTING_LINES[:23]))  # record 5 keeps 3 lines
    assert records["position"].to_list() == [1, 2, 3, 4]
    assert quarantine.height == 1
    bad = quarantine.row(0, named=True)
    assert (bad["line_start"], bad["line_end"]) == (21, 23)
    assert "cut off" in bad["reason"]
    assert bad["raw_text"] == "\n".join(LISTING_LINES[20:23])


def test_listing_record_missing_a_line():
    lines = LISTING_LINES[:6] + LISTING_LINES[7:]  # record 2 lost its category line
    records, quarantine = parse_text("\n".join(lines))
    assert records["rank"].to_list() == [1, 3, 4, 5]
    assert records["line_start"].to_list() == [1, 10, 15, 20]
    assert records["title"].to_list() == [LISTING_LINES[i] for i in (2, 12, 17, 22)]
    assert quarantine.select("line_start", "line_end").rows() == [(6, 9)]
    assert quarantine["reason"].item()  # says why


def test_listing_record_missing_its_header_loses_only_that_record():
    lines = LISTING_LINES[:5] + LISTING_LINES[6:]  # record 2's "#02..." line is gone
    records, quarantine = parse_text("\n".join(lines))
    assert records["rank"].to_list() == [1, 3, 4, 5]
    assert records.row(0, named=True)["abstract"] == LISTING_LINES[4]
    assert quarantine.select("line_start", "line_end").rows() == [(6, 9)]


def test_listing_impossible_date():
    text = LISTING.replace("#03Oct 26, 2026", "#03Feb 30, 2026")
    records, quarantine = parse_text(text)
    assert records["rank"].to_list() == [1, 2, 4, 5]
    assert quarantine.select("line_start", "line_end").rows() == [(11, 15)]
    assert "Feb 30, 2026" in quarantine["reason"].item()


def test_listing_dates_with_unpadded_day_and_other_months():
    text = LISTING.replace("#02Oct 26, 2026", "#02Feb 4, 2026").replace("#05Oct 26, 2026", "#05Dec 31, 1999")
    records, quarantine = parse_text(text)
    assert quarantine.is_empty()
    assert records["listed_on"].to_list() == [SEED_DATE, dt.date(2026, 2, 4), SEED_DATE, SEED_DATE,
                                              dt.date(1999, 12, 31)]


def test_listing_text_before_the_first_header():
    text = "Fwd: your daily digest\nSent by the arXiv bot\n" + LISTING
    records, quarantine = parse_text(text)
    assert records["line_start"].to_list() == [3, 8, 13, 18, 23]
    assert records["position"].to_list() == [1, 2, 3, 4, 5]
    assert quarantine.select("line_start", "line_end").rows() == [(1, 2)]
    assert quarantine["raw_text"].item() == "Fwd: your daily digest\nSent by the arXiv bot"


def test_listing_trailing_blank_lines_are_not_part_of_the_last_record():
    records, quarantine = parse_text(LISTING + "\n\n  \n\u00a0\n")
    assert quarantine.is_empty()
    assert records["line_end"].to_list() == [5, 10, 15, 20, 25]


def test_listing_blank_lines_between_records_are_separators():
    blocks = ["\n".join(LISTING_LINES[i:i + 5]) for i in range(0, 25, 5)]
    records, quarantine = parse_text("\n\n".join(blocks[:2]) + "\n\n\n" + "\n\n".join(blocks[2:]))
    assert quarantine.is_empty()
    assert records["line_start"].to_list() == [1, 7, 14, 20, 26]
    assert records["line_end"].to_list() == [5, 11, 18, 24, 30]
    baseline, _ = parse_text(LISTING)
    assert records.drop("line_start", "line_end", "raw_text").equals(baseline.drop("line_start", "line_end", "raw_text"))


def test_every_taxonomy_code_is_a_valid_category_line():
    taxonomy = json.loads((REPO / "data" / "taxonomy" / "arxiv_taxonomy.json").read_text(encoding="utf-8"))
    codes = sorted(set(taxonomy["categories"]) | set(taxonomy["category_aliases"]))
    codes.remove("test")  # arXiv's internal test category: never on a listing
    records = [f"#{i + 1:02d}Oct 26, 2026\n{code}\nA Title\nAnn Lee\nAn abstract of some length."
               for i, code in enumerate(codes)]
    parsed, quarantine = parse_text("\n".join(records))
    assert quarantine.is_empty()
    assert parsed["category_raw"].to_list() == codes


def test_listing_category_line_that_is_not_a_code_is_quarantined():
    text = LISTING.replace("\ncs.IT\n", "\nInformation-Theoretic Secure Aggregation\n")
    records, quarantine = parse_text(text)
    assert records.height == 4
    assert quarantine.select("line_start", "line_end").rows() == [(11, 15)]


# ---------------------------------------------------------------------------- search corners
SEARCH = seed_text(SEARCH_SEEDS[1])
SEARCH_PARAS = SEARCH.split("\n\n")  # [marker, para, para, ...]


def test_search_cut_off_at_end_of_file():
    records, quarantine = parse_text("\n\n".join(SEARCH_PARAS[:-1]))  # last abstract lost
    assert records.height == 19
    last = search_blocks(SEARCH)[-1]
    assert quarantine.select("line_start", "line_end").rows() == [(last[0][0], last[-2][0])]
    assert "cut off" in quarantine["reason"].item()


def test_search_record_missing_its_authors_line():
    blocks = search_blocks(SEARCH)
    second = blocks[1]  # category, authors, abstract
    assert len(second) == 3
    lines = SEARCH.split("\n")
    lines[second[1][0] - 1] = ""  # the authors line is blanked out
    records, quarantine = parse_text("\n".join(lines))
    assert records.height == 19
    assert quarantine.select("line_start", "line_end").rows() == [(second[0][0], second[-1][0])]
    assert records["line_start"].to_list() == [b[0][0] for i, b in enumerate(blocks) if i != 1]


def test_search_record_missing_its_abstract_mid_file():
    blocks = search_blocks(SEARCH)
    lines = SEARCH.split("\n")
    lines[blocks[2][-1][0] - 1] = ""
    records, quarantine = parse_text("\n".join(lines))
    assert records.height == 19
    assert quarantine.select("line_start", "line_end").rows() == [(blocks[2][0][0], blocks[2][-2][0])]


def test_search_extra_and_trailing_blank_lines():
    text = SEARCH.replace("\n\n", "\n\n\n") + "\n\n \n"
    records, quarantine = parse_text(text)
    assert quarantine.is_empty()
    baseline, _ = parse_text(SEARCH)
    keep = ["position", "category_raw", "authors_raw", "abstract"]
    assert records.select(keep).equals(baseline.select(keep))


def test_search_short_clause_abstract_is_prose_not_names():
    text = "\n\n".join([
        "论文检索",
        "Ann Lee, Bo Chen",
        "In this paper, we propose a method, which improves results. Our experiments, on three benchmarks, show gains.",
        "Carl Dee",
        "We study a long problem that has many words in one clause and ends here.",
    ])
    records, quarantine = parse_text(text)
    assert quarantine.is_empty()
    assert records["authors_raw"].to_list() == ["Ann Lee, Bo Chen", "Carl Dee"]


# ---------------------------------------------------------------------------- encodings, line ends
def variants(text: str) -> dict[str, bytes]:
    return {
        "utf-8": text.encode("utf-8"),
        "crlf": text.replace("\n", "\r\n").encode("utf-8"),
        "cr": text.replace("\n", "\r").encode("utf-8"),
        "bom": codecs.BOM_UTF8 + text.encode("utf-8"),
        "bom-crlf": codecs.BOM_UTF8 + text.replace("\n", "\r\n").encode("utf-8"),
        "utf-16": codecs.BOM_UTF16_LE + text.encode("utf-16-le"),
        "utf-16-be-crlf": codecs.BOM_UTF16_BE + text.replace("\n", "\r\n").encode("utf-16-be"),
        "gb18030": text.encode("gb18030"),
        "gb18030-crlf": text.replace("\n", "\r\n").encode("gb18030"),
        "trailing-newline": (text + "\n").encode("utf-8"),
    }


@pytest.mark.parametrize("path", LISTING_SEEDS + SEARCH_SEEDS, ids=lambda p: p.name[:3])
def test_encoding_and_line_end_variants_give_identical_listings(path):
    text = seed_text(path)
    results = {name: process_batch([SourceFile(1, path.name, raw)]) for name, raw in variants(text).items()}
    baseline = results.pop("utf-8")
    assert baseline.listings.height == (5 if path in LISTING_SEEDS else 20)
    assert baseline.quarantine.is_empty()
    for name, result in results.items():
        assert result.quarantine.is_empty(), name
        assert result.listings.equals(baseline.listings), name
        assert result.papers.sort("paper_key").equals(baseline.papers.sort("paper_key")), name


def test_variant_encodings_are_recorded():
    text = seed_text(SEARCH_SEEDS[0])
    result = process_batch([SourceFile(i, f"{name}.txt", raw) for i, (name, raw) in enumerate(variants(text).items())])
    assert dict(result.files.select("path", "encoding").iter_rows()) == {
        "utf-8.txt": "utf-8", "crlf.txt": "utf-8", "cr.txt": "utf-8", "bom.txt": "utf-8-sig",
        "bom-crlf.txt": "utf-8-sig", "utf-16.txt": "utf-16", "utf-16-be-crlf.txt": "utf-16",
        "gb18030.txt": "gb18030", "gb18030-crlf.txt": "gb18030", "trailing-newline.txt": "utf-8"}
    assert set(result.files["format"]) == {"search"}


# ---------------------------------------------------------------------------- round-trip properties
GIVEN = ["Rémi", "Leif", "Zhengping", "Shreya", "Itzhak", "Adrià", "Carola-Bibiane", "Søren", "Michał",
         "José Ángel", "Chloé", "Yuan", "Ngọc Anh", "Łukasz", "danah", "Jean-Pierre", "Ahmed", "Mary Jo",
         "J.", "Wei"]
SURNAME = ["Munos", "Döring", "Schönlieb", "Rizvi-Martel", "van der Berg", "de la Cruz", "Garriga-Alonso",
           "Nguyễn", "Strauß", "boyd", "Øksendal", "O'Neil", "Hanneke", "Koyuncu", "Ulukus", "ben Amor",
           "Müller-Lüdenscheidt", "Đặng", "von Neumann", "Li", "Zhang"]


@st.composite
def author_name(draw) -> str:
    name = f"{draw(st.sampled_from(GIVEN))} {draw(st.sampled_from(SURNAME))}"
    style = draw(st.sampled_from(["as-is"] * 6 + ["caps", "lower"]))
    return {"as-is": name, "caps": name.upper(), "lower": name.lower()}[style]


WORDS = ("we study the a of learning model models data training results show that this method "
         "neural networks graph attention bounds generalization optimal convergence rate under "
         "assumptions our approach outperforms baselines on benchmarks propose novel framework "
         "for transformers in context sample complexity robust estimation theory experiments").split()
EXTRAS = ["$N$", "$O(\\log n)$", "(ZO)", "\\textbf{fast}", "*robust*", "https://github.com/org/repo",
          "10.12$\\times$", "55.4 vs. 48.2", "i.e.", "state-of-the-art", "TD($λ$)"]


@st.composite
def sentence(draw) -> str:
    """A sentence of prose: a run of at least eight words before any comma (as real
    abstracts have; see test_search_short_clause_abstract_is_prose_not_names)."""
    words = draw(st.lists(st.sampled_from(WORDS + EXTRAS), min_size=8, max_size=18))
    tail = draw(st.lists(st.sampled_from(WORDS), max_size=6))
    text = " ".join(words) + (", " + " ".join(tail) if tail else "")
    return text[0].upper() + text[1:] + draw(st.sampled_from([".", ".", ".", "!", "?", ":"]))


abstract = st.lists(sentence(), min_size=2, max_size=5).map(" ".join)
title = st.lists(st.sampled_from(WORDS + ["Transformers:", "Multi-Layer", "Long-Horizon", "LLMs"]),
                 min_size=2, max_size=14).map(lambda ws: " ".join(ws).capitalize())
ARXIV_CODES = sorted(set(json.loads((REPO / "data" / "taxonomy" / "arxiv_taxonomy.json").read_text("utf-8"))["categories"])
                     - {"test"})
AREAS = ["Deep Learning · Large Language Models", "Theory · Learning Theory",
         "Optimization · Zero-order and Black-box Optimization", "Social Aspects · Trustworthy Machine Learning",
         "Miscellaneous Aspects of Machine Learning · Transfer, Multitask and Meta-learning",
         "Social Aspects", "Deep Learning", "Applications", "Probabilistic Methods",
         "Miscellaneous Aspects of Machine Learning"]


@st.composite
def noisy(draw, text: str) -> str:
    """Label-preserving noise real files carry: NFD, NBSP for a space, a zero-width, trailing blanks."""
    if draw(st.booleans()):
        text = unicodedata.normalize("NFD", text)
    if " " in text and draw(st.booleans()):
        i = draw(st.integers(0, len(text) - 1))
        j = text.find(" ", i)
        if j >= 0:
            text = text[:j] + draw(st.sampled_from(["\u00a0", "  ", " \u200b"])) + text[j + 1:]
    return text + draw(st.sampled_from(["", "", " ", "  \t"]))


def authors_line(names: list[str], shown: int, more: str) -> str:
    line = ", ".join(names[:shown])
    if len(names) > shown:
        line += f" and {len(names) - shown} more" if more == "and" else " 等"
    return line


@st.composite
def listing_file(draw):
    """(text, expected records) for a random listing file."""
    n = draw(st.integers(1, 8))
    lines, expected = [], []
    for position in range(1, n + 1):
        for _ in range(draw(st.sampled_from([0, 0, 0, 1, 2])) if position > 1 else 0):
            lines.append(draw(st.sampled_from(["", " ", "\u00a0"])))
        rank = draw(st.integers(1, 250))
        day = draw(st.dates(dt.date(1991, 8, 1), dt.date(2030, 12, 31)))
        pad = draw(st.booleans())
        date_text = day.strftime("%b ") + (f"{day.day:02d}" if pad else str(day.day)) + day.strftime(", %Y")
        names = draw(st.lists(author_name(), min_size=1, max_size=15))
        fields = [draw(st.sampled_from(ARXIV_CODES)), draw(title), authors_line(names, 3, "and"), draw(abstract)]
        start = len(lines) + 1
        lines.append(f"#{rank:02d}{date_text}" + draw(st.sampled_from(["", " "])))
        lines.extend([draw(noisy(f)) for f in fields])
        expected.append({"position": position, "line_start": start, "line_end": start + 4, "rank": rank,
                         "listed_on": day, "category_raw": fields[0], "title": fields[1],
                         "authors_raw": fields[2], "abstract": fields[3], "names": names})
    lines.extend([""] * draw(st.integers(0, 2)))
    return "\n".join(lines), expected


@st.composite
def search_file(draw, abstracts=abstract):
    n = draw(st.integers(1, 8))
    paras, line, expected = ["论文检索"], 3, []
    for position in range(1, n + 1):
        category = draw(st.one_of(st.none(), st.sampled_from(AREAS)))
        names = draw(st.lists(author_name(), min_size=1, max_size=15))
        fields = ([category] if category else []) + [authors_line(names, 10, "etal"), draw(abstracts)]
        rendered = [draw(noisy(f)) for f in fields]
        expected.append({"position": position, "line_start": line, "line_end": line + 2 * (len(fields) - 1),
                         "category_raw": category, "authors_raw": fields[-2], "abstract": fields[-1],
                         "names": names})
        paras.extend(rendered)
        line += 2 * len(fields)
    return "\n\n".join(paras) + draw(st.sampled_from(["", "\n", "\n\n"])), expected


def check_round_trip(records: pl.DataFrame, quarantine: pl.DataFrame, expected: list[dict], shown: int) -> None:
    assert quarantine.is_empty(), quarantine.to_dicts()
    assert records.height == len(expected)
    for row, exp in zip(records.iter_rows(named=True), expected):
        for key in ("position", "line_start", "line_end", "rank", "listed_on", "category_raw", "title"):
            if key in exp:
                assert row[key] == exp[key], key
        assert [row["authors_raw"], row["abstract"]] == clean([exp["authors_raw"], exp["abstract"]])
        if "title" in exp:
            assert row["title"] == clean([exp["title"]])[0]
    # the authors line splits back into the names shown, with the right totals
    split = split_authors(records).select("authors", "n_authors_shown", "author_total", "is_truncated")
    for (names, n_shown, total, truncated), exp in zip(split.iter_rows(), expected):
        all_names = exp["names"]
        assert names == clean(all_names[:shown])
        assert n_shown == min(len(all_names), shown)
        assert truncated == (len(all_names) > shown)
        if shown == 3 or len(all_names) <= shown:
            assert total == len(all_names)
        else:
            assert total is None


@settings(max_examples=100)  # each example parses a whole file: keep the suite fast
@given(listing_file())
def test_listing_round_trip(case):
    text, expected = case
    assert detect_format(text) == "listing"
    records, quarantine = parse_text(text)
    check_round_trip(records, quarantine, expected, shown=3)


@settings(max_examples=100)
@given(search_file())
def test_search_round_trip(case):
    text, expected = case
    assert detect_format(text) == "search"
    records, quarantine = parse_text(text)
    check_round_trip(records, quarantine, expected, shown=10)


def test_listing_dates_with_full_month_names_and_unpadded_days():
    from transforms.formats import listing

    text = ("#01October 26, 2026\ncs.LG\nT\nAnn Lee\nWe study x.\n"
            "#02Oct 6, 2026\ncs.LG\nT2\nAnn Lee\nWe study y.\n"
            "#03Feb 30, 2026\ncs.LG\nT3\nAnn Lee\nWe study z.")
    lines = pl.DataFrame({"file_idx": 0, "line": text.split("\n")}).with_columns(
        line_no=pl.int_range(1, pl.len() + 1, dtype=pl.Int64))
    records, quarantine = listing.parse(lines)
    assert records["listed_on"].to_list() == [dt.date(2026, 10, 26), dt.date(2026, 10, 6)]
    assert quarantine["reason"].to_list() == ["impossible listing date: Feb 30, 2026"]


# ---------------------------------------------------------------------------- issue 12: detection after a preamble
EMAIL_HEADER = "\n".join(f"Header-{i}: value" for i in range(1, 55)) + "\n"  # 54 lines, then a blank one


@pytest.mark.parametrize("preamble", [EMAIL_HEADER + "\n", "Subject: digest\n", "Fwd:\n\n\n", "x\n" * 200])
def test_detect_listing_after_any_preamble(preamble):
    assert detect_format(preamble + LISTING) == "listing"


@pytest.mark.parametrize("preamble", [EMAIL_HEADER + "\n", "Subject: 论文检索\n", "Subject: digest\n\n", "x\n" * 200])
def test_search_after_any_preamble_is_detected_and_the_preamble_quarantined(preamble):
    text = preamble + SEARCH
    assert detect_format(text) == "search"
    records, quarantine = parse_text(text)
    baseline, _ = parse_text(SEARCH)
    shift = preamble.count("\n")
    assert records.height == 20
    assert records["line_start"].to_list() == [n + shift for n in baseline["line_start"]]
    assert records.drop("line_start", "line_end", "raw_text").equals(baseline.drop("line_start", "line_end", "raw_text"))
    assert quarantine["reason"].to_list() == ["text before the first record header (before the search marker line)"]
    assert quarantine.select("line_start").item() == 1
    assert quarantine.select("line_end").item() == len(preamble.rstrip("\n").split("\n"))


def test_earliest_format_wins_and_detection_is_fast():
    import time

    assert detect_format("#01Oct 26, 2026\ncs.LG\n论文检索\n") == "listing"
    assert detect_format("论文检索\n\n#01Oct 26, 2026\n") == "search"
    big = "Some prose line without anything of interest in it at all.\n" * 500_000  # 30 MB, no format
    started = time.perf_counter()
    assert detect_format(big) == UNKNOWN
    assert detect_format(big + LISTING) == "listing"
    assert time.perf_counter() - started < 5  # two scans of 30 MB; a line loop takes far longer


def test_second_marker_line_is_a_separator_not_a_paragraph():
    records, quarantine = parse_text(SEARCH + "\n\n论文检索\n\n" + "\n\n".join(SEARCH_PARAS[1:4]))
    assert quarantine.is_empty()
    assert records.height == 21


# ---------------------------------------------------------------------------- issue 12: dates and categories
@pytest.mark.parametrize(("date", "day"), [
    ("Sept 3, 2026", dt.date(2026, 9, 3)), ("Sept. 3, 2026", dt.date(2026, 9, 3)),
    ("September 3, 2026", dt.date(2026, 9, 3)), ("SEP 3, 2026", dt.date(2026, 9, 3)),
    ("sep. 03, 2026", dt.date(2026, 9, 3)), ("oct 26, 2026", dt.date(2026, 10, 26)),
    ("JUNE 1, 2026", dt.date(2026, 6, 1)), ("Aug 1, 1991", dt.date(1991, 8, 1)),
    ("Dec 31, 2099", dt.date(2099, 12, 31)),
])
def test_listing_month_forms(date, day):
    records, quarantine = parse_text(LISTING.replace("#02Oct 26, 2026", f"#02{date}"))
    assert quarantine.is_empty()
    assert records["listed_on"][1] == day


@pytest.mark.parametrize("date", ["Oct 26, 9999", "Oct 26, 2206", "Jan 1, 1850", "Jul 31, 1991", "Jan 1, 2100",
                                  "Septem 3, 2026", "Octo 3, 2026", "Feb 29, 2027", "Apr 31, 2026"])
def test_listing_impossible_dates(date):
    records, quarantine = parse_text(LISTING.replace("#02Oct 26, 2026", f"#02{date}"))
    assert records["rank"].to_list() == [1, 3, 4, 5]
    assert quarantine["reason"].to_list() == [f"impossible listing date: {date}"]


@pytest.mark.parametrize("line", ["cs.lg", "CS.LG", "cs.LG; stat.ML", "cs.LG;stat.ML", "cs.LG, stat.ML",
                                  "cs.LG stat.ML", "math.PR; math.ST; stat.TH", "hep-th; gr-qc"])
def test_category_lines_in_any_case_and_cross_listed(line):
    records, quarantine = parse_text(LISTING.replace("\ncs.IT\n", f"\n{line}\n"))
    assert quarantine.is_empty()
    assert records["category_raw"][2] == line


@pytest.mark.parametrize("line", ["cs.LG; Machine Learning", "Secure Aggregation", "cs.LG;", "; stat.ML"])
def test_category_lines_that_are_not_codes(line):
    records, quarantine = parse_text(LISTING.replace("\ncs.IT\n", f"\n{line}\n"))
    assert records.height == 4
    assert quarantine["reason"].to_list() == ["second line is not an arXiv category code"]


# ---------------------------------------------------------------------------- issue 12: hard wraps, blank lines
def wrap(text: str, width: int, hyphens: bool = True) -> str:
    import textwrap

    out = []
    for line in text.split("\n"):
        out.extend(textwrap.wrap(line, width=width, break_on_hyphens=hyphens, break_long_words=False) or [""])
    return "\n".join(out)


FIELDS = ["category_raw", "title", "authors_raw", "abstract"]


def test_blank_lines_inside_a_record_are_separators():
    lines = LISTING.split("\n")
    text = "\n".join(lines[:1] + [""] + lines[1:8] + ["", "\u00a0"] + lines[8:14] + [""] + lines[14:])
    records, quarantine = parse_text(text)
    assert quarantine.is_empty()
    baseline, _ = parse_text(LISTING)
    assert records.select(FIELDS).equals(baseline.select(FIELDS))
    assert records["line_start"].to_list() == [1, 7, 14, 20, 25]


ISSUE_RECORD = ("#01Oct 26, 2026\ncs.CL\nScaling Laws for Retrieval Augmented Language Models in the Long Context "
                "Regime\nAnn Lee, Bo Chen, Carl Dee\nWe study how retrieval helps language models when the context is "
                "long, and we find that it does, in many settings.")


def test_the_issue_case_title_second_line_is_not_an_author():
    records, quarantine = parse_text(wrap(ISSUE_RECORD, 72))
    assert quarantine.is_empty()
    assert records.select(FIELDS).rows() == parse_text(ISSUE_RECORD)[0].select(FIELDS).rows()


def test_a_wrap_that_did_not_fill_its_lines_is_not_shifted():
    # "the" would have fitted on the title's first line: not a greedy wrap, so no line end is
    # certain; read one field per line, the authors would be "the Long Context Regime". (It was
    # quarantined; read from what its lines say, one names line between the title and prose, it
    # loads whole: tests/test_listing_original_wraps.py.)
    text = ("#01Oct 26, 2026\ncs.CL\nScaling Laws for Retrieval Augmented Language Models in\nthe Long Context "
            "Regime\nAnn Lee, Bo Chen, Carl Dee\nWe study how retrieval helps language models when the context is "
            "long, and\nwe find that it does.")
    records, quarantine = parse_text(text)
    assert quarantine.is_empty()
    assert records.select("title", "authors_raw", "abstract").rows() == [(
        "Scaling Laws for Retrieval Augmented Language Models in the Long Context Regime", "Ann Lee, Bo Chen, Carl Dee",
        "We study how retrieval helps language models when the context is long, and we find that it does.")]


@pytest.mark.parametrize("width", [50, 60, 66, 72, 76, 80, 100])
@pytest.mark.parametrize("hyphens", [True, False])
def test_wrapped_seeds_unwrap_exactly(width, hyphens):
    for path in LISTING_SEEDS:
        text = seed_text(path)
        records, quarantine = parse_text(wrap(text, width, hyphens))
        baseline, _ = parse_text(text)
        assert set(quarantine["reason"]) <= {"hard-wrapped record: fields cannot be told apart"}
        assert records.height + quarantine.height == 5
        kept = baseline.join(records.select("rank"), on="rank", how="semi")
        assert records.select("rank", *FIELDS).equals(kept.select("rank", *FIELDS))


@pytest.mark.parametrize("width", [60, 72, 80])
def test_wrapped_search_seeds_unwrap_exactly(width):
    for path in SEARCH_SEEDS:
        text = seed_text(path)
        records, quarantine = parse_text(wrap(text, width))
        baseline, _ = parse_text(text)
        assert quarantine.is_empty()
        assert records.select(FIELDS[0], *FIELDS[2:]).equals(baseline.select(FIELDS[0], *FIELDS[2:]))


def test_wrapped_record_then_a_record_that_lost_its_header():
    text = wrap(LISTING, 72).split("\n")
    second = text.index("#02Oct 26, 2026")
    records, quarantine = parse_text("\n".join(text[:second] + text[second + 1:]))
    assert records["rank"].to_list() == [1, 3, 4, 5]
    baseline, _ = parse_text(LISTING)
    assert records.row(0, named=True)["abstract"] == baseline.row(0, named=True)["abstract"]
    assert quarantine["reason"].to_list() == [
        "lines after a record's abstract that belong to no record (missing header?)"]


SHORT_RECORD = ("{header}\ncs.LG\nPaper {n}\nAnn Lee, Bo Chen\n"
                "Abstract {n}: a short abstract, short enough to have been wrapped, about topic {n}.\n")


@pytest.mark.parametrize("header", ["#1Oct 26, 2026", "#02Oct 26 2026", "#02Oct 26, 2026 (updated)", "No. 12 Oct 26, 2026",
                                    "#0726 Oct 2026", "#10 2026-10-26", "# 05Oct 26, 2026", "Oct 26th, 2026",
                                    "[02] Oct 26, 2026", "26 Oct 2026", "2026/10/26", "26.10.2026", "Rank 02 · Oct 26, 2026",
                                    "(2) October 26th 2026"])
def test_a_header_the_parser_cannot_read_never_joins_the_abstract_before_it(header):
    # it was read as the short abstract's wrapped rest: "... about topic 1. #02Oct 26 2026"
    text = SHORT_RECORD.format(header="#01Oct 26, 2026", n=1) + SHORT_RECORD.format(header=header, n=2)
    records, quarantine = parse_text(text)
    assert records["abstract"].to_list() == ["Abstract 1: a short abstract, short enough to have been wrapped, about topic 1."]
    assert quarantine["line_start"].to_list() == [6] and quarantine["line_end"].to_list() == [10]
    # the same header alone as the file's last line
    records, quarantine = parse_text(SHORT_RECORD.format(header="#01Oct 26, 2026", n=1) + header + "\n")
    assert records["abstract"].to_list() == ["Abstract 1: a short abstract, short enough to have been wrapped, about topic 1."]
    assert quarantine["line_start"].to_list() == [6]


# Prose that opens a line of a wrapped abstract and reads like a header: a rank ("#1 on the
# leaderboard") or a date alone (the abstract's last words). It was taken for a lost header: the
# abstract was cut there and its rest quarantined.
PROSE_LIKE_HEADERS = [("#1 on the Open LLM Leaderboard among models of its size and #3 overall.", "middle"),
                      ("#12 of the 40 systems in the shared task, ahead of every larger model.", "middle"),
                      ("#2 in the ranking.", "last"), ("2025-12-31.", "last"), ("26 Oct 2026.", "last"),
                      ("October 26th, 2026.", "last"), ("2026/10/26).", "last")]
FILLER = "and we find that this holds in all of our other settings as well".split()


def _with_prose_on_its_own_line(abstract: str, prose: str, where: str, width: int = 72) -> str:
    """`abstract` with `prose` appended (then a sentence more, in the middle), after as many
    filler words as it takes for the wrap to open a line with it."""
    tail = " We release the data, the filters and the training code." if where == "middle" else ""
    for n in range(len(FILLER) + 1):
        text = " ".join([abstract, *FILLER[:n], prose]) + tail
        lines = wrap(text, width).split("\n")
        if any(line.startswith(prose.split()[0]) for line in lines[1:]) and (where == "middle" or lines[-1] == prose):
            return text
    raise AssertionError(f"no filler puts {prose!r} on its own line")


@pytest.mark.parametrize(("prose", "where"), PROSE_LIKE_HEADERS)
@pytest.mark.parametrize("record", [0, 4], ids=["a record before another", "the file's last record"])
def test_prose_that_reads_like_a_header_stays_in_its_wrapped_abstract(prose, where, record):
    lines = LISTING.split("\n")
    lines[record * 5 + 4] = _with_prose_on_its_own_line(lines[record * 5 + 4], prose, where)
    text = "\n".join(lines)
    records, quarantine = parse_text(wrap(text, 72))
    baseline, _ = parse_text(text)
    assert quarantine.is_empty(), quarantine.select("line_start", "reason").rows()
    assert records.select("rank", *FIELDS).equals(baseline.select("rank", *FIELDS))


@pytest.mark.parametrize("header", ["#3Oct 26, 2026", "#03Oct 26 2026", "[03] Oct 26, 2026",
                                    "#03Oct 26, 2026 (updated)", "Rank 03 · Oct 26, 2026"])
@pytest.mark.parametrize("at", [0, 2, 4], ids=["first", "middle", "last"])
def test_a_record_whose_header_is_unread_keeps_its_place_in_the_order(header, at):
    """fact_listing.position is the record's order in the file: a record quarantined for a header
    the parser cannot read is one, and the records after it were counted one place too early (the
    record after "#3Oct 26, 2026" got position 3, "#10" of a "#1".."#1500" listing position 1)."""
    lines = LISTING.split("\n")
    lines[at * 5] = header.replace("03", f"{at + 1:02d}").replace("3", str(at + 1))
    records, quarantine = parse_text("\n".join(lines))
    assert quarantine.height == 1
    assert records.select("rank", "position").rows() == [(r, r) for r in range(1, 6) if r != at + 1]


def test_one_digit_ranks_keep_their_records_places():
    """A listing numbered "#1".."#12": the first nine headers are unread (text before the first
    record header), "#10".."#12" are the 10th to 12th records."""
    records = [LISTING.split("\n")[i * 5 + 1:i * 5 + 5] for i in range(5)]
    text = "\n".join(f"#{n}Oct 26, 2026\n" + "\n".join(records[n % 5]) for n in range(1, 13))
    loaded, quarantine = parse_text(text)
    assert quarantine.select("line_start", "line_end").rows() == [(1, 45)]
    assert loaded.select("rank", "position").rows() == [(10, 10), (11, 11), (12, 12)]


def test_a_preamble_with_dates_moves_no_position():
    """An e-mail's header lines hold dates too ("Date: Mon, 26 Oct 2026"): no record opens there."""
    text = "From: digest@example.org\nDate: Mon, 26 Oct 2026\nSubject: Oct 26, 2026\n\n" + LISTING
    records, _ = parse_text(text)
    assert records["position"].to_list() == [1, 2, 3, 4, 5]


def test_unwrapped_record_with_stray_lines_keeps_its_five_lines():
    text = LISTING.replace("#02Oct", "Sent from my phone\nUnsubscribe here\n#02Oct", 1)
    records, quarantine = parse_text(text)
    baseline, _ = parse_text(LISTING)
    assert records.select(FIELDS).equals(baseline.select(FIELDS))
    assert quarantine.select("line_start", "line_end").rows() == [(6, 7)]


WRAP_ABSTRACT = "We study how retrieval works when it is hard to do, and we find that it is hard but\nfine."  # 83 wide
WRAP_TITLE = "Strong Baselines For Sparse Retrieval With Learned Term Weights In Many Diverse"  # ends full


def test_wrapped_record_whose_authors_are_no_names_line_is_quarantined():
    # the certain ends put the authors at "danah boyd, bell hooks": lower-case, so not certainly names
    text = f"#01Oct 26, 2026\ncs.IR\n{WRAP_TITLE}\nLanguages And Domains\ndanah boyd, bell hooks\n{WRAP_ABSTRACT}"
    records, quarantine = parse_text(text)
    assert records.is_empty()
    assert quarantine["reason"].to_list() == ["hard-wrapped record: fields cannot be told apart"]
    assert quarantine.select("line_start", "line_end").rows() == [(1, 7)]


def test_wrapped_record_split_where_a_names_line_ends_full():
    # the authors line ends full too: only one split leaves a names line before prose
    authors = "Ann Lee, Bo Chen, Carl Dee, Dana Eve, Erik Fox, Gina Hall, Ian Joy, Kim Lu, Li Mao"
    text = f"#01Oct 26, 2026\ncs.IR\n{WRAP_TITLE}\nLanguages\n{authors}\n{WRAP_ABSTRACT}"
    records, quarantine = parse_text(text)
    assert quarantine.is_empty()
    assert records.select("title", "authors_raw", "abstract").rows() == [
        (WRAP_TITLE + " Languages", authors, WRAP_ABSTRACT.replace("\n", " "))]


@st.composite
def wrapped_listing_file(draw):
    text, expected = draw(listing_file())
    return wrap(text, draw(st.integers(40, 120)), draw(st.booleans())), expected


@settings(max_examples=60)
@given(wrapped_listing_file())
def test_wrapped_listing_never_loads_a_shifted_field(case):
    text, expected = case
    records, quarantine = parse_text(text)
    assert set(quarantine["reason"]) <= {"hard-wrapped record: fields cannot be told apart"}
    assert records.height + quarantine.height == len(expected)
    by_rank = {}
    for exp in expected:
        by_rank.setdefault(exp["rank"], []).append(exp)
    for row in records.iter_rows(named=True):
        exp = next(e for e in expected if e["position"] == row["position"])
        assert row["category_raw"] == exp["category_raw"]
        assert row["title"] == clean([exp["title"]])[0]
        assert row["authors_raw"] == clean([exp["authors_raw"]])[0]
        assert row["abstract"] == clean([exp["abstract"]])[0]


CUT_ENDINGS = [["Adrià Döring, J. Schönlieb and 2", "more"], ["Adrià Döring, Ann Lee, Bo Chen and 12", "more"],
               ["Adrià Döring, Ann Lee & Bo Chen, and 3", "more"], ["ADRIÀ DÖRING, ANN LEE AND 2", "more"],
               # a review's non-greedy wraps of the same kind
               ["Adrià Döring, Ann Lee, Bo", "Chen and 2", "more"], ["Adrià Döring, Ann Lee", "Bo Chen and 2", "more"],
               ["Adrià Döring, Ann Lee,", "Bo Chen and 2", "more"], ["Adrià Döring", "Ann Lee and 2", "more"],
               ["Adrià Döring, Ann Lee, Bo Chen", "and 2", "more"],
               # the same kind, cut after a separator: a two-line title took the first as its names
               # ("Long Documents") and the rest as the abstract, or capitals passed "AND" as a name
               ["Adrià Döring and", "Ann Lee"], ["Adrià Döring, Ann Lee, Bo Chen &", "Yu Li"],
               ["ADRIÀ DÖRING, ANN LEE AND", "2 MORE"], ["ADRIÀ DÖRING, ANN LEE ET", "AL."],
               ["Adrià Döring, Ann Lee, Bo Chen, and", "2 more"], ["Adrià Döring 、", "Ann Lee"]]


@pytest.mark.parametrize("title", [["We we"], ["Deep Learning for", "Long Documents"]], ids=["title", "two-line title"])
@pytest.mark.parametrize("names", CUT_ENDINGS, ids=lambda names: " / ".join(names))
def test_a_names_line_cut_by_a_wrap_is_never_an_abstract(names, title):
    # hypothesis found it (wrapped_listing_file): "and 2 more" wrapped as "and 2" / "more"; a bare
    # number passed as a name item (affiliation marks), so the lines looked one field each and
    # "more" was loaded as the abstract, the abstract's lines quarantined as stray text
    text = ("#01Jan 1, 2000\nacc-phys\nWe we\nRémi Munos\nWe we we we we we we we. We we we we we we we we.\n"
            "#02Jan 1, 2000\nacc-phys\n" + "\n".join(title + names) + "\n"
            "We we we we we we we we. We we we we we we we we. We we we\nwe we we we we.\n")
    records, quarantine = parse_text(text)
    assert set(quarantine["reason"]) <= {"hard-wrapped record: fields cannot be told apart"}
    assert records.height + quarantine.height == 2
    for row in records.filter(pl.col("rank") == 2).iter_rows(named=True):  # loaded only if whole
        assert row["abstract"].startswith("We we") and row["authors_raw"].endswith(names[-1])


@pytest.mark.parametrize("line", ["ANN LEE AND", "Bo Chen and 2", "BO CHEN ET", "Ann Lee,", "Lee &", "Lee 、"])
def test_a_cut_names_line_is_no_complete_author_list_but_may_be_names(line):
    assert not pl.select(is_names_text(pl.lit(line))).item()
    assert pl.select(may_be_names(pl.lit(line))).item()


def test_prose_ending_like_a_cut_list_is_not_names():
    # "and 2" alone made any line "may be names", so a wrapped abstract line such as this one
    # refused a record's split; the rest of the line decides now
    assert not pl.select(may_be_names(pl.lit("We compare models 1 and 2"))).item()


def test_a_names_line_wrapped_before_its_ending_is_never_an_abstract():
    # hypothesis found it (wrapped_listing_file): the names line wrapped before "and 1 more", and
    # every line looked like one field, so "and 1 more" was loaded as the abstract and the
    # abstract's lines quarantined as stray text
    text = ("#06Aug 12, 2020\nacc-phys\nWe we\nJean-Pierre von Neumann, Rémi Hanneke, Adrià Schönlieb\nand 1 more\n"
            "We we we we we we we we we we we we we we. We we we we we we\n"
            "we we we we we we we we we we we we. We we we we we we we we.\n"
            "We we we we we we we we. We we we we we we we we.")
    records, quarantine = parse_text(text)
    assert "and 1 more" not in records["abstract"].to_list()
    assert set(quarantine["reason"]) <= {"hard-wrapped record: fields cannot be told apart"}
    assert records.height + quarantine.height == 1


def test_a_names_line_wrapped_after_a_separator_never_ends_a_title():
    # hypothesis found it (wrapped_listing_file): the names line, with lower-case names, wrapped
    # after its comma; the strict check cannot take "Jean-Pierre boyd, j. müller-lüdenscheidt,
    # Rémi Munos" as names, so the split that put its first line in the title ("... optimal for
    # Jean-Pierre boyd, j. müller-lüdenscheidt,") and "Rémi Munos" in the authors was loaded
    text = ("#200Jul 21, 2000\nmath.AG\nAttention estimation we data we theory in\n"
            "approach learning llms propose optimal for\nJean-Pierre boyd, j. müller-lüdenscheidt,\nRémi Munos\n"
            "Bounds for propose i.e. rate we we we on\nattention we bounds propose. On novel we\n"
            "complexity theory $N$ robust sample complexity.")
    records, quarantine = parse_text(text)
    assert records.is_empty()
    assert quarantine["reason"].to_list() == ["hard-wrapped record: fields cannot be told apart"]
    assert pl.select(may_be_names(pl.lit("Jean-Pierre boyd, j. müller-lüdenscheidt,"), lists_only=True)).item()


@pytest.mark.parametrize("title, names", [
    # a Title Case list line ends the title: it and the names line also read as one names line
    ("InnoEval: On Research Idea Evaluation as a\nKnowledge-Grounded, Multi-Perspective Reasoning Problem",
     "Shuofei Qiao, Yunxiang Wei, Xuehai Wang and 10 more"),
    # a nickname in parentheses: the names line is no strict names line, the title's last line is
])
def test_a_wrapped_record_read_two_ways_is_quarantined_not_shifted(title, names):
    # from the 100k distinct bench corpus wrapped at 60 columns (18 of ~28,700 wrapped records of
    # its first 150 files, at 60, 72 and 90 columns, were loaded with shifted fields)
    abstract = ("The rapid evolution of Large Language Models has catalyzed a\nsurge in scientific idea "
                "production, yet this leap has not\nbeen accompanied by a matching advance in idea evaluation.")
    records, quarantine = parse_text(f"#08Feb 17, 2026\ncs.AI\n{title}\n{names}\n{abstract}")
    assert records.is_empty()
    assert quarantine["reason"].to_list() == ["hard-wrapped record: fields cannot be told apart"]


# From the same corpus wrapped at 72 columns: the names line holds a nickname in parentheses, so it
# is no strict names line, and the title's last line was loaded as the authors.
XAI_RECORD = (
    '#106Mar 17, 2026' '\n'
    'cs.AI' '\n'
    'with XAI: Faithful Example-based AI Explanations Comparables' '\n'
    'Counterfactual Trace Adjustments' '\n'
    'Xiao Shi (Gary) Zhongren, Haejun Gaydadjiev, Sayak Reed and 1 more' '\n'
    'Explaining with examples is an intuitive way to justify AI decisions.' '\n'
    'However, it is challenging to understand how a decision value should' '\n'
    'change relative to the examples with many features differing by large' '\n'
    'amounts. We draw from real estate valuation that uses' '\n'
    'Comparables-examples with known values for comparison. Estimates are' '\n'
    'made more accurate by to adjusting the attributes of each Comparable and' '\n'
    'correspondingly\xa0changing the value based on factors. We propose' '\n'
    'Comparables XAI for relatable example-based explanations of AI with' '\n'
    'Trace adjustments that trace counterfactual changes from each Comparable' '\n'
    'to the Subject, one attribute at a time, monotonically along the AI' '\n'
    'feature space.\xa0In modelling and user studies, Trace-adjusted achieved' '\n'
    'Comparables the highest XAI faithfulness and precision, user accuracy,' '\n'
    'and narrowest uncertainty bounds compared hypothetically linear work' '\n'
    'linearly adjusted Comparables,\xa0or unadjusted Comparables. This' '\n'
    'regression, contributes a new analytical basis for using example-based' '\n'
    'explanations to improve user understanding of AI decisions.'
)


def test_a_names_line_with_a_nickname_never_opens_the_abstract():
    records, quarantine = parse_text(XAI_RECORD)
    assert records.is_empty()
    assert quarantine["reason"].to_list() == ["hard-wrapped record: fields cannot be told apart"]


@pytest.mark.parametrize("names", ["Ann Lee & Bo Chen", "Ann Lee, Bo Chen &\nYu Li", "ANN LEE & BO CHEN"])
def test_a_search_names_line_joined_by_ampersands_is_names(names):
    # it was taken for an abstract and the record quarantined ("abstract without an authors line")
    text = ("论文检索\n\nOptimization · Stochastic\n\n" + names + "\n\nWe study the convergence of stochastic "
            "gradient methods for nonconvex objectives under heavy tailed noise.\n")
    records, quarantine = parse_text(text)
    assert quarantine.is_empty() and records.height == 1
    assert records["authors_raw"][0] == names.replace("\n", " ")
    assert records["abstract"][0].startswith("We study")


@pytest.mark.parametrize("names", ["Hantao Yu$^{1,2}$, Josh Alman$^{3}$", "Hantao Yu<sup>1</sup>, Josh Alman<sup>2</sup>",
                                   "Hantao Yu<sup>1</sup>", "Hantao Yu<sup>1</sup>, Josh Alman<sup>2</sup>, Ann Lee<sup>1</sup>",
                                   "Hantao Yu^{1,2}, Josh Alman^3", "Hantao Yu\\textsuperscript{1}, Josh Alman",
                                   "Hantao Yu$\\dagger$, Josh Alman$\\ddagger$", "Hantao Yu ^{1,2}, Josh Alman$_1$",
                                   "Hantao Yu ✉, Josh Alman ★", "Hantao Yu$^{1}$ ✉, Josh Alman#",
                                   "Hantao Yu$^{\\text{a}}$, Josh Alman$^{\\text{b},1}$"])
def test_a_search_names_line_with_superscript_marks_is_names(names):
    # it was taken for an abstract and the record quarantined ("abstract without an authors line")
    text = ("论文检索\n\nOptimization · Stochastic\n\n" + names + "\n\nWe study the convergence of stochastic "
            "gradient methods for nonconvex objectives under heavy tailed noise.\n")
    records, quarantine = parse_text(text)
    assert quarantine.is_empty() and records.height == 1
    assert records["authors_raw"][0] == names


def test_a_short_search_abstract_with_semicolons_stays_an_abstract():
    # from a real-data corpus: "A, B" then this paragraph; read as names, the record lost its abstract
    text = ("论文检索\n\nTsung-Hsien Suryana, Haohan Burgess\n\n"
            "No abstract given; compares pairs World languages from Structures. Atlas of Language of\n")
    records, quarantine = parse_text(text)
    assert quarantine.is_empty() and records["abstract"][0].startswith("No abstract given")


_WRAP_TEXT = st.one_of(st.none(), st.text(alphabet="aZé1٣-– _.,\u0301张", max_size=8), st.sampled_from(["and x", "or", "und y"]))


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(_WRAP_TEXT, _WRAP_TEXT), max_size=12))
def test_join_after_hyphen_is_its_patterns(pairs):
    """join_after_hyphen compares the two ends a character at a time; it answers as the patterns
    that define it: "[letter/digit]-+" ending the previous line and a letter opening this one (not
    "and " or "or ": a hyphen left hanging), or
    the previous line ending in a letter/digit and this one opening with "--" and one."""
    from transforms.formats.common import join_after_hyphen

    frame = pl.DataFrame({"p": [a for a, _ in pairs], "l": [b for _, b in pairs]}, schema={"p": pl.String, "l": pl.String})
    prev, line = pl.col("p"), pl.col("l")
    spec = ((prev.str.contains(r"[\p{L}\p{N}]-+$") & line.str.contains(r"^\p{L}") & ~line.str.contains(r"^(?:and|or|nor|und|oder)\s"))
            | (prev.str.contains(r"[\p{L}\p{N}]$") & line.str.contains(r"^-{2,}[\p{L}\p{N}]"))).fill_null(False)
    assert frame.select(join_after_hyphen(prev, line)).to_series().to_list() == frame.select(spec).to_series().to_list()


@pytest.mark.parametrize("width", [24, 34])  # lines ending "of pre-" (24), "the hard-" (34)
def test_a_hyphen_left_hanging_before_and_keeps_its_space_when_wrapped(width):
    """"hard- and software" wrapped after "hard-" was glued into "hard-and software"."""
    abstract = ("We give an overview of the hard- and software stack of a new accelerator for sparse attention, and of "
                "pre- or post-training quantisation of large language models on it, with measurements on six tasks.")
    lines = textwrap.wrap(abstract, width=width)
    assert any(line.endswith(("hard-", "pre-")) for line in lines)
    text = "#01Oct 26, 2026\ncs.LG\nA Study of Accelerators\nAnn Lee, Bo Chen\n" + "\n".join(lines) + "\n"
    records, quarantine = parse_text(text)
    assert quarantine.is_empty() and records["abstract"].to_list() == [abstract]


def test_wrapped_abstract_whose_first_line_looked_full_is_never_cut():
    """A wrapper measures the spaces it is given: "for  novel" (two spaces) left the abstract's
    first line short of the width by one more than it seems, so that line looked like a certain
    field end, the record was taken as one field per line, and it loaded with its abstract cut
    after one line (the rest quarantined as stray). Found by the wrapped-listing property test."""
    abstract = ("Bounds https://github.com/org/repo networks i.e. for  novel we we. We we we we we we we we we "
                "we we we we we we.")
    text = wrap(f"#01Jan 1, 2000\nacc-phys\nWe we we we we we we\nRémi Munos\n{abstract}", 58)
    assert text.split("\n")[4] == "Bounds https://github.com/org/repo networks i.e. for"
    records, quarantine = parse_text(text)
    loaded = records.select("abstract").to_series().to_list()
    assert loaded in ([], [clean([abstract])[0]])  # whole, or not loaded
    assert set(quarantine["reason"]) <= {"hard-wrapped record: fields cannot be told apart"}


# ---------------------------------------------------------------------------- search: what is an area line
# Any paragraph holding " · " was a category: prose with a product ("x · y") became the next
# record's category and its own record lost its abstract; an abstract glued to the next area line
# (a blank line missing) loaded whole as a category.
ABSTRACT_1 = ("We study sample compression schemes for partial concept classes and prove that every class "
              "of finite dimension admits a scheme of bounded size.")
ABSTRACT_2 = "Transformers generalize to longer inputs than those seen in training, and we explain why."
MIDDOT_ABSTRACT = ("We bound the inner product x · y of two random vectors and show that the bound is tight "
                   "for every dimension and every sample size we tried.")


def test_prose_with_a_middle_dot_is_an_abstract_not_a_category():
    text = "\n\n".join(["论文检索", "Theory · Learning Theory", "Alice Smith, Bob Jones", ABSTRACT_1,
                        "Carol King, Dan Brown", MIDDOT_ABSTRACT, "Erin White", ABSTRACT_2]) + "\n"
    records, quarantine = parse_text(text)
    assert quarantine.is_empty(), quarantine.to_dicts()
    assert records.select("category_raw", "authors_raw", "abstract").rows() == [
        ("Theory · Learning Theory", "Alice Smith, Bob Jones", ABSTRACT_1),
        (None, "Carol King, Dan Brown", MIDDOT_ABSTRACT),
        (None, "Erin White", ABSTRACT_2)]


@pytest.mark.parametrize("area", ["Deep Learning · Algorithms", "Theory · Deep Learning",
                                  "Applications · Genetics, Cell Biology, etc",
                                  "Social Aspects · Fairness, Equity, Justice and Safety",
                                  "Reinforcement Learning · Batch/Offline", "Data & Models · Benchmarks · Vision"])
def test_an_area_line_glued_to_the_abstract_before_it_opens_the_next_record(area):
    text = ("论文检索\n\nTheory · Learning Theory\n\nAlice Smith, Bob Jones\n\n" + ABSTRACT_1 + "\n" + area
            + "\n\nCarol King\n\n" + ABSTRACT_2 + "\n")
    records, quarantine = parse_text(text)
    assert quarantine.is_empty(), quarantine.to_dicts()
    assert records.select("category_raw", "authors_raw", "abstract", "line_start", "line_end").rows() == [
        ("Theory · Learning Theory", "Alice Smith, Bob Jones", ABSTRACT_1, 3, 7),
        (area, "Carol King", ABSTRACT_2, 8, 12)]


@pytest.mark.parametrize("paragraph", [
    MIDDOT_ABSTRACT,
    "Bounds for x · y.",  # a sentence
    "We compute x · y",  # a pronoun only prose uses
    "Bounds for x · y",  # an item opening in lower case
    "Deep Learning · Algorithms for learning the structure of very large graphs fast",  # 9 words
    "A · B · C · D",  # four levels
    "Theory · " + "Learning " * 20,
    "Optimization · Convex\nWe study convex problems and prove a bound that is tight.",  # wrapped prose
])
def test_what_is_not_an_area_line(paragraph):
    from transforms.formats.search import area_shaped

    assert not area_shaped(pl.Series([paragraph.replace("\n", " ")])).item()


def _areas_of(area_lines: list[str]) -> tuple[list[tuple[str, list[str]]], dict[str, tuple]]:
    """Each record's (category code, secondary codes) and every category's (name, parent_code)."""
    blocks = [f"{area}\n\nAnn Lee{i}, Bo Chen\n\nWe study problem {i} and prove a bound that is tight for it."
              for i, area in enumerate(area_lines)]
    result = process_batch([SourceFile(1, "s.txt", ("论文检索\n\n" + "\n\n".join(blocks) + "\n").encode())])
    assert result.quarantine.is_empty()
    cats = {r["category_id"]: r for r in result.categories.iter_rows(named=True)}
    rows = [([cats[row["category_id"]]["code"]], sorted(cats[c]["code"] for c in row["secondary_category_ids"]))
            for row in result.listings.sort("position").iter_rows(named=True)]
    return [(a[0], b) for a, b in rows], {r["code"]: (r["name"], r["parent_code"]) for r in cats.values()}


def test_several_areas_on_one_line_are_a_primary_and_secondaries():
    """"Deep Learning · LLMs, Applications · Computer Vision" was one area named "Computer Vision"
    under "Deep Learning"; a comma inside one area's name still leaves it one area."""
    rows, cats = _areas_of([
        "Deep Learning · Large Language Models, Applications · Computer Vision",
        "Deep Learning · Large Language Models; Theory · Learning Theory",
        "Deep Learning · Large Language Models | Theory · Learning Theory",
        "Optimization -> Convex, Social Aspects -> Fairness, Theory -> Learning Theory",
        "Applications · Computer Vision, Audio, and Language",
    ])
    assert rows == [
        ("Deep Learning · Large Language Models", ["Applications · Computer Vision"]),
        ("Deep Learning · Large Language Models", ["Theory · Learning Theory"]),
        ("Deep Learning · Large Language Models", ["Theory · Learning Theory"]),
        ("Optimization · Convex", ["Social Aspects · Fairness", "Theory · Learning Theory"]),
        ("Applications · Computer Vision, Audio, and Language", []),
    ]
    assert cats["Applications · Computer Vision"] == ("Computer Vision", "Applications")
    assert cats["Applications · Computer Vision, Audio, and Language"] == ("Computer Vision, Audio, and Language", "Applications")


def test_an_empty_level_or_a_breadcrumb_home_is_no_level_of_the_area():
    """A template's "Reinforcement Learning · " (no sub-area) was a category named "" beside
    "Reinforcement Learning"; a breadcrumb's "Home »" was every area's parent."""
    rows, cats = _areas_of(["Reinforcement Learning · ", "Reinforcement Learning", "· Social Aspects",
                            "Home » Deep Learning » Large Language Models", "Home > Theory"])
    assert [code for code, _ in rows] == ["Reinforcement Learning", "Reinforcement Learning", "Social Aspects",
                                          "Deep Learning · Large Language Models", "Theory"]
    assert cats["Reinforcement Learning"] == ("Reinforcement Learning", None)
    assert cats["Deep Learning · Large Language Models"] == ("Large Language Models", "Deep Learning")


def test_openreview_primary_areas_in_their_own_words_are_one_level_areas():
    """ICLR 2024's OpenReview primary areas as a page shows them, lower case, commas and all
    ("societal considerations including fairness, safety, privacy"): the area line of a
    record was quarantined as a record without an abstract (305 of 600 records' areas lost)."""
    from bench.corpus import default_realdata

    tsv = default_realdata() / "iclr2024_openreview_primary_area_dotd.tsv"
    if not tsv.is_file():
        pytest.skip(f"{tsv} is absent")
    rows = [line.split("\t") for line in tsv.read_text("utf-8").split("\n")]
    by_area = {}
    for row in rows:  # title, authors, keywords, primary_area, venue, pdf, supplement, tldr, abstract
        if len(row) == 9 and row[8].strip() and row[3] not in by_area:
            by_area[row[3]] = (", ".join(row[1].split(";")[:10]), " ".join(row[8].split()))
    assert len(by_area) == 20
    text = "论文检索\n\n" + "\n\n".join(f"{area}\n\n{names}\n\n{abstract}" for area, (names, abstract) in by_area.items())
    records, quarantine = parse_text(text + "\n")
    # One reads as prose, its line quarantined and its record loaded without an area (loud, left
    # alone: a short abstract of a record without names reads the same). "general machine learning
    # (i.e., none of the above)" was the second until a names test read past what parentheses hold.
    prose = ["infrastructure, software libraries, hardware, etc."]
    assert sorted(quarantine["raw_text"]) == prose
    assert records["category_raw"].to_list() == [None if area in prose else area for area in by_area]


@pytest.mark.parametrize("names", [
    "Peter Chang (Massachusetts Institute of Technology), Keyon Vafa (Harvard University), Ashesh Rambachan (MIT)",
    "peter chang, keyon vafa, ashesh rambachan", "jan in 't veld, marie de la cruz, bo chen",
    "Shogo Iwazaki, Shion Takeno", "linus bleistein, agathe guilloux",
    # names the reference does not know sharing a word (a second review: read as topics sharing one)
    "Antti Koskela, Antti Honkela, Mikko Heikkilä", "antti koskela, antti honkela, mikko heikkilä",
])
def test_a_record_without_abstract_never_lends_its_names_to_the_next_as_an_area(names):
    """A names line of a record cut off before its abstract, then a record without an area: read
    as a one-level area of topics, the names became the next paper's category (a review)."""
    text = (f"论文检索\n\n{names}\n\nAnn Lee, Bo Chen\n\nWe study bridges and prove that they stand.\n\n"
            "Theory · Learning Theory\n\nCarl Wu\n\nWe study tunnels and prove that they hold.\n")
    records, quarantine = parse_text(text)
    assert records["category_raw"].to_list() == [None, "Theory · Learning Theory"]
    assert quarantine["raw_text"].to_list() == [names]


def _real_author_lines() -> list[str]:
    """Every real author list of several names in ../shared/realdata, as one line."""
    from bench.corpus import default_realdata
    from eval.lowercase_names import real_author_lines

    root = default_realdata()
    if not root.is_dir():
        pytest.skip(f"{root} is absent")
    return real_author_lines(root)


def test_no_real_author_list_reads_as_a_list_of_topics():
    """What makes a one-level area of several items (`_topic_items`) is never true of real names,
    as written or in lower case (initials, affiliations in parentheses, shared given names)."""
    from transforms.formats.search import _topic_items

    lines = _real_author_lines()
    assert len(lines) > 10_000
    for case in (str, str.lower):
        topics = _topic_items(pl.Series([case(line) for line in lines]))
        assert not topics.any(), [line for line, topic in zip(lines, topics) if topic][:5]
    # ... and is of topics the ICLR 2024 list lacks (ICLR 2025's, joiners and "AI" in them)
    assert _topic_items(pl.Series(["foundation or frontier models, including LLMs",
                                   "neurosymbolic & hybrid AI systems (physics-informed, logic & formal reasoning, etc.)"])).all()


def test_every_area_of_the_seeds_and_of_iclr_is_an_area_line():
    from bench.corpus import default_realdata
    from transforms.formats.search import area_shaped

    iclr = default_realdata() / "iclr2024_virtualsite_topics_airas.json"  # the bench corpus's areas
    topics = json.loads(iclr.read_text("utf-8")) if iclr.is_file() else []
    areas = {" · ".join(p.strip() for p in r["topic"].split("->")) for r in topics if r.get("topic")}
    for path in SEARCH_SEEDS:
        areas |= {line for line in seed_text(path).split("\n") if " · " in line}
    areas = {a for a in areas | set(AREAS) if " · " in a}  # one-level areas are told apart otherwise
    assert len(areas) > 10
    assert area_shaped(pl.Series(sorted(areas))).all()


@st.composite
def dotted_abstract(draw) -> str:
    """Prose with " · " between some words, as a product or a list of terms writes it."""
    words = draw(abstract).split(" ")
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(1, len(words) - 1))
        words[i] = "· " + words[i].lstrip("· ")
    return " ".join(words)


@settings(max_examples=100)
@given(search_file(abstracts=dotted_abstract()))
def test_search_round_trip_with_middle_dots_in_abstracts(case):
    text, expected = case
    records, quarantine = parse_text(text)
    check_round_trip(records, quarantine, expected, shown=10)


@settings(max_examples=100)
@given(search_file(), st.data())
def test_a_blank_line_missing_before_an_area_line_never_loads_prose_as_an_area(case, data):
    """Drop the blank line before one two-level area: the records still load as written."""
    text, expected = case
    lines = text.split("\n")
    at = [e["line_start"] - 1 for e in expected if e["category_raw"] and " · " in e["category_raw"]
          and e["position"] > 1]
    if not at:
        return
    drop = data.draw(st.sampled_from(at)) - 1  # the blank line before it (0-based)
    assert lines[drop] == ""
    records, quarantine = parse_text("\n".join(lines[:drop] + lines[drop + 1:]))
    assert quarantine.is_empty(), quarantine.to_dicts()
    assert set(records["category_raw"].drop_nulls()) <= set(AREAS)
    assert records.select("category_raw", "abstract").rows() == [
        (e["category_raw"], clean([e["abstract"]])[0]) for e in expected]


@pytest.mark.parametrize("space", ["\u2003", "\x0c", "\x0b", "\u2028", "\u202f", "\x1f"])
def test_any_space_after_a_header_or_the_marker_pads_it(space):
    # an em space (or a form feed, ...) after "#01Oct 26, 2026" or "论文检索" made the whole file
    # "unknown format": the padding knew only blanks, NBSP, ideographic space and CR
    from transforms.pipeline import SourceFile, process_batch

    listing = LISTING_SEEDS[0].read_text(encoding="utf-8").replace("\n", space + "\n", 1)
    search = SEARCH_SEEDS[0].read_text(encoding="utf-8").replace("论文检索", "论文检索" + space, 1)
    result = process_batch([SourceFile(0, "a.txt", listing.encode()), SourceFile(1, "b.txt", search.encode())])
    assert result.quarantine.is_empty() and result.listings.height == 25


@pytest.mark.parametrize("ending", ["and 3 more", "and one more", "& 2 others", "plus 3 more"])
def test_a_lists_ending_alone_may_be_a_wrapped_names_lines_last_line(ending):
    # a guard: the endings' pattern, rewritten this session, wanted a space or comma before "and"
    # (a line "and 3 more" alone was no ending; may_be_names still read it as names by another rule)
    from transforms.formats.listing import may_be_names

    assert pl.DataFrame({"t": [ending]}).select(may_be_names(pl.col("t")))["t"].to_list() == [True]


@pytest.mark.parametrize("authors", ["Ann Lee, Bo Chen for the ATLAS Collaboration",
                                     "Ann Lee, Bo Chen, on behalf of the CMS Collaboration", "the ATLAS collaboration"])
def test_a_list_for_a_collaboration_is_names_not_prose(authors):
    """Proceedings' author lines were quarantined as fields out of place ("the authors read as
    prose"): the same in parentheses was dropped with the affiliations."""
    lines = seed_text(LISTING_SEEDS[0]).split("\n")
    lines[3] = authors  # the first record's authors line (header, category, title, authors)
    records, quarantine = parse_text("\n".join(lines))
    assert quarantine.height == 0
    assert records["abstract"][0] == seed_text(LISTING_SEEDS[0]).split("\n")[4]


@pytest.mark.parametrize("authors", ["The ATLAS Collaboration: G. Aad, B. Abbott, D. C. Abbott and 2,931 more",
                                     "Ann Lee, Bo Chen for the ATLAS Collaboration"])
def test_a_collaborations_names_line_on_a_search_page_is_its_names_line(authors):
    """Read as no names line (a colon; "the" of prose), the first record of a search page was
    quarantined as an abstract without an authors line, and its names with it."""
    text = seed_text(SEARCH_SEEDS[0])
    first = text.split("\n\n")[2]  # the first record's names paragraph (after the title and area)
    records, quarantine = parse_text(text.replace(first, authors, 1))
    assert quarantine.height == 0
    assert records["authors_raw"][0] == authors
