"""Bytes to text: pick the encoding, normalise line ends.

Digests arrive as UTF-8 (with or without BOM), UTF-16 with BOM, or GB18030 (Chinese search
pages). A file that is neither is decoded as UTF-8 with U+FFFD in place of the bad bytes, so
the records holding them can be quarantined while the rest of the file still loads.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

from transforms.formats.search import MARKER as SEARCH_MARKER

REPLACEMENT = "\ufffd"

_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig", "utf-8-sig"),
    (codecs.BOM_UTF32_LE, "utf-32", "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32", "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16", "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16", "utf-16"),
)


@dataclass(frozen=True)
class Decoded:
    text: str  # "\n" line ends, no BOM
    encoding: str  # what was detected: utf-8, utf-8-sig, utf-16, gb18030, utf-8-lossy, binary, empty
    n_bad_bytes: int = 0  # bytes replaced by U+FFFD

    @property
    def is_binary(self) -> bool:
        return self.encoding == "binary"


def decode_bytes(raw: bytes) -> Decoded:
    if not raw:
        return Decoded("", "empty")
    for bom, codec, label in _BOMS:
        if raw.startswith(bom):
            text = raw.decode(codec, errors="replace")
            return Decoded(_normalise_newlines(text), label, text.count(REPLACEMENT))
    if b"\x00" in raw:
        return Decoded("", "binary")
    try:
        return Decoded(_normalise_newlines(raw.decode("utf-8")), "utf-8")
    except UnicodeDecodeError:
        pass
    lossy = raw.decode("utf-8", errors="replace")
    n_bad = lossy.count(REPLACEMENT)
    n_good = len(lossy) - len(lossy.encode("ascii", "ignore")) - n_bad  # valid non-ASCII chars
    gb_text = _as_gb18030(raw) if n_good < n_bad else None  # mostly not UTF-8: a Chinese page?
    if gb_text is not None:
        return Decoded(_normalise_newlines(gb_text), "gb18030")
    if _looks_binary(lossy):
        return Decoded("", "binary")
    return Decoded(_normalise_newlines(lossy), "utf-8-lossy", n_bad)


_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff\U00020000-\U0002ffff]")


def _as_gb18030(raw: bytes) -> str | None:
    """The text, if the bytes are GB18030: they decode, and either the page is a Chinese search
    page (its "论文检索" marker) or it holds no Chinese at all (Greek, accented Latin encoded in
    GB18030). Stray Latin-1 bytes side by side ("½€" = BD 80) are also valid GB18030, but they
    decode into Chinese ideographs in the middle of an English digest: that is not GB18030."""
    try:
        text = raw.decode("gb18030")
    except UnicodeDecodeError:
        return None
    return text if SEARCH_MARKER in text[:1024] or not _CJK.search(text) else None


def _looks_binary(text: str) -> bool:
    """Mostly undecodable bytes and control characters: not a text digest."""
    sample = text[:8192]
    bad = sum(1 for ch in sample if ch == REPLACEMENT or (ord(ch) < 32 and ch not in "\n\r\t\f"))
    return bad > len(sample) * 0.3


def _normalise_newlines(text: str) -> str:
    if "\r" not in text:  # most files: one scan instead of two copies of the whole text
        return text
    return text.replace("\r\n", "\n").replace("\r", "\n")
