"""Search pages whose records lack a field: which paragraphs make a record. A record with no
abstract, a one-author record, a one-line abstract (a title, a TL;DR, keywords): each either
loads with exactly its own fields or is quarantined, with a reason that says why, and no
intact record beside it goes with it. Every line is accounted for: a loaded record or a
quarantine row. (Before: names loaded as an abstract, a person or an abstract as the next
paper's category, and records lost without a quarantine row.)"""

from __future__ import annotations

import pytest
from conftest import parse_text
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
