"""Hard-wrapped digests on real-looking text: how many records each parser loads with shifted
fields, and how many it quarantines, when a corpus's files are hard-wrapped.

    .venv/bin/python -m bench.wrapped /tmp/digest-bench/100000-distinct [--files 150] [--widths 60,72,90]

Each file (UTF-8 ones) of the corpus's listing/ and search/ folders is wrapped at each width as a
mail client wraps (greedy, no word cut, no hyphen breaks) and parsed; the loaded records are
compared with the same file's records parsed unwrapped, as a multiset of their fields (listings:
title and names; search pages: area, names and abstract): a record none of the unwrapped ones
equals counts as shifted. (Compared by position, every record after a quarantined one counted.) Run it at an older checkout (`git archive <commit> | tar -x -C
DIR`, then `PYTHONPATH=DIR`) for the figures before a change (README, Performance "Session 19",
"Session 37").
"""

from __future__ import annotations

import argparse
import textwrap
from collections import Counter
from pathlib import Path

import polars as pl

from transforms.formats import get_format


# The fields a wrapped record must keep, by format.
FIELDS = {"listing": ("title", "authors_raw"), "search": ("category_raw", "authors_raw", "abstract")}


def parse(text: str, fmt: str = "listing") -> tuple[pl.DataFrame, pl.DataFrame]:
    lines = text.removesuffix("\n").split("\n")
    frame = pl.DataFrame({"file_idx": [0] * len(lines), "line_no": list(range(1, len(lines) + 1)), "line": lines},
                         schema={"file_idx": pl.Int64, "line_no": pl.Int64, "line": pl.String})
    return get_format(fmt).parse(frame)


def wrap(text: str, width: int) -> str:
    return "\n".join(wrapped for line in text.split("\n")
                     for wrapped in (textwrap.wrap(line, width=width, break_on_hyphens=False, break_long_words=False) or [""]))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus", type=Path, help="a bench.corpus folder (its listing/ files are read)")
    ap.add_argument("--files", type=int, default=150)
    ap.add_argument("--widths", default="60,72,90")
    args = ap.parse_args(argv)
    for fmt, fields in FIELDS.items():
        n_records = n_loaded = n_quarantined = n_shifted = 0
        for path in sorted(p for p in (args.corpus / fmt).rglob("*") if p.is_file())[: args.files]:
            try:
                text = path.read_bytes().decode("utf-8-sig").replace("\r\n", "\n")
            except UnicodeDecodeError:
                continue
            truth = Counter(parse(text, fmt)[0].select(*fields).iter_rows())
            for width in (int(w) for w in args.widths.split(",")):
                records, quarantine = parse(wrap(text, width), fmt)
                n_records += truth.total()
                n_loaded += records.height
                n_quarantined += quarantine.height
                n_shifted += (Counter(records.select(*fields).iter_rows()) - truth).total()
        print(f"{fmt}: {n_records:,} wrapped records: {n_loaded:,} loaded, {n_shifted:,} of them with "
              f"{' or '.join(fields)} unlike the unwrapped parse's; {n_quarantined:,} quarantine rows")


if __name__ == "__main__":
    main()
