"""A folder of good rendered digests mixed with every kind of bad input (issue 3, point 2),
and the known answer: which listings must load per file, and which quarantine rows and
skipped files must appear, with what reason.

Bad records carry "sentinel" text (names, abstract, title, category) found nowhere else, so a
test can prove that nothing from a quarantined span reaches the dimensions.
"""

from __future__ import annotations

import random
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from transforms.decode import decode_bytes

SENTINEL = "Sentinel"  # in every bad record; matched case-insensitively in the dimensions
SENTINEL_CODE = "zz.SENT"  # an arXiv-shaped category used only by bad listing records
SENTINEL_AREA = "Sentinel Area · Sentinel Subarea"  # the same for search records
TEN_MB = 10 * 1024 * 1024
SEARCH_MARKER = "论文检索"
BAD_BYTES = b"\xff\xfe\xfd"  # invalid in UTF-8 and in GB18030: undecodable whatever the guess
_BAD_MARK = "@@undecodable@@"  # written where BAD_BYTES go


@dataclass(frozen=True)
class Expected:
    """One quarantine row a bad case must produce (span, and a reason pattern)."""

    path: str
    line_start: int
    line_end: int
    reason: str  # regex, searched case-insensitively


@dataclass
class BadCorpus:
    root: Path  # the folder to ingest
    listings: dict[str, list[tuple[int, int]]] = field(default_factory=dict)  # path -> loaded spans
    quarantine: list[Expected] = field(default_factory=list)
    duplicate: tuple[str, str] = ("", "")  # (copy path, original path)
    vanishing: str = ""  # deleted between discovery and read
    unreadable: str = ""  # may not be read
    changed: str = ""  # edited before the second run

    def rel(self, path: Path) -> str:
        """A path as the warehouse records it: relative to the ingest root (root's parent)."""
        return path.relative_to(self.root.parent).as_posix()

    @property
    def n_listings(self) -> int:
        return sum(len(spans) for spans in self.listings.values())


def sentinel_listing(case: str, rank: int, date: str = "Oct 26, 2026") -> list[str]:
    return [f"#{rank:02d}{date}", SENTINEL_CODE, f"{SENTINEL} title of the {case} case",
            f"Quirina {SENTINEL}{case.title().replace('_', '')}, Ulrich {SENTINEL}berg",
            f"{SENTINEL} abstract for the {case} case: this text must never reach a dimension."]


def sentinel_search(case: str) -> list[str]:
    return [SENTINEL_AREA, f"Quirina {SENTINEL}{case.title().replace('_', '')}, Ulrich {SENTINEL}berg",
            f"{SENTINEL} abstract for the {case} case: this prose must never reach a dimension."]


class _Builder:
    def __init__(self, rendered: Path, root: Path, seed: int):
        self.rendered, self.corpus = rendered, BadCorpus(root)
        self.answer = pl.read_parquet(rendered / "answer.parquet")
        self.rng = random.Random(seed)

    # -- carriers: good files whose records are kept, with some replaced by bad ones
    def records(self, rel: str) -> list[list[str]]:
        text = decode_bytes((self.rendered / rel).read_bytes()).text
        lines = text.split("\n")
        spans = self.answer.filter(pl.col("path") == rel).sort("position").select("line_start", "line_end").rows()
        return [lines[s - 1:e] for s, e in spans]

    def listing_file(self, name: str, blocks: list[tuple[list[str], str | None]], tail: bytes = b"") -> Path:
        """Records one after the other (the listing format has no separators); a block with a
        reason is bad and expected in quarantine over its whole span."""
        path, lines, good = self.corpus.root / "broken" / name, [], []
        for block, reason in blocks:
            start = len(lines) + 1
            lines += block
            if reason is None:
                good.append((start, len(lines)))
            else:
                self.corpus.quarantine.append(Expected(self.corpus.rel(path), start, len(lines), reason))
        self._write(path, "\n".join(lines).encode("utf-8") + tail, good)
        return path

    def search_file(self, name: str, blocks: list[tuple[list[str], str | None]]) -> Path:
        """Paragraphs separated by blank lines after the marker line."""
        path, line, good, paras = self.corpus.root / "broken" / name, 3, [], [SEARCH_MARKER]
        for block, reason in blocks:
            start, end = line, line + 2 * (len(block) - 1)
            paras += block
            line = end + 2
            if reason is None:
                good.append((start, end))
            else:
                self.corpus.quarantine.append(Expected(self.corpus.rel(path), start, end, reason))
        self._write(path, "\n\n".join(paras).encode("utf-8"), good)
        return path

    def _write(self, path: Path, data: bytes, good: list[tuple[int, int]]) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data.replace(_BAD_MARK.encode(), BAD_BYTES))
        self.corpus.listings[self.corpus.rel(path)] = good

    def whole_file(self, name: str, data: bytes, lines: tuple[int, int], reason: str) -> Path:
        path = self.corpus.root / "broken" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        self.corpus.listings[self.corpus.rel(path)] = []
        self.corpus.quarantine.append(Expected(self.corpus.rel(path), *lines, reason))
        return path


def build_bad_corpus(rendered: Path, root: Path, seed: int = 3) -> BadCorpus:
    """`rendered`: a bench.corpus output folder. Writes the folder to ingest at `root`."""
    b = _Builder(rendered, root, seed)
    files = pl.read_parquet(rendered / "files.parquet")
    listing_files = files.filter((pl.col("format") == "listing") & (pl.col("n_records") >= 6))["path"].to_list()
    search_files = files.filter((pl.col("format") == "search") & (pl.col("n_records") >= 6))["path"].to_list()
    carriers = {"listing": listing_files[:2], "search": search_files[:1]}
    held_out = set(carriers["listing"] + carriers["search"])

    # Good files, copied as rendered (every encoding and noise kind the renderer makes); one
    # under a name full of quotes, SQL and non-ASCII (a name is data, never SQL or shell).
    for k, rel in enumerate(files["path"].to_list()):
        if rel in held_out:
            continue
        target = root / "good" / rel
        if k == 3:
            target = target.with_name("o'brien \"digest\"; DROP TABLE fact_listing;-- 论文 $(id).txt")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(rendered / rel, target)
        b.corpus.listings[b.corpus.rel(target)] = b.answer.filter(pl.col("path") == rel).sort("position").select(
            "line_start", "line_end").rows()

    L1, L2 = (b.records(rel) for rel in carriers["listing"])
    S = b.records(carriers["search"][0])
    good = lambda recs: [(r, None) for r in recs]  # noqa: E731

    # Undecodable bytes inside a good file: the record holding them goes, the rest loads.
    bad = sentinel_listing("undecodable", 2)
    bad[4] = bad[4].replace("abstract", f"abs{_BAD_MARK}tract")
    b.listing_file("undecodable_bytes.txt", good(L1[:1]) + [(bad, "undecodable")] + good(L1[2:]))
    # Record cut off at the end of the file, mid-line.
    cut = sentinel_listing("cut_off", len(L1) + 1)
    cut = cut[:2] + [cut[2][:12]]
    b.listing_file("cut_off.txt", good(L1) + [(cut, r"cut off at end of file")])
    # A record with a missing line (no title) and one with an empty field (authors): a blank line
    # inside a record is skipped, so that record too has four of its five lines.
    missing = sentinel_listing("missing_field", 2)
    del missing[2]
    empty = sentinel_listing("empty_field", 3)
    empty[3] = ""
    b.listing_file("missing_and_empty_field.txt",
                   good(L2[:1]) + [(missing, r"4 of 5 lines"), (empty, r"4 of 5 lines")] + good(L2[3:]))
    # A listing header with an impossible date.
    b.listing_file("impossible_date.txt",
                   good(L2[:1]) + [(sentinel_listing("impossible_date", 2, "Feb 30, 2026"), r"impossible.*date")]
                   + good(L2[2:]))
    # A 10 MB single line: as a record's abstract, and as a file of its own.
    huge = sentinel_listing("ten_mb", 2)
    huge[4] = (huge[4] + " ") * (TEN_MB // len(huge[4]) + 1)
    b.listing_file("ten_mb_abstract.txt", good(L1[:1]) + [(huge, r"abstract")] + good(L1[2:]))
    b.whole_file("ten_mb_line.txt", (f"{SENTINEL} " * (TEN_MB // 9 + 1)).encode(), (1, 1), r"unknown format")
    # Text that belongs to no record: a mail signature after the last abstract.
    b.listing_file("signature.txt", good(L2) + [(["-- ", f"{SENTINEL} Sent from my phone"], r"belong to no record")])
    # Search format: undecodable bytes, a block without authors, and a block cut off at the end.
    no_authors = sentinel_search("no_authors")
    del no_authors[1]
    s_cut = sentinel_search("search_cut_off")[:2]
    s_bad = sentinel_search("search_undecodable")
    s_bad[2] = s_bad[2].replace("prose", f"pro{_BAD_MARK}se")
    b.search_file("search_broken.txt", good(S[:2]) + [(s_bad, r"undecodable"), (no_authors, r"without an authors")]
                  + good(S[2:]) + [(s_cut, r"cut off at end of file")])
    # Whole files that are not digests.
    b.whole_file("empty.txt", b"", (0, 0), r"empty file")
    b.whole_file("scan.pdf", b"%PDF-1.4\n" + bytes(range(256)) * 64, (1, 1), r"binary")
    b.whole_file("notes.txt", f"Dear all,\nthe {SENTINEL} meeting moved to Friday.\nBest".encode(), (1, 3),
                 r"unknown format")
    b.whole_file("blank_lines.txt", b"\n  \n\t\n", (1, 3), r"blank")

    # The same content under two names: the copy is skipped, pointing at the original.
    original = next(p for p in sorted(b.corpus.listings) if p.startswith(f"{root.name}/good/"))
    copy = root / "copies" / "same_content_other_name.txt"
    copy.parent.mkdir(parents=True)
    shutil.copy2(root.parent / original, copy)
    b.corpus.duplicate = (b.corpus.rel(copy), original)
    # Files that vanish before they are read, or may not be read: good-looking, sentinel text.
    for name in ("vanishing.txt", "unreadable.txt"):
        path = root / "access" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("\n".join(sentinel_listing(name[:-4], 1)), encoding="utf-8")
    b.corpus.vanishing = b.corpus.rel(root / "access" / "vanishing.txt")
    b.corpus.unreadable = b.corpus.rel(root / "access" / "unreadable.txt")
    b.corpus.changed = next(p for p in sorted(b.corpus.listings)
                            if p.startswith(f"{root.name}/good/listing/") and p != original)
    return b.corpus


def reason_matches(pattern: str, reason: str) -> bool:
    return re.search(pattern, reason, flags=re.IGNORECASE) is not None
