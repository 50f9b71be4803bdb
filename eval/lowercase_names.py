"""Names typed in small letters: `python -m eval.lowercase_names`.

Another checkout on the same data: `cd /tmp && PYTHONPATH=<checkout> python <this repo>/eval/lowercase_names.py`
(before session 49 there is no `name_words_blanked`: both prose figures are the same then).

1. Every real author list of several names in ../shared/realdata (`real_author_lines`), on a page
   of each format, as written and lower-cased: how many load as a record's authors each way, and
   how many that load as written do not lower-cased (`transforms.formats.common.name_words_blanked`
   decides whether a name's short word of prose, "jae in kim", is a name's).
2. The other side: the real abstracts' sentences cut at commas into lists of 2-5 items under 120
   characters (prose shaped like a names line), as written and lower-cased: how many read as prose
   (a listing's `_reads_as_prose`, a search page's `_prose_hint`) with the name's words read as
   names, and with `name_words_blanked` left out (every such word prose).
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from unittest import mock

import polars as pl

from bench.corpus import default_realdata, load_realdata
from transforms.formats import listing, search
from transforms.pipeline import SourceFile, process_batch

ABSTRACT = ("The entropy rate of printed English is famously estimated to be about one bit per character, a "
            "benchmark that modern large language models have only recently approached. We introduce a "
            "statistical model of the multi-scale structure of natural language and show that its predicted "
            "entropy rate agrees with the estimates.")
ARXIV_LISTS = ("arxiv_daily_listings_dwdengwei.jsonl", "arxiv_daydayarxiv_csAI_listings.jsonl",
               "arxiv_kaggle_oai_snapshot_first200.jsonl")


def real_author_lines(root: Path) -> list[str]:
    """Every real author list of several names in `root` (../shared/realdata), as one line."""
    lines = [r["author"] for r in json.loads((root / "icml2025_titles_authors_papercopilot.json").read_text("utf-8"))]
    lines += [", ".join(r["authors"]) for r in json.loads((root / "iclr2024_virtualsite_topics_airas.json").read_text("utf-8"))
              if r.get("authors")]
    lines += [row.split("\t")[1].replace(";", ", ") for row in
              (root / "iclr2024_openreview_primary_area_dotd.tsv").read_text("utf-8").splitlines() if "\t" in row]
    for name in ARXIV_LISTS:  # (a list of names, or arXiv's raw line)
        for row in map(json.loads, (root / name).read_text("utf-8").splitlines()):
            authors = row.get("authors")
            lines.append(", ".join(authors) if isinstance(authors, list) else authors or "")
    return [" ".join(line.split()) for line in lines if "," in line or " and " in line]


def loaded_lines(lines: list[str], fmt: str) -> set[int]:
    """Which of `lines` load as a record's authors, each on a page of format `fmt` (a listing
    record: 5 lines; a search record: names, blank, abstract, blank)."""
    if fmt == "listing":
        text, first, step = "\n".join(f"#{i % 99 + 1:02d}Oct 26, 2026\ncs.LG\nA Title\n{line}\n{ABSTRACT}"
                                      for i, line in enumerate(lines)), 1, 5
    else:
        text, first, step = "\n\n".join(["论文检索", *(part for line in lines for part in (line, ABSTRACT))]), 3, 4
    listings = process_batch([SourceFile(1, f"{fmt}.txt", text.encode())]).listings
    return {(start - first) // step for start in listings["line_start"]}


def prose_lists(root: Path) -> list[str]:
    """The real abstracts' sentences cut at commas: runs of 2-5 items, under 120 characters."""
    runs = set()
    for paper in load_realdata(root).papers:
        for sentence in re.split(r"(?<=[.!?])\s+", paper.text.abstract or ""):
            parts = sentence.split(", ")
            runs |= {", ".join(parts[i:j]).rstrip(".") for i in range(len(parts))
                     for j in range(i + 2, min(len(parts), i + 5) + 1)}
    return sorted(run for run in runs if len(run) < 120)


def prose_read(texts: list[str]) -> dict[str, int]:
    frame = pl.DataFrame({"t": texts})
    read = frame.select(listing=listing._reads_as_prose(pl.col("t")), search=search._prose_hint(pl.col("t")))
    return {k: int(read[k].sum()) for k in read.columns}


def main() -> None:
    ap = argparse.ArgumentParser(prog="python -m eval.lowercase_names", description=__doc__.split("\n\n")[0])
    ap.add_argument("--realdata", type=Path, default=default_realdata())
    root = ap.parse_args().realdata
    lines = real_author_lines(root)
    print(f"{len(lines):,} real author lists")
    for fmt in ("listing", "search"):
        written, lowered = loaded_lines(lines, fmt), loaded_lines([line.lower() for line in lines], fmt)
        print(f"  {fmt}: {len(written):,} load as written, {len(lowered):,} lower-cased; "
              f"{len(written - lowered):,} load as written but not lower-cased")
    runs = prose_lists(root)
    for case, texts in (("as written", runs), ("lower-cased", sorted({r.lower() for r in runs}))):
        read = prose_read(texts)
        with mock.patch.object(listing, "name_words_blanked", lambda items, _: items, create=True), \
                mock.patch.object(search, "name_words_blanked", lambda items, _: items, create=True):
            unblanked = prose_read(texts)
        print(f"{len(texts):,} prose lists {case}: read as prose by a listing {read['listing']:,} "
              f"({unblanked['listing']:,} without the name's words), by a search page {read['search']:,} "
              f"({unblanked['search']:,})")


if __name__ == "__main__":
    main()
