"""Mojibake in text that decoded cleanly: UTF-8 once read through a single-byte code page
(Windows-1252: "JosÃ© GarcÃ­a", "â€œ"; Windows-1251: "РїСЂРёРІРµС‚"; Windows-1250: "DÄ…browska";
Mac Roman: "≈Åukasz"; `CODE_PAGES`), and saved again as UTF-8. Such a file is
valid UTF-8, so decoding cannot see it, and its names and titles loaded as written: the same
person twice, the same paper twice. The lines that hold a sign of it are read back through each
code page and repaired when exactly one plausible reading is valid UTF-8 (`_read_back`). Not by
ftfy's `fix_encoding`: it guesses among more mix-ups than these and can guess wrong ("FranĆ§ois",
"François" misread through Windows-1257, became "FranƧois"), and it "repairs" clean text beside
garbled text ("Tomáš Mikolov, JosÃ© GarcÃ­a": "TomᚠMikolov"), where reading back leaves the
line as it is. ftfy's sloppy codecs read Windows-1252 as the tools that misread with it do.

The sign is looked for by Polars in the non-ASCII lines (a Rust regex), not by ftfy's own test
(`is_bad`, a Python regex): `python -m bench.mojibake` on the 100k repeats bench corpus, 0.09 s for
its 516,378 lines against 5.5 s for its 60,646 non-ASCII ones; the sign holds on 26 lines and none
is changed. Garbled through each code page, their lines come back exactly or stay as they were;
none is changed into a third text."""

from __future__ import annotations

import math
import re
import unicodedata

import polars as pl

# The code pages a UTF-8 file is misread through (those ftfy knows): Windows Western, Central
# European, Cyrillic, Greek, Turkish and Baltic, ISO Latin-1 and Latin-2, Mac Roman.
CODE_PAGES = ("cp1252", "latin-1", "cp1250", "cp1251", "cp1253", "cp1254", "cp1257", "iso8859_2", "mac_roman")


def _sign(code_pages: tuple[str, ...]) -> str:
    """A character that a byte starting a UTF-8 sequence (C2-F4) reads as in one code page, then
    one that a continuation byte (80-BF) reads as in the same one: what UTF-8 misread through it
    shows, whatever the language. Characters as \\x{...}: no class syntax to escape."""
    def chars(code_page: str, first: int, last: int) -> str:
        read = {bytes([b]).decode(code_page, errors="ignore") for b in range(first, last + 1)} - {""}
        return "".join(f"\\x{{{ord(ch):X}}}" for ch in sorted(read))
    return "|".join(f"[{chars(cp, 0xC2, 0xF4)}][{chars(cp, 0x80, 0xBF)}]" for cp in code_pages)


SIGN = _sign(CODE_PAGES)
# Windows-1252 as the tools that misread with it do: its five unused bytes as C1 controls
# (ftfy's "sloppy" codec, registered by importing ftfy.bad_codecs before use).
_READ_THROUGH = ("sloppy-windows-1252", *CODE_PAGES[1:])


def repair(line: pl.Series, file: pl.Series | None = None) -> tuple[pl.Series, pl.Series]:
    """The lines with their mojibake repaired, and which lines changed. `file` (a file id per line)
    lets a line that two code pages read plausibly be decided by the rest of its file
    (`_decided_by_file`); without it each line stands alone."""
    unchanged = pl.repeat(False, line.len(), dtype=pl.Boolean, eager=True).alias(line.name)
    non_ascii = (line.str.len_bytes() != line.str.len_chars()).fill_null(False).arg_true()
    rows = non_ascii.filter(line.gather(non_ascii).str.contains(SIGN).fill_null(False))  # 5x faster than over every line
    if rows.is_empty():
        return line, unchanged
    before = line.gather(rows).to_list()
    readings = [_readings(text) for text in before]
    fixed = [next(iter(r)) if len(r) == 1 else text for r, text in zip(readings, before)]
    if file is not None and any(len(r) > 1 for r in readings):
        fixed = _decided_by_file(line, file, non_ascii, rows, readings, fixed)
    after = pl.Series(line.name, fixed, dtype=pl.String)
    changed = unchanged.scatter(rows, after != pl.Series(before, dtype=pl.String))
    return line.clone().scatter(rows, after), changed


def _readings(text: str) -> dict[str, set[str]]:
    """The plausible readings of a line (one: repair it; none or several: leave it), each with the
    code pages that give it. A reading stays one line: code pages keep ASCII as it is."""
    readings = _read_back(text)
    if len(readings) > 1:
        readings = _likeliest(readings)
    return {r: codecs for r, (_, codecs) in readings.items()}


def _decided_by_file(line: pl.Series, file: pl.Series, non_ascii: pl.Series, rows: pl.Series,
                     readings: list[dict[str, set[str]]], fixed: list[str]) -> list[str]:
    """Lines two code pages read plausibly ("JoÃ£o" is "João" misread through Windows-1252, or
    "Jọo", decomposed "ọ", through Mac Roman; "ZajaÃ®c" is "Zajaîc" or decomposed "Zając")
    decided by their file, as the line alone cannot be: the reading of a code page the file's
    unambiguous lines were misread through, else the reading whose normal form (combining marks
    or not) the file's other non-ASCII text has. Still several: left as written."""
    files = file.gather(rows).to_list()
    used: dict[object, set[str]] = {}  # file -> code pages its unambiguous lines were read through
    for f, r in zip(files, readings):
        if len(r) == 1:
            used.setdefault(f, set()).update(*r.values())
    # The other non-ASCII lines of those files, as they will stand (as written, or repaired).
    undecided = {f for f, r in zip(files, readings) if len(r) > 1}
    ambiguous = {row for row, r in zip(rows.to_list(), readings) if len(r) > 1}
    repaired = dict(zip(rows.to_list(), fixed))
    near = non_ascii.filter(file.gather(non_ascii).is_in(list(undecided)))
    forms: dict[object, set[bool]] = {}  # file -> decomposed (True) / composed (False) letters seen
    for row, f, text in zip(near.to_list(), file.gather(near).to_list(), line.gather(near).to_list()):
        if row not in ambiguous:
            forms.setdefault(f, set()).update(_normal_forms(repaired.get(row, text)))
    out = list(fixed)
    for i, (f, r) in enumerate(zip(files, readings)):
        if len(r) < 2:
            continue
        pick = [x for x, codecs in r.items() if codecs & used.get(f, set())]
        if len(pick) != 1 and len(forms.get(f, ())) == 1:
            decomposed = next(iter(forms[f]))
            pick = [x for x in r if _has_combining(x) == decomposed]
        if len(pick) == 1:
            out[i] = pick[0]
    return out


def _read_back(text: str) -> dict[str, tuple[bytes, set[str]]]:
    """The line's characters as the bytes each code page gives them, read as UTF-8, where they
    all have one and the bytes are valid UTF-8: text that was never garbled does not make valid
    UTF-8 that way ("Tomáš": E1 9A). More than one reading is a real ambiguity: "GrĂĄfico" is
    "Gråfico" misread through Windows-1250 and "Gráfico" through Latin-2. A reading counts only
    where the line tells of a misreading through that code page (`_telling`). Each reading with
    its bytes."""
    import ftfy.bad_codecs  # noqa: F401 - the sloppy codecs of _READ_THROUGH

    readings: dict[str, tuple[bytes, set[str]]] = {}
    for codec in _READ_THROUGH:
        try:
            raw = text.encode(codec)
            reading = raw.decode("utf-8")
        except UnicodeError:
            continue
        if reading in readings:
            readings[reading][1].add(_FAMILY.get(codec, codec))
        elif _telling(text, raw) and _plausible(reading, text):
            readings[reading] = (raw, {_FAMILY.get(codec, codec)})
    return readings


# Latin-1 and Windows-1252 misread the same UTF-8 bytes alike: one evidence for a file.
_FAMILY = {"sloppy-windows-1252": "cp1252", "latin-1": "cp1252"}


# What follows a word in clean text: a no-break space, a dash, an apostrophe, a closing quote or
# an ellipsis. A capital ending an upper-case word and one of these are the bytes of a UTF-8
# character in Windows-1252 ("AMANHÃ—A" is C3 97, "×"; "Per Å\u00a0Nilsson" is C5 A0, "Š").
_AFTER_WORD = set("\u00a0–—’”…»›")
_CLOSING = set("”…»›")  # never followed by a letter
_SEQUENCE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")


def _telling(text: str, raw: bytes) -> bool:
    """Whether one of the UTF-8 sequences that `raw` (the line through a single-byte code page:
    one byte a character) holds cannot be clean text. Clean text makes one only as a letter
    ending a word in its case, then a sign that follows words ("AMANHÃ—A", "IRMÃ’s"), or as a
    one-letter word bound to the next by a no-break space ("1.9 Å\u00a0resolution"). Mojibake
    also makes a symbol or a letter after the lead ("JosÃ©", "â€œ", "MÃœLLER"), a lead glued to
    a sign or digit ("$Î”$", ",Â\u00a0and", "3Ã—3"), a capital inside a small-letter word
    ("JoÃ«l"), a lone capital before a dash ("Ã–zgür"), an ellipsis inside a word ("WÄ…s")."""
    for m in _SEQUENCE.finditer(raw):
        lead, signs = text[m.start()], text[m.start() + 1:m.end()]
        before = text[m.start() - 1] if m.start() else " "
        after = text[m.end():m.end() + 1]
        goes_on = text[m.end():m.end() + 2]
        if not lead.isalpha() or not set(signs) <= _AFTER_WORD:
            return True
        if signs[-1] in _CLOSING and after.isalpha():
            return True
        ends_word = before.isalpha() and before.isupper() == lead.isupper()
        bound = before == " " and signs == "\u00a0" and after.isalnum()
        if not (ends_word or bound) or (ends_word and _word_goes_on(m.group(), lead, goes_on)):
            return True
    return False


def _word_goes_on(sequence: bytes, lead: str, after: str) -> bool:
    """A capital word that goes on in capitals (`after`: its next two characters) past the
    sequence, which reads as a letter: "GÃ–TZE" is "GÖTZE", "SÃ–DERBERG" "SÖDERBERG" (taken for
    a word ending before a dash, the surname-first capitals of "GÃ–TZE Mario" stayed garbled).
    Not "AMANHÃ—A" ("×" is no letter), "IRMÃ’s" or "Ã–Newton" (a small letter follows)."""
    return lead.isupper() and len(after) == 2 and after.isupper() and after.isalpha() and sequence.decode("utf-8").isalpha()


# A reading must be this many times likelier than every other (the letters of real author
# names, as decoding weighs code pages) to be chosen: "JĂĽrgen MĂĽller, GaĹˇper BeguĹˇ" is
# "Jürgen Müller, Gašper Beguš" through Windows-1250, "Jårgen Måller, Gaŷper Beguŷ" through
# Latin-2 (~60,000 times less likely); one letter apart ("Gráfico" or "Gråfico": 12 times) stays.
_LIKELIER = math.log(32.0)


def _likeliest(readings: dict[str, tuple[bytes, set[str]]]) -> dict[str, tuple[bytes, set[str]]]:
    """The reading far likelier than the others, else all of them. Readings compare sequence by
    sequence (the same characters of the line), and only where both make a letter: a sign for a
    letter ("10 µm" or "10 ¾m") is no evidence either way."""
    from transforms.decode import _name_letter_log_p

    log_p, unseen = _name_letter_log_p()
    made = {r: [m.group().decode("utf-8").lower() for m in _SEQUENCE.finditer(raw)] for r, (raw, _) in readings.items()}

    def odds(a: str, b: str) -> float:
        if len(made[a]) != len(made[b]):
            return 0.0  # the code pages cut the line into other sequences: nothing to compare
        letters = [(x, y) for x, y in zip(made[a], made[b]) if x.isalpha() and y.isalpha()]
        # Only a letter no real name holds decides ("Gaŷper"): two that names hold are both
        # possible, however unequal ("Nießner" / "Nieüner": ü is 9 times commoner, twice 81).
        if not any(x in log_p and y not in log_p for x, y in letters):
            return 0.0
        return sum(log_p.get(x, unseen) - log_p.get(y, unseen) for x, y in letters)
    for r, read in readings.items():
        if all(odds(r, other) > _LIKELIER for other in readings if other != r):
            return {r: read}
    return readings


def _plausible(reading: str, text: str) -> bool:
    """No combining mark, control, private-use or unassigned character that the line did not
    hold: what a wrong code page's reading makes ("HÃ¥vard" through Mac Roman: "H\u0334vard").
    A mark that composes with its letter is text ("Ma\u0328czka" is "Mączka" decomposed). And no
    new letter of another script than the letters beside it, or of the phonetic blocks (`_mixed_script`)."""
    reading = unicodedata.normalize("NFC", reading)
    odd = {ch for ch in reading if unicodedata.category(ch) in _ODD_CATEGORIES}
    return odd <= set(text) and not _mixed_script(reading, set(text))


_ODD_CATEGORIES = {"Mn", "Me", "Cc", "Co", "Cn", "Cs"}
# Letters a reading may make but garbled text seldom held: the last of Latin Extended-B, IPA and
# modifier letters ("CAFÉ’s" read as "CAFɒs", "CAFÉ…" as "CAFɅ").
_PHONETIC = range(0x0240, 0x0300)
# The scripts of two-byte UTF-8 (U+0100-07FF) but Latin and Greek, which mix with Latin letters in
# one word ("ΔG", "Aβ"): a character of these beside a letter of another script is no word.
_WORD_SCRIPTS = {"CYRILLIC", "ARMENIAN", "HEBREW", "ARABIC", "SYRIAC", "THAANA", "NKO", "SAMARITAN", "MANDAIC"}


def _mixed_script(reading: str, held: set[str]) -> bool:
    """Whether the reading makes a phonetic letter, or makes characters of `_WORD_SCRIPTS` only
    alone, each beside letters of another script and none beside one of its own: a real letter
    and a typographic sign after it read as one character of a third script ("Gauß–Newton" read as
    "GauߖNewton", NKo; "ODTÜ’s" as "ODTܒs", Syriac; "Gauß…" as "Gau߅", an NKo digit). Text a
    misreading garbled comes back as words of its script, even glued to Latin ones ("Мoсква",
    "GPTмоделей", "בPython"): a reading that makes one such pair of letters is text."""
    alone = False
    for i, ch in enumerate(reading):
        if ch.isascii() or ch in held:
            continue
        if ord(ch) in _PHONETIC:
            return True
        script = _script(ch)
        if script not in _WORD_SCRIPTS:
            continue
        beside = {_letter_script(reading[j]) for j in (i - 1, i + 1) if 0 <= j < len(reading)} - {None}
        if script in beside:
            return False
        alone = alone or bool(beside)
    return alone


def _script(ch: str) -> str:
    """A character's script, as the first word of its Unicode name ("LATIN", "NKO")."""
    return unicodedata.name(ch, "").split(" ", 1)[0]


def _letter_script(ch: str) -> str | None:
    return _script(ch) if unicodedata.category(ch).startswith("L") else None


def _has_combining(text: str) -> bool:
    return any(unicodedata.combining(ch) for ch in text)


def _normal_forms(text: str) -> set[bool]:
    """Whether a line's accented letters are decomposed (a letter, then a combining mark: True),
    composed (a letter that has a decomposition: False), or both; empty when it holds neither."""
    forms = set()
    for ch in text:
        if unicodedata.combining(ch):
            forms.add(True)
        elif not ch.isascii() and ch.isalpha() and unicodedata.decomposition(ch)[:1] not in ("", "<"):
            forms.add(False)
    return forms
