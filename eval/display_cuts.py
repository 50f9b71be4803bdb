"""Titles a display cut, beside the paper's own: `python -m eval.display_cuts`.

Another checkout's resolver on the same pairs: `cd /tmp && PYTHONPATH=<checkout> python
<this repo>/eval/display_cuts.py`.

Every distinct real title of the two arXiv listing files of ../shared/realdata longer than the
width, cut at 60, 80 or 100 characters (inside a word, or at the word's end before it) and closed
with "…", is scored against its full title by `transforms.resolve.score_pairs`, the abstract and
the first three authors the same on both sides: a pair not matched is a paper split from itself.
"""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from bench.corpus import default_realdata
from transforms.resolve import match_text, score_pairs
from transforms.text import fold_key

FILES = {"arxiv_daydayarxiv_csAI_listings.jsonl": "abstract", "arxiv_daily_listings_dwdengwei.jsonl": "summary"}


def real_records(realdata: Path) -> list[dict]:
    """(title, authors, abstract) of each distinct real title."""
    seen: set[str] = set()
    out = []
    for name, abstract in FILES.items():
        for line in (realdata / name).read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            if r["title"] not in seen:
                seen.add(r["title"])
                out.append({"title": r["title"], "authors": r["authors"][:3], "abstract": r[abstract]})
    return out


def cut_pairs(records: list[dict], width: int, at_word: bool) -> pl.DataFrame:
    rows = []
    for r in records:
        if len(r["title"]) <= width + 5:
            continue
        cut = r["title"][:width].rsplit(" ", 1)[0] if at_word else r["title"][:width]
        rows.append({"title_a": r["title"], "title_b": cut.rstrip(" :,;-") + "…", "text": r["abstract"],
                     "keys": r["authors"]})
    df = pl.DataFrame(rows).with_columns(keys=pl.col("keys").list.eval(fold_key(pl.element())))
    return df.select("title_a", "title_b", text_a=match_text(pl.col("text")), text_b=match_text(pl.col("text")),
                     keys_a="keys", keys_b="keys")


def main() -> None:
    records = real_records(default_realdata())
    print("| width | cut | pairs | split |\n|---:|---|---:|---:|")
    for width in (60, 80, 100):
        for at_word in (True, False):
            scored = score_pairs(cut_pairs(records, width, at_word))
            print(f"| {width} | {'at a word' if at_word else 'inside a word'} | {scored.height} | {(~scored['is_match']).sum()} |")


if __name__ == "__main__":
    main()
