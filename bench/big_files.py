"""A corpus of a few large files, and what parsing holds in memory per byte of its input.

    .venv/bin/python -m bench.big_files make /tmp/digest-bench/1000000 /tmp/digest-bench/1000000-big --file-mb 116
    .venv/bin/python -m bench.big_files memory FILE... [--rounds 2]

`make`: the same listings as a corpus of `bench.corpus`, its listing files (or with --format
search its search pages) joined into files of about --file-mb each (an archive kept as monthly files rather than one per digest), each part
decoded with its own encoding and written as UTF-8 (joining the bytes of a UTF-16 file into a
UTF-8 one would make a mixed-encoding file: another test). The other format is copied as it is;
the known answer (answer.parquet) still holds, so `bench.run`-style counts can be checked.

`memory`: each file parsed alone by `transforms.pipeline.process_batch` (as one parse task),
in a fresh process after a warm-up parse of the bundled samples (imports, compiled patterns),
with RSS sampled every 10 ms: the peak over the RSS before, per byte and per line of the file, and
what is still held after (the result, and what the allocator keeps), --rounds times each.
`flows.settings.PARSE_BYTES_PER_BYTE`, `PARSE_BYTES_PER_LINE` and `PARSE_BYTES_PER_INPUT_BYTE`
rest on these figures.

`shapes`: files of short lines made from the bundled samples' records, --lines lines each (hunt
45: what parsing holds grows with lines, not bytes): line ends alone (LF and CRLF) before a record,
one letter a line (no format), one-letter lines after a record and after a search page's block,
records and search blocks of one-word fields, and record headers alone."""

from __future__ import annotations

import argparse
import gc
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import polars as pl
import psutil

MB = 1_000_000
SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"


def make(source: Path, target: Path, file_mb: float, fmt: str = "listing") -> None:
    other = "search" if fmt == "listing" else "listing"
    files = pl.read_parquet(source / "files.parquet").filter(pl.col("format") == fmt).sort("path")
    (target / fmt).mkdir(parents=True, exist_ok=True)
    for name in (other, "answer.parquet", "papers.parquet", "summary.json"):
        if (source / name).is_dir():
            shutil.copytree(source / name, target / name, dirs_exist_ok=True)
        elif (source / name).exists():
            shutil.copy2(source / name, target / name)
    parts: list[list[tuple[str, str]]] = [[]]
    size = 0
    for path, encoding, n_bytes in files.select("path", "encoding", "bytes").iter_rows():
        if size >= file_mb * MB:
            parts.append([])
            size = 0
        parts[-1].append((path, encoding))
        size += n_bytes
    end = "\n" if fmt == "listing" else "\n\n"  # search pages: a blank line between records
    for part, members in enumerate(parts):
        with open(target / fmt / f"part{part:04d}.txt", "w", encoding="utf-8") as out:
            for path, encoding in members:
                out.write((source / path).read_bytes().decode(encoding).replace("\r\n", "\n").rstrip("\n") + end)
    print(f"{len(parts)} {fmt} files of ~{file_mb:g} MB in {target / fmt}, {other} files copied")


def memory(paths: list[Path], rounds: int) -> None:
    """Each file in a fresh process, `rounds` times: memory the allocator kept from an earlier
    parse would hide what the next one needs."""
    for round_no in range(1, rounds + 1):
        for path in paths:
            subprocess.run([sys.executable, "-m", "bench.big_files", "one", str(path), "--round", str(round_no)],
                           check=True)


def one(path: Path, round_no: int) -> None:
    from transforms.pipeline import SourceFile, process_batch

    proc, peak = psutil.Process(), [0]

    def sample() -> None:
        while True:
            peak[0] = max(peak[0], proc.memory_info().rss)
            time.sleep(0.01)

    threading.Thread(target=sample, daemon=True).start()
    warm_up = [SourceFile(i, str(p), p.read_bytes()) for i, p in enumerate(sorted(SAMPLES.glob("*.txt")))]
    process_batch(warm_up)  # imports, compiled patterns, Polars' pools: not the file's
    data = path.read_bytes()
    gc.collect()
    time.sleep(0.05)
    before = peak[0] = proc.memory_info().rss
    started = time.perf_counter()
    result = process_batch([SourceFile(1, str(path), data)])
    seconds = time.perf_counter() - started
    time.sleep(0.05)
    grew, held = peak[0] - before, proc.memory_info().rss - before
    n_lines = result.files["n_lines"].sum()
    print(f"round {round_no}  {path.name}: {len(data) / MB:,.1f} MB, {n_lines:,} lines, {result.listings.height:,} "
          f"listings, {seconds:.1f} s; peak +{grew / MB:,.0f} MB ({grew / len(data):.1f} x its size, "
          f"{grew / max(n_lines, 1):,.0f} a line), held after +{held / MB:,.0f} MB", flush=True)


def shapes(target: Path, n_lines: int) -> None:
    """The files of short lines (module docstring) in `target`, named after their shape."""
    listing = (SAMPLES / "000_2fe0bc6f923800c6.txt").read_text(encoding="utf-8")
    record = "\n".join(listing.split("\n")[:5]) + "\n"
    page = (SAMPLES / "003_da0255890f613690.txt").read_text(encoding="utf-8")
    block = "\n".join(page.split("\n")[:7]) + "\n"  # the marker and one block
    target.mkdir(parents=True, exist_ok=True)
    files = {
        "line_ends": "\n" * n_lines + record,
        "crlf_line_ends": ("\n" * n_lines + record).replace("\n", "\r\n"),
        "letters": "a\n" * n_lines,
        "record_then_letters": record + "a\n" * n_lines,
        "page_then_letters": block + "\nb\n" * (n_lines // 2),
        "one_word_records": "".join(f"#{i % 1000 + 1:02d}Oct 26, 2026\ncs.LG\nT{i}\nA B\nX{i}.\n"
                                    for i in range(n_lines // 5)),
        "one_word_blocks": block.split("\n")[0] + "\n\n" + "".join(f"A B\n\nX{i}.\n\n" for i in range(n_lines // 4)),
        "headers_alone": "#01Oct 26, 2026\n" * n_lines,
    }
    for name, text in files.items():
        (target / f"{name}_{n_lines}.txt").write_bytes(text.encode("utf-8"))
    print(f"{len(files)} files of ~{n_lines:,} lines in {target}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)
    mk = sub.add_parser("make")
    mk.add_argument("source", type=Path)
    mk.add_argument("target", type=Path)
    mk.add_argument("--file-mb", type=float, default=116.0)
    mk.add_argument("--format", choices=("listing", "search"), default="listing", help="whose files are joined")
    mem = sub.add_parser("memory")
    mem.add_argument("files", type=Path, nargs="+")
    mem.add_argument("--rounds", type=int, default=2)
    sh = sub.add_parser("shapes")
    sh.add_argument("target", type=Path)
    sh.add_argument("--lines", type=int, default=1_000_000)
    single = sub.add_parser("one")  # memory's child: one file
    single.add_argument("file", type=Path)
    single.add_argument("--round", type=int, default=1)
    args = ap.parse_args(argv)
    if args.command == "make":
        make(args.source, args.target, args.file_mb, args.format)
    elif args.command == "memory":
        memory(args.files, args.rounds)
    elif args.command == "shapes":
        shapes(args.target, args.lines)
    else:
        one(args.file, args.round)


if __name__ == "__main__":
    main()
