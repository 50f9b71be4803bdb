"""Does a growing topic rank first among the rising terms, over real papers? `python -m eval.rising_topics`

Six weeks of listings of 30 real cs.AI papers a week (../shared/realdata, the DayDayArXiv file);
a topic is written into 0, 1, 2, 4, 8, 14 of them week by week and "reinforcement learning"
into 10 every week (the shape of tests/support/trends_corpus.py, with real papers around it).
Where the topic goes: `title` (prefixed to the title), `abstract` (a first sentence "We study
<topic>." and a last one), or `both`. Each rendering is loaded by `digest ingest` into its own
warehouse (set PREFECT_API_URL to use a running server), and the script prints the last week's
first rising terms, whether the first is the topic's own normal form, and whether the flat term
was ever flagged.

    .venv/bin/python -m eval.rising_topics [--modes both,title,abstract] [--topic "graph neural networks" ...]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

import duckdb

from bench.corpus import default_realdata
from transforms.terms import normalise_term

DAYDAY = "arxiv_daydayarxiv_csAI_listings.jsonl"
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
FIRST_MONDAY = dt.date(2027, 3, 1)
GROWING_COUNTS = (0, 1, 2, 4, 8, 14)
PAPERS_PER_WEEK = 30
FLAT, FLAT_COUNT = "reinforcement learning", 10
TOPICS = ("quantum annealing", "graph neural networks", "3D Gaussian splatting", "retrieval-augmented generation",
          "LLM agents", "state-space models", "in-context learning", "mixture of experts", "transformers", "Mamba")


def real_papers() -> list[dict]:
    records = [json.loads(line) for line in (default_realdata() / DAYDAY).read_text(encoding="utf-8").splitlines()]
    return list({r["title"]: r for r in records}.values())


def render(folder: Path, papers: list[dict], topic: str, mode: str, seed: int = 7) -> None:
    """One listing file per week; the topic in `mode`'s fields of its papers."""
    pool = random.Random(seed).sample(papers, len(papers))
    folder.mkdir(parents=True)
    for week, n_topic in enumerate(GROWING_COUNTS):
        day = FIRST_MONDAY + dt.timedelta(weeks=week, days=1)
        kinds = ["topic"] * n_topic + ["flat"] * FLAT_COUNT + [None] * (PAPERS_PER_WEEK - n_topic - FLAT_COUNT)
        records = []
        for rank, kind in enumerate(kinds, 1):
            paper = pool.pop()
            title, abstract = " ".join(paper["title"].split()), " ".join(paper["abstract"].split())
            if kind == "topic" and mode in ("title", "both"):
                title = f"{topic[0].upper()}{topic[1:]}: {title}"
            if kind == "topic" and mode in ("abstract", "both"):
                abstract = f"We study {topic}. {abstract} Our {topic} results hold."
            if kind == "flat":
                title, abstract = f"Reinforcement Learning for {title}", f"We use {FLAT}. {abstract}"
            authors = ", ".join(paper["authors"][:4]) + (f" and {len(paper['authors']) - 4} more" if len(paper["authors"]) > 4 else "")
            records.append(f"#{rank:02d}{MONTHS[day.month - 1]} {day.day:02d}, {day.year}\n{paper['primary_category']}\n"
                           f"{title}\n{authors}\n{abstract}")
        (folder / f"{day.isoformat()}.txt").write_text("\n".join(records) + "\n", encoding="utf-8")


def rising(warehouse: Path) -> tuple[list[tuple], bool]:
    """The last week's rising terms (term, papers, papers before, within_term if the view has it)
    and whether the flat term was ever rising."""
    last = FIRST_MONDAY + dt.timedelta(weeks=len(GROWING_COUNTS) - 1)
    with duckdb.connect(str(warehouse), read_only=True) as con:
        columns = {r[0] for r in con.execute("DESCRIBE marts.rising_terms").fetchall()}
        within = "within_term" if "within_term" in columns else "NULL"
        top = con.execute(f"SELECT term, n_papers, n_papers_before, {within} FROM marts.rising_terms WHERE period = 'week' "
                          "AND period_start = ? AND is_rising ORDER BY rising_rank", [last]).fetchall()
        flat = con.execute("SELECT count(*) FROM marts.rising_terms WHERE term = ? AND is_rising", [FLAT]).fetchall()[0][0]
    return top, flat > 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--topic", action="append", help="a topic (repeatable); default: ten of several shapes")
    ap.add_argument("--modes", default="both,title,abstract")
    args = ap.parse_args(argv)
    papers = real_papers()
    digest = str(Path(sys.executable).with_name("digest"))
    first = {}
    with tempfile.TemporaryDirectory(prefix="rising_topics_") as tmp:
        for topic in args.topic or TOPICS:
            for mode in args.modes.split(","):
                root = Path(tmp) / f"{len(first)}"
                render(root / "in", papers, topic, mode)
                subprocess.run([digest, "ingest", str(root / "in"), "--warehouse", str(root / "w.duckdb"), "--json"],
                               check=True, capture_output=True)
                top, flat_flagged = rising(root / "w.duckdb")
                first[(topic, mode)] = bool(top) and top[0][0] == normalise_term(topic)
                shown = "; ".join(f"{t} {x}/{y}" + (f" (within {w})" if w else "") for t, x, y, w in top[:4])
                print(f"{topic:32} {mode:8} first={'yes' if first[(topic, mode)] else 'NO ':3} "
                      f"flat flagged={'YES' if flat_flagged else 'no'}  {shown or '(nothing rising)'}", flush=True)
    for mode in args.modes.split(","):
        hits = [ok for (_, m), ok in first.items() if m == mode]
        print(f"{mode}: the topic first for {sum(hits)} of {len(hits)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
