"""Text normalisation shared by every stage, as Polars expressions (vectorised)."""

from __future__ import annotations

import html
import html.entities
import re
import unicodedata
from collections.abc import Callable

import polars as pl

# Characters that render as nothing; scrapers, mail exports and right-to-left editors sprinkle
# them into text: Unicode's format characters (zero-width space and joiners, word joiner, BOM,
# soft hyphen, the bidi marks LRM/RLM/ALM, embeddings, overrides and isolates, invisible math
# operators, tags), bar the few that print (Arabic number signs and the other prepended marks).
_FORMAT_RANGES = ((0x00AD, 0x00AD), (0x061C, 0x061C), (0x180E, 0x180E), (0x200B, 0x200F), (0x202A, 0x202E),
                  (0x2060, 0x2064), (0x2066, 0x206F), (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB), (0x13430, 0x1343F),
                  (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A), (0xE0001, 0xE0001), (0xE0020, 0xE007F))
# One set, two spellings: a Polars (Rust) class, and the characters for Python's `str.strip`
# (format detection pads header and marker lines with them).
ZERO_WIDTH = "[" + "".join(rf"\x{{{lo:X}}}-\x{{{hi:X}}}" for lo, hi in _FORMAT_RANGES) + "]"
INVISIBLE = "".join(chr(c) for lo, hi in _FORMAT_RANGES for c in range(lo, hi + 1))
# Space-like characters that are not ASCII space (NBSP, narrow NBSP, figure space, ...; NEL and the
# line and paragraph separators, line ends to Python's splitlines, sit inside a field here).
_ODD_SPACE_CHARS = "".join(map(chr, [0xA0, 0x1680, *range(0x2000, 0x200B), 0x202F, 0x205F, 0x3000, 0x09, 0x85,
                                      0x2028, 0x2029]))
# ASCII's spaces other than space: tab, vertical tab, form feed and the four information separators
# (whitespace to Python): kept, they glued "Part\x0bII" into one word on screen and split keys apart.
_ASCII_SPACE_CHARS = "\t\x0b\x0c\x1c\x1d\x1e\x1f"


def _regex_class(chars: str) -> str:
    return "[" + "".join(rf"\x{{{ord(c):X}}}" for c in chars) + "]"


ODD_SPACES = _regex_class(_ODD_SPACE_CHARS)
ASCII_SPACES = _regex_class(_ASCII_SPACE_CHARS)
# What may pad a record header or the search marker on its line (blanks, any of the spaces above, a
# CR, a BOM or zero-width a decoder left): characters for `str.strip`, and for a regex class in either
# engine. An em space after "#01Oct 26, 2026" made the whole file "unknown format".
PAD = " \r" + _ODD_SPACE_CHARS + _ASCII_SPACE_CHARS + INVISIBLE
# Letters that NFKD does not decompose, spelled out so "Døring" and "Doring" share a key.
# And the modifier letters written as apostrophes and primes (Lm, letters to `\p{L}`): "OʼNeil",
# Ukrainian "Marʼyana", Hawaiian "Kaʻaihue", "Ilʹya", Arabic transliteration's "ʿAlī". Kept, their key
# ("kevin oʼneil") was another person's than "O'Neil"'s ("kevin o neil"). The acute and grave
# look-alikes too, as "´" and "`" (NFKD's space and accent, ASCII punctuation) already are.
_APOSTROPHE_LETTERS = "\u02b9\u02ba\u02bb\u02bc\u02bd\u02be\u02bf\u02c8\u02ca\u02cb\u02ee"
_FOLD_FROM = ["ø", "ł", "đ", "ð", "þ", "æ", "œ", "ß", "ı", *_APOSTROPHE_LETTERS]
_FOLD_TO = ["o", "l", "d", "d", "th", "ae", "oe", "ss", "i", *"'" * len(_APOSTROPHE_LETTERS)]


def clean_text(expr: pl.Expr) -> pl.Expr:
    """NFC, no zero-width characters, one ASCII space between words, no edge blanks."""
    return (
        expr.map_batches(_nfc_and_invisibles, return_dtype=pl.String)
        .str.replace_all(ASCII_SPACES, " ")  # as fast as the tab alone (one regex class)
        .str.replace_all(r" {2,}", " ")
        .str.strip_chars()
    )


def _nfc_and_invisibles(text: pl.Series) -> pl.Series:
    """Character references as characters, NFC, zero-width characters dropped, odd spaces made
    ASCII spaces."""
    return _on_non_ascii_rows(
        _character_references(text),
        lambda rows: rows.str.normalize("NFC").str.replace_all(ZERO_WIDTH, "").str.replace_all(ODD_SPACES, " "))


# An HTML character reference left in plain text by a scraper that took the text out of a page
# without unescaping it: "J&uuml;rgen M&uuml;ller", "Ren&#233;", "&amp;". Its ";" split the names
# ("J", "uuml", "Bo Chen ller": a semicolon list read as "Last, First"). With its ";" only: a
# bare "&para" or "&not" inside a word ("R&D", "this&nothing") is left as written; but HTML's
# legacy names of accented letters are read without one too ("J&uumlrgen", as browsers read it),
# and a reference escaped twice ("J&amp;uuml;rgen", a page's source copied as text) as one.
_LEGACY_LETTER = r"[A-Za-z](?:acute|grave|circ|tilde|uml|ring|cedil|slash)|AElig|aelig|szlig|THORN|thorn"
_CHARACTER_REFERENCE = re.compile(r"&(?:amp;)*(?:(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"
                                  r"|(" + _LEGACY_LETTER + r"))")


def _character_references(text: pl.Series) -> pl.Series:
    return on_rows_where(text, text.str.contains("&", literal=True) & text.str.contains(_CHARACTER_REFERENCE.pattern),
                         lambda rows: pl.Series([_unescaped(t) for t in rows], dtype=pl.String))


def _unescaped(text: str) -> str:
    return _CHARACTER_REFERENCE.sub(_referenced, text)


def _referenced(reference: re.Match) -> str:
    """A reference's character: a name HTML defines, exactly (`html.unescape` also read a name
    that only starts with one: "&notation;" as "¬ation;"), or a code point; a control character
    (a "&#10;" line end) as a space, since a field is one line. Anything else stays as written,
    less one "amp;" ("&amp;foo;" is "&foo;")."""
    name, whole = reference[1] or reference[2], reference[0]
    text = html.unescape(f"&{name};") if name.startswith("#") else html.entities.html5.get(name + ";")
    if text is None:
        return "&" + whole[5:] if whole.startswith("&amp;") else whole
    return " " if unicodedata.category(text[0]) == "Cc" else text


def _on_non_ascii_rows(text: pl.Series, unicode_pass) -> pl.Series:
    """`unicode_pass` applied to the rows holding a non-ASCII character only. Unicode passes
    (normalisation, character classes) change nothing in ASCII, and most text is ASCII:
    whole-column passes were most of the parse time and half of the resolver's folding
    (`python -m bench.profile` shows both stages)."""
    return on_rows_where(text, text.str.len_bytes() != text.str.len_chars(), unicode_pass)


def on_rows_where(text: pl.Series, needs: pl.Series, rows_pass: Callable[[pl.Series], pl.Series]) -> pl.Series:
    """`rows_pass` applied to the rows `needs` marks only (gathered, passed, scattered back), the
    others as they are: a pass that can change only the few rows holding some character costs
    those rows, not the column."""
    rows = needs.fill_null(False).arg_true()
    if not rows.len():
        return text
    return text.clone().scatter(rows, rows_pass(text.gather(rows)))


def text_key(expr: pl.Expr) -> pl.Expr:
    """Exact-matching key of text that is clean_text()ed already (an abstract): NFC, no
    invisible characters, single spaces, and here case-folded. Punctuation is kept: stripping
    it rewrites every space of a long abstract (a regex pass over all text), and texts
    that differ in punctuation are near-duplicates, which the resolver (transforms/resolve.py)
    matches."""
    return expr.str.to_lowercase()


def fold_key(expr: pl.Expr) -> pl.Expr:
    """Matching key: accents, case, punctuation and spacing removed; letters and digits kept.

    Used for name keys and paper keys, so "REMI MUNOS", "Rémi Munos" and an NFD-decomposed
    "Re\u0301mi  Munos" all give "remi munos".
    """
    return (
        expr.map_batches(_fold_letters, return_dtype=pl.String, is_elementwise=True)
        .str.to_lowercase()
        # Two passes beat one `[^\p{L}\p{N}]+`: most gaps are single spaces, left untouched.
        .str.replace_all(r"[^\p{L}\p{M}\p{N} ]+", " ")
        .str.replace_all(r" {2,}", " ")
        .str.strip_chars()
    )


# Scripts whose marks are accents a name may go without ("Rémi" is "Remi"; Hebrew and Arabic
# vowel points). In other scripts a mark is part of the letter: Devanagari's vowel signs, Thai's,
# Japanese kana's voicing (NFKD splits "ゴ" into "コ" and a mark). Removed there too, "राम शर्मा"
# and "रमा शर्मी", "ゴトウ" and "コトウ", were one key: two people one person.
# A mark on no letter (NFKD's " ̄" of "¯") is no letter either.
_ACCENTED = r"([\p{Latin}\p{Greek}\p{Cyrillic}\p{Hebrew}\p{Arabic}]|^|[^\p{L}\p{M}])\p{M}+"


def _fold_letters(text: pl.Series) -> pl.Series:
    """Zero-width characters dropped, accents removed (NFKD, then no marks on the letters of
    `_ACCENTED` scripts), letters NFKD keeps whole spelled out (lowercase first: "Ø" → "ø" → "o")."""
    return _on_non_ascii_rows(text, lambda rows: (
        rows.str.replace_all(ZERO_WIDTH, "").str.normalize("NFKD").str.replace_all(_ACCENTED, "${1}")
        .str.to_lowercase().str.replace_many(_FOLD_FROM, _FOLD_TO)))


def is_blank(expr: pl.Expr) -> pl.Expr:
    """True for lines holding nothing but whitespace or invisible characters."""
    return (expr.str.replace_all(ZERO_WIDTH, "").str.replace_all(ODD_SPACES, " ").str.replace_all(ASCII_SPACES, " ")
            .str.strip_chars() == "")


# TeX accents, as arXiv's own author lines spell them ("G\"ahler", "Tom\'a\v{s} Vina\v{r}",
# "{\O}bro"): an accent command over a letter becomes the letter with its combining mark (then
# NFC), a letter command its letter. Only these commands are read; anything else stays as written
# (a general LaTeX-to-text converter such as pylatexenc also drops a "%" and what follows it, and
# unknown commands: a name must not lose text).
_TEX_MARKS = {"'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303", "=": "\u0304",
              ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b", "c": "\u0327", "k": "\u0328",
              "r": "\u030a", "d": "\u0323"}
_TEX_LETTERS = {"o": "ø", "O": "Ø", "l": "ł", "L": "Ł", "ss": "ß", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ",
                "aa": "å", "AA": "Å", "i": "ı", "j": "ȷ", "DH": "Ð", "dh": "ð", "TH": "Þ", "th": "þ", "DJ": "Đ",
                "dj": "đ", "NG": "Ŋ", "ng": "ŋ"}
_TEX_BASE = r"(?:\\([ij])(?![A-Za-z])|([A-Za-z]))"  # an accent's letter; a dotless i under an accent is an i
_TEX_ACCENT = re.compile(
    r"\\(?:([`'^\"~=.])\s*(?:\{\s*" + _TEX_BASE + r"\s*\}|" + _TEX_BASE + r")"
    r"|([uvHckrd])(?:\s*\{\s*" + _TEX_BASE + r"\s*\}|\s+" + _TEX_BASE + r"))")
_TEX_LETTER = re.compile(r"\\(" + "|".join(sorted(_TEX_LETTERS, key=len, reverse=True)) + r")(?![A-Za-z])(?:\{\}| (?=[A-Za-z]))?")
_TEX_GROUP = re.compile(r"\{([^{}\\]*)\}")  # "{ö}" left of "{\"o}": braces only grouped the accent


def tex_accents(expr: pl.Expr) -> pl.Expr:
    """Text with TeX accents and letters written as Unicode (NFC); rows without a backslash
    are not touched (no Python pass over them)."""
    return expr.map_batches(_tex_rows, return_dtype=pl.String)


def _tex_rows(text: pl.Series) -> pl.Series:
    return on_rows_where(text, text.str.contains("\\", literal=True),
                         lambda rows: pl.Series([_tex_to_unicode(t) for t in rows], dtype=pl.String))


def _tex_to_unicode(text: str) -> str:
    converted = _TEX_LETTER.sub(lambda m: _TEX_LETTERS[m[1]], _TEX_ACCENT.sub(_accented, text))
    if converted == text:
        return text
    return unicodedata.normalize("NFC", _TEX_GROUP.sub(r"\1", converted))


def _accented(match: re.Match) -> str:
    symbol, *bases = match.groups()
    accent = symbol or bases[4]
    base = next(b for b in (*bases[:4], *bases[5:]) if b)
    return base + _TEX_MARKS[accent]
