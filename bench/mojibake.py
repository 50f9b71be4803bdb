"""The mojibake repair (transforms/mojibake.py) on a rendered corpus's real lines:

    .venv/bin/python -m bench.mojibake /tmp/digest-bench/100000 [/tmp/digest-bench/100000-distinct]

For each corpus: its lines (every file decoded as a run decodes it), how many hold the sign,
how many `repair` changes (none should: the corpus holds no mojibake) and its seconds; ftfy's own
test (`is_bad`) over the non-ASCII lines, for comparison; then its non-ASCII lines garbled
through each code page of `CODE_PAGES` (UTF-8 read through it, saved again), in files of
`FILE_LINES` lines, and how many `repair` gives back exactly and how many it changes to anything
else (a wrong repair)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import polars as pl

from transforms.decode import decode_bytes
from transforms.mojibake import CODE_PAGES, SIGN, repair


def lines_of(corpus: Path) -> tuple[pl.Series, pl.Series]:
    """The corpus's lines and the number of the file each is in."""
    lines: list[str] = []
    files: list[int] = []
    for i, path in enumerate(sorted(p for p in corpus.rglob("*") if p.is_file() and p.suffix == ".txt")):
        own = decode_bytes(path.read_bytes()).text.split("\n")
        lines += own
        files += [i] * len(own)
    return pl.Series("line", lines), pl.Series("file", files)


FILE_LINES = 20  # garbled lines are put in files of this many, which decide their ambiguous lines


def main(argv: list[str] | None = None) -> None:
    import ftfy.badness

    for corpus in map(Path, argv if argv is not None else sys.argv[1:]):
        lines, files = lines_of(corpus)
        non_ascii = lines.filter(lines.str.len_bytes() != lines.str.len_chars())
        started = time.perf_counter()
        _, changed = repair(lines, files)
        seconds = time.perf_counter() - started
        started = time.perf_counter()
        n_bad = sum(map(ftfy.badness.is_bad, non_ascii.to_list()))
        print(f"{corpus}: {lines.len():,} lines, {non_ascii.len():,} non-ASCII, "
              f"{non_ascii.str.contains(SIGN).sum():,} with the sign, {changed.sum():,} changed by repair "
              f"in {seconds:.2f} s; ftfy.is_bad over the non-ASCII lines {time.perf_counter() - started:.2f} s "
              f"({n_bad} bad)")
        originals = non_ascii.unique().to_list()
        for code_page in CODE_PAGES:
            pairs = [(t, g) for t in originals if (g := t.encode("utf-8").decode(code_page, "ignore")) != t
                     and g.encode(code_page, "ignore").decode("utf-8", "ignore") == t]
            garbled = pl.Series("line", [g for _, g in pairs])
            back, _ = repair(garbled, pl.int_range(garbled.len(), eager=True) // FILE_LINES)
            n_back = sum(a == b for (a, _), b in zip(pairs, back.to_list()))
            n_wrong = sum(b not in (a, g) for (a, g), b in zip(pairs, back.to_list()))
            print(f"  garbled through {code_page:9s}: {n_back:,} of {len(pairs):,} lines given back exactly, "
                  f"{n_wrong:,} changed wrongly")


if __name__ == "__main__":
    main()
