"""Search pages whose records lack a field: which paragraphs make a record. A record with no
abstract, a one-author record, a one-line abstract (a title, a TL;DR, keywords): each either
loads with exactly its own fields or is quarantined, with a reason that says why, and no
intact record beside it goes with it. Every line is accounted for: a loaded record or a
quarantine row. (Before: names loaded as an abstract, a person or an abstract as the next
paper's category, and records lost without a quarantine row.)"""

from __future__ import annotations

import json

import pytest
from conftest import parse_text
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.corpus import default_realdata
from transforms.formats.search import METADATA_REASON

REALDATA = default_realdata()
PROSE_A = "We study how large language models follow instructions and we show that they often fail on long prompts."
PROSE_B = "We propose a new method for graph clustering that adapts to heterophily and we evaluate it on twelve benchmarks."
PROSE_C = "We analyse the convergence of stochastic gradient descent under heavy-tailed noise and we give tight bounds."
FIRST = f"Deep Learning · Large Language Models\n\nAnn Lee, Bo Chen\n\n{PROSE_A}"


def page(*paragraphs: str) -> str:
    return "论文检索\n\n" + "\n\n".join(paragraphs) + "\n"


def parse(text: str):
    """(loaded (category, authors, abstract), quarantined (line_start, line_end, reason)), and
    every non-blank line after the marker is in exactly one of them."""
    records, quarantine = parse_text(text)
    spans = records.select("line_start", "line_end").rows() + quarantine.select("line_start", "line_end").rows()
    covered = sorted(n for lo, hi in spans for n in range(lo, hi + 1))
    lines = text.split("\n")
    assert len(covered) == len(set(covered)), "a line in two spans"
    for no, line in enumerate(lines[1:], 2):
        if line.strip():
            assert no in covered, f"line {no} unaccounted: {line!r}"
    loaded = records.sort("line_start").select("category_raw", "authors_raw", "abstract").rows()
    return loaded, quarantine.sort("line_start").select("line_start", "line_end", "reason").rows()


NO_ABSTRACT = "record has no abstract"


# ---------------------------------------------------------------------------- 1. names are no abstract
def test_two_records_without_abstract_are_two_quarantined_records_not_one_loaded():
    text = (page("Deep Learning · Graph Neural Networks", "Ann Lee, Bo Chen", "Carl Wu, Dan Xu", "Eve Yu, Fay Zhu",
                 PROSE_B, "Theory · Learning Theory", "Gus Ma, Hal Qi", "Ivy Su, Jon Ye",
                 "Applications · Computer Vision", "Kim Li, Leo Wang", PROSE_C))
    loaded, quarantined = parse(text)
    assert loaded == [(None, "Eve Yu, Fay Zhu", PROSE_B), ("Applications · Computer Vision", "Kim Li, Leo Wang", PROSE_C)]
    assert quarantined == [(3, 5, NO_ABSTRACT), (7, 7, NO_ABSTRACT), (13, 15, NO_ABSTRACT), (17, 17, NO_ABSTRACT)]


@pytest.mark.parametrize("second", ["Steve Hanneke", "Percy Liang", "Yoshua Bengio, Aaron Courville, Ian Goodfellow",
                                    "王小明、李娜", "Satvik Golechha, Adrià Garriga-Alonso"])
@pytest.mark.parametrize("after", ["Social Aspects · Trustworthy Machine Learning", "end"])
def test_a_names_line_after_a_records_names_is_never_its_abstract(second, after):
    paragraphs = [FIRST, "Theory · Learning Theory", "Erdem Koyuncu, Maria Schmidt", second]
    if after != "end":
        paragraphs += [after, "Shawn Im, Sharon Li", PROSE_C]
    loaded, quarantined = parse(page(*paragraphs))
    assert all(abstract != second for _, _, abstract in loaded)
    assert len(loaded) == (1 if after == "end" else 2)
    assert [lo for lo, _, _ in quarantined] == [9, 13]  # the area record and the names-only one, apart


@pytest.mark.parametrize("keywords", ["graph neural networks, heterophily, clustering",
                                      "Robust graph learning under heterophily"])
def test_a_short_keyword_abstract_after_the_names_still_loads(keywords):
    text = page(FIRST, "Deep Learning · Graph Neural Networks", "Carl Wu, Dan Xu", keywords,
                "Theory · Learning Theory", "Gus Ma, Hal Qi", PROSE_C)
    loaded, quarantined = parse(text)
    assert loaded[1] == ("Deep Learning · Graph Neural Networks", "Carl Wu, Dan Xu", keywords)
    assert quarantined == []


# ---------------------------------------------------------------------------- 2. a person is no area
@pytest.mark.parametrize("person", ["Spandan Pyakurel", "王小明", "Tuomas Oikarinen", "Bhavya Vasudeva", "Nguyễn Thị Hà"])
@pytest.mark.parametrize("where", ["start", "middle", "before an area record"])
def test_a_one_author_record_without_abstract_is_no_category(person, where):
    paragraphs = ([] if where == "start" else [FIRST]) + [person, "Carl Wu, Dan Xu", PROSE_B]
    if where == "before an area record":
        paragraphs += ["Theory · Learning Theory", "Gus Ma, Hal Qi", PROSE_C]
    loaded, quarantined = parse(page(*paragraphs))
    assert (None, "Carl Wu, Dan Xu", PROSE_B) in loaded
    assert all(category != person for category, _, _ in loaded)
    assert len(quarantined) == 1 and quarantined[0][0] == quarantined[0][1]  # the name's line alone


@pytest.mark.parametrize("area", ["Robotics", "Health", "Learning Theory", "Optimization", "Probabilistic Methods",
                                  "Social Aspects", "Fairness"])
def test_a_one_level_area_the_page_does_not_show_as_a_parent_is_still_an_area(area):
    prose = f"We study {area.lower()} and we show that simple baselines are hard to beat on twelve benchmarks."
    loaded, quarantined = parse(page(FIRST, area, "Carl Wu, Dan Xu", prose))
    assert loaded[1] == (area, "Carl Wu, Dan Xu", prose)
    assert quarantined == []


def test_the_seeds_one_level_area_and_one_author_stay_right():
    text = page(FIRST, "Social Aspects", "Shawn Im, Sharon Li", PROSE_B, "Theory · Learning Theory", "Steve Hanneke",
                PROSE_C)
    loaded, quarantined = parse(text)
    assert loaded[1:] == [("Social Aspects", "Shawn Im, Sharon Li", PROSE_B),
                          ("Theory · Learning Theory", "Steve Hanneke", PROSE_C)]


# ---------------------------------------------------------------------------- 3. a short abstract is no area
@pytest.mark.parametrize("short", ["A Simple Model of Inference Scaling Laws",
                                   "Towards Understanding the Role of Attention in Transformers"])
def test_a_one_author_records_title_as_abstract_is_its_abstract(short):
    loaded, quarantined = parse(page(FIRST, "Noam Levi", short, "Runsheng Bai, Bo Liu, Qiang Liu", PROSE_B))
    assert loaded[1:] == [(None, "Noam Levi", short), (None, "Runsheng Bai, Bo Liu, Qiang Liu", PROSE_B)]
    assert quarantined == []


@pytest.mark.parametrize("person", ["Andrea Cini", "Grigoriy Ksenofontov", "Ann Lee, Bo Chen"])
@pytest.mark.parametrize("area", ["Theory", "Robotics", "Learning Theory"])
def test_a_one_level_area_of_subject_words_after_a_record_cut_off_is_the_next_records(person, area):
    loaded, quarantined = parse(page(FIRST, person, area, "Carl Wu, Dan Xu", PROSE_B))
    assert loaded[1:] == [(area, "Carl Wu, Dan Xu", PROSE_B)]
    assert quarantined == [(9, 9, NO_ABSTRACT)]


@pytest.mark.parametrize("title", ["Flow Q-Learning", "Wasserstein Policy Optimization", "Compositional Risk Minimization"])
def test_a_short_title_after_the_names_is_no_area(title):
    loaded, quarantined = parse(page(FIRST, "Carl Wu, Dan Xu", title, "Eve Yu, Fay Zhu", PROSE_B))
    assert loaded[1:] == [(None, "Eve Yu, Fay Zhu", PROSE_B)]
    assert [(lo, hi) for lo, hi, _ in quarantined] == [(9, 11)]


@pytest.mark.parametrize("short", ["Large Language Models, Alignment, RLHF",
                                   "Simple, efficient, and stable decoder-only attention via vector quantization"])
def test_a_one_author_records_short_line_is_no_category(short):
    """Keywords or a TL;DR under a one-author line: its abstract or the next record's area. Never
    the category; if not loaded as the abstract, quarantined with the name, not apart from it."""
    loaded, quarantined = parse(page(FIRST, "Lucas Dax Lingle", short, "Frederic Koehler, Thuy-Duong Vuong", PROSE_B))
    assert (None, "Frederic Koehler, Thuy-Duong Vuong", PROSE_B) in loaded
    assert all(category != short for category, _, _ in loaded)
    if (None, "Lucas Dax Lingle", short) not in loaded:
        assert [(lo, hi) for lo, hi, _ in quarantined] == [(9, 11)]


# ---------------------------------------------------------------------------- 4. short abstracts spare their neighbours
def test_records_whose_abstract_is_a_title_leave_the_intact_records_beside_them_loaded():
    text = page(FIRST, "Carl Wu, Dan Xu", "Graph Clustering Under Heterophily", "Eve Yu, Fay Zhu",
                "Heavy Tails in Stochastic Optimization", "Gus Ma, Hal Qi", PROSE_B, "Ivy Su, Jon Ye", PROSE_C)
    loaded, quarantined = parse(text)
    assert (None, "Gus Ma, Hal Qi", PROSE_B) in loaded and (None, "Ivy Su, Jon Ye", PROSE_C) in loaded
    assert all(hi < 17 for _, hi, _ in quarantined)


# ---------------------------------------------------------------------------- 5. names between "，" or "、"
TEN = ["Kaixuan Huang", "Jiacheng Guo", "Zihao Li", "Xiang Ji", "Jiawei Ge", "Wenzhe Li", "Yingqing Guo",
       "Tianle Cai", "Hui Yuan", "Runzhe Wang"]


@pytest.mark.parametrize("joiner", ["，", "、", "， ", "、 "])
@pytest.mark.parametrize("more", ["", " 等", "等"])
@pytest.mark.parametrize("area", ["", "Deep Learning · Large Language Models"])
def test_ten_latin_names_between_chinese_commas_are_a_names_line(joiner, more, area):
    names = joiner.join(TEN) + more
    loaded, quarantined = parse(page(*([area] if area else []), names, PROSE_B))
    assert loaded == [(area or None, names, PROSE_B)]
    assert quarantined == []


# ---------------------------------------------------------------------------- every record, whatever is missing
def _real_records() -> list[tuple[str | None, list[str], str]]:
    path = REALDATA / "iclr2024_virtualsite_topics_airas.json"
    if not path.is_file():
        return []
    out = []
    for r in json.loads(path.read_text(encoding="utf-8"))[:400]:
        authors = [" ".join(a.replace(",", " ").split()) for a in r["authors"] if a.strip()]
        abstract = " ".join((r.get("abstract") or "").split())
        if authors and len(abstract) > 200:
            out.append((r["topic"].replace("->", " · ") if r.get("topic") else None, authors[:10], abstract))
    return out


REAL = _real_records()


@pytest.mark.skipif(not REAL, reason=f"real paper metadata not found at {REALDATA} (set DIGEST_REALDATA)")
@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(REAL or [None]), st.booleans(), st.integers(0, 3)), min_size=2, max_size=12))
def test_every_record_loads_with_its_own_fields_or_is_quarantined(rows):
    """Real records, some without their area, some without their abstract, some with only one
    author: a loaded record holds exactly one record's fields, and no line is unaccounted."""
    paragraphs, truth = [], []
    for (area, authors, abstract), with_area, variant in rows:
        # variant: 0 as it is, 1 one author, 2 no abstract, 3 one author and no abstract
        names = ", ".join(authors[:1] if variant % 2 else authors)
        fields = ([area] if area and with_area else []) + [names] + ([] if variant >= 2 else [abstract])
        paragraphs += fields
        if variant < 2:
            truth.append((area if with_area else None, names, abstract))
    loaded, _ = parse(page(*paragraphs))
    for record in loaded:
        assert record in truth


# ---------------------------------------------------------------------------- a review's finds
@pytest.mark.parametrize("area", ["generative models", "datasets and benchmarks", "causal reasoning"])
def test_an_area_in_lower_case_opening_a_record_is_its_area(area):
    # OpenReview's primary areas: read as a one-author record (no word of theirs in the page's
    # prose), quarantined, and the paper loaded without its category
    loaded, quarantined = parse(page(area, "Daniel Geng, Andrew Owens", PROSE_A))
    assert (loaded, quarantined) == ([(area, "Daniel Geng, Andrew Owens", PROSE_A)], [])


@pytest.mark.parametrize("opening", [[], ["Deep Learning · Theory"]])
@pytest.mark.parametrize("area", ["generative models", "reinforcement learning"])
def test_an_area_in_lower_case_after_a_record_cut_before_its_abstract_is_no_abstract(opening, area):
    # loaded as the cut record's abstract, the next paper without its category
    loaded, quarantined = parse(page(FIRST, *opening, "Enming Liang, Minghua Chen", area,
                                     "Mohamed Elsayed, A. Rupam Mahmood", PROSE_C))
    assert all(abstract != area for _, _, abstract in loaded) and len(quarantined) == 1
    assert loaded[-1][1:] == ("Mohamed Elsayed, A. Rupam Mahmood", PROSE_C)


def test_chinese_prose_ending_in_deng_is_an_abstract_not_names():
    # "等" ends sentences too: with "，" in it, the text was read as a names line and quarantined
    prose = "本文提出一种新的图神经网络方法，在多个数据集上取得了很好的效果，优于基线等"
    loaded, quarantined = parse(page("Deep Learning · Theory", "王小明，李娜", prose))
    assert (loaded, quarantined) == ([("Deep Learning · Theory", "王小明，李娜", prose)], [])


@pytest.mark.parametrize("note", ["Keywords: diffusion models, robustness", "Comments: 9 pages, 3 figures",
                                  "Accepted at ICLR 2024", "https://github.com/lab/project", "Code: https://github.com/lab/x",
                                  # a real arXiv comment longer than 160 characters (hunt 51: loaded as the abstract)
                                  "Comments: 10 pages, 11 figures (figures 3, 4, 7 and 8 at reduced resolution, originals "
                                  "available on request). Accepted for publication in Monthly Notices of the Royal "
                                  "Astronomical Society"])
def test_a_metadata_paragraph_between_names_and_abstract_is_never_the_abstract(note):
    """Hunt 50: "Keywords: ..." between a record's names and its abstract was loaded as the abstract,
    and the abstract quarantined as a record "without an authors line". The record is quarantined
    whole now (no field holds the line); the records beside it load as they are."""
    loaded, quarantined = parse(page(FIRST, "Deep Learning · Graphs", "Cy Dee, Di Eve", note, PROSE_B,
                                     "Optimization", "Fa Fu", PROSE_C))
    assert [abstract for _, _, abstract in loaded] == [PROSE_A, PROSE_C]
    assert quarantined == [(9, 15, METADATA_REASON)]


@pytest.mark.parametrize("note", ["Accepted at ICLR 2024", "Published in Nature Physics", "To appear in NeurIPS 2025"])
def test_a_metadata_line_is_never_a_names_line(note):
    """The third read of session 50: "Accepted at ICLR 2024" above or in place of the names was
    read as a names line (one author, "Accepted at ICLR 2024"), wherever it stood."""
    for paragraphs in ((note, "Cy Dee, Di Eve", PROSE_B), (note, PROSE_B)):
        loaded, _ = parse(page(FIRST, "Deep Learning · Graphs", *paragraphs, "Optimization", "Fa Fu", PROSE_C))
        assert note not in [authors for _, authors, _ in loaded]
        assert [abstract for _, _, abstract in loaded][0::len(loaded) - 1] == [PROSE_A, PROSE_C]


@pytest.mark.parametrize("note", ["Poster", "Oral", "ICML 2025", "2024", "Cited by 12", "Spotlight Presentation",
                                  "[PDF]", "Primary Area: robotics", "TL;DR: We bound the regret.", "Code available"])
def test_a_paragraph_between_names_and_abstract_is_never_a_field(note):
    """Hunt 51: a status or link paragraph under a record's names ("Poster", "ICML 2025", "Cited by
    12") was loaded as the one author of a record without an area, its real names quarantined as a
    record "without an abstract"; one the abstract's length away ("[PDF]", "Primary Area: ...")
    was loaded as the abstract, the real one quarantined "without an authors line". The record is
    quarantined whole, as one with a metadata line there; the records beside them load."""
    loaded, quarantined = parse(page(FIRST, "Deep Learning · Graphs", "Cy Dee, Di Eve", note, PROSE_B,
                                     "Optimization", "Fa Fu", PROSE_C))
    assert [abstract for _, _, abstract in loaded] == [PROSE_A, PROSE_C]
    assert note not in [authors for _, authors, _ in loaded]
    assert quarantined == [(9, 15, METADATA_REASON)]


def test_several_names_after_a_record_cut_off_are_the_next_records():
    """Two names lines in a row, the second a list of names: a record cut off before its abstract,
    then one without its area (test_search_pages): the second still loads."""
    loaded, quarantined = parse(page(FIRST, "Deep Learning · Graphs", "Cy Dee, Di Eve", "Gus Ho, Ida Ito", PROSE_B))
    assert [authors for _, authors, _ in loaded][1:] == ["Gus Ho, Ida Ito"]
    assert [reason for _, _, reason in quarantined] == ["record has no abstract"]


@pytest.mark.parametrize("name", ["Zihao Tang", "Suhyeon Lee", "Xinyao Fan"])
def test_a_one_author_record_after_a_record_cut_off_still_loads(name):
    """Review of hunt 51: a record cut off before its abstract, then a real one-author record
    without an area (five of 400 rendered ICLR pages): the one person the name reference knows is
    the next record's names, not a paragraph too many; the record loads as it did before."""
    loaded, quarantined = parse(page(FIRST, "Deep Learning · Graphs", "Cy Dee, Di Eve", name, PROSE_B))
    assert [authors for _, authors, _ in loaded][1:] == [name]
    assert [reason for _, _, reason in quarantined] == ["record has no abstract"]
