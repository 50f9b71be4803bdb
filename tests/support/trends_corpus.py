"""A listing-format corpus whose topics are known: one topic's share grows week by week, one
frequent topic stays flat, everything else is one-off background. Rendered as the arXiv
listing digests of GUIDE.md §1 (five lines per paper, one file per week).

Background papers are made of seeded pseudo-words, so their phrases are unique and their
abstracts far apart (the paper resolver must not merge them).
"""

from __future__ import annotations

import datetime as dt
import random
from pathlib import Path

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
FIRST_MONDAY = dt.date(2027, 3, 1)
PAPERS_PER_WEEK = 30
GROWING = "quantum annealing"  # papers per week: GROWING_COUNTS
GROWING_COUNTS = (0, 1, 2, 4, 8, 14)
FLAT = "reinforcement learning"  # the same 10 papers' worth every week
FLAT_COUNT = 10
SYLLABLES = ("ka", "lo", "mi", "ne", "ru", "ta", "vo", "zi", "be", "do", "fu", "gi", "po", "se", "ux", "ya")


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(3, 4)))


def _sentence(rng: random.Random) -> str:
    return f"the {_word(rng)} {_word(rng)} of {_word(rng)} {_word(rng)} and {_word(rng)} {_word(rng)}."


def _paper(rng: random.Random, topic: str | None) -> tuple[str, str]:
    """(title, abstract): the topic, when there is one, in the title and twice in the abstract."""
    own = f"{_word(rng)} {_word(rng)}"
    if topic is None:
        return f"On {own} for {_word(rng)} {_word(rng)}", " ".join(_sentence(rng) for _ in range(5)).capitalize()
    body = [_sentence(rng) for _ in range(4)]
    abstract = f"We study {topic} for {own}. " + " ".join(body) + f" Our {topic} results hold for {_word(rng)}."
    return f"{topic.title()} for {own.title()}", abstract


def _record(rank: int, day: dt.date, title: str, abstract: str, rng: random.Random) -> str:
    authors = ", ".join(f"{_word(rng).title()} {_word(rng).title()}" for _ in range(2))
    date = f"{MONTHS[day.month - 1]} {day.day:02d}, {day.year}"
    return f"#{rank:02d}{date}\ncs.LG\n{title}\n{authors}\n{abstract}"


def render(folder: Path, seed: int = 16) -> list[Path]:
    """Write one listing file per week (papers listed on the Tuesday); returns the files."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    files = []
    for week, n_growing in enumerate(GROWING_COUNTS):
        day = FIRST_MONDAY + dt.timedelta(weeks=week, days=1)
        topics = [GROWING] * n_growing + [FLAT] * FLAT_COUNT
        topics += [None] * (PAPERS_PER_WEEK - len(topics))
        records = [_record(i + 1, day, *_paper(rng, topic), rng) for i, topic in enumerate(topics)]
        path = folder / f"{day.isoformat()}_arxiv.txt"
        path.write_text("\n".join(records), encoding="utf-8")  # no final newline, like the seeds
        files.append(path)
    return files


_built: dict[str, Path] = {}


def warehouse(run_ingest, tmp_path_factory) -> Path:
    """The corpus ingested in one run, once per test session (shared by the test modules)."""
    if "fresh" not in _built:
        root = tmp_path_factory.mktemp("trends_fresh")
        render(root / "digests")
        run_ingest([root / "digests"], root / "w.duckdb")
        _built["fresh"] = root / "w.duckdb"
    return _built["fresh"]
