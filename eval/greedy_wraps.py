"""Real arXiv records as listings hard-wrapped greedily: `python -m eval.greedy_wraps [--widths 60,72,76,80]`.

Another checkout on the same records: `cd /tmp && PYTHONPATH=<checkout> python <this repo>/eval/greedy_wraps.py`.

Every arXiv record of ../shared/realdata (dwdengwei, DayDayArXiv, the Kaggle snapshot) as a listing
record, each field on one line (the authors as listings show them: three names, then "and N more"),
then every line wrapped as a mail client wraps (`textwrap`: greedy, no word cut, no hyphen breaks;
`--hyphens`: breaks after hyphens too). Each record of the wrapped file is loaded as the unwrapped
file loads it (title, authors, abstract), loaded with a field unlike it (shifted: worse than a
quarantine), or quarantined (by reason). A source's own "AI- native" (a hyphen, then a blank) wrapped
after the hyphen loads as "AI-native", as a wrapper's hyphen break does: counted apart, not shifted.
`--show N` prints N quarantined records of each width.
"""

from __future__ import annotations

import argparse
import json
import re
import textwrap
from collections import Counter

import polars as pl

SOURCES = {"dwdengwei": "arxiv_daily_listings_dwdengwei.jsonl", "daydayarxiv": "arxiv_daydayarxiv_csAI_listings.jsonl",
           "kaggle": "arxiv_kaggle_oai_snapshot_first200.jsonl"}
FIELDS = ("title", "authors_raw", "abstract")


def one_line(text: str) -> str:
    return " ".join(text.split())


def shown(names: list[str]) -> str:
    """An authors line as listings show it: three names, then "and N more"."""
    return ", ".join(names) if len(names) <= 3 else ", ".join(names[:3]) + f" and {len(names) - 3} more"


def real_records() -> list[dict]:
    from bench.corpus import default_realdata

    out = []
    for source, name in SOURCES.items():
        for line in (default_realdata() / name).read_text(encoding="utf-8").splitlines():
            r = json.loads(line)
            if source == "kaggle":
                names = [" ".join(x for x in (p[1], p[0], p[2]) if x) for p in r["authors_parsed"]]
                category = r["categories"].split()[0]
            else:
                names, category = r["authors"], r["categories"][0]
            out.append({"source": source, "category": category, "title": one_line(r["title"]),
                        "authors": shown([one_line(n) for n in names]),
                        "abstract": one_line(r.get("summary") or r.get("abstract") or "")})
    return out


def listing_text(records: list[dict], width: int | None = None, hyphens: bool = False) -> str:
    def lines(text: str) -> list[str]:
        return textwrap.wrap(text, width, break_on_hyphens=hyphens, break_long_words=False) if width else [text]

    return "".join(f"#{i:02d}Jul 01, 2026\n{r['category']}\n"
                   + "".join(line + "\n" for f in ("title", "authors", "abstract") for line in lines(r[f]))
                   for i, r in enumerate(records, 1))


def parse(text: str) -> tuple[pl.DataFrame, pl.DataFrame]:
    from transforms.formats import get_format

    lines = text.removesuffix("\n").split("\n")
    frame = pl.DataFrame({"file_idx": [0] * len(lines), "line_no": list(range(1, len(lines) + 1)), "line": lines},
                         schema={"file_idx": pl.Int64, "line_no": pl.Int64, "line": pl.String})
    return get_format("listing").parse(frame)


def by_rank(records: pl.DataFrame) -> dict[int, tuple]:
    return {row[0]: row[1:] for row in records.select("rank", *FIELDS).iter_rows()}


def hyphens_joined(fields: tuple | None) -> tuple | None:
    return fields and tuple(re.sub(r"-\s+", "-", f) for f in fields)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--widths", default="60,72,76,80")
    ap.add_argument("--hyphens", action="store_true")
    ap.add_argument("--show", type=int, default=0)
    args = ap.parse_args(argv)
    records = real_records()
    truth = by_rank(parse(listing_text(records))[0])
    print(f"{len(records):,} records, {len(truth):,} loaded unwrapped")
    for width in (int(w) for w in args.widths.split(",")):
        text = listing_text(records, width, args.hyphens)
        loaded, quarantine = parse(text)
        got = by_rank(loaded)
        unlike = [rank for rank, fields in got.items() if truth.get(rank) != fields]
        shifted = [rank for rank in unlike if hyphens_joined(truth.get(rank)) != hyphens_joined(got[rank])]
        reasons = Counter(quarantine["reason"])
        print(f"width {width}: {len(got):,} loaded, {len(shifted)} shifted, {len(unlike) - len(shifted)} with a"
              f" hyphen and blank joined, {quarantine.height} quarantined {dict(reasons)}")
        for rank in shifted:
            print("  SHIFTED", rank, records[rank - 1]["source"], got[rank], "\n    unwrapped:", truth.get(rank))
        for raw in quarantine["raw_text"].head(args.show):
            print("  ---\n  " + raw.replace("\n", "\n  "))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
