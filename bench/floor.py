"""The floor: DuckDB's own line scan of the corpus files, the least work any pipeline must do.

Every line of every file becomes one VARCHAR value (``read_csv`` with one column, a delimiter
byte that never occurs, no quoting, no header, no sniffing) and is counted. Nothing is parsed,
cleaned, matched or written: a real pipeline must at least read and decode every byte.

Encodings: ``read_csv`` reads UTF-8 (with or without BOM) and UTF-16 natively (the latter with
``encoding='utf-16'``), but it has no GB18030 decoder (that needs DuckDB's ``encodings``
extension, which cannot be installed offline) and rejects such files as invalid UTF-8. So the
floor sniffs each file's head (BOM, then UTF-8 validity), scans each encoding group in one
``read_csv`` call, and decodes the GB18030 files with Python's codec and counts their lines.
The sniff and the fallback are timed as part of the floor: any pipeline has to do them too.
A file that still fails in DuckDB falls back to the Python decode, so no file is left out; the
JSON says how many bytes went through each path.

    python -m bench.floor DIR [DIR ...]        # prints one JSON object
"""

from __future__ import annotations

import argparse
import codecs
import json
import sys
import time
from pathlib import Path

import duckdb

SNIFF_BYTES = 64 * 1024
# Byte used as the column delimiter: ASCII SOH never occurs in digest text.
NO_DELIMITER = "\\x01"


def corpus_files(roots: list[Path]) -> list[Path]:
    """Every regular, non-hidden file under the roots (what `digest ingest` would read)."""
    files = []
    for root in roots:
        for path in sorted(root.rglob("*")):
            if path.is_file() and not any(p.startswith(".") for p in path.relative_to(root).parts):
                files.append(path)
    return files


def sniff_encoding(path: Path) -> str:
    """'utf-16', 'utf-8' (BOM or not) or 'gb18030' from the file's first bytes."""
    with path.open("rb") as f:
        head = f.read(SNIFF_BYTES)
    if head.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    try:  # an incremental decoder tolerates a character cut at the end of the head
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
        return "utf-8"
    except UnicodeDecodeError:
        return "gb18030"


def scan_lines(con: duckdb.DuckDBPyConnection, paths: list[Path], encoding: str) -> int:
    """Number of lines DuckDB reads from the files, one VARCHAR value per line (their lengths
    are summed too, so every value is really materialised, not only counted)."""
    listed = "[" + ", ".join("'" + str(p).replace("'", "''") + "'" for p in paths) + "]"
    query = (
        f"SELECT count(*), sum(strlen(line)) FROM read_csv({listed}, columns={{'line': 'VARCHAR'}}, delim=E'{NO_DELIMITER}',"
        f" quote='', escape='', header=false, auto_detect=false, encoding='{encoding}')"
    )
    return con.execute(query).fetchall()[0][0]


def python_lines(paths: list[Path], encoding: str) -> int:
    """The fallback: decode with Python's codec and split into lines."""
    return sum(len(p.read_bytes().decode(encoding).splitlines()) for p in paths)


def measure_floor(roots: list[Path], threads: int | None = None) -> dict:
    started = time.perf_counter()
    con = duckdb.connect()
    if threads:
        con.execute(f"SET threads = {int(threads)}")
    files = corpus_files(roots)
    groups: dict[str, list[Path]] = {}
    for path in files:
        groups.setdefault(sniff_encoding(path), []).append(path)
    sniffed = time.perf_counter()

    report: dict[str, dict] = {}
    for encoding, paths in sorted(groups.items()):
        begun = time.perf_counter()
        if encoding == "gb18030":
            lines, engine = python_lines(paths, encoding), "python-codec"
        else:
            try:
                lines, engine = scan_lines(con, paths, encoding), "duckdb-read_csv"
            except duckdb.Error:
                lines, engine = _scan_one_by_one(con, paths, encoding), "duckdb-read_csv+python-fallback"
        report[encoding] = {
            "engine": engine,
            "files": len(paths),
            "bytes": sum(p.stat().st_size for p in paths),
            "lines": lines,
            "seconds": round(time.perf_counter() - begun, 4),
        }
    n_threads = con.execute("SELECT current_setting('threads')").fetchall()[0][0]
    con.close()
    return {
        "seconds": round(time.perf_counter() - started, 4),
        "sniff_seconds": round(sniffed - started, 4),
        "files": len(files),
        "bytes": sum(g["bytes"] for g in report.values()),
        "lines": sum(g["lines"] for g in report.values()),
        "threads": n_threads,
        "by_encoding": report,
    }


def _scan_one_by_one(con: duckdb.DuckDBPyConnection, paths: list[Path], encoding: str) -> int:
    total = 0
    for path in paths:
        try:
            total += scan_lines(con, [path], encoding)
        except duckdb.Error:
            total += python_lines([path], "gb18030" if encoding == "utf-8" else encoding)
    return total


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.floor", description=__doc__.split("\n\n")[0])
    ap.add_argument("roots", nargs="+", type=Path)
    ap.add_argument("--threads", type=int, default=None, help="DuckDB threads (default: all cores)")
    args = ap.parse_args(argv)
    print(json.dumps(measure_floor(args.roots, args.threads)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
