"""Seconds of samples per function in a py-spy raw profile: where the README's py-spy figures
come from.

    py-spy record -r 100 -f raw -o load.raw -- .venv/bin/python -m bench.profile /tmp/digest-bench/1000000
    .venv/bin/python -m bench.spy_frames load.raw --rate 100 [--within resolve_near_duplicates] [--top 40]

Inclusive seconds (a function and what it calls) and self seconds, over every thread's samples
(py-spy records the worker threads too, so the sum can exceed the wall time). `--within NAME`
keeps the stacks that pass through a function whose name contains NAME."""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

FRAME = re.compile(r"(?P<name>.*) \((?P<file>[^:()]*):\d+\)$")


def frame_name(frame: str) -> str:
    """'fn (path/to/module.py:12)' -> 'fn (module.py)'."""
    m = FRAME.match(frame)
    return f"{m['name']} ({Path(m['file']).name})" if m else frame


def tally(lines, within: str | None = None) -> tuple[Counter, Counter, int]:
    """(inclusive samples, self samples, total samples) per function."""
    inclusive, own, total = Counter(), Counter(), 0
    for line in lines:
        stack, _, count = line.rstrip("\n").rpartition(" ")
        if not stack or not count.isdigit():
            continue
        names = [frame_name(f) for f in stack.split(";")]
        if within and not any(within in n for n in names):
            continue
        n = int(count)
        total += n
        inclusive.update(dict.fromkeys(names, n))
        own[names[-1]] += n
    return inclusive, own, total


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("raw", type=Path)
    ap.add_argument("--rate", type=float, default=100.0, help="py-spy's samples per second (-r)")
    ap.add_argument("--within")
    ap.add_argument("--top", type=int, default=40)
    args = ap.parse_args(argv)
    with args.raw.open(encoding="utf-8", errors="replace") as f:
        inclusive, own, total = tally(f, args.within)
    print(f"{total / args.rate:,.1f} s of samples")
    for label, counts in (("inclusive", inclusive), ("self", own)):
        print(f"--- {label}")
        for name, n in counts.most_common(args.top):
            print(f"{n / args.rate:8.2f} s  {name}")


if __name__ == "__main__":
    main()
