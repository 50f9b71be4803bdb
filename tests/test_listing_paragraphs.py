"""An abstract with paragraph breaks, written one line per paragraph in a listing (5.6 % of the
real DayDayArXiv abstracts hold a break). Before, only its first paragraph loaded (ending on a full
sentence, it looked whole) and the rest was quarantined as "lines after a record's abstract that
belong to no record" (hunt 52). Now the paragraphs are the abstract, joined by "\\n" as the source
keeps them; lines that are no paragraph stay quarantined, and so does a record that lost its
header (its title or names stand among the lines)."""

from __future__ import annotations

import json

import pytest
from conftest import parse_text

from bench.corpus import default_realdata
from transforms.formats.listing import EXTRA_REASON

DAYDAY = default_realdata() / "arxiv_daydayarxiv_csAI_listings.jsonl"
P1 = ("While existing multi-agent systems can handle complex problems by enabling collaboration among multiple "
      "agents, they are often highly task-specific and rely on manually crafted roles and prompts that do not transfer. "
      "This limits their reuse across tasks and domains, and it makes them costly to build.")
P2 = ("In this work, we propose a set of reusable latent building blocks for systems of this kind, inspired by the "
      "way neural networks are built from reusable components, and we show how they compose into larger systems.")
P3 = ("Experiments show that these blocks improve average accuracy by twelve points over single-agent baselines, "
      "reduce token usage and latency, and remain robust across the models and benchmarks that we tried.")
NEXT = "#02Oct 26, 2026\ncs.LG\nA Second Paper\nBo Chen\n" + P3 + "\n"


def _record(*lines: str) -> str:
    return "#01Oct 26, 2026\ncs.MA\nAgent Primitives: Reusable Latent Building Blocks\nHaibo Jin, Kuang Peng\n" + "".join(
        line + "\n" for line in lines)


@pytest.mark.parametrize("paragraphs", [[P1, P2], [P1, P2, P3]])
def test_paragraphs_one_per_line_are_the_abstract(paragraphs):
    records, quarantine = parse_text(_record(*paragraphs) + NEXT)
    assert quarantine.is_empty(), quarantine.to_dicts()
    assert records["abstract"].to_list() == ["\n".join(paragraphs), P3]
    assert records["line_end"].to_list() == [4 + len(paragraphs), 9 + len(paragraphs)]


@pytest.mark.parametrize("stray", ["Read more", "PDF", "Oral", "★", "Ann Lee, Bo Chen", "Code: https://github.com/x/y",
                                   "Accepted at NeurIPS 2025", "Our code is available."])
def test_a_line_that_is_no_paragraph_stays_quarantined(stray):
    records, quarantine = parse_text(_record(P1, P2, stray) + NEXT)
    assert records["abstract"].to_list() == [P1, P3]
    assert quarantine["reason"].to_list() == [EXTRA_REASON]


@pytest.mark.parametrize("stray", ["Comments: 9 pages, 4 figures", "------"])
def test_a_line_printed_between_records_ends_the_paragraphs(stray):
    records, quarantine = parse_text(_record(P1, P2, stray) + NEXT)
    assert records["abstract"].to_list() == [P1 + "\n" + P2, P3]
    assert quarantine["raw_text"].to_list() == [stray]


@pytest.mark.parametrize("lost", [["Ann Lee, Bo Chen", P2],  # a record whose header, category and title were lost
                                  ["Learning Blocks for Agents", "Ann Lee, Bo Chen", P2]])  # header and category lost
def test_an_orphan_record_is_not_read_as_paragraphs(lost):
    # never glued: the first record keeps its five lines or is quarantined whole (read two ways)
    records, quarantine = parse_text(_record(P1, *lost) + NEXT)
    assert records["abstract"].to_list() in ([P1, P3], [P3])
    assert records["title"].to_list()[-1] == "A Second Paper"
    assert quarantine["line_end"].max() == 5 + len(lost)
    if records.height == 2:
        assert records["title"][0] == "Agent Primitives: Reusable Latent Building Blocks"


def test_real_abstracts_with_paragraph_breaks_load_whole():
    if not DAYDAY.exists():
        pytest.skip(f"real listings not found: {DAYDAY} (../shared/realdata)")
    rows = [json.loads(line) for line in DAYDAY.read_text(encoding="utf-8").splitlines()]
    rows = [r for r in rows if "\n" in r["abstract"].strip() and "\n" not in r["title"]]
    paragraphs = [[" ".join(p.split()) for p in r["abstract"].strip().split("\n") if p.strip()] for r in rows]
    text = "".join(f"#{i + 1:02d}Oct 26, 2026\n{r['primary_category']}\n{' '.join(r['title'].split())}\n"
                   f"{', '.join(r['authors'])}\n" + "".join(p + "\n" for p in ps) for i, (r, ps) in enumerate(zip(rows, paragraphs)))
    records, _ = parse_text(text)
    whole = [row["abstract"] == "\n".join(paragraphs[row["position"] - 1]) for row in records.iter_rows(named=True)]
    assert sum(whole) >= 100, (sum(whole), len(rows))  # of 108 (0 before: the first paragraph only)
    for row, ok in zip(records.iter_rows(named=True), whole):  # the others: their first paragraph, the rest quarantined
        assert ok or paragraphs[row["position"] - 1][0] in row["abstract"]
