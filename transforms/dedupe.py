"""Dedupe: which listings are one paper (the matcher), and what the paper is (the merge).

The matcher is the replaceable step: it gives each listing a `paper_key`. Today's matcher is
exact, and never rests on the abstract alone (a withdrawn paper's "This paper has been withdrawn
by the author." is shared by thousands of papers): the key is the folded abstract, the folded
title (empty when the format shows none) and the first author's surname; a short abstract
(boilerplate, `BOILERPLATE_WORDS`) or a missing title also keys on every shown author (two
untitled search records sharing a long withdrawn notice, their first authors "Lei Cao" and "Wei
Cao", were one paper with one author list). Listings of one paper whose
keys differ (the other format without a title, a corrected title, initials) are linked by the
resolver (`transforms.resolve`), which scores titles and authors before it merges. The merge rules are order-independent (max/min over
the listings), so merging a batch, then merging batches in the warehouse, gives the same
paper as merging everything at once: re-runs and incremental runs agree with a fresh load.
"""

from __future__ import annotations

from collections.abc import Callable

import polars as pl

from transforms.ids import with_stable_ids
from transforms.text import fold_key

PaperMatcher = Callable[[pl.DataFrame], pl.DataFrame]


# Abstracts shorter than this (in words) are boilerplate or stubs: too little to identify a paper.
BOILERPLATE_WORDS = 25


# At least BOILERPLATE_WORDS words (runs of letters and digits), each after the first preceded by
# a non-word character so that no run counts twice. Anchored, so the match stops at the 25th word
# instead of counting every word of every abstract: 0.05x the time on 200k abstracts
# (`python -m bench.boilerplate`), ~9 s of task time at 1M listings. Same answer as counting
# (tests/test_dedupe.py).
_LONG_ENOUGH = rf"^[^\p{{L}}\p{{N}}]*[\p{{L}}\p{{N}}]+(?:[^\p{{L}}\p{{N}}]+[\p{{L}}\p{{N}}]+){{{BOILERPLATE_WORDS - 1}}}"


def is_boilerplate(abstract: pl.Expr) -> pl.Expr:
    """Too short to tell papers apart by itself ("No abstract available.")."""
    return ~abstract.str.contains(_LONG_ENOUGH)


# Marks the fold drops that name another thing ("LoRA+" / "LoRA", "C++" / "C#", "p<2" / "p>2",
# "(1+λ)" / "(1,λ)": `MARKS`): beside a boilerplate abstract, where only the title and the authors
# tell papers apart, they are part of the key (the key had merged such siblings unseen by the
# resolver). Only titles holding one: every other key is as it was.
MARKS = r"[+#♯<>=≤≥]"


def match_exact_abstract(listings: pl.DataFrame) -> pl.DataFrame:
    """paper_key = hash of (abstract key, folded title, first author's surname[, all author keys
    (and the title's MARKS) when the abstract is boilerplate or the title missing]): see the
    module docstring."""
    short = is_boilerplate(pl.col("abstract")) | pl.col("title").is_null() | (pl.col("title") == "")
    marks = pl.col("title").str.extract_all(MARKS).list.join("").fill_null("")
    keyed = listings.with_columns(
        _title_key=fold_key(pl.col("title")).fill_null("")
        + pl.when(short & (marks != "")).then(" " + marks).otherwise(pl.lit("")),
        _first_author=first_author_token(pl.col("author_keys")),
        # ... and on the declared total of a list cut short ("and 9 more"): two "Editorial"s of one
        # editor and one sentence, "and 2 more" and "and 9 more", are two documents (the key had
        # merged them, unseen by the resolver). Keys of whole lists are as they were.
        _all_authors=pl.when(short)
        .then(pl.col("author_keys").list.join("|")
              + pl.when(pl.col("is_truncated")).then("#" + pl.col("author_total").cast(pl.String)).fill_null(""))
        .otherwise(pl.lit("")),
    )
    keyed = with_stable_ids(keyed, {"paper_key": ["abstract_key", "_title_key", "_first_author", "_all_authors"]})
    return keyed.drop("_title_key", "_first_author", "_all_authors")


# Generational suffixes ending a name key of three words or more ("john smith jr"); in two words
# the last is a surname ("kenji ii").
NAME_SUFFIXES = ["jr", "sr", "ii", "iii", "iv"]


def first_author_token(author_keys: pl.Expr, position: int = 0) -> pl.Expr:
    """The first author's surname: the last word of the key ("remi munos", "r munos" → "munos"),
    before a generational suffix ("john smith jr" → "smith": with "jr", "John Smith Jr." and
    "John Smith" never met, and the same paper was loaded twice). `position`: another author's
    ("" when the list is shorter)."""
    return surname_token(author_keys.list.get(position, null_on_oob=True)).fill_null("")


def surname_token(name_key: pl.Expr) -> pl.Expr:
    """A name key's surname: its last word before a generational suffix (`first_author_token`)."""
    before_suffix = name_key.str.extract(rf"^\S+(?: \S+)* (\S+) (?:{'|'.join(NAME_SUFFIXES)})$")
    return pl.coalesce(before_suffix, name_key.str.extract(r"(\S+)$"))


# Compatibility and typographic spellings of plain characters: full-width forms and the ideographic
# space ("Ｌａｎｄｓｃａｐｅｒ： …", from Chinese sites), ligatures ("Veriﬁable", from PDFs), math
# alphanumerics, typographic hyphens, dashes, apostrophes and quotes. A text is plain when it has
# none. (Zero-width characters and odd spaces are gone already: transforms.text.) One map for the
# Polars merge and the SQL macros (`plain_sql_macros`), so both choose the same text.
def _plain_map() -> dict[str, str]:
    import unicodedata

    spans = [range(0xFF01, 0xFF5F), range(0x3000, 0x3001), range(0xFB00, 0xFB07), range(0x1D400, 0x1D800)]
    plain = {chr(c): unicodedata.normalize("NFKC", chr(c)) for span in spans for c in span}
    plain.update(dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63", "-"))
    plain.update(dict.fromkeys("\u2018\u2019\u02bc", "'") | dict.fromkeys("\u201c\u201d", '"'))
    return {k: v for k, v in plain.items() if v != k}


PLAIN_MAP = _plain_map()


def _char_class(chars: list[str]) -> str:
    """A regex class of the characters as ranges (a class of 1,112 single characters made DuckDB's
    test 20x slower)."""
    spans: list[list[int]] = []
    for code in sorted(map(ord, chars)):
        if spans and code == spans[-1][1] + 1:
            spans[-1][1] = code
        else:
            spans.append([code, code])
    return "[" + "".join(rf"\x{{{lo:X}}}" + (rf"-\x{{{hi:X}}}" if hi > lo else "") for lo, hi in spans) + "]"


NOT_PLAIN = _char_class(list(PLAIN_MAP))


def is_plain(expr: pl.Expr) -> pl.Expr:
    """Whether the text holds no compatibility or typographic character (`PLAIN_MAP`)."""
    return ~expr.str.contains(NOT_PLAIN)


def plain_sql_macros() -> list[str]:
    """The same in DuckDB: `is_plain(t)` and `plain_form(t)` (NULL stays NULL)."""
    single = {k: v for k, v in PLAIN_MAP.items() if len(v) == 1}
    written = "translate(t, '" + "".join(single) + "', '" + "".join(single.values()).replace("'", "''") + "')"
    for k, v in PLAIN_MAP.items():
        if len(v) > 1:
            written = f"replace({written}, '{k}', '{v}')"
    return [f"CREATE OR REPLACE TEMP MACRO is_plain(t) AS NOT regexp_matches(t, '{NOT_PLAIN}')",
            f"CREATE OR REPLACE TEMP MACRO plain_form(t) AS CASE WHEN is_plain(t) THEN t ELSE {written} END"]


def longest(col: str, plain_first: bool = False) -> pl.Expr:
    """The longest non-null value, ties broken by the larger text: deterministic, associative.
    `plain_first`: a plain text (`is_plain`) first among the longest, so a full-width or
    typographic copy of a key's title ("Ｖｅｒｉｆｉａｂｌｅ") never replaces it (a ligature's copy,
    "Veriﬁable", is shorter). Not for abstracts: the test over every abstract was 5x the merge's
    time, and a title is what is searched and shown."""
    value = pl.col(col).filter(pl.col(col).is_not_null())
    return value.sort_by([value.str.len_chars(), *([is_plain(value)] if plain_first else []), value]).last()


def merge_papers(listings: pl.DataFrame) -> pl.DataFrame:
    """One candidate row per paper_key with what its listings know."""
    joined = pl.col("authors").list.join(", ")
    order = [pl.col("n_authors_shown"), is_plain(joined), joined]
    fullest = pl.col("authors").sort_by(order).last()
    return listings.group_by("paper_key").agg(
        title=longest("title", plain_first=True),
        abstract=longest("abstract"),
        authors=fullest,
        author_keys=pl.col("author_keys").sort_by(order).last(),
        author_total=pl.col("author_total").max(),
        has_complete_listing=(~pl.col("is_truncated")).any(),
    )


# Hyphens, dashes and apostrophes a typesetter puts where a name is written with "-" or "'".
TYPOGRAPHIC_MARKS = r"[\x{2010}-\x{2015}\x{2212}\x{FE58}\x{FE63}\x{FF0D}\x{2018}\x{2019}\x{02BC}]"


def author_variants(listings: pl.DataFrame) -> pl.DataFrame:
    """Distinct (name_key, name) spellings, with a rank for choosing the display form:
    mixed case beats lower case beats CAPITALS, then a plain spelling beats a typographic one
    (full-width letters "Ｍｉｃｈａｅｌ", a typographic hyphen, dash or apostrophe "Rizvi–Martel",
    "O’Brien": counted as accents, they won over "Michael", "Rizvi-Martel"), then more accented
    letters ("Döring" over "Doring"), then the larger text. (The warehouse's choice puts more
    capitals after case and plainness: schemas/merge/30_authors.sql.)"""
    names = listings.select(name=pl.col("authors"), name_key=pl.col("author_keys")).explode("name", "name_key")
    names = names.filter(pl.col("name_key") != "").unique()
    case = (
        pl.when(pl.col("name") == pl.col("name").str.to_uppercase())
        .then(0)
        .when(pl.col("name") == pl.col("name").str.to_lowercase())
        .then(1)
        .otherwise(2)
    )
    compatible = pl.col("name").str.normalize("NFKC")
    plain = (compatible == pl.col("name")) & ~pl.col("name").str.contains(TYPOGRAPHIC_MARKS)
    accents = compatible.str.count_matches(r"[\p{L}&&[^\x00-\x7F]]")
    rank = case * 1000 + plain.cast(pl.Int64) * 500 + accents.clip(0, 499)
    return names.with_columns(display_rank=rank.cast(pl.Int64)).sort("name_key", "name")
