"""arXiv's own author lines through the pipeline: `python -m eval.arxiv_author_lines [--wrap 72]`.

Another checkout on the same file: `cd /tmp && PYTHONPATH=<checkout> python <this repo>/eval/arxiv_author_lines.py`
(run as a script, `transforms` and `bench.corpus` come from the checkout).

The Kaggle snapshot's records (../shared/realdata) as one listing file, each with its raw
`authors` line as arXiv writes it: affiliations in parentheses ("A. Schekochihin (Oxford)",
"Arthur Jaffe (1) and Gordon Ritter (1) ((1) Harvard University)"), TeX accents ("G\\"ahler"),
all names shown. `--wrap N` hard-wraps every field at N columns, as e-mail does; `--search`
writes one search page instead (no area, the raw line as its names line). The file goes
through `transforms.pipeline.process_batch`; each record comes out right (the names of its
`authors_parsed`, letters compared: "S.A." and "S. A." are one), wrong, or quarantined.
"""

from __future__ import annotations

import argparse
import json
import re
import textwrap
import unicodedata

import polars as pl

KAGGLE = "arxiv_kaggle_oai_snapshot_first200.jsonl"


def kaggle_records() -> list[dict]:
    from bench.corpus import default_realdata

    return [json.loads(line) for line in (default_realdata() / KAGGLE).read_text(encoding="utf-8").splitlines()]


def listing_text(records: list[dict], wrap: int | None = None) -> str:
    """One listing file of the records, each field one line (or wrapped at `wrap` columns)."""
    def field(text: str) -> str:
        one_line = " ".join(text.split())
        return textwrap.fill(one_line, wrap) if wrap else one_line

    return "".join(f"#{i + 1:02d}Oct 26, 2026\n{r['categories'].split()[0]}\n{field(r['title'])}\n"
                   f"{field(r['authors'])}\n{field(r['abstract'])}\n" for i, r in enumerate(records))


def search_text(records: list[dict]) -> str:
    """One search page of the records: each its raw authors line and its abstract, one line each
    (record i's names on line 3 + 4 i)."""
    def one_line(text: str) -> str:
        return " ".join(text.split())

    return "论文检索\n\n" + "\n\n".join(f"{one_line(r['authors'])}\n\n{one_line(r['abstract'])}" for r in records) + "\n"


def parsed_names(record: dict) -> list[str]:
    return [" ".join(x for x in (a[1], a[0], a[2]) if x) for a in record["authors_parsed"]]


def letters(person: str) -> str:
    return re.sub(r"[^a-z]", "", unicodedata.normalize("NFKD", person).encode("ascii", "ignore").decode().lower())


def scored(records: list[dict], authors_by_position: dict[int, list[str]]) -> dict[str, list[int]]:
    """Positions (1-based) of the records loaded right, loaded wrong, and not loaded."""
    out: dict[str, list[int]] = {"right": [], "wrong": [], "quarantined": []}
    for position, record in enumerate(records, 1):
        got = authors_by_position.get(position)
        kind = ("quarantined" if got is None else
                "right" if [letters(n) for n in got] == [letters(n) for n in parsed_names(record)] else "wrong")
        out[kind].append(position)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--wrap", type=int, default=None)
    ap.add_argument("--search", action="store_true", help="one search page, not a listing")
    args = ap.parse_args(argv)
    from transforms.pipeline import SourceFile, process_batch

    records = kaggle_records()
    text = search_text(records) if args.search else listing_text(records, args.wrap)
    result = process_batch([SourceFile(1, "kaggle.txt", text.encode("utf-8"))])
    if args.search:  # by line: a quarantined record takes no position
        got = dict(result.listings.select((pl.col("line_start") - 3) // 4 + 1, "authors").iter_rows())
    else:
        got = dict(result.listings.select("position", "authors").iter_rows())
    outcome = scored(records, got)
    shape = ", one search page" if args.search else f", wrapped at {args.wrap}" if args.wrap else ""
    print(f"{len(records)} records{shape}: "
          + ", ".join(f"{len(v)} {k}" for k, v in outcome.items()))
    for position in outcome["wrong"][:5]:
        print("  wrong:", records[position - 1]["authors"][:100], "->", got[position][:6])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
