"""Extract: find digest files, read their bytes, and skip what the warehouse already holds."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from transforms.ids import with_stable_ids
from transforms.pipeline import SourceFile

# Warehouse files (the published file, its WAL, lock and half-built copy) and exports.
SKIP_SUFFIXES = (".duckdb", ".wal", ".tmp", ".parquet", ".lock", ".building")
# Why a found file was not read (skipped_file.reason starts with one of these).
VANISHED, CANNOT_READ = "vanished before it could be read", "cannot be read"


@dataclass(frozen=True)
class FoundFile:
    abs_path: str
    path: str  # relative to the ingest root, posix separators
    size_bytes: int
    mtime_ns: int


def ingest_root(paths: list[Path]) -> Path:
    """The folder paths are recorded against: the common parent of the folders asked for, so
    recorded paths start with the folder's own name ("samples/000.txt") and a file is recorded
    the same whether its folder or the file itself was named."""
    folders = [p.absolute() if p.is_dir() else p.absolute().parent for p in paths]
    return Path(os.path.commonpath([f.parent for f in folders])) if folders else Path.cwd()


def discover(paths: list[Path], root: Path | None = None) -> tuple[Path, list[FoundFile]]:
    """Every file under `paths` (recursively), sorted by relative path. Hidden files and
    warehouse files are left alone; symlinks are followed wherever they point (a dangling one
    is found, and reported unreadable when read). A path that does not exist is an error."""
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise FileNotFoundError(f"no such file or folder: {', '.join(missing)}")
    root = (root or ingest_root(paths)).absolute()
    outside = [str(p) for p in paths if not p.absolute().is_relative_to(root)]
    if outside:
        raise ValueError(f"not under the ingest root {root}: {', '.join(outside)}")
    found: dict[str, FoundFile] = {}
    for start in paths:
        candidates = [start] if start.is_file() else sorted(start.rglob("*"))
        for file in candidates:
            rel = _display_path(file.absolute().relative_to(root))
            if file.is_dir() or _ignored(rel):
                continue
            try:
                stat = file.stat()
                size, mtime = stat.st_size, stat.st_mtime_ns
            except FileNotFoundError:  # a dangling symlink, or gone already: read() will say so
                size, mtime = 0, 0
            found[rel] = FoundFile(str(file.absolute()), rel, size, mtime)
    return root, [found[k] for k in sorted(found)]


def _display_path(rel: Path) -> str:
    """Posix path as valid text: bytes of a non-UTF-8 file name are shown as \\xNN escapes."""
    return rel.as_posix().encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _ignored(rel: str) -> bool:
    return any(part.startswith(".") for part in rel.split("/")) or rel.endswith(SKIP_SUFFIXES)


def unchanged(found: list[FoundFile], known: pl.DataFrame) -> set[str]:
    """Paths whose size and mtime match an ingested version: skipped unread, as rsync does."""
    seen = {(p, s, m) for p, s, m in known.select("path", "size_bytes", "mtime_ns").iter_rows()}
    return {f.path for f in found if (f.path, f.size_bytes, f.mtime_ns) in seen}


def plan_batches(found: list[FoundFile], batch_bytes: int) -> list[list[FoundFile]]:
    """Consecutive files grouped into batches of about `batch_bytes` (at least one file each)."""
    batches: list[list[FoundFile]] = []
    size = batch_bytes
    for f in found:
        if size >= batch_bytes:
            batches.append([])
            size = 0
        batches[-1].append(f)
        size += max(f.size_bytes, 1)
    return batches


SKIPPED_SCHEMA = {"path": pl.String, "reason": pl.String}


def read_sources(batch: list[FoundFile]) -> tuple[list[SourceFile], pl.DataFrame, pl.DataFrame]:
    """Bytes of each readable file, its metadata (source_file_id, path, sha256, size_bytes,
    mtime_ns), and the files that could not be read (path, reason).

    A file that vanished since discovery or may not be read is skipped with its reason; other
    I/O errors propagate, so the task's retries can try again.
    """
    data, readable, skipped = [], [], []
    for f in batch:
        try:
            with Path(f.abs_path).open("rb") as handle:
                data.append(handle.read())
                stat = os.fstat(handle.fileno())  # of what was read, not of what was found
            readable.append(FoundFile(f.abs_path, f.path, stat.st_size, stat.st_mtime_ns))
        except FileNotFoundError:
            skipped.append({"path": f.path, "reason": VANISHED})
        except (PermissionError, IsADirectoryError) as err:
            skipped.append({"path": f.path, "reason": f"{CANNOT_READ}: {err.strerror or err}"})
    meta = pl.DataFrame({
        "path": [f.path for f in readable],
        "sha256": [hashlib.sha256(d).hexdigest() for d in data],
        "size_bytes": [len(d) for d in data],
        "mtime_ns": [f.mtime_ns for f in readable],
    }, schema={"path": pl.String, "sha256": pl.String, "size_bytes": pl.Int64, "mtime_ns": pl.Int64})
    meta = with_stable_ids(meta, {"source_file_id": ["path", "sha256"]})
    sources = [SourceFile(fid, f.path, d) for f, d, fid in zip(readable, data, meta["source_file_id"])]
    return sources, meta, pl.DataFrame(skipped, schema=SKIPPED_SCHEMA)
