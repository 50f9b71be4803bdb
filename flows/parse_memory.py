"""What a parse task holds in memory, weighed before it parses: each file's bytes and its lines
(`flows.settings.parse_cost`). Batches are planned by size before anything is read, and a file of
short lines holds far more than its size says: a 32 MB file of line ends peaked at 5.1 GB, four
of 8 MB at 4.0 GB (hunt 45). Once a task has read its files it counts their lines, skips a file
heavier than max_file_bytes allows, and parses the rest in groups that fit in the room memory
leaves for parsing, each once the parses under way in its process leave room for it (`Room`).

Lines are counted in the bytes read, before decoding (some decoders cut non-UTF-8 text into
lines; in UTF-16 a byte 0x0A inside a character counts too, so the count errs high), and again in
the decoded text of an unwrapped e-mail or HTML body, whose lines its bytes hide (base64,
quoted-printable "=0A", "<br>"), before any text is cut into lines.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from flows.extract import CANNOT_READ
from flows.settings import (
    PARSE_BYTES_PER_BYTE,
    PARSE_BYTES_PER_INPUT_BYTE,
    PARSE_BYTES_PER_LINE,
    parse_cost,
    parse_memory_budget,
)

if TYPE_CHECKING:
    from transforms.pipeline import BatchResult, SourceFile


def most_lines(data: bytes) -> int:
    """The most lines `data` decodes to as plain text: LF, CR and CRLF each end one, and the last
    may have no end. A byte 0x0A or 0x0D inside a UTF-16 character counts too (more, never fewer).
    One pass each at memory speed, and no second or third without a CR."""
    ends = data.count(b"\n")
    if b"\r" in data:
        ends += data.count(b"\r") - data.count(b"\r\n")
    return ends + (not data.endswith((b"\n", b"\r")))


def weight(n_bytes: int, n_lines: int) -> int:
    """The size of an ordinary digest that takes as much memory to parse: what max_file_bytes
    bounds (a file of ordinary lines weighs a little less than its size)."""
    return parse_cost(n_bytes, n_lines) // PARSE_BYTES_PER_INPUT_BYTE


def too_many_lines(n_lines: int, n_bytes: int, max_file_bytes: int) -> str | None:
    """Why a file of `n_bytes` and `n_lines` is not read, or None when max_file_bytes allows it."""
    weighs = weight(n_bytes, n_lines)
    if weighs <= max_file_bytes:
        return None
    return (f"{CANNOT_READ}: its {n_lines:,} lines need as much memory to parse as a digest of {weighs:,} bytes, "
            f"over the size limit of {max_file_bytes:,} bytes (max_file_bytes, DIGEST_MAX_FILE_BYTES: parsing "
            f"holds about {PARSE_BYTES_PER_LINE} bytes of memory for each line, however short, and "
            f"{PARSE_BYTES_PER_BYTE} for each byte; split the file, or raise the limit)")


class Room:
    """Bytes of memory the parses under way in this process hold by their estimates, at most
    `parse_memory_budget()` together, or one parse alone, however heavy (max_file_bytes bounds
    it). Per process: a Dask worker weighs its own parses."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self.held = 0

    @contextmanager
    def taken(self, need: int) -> Iterator[_Share]:
        share = _Share(self)
        share.resize(need)
        try:
            yield share
        finally:
            share.resize(0)

    def _take(self, need: int) -> None:
        with self._changed:
            self._changed.wait_for(lambda: self.held == 0 or self.held + need <= parse_memory_budget())
            self.held += need

    def _give_back(self, size: int) -> None:
        with self._changed:
            self.held -= size
            self._changed.notify_all()


class _Share:
    """What one parse holds of its process's `Room`."""

    def __init__(self, room: Room) -> None:
        self.room, self.size = room, 0

    def resize(self, need: int) -> None:
        """Hold `need`: less at once; more once there is room, all of it let go meanwhile
        (waiting while holding part could wait for ever on another parse doing the same)."""
        if need <= self.size:
            self.room._give_back(self.size - need)
        else:
            self.room._give_back(self.size)
            self.size = 0
            self.room._take(need)
        self.size = need


ROOM = Room()


def parse_within_memory(sources: list[SourceFile], max_file_bytes: int, room: Room = ROOM) -> BatchResult:
    """`transforms.pipeline.process_batch` of the files whose lines max_file_bytes allows, the
    others in the result's `skipped` with the reason; parsed in groups whose estimates fit in the
    room (a batch is planned by size: four files of 8 MB of line ends made one batch, 3.9 GB), each
    once `room` holds its estimate."""
    import polars as pl

    from transforms.pipeline import combined, decode_files, line_count, process_decoded

    skipped: list[dict[str, str]] = []

    def allowed(path: str, n_bytes: int, n_lines: int) -> bool:
        reason = too_many_lines(n_lines, n_bytes, max_file_bytes)
        if reason:
            skipped.append({"path": path, "reason": reason})
        return reason is None

    def parsed(group: list[tuple[SourceFile, int]]) -> BatchResult:
        with room.taken(sum(parse_cost(len(s.data), n) for s, n in group)) as share:
            started = time.perf_counter()
            texts = decode_files([s for s, _ in group])
            # A plain text's lines are those counted in its bytes; an unwrapped body's ("+html",
            # "+base64", ...) are counted again.
            weighed = [(t, line_count(t.decoded) if "+" in t.decoded.encoding else n) for t, (_, n) in zip(texts, group)]
            weighed = [(t, n) for t, n in weighed if allowed(t.source.path, len(t.source.data), n)]
            share.resize(sum(parse_cost(len(t.source.data), n) for t, n in weighed))
            return process_decoded([t for t, _ in weighed], decode_seconds=time.perf_counter() - started)

    counted = [(s, most_lines(s.data)) for s in sources]
    counted = [(s, n) for s, n in counted if allowed(s.path, len(s.data), n)]
    result = combined([parsed(group) for group in _groups(counted, parse_memory_budget())])
    result.skipped = pl.DataFrame(skipped, schema={"path": pl.String, "reason": pl.String})
    return result


def _groups(counted: list[tuple[SourceFile, int]], budget: int) -> list[list[tuple[SourceFile, int]]]:
    """The files in order, (file, lines) in groups estimated at most `budget` each (a heavier file
    alone); one group, maybe empty, for a batch of ordinary files."""
    groups: list[list[tuple[SourceFile, int]]] = [[]]
    held = 0
    for source, n_lines in counted:
        cost = parse_cost(len(source.data), n_lines)
        if groups[-1] and held + cost > budget:
            groups.append([])
            held = 0
        groups[-1].append((source, n_lines))
        held += cost
    return groups
