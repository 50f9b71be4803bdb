"""Extract: find digest files, read their bytes, and skip what the warehouse already holds.

Discovery walks the folders it is given (symlinked sub-folders included, each real folder once)
and reads nothing: it only looks at each entry. Everything found that will not be read (a FIFO,
a socket, a device, a symlink loop or a dangling link, a link to outside the ingest root, a file
over the size limit) is kept with its reason, so it lands in `skipped_file` instead of vanishing.
Reading opens regular files only and never reads more than the size limit plus one byte.
Packaged digests (.gz, .bz2, .xz, .zip, .tar and their blends: .tgz, .tar.gz, a zip of .gz
files) are unpacked in memory, within the same limit in all: each member is a source file of its
own, recorded as `<archive path>!/<member name>` (`!/` again for each level of nesting). What is
packed is told by the bytes (a gzip file named .txt is unpacked) or else by the name.
"""

from __future__ import annotations

import bz2
import errno
import gzip
import hashlib
import io
import lzma
import os
import stat
import tarfile
import threading
import zipfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from flows.settings import PARSE_BYTES_PER_INPUT_BYTE

if TYPE_CHECKING:  # transforms.pipeline (the parsers, Pandera, pandas) loads when files are read
    import duckdb
    import polars as pl

    from transforms.pipeline import SourceFile
# Polars (and transforms.ids) load when files are read too: discovery and the fingerprint check
# of a run with nothing new need neither (issue 15, fixed cost).

# Warehouse files (the published file, its WAL, lock and half-built copy) and exports.
SKIP_SUFFIXES = (".duckdb", ".wal", ".tmp", ".parquet", ".lock", ".building")
# Why a found file was not read (skipped_file.reason starts with one of these).
VANISHED, CANNOT_READ = "vanished before it could be read", "cannot be read"
MEMBER_SEPARATOR = "!/"  # "2026-10.zip!/daily-26.txt": a member of a packaged digest
_KINDS = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISDIR, "a folder"))


@dataclass(frozen=True)
class FoundFile:
    abs_path: str
    path: str  # relative to the ingest root, posix separators
    size_bytes: int
    mtime_ns: int
    ctime_ns: int = 0  # with the inode, tells a rewrite that kept size and mtime (ctime cannot be set)
    inode: int = 0
    skip_reason: str | None = None  # found, but not to be read (skipped_file.reason)
    unpacked_bytes: int | None = None  # a packed file's text once unpacked, when `sized` looked (else its size)
    location: str | None = None  # where it is on disk, every link resolved (`location`): the file's identity
    other_file: str | None = None  # its path's current version is another file, still there (`other_files`)

    def member_location(self) -> str | None:
        """The location of what `path` names: an archive member's is its archive's, with the member's part."""
        if self.location is None:
            return None
        _, separator, member = self.path.partition(MEMBER_SEPARATOR)
        return self.location + separator + member

    @property
    def text_bytes(self) -> int:
        """The bytes of text it holds, as far as is known: what parsing and batches are sized by."""
        return self.size_bytes if self.unpacked_bytes is None else self.unpacked_bytes


class FileBatch:
    """The files of one parse task, as one opaque value: Prefect walks a task's arguments that
    are lists or dataclasses item by item, twice (for upstream futures, then to resolve them),
    ~0.1 ms a file each time. A batch of 10,000 small files spent longer there than in its parse
    (part of the gain README's Session 25 measures with `bench.settings_ab` on 100,000 one-record
    files). Not prefect's `quote`: a quoted list comes back from a pickle (the Dask runner)
    wrapped once more."""

    __slots__ = ("files",)

    def __init__(self, files: list[FoundFile]) -> None:
        self.files = files


@dataclass(frozen=True)
class ReadLimits:
    max_file_bytes: int = 1 << 30  # no file (or unpacked archive) is read beyond this
    follow_outside_root: bool = False  # read symlinks whose target is outside the ingest root


def ingest_root(paths: list[Path]) -> Path:
    """The folder paths are recorded against: the common parent of the folders asked for, so
    recorded paths start with the folder's own name ("samples/000.txt"). Naming a sub-folder or
    the parent gives another relative path: a file already in the warehouse is known by its
    `location` instead, and keeps the path it was first recorded under (`identified`)."""
    folders = [p.absolute() if p.is_dir() else p.absolute().parent for p in paths]
    return Path(os.path.commonpath([f.parent for f in folders])) if folders else Path.cwd()


def discover(paths: list[Path], root: Path | None = None, limits: ReadLimits = ReadLimits(),
             exclude: set[tuple[int, int]] = frozenset()) -> tuple[Path, list[FoundFile]]:
    """Every file under `paths` (recursively), sorted by relative path, unread. What the user
    names is walked even when hidden; hidden entries inside it and warehouse files are left
    alone, and so is any file whose (st_dev, st_ino) is in `exclude` (the warehouse's own
    files, whatever their names). A path that does not exist is an error."""
    missing = [str(p) for p in paths if not os.path.lexists(p)]
    if missing:
        raise FileNotFoundError(f"no such file or folder: {some(missing)}")
    root = (root or ingest_root(paths)).absolute()
    outside = [str(p) for p in paths if not p.absolute().is_relative_to(root)]
    if outside:
        raise ValueError(f"not under the ingest root {root}: {some(outside)}")
    # Links may point anywhere under what the user named, nowhere else (not even elsewhere in
    # the root, which is only the parent the paths are recorded against).
    trusted = {Path(os.path.realpath(p)) for p in paths}
    walk = _Walk(root, trusted, limits, set(exclude))
    for start in paths:
        walk.entry(start.absolute(), named=True)
    return root, [walk.found[k] for k in sorted(walk.found)]


def some(names: list[str], shown: int = 3) -> str:
    """The first names and how many more: a message naming each path of a glob was megabytes."""
    listed = ", ".join(str(name) for name in names[:shown])
    return f"{listed} and {len(names) - shown:,} more" if len(names) > shown else listed


class _Walk:
    """The walk of `discover`. Below the paths named it works on strings and `os.scandir`
    entries, not Path objects: a Path per file (joined, made relative, stat'ed and lstat'ed
    through pathlib) cost ~50 us, 6.4 s for the 129,562 files of a 10M-listing corpus."""

    def __init__(self, root: Path, trusted: set[Path], limits: ReadLimits, exclude: set[tuple[int, int]]):
        self.root, self.trusted, self.limits, self.exclude = root, trusted, limits, exclude
        self.found: dict[str, FoundFile] = {}
        self.real_folders: dict[str, str] = {}  # folder as walked -> its real path: one realpath a folder
        self.visited: set[tuple[int, int]] = set()  # real folders walked: loop protection

    def entry(self, path: Path, named: bool = False) -> None:
        if not _ignored(path.name, named):
            self.visit(str(path), display_path(path.relative_to(self.root)), path.is_symlink())

    def visit(self, path: str, rel: str, is_link: bool) -> None:
        """Depth first, folders' entries in order, on a stack of its own: a walk that called
        itself for each folder failed a run on a tree ~500 folders deep (Python's recursion
        limit: "maximum recursion depth exceeded")."""
        pending = [(path, rel, is_link)]
        while pending:
            pending += reversed(self._look(*pending.pop()))  # the first entry on top

    def _look(self, path: str, rel: str, is_link: bool) -> list[tuple[str, str, bool]]:
        """One entry: a file found, or skipped with its reason; a folder's entries to look at."""
        reason = self._link_problem(Path(path)) if is_link else None
        if reason:
            self.skip(path, rel, reason)
            return []
        try:
            st = os.stat(path)
        except OSError as err:  # vanished, or no permission to look
            self.skip(path, rel, f"{CANNOT_READ}: {err.strerror or err}")
            return []
        if (st.st_dev, st.st_ino) in self.exclude:
            return []
        if stat.S_ISDIR(st.st_mode):
            return self.folder(path, rel, st)
        if not stat.S_ISREG(st.st_mode):
            self.skip(path, rel, f"{CANNOT_READ}: {_kind(st.st_mode)}, not a regular file")
        elif st.st_size > self.limits.max_file_bytes:
            self.skip(path, rel, _too_large(self.limits))
        else:
            self.found[rel] = FoundFile(path, rel, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino,
                                        location=self._location(path, is_link))
        return []

    def _location(self, path: str, is_link: bool) -> str:
        """`location` of a file found at `path`, resolving each folder once (a realpath is a
        system call per part of the path)."""
        if is_link:
            return location(path)
        folder, name = os.path.split(path)
        if folder not in self.real_folders:
            self.real_folders[folder] = os.path.realpath(folder)
        return _display_name(os.path.join(self.real_folders[folder], name))

    def folder(self, path: str, rel: str, st: os.stat_result) -> list[tuple[str, str, bool]]:
        if (st.st_dev, st.st_ino) in self.visited:
            self.skip(path, rel, f"{CANNOT_READ}: a link to a folder already read (a loop or a second name)")
            return []
        self.visited.add((st.st_dev, st.st_ino))
        try:
            with os.scandir(path) as found:
                children = [(_is_link(e), e.name, e.path) for e in found if not _ignored(e.name, False)]
        except OSError as err:
            self.skip(path, rel, f"{CANNOT_READ}: {err.strerror or err}")
            return []
        # Real entries before links, so a folder reached both ways is read under its own name.
        prefix = "" if rel == "." else (rel + "/").replace(MEMBER_SEPARATOR, "\\x21/")  # rel is shown already
        return [(child, prefix + _display_name(name), is_link) for is_link, name, child in sorted(children)]

    def _link_problem(self, path: Path) -> str | None:
        """Why a symlink is not followed, if it is not: a loop, dangling, or leading outside."""
        try:
            target = path.resolve(strict=True)
        except (RuntimeError, OSError) as err:  # RuntimeError: a loop, on Python < 3.13
            if isinstance(err, FileNotFoundError):
                return f"{CANNOT_READ}: a dangling symlink"
            return f"{CANNOT_READ}: a symlink loop"
        # the target or a folder above it named: a look per folder up, not per path named (each
        # of 4,000 named links was compared with every path named: 57 s)
        if self.limits.follow_outside_root or not self.trusted.isdisjoint((target, *target.parents)):
            return None
        return f"{CANNOT_READ}: a symlink to outside the ingest root (follow_outside_root is off)"

    def skip(self, path: str, rel: str, reason: str) -> None:
        self.found[rel] = FoundFile(path, rel, 0, 0, skip_reason=reason)


def location(path: str | Path) -> str:
    """Where a file is on disk: its absolute path with every link (of a folder or of itself)
    resolved, shown as `display_path` shows names. One file has one location whatever folder,
    working directory or symlinked folder it was named through."""
    return _display_name(os.path.realpath(path))


# skipped_file.reason of a file at a path whose current version is another file that still exists.
OTHER_FILE_AT_PATH = "another file is current at this path"


def identified(found: list[FoundFile], current: dict[str, set[str]]) -> list[FoundFile]:
    """The files found, each under the path the warehouse knows it by. `current`: the locations
    of the current versions by container path (`current_locations`). A file at a current
    version's location is recorded under that version's path, whatever folder was named: read
    through its sub-folder (`feb/day.txt` for `digests/feb/day.txt`), its parent, a symlinked
    folder or another working directory, it was a second current file beside its own earlier
    version, whose listings counted twice. Of several found at one location (a file and a link
    to it) one takes that path, the one found under it if any: the others keep their own paths
    and meet it as copies (both took the path, and the run failed on duplicate listings)."""
    path_at: dict[str, str] = {}
    for path in sorted(current, reverse=True):  # two paths at one location: the first path
        path_at.update(dict.fromkeys(current[path], path))
    taking: dict[str, FoundFile] = {}
    for f in sorted(found, key=lambda f: (f.path != path_at.get(f.location), f.path)):
        if f.location in path_at and not f.skip_reason:
            taking.setdefault(f.location, f)
    renamed = [replace(f, path=path_at[f.location]) if taking.get(f.location) is f else f for f in found]
    return sorted(renamed, key=lambda f: f.path)


def other_files(found: list[FoundFile], current: dict[str, set[str]]) -> list[FoundFile]:
    """`found`, a file at a path whose current version is another file that is still on disk
    marked with the reason (`other_file`): two different digests that get one relative path
    under two roots (`digest ingest /a/digests`, then `/b/digests`) are not versions of one file
    (the second replaced the first's listings). The merge skips it unless its content is that
    version's (merge/10_files.sql: a copy is content already ingested). A version whose file is
    gone (a folder moved elsewhere), or of unknown location (ingested before locations were
    kept), is met by path, as before."""
    return [replace(f, other_file=other_file_reason(current[f.path], f.location))
            if not f.skip_reason and f.location and f.location not in current.get(f.path, {f.location})
            and _still_there(current[f.path]) else f for f in found]


def other_file_reason(locations: set[str], here: str | None) -> str:
    other = min(locations)
    return (f"{OTHER_FILE_AT_PATH} ({other}, still there; this file is {here}): not read as its next version; "
            "to keep both, ingest from a folder that holds both (their paths then differ); if this one "
            "replaces it, move or remove the other first")


def _still_there(locations: set[str]) -> bool:
    return any(os.path.isfile(loc) for loc in locations)


def current_locations(con: duckdb.DuckDBPyConnection) -> dict[str, set[str]]:
    """The locations of the current file versions, by container path (an archive's members share
    their archive's); empty for a warehouse from before locations were kept."""
    columns = {c for (c,) in con.execute(
        "SELECT column_name FROM duckdb_columns() WHERE table_name = 'dim_source_file'").fetchall()}
    if not {"location", "is_current"} <= columns:
        return {}
    current: dict[str, set[str]] = {}
    for path, loc in con.execute(f"""
            SELECT DISTINCT split_part(path, '{MEMBER_SEPARATOR}', 1), split_part(location, '{MEMBER_SEPARATOR}', 1)
            FROM dim_source_file WHERE is_current AND location IS NOT NULL""").fetchall():
        current.setdefault(path, set()).add(loc)
    return current


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "a special file")


def _too_large(limits: ReadLimits) -> str:
    return (f"{CANNOT_READ}: larger than the size limit of {limits.max_file_bytes:,} bytes (max_file_bytes, "
            f"DIGEST_MAX_FILE_BYTES: parsing holds about {PARSE_BYTES_PER_INPUT_BYTE} times a digest's size in memory, "
            "more for short lines; "
            "split the file, or raise the limit)")


def display_path(rel: Path) -> str:
    """Posix path as valid text that keeps two different names different: bytes of a non-UTF-8
    file name are shown as \\xNN escapes, and a literal backslash is doubled, so a name holding
    the text "\\xe9" cannot meet one holding the byte 0xE9."""
    return _display_name(rel.as_posix())


def _display_name(text: str) -> str:
    """`display_path` of a name or a posix path (it maps each character on its own, and "!/"
    as "\\x21/": a folder "a.zip!" beside "a.zip" made the path of an archive member, "a.zip!/m.txt",
    and one file was taken for a new version of the other, whose listings left the warehouse)."""
    escaped = text.replace("\\", "\\\\").encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return escaped.replace(MEMBER_SEPARATOR, "\\x21/")


def _is_link(entry: os.DirEntry) -> bool:
    try:
        return entry.is_symlink()  # from the folder's listing: no system call on Linux
    except OSError:
        return os.path.islink(entry.path)


def _ignored(name: str, named: bool) -> bool:
    """Hidden entries inside a folder, and warehouse files by name; a hidden path the user
    named is walked."""
    return (name.startswith(".") and not named) or name.endswith(SKIP_SUFFIXES)


def warehouse_files(warehouse: Path) -> set[tuple[int, int]]:
    """(st_dev, st_ino) of the warehouse and its side files that exist now, so discovery skips
    them wherever they sit and whatever they are named (links and hard links included)."""
    real = Path(os.path.realpath(warehouse))
    ids = set()
    for base in {warehouse, real}:
        for suffix in ("", ".wal", ".lock", ".building", ".building.wal", ".building.tmp", ".tmp"):
            try:
                st = os.stat(base.with_name(base.name + suffix))
            except OSError:
                continue
            ids.add((st.st_dev, st.st_ino))
    return ids


def fingerprints(con: duckdb.DuckDBPyConnection) -> set[tuple[str, int, int, int, str]]:
    """The stat fingerprint of every ingested file version, as (container path, mtime_ns,
    ctime_ns, inode, container location): an archive's members share their container's. Empty
    for a warehouse from before the fingerprint columns; a version of unknown location (ingested
    before locations were kept) has none, so its file is read once more and its location kept.
    Nor has a file whose plain version and members are both current (as code from before a
    change of packing retired what a file held left it: merge/10_files.sql, `retired`): its next
    run reads it once more and keeps what it holds now. Plain rows, no frame: a run with nothing
    new loads no Polars."""
    columns = {c for (c,) in con.execute(
        "SELECT column_name FROM duckdb_columns() WHERE table_name = 'dim_source_file'").fetchall()}
    if not {"ctime_ns", "inode", "location", "is_current"} <= columns:
        return set()
    container = f"split_part(path, '{MEMBER_SEPARATOR}', 1)"
    return set(con.execute(f"""
        SELECT DISTINCT {container}, mtime_ns, ctime_ns, inode, split_part(location, '{MEMBER_SEPARATOR}', 1)
        FROM dim_source_file
        WHERE path IS NOT NULL AND mtime_ns IS NOT NULL AND ctime_ns IS NOT NULL AND inode IS NOT NULL
          AND location IS NOT NULL
          AND {container} NOT IN (
              SELECT path FROM dim_source_file WHERE is_current AND NOT contains(path, '{MEMBER_SEPARATOR}')
              INTERSECT SELECT {container} FROM dim_source_file WHERE is_current AND contains(path, '{MEMBER_SEPARATOR}'))
        """).fetchall())


def unchanged(found: list[FoundFile], seen: set[tuple[str, int, int, int, str]]) -> set[str]:
    """Paths of found files whose whole stat fingerprint (`fingerprints`: mtime, ctime, inode,
    location) matches an ingested version: skipped unread. ctime changes on every write and
    cannot be set back, so an edit that keeps size and mtime is still read; a file moved since
    (a folder renamed keeps its files' ctime) is read once, so its version's location follows it."""
    return {f.path for f in found
            if not f.skip_reason and (f.path, f.mtime_ns, f.ctime_ns, f.inode, f.location) in seen}


# The packing a name's suffix says: one stream (gz, bz2, xz) or an archive of files (zip, tar).
PACKED = {"gz": "gz", "tgz": "gz", "bz2": "bz2", "tbz": "bz2", "tbz2": "bz2", "xz": "xz", "txz": "xz",
          "zip": "zip", "tar": "tar"}
# A .bz2 or .xz keeps no size we read: its digest text is taken at this many times its size (bzip2 -9
# of 20 MB of listings and of search pages: 4.1x and 4.0x; gzip -6: 2.9x and 2.8x, but a .gz says its
# own size). Packed members of an archive are counted the same way.
BZ2_TEXT_RATIO = 5
# An archive inside an archive inside ... is unpacked this many levels deep; deeper is refused (an
# honest archive of digests is a zip or tar of .gz files at most; a file that unpacks to itself is not).
MAX_NESTING = 4


def sized(found: list[FoundFile]) -> list[FoundFile]:
    """The files, packed ones with the size of their text once unpacked (`unpacked_bytes`): a .gz
    says it in its last four bytes (modulo 4 GiB), a .zip lists its members' sizes, a .bz2 is
    estimated (BZ2_TEXT_RATIO). Counted at their size on disk, a folder of .gz archives was
    batched and parsed as if it held a third of its text. Read once, for the files to read."""
    return [replace(f, unpacked_bytes=_unpacked_size(f)) if _suffix(f.path) in PACKED and not f.skip_reason else f
            for f in found]


def _suffix(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[-1].lower() if "." in name else ""


def _unpacked_size(f: FoundFile) -> int:
    packing = PACKED[_suffix(f.path)]
    try:
        if packing in {"bz2", "xz"}:
            return f.size_bytes * BZ2_TEXT_RATIO
        if packing == "tar":
            return f.size_bytes
        if packing == "zip":
            with zipfile.ZipFile(f.abs_path) as archive:
                return sum(info.file_size * (BZ2_TEXT_RATIO if _suffix(info.filename) in PACKED else 1)
                           for info in archive.infolist())
        with open(f.abs_path, "rb") as handle:
            handle.seek(-4, os.SEEK_END)
            return int.from_bytes(handle.read(4), "little")
    except (OSError, zipfile.BadZipFile, ValueError):  # unreadable or corrupt: reading says why
        return f.size_bytes


def plan_batches(found: list[FoundFile], batch_bytes: int) -> list[list[FoundFile]]:
    """Consecutive files grouped into batches of about `batch_bytes` (at least one file each)."""
    batches: list[list[FoundFile]] = []
    size = batch_bytes
    for f in found:
        if size >= batch_bytes:
            batches.append([])
            size = 0
        batches[-1].append(f)
        size += max(f.text_bytes, 1)
    return batches


class Unreadable(Exception):
    """A found file that is not read, with the reason for skipped_file."""


def unchanged_since_found(found: FoundFile) -> bool:
    """The file is where it was found, with the size and modification time it had then."""
    try:
        stat = os.stat(found.abs_path)
    except FileNotFoundError:
        return False
    return stat.st_size == found.size_bytes and stat.st_mtime_ns == found.mtime_ns


def read_sources(batch: list[FoundFile], limits: ReadLimits = ReadLimits()
                 ) -> tuple[list[SourceFile], pl.DataFrame, pl.DataFrame]:
    """Bytes of each readable file (each member of a packaged one), its metadata
    (source_file_id, path, sha256, size_bytes, mtime_ns, ctime_ns, inode, location, other_file), and the files that
    were not read (path, reason).

    A file that vanished since discovery, may not be read, is not a regular file, is over the
    size limit or is a corrupt archive is skipped with its reason; other I/O errors propagate,
    so the task's retries can try again.
    """
    import polars as pl

    from transforms.ids import with_stable_ids

    skipped: list[dict[str, str]] = []
    read: list[tuple[FoundFile, bytes]] = []
    for f, data in _read_files(batch, limits.max_file_bytes, skipped):
        members_skipped: list[dict[str, str]] = []  # kept only when the rest of the archive is read
        try:
            read += _unpacked(f, data, limits.max_file_bytes, members_skipped)
        except Unreadable as why:
            skipped.append({"path": f.path, "reason": str(why)})
        else:
            skipped += members_skipped
    meta = pl.DataFrame({
        "path": [f.path for f, _ in read],
        "sha256": [hashlib.sha256(d).hexdigest() for _, d in read],
        "size_bytes": [len(d) for _, d in read],
        "mtime_ns": [f.mtime_ns for f, _ in read],
        "ctime_ns": [f.ctime_ns for f, _ in read],
        "inode": [f.inode for f, _ in read],
        "location": [f.member_location() for f, _ in read],
        "other_file": [f.other_file for f, _ in read],
    }, schema={"path": pl.String, "sha256": pl.String, "size_bytes": pl.Int64, "mtime_ns": pl.Int64,
               "ctime_ns": pl.Int64, "inode": pl.Int64, "location": pl.String, "other_file": pl.String})
    meta = with_stable_ids(meta, {"source_file_id": ["path", "sha256"]})
    from transforms.pipeline import SourceFile

    sources = [SourceFile(fid, f.path, d, sha) for (f, d), fid, sha in zip(read, meta["source_file_id"], meta["sha256"])]
    return sources, meta, pl.DataFrame(skipped, schema={"path": pl.String, "reason": pl.String})


# One parse task reads files at a time. A file costs a few system calls, each of which lets go
# of the GIL, and with four tasks reading at once every one of them waited for it again: 44,945
# files of ~3 KB in 4 batches (`python -m bench.many_files reads`, README Session 25) read in
# 1.6-1.7 s one batch after the other and 4.2-5.1 s at once before this lock, 1.1 s and 1.2-1.4 s
# under it. It is held for up to READ_SPELL bytes of files, then let go (the others parse
# meanwhile), and a large file is read alone; taken for each file (`--turn-bytes 0`): 1.9-2.2 s.
_READING = threading.Lock()
READ_SPELL = 4 << 20


def _read_files(batch: list[FoundFile], limit: int, skipped: list[dict[str, str]]) -> list[tuple[FoundFile, bytes]]:
    """The bytes of each file of the batch that can be read; the others into `skipped`."""
    read: list[tuple[FoundFile, bytes]] = []
    todo = batch[::-1]  # popped in the batch's order
    while todo:
        with _READING:  # at least one file a turn: READ_SPELL = 0 takes the lock for each file
            spell = _read_one(todo.pop(), limit, read, skipped)
            while todo and spell < READ_SPELL:
                spell += _read_one(todo.pop(), limit, read, skipped)
    return read


def _read_one(f: FoundFile, limit: int, read: list[tuple[FoundFile, bytes]], skipped: list[dict[str, str]]) -> int:
    """Read `f` into `read`, or its reason into `skipped`; the bytes read."""
    try:
        if f.skip_reason:
            raise Unreadable(f.skip_reason)
        read.append(_read_bounded(f, limit))
        return len(read[-1][1])
    except Unreadable as why:
        skipped.append({"path": f.path, "reason": str(why)})
    except FileNotFoundError:
        skipped.append({"path": f.path, "reason": VANISHED})
    except (PermissionError, IsADirectoryError) as err:
        skipped.append({"path": f.path, "reason": f"{CANNOT_READ}: {err.strerror or err}"})
    return 0


# O_NONBLOCK: opening a FIFO swapped in between the stat and the open returns at once (there is
# no writer to wait for), and fstat of what was opened refuses it; O_NOCTTY: a terminal never
# becomes ours.
_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)
# What opening says of a path that is no file to read, whatever is tried again: a socket (ENXIO
# on Linux, EOPNOTSUPP on macOS) or a device without a driver swapped in since the stat, a link
# loop, a name too long.
_NO_FILE_TO_READ = {errno.ENXIO, errno.EOPNOTSUPP, errno.ENODEV, errno.ELOOP, errno.ENAMETOOLONG}


def _read_bounded(f: FoundFile, limit: int) -> tuple[FoundFile, bytes]:
    """The bytes of a regular file, never more than limit + 1 read, with the fstat of what was
    opened (not of what was found). The type is checked before opening (discovery may be minutes
    old: opening a device or a FIFO swapped in since has effects of its own) and again on what was
    opened. Five system calls (stat, open, fstat, read, close) through the os module; Path.open's
    buffered reader made nine (strace: a second fstat, an ioctl, a seek, a read for the end), each
    letting go of the GIL."""
    mode = os.stat(f.abs_path).st_mode
    if not stat.S_ISREG(mode):
        raise Unreadable(f"{CANNOT_READ}: {_kind(mode)}, not a regular file")
    try:
        fd = os.open(f.abs_path, _OPEN_FLAGS)
    except OSError as err:
        if err.errno in _NO_FILE_TO_READ:
            raise Unreadable(f"{CANNOT_READ}: {err.strerror}") from err
        raise  # other errors may pass: the task tries again
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Unreadable(f"{CANNOT_READ}: {_kind(st.st_mode)}, not a regular file")
        data = _read_to_end(fd, limit, st.st_size)  # a file that grew, or says 0 (/proc): read on
    finally:
        os.close(fd)
    if len(data) > limit:
        raise Unreadable(_too_large(ReadLimits(limit)))
    return replace(f, size_bytes=st.st_size, mtime_ns=st.st_mtime_ns, ctime_ns=st.st_ctime_ns, inode=st.st_ino), data


def _read_to_end(fd: int, limit: int, size_hint: int) -> bytes:
    """An open file's bytes up to limit + 1: as many as fstat gave (`size_hint`), or else until
    read() says its end (b""), since a short read is not one in /proc, whose files say size 0 and
    come a page at a time. The size first, then pieces as large as what was read (read(n)
    allocates n bytes first: see _read_at_most)."""
    parts, total, ask = [], 0, min(size_hint, limit) + 1
    while total <= limit:
        part = os.read(fd, ask)
        if not part:
            break
        parts.append(part)
        total += len(part)
        # The file as fstat saw it: no read for its end. One that grew since has a newer mtime and
        # is read by the next run, as an append after any read is (as fine as the filesystem's clock).
        if total == size_hint:
            break
        ask = max(1, min(total, limit + 1 - total))
    return b"".join(parts)  # one part (the common case) is returned as it is, not copied


def _unpacked(f: FoundFile, data: bytes, limit: int, skipped: list[dict[str, str]]) -> list[tuple[FoundFile, bytes]]:
    """A plain file as it is; a .gz/.bz2/.xz as one member named after it without the suffix
    (`x.txt.gz!/x.txt`, `x.tgz!/x.tar`); a .zip or .tar as each of its files (hidden ones, folders
    and links left out; unsafe and duplicate paths into `skipped`, `_chosen`); a member that is
    packed again, unpacked in turn (MAX_NESTING levels). Decompression stops past `limit` bytes in
    all (zip bombs); a corrupt archive is skipped."""
    return [(f if path == f.path else replace(f, path=path), text)
            for path, text in _unpack(f.path, data, limit, depth=0, skipped=skipped)]


_ARCHIVE_ERRORS = (OSError, EOFError, zlib.error, lzma.LZMAError, zipfile.BadZipFile, tarfile.TarError,
                   RuntimeError, NotImplementedError, ValueError)


def _unpack(path: str, data: bytes, budget: int, depth: int,
            skipped: list[dict[str, str]] | None = None) -> list[tuple[str, bytes]]:
    skipped = [] if skipped is None else skipped
    packing = _packing(path, data)
    if not packing:
        return [(path, data)]
    if depth == MAX_NESTING:
        raise Unreadable(f"{CANNOT_READ}: archives nested more than {MAX_NESTING} levels deep")
    try:
        members = list(_members(packing, path.rsplit("/", 1)[-1], data, budget))
    except _ARCHIVE_ERRORS as err:
        raise Unreadable(f"{CANNOT_READ}: a corrupt or unsupported .{packing} archive ({_first_line(err)})") from err
    unpacked: list[tuple[str, bytes]] = []
    for name, member, reason in members:  # together within the budget: a packed member's text counts, not its bytes
        member_path = f"{path}{MEMBER_SEPARATOR}{_display_name(name)}"  # its own "!/" too
        if reason:
            skipped.append({"path": member_path, "reason": reason})
            continue
        inner = _unpack(member_path, member, budget, depth + 1, skipped)
        budget -= sum(len(text) for _, text in inner)
        unpacked += inner
    return unpacked


# What a file's first bytes say it is. bzip2's "BZh" is followed by a level digit and a block's magic.
_MAGIC = ((b"\x1f\x8b", "gz"), (b"\xfd7zXZ\x00", "xz"), (b"PK\x03\x04", "zip"), (b"PK\x05\x06", "zip"))


def _packing(path: str, data: bytes) -> str:
    """gz, bz2, xz, zip or tar by the bytes (no text starts so), else by the name's suffix (a
    zip after a preamble, or damage that reading then names), else "" (not packed)."""
    for magic, packing in _MAGIC:
        if data.startswith(magic):
            return packing
    if data[:3] == b"BZh" and data[4:10] == b"1AY&SY":
        return "bz2"
    if data[257:263] == b"ustar\x00" or data[257:265] == b"ustar  \x00":  # POSIX and GNU tar headers
        return "tar"
    return PACKED.get(_suffix(path), "")


_STREAMS = {"gz": lambda packed: gzip.GzipFile(fileobj=packed), "bz2": bz2.BZ2File, "xz": lzma.LZMAFile}
_STREAM_NAMES = {"gz": {"gz": "", "tgz": ".tar"}, "bz2": {"bz2": "", "tbz": ".tar", "tbz2": ".tar"},
                 "xz": {"xz": "", "txz": ".tar"}}


def _members(packing: str, name: str, data: bytes, limit: int) -> Iterator[tuple[str, bytes, str | None]]:
    """(name, bytes, None) for each member read, (name, b"", reason) for one that is not."""
    if packing in _STREAMS:
        with _STREAMS[packing](io.BytesIO(data)) as stream:
            yield _stream_member_name(packing, name), _bounded(stream, limit, size_hint=4 * len(data)), None
        return
    budget = limit
    with (_zip_entries if packing == "zip" else _tar_entries)(data) as entries:
        for member_name, entry, reason in _chosen(entries):
            escaped = member_name.replace("\\", "\\\\")  # escaped as file names are
            if reason:
                yield escaped, b"", reason
                continue
            size, open_member = entry
            with open_member() as stream:
                content = _bounded(stream, budget, size_hint=size)  # as the archive claims it
            budget -= len(content)
            yield escaped, content, None


UNSAFE_MEMBER = "unsafe member path (a '..' part): not read, as tar refuses it"
DUPLICATE_MEMBER = ("duplicate member path: {n} earlier member(s) of the archive at this path not read "
                    "(the last one is, as extracting the archive keeps it)")


def _chosen(entries: list[tuple[str, int, Callable]]) -> list[tuple[str, tuple[int, Callable] | None, str | None]]:
    """The members to read, by name: (name, (size, opener), None); and those not read with their
    reason: (name, None, reason). Hidden ones (.DS_Store, __MACOSX/._x) are left out. A path is
    normalised as extraction does ("./x", "/x", "a//x" are "x", "a/x"), and one that climbs out
    ("b/../../x") is refused: its ".." looked hidden and it vanished without a word. Of two
    members at one path (a tar appended to with `tar rf`, a zip written twice) the last is read,
    as extraction keeps it: both were read and failed the whole run ("one current version per
    path"). `entries` are in the archive's order."""
    last: dict[str, tuple[int, Callable]] = {}
    copies: dict[str, int] = {}
    refused: list[tuple[str, None, str]] = []
    for raw, size, opener in entries:
        parts = [part for part in raw.split("/") if part not in ("", ".")]
        if ".." in raw.replace("\\", "/").split("/"):  # a backslash is a separator to Windows' unzip
            refused.append((raw, None, UNSAFE_MEMBER))
        elif parts and not any(part.startswith(".") for part in parts):
            name = "/".join(parts)
            last[name], copies[name] = (size, opener), copies.get(name, 0) + 1
    duplicates = [(name, None, DUPLICATE_MEMBER.format(n=copies[name] - 1)) for name in last if copies[name] > 1]
    return sorted(refused + duplicates, key=lambda m: m[0]) + [(name, last[name], None) for name in sorted(last)]


def _stream_member_name(packing: str, name: str) -> str:
    """`x.txt.gz` -> `x.txt`, `x.tgz` -> `x.tar`; a name without the suffix (a gzip file named
    x.txt) is the member's name as it is."""
    stem, _, suffix = name.rpartition(".")
    replacement = _STREAM_NAMES[packing].get(suffix.lower()) if stem else None
    return name if replacement is None else stem + replacement


@contextmanager
def _zip_entries(data: bytes) -> Iterator[list[tuple[str, int, Callable]]]:
    """Its files in the archive's order (name, size, opener), openable while the archive is open."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        yield [(info.filename, info.file_size, partial(archive.open, info))
               for info in archive.infolist() if not info.is_dir()]


@contextmanager
def _tar_entries(data: bytes) -> Iterator[list[tuple[str, int, Callable]]]:
    """Regular files only: a link, folder or device in a tar is not a digest (and a link is not
    followed: nothing is written to disk or read outside the archive's bytes)."""
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:") as archive:
        yield [(info.name, info.size, partial(archive.extractfile, info))
               for info in archive.getmembers() if info.isfile()]


def _bounded(stream, limit: int, size_hint: int) -> bytes:
    content = _read_at_most(stream, limit, size_hint)
    if len(content) > limit:
        raise Unreadable(f"{CANNOT_READ}: unpacks to more than the size limit of {limit:,} bytes (max_file_bytes)")
    return content


def _read_at_most(stream, limit: int, size_hint: int) -> bytes:
    """The stream's bytes up to limit + 1 (one more than allowed tells it is too large), asked for
    in pieces from `size_hint` on, each as large as what was read: read(n) allocates n bytes
    before it reads, so asking for the limit (1 GiB) cost every file more than reading it
    (`python -m bench.read_decode`). A short read is the end: files, gzip, bz2 and zip members
    fill what is asked for until then."""
    parts, total, ask = [], 0, min(size_hint, limit) + 1
    while True:
        part = stream.read(ask)
        parts.append(part)
        total += len(part)
        if len(part) < ask or total > limit:
            return b"".join(parts)
        ask = min(total, limit + 1 - total)


def _first_line(err: BaseException) -> str:
    return (str(err).splitlines() or [type(err).__name__])[0][:120]
