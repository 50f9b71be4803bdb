"""transforms.decode.decode_bytes: encoding detection and line-end normalisation."""

from __future__ import annotations

import codecs
import random

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from conftest import LISTING_SEEDS, SEARCH_SEEDS
from transforms.decode import REPLACEMENT, decode_bytes

LISTING_TEXT = LISTING_SEEDS[1].read_text(encoding="utf-8")  # 001: pure ASCII, as many real files
LISTING_TEXT_0 = LISTING_SEEDS[0].read_text(encoding="utf-8")  # 000: one non-ASCII letter (λ)
SEARCH_TEXT = SEARCH_SEEDS[1].read_text(encoding="utf-8")  # 004: "论文检索", "等", accents, "·"


def utf16(text: str, order: str) -> bytes:
    bom = codecs.BOM_UTF16_LE if order == "le" else codecs.BOM_UTF16_BE
    return bom + text.encode(f"utf-16-{order}")


# ---------------------------------------------------------------------------- encodings
def test_plain_utf8_is_returned_as_is():
    decoded = decode_bytes(SEARCH_TEXT.encode("utf-8"))
    assert (decoded.text, decoded.encoding, decoded.n_bad_bytes) == (SEARCH_TEXT, "utf-8", 0)


def test_utf8_bom_is_detected_and_removed():
    decoded = decode_bytes(codecs.BOM_UTF8 + SEARCH_TEXT.encode("utf-8"))
    assert decoded.encoding == "utf-8-sig"
    assert decoded.text == SEARCH_TEXT and not decoded.text.startswith("\ufeff")


@pytest.mark.parametrize("order", ["le", "be"])
def test_utf16_with_bom_either_byte_order(order):
    decoded = decode_bytes(utf16(SEARCH_TEXT, order))
    assert decoded.encoding == "utf-16"
    assert decoded.text == SEARCH_TEXT and decoded.n_bad_bytes == 0


def test_gb18030_chinese_search_page():
    raw = SEARCH_TEXT.encode("gb18030")
    with pytest.raises(UnicodeDecodeError):
        raw.decode("utf-8")
    decoded = decode_bytes(raw)
    assert (decoded.text, decoded.encoding, decoded.n_bad_bytes) == (SEARCH_TEXT, "gb18030", 0)


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
@pytest.mark.parametrize("encoder", [
    lambda t: t.encode("utf-8"),
    lambda t: codecs.BOM_UTF8 + t.encode("utf-8"),
    lambda t: utf16(t, "le"),
    lambda t: t.encode("gb18030"),
], ids=["utf-8", "utf-8-sig", "utf-16", "gb18030"])
def test_crlf_and_lone_cr_become_lf(newline, encoder):
    decoded = decode_bytes(encoder(SEARCH_TEXT.replace("\n", newline)))
    assert decoded.text == SEARCH_TEXT
    assert "\r" not in decoded.text


def test_mixed_line_ends_in_one_file():
    decoded = decode_bytes(b"#01Oct 26, 2026\r\ncs.LG\rA Title\nA B\r\n\r\nabstract\r")
    assert decoded.text == "#01Oct 26, 2026\ncs.LG\nA Title\nA B\n\nabstract\n"


def test_empty_file():
    decoded = decode_bytes(b"")
    assert (decoded.text, decoded.encoding, decoded.is_binary) == ("", "empty", False)


def random_bytes(seed: int, n: int, low: int = 0) -> bytes:
    rng = random.Random(seed)
    return bytes(rng.randrange(low, 256) for _ in range(n))


@pytest.mark.parametrize("raw", [
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00" + bytes(range(256)) * 4,
    b"\x1f\x8b\x08\x00" + random_bytes(3, 4096),  # a gzip member: random bytes, NULs included
    random_bytes(7, 4096, low=128),  # high bytes only, no NUL: neither UTF-8 nor GB18030
], ids=["png", "gzip", "high-bytes"])
def test_binary_files_are_recognised(raw):
    decoded = decode_bytes(raw)
    assert decoded.is_binary and decoded.encoding == "binary" and decoded.text == ""


def test_utf8_with_a_few_bad_bytes_keeps_the_rest_with_replacement_chars():
    """A damaged UTF-8 file: the bad bytes become U+FFFD in place, everything else survives."""
    good = LISTING_TEXT_0 + "\n" + SEARCH_TEXT  # enough valid non-ASCII to look like UTF-8
    cut = good.index("Information-Theoretic")
    raw = good[:cut].encode() + b"\xff\xfe" + good[cut:].encode() + b"\x80"
    decoded = decode_bytes(raw)
    assert decoded.encoding == "utf-8-lossy"
    assert decoded.n_bad_bytes == 3
    assert decoded.text == good[:cut] + REPLACEMENT * 2 + good[cut:] + REPLACEMENT


def test_ascii_file_with_one_latin1_byte_is_windows_1252_not_gb18030():
    """One "ö" as byte F6 in an ASCII file: Latin-1 / Windows-1252, read as such (it was
    quarantined as undecodable before issue 12)."""
    text = LISTING_TEXT.replace("Learning", "Schrödinger Learning", 1)
    assert "ö" in text
    raw = text.encode("latin-1")  # the one "ö" is byte F6, everything else ASCII
    decoded = decode_bytes(raw)
    assert (decoded.encoding, decoded.text, decoded.n_bad_bytes) == ("windows-1252", text, 0)


# ---------------------------------------------------------------------------- properties
# Any text a digest could hold: no NUL (binary marker), no surrogates, no leading U+FEFF (a BOM).
digest_text = st.text(
    alphabet=st.one_of(
        st.characters(exclude_categories=("Cs",), exclude_characters="\x00"),
        st.sampled_from(["\n", "\r", " ", "é", "ø", "等", "\u00a0", "\u200b"]),
    ),
    max_size=400,
).filter(lambda t: not t.startswith("\ufeff"))

ENCODERS = {
    "utf-8": (lambda t: t.encode("utf-8"), "utf-8"),
    "utf-8-sig": (lambda t: codecs.BOM_UTF8 + t.encode("utf-8"), "utf-8-sig"),
    "utf-16-le": (lambda t: utf16(t, "le"), "utf-16"),
    "utf-16-be": (lambda t: utf16(t, "be"), "utf-16"),
}


@given(digest_text, st.sampled_from(sorted(ENCODERS)))
def test_any_text_round_trips_through_each_unicode_encoding(text, name):
    encode, label = ENCODERS[name]
    raw = encode(text)
    assume(raw)  # empty bytes are the "empty" case
    decoded = decode_bytes(raw)
    assert decoded.encoding == label
    assert decoded.text == text.replace("\r\n", "\n").replace("\r", "\n")


# GB18030 is checked on search pages, not on any text: the GB18030 bytes of a short CJK text
# can be valid UTF-8 ("一" is D2 BB, UTF-8 for "һ"), so no decoder can tell them apart. The
# marker line and real paragraphs make a page unambiguous.
SEARCH_PARAGRAPHS = [p for seed in SEARCH_SEEDS for p in seed.read_text(encoding="utf-8").split("\n\n")[1:]]
CJK_AND_ACCENTS = "论文检索等的是在了和中国科学研究院大学模型数据学习方法éèüöøçñ·—“”’"


@given(
    st.lists(st.sampled_from(SEARCH_PARAGRAPHS), min_size=1, max_size=12),
    st.lists(st.text(alphabet=CJK_AND_ACCENTS, min_size=1, max_size=6), max_size=8),
    st.randoms(use_true_random=False),
    st.sampled_from(["\n", "\r\n"]),
)
def test_any_gb18030_search_page_round_trips(paragraphs, insertions, rnd, newline):
    """Search pages as Chinese sites save them: the marker, real paragraphs, extra CJK words."""
    paragraphs = list(paragraphs)
    for word in insertions:
        i = rnd.randrange(len(paragraphs))
        words = paragraphs[i].split(" ")
        words.insert(rnd.randrange(len(words) + 1), word)
        paragraphs[i] = " ".join(words)
    text = "\n\n".join(["论文检索", *paragraphs])
    decoded = decode_bytes(text.replace("\n", newline).encode("gb18030"))
    assert (decoded.encoding, decoded.text) == ("gb18030", text)
