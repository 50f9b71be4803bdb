"""Bytes to text: pick the encoding, normalise line ends.

Digests arrive as UTF-8 (with or without BOM), UTF-16 with BOM, or GB18030 (Chinese search
pages). A file that is neither is decoded as UTF-8 with U+FFFD in place of the bad bytes, so
the records holding them can be quarantined while the rest of the file still loads.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass

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


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _as_gb18030(raw: bytes) -> str | None:
    """The text, if the bytes read as GB18030 the way Chinese text does. Common Chinese
    characters are two high bytes; a stray Latin-1 byte ("Schr\xf6dinger") pairs with the ASCII
    letter after it, which GB18030 would happily decode into a wrong character."""
    try:
        text = raw.decode("gb18030")
    except UnicodeDecodeError:
        return None
    chars = _NON_ASCII.findall(text)
    swallowed = sum(1 for ch in chars if len(enc := ch.encode("gb18030")) == 2 and enc[1] < 0x80)
    return text if chars and swallowed * 2 <= len(chars) else None


def _looks_binary(text: str) -> bool:
    """Mostly undecodable bytes and control characters: not a text digest."""
    sample = text[:8192]
    bad = sum(1 for ch in sample if ch == REPLACEMENT or (ord(ch) < 32 and ch not in "\n\r\t\f"))
    return bad > len(sample) * 0.3


def _normalise_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")
