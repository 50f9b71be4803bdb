"""A corpus of many small files, and what reading them costs with the parse tasks side by side.

    .venv/bin/python -m bench.many_files make /tmp/digest-bench/100000 /tmp/digest-bench/100000-tiny
    .venv/bin/python -m bench.many_files reads /tmp/digest-bench/100000-tiny [--batches 4] [--turn-bytes N]

`make`: the records of a `bench.corpus` folder, one per file (a scraper that saves each paper it
sees): each file of both formats is parsed (`transforms.pipeline.process_batch`) and the lines of
each of its records are written to a file of their own, as UTF-8, a search page's record under
the page's marker line. The same record on two days makes two files; the same record twice on a
search page makes two identical files, which `digest ingest` loads once (skipped_file: "already
ingested"), so its counts are not the corpus's answer.

`reads`: `flows.extract.read_sources` of --batches planned batches (as the flow plans them), one
after the other, then all at once on as many threads (as the parse tasks run); run it from two
checkouts to compare them. --turn-bytes sets how much a task reads in one turn of the reading lock
(`extract.READ_SPELL`; 0: the lock is taken for each file)."""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from flows import extract
from flows.settings import Settings
from transforms.decode import decode_bytes
from transforms.formats import search
from transforms.pipeline import SourceFile, process_batch


def make(source: Path, target: Path) -> None:
    n_files = 0
    for fmt in ("listing", "search"):
        for path in sorted((source / fmt).rglob("*.txt")):
            data = path.read_bytes()
            parsed = process_batch([SourceFile(1, str(path), data)])
            lines = decode_bytes(data).text.split("\n")  # the lines the parser numbered
            head = search.MARKER + "\n\n" if fmt == "search" else ""
            folder = target / path.relative_to(source).parent
            folder.mkdir(parents=True, exist_ok=True)
            for position, start, end in parsed.listings.select("position", "line_start", "line_end").iter_rows():
                record = "\n".join(lines[start - 1:end])
                (folder / f"{path.stem}_{position:04d}.txt").write_text(head + record + "\n", encoding="utf-8")
                n_files += 1
    print(f"{n_files:,} files of one record each in {target}")


def reads(folder: Path, n_batches: int, turn_bytes: int | None) -> None:
    if turn_bytes is not None:
        extract.READ_SPELL = turn_bytes
    _, found = extract.discover([folder])
    batches = extract.plan_batches(extract.sized(found), Settings().batch_bytes)[:n_batches]
    limits = extract.ReadLimits(Settings().max_file_bytes)
    n_files = sum(map(len, batches))

    def read(batch: list[extract.FoundFile]) -> float:
        started = time.perf_counter()
        extract.read_sources(batch, limits)
        return time.perf_counter() - started

    read(batches[0])  # imports, the page cache
    alone = [read(b) for b in batches]
    started = time.perf_counter()
    with ThreadPoolExecutor(len(batches)) as pool:
        together = list(pool.map(read, batches))
    wall = time.perf_counter() - started
    turn = getattr(extract, "READ_SPELL", None)  # None: a checkout without the reading lock
    print(f"{'no reading lock' if turn is None else f'turn {turn:,} bytes'}; {len(batches)} batches, "
          f"{n_files:,} files: one after the other {sum(alone):.2f} s "
          f"({', '.join(f'{s:.2f}' for s in alone)}); at once {wall:.2f} s "
          f"(each {', '.join(f'{s:.2f}' for s in together)})")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    mk = sub.add_parser("make")
    mk.add_argument("source", type=Path)
    mk.add_argument("target", type=Path)
    rd = sub.add_parser("reads")
    rd.add_argument("folder", type=Path)
    rd.add_argument("--batches", type=int, default=4)
    rd.add_argument("--turn-bytes", type=int, default=None)
    args = ap.parse_args(argv)
    if args.command == "make":
        make(args.source, args.target)
    else:
        reads(args.folder, args.batches, args.turn_bytes)


if __name__ == "__main__":
    main()
