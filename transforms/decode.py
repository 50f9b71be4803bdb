"""Bytes to text: pick the encoding, unwrap e-mail and HTML bodies, normalise line ends.

The common case, valid UTF-8 without a NUL byte, costs one ``bytes.decode`` and a look at the
file's head (is it an e-mail body or an HTML page?). Everything else takes the slow paths:

* **BOM** (UTF-8, UTF-16, UTF-32): decoded by the BOM.
* **NUL bytes.** UTF-16 without a BOM is told by its NULs at every other position (ASCII text in
  UTF-16 is half NULs, all even or all odd) and decoded ("utf-16-le" / "utf-16-be"). Real
  binaries (a known magic number, or NULs scattered all over) are "binary". Otherwise the NULs
  are damage: trailing NUL padding (what a crash leaves) is stripped and reported
  (``n_padding_bytes``), a NUL run inside the text becomes one U+FFFD, so only the record holding
  it is quarantined ("undecodable bytes in record") while the rest of the file loads.
* **Not UTF-8.** Lines that are valid UTF-8 (and read as words) stay UTF-8, and so do lines
  of UTF-8 with a few bad bytes (`_utf8_with_stray_bytes`: a pasted Windows-1252 "’" is read as
  such, a character cut at the end of the file is U+FFFD); the other lines
  are decoded with one legacy encoding chosen for the whole file from those lines:
  - a CJK encoding only on strong evidence: the search marker 论文检索 (GB18030), or every high
    byte forming CJK characters, in runs of two or more (a stray byte + an ASCII letter is a
    valid Big5/GBK/Shift-JIS pair), mostly common ones (level 1 of GB2312 / JIS X 0208, Big5's
    frequent set, Hangul); the fewest rare characters wins among GB18030, Shift-JIS, EUC-JP,
    EUC-KR, Big5, ties going to GB18030 (our Chinese sources), all-Hangul text to EUC-KR;
  - a CJK encoding whose reading holds no CJK text but an author list's et-al ending ("ほか",
    "外 2 名", "等 5 人") beside Western letters and signs (Western names written in GB18030,
    with GBK's "—", "×", "·"), all of it words (`_pick_cjk_of_few_words`): those bytes read in
    a single-byte code page as letters or signs that may pass for words ("ŠO 1 –¼",
    "Pierre-Andr®¶");
  - otherwise the single-byte code page (`_SINGLE_BYTE`) whose words look like words: a word
    mixing scripts ("Mьller"), changing case inside ("MŸller", "иВАН"), holding three accented
    letters in a row ("Ïåòðîâ"), a symbol between letters ("na•ve") or an unusual sign glued to
    one ("■Information") is implausible, and charset-normalizer's mess ratio must stay low;
    readings equally plausible that differ ("Yıldız" in Windows-1254, "Yýldýz" in Windows-1252)
    go to the likelier (`_pick_single_byte`); when the reading chosen still holds nonsense, or
    words that look like CJK bytes (mostly signs, "–¼", "°™", or an opening mark after a letter
    or digit, "10¡Á10": weighed only here, Western text writes "±5°" and "10¡" too), a CJK
    reading without nonsense, of common characters, wins (`_pick_clean_cjk`: "第 1 名" beside
    "Pierre-André").
  Lines that still read as nonsense in the chosen encoding keep U+FFFD instead of their
  undecodable or non-ASCII characters, so their records are quarantined ("undecodable bytes in
  record") and never loaded as mojibake; when no encoding is plausible, the file is
  "unknown-8bit": every non-ASCII byte is U+FFFD, the ASCII-only records still load.
* **Files joined end to end** (`cat digest.txt windows-export.txt`), one of them UTF-16 with its
  BOM: cut at the BOM and each part decoded on its own ("utf-8+utf-16"), when that reads better
  than the whole (which was "binary", or a UTF-8 part read as UTF-16).
* **E-mail bodies and HTML pages** are decoded to the text they show: quoted-printable (a
  ``Content-Transfer-Encoding: quoted-printable`` header, or a soft line break ``=`` + newline
  with ``=XX`` escapes that plain text rarely holds), base64 and multipart MIME (the plain-text
  part, else the HTML part, by the ``email`` package), HTML (``<html>``, ``<pre>``, ``<br>`` …,
  by ``html.parser``). The header lines of an e-mail stay as lines (format detection accounts
  for them); the decoded body *is* the file's text: line numbers in lineage (and the line
  audit) refer to it, and the encoding says so ("utf-8+quoted-printable", "windows-1252+html").

Encoding labels: utf-8, utf-8-sig, utf-16, utf-32 (with BOM), utf-16-le, utf-16-be (no BOM),
utf-8-lossy (UTF-8 with bytes replaced by U+FFFD), gb18030 (GBK too), shift_jis (decoded as cp932,
its Windows superset), euc-jp, euc-kr, big5, iso-2022-jp (7-bit Japanese e-mail), windows-1252
(Latin-1 files too: the same letters), windows-1250 … windows-1257 (Latin-5, Latin-7 and Hebrew
ISO files too), windows-874 (TIS-620 too), iso-8859-2, iso-8859-5, iso-8859-7, iso-8859-15, koi8-r,
koi8-u, mac-roman,
"utf-8+windows-1252" (a file mixing both), unknown-8bit, binary, empty; "+quoted-printable",
"+base64", "+multipart", "+html" suffixes when a body was unwrapped (the charset part then comes
from the Content-Type header when there is one, e.g. "iso-8859-1+quoted-printable").
"+mojibake-repaired" is added after decoding (transforms/mojibake.py): lines that decoded cleanly
but were garbled by an earlier misreading ("JosÃ© GarcÃ­a") were repaired.
"""

from __future__ import annotations

import codecs
import csv
import math
import quopri
import re
import unicodedata
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from html.parser import HTMLParser
from pathlib import Path

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
    encoding: str  # what was detected (see the module docstring for the labels)
    n_bad_bytes: int = 0  # bytes replaced by U+FFFD
    n_padding_bytes: int = 0  # trailing NUL bytes stripped (a crash's padding)

    @property
    def is_binary(self) -> bool:
        return self.encoding == "binary"


def decode_bytes(raw: bytes) -> Decoded:
    decoded = _decode_any(raw)
    if decoded.is_binary or decoded.encoding == "empty":
        return decoded
    return _unwrap(decoded, raw)


def _decode_any(raw: bytes) -> Decoded:
    """Bytes to text, without unwrapping e-mail or HTML bodies."""
    if not raw:
        return Decoded("", "empty")
    parts = _concatenated(raw)
    if len(parts) > 1:
        whole = _decode_whole(raw)
        joined = _joined([_decode_any(part) for part in parts])
        return joined if joined is not None and _reads_better(joined, whole) else whole
    return _decode_whole(raw)


def _decode_whole(raw: bytes) -> Decoded:
    for bom, codec, label in _BOMS:
        if raw.startswith(bom):
            return _from_unicode(raw.decode(codec, errors="replace"), label)
    if b"\x00" not in raw:
        return _decode_ascii_compatible(raw)
    utf16 = _bomless_utf16(raw)
    if utf16 is not None:
        return utf16
    return _decode_with_nuls(raw)


# Files joined end to end (`cat a.txt b.txt`) where one is UTF-16: read whole, its NULs made the
# file "binary" (one quarantine span), or the whole was read as UTF-16, the other part as
# CJK-looking nonsense. A UTF-16 file starts with its BOM (Windows writes one), and so may a UTF-8
# one after it: the file is cut at each BOM that ends a part with no NUL (UTF-8, legacy) or a
# whole number of UTF-16 units, each part is decoded on its own, and the parts are kept when they
# read better than the whole (`_reads_better`).
_PART_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, codecs.BOM_UTF8)


def _concatenated(raw: bytes) -> list[bytes]:
    """The parts of a file that joins files of different encodings; the whole file when it
    holds no BOM past its start that could open a part (a UTF-16 one: never in a UTF-8 or legacy
    file; a UTF-8 one after UTF-16) and no UTF-16 part that starts or ends without a BOM."""
    # Past the file's own BOM: "ÿ" in UTF-16-LE is FF FE FF 00, a big-endian BOM at offset 1.
    lead = max(next((len(bom) for bom, _, _ in _BOMS if raw.startswith(bom)), 0), 1)
    utf16_later = _utf16_bom_later(raw, lead)
    utf8_after_utf16 = raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) and codecs.BOM_UTF8 in raw
    edges = {at for at in (_utf16_start(raw), _utf16_end(raw)) if at}
    if not (utf16_later or utf8_after_utf16 or edges):
        return [raw]
    cuts = [0]
    for at in sorted({at for bom in _PART_BOMS for at in _positions(raw, bom, lead)} | edges):
        part = raw[cuts[-1]:at]
        utf16_part = b"\x00" in part and len(part) % 2 == 0
        if part and (utf16_part or (b"\x00" not in part and not raw.startswith(codecs.BOM_UTF8, at))):
            cuts.append(at)
    return [raw[a:b] for a, b in zip(cuts, [*cuts[1:], len(raw)])]


# Where a UTF-16 part meets a part without NULs and no BOM marks the meeting (a UTF-8 or legacy
# file joined before or after a UTF-16 one): read whole as UTF-16, the other part's records became
# CJK-looking nonsense glued to a record, and were lost, with no quarantine row and the audit
# passing. The cut is made at a line end where a digest opens (`transforms.formats.detect_format`
# finds a record or marker in the part after it): a UTF-16 file's last line of CJK text has no
# NUL either, and its bytes may all be ASCII ("在其上" in UTF-16-BE is "W(QvN" and a line feed).
def _utf16_end(raw: bytes) -> int | None:
    """The end of a UTF-16 file (opened by its BOM) that BOM-less text without NULs follows."""
    big_endian = raw.startswith(codecs.BOM_UTF16_BE)
    if not (big_endian or raw.startswith(codecs.BOM_UTF16_LE)) or raw.startswith(codecs.BOM_UTF32_LE):
        return None
    end = raw.rfind(b"\x00") + (2 if big_endian else 1)  # past the last unit holding a NUL
    if end < 4 or end % 2 or end >= len(raw) or not raw.endswith(b"\n"):
        return None
    return end if _opens_a_digest(raw[end:]) else None


def _utf16_start(raw: bytes) -> int | None:
    """The start of a BOM-less UTF-16 file that text without NULs (ending its last line) precedes."""
    first = raw.find(b"\x00")
    if first < 2 or raw.startswith(tuple(bom for bom, _, _ in _BOMS)):
        return None
    start = first if raw[first - 1:first] == b"\n" else first - 1  # big-endian: NUL first; little: after
    if raw[start - 1:start] != b"\n":
        return None
    return start if _opens_a_digest(raw[start:]) else None


def _opens_a_digest(part: bytes) -> bool:
    """Whether a part holds a digest's record or marker (decoded on its own; few files get here)."""
    from transforms.formats import UNKNOWN, detect_format

    decoded = _decode_any(part)
    return not decoded.is_binary and detect_format(decoded.text) != UNKNOWN


def _utf16_bom_later(raw: bytes, start: int = 1) -> bool:
    """A UTF-16 BOM at `start` or later. Both BOMs hold 0xFF, which UTF-8 never does: CPython
    finds one byte with memchr, and searching every file twice for a 2-byte BOM was ~30x slower
    (`python -m bench.read_decode`)."""
    return raw.find(b"\xff", start) >= 0 and (
        raw.find(codecs.BOM_UTF16_LE, start) >= 0 or raw.find(codecs.BOM_UTF16_BE, start) >= 0)


def _positions(raw: bytes, needle: bytes, start: int = 0) -> Iterator[int]:
    at = raw.find(needle, start)
    while at >= 0:
        yield at
        at = raw.find(needle, at + 1)


def _reads_better(cut: Decoded, whole: Decoded) -> bool:
    """Whether the parts decoded one by one read better than the file read whole: text, not
    "binary"; more ASCII (digests are mostly ASCII, and ASCII read as UTF-16, or in the wrong
    byte order, becomes CJK-looking characters without an undecodable byte); then fewer
    undecodable bytes. A cut where a file only holds the bytes of a BOM ("ÿþ" in Windows-1252,
    damage in UTF-8, "＊þ" in UTF-16) reads worse."""
    def score(d: Decoded) -> tuple[bool, int, int]:
        return not d.is_binary, len(d.text.encode("ascii", "ignore")), -d.n_bad_bytes
    return score(cut) > score(whole)


def _joined(parts: list[Decoded]) -> Decoded | None:
    """The parts' texts as one ("utf-8+utf-16"), or None when one of them is not text."""
    if any(p.is_binary for p in parts):
        return None
    texts = [p.text if p.text.endswith("\n") or p is parts[-1] else p.text + "\n" for p in parts if p.text]
    labels = "+".join(dict.fromkeys(p.encoding for p in parts if p.encoding != "empty"))
    return Decoded("".join(texts), labels, sum(p.n_bad_bytes for p in parts), parts[-1].n_padding_bytes)


_ISO2022_JP = re.compile("\x1b\\$[@B]")  # the escape that switches to JIS X 0208


def _decode_ascii_compatible(raw: bytes) -> Decoded:
    try:
        # The common case: nothing else runs on the whole file.
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return _decode_8bit(raw)
    if "\x1b" in text and _ISO2022_JP.search(text):  # 7-bit Japanese e-mail: valid ASCII too
        try:
            return Decoded(_normalise_newlines(raw.decode("iso2022_jp")), "iso-2022-jp")
        except UnicodeDecodeError:
            pass
    return Decoded(_normalise_newlines(text), "utf-8")


# ---------------------------------------------------------------------------- NUL bytes
_MAGIC = (
    b"\x89PNG", b"%PDF-", b"\x7fELF", b"PK\x03\x04", b"PK\x05\x06", b"PK\x07\x08", b"\x1f\x8b",
    b"BZh91AY&SY", b"\xfd7zXZ\x00", b"7z\xbc\xaf\x27\x1c", b"GIF87a", b"GIF89a", b"\xff\xd8\xff",
    b"\xd0\xcf\x11\xe0", b"SQLite format 3\x00", b"\xca\xfe\xba\xbe", b"\xcf\xfa\xed\xfe",
    b"\xce\xfa\xed\xfe", b"OggS", b"\x00\x00\x01\x00", b"wOFF", b"\x00asm",
)  # only checked on files that are not UTF-8 or hold NULs; short ones ("MZ") would hit text
_NUL_RUN = re.compile(rb"\x00+")
_MAX_NUL_RUNS = 8  # damage leaves a few NUL runs; binary formats scatter them everywhere


def _decode_with_nuls(raw: bytes) -> Decoded:
    """Text with NUL bytes: trailing NULs are padding (stripped, reported), a NUL run inside the
    text is damage (one U+FFFD), a binary file is "binary"."""
    body = raw.rstrip(b"\x00")
    n_padding = len(raw) - len(body)
    if not body or raw.startswith(_MAGIC):
        return Decoded("", "binary")
    if len(_NUL_RUN.findall(body, 0, 1 << 20)) > _MAX_NUL_RUNS:
        return Decoded("", "binary")
    if n_padding and not body.endswith(b"\n"):
        # The padding cut the last line: mark the damage on it, so its record is quarantined
        # rather than loaded truncated.
        body += b"\x00"
    n_nul = body.count(b"\x00")
    while b"\x00\x00" in body:  # a NUL run becomes one mark (a few fast passes, no regex)
        body = body.replace(b"\x00\x00", b"\x00")
    inner = _decode_ascii_compatible(body)
    if inner.is_binary or inner.encoding == "empty":
        return Decoded("", "binary")
    text = inner.text.replace("\x00", REPLACEMENT)
    encoding = "utf-8-lossy" if inner.encoding == "utf-8" and n_nul else inner.encoding
    return Decoded(text, encoding, inner.n_bad_bytes + n_nul, n_padding)


def _from_unicode(text: str, label: str) -> Decoded:
    """Text decoded by its BOM (or BOM-less UTF-16): trailing U+0000 is padding, inner U+0000
    is damage, as in `_decode_with_nuls`."""
    stripped = text.rstrip("\x00")
    n_nul = len(text) - len(stripped)
    n_padding = n_nul * {"utf-32": 4, "utf-8-sig": 1}.get(label, 2)
    if n_nul and stripped and not stripped.endswith(("\n", "\r")):
        stripped += "\x00"  # the padding cut the last line
    n_bad = stripped.count(REPLACEMENT)
    if "\x00" in stripped:
        n_bad += stripped.count("\x00")
        stripped = re.sub("\x00+", REPLACEMENT, stripped)
    return Decoded(_normalise_newlines(stripped), label, n_bad, n_padding)


def _bomless_utf16(raw: bytes) -> Decoded | None:
    """UTF-16 without a BOM: NULs at odd positions only (little-endian) or even ones only
    (big-endian), and the bytes decode to text, not to controls and unassigned code points."""
    sample = raw[: 1 << 16].rstrip(b"\x00")  # trailing padding says nothing about the byte order
    sample = sample[: len(sample) - len(sample) % 2]
    pairs = len(sample) // 2
    if pairs < 2:
        return None
    even, odd = sample[0::2].count(0), sample[1::2].count(0)
    for nuls, other, codec, label in ((odd, even, "utf-16-le", "utf-16-le"), (even, odd, "utf-16-be", "utf-16-be")):
        # U+xx00 characters ("一" is 4E00) put a few NULs on the other side; the decoded text
        # decides (a binary read as UTF-16 is full of controls and unassigned code points)
        if nuls >= max(2, pairs * 0.05) and other < nuls:
            text = sample.decode(codec, errors="replace").rstrip("\x00")
            strange = sum(1 for ch in text if ch == REPLACEMENT or _is_strange(ch))
            if strange <= len(text) * 0.01:
                body = raw[: len(raw) - len(raw) % 2]
                decoded = _from_unicode(body.decode(codec, errors="replace"), label)
                if len(raw) % 2:  # a lone last byte: damage
                    decoded = Decoded(decoded.text + REPLACEMENT, label, decoded.n_bad_bytes + 1,
                                      decoded.n_padding_bytes)
                return decoded
    return None


def _is_strange(ch: str) -> bool:
    if ch in "\n\r\t\f":
        return False
    return unicodedata.category(ch) in ("Cc", "Cn", "Co", "Cs")


# ---------------------------------------------------------------------------- legacy encodings
_SAMPLE_LINES = 4000
# Single-byte code pages tried, in order of preference when their readings are equally likely.
# Subsets of one listed are left out (ISO-8859-1 and -9 of Windows-1252 and -1254, TIS-620 of
# Windows-874, ISO-8859-8 and -13 of Windows-1255 and -1257: the same letters at the same bytes);
# DOS code pages are not offered: they read stray bytes as box drawings and symbols too easily.
_SINGLE_BYTE = (("cp1252", "windows-1252"), ("iso8859_15", "iso-8859-15"), ("cp1250", "windows-1250"),
                ("cp1251", "windows-1251"), ("koi8_r", "koi8-r"), ("mac_roman", "mac-roman"),
                ("cp1253", "windows-1253"), ("cp1254", "windows-1254"), ("cp1257", "windows-1257"),
                ("iso8859_2", "iso-8859-2"), ("iso8859_7", "iso-8859-7"), ("iso8859_5", "iso-8859-5"),
                ("koi8_u", "koi8-u"), ("cp1255", "windows-1255"), ("cp1256", "windows-1256"),
                ("cp874", "windows-874"))
# Code pages of scripts without case (Thai, Hebrew): the case rules that make CJK bytes
# nonsense in Latin, Greek and Cyrillic ("ÀîÄÈ", "ЛоДИ") see nothing there, so a GBK name reads
# as a Thai or Hebrew word ("李娜" as "ภ๎ฤศ"). A clean CJK reading of the same bytes wins.
_CASELESS = frozenset({"cp874", "cp1255"})
_CJK = (("gb18030", "gb18030"), ("cp932", "shift_jis"), ("euc_jp", "euc-jp"), ("euc_kr", "euc-kr"), ("big5", "big5"))
_MAX_IMPLAUSIBLE = 0.25  # share of non-ASCII words that read as nonsense: above it, no encoding
_MAX_MESS = 0.25  # charset-normalizer's mess ratio of the non-UTF-8 lines: above it, nonsense
_MIN_MESS_SAMPLE = 400  # characters: the mess ratio of a few words is noise ("Núñez Núñez": 0.4)
_CONTENDER_MARGIN = 0.1  # nonsense shares this close to the best one's are told apart by likelihood
_LIKELY_FACTOR = 8.0  # a code page listed later must read this many times likelier to win
# ... than Windows-1252, by far the commonest: a one-name file reads "Dæhli" as "Dćhli" at 8x
# (real names hold more "ć" than "æ"); at 32x no real name alone is misread (eval.legacy_encodings).
_WINDOWS_1252_FACTOR = 32.0
_NO_CONFIDENCE = 0.01  # chardet's confidence below this (a word or two of evidence) tells nothing
_CAPITAL_START_LOG_ODDS = math.log(50)  # a word opening with a non-ASCII capital, against a small letter
NAME_LETTERS_PATH = Path(__file__).with_name("name_letters.csv")  # python -m eval.name_letters
LONE_LETTERS_PATH = Path(__file__).with_name("lone_letters.csv")  # the same command
NAME_LETTER_SIDES_PATH = Path(__file__).with_name("name_letter_sides.csv")  # the same command


def _decode_8bit(raw: bytes) -> Decoded:
    """Bytes that are not UTF-8 (and hold no NUL): a legacy encoding, a mixed file, damage,
    or a binary file."""
    if raw.startswith(_MAGIC) or _control_share(raw) > 0.05:
        return Decoded("", "binary")
    if b"\r" in raw:  # CR is 0D in every encoding tried here (never a trail byte)
        raw = raw.replace(b"\r\n", b"\n")
        raw = _read_lone_crs(raw, b"\r", b"\n", b" ")
    lines = raw.split(b"\n")
    out: list[str | None] = []  # the UTF-8 lines decoded, None for the others
    n_multibyte = 0  # bytes of valid UTF-8 multi-byte characters, beyond their first
    n_stray = 0  # UTF-8 lines whose few stray bytes read as Windows-1252 punctuation
    n_bad = 0  # bytes replaced by U+FFFD
    for i, line in enumerate(lines):
        if line.isascii():
            out.append(line.decode("ascii"))
            continue
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            text = _utf8_with_stray_bytes(line, at_file_end=i == len(lines) - 1)  # a pasted "’", a cut
            if text is not None:
                n_multibyte += len(line) - len(text)
                n_stray += text.count(REPLACEMENT) == 0
                n_bad += text.count(REPLACEMENT)
            out.append(text)
            continue
        if _line_is_nonsense(text):  # valid UTF-8 by accident: GBK "学习" is D1 A7 CF B0, "ѧϰ"
            out.append(None)
        else:
            out.append(text)
            n_multibyte += len(line) - len(text)  # the continuation bytes
    sample = [line for line, text in zip(lines, out) if text is None][:_SAMPLE_LINES]
    if SEARCH_MARKER.encode("gb18030") in raw[: 1 << 16]:
        return _cjk_file(raw, lines, out, n_multibyte, "gb18030", "gb18030")

    # A CJK file can hold a few lines that happen to be valid UTF-8 ("一" in GB18030 is D2 BB,
    # UTF-8 for "һ"); a file mixing real UTF-8 with stray bytes holds many.
    n_high = sum(len(line) - len(line.decode("ascii", "ignore")) for line in sample)
    may_be_cjk = n_multibyte <= 0.1 * n_high
    if n_multibyte == 0:
        picked = _pick_cjk_of_few_words(sample)
        if picked:
            return _whole_file(raw, *picked)
    if may_be_cjk:
        picked = _pick_cjk(sample)
        if picked:
            return _cjk_file(raw, lines, out, n_multibyte, *picked)

    codec, label = _pick_single_byte(sample)
    reading = b"\n".join(sample).decode(codec, errors="replace") if codec else ""
    if may_be_cjk and not (codec and _reads_as_words(reading) and not _looks_like_cjk_bytes(reading)
                           and codec not in _CASELESS):
        picked = _pick_clean_cjk(sample)  # a CJK reading without nonsense wins over one with some
        if picked:
            return _cjk_file(raw, lines, out, n_multibyte, *picked)
    n_legacy = 0
    for i, (line, text) in enumerate(zip(lines, out)):
        if text is not None:
            continue
        text = line.decode(codec, errors="replace") if codec else None
        if text is None or _line_is_nonsense(text):
            if n_multibyte:  # a UTF-8 file: keep the line's valid UTF-8, mark the bad bytes
                text = line.decode("utf-8", errors="replace")
                replaced = text.count(REPLACEMENT)
            else:
                text, replaced = _ascii_only(line)
            n_bad += replaced
        else:
            n_legacy += 1
        out[i] = text
    text = _normalise_newlines("\n".join(out))  # type: ignore[arg-type]
    if n_legacy == 0 and n_stray:
        label = "utf-8+windows-1252"
    elif n_legacy == 0:
        label = "utf-8-lossy" if n_multibyte else "unknown-8bit"
    elif n_multibyte:
        label = f"utf-8+{label}"
    if n_bad and _looks_binary(text):
        return Decoded("", "binary")
    return Decoded(text, label, n_bad)


# Windows-1252's punctuation at 80-9F: what a Windows program pastes into UTF-8 text (’ “ ” – …).
# Its letters there (Š, ž, Œ, Ÿ) are left out: read alone they are a guess.
_CP1252_PUNCTUATION = {b: bytes([b]).decode("cp1252") for b in
                       (0x80, 0x82, 0x84, 0x85, 0x86, 0x87, 0x89, 0x8B, 0x91, 0x92, 0x93, 0x94, 0x95,
                        0x96, 0x97, 0x99, 0x9B)}
_GREEK_LETTER = re.compile("[\u0391-\u03a9\u03b1-\u03c9\u03d1\u03d5\u03f5]")
_STRAY_RUN = re.compile("[\udc80-\udcff]+")  # bytes that are not UTF-8, as surrogateescape keeps them


def _utf8_with_stray_bytes(line: bytes, at_file_end: bool = False) -> str | None:
    """A line of UTF-8 with a few bytes that are not: the line, or None when it is not that.

    Valid multi-byte UTF-8 characters are strong evidence (legacy text rarely forms them), so
    the line stays UTF-8 when they are at least as many as its bad spots and read as words; a
    lone byte 80-9F is then Windows-1252 punctuation ("’"), any other bad spot (a stray "é", a
    character cut at the end of the file), or a "’" that makes a word nonsense, is U+FFFD and
    quarantines its record. Read as a whole in a legacy code page, every other character was
    garbled ("$τ$" as "$Ο„$")."""
    text = line.decode("utf-8", errors="surrogateescape")
    spots = _STRAY_RUN.findall(text)
    n_utf8 = sum(1 for ch in text if ord(ch) > 0x7F) - sum(map(len, spots))
    if at_file_end and _is_cut_character(spots[-1]) and text.endswith(spots[-1]):
        text = text[: -len(spots[-1])] + REPLACEMENT  # the download stopped inside it: no guess
        spots.pop()
    if n_utf8 < max(1, len(spots)) or _utf8_is_nonsense(_STRAY_RUN.sub(" ", text)):
        return None  # Mac Roman's "l’école" is valid UTF-8 "lՎcole"
    read = _STRAY_RUN.sub(_cp1252_punctuation, text)
    if REPLACEMENT in read and n_utf8 < 2 * len(spots):
        return None  # as much like a legacy line: left to the code pages
    return _STRAY_RUN.sub(REPLACEMENT, text) if _utf8_is_nonsense(read) else read


def _cp1252_punctuation(m: re.Match) -> str:
    """A bad spot read as Windows-1252 punctuation when it is one byte that is, else U+FFFD."""
    byte = ord(m.group()[0]) - 0xDC00
    return _CP1252_PUNCTUATION.get(byte, REPLACEMENT) if len(m.group()) == 1 else REPLACEMENT


def _utf8_is_nonsense(text: str) -> bool:
    """`_line_is_nonsense` for a line taken as UTF-8: Greek letters beside Latin ones are math
    ("ΔBe", "Cφ"), and U+FFFD marks are damage already counted, not words."""
    return _line_is_nonsense(_GREEK_LETTER.sub("x", text.replace(REPLACEMENT, " ")))


def _is_cut_character(spot: str) -> bool:
    """Whether the bytes of a bad spot (surrogate-escaped) open a UTF-8 character left unfinished."""
    lead, rest = ord(spot[0]) - 0xDC00, [ord(ch) - 0xDC00 for ch in spot[1:]]
    needed = 1 if 0xC2 <= lead <= 0xDF else 2 if 0xE0 <= lead <= 0xEF else 3 if 0xF0 <= lead <= 0xF4 else 0
    return len(rest) < needed and all(0x80 <= b <= 0xBF for b in rest)


def _control_share(raw: bytes) -> float:
    sample = raw[:8192]
    controls = sum(sample.count(bytes([b])) for b in range(32) if b not in (9, 10, 12, 13, 0x1A))
    return controls / len(sample)


def _ascii_only(line: bytes) -> tuple[str, int]:
    """The line with each non-ASCII byte as U+FFFD, and how many there were."""
    text = line.decode("ascii", errors="replace")
    return text, text.count(REPLACEMENT)


_CJK_BAD = re.compile("[\x00-\x08\x0b\x0e-\x19\x1b-\x1f\x7f-\x9f\u3200-\u33ff\ue000-\uf8ff\uff61-\uff9f\ufffd]")


def _cjk_file(raw: bytes, lines: list[bytes], out: list[str | None], n_multibyte: int,
              codec: str, label: str) -> Decoded:
    """A CJK file, whose valid UTF-8 lines are UTF-8 indeed where their CJK reading shows it (a
    UTF-8 digest joined to a GB18030 page: "Müller" read whole as GB18030 was "M眉ller")."""
    if n_multibyte == 0:
        return _whole_file(raw, codec, label)
    kept = [text if text is not None and not text.isascii() and _utf8_not_cjk(line, codec) else None
            for line, text in zip(lines, out)]
    if not any(kept):
        return _whole_file(raw, codec, label)
    parts = [_whole_file(line, codec, label) if text is None else Decoded(text, "utf-8")
             for line, text in zip(lines, kept)]
    return Decoded("\n".join(p.text for p in parts), f"utf-8+{label}", sum(p.n_bad_bytes for p in parts))


def _utf8_not_cjk(line: bytes, codec: str) -> bool:
    """Whether a valid UTF-8 line of a CJK file reads as UTF-8 rather than in `codec`: the codec
    cannot decode it, makes stray-byte characters of it, or glues ideographs to Latin letters
    ("M眉ller", "Th茅ophile"). A CJK line valid as UTF-8 by accident ("一" is D2 BB, UTF-8 "һ";
    GB18030 "濮洪波" is UTF-8 "姺鲨") reads as none of these: it stays in the codec, and so does
    CJK text in UTF-8 that the codec reads cleanly."""
    try:
        cjk = line.decode(codec)
    except UnicodeDecodeError:
        return True
    return bool(_CJK_BY_LATIN.search(cjk) or _CJK_BAD.search(cjk))


def _whole_file(raw: bytes, codec: str, label: str) -> Decoded:
    """The whole file in one CJK encoding; a line holding what stray bytes make (private-use,
    half-width katakana, enclosed signs, undecodable bytes) keeps only its ASCII."""
    text = raw.decode(codec, errors="replace")
    n_bad = 0
    if _CJK_BAD.search(text):
        lines = text.split("\n")
        for i, line in enumerate(lines):
            if _CJK_BAD.search(line):
                lines[i], replaced = _ascii_only(line.encode(codec, errors="replace"))
                n_bad += replaced
        text = "\n".join(lines)
    return Decoded(_normalise_newlines(text), label, n_bad)


# The common characters of each CJK encoding, as lead-byte ranges of the character encoded
# back: level 1 of GB2312 (3,755 characters, 99.7 % of running Chinese text), of JIS X 0208
# (2,965 kanji), Big5's frequent characters (5,401). Text in another encoding read as one of
# these makes as many level-2 and extension characters as level-1 ones.
_LEVEL1 = {"gb18030": ("gb2312", 0xB0, 0xD7), "cp932": ("shift_jis", 0x88, 0x98),
           "euc_jp": ("euc_jp", 0xB0, 0xCF), "big5": ("big5", 0xA4, 0xC6)}
_KANA_CODECS = {"cp932", "euc_jp"}


def _cjk_class(ch: str, codec: str) -> str:
    """common / rare / neutral / bad: how much a character decoded as `codec` says for it."""
    o = ord(ch)
    if o < 128:
        return "neutral"
    if 0x3040 <= o <= 0x30FF:
        return "common" if codec in _KANA_CODECS else "rare"  # kana
    if 0xAC00 <= o <= 0xD7A3:
        return "common" if codec == "euc_kr" else "rare"  # Hangul syllables
    if 0x4E00 <= o <= 0x9FFF:
        if codec not in _LEVEL1:
            return "rare"  # Hanja in Korean text
        table, low, high = _LEVEL1[codec]
        try:
            lead = ch.encode(table)[0]
        except UnicodeEncodeError:
            return "rare"
        return "common" if low <= lead <= high else "rare"
    if 0x3400 <= o <= 0x4DBF or 0x20000 <= o <= 0x2FFFF or 0xF900 <= o <= 0xFAFF:
        return "rare"
    if 0x3000 <= o <= 0x303F or 0xFF01 <= o <= 0xFF5E or 0x2000 <= o <= 0x206F:
        return "neutral"  # CJK and full-width punctuation, quotes, dashes
    if 0xFF61 <= o <= 0xFF9F or 0x3200 <= o <= 0x33FF:
        return "bad"  # half-width katakana, enclosed / squared signs: what stray bytes become
    cat = unicodedata.category(ch)
    if cat in ("Co", "Cn", "Cc", "Cs") or ch == REPLACEMENT:
        return "bad"
    return "neutral"  # Latin with accents, Greek, Cyrillic, symbols: GB2312 and JIS have them


_CJK_IN_LATIN = re.compile(r"(?<=[A-Za-z])[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]+(?=[A-Za-z])")


_CJK_BY_LATIN = re.compile(r"(?<=[A-Za-z])[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3]"
                           r"|[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3](?=[A-Za-z])")


_CJK_CHARS = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3\uf900-\ufaff"
_CJK_CHAR = re.compile(f"[{_CJK_CHARS}]")
_CJK_RUN = re.compile(f"[{_CJK_CHARS}]{{2,}}")


def _cjk_evidence(sample: list[bytes], codec: str) -> float | None:
    """Strong evidence for a CJK encoding: the lines decode strictly, and their characters are
    CJK, mostly common ones, with (almost) nothing that stray bytes would make. The share of
    rare characters (lower is better), or None when the evidence is not there."""
    if not sample:
        return None
    try:
        text = b"\n".join(sample).decode(codec)
    except UnicodeDecodeError:
        return None
    counts = {"common": 0, "rare": 0, "bad": 0, "neutral": 0}
    for ch in text:
        if ord(ch) > 127:
            counts[_cjk_class(ch, codec)] += 1
    # A stray high byte followed by an ASCII letter or digit is a valid Big5 / GBK / Shift-JIS
    # pair ("°C" B0 43 is Big5 "蚓", "©I" GBK "㊣"): one character alone between ASCII. CJK
    # words and names are runs of two or more characters.
    in_runs = sum(len(m) for m in _CJK_RUN.findall(text))
    if in_runs < 2 or in_runs < 0.6 * sum(1 for _ in _CJK_CHAR.finditer(text)):
        return None
    # Ideographs inside a Latin word ("l痛cole" is "l’École" in Windows-1252): stray bytes.
    counts["bad"] += sum(len(m) for m in _CJK_IN_LATIN.findall(text))
    # An ideograph glued to a Latin letter is weak evidence: a stray high byte followed by an
    # ASCII letter is a valid Big5 / GBK / Shift-JIS pair ("©I" A9 49 is Big5 "形" or GBK "㊣").
    glued = sum(1 for _ in _CJK_BY_LATIN.finditer(text))
    moved = min(glued, counts["common"])
    counts["common"] -= moved
    counts["rare"] += moved
    cjk = counts["common"] + counts["rare"]
    if counts["common"] >= 2 and counts["common"] >= 0.8 * cjk and counts["bad"] <= 0.02 * (cjk + counts["bad"]):
        return counts["rare"] / cjk
    return None


def _pick_cjk(sample: list[bytes]) -> tuple[str, str] | None:
    """The CJK encoding with strong evidence and the fewest rare characters; None when none has
    the evidence. Ties go to the first in `_CJK` order: Chinese from the first 32 rows of GB2312
    ("李四") is also common Japanese in EUC-JP, and GB18030/GBK is the encoding our Chinese
    sources use; Japanese with kana is EUC-JP (kana are rare in Chinese). Korean in EUC-KR
    reads as common hanzi in GB2312 too: all-Hangul text is EUC-KR."""
    scored = sorted((share, i) for i, (codec, _) in enumerate(_CJK)
                    if (share := _cjk_evidence(sample, codec)) is not None)
    if not scored:
        return None
    korean = [i for _, i in scored if _CJK[i][0] == "euc_kr"]
    if korean and _is_korean(sample):
        return _CJK[korean[0]]  # all Hangul in EUC-KR (Korean in GB2312 is common hanzi too)
    best = min(share for share, _ in scored)
    return _CJK[min(i for share, i in scored if share - best < 0.05)]


# The et-al endings of CJK author lists that the parser reads (`transforms.formats.common`:
# AND_MORE, _UNSAID_MORE, _DENG), at a line's end (an HTML tag may follow): "ほか", "外 2 名",
# "他", "等", "等 5 人", "외 2 명".
_ET_AL_ENDING = re.compile(r"(?:[ \t]*ほか|[ \t,，、][ \t]*[外他외]|[ \t]*等人?)(?:[ \t]*\d+[ \t]*[名人位명])?"
                           r"(?=[ \t.]*(?:<[^<>\n]*>[ \t]*)*$)", re.M)


def _cjk_reading(sample: list[bytes], codec: str) -> tuple[str, int] | None:
    """The lines read in a CJK code page without their et-al endings, and how many endings there
    were; None when a line does not decode or holds what stray bytes make (`_CJK_BAD`)."""
    try:
        text, n_endings = _ET_AL_ENDING.subn("", b"\n".join(sample).decode(codec))
    except UnicodeDecodeError:
        return None
    return None if _CJK_BAD.search(text) else (text, n_endings)


def _reads_as_words(text: str) -> bool:
    """No word no language writes: an ideograph glued to Latin letters mixes scripts ("Nicol疽"
    is Latin-1 "Nicolás" read in Shift-JIS)."""
    return not any(_line_is_nonsense(line) for line in text.split("\n"))


def _pick_cjk_of_few_words(sample: list[bytes]) -> tuple[str, str] | None:
    """The CJK code page whose reading holds no CJK text but et-al endings ("Ziru Chen ほか",
    "Bo Chen 等 5 人"), Western letters and signs, as a Chinese site writes Western names in
    GB18030 ("ö" is A8 B4; "TD($λ$)"), with GBK's punctuation ("—" A1 AA, "×" A1 C1, "·" A1 A4),
    and reads as words: with an ending or a letter (signs alone read as signs in any of them).
    Single-byte text almost never reads so (its accented letters are C0-FF, and one before an
    ASCII letter makes an ideograph glued to Latin letters), while those bytes read in a
    single-byte code page as letters or signs that may pass for words: "ŠO 1 –¼" for "外 1 名",
    "Ëû" for "他", "Pierre-Andr®¶" for "Pierre-André"."""
    for codec, label in _CJK:
        reading = _cjk_reading(sample, codec)
        if reading is None:
            continue
        text, n_endings = reading
        if _CJK_CHAR.search(text):
            continue
        high = [ch for ch in text if not ch.isascii()]
        if (all(_is_western_letter(ch) or _is_code_page_sign(ch) for ch in high)
                and (n_endings or any(map(_is_western_letter, high))) and _reads_as_words(text)):
            return codec, label
    return None


def _is_western_letter(ch: str) -> bool:
    return ch.isalpha() and _script(ch) in _WESTERN_SCRIPTS


def _pick_clean_cjk(sample: list[bytes]) -> tuple[str, str] | None:
    """For lines the single-byte code pages read with nonsense ("第 1 名" is "µÚ 1 Ãû" in
    Windows-1252): the CJK reading that reads as words, of two common characters or more and at
    most a fifth rare ones. Of two that read about as well (Korean in EUC-KR is common hanzi in
    GB18030 too: without runs of CJK characters, `_pick_cjk`, a few words cannot tell them
    apart), the one reading more et-al endings ("외 2 명"); None when that does not tell either."""
    scored = []  # (share of rare characters, endings, codec, label)
    for codec, label in _CJK:
        reading = _cjk_reading(sample, codec)
        if reading is None or not _reads_as_words(reading[0]):
            continue
        classes = Counter(_cjk_class(ch, codec) for ch in reading[0] if not ch.isascii())
        n_cjk = classes["common"] + classes["rare"]
        if classes["common"] >= 2 and classes["rare"] <= 0.2 * n_cjk:
            scored.append((classes["rare"] / n_cjk, reading[1], codec, label))
    close = sorted((-endings, codec, label) for share, endings, codec, label in scored
                   if share - min(scored)[0] < 0.05)  # the most endings first
    if not close or (len(close) > 1 and close[1][0] == close[0][0]):
        return None
    return close[0][1:]


_WESTERN_SCRIPTS = {"LATIN", "GREEK", "CYRILLIC"}


def _is_korean(sample: list[bytes]) -> bool:
    """At least 95 % Hangul and 8 distinct syllables in EUC-KR: a few Chinese characters from
    the first 25 rows of GB2312 ("陈静") are all Hangul in EUC-KR too."""
    text = b"\n".join(sample).decode("euc_kr", errors="replace")
    high = [ch for ch in text if ord(ch) > 127 and unicodedata.category(ch)[0] == "L"]
    hangul = [ch for ch in high if 0xAC00 <= ord(ch) <= 0xD7A3]
    return bool(high) and len(hangul) >= 0.95 * len(high) and len(set(hangul)) >= 8


def _pick_single_byte(sample: list[bytes]) -> tuple[str | None, str]:
    """The single-byte code page under which the non-UTF-8 lines read best, or None.

    Readings with nonsense words (`_word_is_nonsense`) or a high mess ratio are out. Among the
    rest, equally sensible readings that differ ("Yıldız" in Windows-1254, "Yýldýz" in
    Windows-1252: both only letters) are told apart by their likelihood (`_log_odds`: the
    letters of real author names, whether each word's letters are one language's, and chardet's
    byte models run on the non-ASCII words alone,
    as the English around them drowns the few letters that tell a Turkish name from an
    Icelandic one). The code page listed first wins unless another is `_LIKELY_FACTOR` times
    likelier (`_WINDOWS_1252_FACTOR` against Windows-1252); then the likeliest of those does."""
    from charset_normalizer.md import mess_ratio

    readings: dict[str, tuple[float, int, str, str, str]] = {}  # words read -> (share, rank, codec, label, text)
    for rank, (codec, label) in enumerate(_SINGLE_BYTE):
        text = "\n".join(line.decode(codec, errors="replace") for line in sample)
        words = _non_ascii_words(text.replace("\n", " "))
        key = " ".join(words)
        if words and key not in readings:  # the same words: the code page listed first
            readings[key] = (sum(map(_word_is_nonsense, words)) / len(words), rank, codec, label, text[:100_000])
    contenders: list[tuple[float, int, str, str, str]] = []
    for r in sorted(r for r in readings.values() if r[0] <= _MAX_IMPLAUSIBLE):
        if contenders and r[0] - contenders[0][0] > _CONTENDER_MARGIN:
            break
        if len(r[4]) < _MIN_MESS_SAMPLE or mess_ratio(r[4], maximum_threshold=1.0) <= _MAX_MESS:
            contenders.append(r)
    if not contenders:
        return None, "unknown-8bit"
    words = _word_bytes(sample, [r[2] for r in contenders])
    by_words: dict[str, tuple[float, int, str, str, str]] = {}
    for r in contenders:  # readings that differ only in lone signs ("£" or "Ł") are one to chardet
        by_words.setdefault(words.decode(r[2], errors="replace"), r)
    ranked = sorted(by_words.values(), key=lambda r: (r[0], r[1]))
    best = ranked[0]  # the most sensible reading, of the code page listed first
    if len(ranked) > 1:
        odds = _log_odds(words, [r[2] for r in ranked])
        factor = _WINDOWS_1252_FACTOR if best[2] == "cp1252" else _LIKELY_FACTOR
        likelier = [r for r in ranked[1:] if odds(r[2], best[2]) > math.log(factor)]
        if likelier:
            best = likelier[0]
            for r in likelier[1:]:  # the likeliest of the readings clearly likelier than the first
                if odds(r[2], best[2]) > 0:
                    best = r
    return best[2], best[3]


_LONE_BYTE = re.compile(rb"(?<![A-Za-z\x80-\xff])[\x80-\xff](?![A-Za-z\x80-\xff])")


def _word_bytes(sample: list[bytes], codecs_: list[str]) -> bytes:
    """The sample's words that hold a non-ASCII byte, space-separated; not a word that reads as
    nonsense in every code page."""
    words = {w for line in sample for w in line.split() if not w.isascii()}
    sensible = (w for w in words if not all(_word_is_nonsense(w.decode(c, errors="replace")) for c in codecs_))
    return b" ".join(sorted(sensible))[:200_000]


def _log_odds(words: bytes, codecs_: list[str]) -> Callable[[str, str], float]:
    """How much likelier the words are read in one code page than in another (log odds): how
    often real author names use the letters each reads (where both read a letter: a sign is
    judged by the nonsense rules, not here), and chardet's confidence that the bytes are in each
    code page (its byte models know which letters follow which)."""
    import chardet

    names = {codecs.lookup(c).name: c for c in codecs_}
    # chardet reads no language in a lone byte among digits and signs ("£5", "§3", "(α)",
    # "TD($λ$)"): the letter tables weigh those where they read letters.
    in_words = b" ".join(w for w in _LONE_BYTE.sub(b" ", words).split(b" ") if not w.isascii())
    confidence: dict[str, float] = {}
    with warnings.catch_warnings():  # no code page fits the bytes: no confidence in any (not a problem)
        warnings.filterwarnings("ignore", message="no_match_encoding", category=UserWarning)
        found = chardet.detect_all(in_words, include_encodings=list(names), compat_names=False) if in_words else []
    for guess in found:
        try:
            codec = names.get(codecs.lookup(guess["encoding"] or "").name)
        except LookupError:
            continue
        if codec and codec not in confidence:
            confidence[codec] = guess["confidence"]
    # One byte is one character in each code page: readings compare position by position. A TeX
    # command's letters are masked: the "Ξ" of "\mathbfΞ" stands alone, a symbol.
    masked = _TEX_COMMAND_BYTES.sub(lambda m: b"\\" * len(m.group()), words)
    readings = {codec: masked.decode(codec, errors="replace") for codec in codecs_}
    high = [i for i, byte in enumerate(words) if byte > 0x7F]
    starts = {i for i in high if i == 0 or words[i - 1] == 0x20}

    def odds(a: str, b: str) -> float:
        both = [i for i in high if _is_letter(readings[a][i]) and _is_letter(readings[b][i])]
        chardet_odds = math.log(max(confidence.get(a, 0.0), _NO_CONFIDENCE) / max(confidence.get(b, 0.0), _NO_CONFIDENCE))
        # A word of English text that opens with a non-ASCII letter is a name: a capital ("Žižek",
        # "Øksendal"), seldom a small letter (Mac Roman's "éiûek" of the same bytes). Only where
        # both readings have case (Hebrew has none: KOI8-R's capitals of its bytes are no likelier).
        case_odds = sum(_CAPITAL_START_LOG_ODDS * (readings[a][i].isupper() - readings[b][i].isupper())
                        for i in starts.intersection(both) if _cased(readings[a][i]) and _cased(readings[b][i]))
        language_odds = sum(map(_language_log_p, split[a])) - sum(map(_language_log_p, split[b]))
        return chardet_odds + case_odds + language_odds + sum(
            _letter_log_p(readings[a], i) - _letter_log_p(readings[b], i) + _sides_odds(readings[a], readings[b], i)
            for i in both)
    split = {codec: _NAME_PARTS.split(text) for codec, text in readings.items()}
    return odds


def _is_letter(ch: str) -> bool:
    """A letter of a name: not a sign Unicode files as a letter ("µ", "º": `_LATIN_SIGNS`)."""
    return ch.isalpha() and ch not in _LATIN_SIGNS


def _cased(ch: str) -> bool:
    return ch.isupper() or ch.islower()


# The non-ASCII letters each Latin-script language writes names with. A name part holds the
# letters of one language: a code page that turns some letters of a word into another language's
# while others of the first remain reads no one's name ("Guðrún" in Windows-1254 is "Guğrún",
# Turkish ğ beside Icelandic ú; Latvian "Bērziņš" in Windows-1252 is "Bçrziòð"). The letter
# frequencies above cannot see it: they weigh letters one by one, and ğ is commoner than ð.
_ALPHABETS = {
    "german": "äöüß", "french": "àâæçéèêëîïôœùûüÿ", "spanish": "áéíñóúü", "portuguese": "áâãàçéêíóôõúü",
    "italian": "àèéìíîòóùú", "catalan": "àçèéíïòóúüŀ", "dutch": "áéèëíïóöüú", "danish_norwegian": "æøåéó",
    "swedish_finnish": "åäöéšž", "icelandic": "áðéíóúýþæö", "polish": "ąćęłńóśźż", "czech": "áčďéěíňóřšťúůýž",
    "slovak": "áäčďéíĺľňóôŕšťúýž", "south_slavic": "čćđšž", "hungarian": "áéíóöőúüű", "romanian": "ăâîșțşţ",
    "turkish": "çğıöşüâ",  # no î, û: a few Turkish loanwords have them, names do not
    "azerbaijani": "çəğıöşü", "lithuanian": "ąčęėįšųūž", "latvian": "āčēģīķļņšūž",
    "estonian": "äöõüšž", "albanian": "çë", "maltese": "ċġħżàèìòù", "welsh": "ŵŷâêîôûäëïöüáéíóúàèìòù",
    "vietnamese": "àáâãèéêìíòóôõùúýăđĩũơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ",
    "pinyin_romaji_maori": "āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜüôû",
    "faroese": "áðíóúýæø",
}
# A language few authors write in: a word only it could write ("Dvoøák": Czech "Dvořák" read in
# Windows-1252, ø with á as only Faroese has them) is that much less likely than one of the others
# (some 50,000 speakers of Faroese, 10 million of Czech).
_RARE_LANGUAGES = {"faroese": math.log(1 / 1000)}
# A word no one language writes. None of the 486 non-ASCII name parts of the real corpus is
# (../shared/realdata); it outweighs the letter frequencies of a word or two, which know few
# names of the smaller languages ("Bērziņš": ē and ņ unseen, so "Bçrziòð" read likelier).
_MIXED_LANGUAGES = math.log(1 / 10_000)
# Letters no word opens with: Icelandic and Faroese ð, German ß ("Šimkus" in Windows-1252: "Ðimkus").
_NEVER_FIRST = {"ð", "ß"}
_NAME_PARTS = re.compile(r"[\s\-‐‑–—,;/()]+")  # "Müller-Šimić" is two name parts of two languages


@lru_cache(maxsize=1 << 16)
def _language_log_p(word: str) -> float:
    """log P that a name part holds its non-ASCII Latin letters together (`_ALPHABETS`): 0 when a
    common language writes them all, less for a rare one, `_MIXED_LANGUAGES` for none. Words of
    other scripts, or no accented letter, say nothing here."""
    letters = {ch for ch in word.lower() if _is_letter(ch) and not ch.isascii() and _script(ch) == "LATIN"}
    if not letters:
        return 0.0
    if any(unicodedata.category(ch) == "Mn" and _script(ch) != "COMBINING" for ch in word):
        return _MIXED_LANGUAGES  # an Arabic or Hebrew point on a Latin letter ("Bērziņš" in Windows-1256: "Bçrziًٍ")
    fits = [lang for lang, alphabet in _ALPHABETS.items() if letters.issubset(alphabet)]
    if not fits or word[:1].lower() in _NEVER_FIRST:
        return _MIXED_LANGUAGES
    return max(_RARE_LANGUAGES.get(lang, 0.0) for lang in fits)


def _letter_log_p(text: str, i: int) -> float:
    """log P of the letter at text[i] among the non-ASCII letters real digests write there: a
    letter with a letter beside it is a name's (`_name_letter_log_p`), one standing alone a
    symbol of a title or abstract (`_lone_letter_log_p`: Greek, nearly always), unless a full
    stop closes it: an initial ("É. Moulines")."""
    if _in_a_name(text, i):
        log_p, unseen = _name_letter_log_p()
        return log_p.get(text[i].lower(), unseen)
    log_p, unseen = _lone_letter_log_p()
    return log_p.get(text[i], unseen)


def _in_a_name(text: str, i: int) -> bool:
    """A letter with a letter beside it, or closed by a full stop (an initial)."""
    after = text[i + 1] if i + 1 < len(text) else ""
    return (i > 0 and text[i - 1].isalpha()) or after.isalpha() or after == "."


def _sides_odds(a: str, b: str, i: int) -> float:
    """How much likelier real names write reading a's letter at i between its sides than reading
    b's (`_side_log_p`): only where both are name letters the sides table knows. A letter it has
    never seen (Icelandic ð, þ: the real names hold none) says nothing, rather than losing to one
    it has seen where it stands (Turkish ğ between vowels: "Auður" read as "Auğur")."""
    if not (_in_a_name(a, i) and _in_a_name(b, i)):
        return 0.0
    _, per_letter, _ = _side_counts()
    la, lb = a[i].lower(), b[i].lower()
    if la not in per_letter or lb not in per_letter:
        return 0.0
    return _side_log_p(la, *_sides(a, i)) - _side_log_p(lb, *_sides(b, i))


def _sides(text: str, i: int) -> tuple[str, str]:
    return side_class(text[i - 1] if i > 0 else ""), side_class(text[i + 1] if i + 1 < len(text) else "")


# What stands beside a letter of a name: a vowel, a consonant or no letter (its base letter,
# accents stripped; letters that carry no accent to strip are named here).
_VOWELS = frozenset("aeiouy")
_BASE_LETTER = {"ł": "l", "ø": "o", "æ": "a", "œ": "o", "ð": "d", "þ": "t", "ß": "s", "ı": "i", "đ": "d",
                "ħ": "h", "ŀ": "l", "ə": "e"}
_SIDE_WEIGHT = 5.0  # all letters' sides count as this many names of a letter beside its own


def side_class(ch: str) -> str:
    """"V" (a vowel), "C" (a consonant) or "B" (no letter: the word's boundary)."""
    if not ch.isalpha():
        return "B"
    ch = ch.lower()
    base = _BASE_LETTER.get(ch) or unicodedata.normalize("NFD", ch)[0]
    return "V" if base in _VOWELS else "C"


def _side_log_p(letter: str, before: str, after: str) -> float:
    """log P that a name's `letter` stands between these sides (`side_class`): the same bytes read
    as a letter of another language stand where that language never writes it ("Kostiæ" for
    "Kostić": Danish æ ends no word after i; "Podobiñski" for "Podobiński": Spanish ñ stands
    between vowels). Each letter's own sides, smoothed toward those of all letters, so a letter
    few names hold says little."""
    counts, per_letter, pooled = _side_counts()
    return math.log((counts.get((letter, before, after), 0) + _SIDE_WEIGHT * pooled[before, after])
                    / (per_letter.get(letter, 0) + _SIDE_WEIGHT))


@lru_cache(maxsize=1)
def _side_counts() -> tuple[dict[tuple[str, str, str], int], dict[str, int], dict[tuple[str, str], float]]:
    """transforms/name_letter_sides.csv (`eval.name_letters`) as `side_tables`."""
    with NAME_LETTER_SIDES_PATH.open(encoding="utf-8") as f:
        next(f)  # "# names: N"
        return side_tables({(row["letter"], row["before"], row["after"]): int(row["n"]) for row in csv.DictReader(f)})


def side_tables(counts: dict[tuple[str, str, str], int]):
    """(counts, names per letter, P(sides) over all letters, add-one smoothed) of counts of
    (letter, before, after)."""
    per_letter: dict[str, int] = {}
    pooled = dict.fromkeys(((b, a) for b in "VCB" for a in "VCB"), 1)
    for (letter, before, after), n in counts.items():
        per_letter[letter] = per_letter.get(letter, 0) + n
        pooled[before, after] += n
    total = sum(pooled.values())
    return counts, per_letter, {sides: n / total for sides, n in pooled.items()}


def _read_letter_counts(path: Path) -> dict[str, int]:
    """A table of `eval.name_letters`: letter -> times counted."""
    with path.open(encoding="utf-8") as f:
        next(f)  # "# names: N"
        return {row["letter"]: int(row["n"]) for row in csv.DictReader(f)}


def _one_alphabet(letters: str) -> bool:
    """Whether one language (`_ALPHABETS`) writes all these letters."""
    folded = set(letters.lower())
    return any(folded.issubset(alphabet) for alphabet in _ALPHABETS.values())


@lru_cache(maxsize=1)
def _name_letter_log_p() -> tuple[dict[str, float], float]:
    """log P(letter) among the non-ASCII letters of real author names (lower-cased), add-one
    smoothed, and the log P of a letter they never use."""
    counts = _read_letter_counts(NAME_LETTERS_PATH)
    total = sum(counts.values()) + len(counts) + 1
    return {letter: math.log((n + 1) / total) for letter, n in counts.items()}, math.log(1 / total)


@lru_cache(maxsize=1)
def _lone_letter_log_p() -> tuple[dict[str, float], float]:
    """log P(letter) among the non-ASCII letters that stand alone in real titles and abstracts
    (case kept), for every letter the code pages read: P(its script) × P(the letter | script),
    each add-one smoothed, the letters of a script being those the code pages can read. By
    script first, as the counts are few: a lone "σ" seen 4 times is a Greek symbol, as lone
    letters nearly always are, not one of the Latin letters never seen alone ("ó")."""
    counts = _read_letter_counts(LONE_LETTERS_PATH)
    readable = {ch for codec, _label in _SINGLE_BYTE for ch in bytes(range(0x80, 0x100)).decode(codec, "ignore")
                if _is_letter(ch)} | set(counts)
    by_script: dict[str, set[str]] = {}
    for ch in readable:
        by_script.setdefault(_script(ch), set()).add(ch)
    n_script = {script: sum(counts.get(ch, 0) for ch in letters) for script, letters in by_script.items()}
    total = sum(n_script.values()) + len(by_script)
    log_p = {ch: math.log((n_script[script] + 1) / total)
             + math.log((counts.get(ch, 0) + 1) / (n_script[script] + len(letters)))
             for script, letters in by_script.items() for ch in letters}
    return log_p, min(log_p.values())


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _non_ascii_words(text: str) -> list[str]:
    """The space-separated words of a line that hold a non-ASCII character."""
    words = []
    end = -1
    for m in _NON_ASCII.finditer(text):
        i = m.start()
        if i < end:
            continue
        start = text.rfind(" ", 0, i) + 1
        end = text.find(" ", i)
        end = len(text) if end < 0 else end
        words.append(text[start:end])
    return words


def _line_is_nonsense(text: str) -> bool:
    return any(_word_is_nonsense(w) for w in _non_ascii_words(text))


_JOINERS = set("'’‘ʼ·-‐‑–—")
# Signs that Western text glues to a word: quotes, currency, ©, °, superscripts, ordinals. Not
# "¶": it opens a paragraph number ("¶3"), never a word, and it is Windows-1253's reading of
# ISO-8859-7's "Ά" (B6): "¶ννα" for "Άννα" read as sensible, and the file lost its Ά.
_GLUED_SIGNS = set("“”„‚«»‹›…•†‡©®™£¥€¢$§°±×÷µ¹²³ªº¿¡½¼¾\u00a0\u2009\u202f%‰′″")


# Letters by Unicode's category that Western text writes as signs beside Latin ones, and no
# language's alphabet (`_ALPHABETS`) holds: the micro sign ("50 µm"), the ordinal indicators
# ("nº 3", "1ª"), the florin ("ƒ-divergence"), the circumflex ("xˆ"), the caron (Windows-1250's
# "ˇ"). Named for themselves, they were a second script or no language's letter: a Windows-1252
# file saying "µm" was read as Latin-2 ("ľm", every "è" a "č"), one saying "ƒ-divergence" as
# Mac Roman ("É-divergence").
_LATIN_SIGNS = frozenset("µªºƒˆˇ")


# Signs that Western text writes side by side: quotes, dashes, the ellipsis, footnote marks and
# superscripts, spaces ("“—”", "’”", "Lee†‡", "« Oui »" with no-break spaces). Others stand alone.
_STACKING_SIGNS = frozenset("“”„‚‘’«»‹›‐‑‒–—―…†‡§¶‖•·′″¹²³\u00a0\u2009\u202f\u200b")
# Marks that open a phrase ("„Wort“", "¡Hola!"), never after a letter or digit: GBK's punctuation
# (lead byte A1) in Latin code pages ("model¡¯s", "10¡Á10"), Shift-JIS kana in Windows-1252 ("‚Ù‚©").
_OPENING_SIGNS = frozenset("„‚¿¡")
_QUOTES = frozenset("“”„‚‘’«»‹›")


def _is_code_page_sign(ch: str) -> bool:
    """A sign that single-byte code pages hold, or a Latin letter used as one ("º"): of the
    Latin-1 and spacing-modifier blocks, general punctuation, currency and letterlike symbols,
    arrows, mathematical operators, box drawing and geometric shapes (KOI8-R's "╣╔", Mac Roman's "≤")."""
    if _is_letter(ch) or ch.isdigit() or unicodedata.category(ch)[0] == "M":
        return False
    return ord(ch) <= 0x2FF or 0x2000 <= ord(ch) <= 0x214F or 0x2190 <= ord(ch) <= 0x25FF


def _mostly_signs(word: str) -> bool:
    """Two code-page signs or more (quotes aside: "“½”", "3½”"), outnumbering the letters and
    digits, and not only signs that stand side by side: what CJK bytes read as in a single-byte
    code page ("–¼" for Shift-JIS "名", "°™" for GBK "—" in Mac Roman)."""
    signs = [ch for ch in word if not ch.isascii() and ch not in _QUOTES and _is_code_page_sign(ch)]
    if len(signs) < 2 or all(ch in _STACKING_SIGNS for ch in signs):
        return False
    return len(signs) > sum(_is_letter(ch) or ch.isdigit() for ch in word)


def _script(ch: str) -> str:
    if ch.isascii() or ch in _LATIN_SIGNS:
        return "LATIN"
    try:
        return unicodedata.name(ch).split(" ", 1)[0]
    except ValueError:
        return "?"


_TEX_COMMAND = re.compile(r"\\[A-Za-z]+")
_TEX_COMMAND_BYTES = re.compile(rb"\\[A-Za-z]+")


@lru_cache(maxsize=1 << 16)
def _word_is_nonsense(word: str) -> bool:
    """A word (no spaces) with non-ASCII characters that no language writes this way."""
    word = _TEX_COMMAND.sub("\\\\", word)  # "\mathbfΞ": a command, then a symbol; not a word "mathbfΞ"
    scripts = set()  # of the letters since the last sign: "$α$-tilted" is math, "Mьller" nonsense
    run = 0  # consecutive non-ASCII letters
    prev = ""
    for i, ch in enumerate(word):
        if ch == REPLACEMENT or unicodedata.category(ch) in ("Cc", "Cn", "Co"):
            return True
        if prev.isalpha() and unicodedata.category(ch)[0] == "M":
            if _thai_mark_misplaced(prev, ch):
                return True  # "เ่": a Thai tone mark on a leading vowel; "ภ๎": Pali's yamakkan
            continue  # a combining mark (a Thai vowel, a Hebrew point) is part of the letter before it
        if _thai_letter_misplaced(prev, ch):
            return True  # "ฮโๆร": a leading vowel before no consonant; "าฆพ": a vowel opening a word
        if ch.isalpha():
            scripts.add(_script(ch))
            if prev.isalpha() and prev.islower() and ch.isupper() and not (prev.isascii() and ch.isascii()):
                return True  # "иВАН", "rŽsum"
            nxt = word[i + 1] if i + 1 < len(word) else ""
            if not ch.isascii() and ch.isupper() and prev.isalpha() and nxt.isalpha() and nxt.islower():
                return True  # "MŸller"
            run = run + 1 if not ch.isascii() else 0
            if run >= 3 and _script(ch) == "LATIN" and not _one_alphabet(word[i - run + 1:i + 1]):
                return True  # "Ïåòðîâ": Cyrillic read as Latin accents (not Polish "Żółtowski")
        else:
            run = 0
            if len(scripts) > 1:
                return True
            if ch not in _JOINERS:  # not "vis-ΰ-vis" (Windows-1253's "vis-à-vis"), nor "α-helix"
                scripts.clear()
            nxt = word[i + 1] if i + 1 < len(word) else ""
            if not ch.isascii() and ch not in _JOINERS and (nxt.isalpha() or prev.isalpha()):
                if prev.isalpha() and nxt.isalpha():
                    return True  # "na•ve", "ð¸ä"
                if ch not in _GLUED_SIGNS:
                    return True  # "■Information", "Ä¼"
                if nxt.islower() and unicodedata.category(ch)[0] in "SN":
                    return True  # "£ukasz", "¯ak" (but "©IEEE", "£Pound")
        prev = ch
    if len(scripts) > 1:
        return True  # "Mьller"
    return False


# Thai writes a vowel sign or tone mark on a consonant, a leading vowel (เ แ โ ใ ไ) before a
# consonant ("เเ" too, a common way to type "แ"), and never opens a word with a following vowel
# (ะ า ำ ๅ); the repetition mark ๆ stands after a word, often as one of its own ("ต่าง ๆ").
# Yamakkan (๎), fongman (๏) and the verse marks (๚ ๛) are Pali scripture's, no name's. CJK bytes
# read in Windows-874 break these rules.
_THAI_CONSONANTS = frozenset(chr(c) for c in range(0x0E01, 0x0E2F))
_THAI_LEADING = frozenset("เแโใไ")
_THAI_NOT_FIRST = frozenset("ะาำๅ")
_THAI_ARCHAIC = frozenset("\u0e4e\u0e4f\u0e5a\u0e5b")


def _thai_mark_misplaced(prev: str, mark: str) -> bool:
    """A Thai mark (`prev` is the letter before it and its other marks) on no consonant."""
    return "\u0e30" <= mark <= "\u0e4f" and (mark in _THAI_ARCHAIC or prev not in _THAI_CONSONANTS)


def _thai_letter_misplaced(prev: str, ch: str) -> bool:
    if not "\u0e00" <= ch <= "\u0e7f":
        return False
    return (ch in _THAI_ARCHAIC or (prev in _THAI_LEADING and ch not in _THAI_CONSONANTS and prev + ch != "เเ")
            or (ch in _THAI_NOT_FIRST and not "\u0e00" <= prev <= "\u0e7f"))


def _looks_like_cjk_bytes(text: str) -> bool:
    """A word made mostly of signs ("–¼", "°™") or with an opening mark after a letter or digit
    ("10¡Á10", "‚Ù‚©"): what CJK bytes read as in a single-byte code page. Only weighed against a
    CJK reading of the same bytes (`_pick_clean_cjk`), never alone: Western text writes "±5°",
    "½–¾", "€/£" and "10¡" too (as nonsense, they made Windows-1252 files ISO-8859-2 or Thai)."""
    return any(_mostly_signs(word) or any(ch in _OPENING_SIGNS and prev.isalnum() for prev, ch in zip(word, word[1:]))
               for line in text.split("\n") for word in _non_ascii_words(line))


# ---------------------------------------------------------------------------- e-mail and HTML
_HEAD = 1 << 16


class _Hinted:
    """A case-insensitive pattern anchored at line starts, which `re` tries at every position
    (~170 MB/s: 64 KB of 2 in 3 digest files, ~9 s of a 1M load), searched only where `hint`
    finds what every match of it contains. The hint opens with a character that has no case, so
    `re` skips to each one at C speed (`python -m bench.read_decode`)."""

    def __init__(self, pattern: str, hint: str) -> None:
        self.pattern, self.hint = re.compile(pattern), re.compile(hint)

    def search(self, text: str) -> re.Match | None:
        return self.pattern.search(text) if self.hint.search(text) else None


_QP_HEADER = _Hinted(r"(?im)^content-transfer-encoding:[ \t]*quoted-printable[ \t]*$", r"(?i)-transfer-encoding:")
_HTML = _Hinted(r"(?im)^[ \t]*<(?:!doctype\s+html|html|head|body|pre)\b", r"(?i)<(?:!doctype\s+html|html|head|body|pre)\b")
# Escapes plain text rarely holds ("n=20" is not one): a high byte or "=" itself; and the pair
# a UTF-8 character becomes ("ü" = "=C3=BC").
_QP_ESCAPE = re.compile(r"=(?:[A-F][0-9A-F]|[89][A-F]|3D)")
_QP_UTF8 = re.compile(r"=[C-F][0-9A-F]=[89AB][0-9A-F]")
_QP_SOFT = re.compile(r"=\n")
_CHARSET = _Hinted(r"""(?im)^content-type:[^\n]*charset\s*=\s*["']?([A-Za-z0-9_.:-]+)""", r"(?i)-type:")
_HTML_BR = re.compile(r"(?i)<br\s*/?>\s*$", re.M)


def _unwrap(decoded: Decoded, raw: bytes, quoted_printable: bool = True) -> Decoded:
    """Quoted-printable e-mail bodies and HTML pages (`raw` their bytes), decoded to the text they show."""
    head = decoded.text[:_HEAD]
    if quoted_printable and head.startswith("From "):
        mailbox = _from_mbox(decoded)
        if mailbox is not None:
            return mailbox
    if quoted_printable and _MIME_HEADERS.match(head) and _MIME_BODY.search(head):
        mime = _from_mime(decoded)
        if mime is not None:
            return mime
    if quoted_printable and "=" in head:
        header = _QP_HEADER.search(head)
        n_soft, n_escape = len(_QP_SOFT.findall(head)), len(_QP_ESCAPE.findall(head))
        if header or (n_escape >= 3 and (n_soft >= 1 or len(_QP_UTF8.findall(head)) >= 2)):
            return _from_quoted_printable(decoded, header)
    if "<" in head and (_HTML.search(head) or len(_HTML_BR.findall(head)) >= 3):
        decoded = _as_page_declares(decoded, raw, head)
        return Decoded(html_to_text(decoded.text), f"{decoded.encoding}+html", decoded.n_bad_bytes,
                       decoded.n_padding_bytes)
    return decoded


# The line opening each message of a saved mailbox (mbox): "From sender date", then headers.
_MBOX_FROM = re.compile(r"(?m)^From \S+ [^\n]*\n(?=[A-Za-z][A-Za-z0-9-]*:[ \t])")


def _from_mbox(decoded: Decoded) -> Decoded | None:
    """A mailbox of several messages: each decoded on its own (its header lines as they are, then
    its body's text), in file order; None for one message (the e-mail paths read it)."""
    text = decoded.text
    starts = [m.start() for m in _MBOX_FROM.finditer(text)]
    if len(starts) < 2 or starts[0] != 0:
        return None
    codec = _codec_of(decoded)
    messages = [text[a:b] for a, b in zip(starts, starts[1:] + [len(text)])]
    read = [_unwrap(Decoded(m, decoded.encoding), m.encode(codec, errors="replace")) for m in messages]
    joined = "".join(map(_ends_in_a_blank_line, (r.text for r in read[:-1]))) + read[-1].text
    return Decoded(joined, f"{read[0].encoding}+mbox", decoded.n_bad_bytes + sum(r.n_bad_bytes for r in read),
                   decoded.n_padding_bytes)


def _ends_in_a_blank_line(text: str) -> str:
    """A message's text with its own blank lines, and one after a body that had none left (a
    base64 body's decoded text): the next message's "From " line never goes on its last field."""
    return text if text.endswith("\n\n") else text + ("\n" if text.endswith("\n") else "\n\n")


# A page's declared charset: its <meta>, or an XHTML page's XML declaration.
_META_CHARSET = re.compile(r"""(?i)(?:<meta\b[^>]*?charset|<\?xml\b[^>]*?encoding)\s*=\s*["']?([A-Za-z0-9_.:-]+)""")


def _as_page_declares(decoded: Decoded, raw: bytes, head: str) -> Decoded:
    """An HTML page read with its <meta> charset where its bytes are valid in it, and detection
    could not read it (bytes left as U+FFFD) or read a single-byte code page where the page
    declares a CJK one: a page saved by a browser writes what its code page lacks as character
    references, so its only bytes of that code page may be too few to detect. Not over Unicode,
    a CJK reading, or another single-byte one (a template's "iso-8859-1" on a Windows-1251 page)."""
    meta = _META_CHARSET.search(head)
    if meta is None or decoded.encoding.startswith("utf") or _multi_byte(decoded.encoding):
        return decoded
    redecoded = _declared(raw[:len(raw) - decoded.n_padding_bytes], meta.group(1))
    if redecoded is None or redecoded.encoding == decoded.encoding:
        return decoded
    failed = decoded.encoding == "unknown-8bit" or decoded.n_bad_bytes > 0
    if not (failed or _multi_byte(redecoded.encoding)):
        return decoded  # one single-byte reading against another: a template's "iso-8859-1" over a Windows-1251 page
    return Decoded(redecoded.text, redecoded.encoding, 0, decoded.n_padding_bytes)


# A header block first, after an mbox's "From sender date" line if the file is a saved mailbox.
_MIME_HEADERS = re.compile(r"(?:From [^\n]*\n)?(?:[!-9;-~]+:[^\n]*\n(?:[ \t][^\n]*\n)*)+\n")
_MIME_BODY = _Hinted(r"(?im)^(?:content-type:[ \t]*multipart/|content-transfer-encoding:[ \t]*base64)",
                     r"(?i)-t(?:ype:[ \t]*multipart/|ransfer-encoding:[ \t]*base64)")


def _from_mime(decoded: Decoded) -> Decoded | None:
    """An e-mail whose body is multipart or base64: the text of its plain-text part (else its
    HTML part), decoded by the e-mail package (transfer encoding and charset). The header
    lines stay as they are; the other parts and the MIME boundaries are not the digest's text."""
    import email
    import email.policy

    header = _MIME_HEADERS.match(decoded.text)
    try:
        message = email.message_from_string(decoded.text, policy=email.policy.default)
        part = message.get_body(preferencelist=("plain", "html"))
        if part is None:
            return None
        cte = str(part.get("Content-Transfer-Encoding", "7bit")).strip().lower()
        inner = _part_text(part, cte, decoded)
    except Exception:  # noqa: BLE001 - a broken e-mail: leave the text as it is
        return None
    if inner is None:
        return None
    text, label = inner.text, inner.encoding
    if part.get_content_subtype() == "html":
        text, label = html_to_text(text), f"{label}+{cte}+html"
    else:
        label = f"{label}+{cte}"
    if message.is_multipart():
        label += "+multipart"
    return Decoded(header.group(0) + text, label, decoded.n_bad_bytes + inner.n_bad_bytes,
                   decoded.n_padding_bytes)


def _part_text(part, cte: str, decoded: Decoded) -> Decoded | None:
    """A MIME part's text: a base64 or quoted-printable body's bytes read with the declared
    charset when they are valid in it, else as detection reads them (a mailer's label can be
    wrong); a 7bit or 8bit body is already text, as the file was decoded."""
    if cte not in ("base64", "quoted-printable"):
        body = part.get_payload()
        if not isinstance(body, str):
            return None
        return Decoded(_normalise_newlines(body), decoded.encoding.split("+", 1)[0])
    payload = part.get_payload(decode=True)
    if not isinstance(payload, bytes):
        return None
    charset = part.get_content_charset()
    inner = (_declared(payload, charset) if charset else None) or _decode_any(payload)
    return Decoded("", "utf-8") if inner.is_binary or inner.encoding == "empty" else inner


# A declared charset read as browsers and mail clients read it (WHATWG's Encoding Standard):
# Windows mailers declare "iso-8859-1" over Windows-1252 bytes (“ ” ’ are 0x93
# 0x94 0x92, C1 controls in Latin-1), Chinese pages "gb2312" over GBK, Japanese "Shift_JIS" over CP932.
_DECLARED_AS = {"iso8859-1": "cp1252", "iso8859-9": "cp1254", "iso8859-11": "cp874",
                "tis-620": "cp874", "gb2312": "gb18030", "gbk": "gb18030", "shift_jis": "cp932",
                "euc_kr": "cp949", "big5": "big5hkscs"}


@lru_cache(maxsize=None)
def _multi_byte(name: str) -> bool:
    """Whether a codec or label is one of Python's CJK codecs (GBK, Shift-JIS, EUC, Big5,
    ISO-2022, HZ, Johab, CP950...): their decoders are the C library's multi-byte ones, a fact
    of the codec rather than a list kept here. False for an unknown label ("unknown-8bit")."""
    from _multibytecodec import MultibyteIncrementalDecoder

    try:
        return issubclass(codecs.lookup(name).incrementaldecoder, MultibyteIncrementalDecoder)
    except LookupError:
        return False


def _declared(raw: bytes, charset: str) -> Decoded | None:
    """`raw` read strictly with its declared charset; None for an unknown label or bytes the
    charset does not hold (detection reads them then). Non-ASCII valid UTF-8 under a single-byte
    label is UTF-8: a mailer's default label says nothing of the bytes, and a single-byte text is
    valid UTF-8 only by accident ("Ã¼" for "ü")."""
    try:
        name = codecs.lookup(charset).name
    except LookupError:
        return None
    codec = _DECLARED_AS.get(name, name)
    try:
        declared = _normalise_newlines(raw.decode(codec))
    except (UnicodeDecodeError, LookupError):
        declared = None
    single_byte = not _multi_byte(codec) and not codec.startswith("utf")
    utf8 = _utf8_by_intent(raw, declared) if single_byte and not raw.isascii() else None
    if utf8 is not None:
        return Decoded(utf8, "utf-8")
    return None if declared is None else Decoded(declared, _label_of(codec))


def _utf8_by_intent(raw: bytes, declared: str | None) -> str | None:
    """Valid UTF-8 that reads as words, where the declared single-byte reading does not, or of two
    characters or more: a single-byte text is valid UTF-8 by accident ("é––" is one CJK character,
    "Straße…" holds NKo), and then mostly of one character glued to Latin letters."""
    try:
        text = _normalise_newlines(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return None
    if not _reads_as_words(text):
        return None
    n_multibyte = sum(not ch.isascii() for ch in text)
    return text if declared is None or n_multibyte >= 2 or not _reads_as_words(declared) else None


def _from_quoted_printable(decoded: Decoded, header: re.Match | None) -> Decoded:
    """Decode the body (after the header block holding the Content-Transfer-Encoding line, or the
    whole text); the header lines stay as they are. The charset comes from the Content-Type
    header, else from the decoded bytes themselves (UTF-8, else a legacy encoding)."""
    text = decoded.text
    start = 0
    if header:
        end = text.find("\n\n", header.end())
        start = len(text) if end < 0 else end + 2
    prefix, body = text[:start], text[start:]
    body_bytes = quopri.decodestring(body.encode(_codec_of(decoded), errors="replace"))
    inner: Decoded | None = None
    charset = _CHARSET.search(prefix) if header else None
    if charset:
        inner = _declared(body_bytes, charset.group(1))
    if inner is None:
        inner = _decode_any(body_bytes)
        if inner.is_binary or inner.encoding == "empty":
            inner = Decoded("", "utf-8")
    inner = _unwrap(inner, body_bytes, quoted_printable=False)
    base, html = inner.encoding.removesuffix("+html"), inner.encoding.endswith("+html")
    return Decoded(prefix + inner.text, f"{base}+quoted-printable" + ("+html" if html else ""),
                   decoded.n_bad_bytes + inner.n_bad_bytes, decoded.n_padding_bytes)


def _codec_of(decoded: Decoded) -> str:
    enc = decoded.encoding.split("+", 1)[0].removesuffix("-lossy")
    enc = {"shift_jis": "cp932", "unknown-8bit": "utf-8"}.get(enc, enc)
    try:
        return codecs.lookup(enc).name
    except LookupError:
        return "utf-8"


def _label_of(charset: str) -> str:
    name = codecs.lookup(charset).name  # raises LookupError for an unknown charset
    return {"cp1252": "windows-1252", "cp1251": "windows-1251", "cp932": "shift_jis",
            "iso8859-1": "iso-8859-1", "mac-roman": "mac-roman"}.get(name, name)


_BLOCK = {"p", "div", "h1", "h2", "h3", "h4", "h5", "h6", "li", "ul", "ol", "tr", "table", "dl", "dt",
          "dd", "blockquote", "section", "article", "header", "footer", "hr", "pre", "form", "address",
          "main", "nav", "aside", "figure", "figcaption", "center"}
_PARAGRAPH = {"p", "pre", "blockquote", "table", "ul", "ol", "dl", "h1", "h2", "h3", "h4", "h5", "h6", "hr"}
_HIDDEN = {"script", "style", "head", "title", "noscript", "template"}


class _TextShown(HTMLParser):
    """The text a browser shows: <pre> as is, elsewhere whitespace collapsed, <br> a new line,
    block elements on lines of their own, paragraphs apart by a blank line, entities decoded,
    scripts, styles and the head left out."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.out: list[str] = []
        self.pending = 0  # line breaks owed before the next text: 1 new line, 2 a blank line
        self.pre = 0
        self.hidden = 0
        self.fresh_pre = False

    def _emit(self, text: str) -> None:
        if not text:
            return
        if self.pending and self.out:
            tail = "".join(self.out[-3:])
            have = len(tail) - len(tail.rstrip("\n"))
            self.out.append("\n" * max(0, self.pending - have))
        self.pending = 0
        self.out.append(text)

    def _break(self, n: int) -> None:
        self.pending = max(self.pending, n)

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in _HIDDEN:
            self.hidden += 1
        elif tag == "br":
            self._emit("\n")
        elif tag in _BLOCK:
            self._break(2 if tag in _PARAGRAPH else 1)
            if tag == "pre":
                self.pre += 1
                self.fresh_pre = True

    def handle_startendtag(self, tag: str, attrs) -> None:
        if tag == "br":
            self._emit("\n")
        elif tag in _BLOCK:
            self._break(2 if tag in _PARAGRAPH else 1)

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self.hidden = max(0, self.hidden - 1)
        elif tag in _BLOCK:
            if tag == "pre":
                self.pre = max(0, self.pre - 1)
            self._break(2 if tag in _PARAGRAPH else 1)

    def handle_data(self, data: str) -> None:
        if self.hidden:
            return
        if self.pre:
            if self.fresh_pre and data.startswith("\n"):
                data = data[1:]  # a new line right after <pre> is not shown
            self.fresh_pre = False
            self._emit(data)
            return
        data = re.sub(r"[ \t\n\r\f]+", " ", data)
        if data == " " and (not self.out or self.out[-1].endswith("\n") or self.pending):
            return  # white space between blocks shows nothing
        self._emit(data)

    def text(self) -> str:
        lines = [line.strip(" ") for line in "".join(self.out).replace(_BR_MARK, "\n").split("\n")]
        text = "\n".join(lines).strip("\n")
        return text + "\n" if text else ""


_BR = re.compile(r"(?i)<br\s*/?>")
_BR_MARK = "\x00"  # no NUL is left in decoded text (they became U+FFFD)


def html_to_text(html: str) -> str:
    """The text an HTML page shows. <br> is swapped for a mark before parsing: a page of
    one <br> a line is one text run for the (pure Python) parser, not two calls a line."""
    parser = _TextShown()
    parser.feed(_BR.sub(_BR_MARK, html.replace(_BR_MARK, REPLACEMENT)))
    parser.close()
    return parser.text()


# ---------------------------------------------------------------------------- helpers
def _looks_binary(text: str) -> bool:
    """Mostly undecodable bytes and control characters: not a text digest."""
    sample = text[:8192]
    bad = sum(1 for ch in sample if ch == REPLACEMENT or (ord(ch) < 32 and ch not in "\n\r\t\f"))
    return bad > len(sample) * 0.3


def _normalise_newlines(text: str) -> str:
    if "\r" not in text:  # most files: one scan instead of two copies of the whole text
        return text
    text = text.replace("\r\n", "\n")
    return _read_lone_crs(text, "\r", "\n", " ")


def _read_lone_crs(text, cr, lf, space):
    """`text` (str or bytes, CRLF already LF) with each lone CR a line end or a space. A line end
    in a file of CR line ends (classic Mac) or of mixed ones (edited on two systems: at least a
    quarter as many CRs as LFs), and in a run of CR-ended lines (a block of them appended to an LF
    file: the line break before or after it is a CR too). A space where LFs stand on both sides: a
    stray CR inside a line of an LF file is no line end (editors, `wc -l` and git count lines by
    LF): read as one, it cut the abstract it stood in (the rest quarantined as stray lines) and
    moved every later line number by one."""
    if text.count(cr) * MIXED_LINE_ENDS >= text.count(lf):
        return text.replace(cr, lf)
    pieces, start, at = [], 0, text.find(cr)
    while at != -1:
        next_cr, next_lf = text.find(cr, at + 1), text.find(lf, at + 1)
        in_run = (next_cr != -1 and (next_lf == -1 or next_cr < next_lf)) or text.rfind(cr, 0, at) > text.rfind(lf, 0, at)
        pieces += [text[start:at], lf if in_run else space]
        start, at = at + 1, next_cr
    return text[:0].join([*pieces, text[start:]])


MIXED_LINE_ENDS = 4  # LFs per lone CR at most in a file whose CRs end lines
