"""Two costs of the parse tasks, each measured the old way and the current way on one corpus:

* reading: `read(limit + 1)` (which allocates the 1 GiB limit before it reads) against
  `flows.extract._read_at_most` (the size first, then pieces), on plain files and on the same
  files gzipped in memory;
* decoding: the quoted-printable header and HTML patterns of `transforms.decode` searched in each
  file's head as they were, against the same searches behind their case-free hints;
* format detection: every format's first record looked for in the whole text (as it was), against
  `transforms.formats.detect_format` (the file's head first);
* the scan for a UTF-16 BOM past a file's start (`transforms.decode._concatenated`): two 2-byte
  searches over every file (as it was), against a one-byte search for 0xFF first.

    .venv/bin/python -m bench.read_decode /tmp/digest-bench/1000000 [--files 3000]

Each is timed on one thread, then reading on two threads (as the parse tasks run)."""

from __future__ import annotations

import argparse
import codecs
import gzip
import io
import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from flows.extract import ReadLimits, _read_at_most
from transforms import decode, formats

LIMIT = ReadLimits().max_file_bytes


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--files", type=int, default=3000)
    args = ap.parse_args(argv)
    every = sorted(p for p in args.corpus.rglob("*") if p.is_file() and p.suffix == ".txt")
    files = every[:: max(1, len(every) // args.files)][: args.files]  # spread over both formats' folders
    packed = [gzip.compress(p.read_bytes(), compresslevel=1) for p in files]
    print(f"{len(files):,} files, {sum(p.stat().st_size for p in files) / 1e6:,.0f} MB")

    def plain_old(path: Path) -> int:
        with path.open("rb") as handle:
            return len(handle.read(LIMIT + 1))

    def plain_new(path: Path) -> int:
        with path.open("rb") as handle:
            return len(_read_at_most(handle, LIMIT, os.fstat(handle.fileno()).st_size))

    def gz_old(data: bytes) -> int:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
            return len(stream.read(LIMIT + 1))

    def gz_new(data: bytes) -> int:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
            return len(_read_at_most(stream, LIMIT, 4 * len(data)))

    for label, fn, items in [("plain read(limit + 1)", plain_old, files), ("plain _read_at_most", plain_new, files),
                             ("gzip read(limit + 1)", gz_old, packed), ("gzip _read_at_most", gz_new, packed)]:
        started = time.perf_counter()
        n = sum(map(fn, items))
        one = time.perf_counter() - started
        started = time.perf_counter()
        with ThreadPoolExecutor(2) as pool:
            assert sum(pool.map(fn, items)) == n
        print(f"{label:24s} one thread {one:5.2f} s   two threads {time.perf_counter() - started:5.2f} s")

    raws = [p.read_bytes() for p in files]
    boms = {
        "two 2-byte finds (as it was)": lambda raw: raw.find(codecs.BOM_UTF16_LE, 1) >= 0 or raw.find(codecs.BOM_UTF16_BE, 1) >= 0,
        "0xFF first (_utf16_bom_later)": decode._utf16_bom_later,
    }
    for label, scan in boms.items():
        started = time.perf_counter()
        found = sum(map(scan, raws))
        print(f"BOM scan: {label:28s} {time.perf_counter() - started:5.3f} s   ({found} files with a later UTF-16 BOM)")

    heads = [decode.decode_bytes(raw).text[: decode._HEAD] for raw in raws]
    searches = {
        "patterns as they were": lambda h: (decode._QP_HEADER.pattern.search(h), decode._HTML.pattern.search(h)),
        "behind the hints": lambda h: (decode._QP_HEADER.search(h), decode._HTML.search(h)),
    }
    for label, search in searches.items():
        started = time.perf_counter()
        found = sum(bool(a) + bool(b) for a, b in map(search, heads))
        print(f"decode: {label:22s} {time.perf_counter() - started:5.2f} s   ({found} matches)")

    texts = [decode.decode_bytes(p.read_bytes()).text for p in files]
    for label, detect in (("whole text", lambda t: formats._first(t) or formats.UNKNOWN), ("head first", formats.detect_format)):
        started = time.perf_counter()
        kinds = [detect(t) for t in texts]
        print(f"detect: {label:22s} {time.perf_counter() - started:5.2f} s   ({kinds.count('listing')} listing, "
              f"{kinds.count('search')} search)")


if __name__ == "__main__":
    main()
