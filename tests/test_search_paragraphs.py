"""Search pages (session 52 hunts): an abstract written in paragraphs (a blank line between them)
loads whole; a record whose names line does not read as names is one quarantined record, one
position, not two; names one per line are several people, and names run together (a run of
spaces, a spaced dash) are quarantined, never one made-up person."""

from __future__ import annotations

import json

import pytest
from conftest import parse_text
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.corpus import default_realdata
from transforms.formats.search import NAMED_PROSE_REASON, RUN_TOGETHER_REASON

REALDATA = default_realdata()
AREA = "Deep Learning · Large Language Models"
PROSE_A = "We study how large language models follow instructions and we show that they often fail on long prompts."
PROSE_B = "We propose a new method for graph clustering that adapts to heterophily and we evaluate it on twelve benchmarks."
PROSE_C = "We analyse the convergence of stochastic gradient descent under heavy-tailed noise and we give tight bounds."
PROSE_D = "Experiments on six datasets confirm the analysis, and the code is public."
CODE = "Code, data, and package are available at https://github.com/maitrix-org/scPilot"


def page(*paragraphs: str) -> str:
    return "论文检索\n\n" + "\n\n".join(paragraphs) + "\n"


def parse(text: str):
    """(loaded (position, authors_raw, abstract) in file order, quarantine reasons)."""
    records, quarantine = parse_text(text, "search")
    return records.sort("position").select("position", "authors_raw", "abstract").rows(), quarantine["reason"].to_list()


# ---------------------------------------------------------------------------- (P) paragraphs
@pytest.mark.parametrize("area", [AREA, None])
def test_an_abstract_in_paragraphs_loads_whole(area):
    first = [area] if area else []
    text = page(*first, "Ann Lee, Bo Chen", PROSE_A, PROSE_B, PROSE_C, *first, "Cy Dow", PROSE_D, CODE)
    loaded, quarantined = parse(text)
    assert loaded == [(1, "Ann Lee, Bo Chen", f"{PROSE_A} {PROSE_B} {PROSE_C}"), (2, "Cy Dow", f"{PROSE_D} {CODE}")]
    assert quarantined == []


@pytest.mark.parametrize("furniture", ["Read more", "Showing 20 of 345 results.", "Keywords: graphs, clustering.",
                                       "Copyright © 2024 Paper Search. All rights reserved."])
def test_page_furniture_after_an_abstract_is_no_paragraph_of_it(furniture):
    loaded, quarantined = parse(page(AREA, "Ann Lee, Bo Chen", PROSE_A, furniture, AREA, "Cy Dow", PROSE_D))
    assert loaded[0] == (1, "Ann Lee, Bo Chen", PROSE_A)
    assert loaded[1][1:] == ("Cy Dow", PROSE_D)
    assert len(quarantined) == 1


def test_a_record_quarantined_for_metadata_keeps_its_abstracts_paragraphs():
    loaded, quarantined = parse(page(AREA, "Ann Lee, Bo Chen", "Keywords: graphs, clustering", PROSE_A, PROSE_B,
                                     AREA, "Cy Dow", PROSE_D))
    assert loaded == [(2, "Cy Dow", PROSE_D)]
    assert len(quarantined) == 1


def _daydayarxiv_with_paragraphs() -> list[dict]:
    path = REALDATA / "arxiv_daydayarxiv_csAI_listings.jsonl"
    if not path.exists():
        return []
    rows = [json.loads(line) for line in path.open(encoding="utf-8")]
    def sentences(r: dict) -> bool:  # (every paragraph ends a sentence: no keyword line, no hard wrap)
        return all(p.strip()[-1] in ".!?)" for p in r["abstract"].strip().split("\n") if p.strip())
    return [r for r in rows if "\n" in r["abstract"].strip() and r["authors"] and sentences(r)]


PARAGRAPHED = _daydayarxiv_with_paragraphs()


@pytest.mark.skipif(not PARAGRAPHED, reason="realdata (DayDayArXiv) absent")
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(range(len(PARAGRAPHED) or 1)), min_size=1, max_size=6, unique=True),
       st.booleans())
def test_real_abstracts_in_paragraphs_load_whole_at_their_positions(picks, with_area):
    """Real records whose abstracts hold line breaks, each written as paragraphs: the whole
    abstract (as a single newline between paragraphs reads it), positions 1..n; never a cut one."""
    blocks, expected = [], []
    for n, i in enumerate(picks, 1):
        r = PARAGRAPHED[i]
        paragraphs = [" ".join(p.split()) for p in r["abstract"].split("\n") if p.strip()]
        names = ", ".join(r["authors"][:10])
        blocks += ([AREA] if with_area else []) + [names, *paragraphs]
        single_newline, _ = parse_text(page(*([AREA] if with_area else []), names, "\n".join(paragraphs)), "search")
        expected.append((n, single_newline["abstract"][0]))
    loaded, quarantined = parse(page(*blocks))
    # each record loads whole at its position, or (a short first paragraph over a long one reads as
    # a metadata line, `_metadata_under_names`) is quarantined whole, in one span
    got = [(p, a) for p, _, a in loaded]
    assert set(got) <= set(expected)
    assert len(quarantined) == len(expected) - len(got)


# ---------------------------------------------------------------------------- (S) one record, one position
@pytest.mark.parametrize("names", [
    "Ann Lee <ann@x.org>, Bo Chen <bo@y.org>",
    "Yihan Wang, Peiyu Liu, Runyu Chen & Wei Xu &",
    "Ann Lee, Bo Chen, :, Cy Dow",
    "Veuns-Team, :, Changlong Gao, Zhiyuan Li",
    "Ann Lee | Bo Chen | Cy Dow",
    "Ann Lee*,†, Bo Chen",
    "Ann Lee, N/A, Bo Chen",
])
@pytest.mark.parametrize("area", [AREA, None])
def test_a_record_whose_names_do_not_read_takes_one_position(names, area):
    first = [area] if area else []
    text = page(*first, "Cy Dow", PROSE_A, *first, names, PROSE_B, *first, "Di Eve", PROSE_C, *first, "Ed Fu", PROSE_D)
    loaded, quarantined = parse(text)
    positions = [p for p, _, _ in loaded]
    assert len(quarantined) <= 1
    if quarantined:  # the record quarantined whole: the ones after it keep their places
        assert quarantined == [NAMED_PROSE_REASON] and positions == [1, 3, 4]
    else:
        assert positions == [1, 2, 3, 4]
    assert [a for _, _, a in loaded][-2:] == [PROSE_C, PROSE_D]


# ---------------------------------------------------------------------------- (W) names and whitespace
def test_names_one_per_line_are_several_people():
    loaded, quarantined = parse(page(AREA, "Yihang Chen\nLukas Mauch", PROSE_A, AREA, "Jannik Kossen\nYarin Gal\nTom Rainforth",
                                     PROSE_B))
    assert [a for _, a, _ in loaded] == ["Yihang Chen, Lukas Mauch", "Jannik Kossen, Yarin Gal, Tom Rainforth"]
    assert quarantined == []


@pytest.mark.parametrize("names", ["Zaishuo Xia  Han Yang  Binghui Wang", "Ann Lee, Bo  Chen",
                                   "Rafael Padilla Andrew Tate Dhruv Ram Cem Yuksel", "Ann Lee, Felipe Meneguzzi Kin Max Piamolini Gusmao Bo"])
def test_names_run_together_are_quarantined_not_one_person(names):
    loaded, quarantined = parse(page(AREA, "Cy Dow", PROSE_A, AREA, names, PROSE_B, AREA, "Di Eve", PROSE_C))
    assert [(p, a) for p, a, _ in loaded] == [(1, "Cy Dow"), (3, "Di Eve")]
    assert quarantined == [RUN_TOGETHER_REASON]


def test_a_hard_wrapped_names_list_still_joins_with_a_space():
    loaded, _ = parse(page(AREA, "Ann Lee, Bo Chen, Carl\nDoe, Dan Wu", PROSE_A))
    assert loaded == [(1, "Ann Lee, Bo Chen, Carl Doe, Dan Wu", PROSE_A)]
