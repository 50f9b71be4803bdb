"""Columns every format's parser returns, and helpers they share."""

from __future__ import annotations

import re
from functools import cache

import polars as pl

from transforms.persons import reference_name_parts
from transforms.text import fold_key, on_rows_where, tex_accents

# Text fields come out of a parser already passed through transforms.text.clean_text.
RECORD_SCHEMA = {
    "file_idx": pl.Int64,
    "position": pl.Int64,  # 1-based order of the record in its file
    "line_start": pl.Int64,
    "line_end": pl.Int64,
    "rank": pl.Int64,  # listing "#NN"; null in formats without one
    "listed_on": pl.Date,
    "category_raw": pl.String,
    "title": pl.String,
    "authors_raw": pl.String,
    "abstract": pl.String,
    "raw_text": pl.String,  # the record's lines, for quarantine downstream
}
QUARANTINE_SCHEMA = {
    "file_idx": pl.Int64,
    "line_start": pl.Int64,
    "line_end": pl.Int64,
    "reason": pl.String,
    "raw_text": pl.String,
}


def as_records(df: pl.DataFrame) -> pl.DataFrame:
    return df.select([pl.col(c).cast(t) if c in df.columns else pl.lit(None, t).alias(c) for c, t in RECORD_SCHEMA.items()])


def on_rows(frame: pl.DataFrame, rows: pl.Series, expr: pl.Expr) -> pl.Series:
    """A boolean `expr` evaluated only on `rows` of `frame` (indices), false elsewhere: costly
    patterns run on the few rows a cheap look flags, not on every row."""
    out = pl.repeat(False, frame.height, dtype=pl.Boolean, eager=True)
    if rows.len():
        out = out.scatter(rows, frame[rows].select(expr).to_series().fill_null(False))
    return out


def as_quarantine(df: pl.DataFrame) -> pl.DataFrame:
    return df.select([pl.col(c).cast(t) for c, t in QUARANTINE_SCHEMA.items()])


def split_valid(records: pl.DataFrame, reason: pl.Expr) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Records whose `reason` is null pass; the others become quarantine rows."""
    flagged = records.with_columns(reason=reason)
    bad = as_quarantine(flagged.filter(pl.col("reason").is_not_null()))
    return as_records(flagged.filter(pl.col("reason").is_null())), bad


def first_in_group(col: str, offset: int) -> pl.Expr:
    """The group's `offset`-th value of `col`, or null when the group is shorter."""
    return pl.col(col).slice(offset, 1).first()


SUSPENDED_BEFORE = r"^(?:and|or|nor|und|oder)\s"  # words a hyphen is left hanging before

# An abstract of one line that a names line can look like, in either format: a sentence that a
# small word of three letters or more ends ("No abstract available.", "Withdrawn by the
# authors.": no name of the 26,478 real ones ends so; "Jr.", "M.", "et al." are capitals or
# short), or a placeholder ("Withdrawn", "TBD", "N/A", "暂无摘要"). Read as names, a search
# page's records took their neighbours into quarantine or their placeholder became the next
# paper's category, and a listing of lower-case names above "Withdrawn" was taken for a shifted
# record (`python -m eval.titles_only`).
ONE_LINE_ABSTRACT = (
    r"(?:^|\s)\p{Ll}{3,}[.!?]$"
    r"|(?i)^(?:no abstracts?(?: (?:is )?(?:yet )?(?:available|provided|given))?|(?:abstract )?(?:is )?"
    r"not (?:yet )?(?:available|provided)|n/?a|tb[ad]|withdrawn|retracted|erratum|coming soon|"
    r"see (?:the )?(?:pdf|paper)|abstract|摘要|暂无摘要|无摘要|暂无|無|なし|없음)\W*$")


def join_after_hyphen(previous: pl.Expr, line: pl.Expr) -> pl.Expr:
    """Whether `line` continues `previous` without a space: a wrapper (e-mail clients and
    Python's textwrap both may) broke a hyphenated word after its hyphen, "Multi-" / "Layer",
    or before a dash run, "linear" / "---highlighting". Not before "and", "or", "nor" (and German
    "und", "oder") and a space: a hyphen left hanging before them is the text's own ("hard- and
    software", "pre- or post-training"), glued it was "hard-and software"."""
    # The ends compared one character at a time: an end-anchored pattern ("[\p{L}\p{N}]-+$") was
    # tried along every whole line of a search page (a sixth of its parse).
    last = previous.str.slice(-1)
    word_end = previous.str.strip_chars_end("-").str.slice(-1).str.contains(r"^[\p{L}\p{N}]$")
    after_hyphen = (last == "-") & word_end & line.str.contains(r"^\p{L}") & ~line.str.contains(SUSPENDED_BEFORE)
    # textwrap also breaks before a dash run glued to words: "linear" / "---highlighting"
    before_dashes = last.str.contains(r"^[\p{L}\p{N}]$") & line.str.contains(r"^-{2,}[\p{L}\p{N}]")
    return (after_hyphen | before_dashes).fill_null(False)


# ---------------------------------------------------------------------------- names lines
# Lower-case words that are part of names ("van der Berg", "de la Cruz", "ben Amor").
PARTICLES = "van|von|der|den|de|del|della|dei|des|di|da|du|dos|das|do|le|la|les|bin|ibn|ben|al|el|ter|ten|zu|zur|y|e"
# Short words of prose that real names hold, typed in small letters as some lists write names
# ("scott a. hughes", "jae in kim", "minh to", "can jin", "been kim"; in ../shared/realdata's
# distinct names: "a." 119, "an" 38, "can" 16, "a" 17, "the" 5, "in" 4, "to" 3, "been" 1). Read as
# prose, such a names line quarantined its record, and on a search page moved every later
# record's position by one. Prose has the same shape ("learning to read", "he can learn", "price to
# pay"), and English words are surnames too ("Read", "Price", "Long"): the name's other words must
# be a given name before it and a surname after it, as real authors wear them.
NAME_WORDS = frozenset({"a", "an", "the", "to", "in", "can", "been"})
GIVEN_NAME_WORDS = frozenset({"can", "been"})  # opening a name: "can jin", "been kim" (not "an", "the": "an automatic")
NAME_WORDS_ITEM_WORDS = 4  # a longer item holding one is prose (particles aside: "putri a van der linden")
# (the rows to read: a short item holding such a word, or "a." anywhere; prose's long clauses are none)
_NAME_WORDS_SEEN = (r"(?:^|,)\s*(?:[^,\s]+\s+){0,4}(?:" + "|".join(sorted(NAME_WORDS)) + r")(?:\s+[^,\s]+){0,4}\s*(?:,|$)"
                    r"|(?:^|\s)a\.")
_INITIALS = re.compile(r"(?:\w\.)+")  # "a.", "a.a."
_PARTICLE_WORDS = frozenset(PARTICLES.split("|"))


@cache
def _known_name_parts(kind: str) -> frozenset[str]:
    """Given names or surnames (`kind`) real authors wear (transforms/name_parts.csv, folded)."""
    return frozenset(reference_name_parts(kind).explode().to_list())


def _known_words(lines: pl.Series) -> tuple[set[str], set[str]]:
    """The words of `lines` (as written) that are known given names, and known surnames, folded
    as the reference is (`fold_key`: "yılmaz" is "yilmaz", "łukasz" "lukasz")."""
    words = pl.Series(sorted({w for line in lines for w in re.split(r"[\s,]+", line) if w}), dtype=pl.String)
    folded = words.to_frame("w").select(fold_key(pl.col("w")))["w"]
    return tuple({w for w, f in zip(words, folded) if f in _known_name_parts(kind)} for kind in ("given", "surname"))


def _a_name_around(words: list[str], at: int, given: set[str], surnames: set[str]) -> bool:
    """Whether `words` (an item in small letters, particles aside) are a name with a NAME_WORDS at
    `at`: "jae in kim" (a known given name before it, a known surname after it, four words at
    most), "minh to" (a known given name, then it), "can jin" (a GIVEN_NAME_WORDS, then a known
    surname)."""
    if at == 0:
        return len(words) == 2 and words[0] in GIVEN_NAME_WORDS and words[1] in surnames
    if at == len(words) - 1:
        return len(words) == 2 and words[0] in given
    # (a middle initial without its dot needs the given name only: "jacob a zavatone-veth")
    return len(words) <= NAME_WORDS_ITEM_WORDS and words[0] in given and (words[at] == "a" or words[-1] in surnames)


def name_words_blanked(items: pl.Expr, prose_words: frozenset[str]) -> pl.Expr:
    """A list's `items` (one "," between each two) with initials ("a.", "a.a.") written "x." and
    the word of prose of a name typed in small letters written "x": an item without digits, of
    one word of `prose_words` that is a NAME_WORDS, in a name's place (`_a_name_around`), in a list
    of two words or more in each item ("Nevertheless, building a vast" is none). Only the rows
    holding such a word are read (few)."""
    def blank(item: str, names: bool, given: set[str], surnames: set[str]) -> str:
        words = ["x." if _INITIALS.fullmatch(w) and w not in prose_words else w for w in item.split(" ")]  # (not "e.g.")
        named = [w for w in words if w and w not in _PARTICLE_WORDS]
        said = [i for i, w in enumerate(named) if w in prose_words]
        if (names and len(said) == 1 and named[said[0]] in NAME_WORDS and item.islower()
                and not any(c.isdigit() for c in item) and _a_name_around(named, said[0], given, surnames)):
            words[words.index(named[said[0]])] = "x"
        return " ".join(words)

    def rows_blanked(rows: pl.Series) -> pl.Series:
        given, surnames = _known_words(rows)
        out = []
        for line in rows:
            items = line.split(",")
            names = all(len(item.split()) >= 2 for item in items if item.strip())
            out.append(",".join(blank(item, names, given, surnames) for item in items))
        return pl.Series(out, dtype=pl.String)
    return items.map_batches(lambda col: on_rows_where(col, col.str.contains(_NAME_WORDS_SEEN), rows_blanked),
                             return_dtype=pl.String, is_elementwise=True)


# Affiliation marks glued to a name: "Smith1", "Smith¹", "Smith*", "Smith†".
AFFILIATION_MARKS = r"[\d\x{00B9}\x{00B2}\x{00B3}\x{2070}-\x{2079}*\x{2020}\x{2021}\x{00A7}\x{00B6}]"
# Affiliations in parentheses closing a name, as arXiv's own author lines carry them (a tenth of
# the Kaggle snapshot's): "A. Schekochihin (Oxford), S. C. Cowley (Culham)", "Arthur Jaffe (1) and
# Gordon Ritter (1) ((1) Harvard University)"; a group may hold another, and commas. Read as names
# they were "LUTH", "Moscow State University". Square brackets likewise ("Ann Lee [MIT]", "Bo Chen
# (MIT) [1]"). A group inside a name is a nickname and stays ("Xiao Shi (Gary) Zhongren"). No
# look-ahead in Polars: what follows the groups is put back.
# Full-width brackets too, as CJK lines write them ("张三（清华大学）、李四（北京大学）"), and before "等".
AFFILIATIONS = (r"(?:\s*(?:\((?:[^()]|\([^()]*\))*\)|\[[^\[\]]*\]|（[^（）]*）|【[^【】]*】))+"
                r"(\s*(?:[,，;；、&]|\s(?i:and|und|et)\s|等|$))")


# Marks the names are read without (clean.split_authors; `without_marks`, `names_line`).
# Digits glued to a name: "Smith1,2", "Smith¹", "Smith⁺".
_SUPERSCRIPT_DIGITS = r"\x{00B9}\x{00B2}\x{00B3}\x{2070}-\x{207C}"
_DIGITS = "0-9" + _SUPERSCRIPT_DIGITS
# Symbol marks no name holds: "Lee*", "Lee†", "Lee∗" (U+2217), "Lee⁎", "Lee#", "Lee⋆", and the
# symbol blocks: miscellaneous symbols and dingbats ("Lee✉", corresponding author; "Lee✝", "Lee♯"),
# geometric shapes, arrows and emoji. They stayed in the shown name. Not all of \p{So}: it holds
# the CJK radicals a PDF copy gives for Han letters ("⾼伟" is "高伟").
_SYMBOLS = (r"*#\x{2020}\x{2021}\x{00A7}\x{00B6}\x{204E}\x{2217}\x{22C6}\x{25A0}-\x{27BF}\x{2B00}-\x{2BFF}"
            r"\x{1F300}-\x{1FAFF}")
# Superscript letters as marks: "Leeᵃ", "Chenᵇ,ᶜ", "Deeʰ" (read as letters, "Leeᵃ" was "ann leea").
_SUPERSCRIPT_LETTERS = r"\x{1D2C}-\x{1D6A}\x{1D9B}-\x{1DBF}\x{02B0}-\x{02B8}\x{2071}\x{207F}"
# Marks no name holds, wherever they stand ("Lee ✉", "¹Ann Lee", "Lee ²"): symbols and superscript digits.
LOOSE_MARKS = f"[{_SYMBOLS}{_SUPERSCRIPT_DIGITS}]+"
SYMBOL_MARKS = rf"[{_SYMBOLS}]+"
# A run of marks glued to a name, of any of the kinds above mixed, and the next ones after commas:
# "Lee¹,ᵃ", "Lee*,1", "Leeᵃ,¹", "Lee1†", "Lee1, 2". Each kind alone was read, but a mix split the
# run and loaded "ᵃ" or "1" as an author. A run ends the name (no letter follows: "Leeʰx" is a
# word); group 2, what follows, is put back.
_MARK = rf"[{_DIGITS}{_SYMBOLS}{_SUPERSCRIPT_LETTERS}]+"
GLUED_MARKS = rf"(\p{{L}}\.?)[{_DIGITS}{_SYMBOLS}]*{_MARK}(?:\s*,\s*{_MARK})*([^\p{{L}}\p{{M}}]|$)"

# Affiliation marks written as superscripts (or subscripts), as LaTeX sources and web pages carry
# them: "Lee$^{1,2}$", "Lee${}^{a}$", "Lee$^\\dagger$", "Lee$\\ddagger$", "Lee^{2,3}", "Lee^a",
# "Lee\\textsuperscript{1}", "Lee<sup>1</sup>". No name holds one; read as names they split at their
# commas ("Bo Chen$^{2", "3}$" loaded as two people). A bare "^" after a backslash is a TeX accent
# ("Gr\\^{e}ve"): the character before a bare "^" is kept as group 1, since Polars has no look-behind.
# A group may hold one more ("$^{\\text{a}}$", "^{\\dagger{}}").
_BRACES = r"\{(?:[^{}$]|\{[^{}$]*\})*\}"
SUPERSCRIPT_MARKS = (
    r"(?:\$|\\\()\s*(?:\{\s*\})?\s*[\^_]\s*(?:" + _BRACES + r"|\\[A-Za-z]+|[^\s{}$\\])\s*(?:\$|\\\))"  # $..$ or \(..\)
    r"|(?:\$|\\\()\s*(?:\\[A-Za-z]+|[*#\x{2020}\x{2021}\x{00A7}\x{00B6}])\s*(?:\$|\\\))"
    r"|\\text(?:super|sub)script\s*" + _BRACES +
    r"|(?i:<su[pb]>[^<]*</su[pb]>)"
    r"|(^|[^\\\s])\s*\^(?:" + _BRACES + r"|[\p{L}\p{N}*]+)"
)


# A field's label as pages and e-mails decorate it: "Label:", "**Label:**", "__Label__:", "[Label]",
# "【Label】", "Label —" (a dash between spaces, or an em or en dash). Decorated, the label stayed in
# the field ("**Authors:** Ann Lee" was a first author "Authors: Ann Lee").
def _labelled(words: str) -> str:
    bracketed = rf"[\[【]\s*(?:{words})\s*[\]】]\s*(?::|：)?"
    with_colon_or_dash = rf"(?:{words})[*_]*\s*(?::|：|\s[-–—]{{1,2}}\s|[–—])"
    return rf"^[*_]*\s*(?:{bracketed}|{with_colon_or_dash})[*_]*\s*"


# A label before an authors line's names: "Authors: Ann Lee, Bo Chen", "Author(s): ...", "By: ...",
# "Autores: ...", "作者：..." (pages and e-mails print one). It stayed in the first name ("Authors:
# Nanda Rani" was a person), and a search page's "Authors: ..." paragraph was taken for an abstract.
_AUTHORS_WORDS = (r"(?i:authors?|author\(s\)|autor(?:es|en|as|\(es\))?|auteurs?|auteur\(s\)|autori|verfasser|yazarlar"
                  r"|tác giả|авторы|автор|written by|by)|作者|著者|저자")
AUTHORS_LABEL = _labelled(_AUTHORS_WORDS) + r"|^(?:作者|著者|저자)\s*(?::|：)?\s*"
# "By" with no colon is a label only before a name of two words or more ("By Ann Lee and Bo Chen",
# "by Ann Lee"): "By" is a given name too, and "By Nguyen, Ann Lee" keeps it (no look-ahead in
# Polars: the second word must not be a list's "and").
_ITEM_WORD = r"[^\s,;，；、&]+"
BY_NAMES = rf"^(?i:by)\s+{_ITEM_WORD}\s+{_ITEM_WORD}"
BY_ONE_NAME = rf"^(?i:by)\s+{_ITEM_WORD}\s+(?i:and|und|et)\s"
# The lines that may hold a label: the labels themselves, anchored (one try per line), not a list
# of their first letters written again beside them.
_LABELLED_LINE = rf"{AUTHORS_LABEL}|{BY_NAMES}"


def without_label(lines: pl.Series) -> pl.Series:
    """The authors lines without a leading AUTHORS_LABEL or "By" label."""
    return on_rows_where(lines, lines.str.contains(_LABELLED_LINE), lambda rows: rows.to_frame("a").select(
        pl.when(pl.col("a").str.contains(BY_NAMES) & ~pl.col("a").str.contains(BY_ONE_NAME))
        .then(pl.col("a").str.replace(r"^\S+\s+", ""))
        .otherwise(pl.col("a").str.replace(AUTHORS_LABEL, ""))).to_series())


# A page's label before a title or an abstract ("Title: BRIDGE: ...", "Abstract: We study ..."),
# a colon right after it and text after that: it stayed in the field. (A title's label goes in
# every record: "Title: Subtitle: Sub-subtitle" as a real title is given up, session 52.)
# In other languages too ("Titre :", "标题：", "Résumé :", "摘要："), and an abstract's as papers print
# it ("Abstract—We", "Abstract. We", "Summary: We", "TL;DR: We").
_TITLE_WORDS = r"(?i:title|titre|titel|título|titulo|titolo|tytuł|başlık|название|заголовок)|标题|標題|題名|タイトル|제목"
_ABSTRACT_WORDS = (r"(?i:abstract|summary|résumé|resume|zusammenfassung|kurzfassung|resumen|resumo|sommario|riassunto"
                   r"|streszczenie|özet|tóm tắt|аннотация|tl;\s?dr)|摘要|概要|要旨|초록")
TITLE_LABEL = _labelled(_TITLE_WORDS) + r"(\S)"
# And a bare "ABSTRACT " in capitals, as PDFs print the heading, before a word that is not capitals
# too ("ABSTRACT MEANING REPRESENTATION ..." may be the text): it stayed in the abstract (hunt 52).
ABSTRACT_LABEL = r"(?:" + _labelled(_ABSTRACT_WORDS) + r"|^(?i:abstract)\.\s+)(\S)|^ABSTRACT\s+(\S\P{Lu})"


def without_field_label(text: pl.Series, label: str) -> pl.Series:
    """`text` without a leading "<label>:" (TITLE_LABEL, ABSTRACT_LABEL), rewritten on the rows
    that hold one only (the anchored pattern: one try per row)."""
    pattern = {"title": TITLE_LABEL, "abstract": ABSTRACT_LABEL}[label]
    return on_rows_where(text, text.str.contains(pattern), lambda rows: rows.str.replace(pattern, "${1}${2}"))


def without_marks(lines: pl.Series) -> pl.Series:
    """The lines without an authors label (`without_label`), with a collaboration's forms read
    (`collaborations`: "The ATLAS Collaboration: G. Aad, ..." was no names line on a search page,
    its record quarantined), without SUPERSCRIPT_MARKS and SYMBOL_MARKS ("Yu$^{1}$", "Yu ✉"); the
    patterns run on the lines that can hold one only."""
    lines = without_label(lines)
    lines = on_rows_where(lines, lines.str.contains(_GROUP_WORD), collaborations)
    needs = lines.str.contains(r"[\^<$]|\\text(?:super|sub)script|" + SYMBOL_MARKS)
    return on_rows_where(lines, needs, lambda rows: rows.str.replace_all(SUPERSCRIPT_MARKS, "${1}")
                         .str.replace_all(r"\s*" + SYMBOL_MARKS, ""))


def names_text(unmarked: pl.Series) -> pl.Series:
    """Lines without their marks (`without_marks`) as a names line reads them (`names_line`),
    without the spaces a mark left before a comma or at the end ("Bo Chen $^{3}$"). What the
    search format's names test looks at: it read arXiv's own author lines ("C. Bal\\'azs, ...",
    "Peter Brommer and Franz G\\"ahler (Institut f\\"ur ...)") as written, took them for abstracts
    and quarantined their records, where a listing loaded them."""
    read = _names_rows(unmarked)
    return on_rows_where(read, read.str.contains(r"\s,|\s$"),
                         lambda rows: rows.str.replace_all(r"\s+,", ",").str.strip_chars())


def names_line(authors: pl.Expr) -> pl.Expr:
    """The names of an authors line: TeX accents as letters ("G\\"ahler" is "Gähler"), the
    affiliations in parentheses that close names and superscript marks left out."""
    return authors.map_batches(_names_rows, return_dtype=pl.String)


def _names_rows(lines: pl.Series) -> pl.Series:
    """`names_line` on the lines holding a parenthesis, a backslash, "$", "^" or "<" only (few):
    its patterns over every authors line made a listing's parse 5 % slower. A leading label goes
    first (`without_label`), a collaboration's forms next (`collaborations`)."""
    lines = without_label(lines)
    lines = on_rows_where(lines, lines.str.contains(_GROUP_WORD), collaborations)
    needs = lines.str.contains(r"[(\[\\$^<（【]")
    return on_rows_where(lines, needs, lambda rows: rows.to_frame("a").select(
        tex_accents(pl.col("a").str.replace_all(SUPERSCRIPT_MARKS, "${1}"))
        .str.replace_all(AFFILIATIONS, "${1}")).to_series())


# A collaboration as physics and medicine print it in author lists. Read as names, "The ATLAS
# Collaboration: G. Aad, ..." was one person "The ATLAS Collaboration: G. Aad"; "ATLAS and CMS
# Collaborations" two, "ATLAS" and "CMS Collaborations"; "the ATLAS collaboration" and "ATLAS
# Collaboration" two authors; and "Ann Lee, Bo Chen for the ATLAS Collaboration" was quarantined as
# prose (the same in parentheses is dropped with the affiliations, as this is now). "The ATLAS
# Collaboration", as arXiv writes it, keeps its "The" and its key: a name's key is `fold_key` of it.
_GROUP = r"(?:collaborati(?:on|ve)|consortium|group|team)"
# The lines that may hold one, found by literals (as the regex engine's fast scan finds them: the
# case-insensitive words cost four times as much over every authors line).
_GROUP_WORD = r"ollaborati|onsorti|roup|eam|OLLABORATI|ONSORTI|ROUP|EAM"
_FOR_GROUP = rf"(?i)[\s,;]+(?:for\s+the|on\s+behalf\s+of(?:\s+the)?)\s+[^,;]*?{_GROUP}s?\s*\.?\s*$"
# ... not when a group or committee is what writes for it: "Writing Group for the DCCT/EDIC
# Research Group" is one author (a real one, of JAMA's).
_GROUP_FOR = (r"(?i)(?:^|[,;])[^,;]*\b(?:collaborati(?:on|ve)|consortium|group|team|committee|network|board|council"
              r"|investigators|office|center|centre|alliance|organi[sz]ation)\s+(?:for|on\s+behalf\s+of)\s")
_TWO_GROUPS = rf"(?i)(^|[,;]\s*)(?:the\s+)?(\S+)\s+(?:and|&)\s+(\S+)\s+({_GROUP})s\b"
_GROUP_LABEL = rf"(?i)^((?:the\s+)?[^,;:]*?\s{_GROUP}s?)\s*:\s*"
# A lower-case "the" before one is left out of the line: "the ATLAS collaboration" read as prose.
_LOWER_THE_GROUP = rf"(^|[,;]\s*|\s(?:and|&)\s+)the\s+([^,;]*?\s(?i:{_GROUP}))\b"


def collaborations(lines: pl.Series) -> pl.Series:
    """Author lines with each collaboration one item, and a "for the ... Collaboration" closing
    the list left out."""
    a = pl.col("a")
    written_for = pl.when(a.str.contains(_GROUP_FOR)).then(a).otherwise(a.str.replace(_FOR_GROUP, ""))
    return lines.to_frame("a").select(
        written_for.str.replace(_GROUP_LABEL, "${1}, ").str.replace_all(_TWO_GROUPS, "${1}${2} ${4}, ${3} ${4}")
        .str.replace_all(_LOWER_THE_GROUP, "${1}${2}")).to_series()


_NAME_WORD = (
    r"(?:[\p{Lu}\p{Lt}\p{Lo}][\p{L}\p{M}'’.\-]*"  # capitalised, or a script without case (张三)
    r"|(?:" + PARTICLES + r")"
    r"|(?:d|l|o|al|el)['’\-]\p{L}[\p{L}\p{M}'’.\-]*"  # d'Alembert, al-Farabi
    r")" + AFFILIATION_MARKS + r"*"
)
NAME_ITEM = r"(?:" + _NAME_WORD + r"(?: " + _NAME_WORD + r"){0,5}|" + AFFILIATION_MARKS + r"+)"
# "and" in the scripts whose names lists print it, between spaces and in small letters: Russian
# "и", Ukrainian "і" / "та", Greek "και", Arabic "و", and the others below (a name never is one of these words alone;
# capitalised, "И", "Та" are initials and names: "Иванов И И", "Та Куанг Бу"; Latin "y" and "e"
# join the parts of one name: "Ortega y Gasset"). And the Arabic comma and semicolon. Not read,
# "Сергей Иванов и Анна Смирнова" and "محمد علي، أحمد حسن" were one person each.
SCRIPT_JOINERS = r"и|і|та|και|و|और|ও|และ|და|և|եւ|및"  # ... Hindi, Bengali, Thai, Georgian, Armenian, Korean
SCRIPT_COMMAS = "،؛"
# Every way a list separates two names: , ; 、 & "and" (", and" too).
LIST_SEPARATOR = rf"(?i)\s*(?:[,，;；、&{SCRIPT_COMMAS}]\s*(?:and\s+)?|\s+(?:and|(?-i:{SCRIPT_JOINERS}))\s+)\s*"
# How many names a list leaves out, spelled as digits or as a word ("and one more").
MORE_COUNT_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
                    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
                    "thirty": 30, "forty": 40, "fifty": 50, "hundred": 100}
# Digits in groups of three too ("and 2,931 more", "2.931", "2 931", Swiss "2'931", a thin or
# no-break space): read up to the separator, "2" was loaded as a person and the total was 935.
DIGIT_GROUP_SEPARATORS = ",. '\u2019\u00a0\u202f\u2009\uff0c"
# A digit of any script ("and ５ more", "(+٤)", "and 𝟓 more": `\d` is Unicode's in the regex engine)
# or superscript ("and ⁵ more": read as a mark, "more" was loaded as a person); `clean._count_value`
# reads each as its value.
_COUNT_DIGIT = r"[\d\u00B9\u00B2\u00B3\u2070\u2074-\u2079]"  # (escapes both engines read: `clean` counts groups in Python)
_MORE_COUNT = (rf"({_COUNT_DIGIT}{{1,3}}(?:[{DIGIT_GROUP_SEPARATORS}]{_COUNT_DIGIT}{{3}})+|{_COUNT_DIGIT}+|"
               + "|".join(sorted(MORE_COUNT_WORDS, key=len, reverse=True)) + r")")
_MORE = (r"(?:more|others?|additional|further|weitere|autres|más|mas|otros|outros|altri|andere|anderen|flere"
         r"|muut|diğer(?:leri)?|других|innych|dalších)(?:\s+(?:co-?)?authors?)?")
# After a plus, "authors" alone says more too ("[+2931 authors]"); "(2,934 authors)" is a total.
_PLUS_MORE = rf"(?:{_MORE}|(?:co-?)?authors?)"
# The words that join a count to the list, in the languages of `_MORE` ("et 2 autres", "y 2 más").
_MORE_JOINER = r"and|&|plus|und|et|y|e|en|og|ja|ve|và|и|i|a"
# What may close a list's ending: punctuation, a bracket, dots, markdown's emphasis ("and 5 more …",
# "and 5 more)", "*et al.*"), and after "et al." a year as citations write it ("et al. 2024",
# "et al. (2024)"). Not read, the ending was a person: "5 more)", "al.", "al. 2024" (hunt 52).
_ENDING_CLOSE = r"[\s.,;:*_)\]…]*"
_CITED_YEAR = r"(?:\(?(?:1[89]|20)\d\d[a-z]?\)?" + _ENDING_CLOSE + r")?"
# "A, B, C and 3 more": only three names are shown, three more exist; also "and one more",
# "and 3 more authors", "& 3 others", "plus 3 more", ", 3 more", "+3 more", "(+3)", "[+3]",
# "(and 3 more)", "und 3 weitere", "外 2 名", a closing period. Each alternative's one capturing
# group is the count (`clean._more_count` reads them all). ("and one more" loaded a person "one more"; "+3 more" stayed in the last
# name; "(+3)" was dropped.) Alone on a line too: a wrapped names line's last line ("and 3 more").
AND_MORE = (r"(?i)(?:(?:^|\s*,\s*|\s+)[*_]*(?:(?:" + _MORE_JOINER + r")\s+)?" + _MORE_COUNT + r"\s+" + _MORE
            + r"|\s*,?\s*\+\s*" + _MORE_COUNT + r"(?:\s+" + _PLUS_MORE + r")?"
            r"|\s*[(\[]\s*(?:\+\s*" + _MORE_COUNT + r"(?:\s+" + _PLUS_MORE + r")?|(?:and\s+)?" + _MORE_COUNT
            + r"\s+" + _MORE + r")\s*[)\]]"
            r"|(?:[\s,，、]\s*(?:外|他|외)|\s*ほか)\s*" + _MORE_COUNT + r"\s*(?:名|人|位|명)?"  # "外 2 名": 2 more
            r")" + _ENDING_CLOSE + "$")  # not "(3)": an affiliation's number
# A list's total in brackets after it, "A, B, C (2,934 authors)": dropped with the affiliations,
# the list was complete. Its count is group 1.
DECLARED_TOTAL = (r"(?i)\s*[(\[]\s*" + _MORE_COUNT + r"\s+(?:co-?)?authors?(?:\s+in\s+(?:total|all))?\s*[)\]]\.?\s*$")
# More names exist, how many is not said: "et al.", "and others", "and colleagues", "among others",
# ", Others" too: as an item, "Others" was loaded as a person and the list as complete.
# In other languages too (each was loaded as a person or glued to the last name, the list
# complete): "und andere", "y otros", "и др.", "ほか", after a space or comma, and in small letters
# only: capitalised, "A Kol.", "I In.", "Y Col." may be a name's last initial and word. "et al." in
# its other spellings: "et alii" (small letters: "et Alia" joins a person Alia), "& al.", "and
# al.", each after a space or comma ("Mandal.", "Metal" are names). No `\b`: a Unicode word
# boundary takes the regex engine off its fast path (clean 1.0 -> 1.5 s at 100k listings).
_UNSAID_MORE = (r"(?:and\s+|&\s*|,\s*)(?:(?:many|several|numerous)\s+)?(?:others|colleagues|co-?workers|other\s+authors"
                r"|(?-i:(?:many\s+)?more))"  # "and more" in small letters: "Thomas More" is a name
                r"|among\s+others|[\s,]\s*(?-i:und\s+andere|y\s+otros|y\s+cols?\.|e\s+outros|e\s+altri|e\s+coll?\."
                r"|et\s+coll?\.|et\s+autres|en\s+anderen|og\s+flere|med\s+flere|och\s+andra|m\.\s?fl\.|ja\s+muut"
                r"|ve\s+di[gğ]erleri|vd\.|và\s+cộng\s+sự|и\s+др\.|и\s+другие|та\s+ін\.|і\s+ін\.|i\s+in\.|i\s+inni"
                r"|a\s+kol\.|a\s+další|u\.\s?a\.|e\.\s?a\.|και\s+άλλοι|κ\.\s?ά\.|و\s?آخرون)|ほか|[\s,，、]\s*(?:他|外|외)")
# Chinese 等 ("and others"), glued or not; "等 5 人" says five in all, not five more: the total is
# left unknown rather than read as a count of the missing.
_DENG = r"等(?:\s*\d+\s*[人位名]|人)?"
_ET_AL = r"(?:^|[\s,])[*_(\[]*(?:et\.?\s*al\.?|(?-i:et\s+al(?:ii|ia|ios)\.?))|(?:\s&|\sand)\s*al\."
# "etc" without its period only after a comma or in small letters: "Aa Etc" is a person. A closing
# period or comma after any of them ("and others.", "et al.,") ends the list too.
ET_AL = rf"(?i)\s*(?:(?:,\s*)?(?:{_DENG}|{_ET_AL}|{_UNSAID_MORE}|etc\.)|,\s*etc|(?-i:\s+etc)){_ENDING_CLOSE}{_CITED_YEAR}$"
# The same in brackets, "A, B (et al.)", "A, B [and others]": read as an affiliation, the list was
# complete. (The names line drops bracketed groups: `clean` reads this on the line as written.)
BRACKETED_ET_AL = r"(?i)\s*[(\[（【]\s*(?:et\.?\s*al\.?|(?:and\s+)?others|etc\.?|…|\.{3})\s*[)\]）】][\s.,;:]*$"
LIST_ENDING = (rf"(?i)\s*(?:,\s*)?(?:{_ET_AL}|{_UNSAID_MORE}|etc\.|{_DENG}|…|\.{{3,}}){_ENDING_CLOSE}{_CITED_YEAR}$|"
               + BRACKETED_ET_AL[4:] + "|" + AND_MORE[4:])
# A names line cut by a wrap: it ends in a separator ("Döring and", "ANN LEE AND", "Lee &", "Lee,")
# or inside its ending ("Bo Chen and 2" of "and 2 more": not a name "2" after "and", since a bare
# number is otherwise a name item, affiliation marks; "BO CHEN ET" of "et al."). The list goes on
# on the next line. Capitals matter: "AND" and "ET" pass as name words.
UNFINISHED_ENDING = r"(?i)(?:[,，;；、&]|(?:^|[\s,;，；、])(?:and(?:\s+\d+)?|et))\s*$"


def is_names_text(text: pl.Expr) -> pl.Expr:
    """Whether `text` can only be an author list: names of one to six capitalised words
    (particles, CJK, affiliation marks allowed) between list separators. Stricter than the
    search format's names line: it decides where a hard-wrapped field ends, where a line of
    prose or of a Title Case title must not pass (lower-case words do not)."""
    items = text.str.replace(LIST_ENDING, "").str.replace_all(LIST_SEPARATOR, ",")
    complete = ~text.str.contains(UNFINISHED_ENDING)
    return (items.str.contains(r"^" + NAME_ITEM + r"(?:," + NAME_ITEM + r")*$") & complete).fill_null(False)
