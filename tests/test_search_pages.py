"""Search pages as Chinese sites write them: abstracts in Chinese or Japanese (no spaces, so a
sentence passed as one name and its record was quarantined), names joined by "、", and author
lists between semicolons ("Ann Lee; Bo Chen", read as an abstract before). Every record loads,
with its own authors and abstract."""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_formats import AREAS, GIVEN, SURNAME, abstract, author_name

from bench.wrapped import wrap
from transforms.formats.search import NAMED_PROSE_REASON
from transforms.pipeline import SourceFile, process_batch

CJK_NAMES = ["张伟", "李娜", "王强", "欧阳娜娜", "赵磊", "山田太郎", "長谷川由美子", "김민준", "李明"]
CJK_CLAUSES = ["本文提出了一种新的大语言模型训练方法", "我们在多个基准上验证了该方法的有效性", "结果显示显著提升",
               "我们研究了零阶优化中的海森矩阵估计问题", "并给出了新的方法", "实验表明该方法优于现有基线",
               "本研究では新しい学習手法を提案する", "提案手法は既存手法より高い精度を示した", "代码已开源"]


@st.composite
def cjk_abstract(draw) -> str:
    clauses = draw(st.lists(st.sampled_from(CJK_CLAUSES), min_size=1, max_size=4))
    return "，".join(clauses) + draw(st.sampled_from(["。", "！", "。代码已开源。"]))


@st.composite
def names_and_line(draw) -> tuple[list[str], str]:
    style = draw(st.sampled_from(["cjk-dun", "cjk-comma", "semicolon", "fullwidth-semicolon"]))
    if style.startswith("cjk"):
        names = draw(st.lists(st.sampled_from(CJK_NAMES), min_size=1, max_size=6, unique=True))
        return names, ("、" if style == "cjk-dun" else ", ").join(names)
    names = draw(st.lists(st.builds(lambda g, s: f"{g} {s}", st.sampled_from(GIVEN), st.sampled_from(SURNAME)),
                          min_size=2, max_size=8, unique=True))
    return names, ("; " if style == "semicolon" else "；").join(names)


@st.composite
def page(draw) -> tuple[str, list[tuple[list[str], str]]]:
    paras, expected = ["论文检索"], []
    for _ in range(draw(st.integers(1, 6))):
        if draw(st.booleans()):
            paras.append(draw(st.sampled_from(AREAS)))
        names, line = draw(names_and_line())
        text = draw(st.one_of(cjk_abstract(), abstract))
        paras += [line, text]
        expected.append((names, text))
    return "\n\n".join(paras) + "\n", expected


def read(text: str):
    """The batch result of one page."""
    return process_batch([SourceFile(1, "page.txt", text.encode("utf-8"))])


def loaded(text: str) -> list[tuple[list[str], str]]:
    result = read(text)
    assert result.quarantine.is_empty(), result.quarantine.to_dicts()
    rows = result.listings.sort("position").join(
        result.papers.select("paper_key", "abstract"), on="paper_key", how="left", maintain_order="left")
    return [(authors, text) for authors, text in rows.select("authors", "abstract").rows()]


@settings(max_examples=40, deadline=None)
@given(page())
def test_chinese_abstracts_and_semicolon_lists_load_every_record(case):
    text, expected = case
    assert loaded(text) == expected


def test_a_short_abstract_with_a_semicolon_is_still_an_abstract():
    text = "论文检索\n\nAnn Lee, Bo Chen\n\nNo abstract given; compares two methods on data\n"
    assert loaded(text) == [(["Ann Lee", "Bo Chen"], "No abstract given; compares two methods on data")]


def test_keywords_between_semicolons_after_the_names_are_the_abstract():
    text = "论文检索\n\nAnn Lee, Bo Chen\n\nGraph Neural Networks; Transformers; Robustness\n\nCy Dee\n\nWe study x. It works.\n"
    assert loaded(text) == [(["Ann Lee", "Bo Chen"], "Graph Neural Networks; Transformers; Robustness"),
                            (["Cy Dee"], "We study x. It works.")]


SEPARATORS = [" · ", "·", " ・ ", "・", " • ", " ∙ ", " ⋅ ", "･", "->", " -> ", " → ", " > ", " » ", "»", " › ",
              " - ", " – ", " — "]  # a dash between spaces: was one area of the whole line


@settings(max_examples=60, deadline=None)
@given(areas=st.lists(st.sampled_from([a for a in AREAS if " · " in a]), min_size=1, max_size=4),
       separator=st.sampled_from(SEPARATORS), text=abstract)
def test_an_area_line_is_read_whatever_its_separator(areas, separator, text):
    """Pages that join area and sub-area with another middle dot ("・", "•") or OpenReview's
    arrow ("Deep Learning->Large Language Models") give the same categories as " · ": such a line
    was one area of that whole name, without its parent, or (with "->") quarantined."""
    page = "论文检索\n\n" + "".join(f"{area.replace(' · ', separator)}\n\nAnn Lee, Bo Chen\n\n{text} {i}\n\n"
                                   for i, area in enumerate(areas))
    result = read(page)
    assert result.quarantine.is_empty(), result.quarantine.to_dicts()
    assert result.listings.sort("position")["listed_code"].to_list() == areas


@pytest.mark.parametrize("cut_off", ["Deep Learning · Attention Mechanisms\n", "Social Aspects\n\n"])
def test_no_record_runs_across_the_marker_of_a_second_page(cut_off):
    # two pages run together, the first cut after an area line: that line was the category of
    # the second page's first record, which has none
    text = ("论文检索\n\nTheory · Learning Theory\n\nAlice Smith, Bob Jones\n\nWe prove sharp bounds for agnostic "
            "learning of halfspaces.\n\n" + cut_off + "论文检索\n\nCarol White, Dan Brown\n\nWe show that linear "
            "attention fails on associative recall.\n")
    result = read(text)
    assert result.listings.sort("position")["listed_code"].to_list() == ["Theory · Learning Theory", None]
    assert result.quarantine["reason"].to_list() == ["record has no abstract"]


@pytest.mark.parametrize("sign_off", ["Best regards, The Paper Search Team", "Cheers, The Paper Search Team",
                                      "Thanks, Anna Lee", "Warm wishes, Anna Lee", "Many thanks, The Editors"])
def test_an_e_mails_sign_off_is_no_paper(sign_off):
    # "Best regards, The Paper Search Team" read as two authors of the footer's sentence
    text = ("论文检索\n\nCarol White, Dan Brown\n\nWe show that linear attention fails on associative recall.\n\n"
            + sign_off + "\n\nYou are receiving this email because you subscribed to weekly "
            "alerts; to stop them, reply with STOP.\n")
    result = read(text)
    assert result.listings.height == 1
    # (the sign-off, shaped like names, and the footer under it: one span since session 49)
    assert result.quarantine["reason"].to_list() == [NAMED_PROSE_REASON]


@pytest.mark.parametrize("person", ["Steve Hanneke", "Percy Liang", "Yoshua Bengio", "Tengyu Ma"])
def test_a_persons_name_cut_off_before_its_abstract_is_no_area(person):
    # "Steve Hanneke" (a record cut off) then a record without an area: it was read as the
    # one-level area of "Carol White, Dan Brown"; "Social Aspects" there is one
    text = ("论文检索\n\n" + person + "\n\nCarol White, Dan Brown\n\nWe show that linear attention fails on "
            "associative recall.\n\nSocial Aspects\n\nSteve Hanneke\n\nWe audit commercial gender classifiers.\n\n"
            "Theory\n\nJoy Buolamwini\n\nWe give sharp bounds for agnostic learning.\n")
    result = read(text)
    listed = result.listings.sort("position")
    assert listed["listed_code"].to_list() == [None, "Social Aspects", "Theory"]
    assert [a[0] for a in listed["authors"].to_list()] == ["Carol White", "Steve Hanneke", "Joy Buolamwini"]
    assert result.quarantine["reason"].to_list() == ["record has no abstract"]


@pytest.mark.parametrize("area", ["", "Theory · Learning Theory\n\n"])
def test_a_record_of_several_names_cut_off_before_its_abstract_leaves_the_next_record_whole(area):
    """A record cut off after its names line ("Ann Lee, Bo Chen"), then a record without an area:
    the two names lines and the abstract were one record of unexpected paragraphs, both lost."""
    text = ("论文检索\n\nTheory · Learning Theory\n\nAlice Smith, Bob Jones\n\nWe prove sharp bounds for agnostic "
            f"learning of halfspaces.\n\n{area}Ann Lee, Bo Chen\n\nCarol White, Dan Brown\n\nWe show that linear "
            "attention fails on associative recall.\n")
    result = read(text)
    listed = result.listings.sort("position")
    assert [a[0] for a in listed["authors"].to_list()] == ["Alice Smith", "Carol White"]
    assert listed["listed_code"].to_list() == ["Theory · Learning Theory", None]
    assert result.quarantine.select("line_start", "reason").rows() == [(9, "record has no abstract")]


def test_a_parent_area_before_an_abstract_is_no_author():
    """"Social Aspects" then an abstract (a record without its names line), on a page that shows
    "Social Aspects · Trustworthy Machine Learning": it was loaded as the paper's one author."""
    text = ("论文检索\n\nSocial Aspects · Trustworthy Machine Learning\n\nAlice Smith, Bob Jones\n\nWe audit deception "
            "in language agents.\n\nSocial Aspects\n\nWe show that linear attention fails on associative recall.\n\n"
            "Social Aspects\n\nShawn Im, Sharon Li\n\nWe align language models with human feedback.\n")
    result = read(text)
    listed = result.listings.sort("position")
    assert [a[0] for a in listed["authors"].to_list()] == ["Alice Smith", "Shawn Im"]
    assert listed["listed_code"].to_list() == ["Social Aspects · Trustworthy Machine Learning", "Social Aspects"]
    assert result.quarantine["reason"].to_list() == ["abstract without an authors line"]


# ---------------------------------------------------------------------------- blank lines missing or added
ABSTRACT_A = "We study compute reduction in neural networks through one-shot magnitude pruning."
ABSTRACT_B = "Accurate zeroth-order Hessian estimation is a cornerstone of derivative-free methods."
NAMES_B = "Junbin Qiu, Zhaowei Hong, Renzhe Xu, Yao Shu"


def test_names_glued_under_the_abstract_above_open_their_record():
    # the names were read into the abstract above (silently) and their record quarantined
    text = f"论文检索\n\nTheory · Deep Learning\n\nErdem Koyuncu, Maria Schmidt\n\n{ABSTRACT_A}\n{NAMES_B}\n\n{ABSTRACT_B}\n"
    assert loaded(text) == [(["Erdem Koyuncu", "Maria Schmidt"], ABSTRACT_A), (NAMES_B.split(", "), ABSTRACT_B)]


def test_a_list_closing_an_abstract_stays_in_it():
    # "MNIST, CIFAR-10, ImageNet" after a sentence, before the next record's area or names
    for after in ("Optimization · Zero-order", NAMES_B):
        text = f"论文检索\n\nErdem Koyuncu, Maria Schmidt\n\n{ABSTRACT_A}\nMNIST, CIFAR-10, ImageNet\n\n{after}\n\n"
        text += f"{NAMES_B}\n\n{ABSTRACT_B}\n" if after != NAMES_B else f"{ABSTRACT_B}\n"
        assert loaded(text)[0] == (["Erdem Koyuncu", "Maria Schmidt"], ABSTRACT_A + " MNIST, CIFAR-10, ImageNet")


def test_a_one_level_area_glued_under_the_abstract_above_is_the_next_records():
    text = (f"论文检索\n\nErdem Koyuncu, Maria Schmidt\n\n{ABSTRACT_A}\nSocial Aspects\n\n{NAMES_B}\n\n{ABSTRACT_B}\n"
            f"\nSocial Aspects · Privacy\n\n{NAMES_B}\n\n{ABSTRACT_A}\n")
    result = read(text)
    assert result.quarantine.is_empty()
    assert result.listings.sort("position")["listed_code"].to_list() == [None, "Social Aspects", "Social Aspects · Privacy"]
    assert loaded(text)[0] == (["Erdem Koyuncu", "Maria Schmidt"], ABSTRACT_A)


def test_a_blank_line_inside_a_names_list_keeps_every_name_and_the_area():
    # "Junbin Qiu, Zhaowei Hong," was read as an abstract (quarantined with the area) and the paper
    # loaded as "Renzhe Xu, Yao Shu" without its area
    text = f"论文检索\n\nOptimization · Zero-order\n\nJunbin Qiu, Zhaowei Hong,\n\nRenzhe Xu, Yao Shu\n\n{ABSTRACT_B}\n"
    result = read(text)
    assert result.quarantine.is_empty()
    assert result.listings.select("authors", "listed_code").rows() == [(NAMES_B.split(", "), "Optimization · Zero-order")]


@st.composite
def page_with_blank_lines_lost_and_added(draw) -> tuple[str, str]:
    """A page, and the same page with the blank line under some abstracts missing (the next
    record's area or names glued to it) and a blank line after a comma inside some names lists."""
    whole, damaged = ["论文检索"], ["论文检索"]
    for i in range(draw(st.integers(2, 6))):
        area = draw(st.sampled_from(AREAS)) if draw(st.booleans()) else None
        names = ", ".join(draw(st.lists(author_name(), min_size=2, max_size=8, unique=True)))
        text = f"{draw(abstract)} Case {i}."
        broken = names.replace(", ", ",\n\n", 1) if draw(st.booleans()) else names
        # one fault a record; a one-level area is glued only where the page shows it as a parent
        # (test_a_one_level_area_glued_under_the_abstract_above_is_the_next_records)
        glue = i > 0 and broken == names and (area is None or " · " in area) and draw(st.booleans())
        for out, line in ((whole, names), (damaged, broken)):
            paras = [p for p in (area, line, text) if p]
            if out is damaged and glue:
                out[-1] += "\n" + paras.pop(0)
            out.extend(paras)
    return "\n\n".join(whole) + "\n", "\n\n".join(damaged) + "\n"


@settings(max_examples=40, deadline=None)
@given(page_with_blank_lines_lost_and_added())
def test_blank_lines_lost_under_abstracts_or_added_inside_names_change_nothing(case):
    whole, damaged = case
    assert loaded(damaged) == loaded(whole)


FUNDED = "We study magnitude pruning at scale; this work was funded by the U.S."


@pytest.mark.parametrize("page", [
    # a list closing an abstract, then the next record's names between semicolons: it was cut off
    # and loaded as a paper by "MNIST", "CIFAR-10", "ImageNet" whose abstract was the names
    f"论文检索\n\nErdem Koyuncu, Maria Schmidt\n\n{ABSTRACT_A}\nMNIST, CIFAR-10, ImageNet\n\n"
    f"Junbin Qiu; Zhaowei Hong; Yao Shu\n\n{ABSTRACT_B}\n",
    # ... then a record without names: loaded with those three as its authors (it was quarantined)
    f"论文检索\n\nErdem Koyuncu, Maria Schmidt\n\n{ABSTRACT_A}\nMNIST, CIFAR-10, ImageNet\n\n{ABSTRACT_B}\n",
    # a funder on the abstract's last line is no one-level area of the next record
    f"论文检索\n\nErdem Koyuncu, Maria Schmidt\n\n{FUNDED}\nNational Science Foundation\n\n{NAMES_B}\n\n{ABSTRACT_B}\n",
    # an abstract's last line ending in a comma does not go on with the next record's names
    f"论文检索\n\nErdem Koyuncu, Maria Schmidt\n\n{ABSTRACT_A} We evaluate on datasets including\n"
    f"ImageNet, CIFAR-10,\n\n{NAMES_B}\n\n{ABSTRACT_B}\n",
], ids=["semicolon names next", "no names next", "a funder", "an abstract ending in a comma"])
def test_an_abstracts_own_last_line_stays_in_it(page):
    result = read(page)
    first = result.listings.sort("position").row(0, named=True)
    assert first["authors"] == ["Erdem Koyuncu", "Maria Schmidt"]
    abstract = result.papers.filter(pl.col("paper_key") == first["paper_key"])["abstract"].item()
    assert abstract.endswith(("ImageNet", "Foundation", "CIFAR-10,"))
    assert all("MNIST" not in authors for authors in result.listings["authors"].to_list())


def test_a_semicolon_names_list_broken_by_a_blank_line_is_one_list():
    text = f"论文检索\n\nOptimization · Zero-order\n\nJunbin Qiu; Zhaowei Hong;\n\nRenzhe Xu; Yao Shu\n\n{ABSTRACT_B}\n"
    result = read(text)
    assert result.quarantine.is_empty()
    assert result.listings.select("authors", "listed_code").rows() == [(NAMES_B.split(", "), "Optimization · Zero-order")]


def test_a_page_reads_the_same_whatever_file_follows_it_in_the_batch():
    # the line after a file's last line was the next file's first: "National Science Foundation"
    # closing one page was cut off its abstract when a page opening with names came next
    ending = f"论文检索\n\nErdem Koyuncu, Maria Schmidt\n\n{FUNDED}\nNational Science Foundation\n"
    ending_list = f"论文检索\n\nErdem Koyuncu, Maria Schmidt\n\n{ABSTRACT_A}\nAnn Lee, Bo Chen\n"
    following = f"论文检索\n\n{NAMES_B}\n\n{ABSTRACT_B}\n"
    for page in (ending, ending_list):
        alone = process_batch([SourceFile(1, "a.txt", page.encode("utf-8"))])
        batch = process_batch([SourceFile(1, "a.txt", page.encode("utf-8")), SourceFile(2, "b.txt", following.encode("utf-8"))])
        mine = batch.listings.filter(pl.col("source_file_id") == 1)
        assert mine.select("authors", "paper_key").rows() == alone.listings.select("authors", "paper_key").rows()
        assert batch.quarantine.filter(pl.col("source_file_id") == 1).height == alone.quarantine.height


@pytest.mark.parametrize("abstract", ["本文提出了一种新的大语言模型训练方法。", "提案手法は既存手法より高い精度を示した！"])
def test_names_or_an_area_glued_under_a_chinese_or_japanese_abstract_open_the_next_record(abstract):
    # "。" ended no sentence here: the next record's names (or area) were read into the abstract
    for opener in (NAMES_B, "Optimization · Zero-order"):
        text = f"论文检索\n\n张伟、李娜\n\n{abstract}\n{opener}\n\n"
        text += f"{ABSTRACT_B}\n" if opener == NAMES_B else f"{NAMES_B}\n\n{ABSTRACT_B}\n"
        result = read(text)
        assert result.quarantine.is_empty(), result.quarantine.to_dicts()
        assert result.listings.sort("position")["authors"].to_list() == [["张伟", "李娜"], NAMES_B.split(", ")]


# ---------------------------------------------------------------------------- hard-wrapped area lines
WRAPPED_AREAS = [  # (the area line as a mail client wrapped it, the area)
    ("Miscellaneous Aspects of Machine Learning ·\nCausality", "Miscellaneous Aspects of Machine Learning · Causality"),
    ("Social Aspects · Privacy-preserving Statistics and\nMachine Learning",
     "Social Aspects · Privacy-preserving Statistics and Machine Learning"),
    ("Optimization · Optimization and Learning under\nUncertainty", "Optimization · Optimization and Learning under Uncertainty"),
    ("Miscellaneous Aspects of Machine Learning · General Machine Learning\nTechniques",
     "Miscellaneous Aspects of Machine Learning · General Machine Learning Techniques"),
    ("Miscellaneous Aspects of Machine Learning · Online\nLearning, Active Learning and Bandits",
     "Miscellaneous Aspects of Machine Learning · Online Learning, Active Learning and Bandits"),
    # the rest is a one-level area the page shows ("Optimization · Zero-order" below)
    ("Optimization · Discrete and Combinatorial\nOptimization", "Optimization · Discrete and Combinatorial Optimization"),
]


@pytest.mark.parametrize(("wrapped", "area"), WRAPPED_AREAS, ids=[w.split("\n")[1] for w, _ in WRAPPED_AREAS])
def test_an_area_line_wrapped_in_two_is_the_records_area(wrapped, area):
    # the rest was read as names or a one-level area: the record was quarantined ("CNNP"), or the
    # next record loaded without its area, or with "Optimization" as its area
    # (a URL longer than the width stays whole on a line of its own: no measure of the width)
    url = "Code: https://github.com/an-organisation/a-repository-whose-name-is-longer-than-the-lines"
    text = (f"论文检索\n\n{area}\n\n{NAMES_B}\n\n{ABSTRACT_B} {url}\n\n"
            f"Optimization · Zero-order\n\nErdem Koyuncu, Maria Schmidt\n\n{ABSTRACT_A}\n")
    width = len(wrapped.split("\n")[0])
    assert wrapped in wrap(text, width)
    result = read(wrap(text, width))
    assert result.quarantine.is_empty(), result.quarantine.to_dicts()
    assert result.listings.sort("position").select("authors", "listed_code").rows() == [
        (NAMES_B.split(", "), area), (["Erdem Koyuncu", "Maria Schmidt"], "Optimization · Zero-order")]


def test_the_rest_of_a_wrapped_area_is_no_author():
    # a record without names under a wrapped area loaded "Machine Learning" as its author
    text = f"论文检索\n\nSocial Aspects · Privacy-preserving Statistics and\nMachine Learning\n\n{ABSTRACT_B}\n"
    result = read(text)
    assert result.listings.is_empty()
    assert result.quarantine["reason"].to_list() == ["abstract without an authors line"]


@st.composite
def page_and_width(draw) -> tuple[str, int]:
    paras = ["论文检索"]
    for i in range(draw(st.integers(1, 5))):
        area = draw(st.sampled_from(AREAS + REAL_AREAS)) if draw(st.booleans()) else None
        names = ", ".join(draw(st.lists(author_name(), min_size=2, max_size=6, unique=True)))
        paras += [p for p in (area, names, f"{draw(abstract)} Case {i}.") if p]
    return "\n\n".join(paras) + "\n", draw(st.integers(30, 100))


@settings(max_examples=40, deadline=None)
@given(page_and_width())
def test_a_hard_wrapped_page_reads_as_the_page(case):
    # (area lines wrapped after their first line lost the rest of the area, or the record)
    text, width = case
    whole, wrapped = read(text), read(wrap(text, width))
    assert wrapped.quarantine.is_empty(), wrapped.quarantine.to_dicts()
    assert wrapped.listings.select("authors", "listed_code").rows() == whole.listings.select("authors", "listed_code").rows()
    assert loaded(wrap(text, width)) == loaded(text)


UNWRAPPED_PAGES = {  # (abstracts that set no width: the area line is the page's longest line)
    "latin": ("Social Aspects · Privacy", NAMES_B, ABSTRACT_B, "Erdem Koyuncu, Maria Schmidt", ABSTRACT_A),
    "placeholders": ("Social Aspects · Privacy", NAMES_B, "No abstract available.", "Erdem Koyuncu", "No abstract available."),
    "chinese": ("Social Aspects · Privacy", "张伟、李娜", "本文提出了一种新的大语言模型训练方法。", "王强、赵磊", "实验表明该方法优于现有基线。"),
}


@pytest.mark.parametrize("page", UNWRAPPED_PAGES.values(), ids=UNWRAPPED_PAGES.keys())
def test_a_line_glued_under_an_unwrapped_area_line_is_no_part_of_it(page):
    # "Social Aspects" and the names fit on the area line: no wrapper put them below. The area
    # line stays whole (its record has no abstract, or its names no abstract); with Chinese or
    # placeholder abstracts it was joined into "Deep Learning · Robustness Social Aspects"
    area, names, text, other_names, other_text = page
    for glued, first in (("Social Aspects", "Social Aspects"), (other_names, None)):
        lines = f"论文检索\n\nDeep Learning · Robustness\n{glued}\n\n{names}\n\n{text}\n\n{area}\n\n{other_names}\n\n{other_text}\n"
        result = read(lines)
        assert result.quarantine["raw_text"].to_list()[0].startswith("Deep Learning · Robustness")
        # (names under names, a record cut off, may take the next record down with it: quarantined)
        assert set(result.listings["listed_code"].to_list()) <= {first, area}
        assert result.listings.filter(pl.col("listed_code") == area).height == 1


REAL_AREAS = [  # (ICLR 2024's, ../shared/realdata: lower-case words and "/" end some)
    "Miscellaneous Aspects of Machine Learning · Kernel methods", "Deep Learning · Sequential Models, Time series",
    "Applications · Genetics, Cell Biology, etc", "Reinforcement Learning · Batch/Offline",
    "Social Aspects · Fairness, Equity, Justice and Safety", "Optimization · Large Scale, Parallel and Distributed",
    "Social Aspects · Privacy-preserving Statistics and Machine Learning",
    "Optimization · Discrete and Combinatorial Optimization",
]


@pytest.mark.parametrize("names", ["Steve Hanneke", "Runqi Lin, Chaojian Yu", "danah boyd, Kate Crawford", "Machine Learning"])
@pytest.mark.parametrize("area", ["Deep Learning · Robustness", *REAL_AREAS[:3]])
def test_names_glued_under_a_whole_area_line_stay_names(area, names):
    # "Kernel methods", "Time series", "etc" end real areas: read as cut, the names were joined
    # into the area and the record quarantined (before an abstract, a line glued under a whole
    # area line is the record's names, "Machine Learning" too)
    result = read(f"论文检索\n\n{area}\n{names}\n\n{ABSTRACT_A}\n")
    assert result.quarantine.is_empty()
    assert result.listings.select("authors", "listed_code").rows() == [(names.split(", "), area)]


@pytest.mark.parametrize("separator", ["·", "»", "・", "•"])
def test_an_area_line_wrapped_after_any_separator_is_one_area(separator):
    head = f"Miscellaneous Aspects of Machine Learning {separator}"
    result = read(wrap(f"论文检索\n\n{head} Causality\n\n{NAMES_B}\n\n{ABSTRACT_B}\n", len(head)))
    assert result.quarantine.is_empty()
    assert result.listings["listed_code"].to_list() == ["Miscellaneous Aspects of Machine Learning · Causality"]


def test_names_between_semicolons_under_a_wrapped_area_are_the_names():
    # the rest of the area ("Learning, Active Learning and Bandits", a list) made the names below
    # it read as keywords, the abstract: the record was shifted
    area = "Miscellaneous Aspects of Machine Learning · Online Learning, Active Learning and Bandits"
    text = f"论文检索\n\n{area}\n\nAnn Lee; Bo Chen\n\n{ABSTRACT_B} {ABSTRACT_A}\n"
    result = read(wrap(text, 50))
    assert result.quarantine.is_empty()
    assert result.listings.select("authors", "listed_code").rows() == [(["Ann Lee", "Bo Chen"], area)]
