"""Search-page format: a "论文检索" first line, then blank-line separated paragraphs:

    [<Area · Subarea> | <Area>]     optional category
    <authors>                       up to 10 names, then " 等" when there are more
    <abstract>

Every paragraph, not only every record, is separated by a blank line, so records are found
by what their paragraphs look like: an abstract is prose and closes a record; an area line
(short capitalised names joined by " · ", `area_shaped`) is a category and opens one. Between
them sit the authors line and, when there are two short lines, a one-level area before it
("Social Aspects" then "Steve Hanneke").
"""

from __future__ import annotations

from functools import cache

import polars as pl

from transforms.formats.common import (
    LIST_SEPARATOR,
    ONE_LINE_ABSTRACT,
    PARTICLES,
    as_quarantine,
    join_after_hyphen,
    name_words_blanked,
    names_text,
    on_rows,
    split_valid,
    without_field_label,
    without_marks,
)
from transforms.formats.listing import PROSE_WORD_SET, is_metadata, may_be_names
from transforms.persons import reference_name_parts as known
from transforms.text import PAD, clean_text, fold_key, on_rows_where

NAME = "search"
MARKER = "论文检索"
AREA_SEPARATOR = " · "
# The separators other pages put between area and sub-area, read as " · ": another middle dot
# (Japanese "・", "•", "∙", "⋅", half-width "･"), with or without spaces, or the arrow of
# OpenReview's topics ("Deep Learning->Large Language Models"). Such a line was one area of that
# whole name ("Deep Learning ・ Attention Mechanisms", no parent) or, with "->", quarantined.
# And a breadcrumb's ">", "»", "›" ("Optimization » Stochastic" was one area; with ">" the line
# was quarantined and its record loaded without a category). A dash between spaces too ("Deep
# Learning - Graph Neural Networks" was one area, no parent); not one inside a name ("Human-AI").
# Not "/": area names hold one.
AREA_SEPARATORS = r"\s*(?:[·・•‧∙⋅･>»›]|->|→)\s*|\s+[-–—]\s+"
# The same, found without the spaces (a cheaper look). ">" apart from the class: inside it, the
# regex engine lost its fast scan for the class's characters (bench/batch_stages.py: parse +15 %).
_ANY_AREA_SEPARATOR = r"[·・•‧∙⋅･→»›–—]|>| - "
# A names line: comma-separated items of at most 10 words, free of sentence punctuation.
_WORD = r"[^\s,$=:;?!\[\]{}<>/\\|@#%^&*+~]+"
_ITEM = _WORD + r"(?: " + _WORD + r"){0,9}"  # names of up to 10 words
# Longer than a names line of ten names and "等" (the format shows at most ten) with their marks.
NAMES_LINE_CHARS = 1_000
NAMES_LINE = r"^" + _ITEM + r"(?:, ?" + _ITEM + r")*(?: ?等)?$"
# What names lines (and area names like "Miscellaneous Aspects of Machine Learning") never
# hold but short-clause prose does: a pronoun or verb only sentences use, or a sentence opening.
# (Not a period: "Mathew Magimai. -Doss" is a real author.)
PROSE_HINT = (
    r"(?:^|\s)(?:we|this|these|our|is|are|was|were|that|which|can)(?:\s|,|$)"
    # an e-mail's sign-off ("Best regards, The Paper Search Team" and its footer loaded as a
    # paper); spaces, not "\b": a Unicode word boundary made the regex engine slow on every line
    r"|(?:^|\s)(?i:regards|sincerely|yours truly|(?:best|warm|kind) wishes|cheers|thanks|thank you)(?:\s|,|!|$)"
    r"|^(?:This|These|We|Our|In this|Here)\s"
)
HINT_WORD_SET = PROSE_WORD_SET | {"been"}  # the words of prose an item is counted for (`name_words_blanked`): PROSE_HINT_LONG's too
# Chinese, Japanese or Korean prose has no spaces, so it passed as one name: a sentence's stop,
# or a run of more characters than a name has (欧阳娜娜, 長谷川由美子: four to six).
CJK_PROSE = r"[。！？]|[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]{8}"
# Words a long area name might hold but a names line never does: prose only past 6 words.
PROSE_HINT_LONG = r"(?:^|\s)(?:the|has|have|been|and the|of the)(?:\s|,|$)"
# An area line ("Deep Learning · Large Language Models"): two or three short names joined by
# " · ". Any paragraph holding " · " was taken for one, so prose with a product ("x · y") became
# the next record's category. The real areas (the seeds; ICLR's, up to 89 characters, names of
# up to 6 words with commas, "and", "/", "etc") fit well inside these bounds.
AREA_MAX_CHARS = 120
# Several areas on one line ("Deep Learning · LLMs, Applications · Computer Vision") were one area
# named "Computer Vision" under "Deep Learning": cut at a comma, semicolon or " | " when every piece
# holds a level of its own. A comma inside one area's name ("Applications · Computer Vision,
# Audio, and Language") leaves pieces without one: one area.
_AREA_LIST = r"\s*[,;]\s*|\s+\|\s+"
_AREA_NAME_WORDS = 8
_NOT_AREA = (
    r"[;:!?=$…]|\.(?:\s|$)"  # sentence punctuation (a period ends a sentence, "etc." aside)
    r"|<"  # a tag's bracket: "Hantao Yu<sup>1</sup>" (its ">" reads as a separator)
    r"|(?:^| · )[^\p{Lu}\p{Lt}\p{N}]"  # a name opening in lower case: prose cut at the dot
    r"|(?:^|\s)[^\s·]+(?: [^\s·]+){" + str(_AREA_NAME_WORDS) + r"}"  # a name of too many words
)
# The end of an abstract's last sentence (before an area line glued to it), CJK stops too ("。").
_SENTENCE_END = r"[.!?:。．！？][\"'”’)\]」』]?$"
# The end of a names line whose list goes on ("Junbin Qiu, Zhaowei Hong,").
_LIST_END = r"(?:[,，;；、&]|\s(?i:and))"
_LIST_GOES_ON = _LIST_END + "$"
# An area line's end no area name has, so the area goes on below (a hard-wrapped page): its
# separator (written " · " by then), a list's comma or "and". (Not a lower-case word: "Kernel
# methods", "Time series" and "Cell Biology, etc" are real areas.)
_AREA_GOES_ON = rf"(?:·|{_LIST_END})\s*$"
# ... or the start of a line no area name, nor name, opens with: a separator, "and", "of"...
# (Not any lower-case word: "danah boyd" is a name.)
_AREA_WENT_ON = rf"^(?:{_ANY_AREA_SEPARATOR}|->|(?:and|or|of|for|in|on|with|under|&)\s)"




def find(text: str) -> int | None:
    """Offset of the first line that is the marker (padding aside), wherever it is: after an
    e-mail header or a "Subject:" line too. `str.find` (C speed) for the candidates."""
    at = text.find(MARKER)
    while at >= 0:
        start = text.rfind("\n", 0, at) + 1
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        if not text[start:at].strip(PAD) and not text[at + len(MARKER):end].strip(PAD):
            return start
        at = text.find(MARKER, at + 1)
    return None


def parse(lines: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """`lines` (file_idx, line_no, line) → (records, quarantine).

    The first marker line opens the page: non-blank lines before it (an e-mail header, a
    "Subject:" line) are one preamble quarantine span. A marker line further down (two pages
    run together) is a known header line, not a paragraph, and opens a page: no record runs
    across it (the first page's last area line, cut off, was the next page's first record's).
    """
    df = lines.with_columns(text=clean_text(pl.col("line"))).with_columns(blank=pl.col("text") == "")  # = is_blank
    is_marker = pl.col("text") == MARKER
    first_marker = pl.when(is_marker).then(pl.col("line_no")).min().over("file_idx").fill_null(0)
    df = df.with_columns(before=pl.col("line_no") < first_marker, page=is_marker.cum_sum().over("file_idx"))
    content = df.filter(~pl.col("blank") & ~is_marker & ~pl.col("before"))
    records = _group_records(_metadata_under_names(_paragraphs(content)))
    records = records.with_columns(abstract=without_field_label(records["abstract"], "abstract"))
    records, bad = split_valid(records, _reason())
    return records, pl.concat([_preamble(df.filter(pl.col("before"))), bad])


METADATA_REASON = ("a line between a record's names and its abstract that is neither (Keywords:, Comments:, Accepted at"
                   " ..., a link; \"Poster\", \"ICML 2025\", \"[PDF]\")")
_SHORT_ABSTRACT_WORDS = 20  # a line under the names this short, over three times as much prose: no abstract


def _metadata_under_names(paras: pl.DataFrame) -> pl.DataFrame:
    """A paragraph between a names line and the abstract under it that is neither is kind M: its
    record, the prose under it too, is quarantined whole (the warehouse has no field for it, and
    a loaded record's span would hold it). Such a paragraph is prose that is a metadata line
    ("Keywords: diffusion models, robustness", "Accepted at ICLR 2024"; never a names line,
    `_kinds`) or a line of at most 20 words over three times as much prose ("[PDF]", "Primary
    Area: robotics"), which was loaded as the abstract, the real one quarantined "without an
    authors line" (hunts 50, 51); or, under an area and names, one item the name reference does
    not know as a person ("Poster", "ICML 2025", "Cited by 12"), which was loaded as the one
    author of a record without an area, the real names quarantined "without an abstract" (hunt
    51; several names there, or a known person, are the next record's, after one cut off)."""
    def same_page(n: int) -> pl.Expr:  # the paragraph n above on this one's page
        return (pl.col("file_idx").shift(n) == pl.col("file_idx")) & (pl.col("page").shift(n) == pl.col("page"))

    under_names = ((pl.col("kind").shift(1) == "N") & same_page(1) & (pl.col("kind").shift(-1) == "P")
                   & (pl.col("file_idx").shift(-1) == pl.col("file_idx")))
    candidates = paras.select(under_names.fill_null(False)).to_series()
    if not candidates.any():  # (most pages: the checks below read every paragraph's text)
        return paras
    chars = pl.col("text").str.len_chars()
    short_over_prose = ((pl.col("text").str.count_matches(" ", literal=True) < _SHORT_ABSTRACT_WORDS)
                        & (chars.shift(-1) >= 3 * chars))
    prose = (pl.col("kind") == "P") & (is_metadata(pl.col("text"), any_label=False) | short_over_prose)
    one_item = ((pl.col("kind") == "N") & pl.col("single_item").fill_null(False) & ~pl.col("person").fill_null(False)
                & (pl.col("kind").shift(2) == "C") & same_page(2))
    rows = candidates & paras.select((prose | one_item).fill_null(False)).to_series()
    return paras.with_columns(kind=pl.when(rows).then(pl.lit("M")).otherwise("kind"))


def _preamble(before: pl.DataFrame) -> pl.DataFrame:
    """One span per file: from the first to the last non-blank line before the marker."""
    text_lines = pl.when(~pl.col("blank")).then(pl.col("line_no"))
    spans = before.with_columns(lo=text_lines.min().over("file_idx"), hi=text_lines.max().over("file_idx")).filter(
        pl.col("line_no").is_between(pl.col("lo"), pl.col("hi")))
    return as_quarantine(spans.group_by("file_idx", maintain_order=True).agg(
        line_start=pl.col("line_no").min(),
        line_end=pl.col("line_no").max(),
        reason=pl.lit("text before the first record header (before the search marker line)"),
        raw_text=pl.col("line").str.join("\n"),
    ))


def _one_area(t: pl.Expr) -> pl.Expr:
    return (t.str.count_matches(AREA_SEPARATOR, literal=True).is_between(1, 2)
            & (t.str.len_chars() <= AREA_MAX_CHARS)
            & ~t.str.replace_all(r"\betc\.", "etc").str.contains(_NOT_AREA)
            & ~t.str.contains(PROSE_HINT))


def _pieces(text: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """A canonical area line cut at its list separators, and whether every piece has a level."""
    pieces = text.str.replace_all(_AREA_LIST, "\x1f").str.split("\x1f")
    several = (pieces.list.len() > 1) & pieces.list.eval(pl.element().str.contains(AREA_SEPARATOR, literal=True)).list.all()
    return pieces, several


def area_list(text: pl.Expr) -> pl.Expr:
    """The areas of a canonical area line: its pieces when several areas stand on it, else itself.
    (Cut only where a list separator stands after a level: on the other lines the pieces are nulls.)"""
    pieces, several = _pieces(pl.when(text.str.contains(rf"{AREA_SEPARATOR}.*(?:{_AREA_LIST})")).then(text))
    return pl.coalesce(pl.when(several).then(pieces), pl.concat_list(text))


def area_shaped(texts: pl.Series) -> pl.Series:
    """Whether each text (a line or a paragraph) is an area line: one or two " · " (or another of
    AREA_SEPARATORS) between capitalised names of at most 8 words, no sentence punctuation, no
    pronoun or verb only prose uses, at most 120 characters; or several such areas in a list. The
    patterns run only on the texts holding a separator (few)."""
    t = pl.col("t")
    pieces, several = _pieces(t)
    check = _one_area(t) | (several & pieces.list.eval(_one_area(pl.element())).list.all())
    # (short texts only: a dash between spaces is common in abstracts, and none is an area line)
    rows = (texts.str.len_bytes() <= 4 * AREA_MAX_CHARS).fill_null(False).arg_true()
    rows = rows.filter(texts.gather(rows).str.contains(_ANY_AREA_SEPARATOR).fill_null(False))
    out = pl.repeat(False, texts.len(), dtype=pl.Boolean, eager=True).rename(texts.name)
    if not rows.len():
        return out
    # the separators written " · " once, before the four patterns (inside them, it ran four times)
    candidates = texts.gather(rows).to_frame("t").select(canonical_area(t))
    return out.scatter(rows, candidates.select(check).to_series().fill_null(False))


def canonical_area(text: pl.Expr) -> pl.Expr:
    """An area line with its separators written " · "."""
    return text.str.replace_all(AREA_SEPARATORS, AREA_SEPARATOR)


def _paragraphs(content: pl.DataFrame) -> pl.DataFrame:
    area = area_shaped(content["text"])
    return _wrapped_areas(_kinds(_joined(content.with_columns(
        area_line=area, glued_area=_glued_area_lines(content["text"], area),
        glued_names=_glued_record_openers(content, area), names_go_on=_names_going_on(content)))))


def _joined(content: pl.DataFrame) -> pl.DataFrame:
    """Lines into paragraphs: a blank line, or a glued area line, opens one; so does the line
    after an area line that opened one (the names below it, their blank line missing: joined,
    "Deep Learning · Robustness" and "Runqi Lin, Chaojian Yu" loaded "Robustness Runqi Lin" as
    an author)."""
    gap = pl.col("line_no") - pl.col("line_no").shift(1).over("file_idx")
    opened = ((gap != 1) & ~pl.col("names_go_on")).fill_null(True) | pl.col("glued_area") | pl.col("glued_names")
    after_area = (pl.col("area_line") & opened).shift(1).over("file_idx").fill_null(False)
    opens = opened | after_area
    content = content.with_columns(para=opens.fill_null(True).cum_sum().over("file_idx"))
    # A hard-wrapped paragraph (e-mail, 72 columns) is one field: its lines join with a space,
    # or with none after a hyphen the wrapper broke at ("Rizvi-" / "Martel").
    hyphen = join_after_hyphen(pl.col("text").shift(1).over("file_idx"), pl.col("text")) & (gap == 1)
    content = content.with_columns(piece=pl.when(hyphen).then(pl.col("text")).otherwise(" " + pl.col("text")))
    return content.group_by("file_idx", "para", maintain_order=True).agg(
        page=pl.col("page").first(),
        line_start=pl.col("line_no").first(),
        line_end=pl.col("line_no").last(),
        text=pl.col("piece").str.join("").str.strip_chars_start(" "),
        raw_text=pl.col("line").str.join("\n"),
    )


# Ten Latin names joined by "，" or "、" (Chinese sites) were one item of more than ten words: read
# as prose, quarantined as "abstract without an authors line". `_list_items` splits there too.
_AMPERSAND = r"\s+&\s+"
_CHINESE_COMMA = r"[，、]\s*"
# A list of names ending in "等" (et al.), its items between any comma.
_ETAL_LIST = r"[,，、].* ?等$"
_CJK = r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]"


def _etal_list(text: pl.Expr) -> pl.Expr:
    """A list ending in "等": between any commas in Latin letters; in texts of Chinese, Japanese or
    Korean only between ASCII commas, as before (a short Chinese abstract "关键词：图神经网络，注意力，
    优化等" was read as names and quarantined)."""
    return text.str.contains(_ETAL_LIST) & (~text.str.contains(_CJK) | text.str.contains(r",.* ?等$"))


def _as_commas(texts: pl.Series) -> pl.Series:
    """The texts, " & ", "，" and "、" written ", " (the Chinese commas only in the texts holding
    one: a pass over every abstract made the parse a tenth slower)."""
    chinese = on_rows_where(texts, texts.str.contains("[，、]"), lambda t: t.str.replace_all(_CHINESE_COMMA, ", "))
    return chinese.str.replace_all(_AMPERSAND, ", ")


def _kinds(paras: pl.DataFrame) -> pl.DataFrame:
    """Each paragraph's kind: C (an area line), N (a names line), P (prose)."""
    # Names joined by " & " ("Ann Lee & Bo Chen", as the listing format's lists may be), "，" or
    # "、" read as commas here (`_as_commas`): such a line was taken for an abstract and its record
    # quarantined. Names
    # between ";" ("Ann Lee; Bo Chen") only as a list of short names without a word of prose
    # (`may_be_names`): a short abstract ("No abstract given; compares ...") passed as names
    # when ";" read as ",".
    # Affiliation marks ("Hantao Yu$^{1,2}$, Josh Alman<sup>3</sup>", "Hantao Yu ✉") are read past,
    # as the names are read: such a names line was taken for an abstract.
    as_commas = pl.col("as_commas")
    # (only paragraphs a names line's length: on every abstract holding "$" or "*" the patterns
    # made a search page's parse a sixth slower, bench/batch_stages.py)
    short = paras["text"].str.len_chars() < NAMES_LINE_CHARS
    paras = paras.with_columns(semicolons=_semicolon_names(paras), area=area_shaped(paras["text"]) | _arxiv_codes(paras),
                               unmarked=on_rows_where(paras["text"], short, without_marks))
    # (the pattern only on the short texts that end in "等": its class of commas, on every abstract,
    # made a search page's parse a tenth slower)
    etal_rows = (short & paras["text"].str.ends_with("等")).fill_null(False).arg_true()
    # (the names test reads TeX accents and leaves affiliations out, as a listing's names line;
    # the items are counted as written: a topic's "(physics, chemistry, etc.)" makes a list)
    names = on_rows_where(paras["unmarked"], short, names_text)
    paras = paras.with_columns(as_commas=_as_commas(paras["unmarked"]), unmarked=names)
    paras = paras.with_columns(names_shape=_as_commas(names).str.contains(NAMES_LINE) | pl.col("semicolons"),
                               etal_list=on_rows(paras, etal_rows, _etal_list(pl.col("text"))))
    kind = (
        pl.when(pl.col("area"))
        .then(pl.lit("C"))
        .when(pl.col("names_shape") & ~pl.col("prose_hint") & ~pl.col("text").str.contains(ONE_LINE_ABSTRACT)
              & ~is_metadata(pl.col("text"), any_label=False))  # "Accepted at ICLR 2024" was one author
        .then(pl.lit("N"))
        .when(pl.col("etal_list"))
        .then(pl.lit("N"))  # ten names and "等" (et al.): a names line, whatever the names look like
        .otherwise(pl.lit("P"))
    )
    single = ~as_commas.str.contains("[,;；]") & ~pl.col("text").str.ends_with("等")
    paras = paras.with_columns(prose_hint=_prose_hint_of_names_shaped(paras)).with_columns(kind=kind, single_item=single)
    paras = paras.with_columns(person=_one_person(paras), area_of_items=_area_of_items(paras))
    # Capitalised terms between ";" right after a names line of several are the abstract (a
    # keywords-only one: "Graph Neural Networks; Transformers"), not a second names line.
    after_names = (pl.col("kind").shift(1).over("file_idx") == "N") & ~pl.col("single_item").shift(1).over("file_idx")
    keywords = pl.col("semicolons") & (pl.col("kind") == "N") & after_names.fill_null(False)
    paras = paras.with_columns(kind=pl.when(keywords).then(pl.lit("P")).otherwise("kind"), text=_canonical_areas(paras))
    paras = paras.with_columns(kind=pl.when(_a_parent_area(paras)).then(pl.lit("C")).otherwise("kind"))
    # (a names line's shape read as prose: `_group_records` keeps it with the abstract under it)
    paras = paras.with_columns(named_prose=(pl.col("names_shape") & pl.col("prose_hint") & (pl.col("kind") == "P")).fill_null(False))
    return paras.drop("names_shape", "prose_hint", "area", "unmarked", "etal_list", "as_commas")  # (semicolons: `_wrapped_areas`)


def _arxiv_codes(paras: pl.DataFrame) -> pl.Series:
    """Paragraphs that are an arXiv code in any case ("hep-ph", "CS.LG", "math.IT", "cs.XY"): a
    record's area, as a listing's category line. Read by their look as names, "CS.LG" was
    quarantined as a one-author line, and "hep-ph" passed as a one-level area by its lower case."""
    from transforms.categories import taxonomy_code  # (categories imports this module)

    text = paras["text"]
    rows = ((text.str.len_bytes() <= 40) & ~text.str.contains(" ", literal=True)).fill_null(False).arg_true()  # (few)
    return on_rows(paras, rows, taxonomy_code(pl.col("text")))


def _wrapped_areas(paras: pl.DataFrame) -> pl.DataFrame:
    """Area lines hard-wrapped in two ("Social Aspects · Privacy-preserving Statistics and" /
    "Machine Learning"): the line glued under an area line (`_joined` opens a paragraph there,
    for names glued under an area) is the area's rest when the area line cannot end there
    (`_AREA_GOES_ON`, `_AREA_WENT_ON`), or when names follow the rest and a wrapper broke the line
    there: the area line and the rest's first word are longer than the file's wrapped lines
    (`_wrap_widths`). Names under names are otherwise a record cut off before its abstract; on a
    page no wrapper broke, such lines stay as they are. The rest was read as names or a one-level
    area: the record was quarantined, or loaded with "Machine Learning" as its author, or with
    "Optimization" (the rest of "Discrete and Combinatorial Optimization") as its area."""
    def below(column: str, n: int = 1) -> pl.Expr:  # (the paragraphs are in file order: no window needed)
        return pl.when(pl.col("file_idx").shift(-n) == pl.col("file_idx")).then(pl.col(column).shift(-n))
    glued = (below("line_start") == pl.col("line_end") + 1) & (below("page") == pl.col("page"))
    cut = pl.col("text").str.contains(_AREA_GOES_ON) | below("text").str.contains(_AREA_WENT_ON)
    one_level = (below("kind") == "C") & ~below("text").str.contains(AREA_SEPARATOR, literal=True)
    rest = (below("kind") == "N") | one_level | ((below("kind") == "P") & cut)  # ("Batch/Offline" reads as prose)
    # (names between ";" after a list of several read as keywords, an abstract: names here)
    names_next = ((below("kind", 2) == "N") | below("semicolons", 2)) & ~below("person").fill_null(False)
    look = paras.select(look=((pl.col("kind") == "C") & glued & rest & (cut | names_next)).fill_null(False),
                        cut=cut.fill_null(False))
    rows = look["look"].arg_true()
    if not rows.len():  # (on a page of one-line areas, none)
        return paras.drop("semicolons")
    area, rest = paras[rows], paras[rows + 1]
    wanted = pl.DataFrame({"file_idx": area["file_idx"], "area": area["raw_text"], "rest": rest["raw_text"]}).select(
        "file_idx", wanted=pl.col("area").str.strip_chars().str.len_chars() + 1
        + pl.col("rest").str.extract(r"^\s*(\S+)").str.len_chars())
    wrapped = wanted.join(_wrap_widths(paras, area["file_idx"]), on="file_idx", how="left", maintain_order="left").select(
        (pl.col("wanted") > pl.col("width")).fill_null(False)).to_series()
    joined = pl.DataFrame({"area": area["text"], "rest": rest["text"]}).select(
        canonical_area(pl.concat_str("area", "rest", separator=" ")).str.replace_all(r"\s+", " ").str.strip_chars()
    ).to_series()
    kept = ((look["cut"].gather(rows) | wrapped) & area_shaped(joined)
            & ~rows.is_in((rows + 1).implode()))  # (a rest is no area line of its own)
    rows, joined, rest = rows.filter(kept), joined.filter(kept), rest.filter(kept)
    raw = area.filter(kept)["raw_text"] + "\n" + rest["raw_text"]
    after = (rows + 2).filter(rows + 2 < paras.height)  # (the paragraph under each rest, in its file)
    same_file = paras["file_idx"].gather(after) == paras["file_idx"].gather(after - 2)
    names = after.filter(paras["semicolons"].gather(after) & same_file)
    paras = paras.with_columns(text=paras["text"].scatter(rows, joined), raw_text=paras["raw_text"].scatter(rows, raw),
                               line_end=paras["line_end"].scatter(rows, rest["line_end"]),
                               kind=paras["kind"].scatter(names, "N"))
    return paras.drop("semicolons").filter(~pl.int_range(pl.len()).is_in((rows + 1).implode()))


def _wrap_widths(paras: pl.DataFrame, files: pl.Series) -> pl.DataFrame:
    """(file_idx, width) of the files: the longest line a wrapper went on after (a line of several
    words, not the last of its paragraph: a URL longer than the width stands alone). A file with
    no such line was not wrapped, and has none."""
    multi = paras.filter(pl.col("file_idx").is_in(files.implode()) & pl.col("raw_text").str.contains("\n", literal=True))
    lines = multi.select("file_idx", line=pl.col("raw_text").str.split("\n")).with_columns(
        pl.col("line").list.head(pl.col("line").list.len() - 1)).explode("line")
    line = pl.col("line").str.strip_chars()
    return lines.filter(line.str.contains(" ", literal=True)).group_by("file_idx").agg(width=line.str.len_chars().max())


def _a_parent_area(paras: pl.DataFrame) -> pl.Series:
    """One-name lines that are the parent of an area line of the same file ("Social Aspects" beside
    "Social Aspects · Trustworthy Machine Learning"): a one-level area, whatever follows it. Before
    an abstract with no names line between, "Social Aspects" was loaded as the paper's author."""
    one_name = (pl.col("kind") == "N") & pl.col("single_item") & ~pl.col("person").fill_null(False)
    rows = paras.select(one_name).to_series().arg_true()  # (few: the abstracts are not looked up)
    parent = _a_parent_of_the_file(paras[rows], paras.filter(pl.col("kind") == "C"))
    return pl.repeat(False, paras.height, dtype=pl.Boolean, eager=True).scatter(rows, parent)


def _canonical_areas(paras: pl.DataFrame) -> pl.Series:
    """The texts, area lines' separators written " · ": the patterns run on the area lines only,
    and the texts are copied only when one was written otherwise (a pass over every abstract
    made parsing a search page a quarter slower)."""
    areas = paras["area"].arg_true()
    texts = paras["text"].gather(areas)
    canonical = texts.to_frame("text").select(canonical_area(pl.col("text"))).to_series()
    changed = (canonical != texts).arg_true()
    if not changed.len():
        return paras["text"]
    return paras["text"].scatter(areas.gather(changed), canonical.gather(changed))


def _semicolon_names(paras: pl.DataFrame) -> pl.Series:
    """Paragraphs that are names between ";" or "；": shaped like a names line once they read as
    commas, and a list of short names without a word of prose (`may_be_names`). The patterns run
    on the few paragraphs the shape lets through, not on every abstract holding a ";"."""
    as_commas = pl.col("text").str.replace_all(r"\s*[;；]\s*", ", ")
    rows = paras["text"].str.contains("[;；]").fill_null(False).arg_true()
    shaped = on_rows(paras, rows, as_commas.str.contains(NAMES_LINE)).arg_true()
    return on_rows(paras, shaped, may_be_names(as_commas, lists_only=True))


def _glued_area_lines(texts: pl.Series, area: pl.Series) -> pl.Series:
    """Area lines right after a line that ends a sentence: they open a paragraph even with their
    blank line missing. They are the next record's area, not the end of the abstract (a
    hard-wrapped abstract does not put a line of " · "-joined capitalised names after a
    sentence); glued, the abstract loaded whole as a category. The first line of a file has no
    line before it here, and opens a paragraph anyway."""
    rows = area.arg_true()
    glued = pl.repeat(False, texts.len(), dtype=pl.Boolean, eager=True)
    if rows.len():
        before = texts.shift(1).gather(rows).str.contains(_SENTENCE_END).fill_null(False)
        glued = glued.scatter(rows, before)
    return glued


def _glued_record_openers(content: pl.DataFrame, area: pl.Series) -> pl.Series:
    """Lines glued under an abstract's last line, their blank line missing, that open the next
    record: names of people (before prose, its abstract), or a one-level area this page also
    shows as a parent ("Social Aspects", before names). Glued, they were read into the abstract
    above (silently) and their record was quarantined or lost its area. Only a line that closes
    its block, after a line that ends a sentence and is no names line itself (a names list
    hard-wrapped after "Jr." stays one). An abstract's own last line stays: "MNIST, CIFAR-10,
    ImageNet" names no people, "National Science Foundation" is no area of the page."""
    line_no, text = pl.col("line_no"), pl.col("text")
    glued = (line_no - line_no.shift(1).over("file_idx")) == 1
    closes = ((line_no.shift(-1).over("file_idx") - line_no) != 1).fill_null(True)
    after_sentence = text.shift(1).over("file_idx").str.contains(_SENTENCE_END)
    short = text.str.len_chars() < NAMES_LINE_CHARS
    look = content.select((glued & closes & after_sentence & short).fill_null(False)).to_series()
    rows = look.arg_true()  # few: in a page of one-line paragraphs, none
    if not rows.len():
        return look
    # (the lines around, within the line's own file: another file of the batch is no neighbour)
    around = content.with_columns(area_line=area).select(
        "file_idx", "text", before=text.shift(1).over("file_idx"), after=text.shift(-1).over("file_idx"),
        after_area=pl.col("area_line").shift(-1).over("file_idx").fill_null(False))[rows]
    line = around["text"]
    before_names = _names_shaped(around["after"].fill_null(""))
    before_prose = around["after"].is_not_null() & ~around["after_area"] & ~before_names
    names = _names_shaped(line) & _people(line) & before_prose
    one_level = _a_parent_of_the_file(around, content.filter(area)) & before_names
    return look.scatter(rows, (names | one_level) & ~_names_shaped(around["before"].fill_null("")))


def _names_going_on(content: pl.DataFrame) -> pl.Series:
    """Lines after a blank line that go on with a names list: the line before is a paragraph of
    its own that ends with a list separator ("Junbin Qiu, Zhaowei Hong,") and both are names of
    people. Read apart, the first names were taken for an abstract (quarantined with the record's
    area) and the paper loaded without them or its area. (An abstract's last line "ImageNet,
    CIFAR-10," is no paragraph of its own, and names no people.)"""
    line_no, text = pl.col("line_no"), pl.col("text")
    gap = line_no - line_no.shift(1).over("file_idx")
    before_opens = (gap.shift(1).over("file_idx") != 1).fill_null(True)
    look = content.select(((gap > 1) & before_opens & text.shift(1).over("file_idx").str.contains(_LIST_GOES_ON)
                           & (text.str.len_chars() < NAMES_LINE_CHARS)).fill_null(False)).to_series()
    rows = look.arg_true()
    if not rows.len():
        return look
    first_part = content["text"].shift(1).gather(rows).str.replace(_LIST_GOES_ON, "")
    rest = content["text"].gather(rows)
    return look.scatter(rows, _names_shaped(rest) & _names_shaped(first_part) & _people(first_part))


def _names_shaped(texts: pl.Series) -> pl.Series:
    """Lines a names paragraph could be, as `_kinds` reads one: names between commas (" & " as
    one) or semicolons, marks aside, no prose, not a one-line abstract; or names and "等"."""
    paras = pl.DataFrame({"text": texts})
    unmarked = names_text(without_marks(texts))
    frame = paras.with_columns(unmarked=unmarked, as_commas=_as_commas(unmarked), semicolons=_semicolon_names(paras))
    as_commas = pl.col("as_commas")
    shaped = ((as_commas.str.contains(NAMES_LINE) | pl.col("semicolons")) & ~_prose_hint(pl.col("unmarked"))
              & ~pl.col("text").str.contains(ONE_LINE_ABSTRACT)) | _etal_list(pl.col("text"))
    return frame.select(shaped.fill_null(False)).to_series()


# Words of organisations and funders, never of a person's name ("National Science Foundation").
_ORGANISATION = (r"(?i)\b(?:foundation|university|institute|research|science|sciences|laborator(?:y|ies)|lab|labs"
                 r"|cent(?:er|re)|council|company|inc|ltd|corporation|national|department|agency|program(?:me)?"
                 r"|academy|society|ministry|fund|grant|google|microsoft|meta|openai)\b")
# A person's name as a names line writes it: two to four words of letters ("danah boyd", "Jan van
# der Berg"), no digits; or two to six letters of a script without case (张伟).
_NAME_SHAPED = r"^[\p{L}][\p{L}\p{M}'’.\-]*(?: [\p{L}][\p{L}\p{M}'’.\-]*){1,3}$|^[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]{2,6}$"


def _people(texts: pl.Series) -> pl.Series:
    """Lists whose items are mostly people: a given name or a surname real authors wear
    (transforms/name_parts.csv), or a name's shape with no word of an organisation. "MNIST,
    CIFAR-10, ImageNet" and "National Science Foundation" are none."""
    items = _list_items(texts)
    parts = fold_key(pl.element()).str.extract_groups(r"^(\S+)(?: .*)? (\S+)$").struct
    known_part = parts.field("1").is_in(known("given")) | parts.field("2").is_in(known("surname"))
    person = (known_part.fill_null(False) | pl.element().str.contains(_NAME_SHAPED)) & ~pl.element().str.contains(_ORGANISATION)
    return pl.select((items.list.eval(person).list.mean() >= 0.5).fill_null(False)).to_series()


def _list_items(texts: pl.Series) -> pl.Expr:
    return texts.str.replace_all(r"\s*(?:[,，;；、&]|\s(?i:and)\s)\s*", "\x1f").str.split("\x1f").list.eval(
        pl.element().str.strip_chars().filter(pl.element().str.strip_chars() != ""))


# What a topic's words hold and no list of names does: a word between a name's words no name holds
# ("applications to neuroscience", "learning on graphs"; particles do: "van der", "de la"), "etc", a
# parenthesis; or a word of the arXiv taxonomy's subject names ("transfer learning, meta learning":
# `_subject_words`). Not a word shared by items: names share given names ("Antti Koskela, Antti
# Honkela" was read as topics).
_TOPIC_JOINERS = ("to", "of", "for", "in", "on", "with", "without", "including", "via", "from", "by", "the", "or",
                  "into", "under")
_TOPIC_WORD = rf"(?i)\s(?:{'|'.join(_TOPIC_JOINERS)})\s|\betc\b|\("


@cache
def _subject_words() -> pl.Series:
    """Words of four letters or more in the arXiv taxonomy's subject, archive and group names
    ("learning", "theory", "systems", "vision"), folded, less those real authors' names hold."""
    from transforms.categories import arxiv_taxonomy  # (categories imports this module)

    known_cats, archives, _ = arxiv_taxonomy()
    names = pl.concat([known_cats["name"], known_cats["parent_name"], known_cats["group_name"], archives["archive_name"]])
    words = (names.drop_nulls().to_frame("n").select(fold_key(pl.col("n")).str.extract_all(r"\p{L}{4,}"))
             .to_series().explode().drop_nulls().unique())
    return words.filter(~words.is_in(known("given")) & ~words.is_in(known("surname")))


def _topic_items(texts: pl.Series) -> pl.Series:
    """Lists of topics, not of people: no item holds a word of a real author's name (the
    reference of transforms/name_parts.csv: "peter chang (massachusetts institute of technology)"
    is a person), and an item holds a topic's word (`_TOPIC_WORD`, `_subject_words`)."""
    items = _list_items(texts)
    words = fold_key(pl.element()).str.extract_all(r"\p{L}+")
    # A name's word of three letters or more, not a joiner (the reference holds initials, "ai",
    # "in", "the": "foundation or frontier models" and "(i.e., ...)" were vetoed by them); an
    # initial before a name as names write it ("V. M. Biryukov (Serpukhov, IHEP)"; not "i.e.,").
    name_word = (pl.element().str.len_chars() >= 3) & ~pl.element().is_in(list(_TOPIC_JOINERS))
    named = (words.list.eval(name_word & (pl.element().is_in(known("given")) | pl.element().is_in(known("surname"))))
             .list.any() | pl.element().str.contains(r"(?:^|\s)(?:\p{L}\.\s?)+\p{L}{2,}"))
    subject = words.list.eval(pl.element().is_in(_subject_words().implode())).list.any()
    topical = items.list.eval(pl.element().str.contains(_TOPIC_WORD) | subject).list.any()
    return pl.select((~items.list.eval(named).list.any() & topical).fill_null(False)).to_series()


def _a_parent_of_the_file(lines: pl.DataFrame, area_lines: pl.DataFrame) -> pl.Series:
    """Whether each line (file_idx, text) is the parent of an area line of its file ("Social
    Aspects" of "Social Aspects · Privacy"): a one-level area the page shows."""
    parents = area_lines.select("file_idx", text=canonical_area(pl.col("text")).str.split(AREA_SEPARATOR).list.first(),
                                parent=pl.lit(True)).unique()
    return lines.select("file_idx", "text").join(parents, on=["file_idx", "text"], how="left", maintain_order="left")[
        "parent"].fill_null(False)


def _prose_hint_of_names_shaped(paras: pl.DataFrame) -> pl.Series:
    """`_prose_hint` of the paragraphs shaped like a names line (false for the others): the
    prose patterns on every abstract were a sixth of a search page's parse."""
    # (of the text as a names line reads: "A, B for the ATLAS Collaboration" held "the" of prose)
    return on_rows(paras, paras["names_shape"].arg_true(), _prose_hint(pl.col("unmarked"))).rename("prose_hint")


def _one_person(paras: pl.DataFrame) -> pl.Series:
    """Names lines of one item that read as a person's name ("Steve Hanneke", "Percy Liang", not
    "Social Aspects"): a given name or a surname several real authors wear, or a given name and a
    surname real authors wear (the reference of transforms/name_parts.csv). Such a line is never a one-level
    area: before another names line it is a record cut off before its abstract; read as an
    area, "Steve Hanneke" became the next paper's category."""
    words = fold_key(pl.col("text")).str.extract_groups(r"^(\S+) (?:\S+ ){0,2}(\S+)$").struct
    given, surname = words.field("1"), words.field("2")
    person = (given.is_in(known("given", 3)) | surname.is_in(known("surname", 3))
              | (given.is_in(known("given")) & surname.is_in(known("surname"))))
    rows = paras.select((pl.col("kind") == "N") & pl.col("single_item")).to_series().arg_true()  # few
    return on_rows(paras, rows, person).rename("person")


def _area_of_items(paras: pl.DataFrame) -> pl.Series:
    """Names-shaped lines of several items, before a names line and an abstract, whose items are
    topics (`_topic_items`): a one-level area in its own words (OpenReview's "transfer learning, meta learning,
    and lifelong learning"), not a record cut off before its abstract. Such a line was quarantined
    and its record loaded without its area."""
    def below(n: int) -> pl.Expr:  # (the paragraphs are in file order: no window needed)
        return pl.when(pl.col("file_idx").shift(-n) == pl.col("file_idx")).then(pl.col("kind").shift(-n))
    rows = paras.select((pl.col("kind") == "N") & ~pl.col("single_item") & (below(1) == "N") & (below(2) == "P")
                        ).to_series().fill_null(False).arg_true()  # (few)
    return pl.repeat(False, paras.height, dtype=pl.Boolean, eager=True).scatter(
        rows, _topic_items(paras["text"].gather(rows))).rename("area_of_items")


def _prose_hint(text: pl.Expr) -> pl.Expr:
    long = text.str.count_matches(" ") >= 6
    # (a name's "can" or "in", typed in small letters, is none: "mehmet can yilmaz", "jae in kim")
    named = name_words_blanked(text.str.replace_all(LIST_SEPARATOR, ", "), HINT_WORD_SET)
    return named.str.contains(f"{PROSE_HINT}|{CJK_PROSE}") | (long & named.str.contains(PROSE_HINT_LONG))


# ---------------------------------------------------------------------------- short lines side by side
# A record may lack its abstract, and an abstract may be one short line (a title, a TL;DR, a few
# keywords): then names lines, one-level areas and abstracts stand side by side, told apart by their
# look alone. Each is read as people, an area or an abstract only on evidence (`_roles`); a span
# with none is quarantined, and the records beside it load. Read by their place alone, names loaded
# as an abstract, a person or an abstract as the next paper's category, and records were lost.
# One-level areas are short: "Social Aspects", "Probabilistic Methods", OpenReview's "learning on
# time series and dynamical systems" (five words past the joiners).
_AREA_WORDS = 5
# After a names line, where a title is as likely, fewer: ICML's one-level areas ("Learning Theory").
_AREA_WORDS_AFTER_NAMES = 3
# What an abstract's line holds and no area or names line does: five words or more (a title, a
# TL;DR) or a sentence's end.
_ABSTRACT_WORDS = 5
_JOINERS = [*_TOPIC_JOINERS, "and"]


def _roles(paras: pl.DataFrame) -> pl.DataFrame:
    """Three columns of the names lines that stand next to another (few; false on the others).
    `people`: names of people: a list `_people` reads so and no list of topics, or one person the
    name reference knows, or a name's shape whose words no subject name and no lower-case word of
    the page's prose holds, nor a topic's joiner ("Spandan Pyakurel", "王小明").
    `lone_area`: one item before a names line, and a one-level area by its words: where a record
    opens, a subject name's word, every word the page's prose's ("Health", "causal reasoning"), or
    a topic's joiner ("visualization or interpretation of learned representations"); after a names
    line, up to three capitalised words of subject names only. Never a person the name reference
    knows.
    `short_abstract`: no people, and an abstract's look (`_ABSTRACT_WORDS`)."""
    rows = paras.select((pl.col("kind") == "N") & ((_near("kind", -1) == "N") | (_near("kind", 1) == "N"))
                        ).to_series().fill_null(False).arg_true()
    false = pl.repeat(False, paras.height, dtype=pl.Boolean, eager=True)
    if not rows.len():
        return paras.with_columns(people=false, lone_area=false, short_abstract=false)
    look = paras[rows].with_columns(paras.select(prev_kind=_near("kind", -1), next_kind=_near("kind", 1))[rows])
    look = look.with_columns(words=fold_key(pl.col("text")).str.extract_all(r"\p{L}+").list.eval(
        pl.element().filter(~pl.element().is_in(_JOINERS))))
    n_english, n_subject = _english_words(look, paras)
    n_words = look["words"].list.len()
    texts = look["text"]
    # a word in lower case that is no joiner of a topic's words nor a name's particle: "a bayesian
    # model" (its "a" is a given name of the reference: an initial), not "Jan van der Berg"
    lower = texts.str.extract_all(r"(?:^|\s)\p{Ll}+").list.eval(
        ~pl.element().str.strip_chars().is_in(_JOINERS) & ~pl.element().str.strip_chars().is_in(PARTICLES.split("|"))
    ).list.any()
    one = ~lower & (look["person"] | (texts.str.contains(_NAME_SHAPED) & (n_english == 0) & ~texts.str.contains(_TOPIC_WORD)))
    # (a list that ends a sentence is none: "How to elicit, and detect, lying behaviour in black-box LLMs.")
    several = _people(texts) & ~_topic_items(texts) & ~texts.str.contains(r"\p{L}{4}[.!?]$")
    people = pl.select(pl.when(look["single_item"]).then(one).otherwise(several)).to_series()
    # After a names line, a short line is as likely their abstract: an area there is a few
    # capitalised words of subject names only ("Theory", "Learning Theory"; the ICML titles
    # "Flow Q-Learning", "Wasserstein Policy Optimization" were read as areas).
    opens = look["prev_kind"].is_null() | (look["prev_kind"] == "P")
    n_distinct = look["words"].list.n_unique()
    # Where a record opens no abstract stands: a line in lower case there is no names line either
    # (OpenReview's areas: "generative models", "datasets and benchmarks").
    by_words = pl.select(pl.when(opens).then((n_english == n_distinct) | (n_subject > 0) | texts.str.contains(_TOPIC_WORD)
                                             | lower)
                         .otherwise((n_subject == n_distinct) & (n_words <= _AREA_WORDS_AFTER_NAMES) & ~lower
                                    & ~texts.str.contains(r"\s[^\p{Lu}]"))).to_series()
    area = (look["single_item"] & ~look["person"] & (look["next_kind"] == "N") & (n_words <= _AREA_WORDS)
            & by_words & ~texts.str.contains(CJK_PROSE + r"|\p{Han}"))
    # (not a line in lower case alone: OpenReview's areas are so written, "generative models" below
    # a record cut before its abstract was loaded as that abstract)
    abstract_look = (n_words >= _ABSTRACT_WORDS) | texts.str.contains(_SENTENCE_END)
    # (a fresh column each: `scatter` writes in place)
    return paras.with_columns(people=false.clone().scatter(rows, people.fill_null(False)),
                              lone_area=false.clone().scatter(rows, area.fill_null(False)),
                              short_abstract=false.clone().scatter(rows, (~people & abstract_look).fill_null(False)))


def _english_words(look: pl.DataFrame, paras: pl.DataFrame) -> tuple[pl.Series, pl.Series]:
    """Of each line's distinct `words` (folded): how many are English words (a subject name's, or
    written in lower case in the prose of the line's page: "health"; a surname like "pyakurel" is
    none), and how many are a subject name's."""
    pairs = look.select("file_idx", "words", "single_item", row=pl.int_range(pl.len())).explode("words").drop_nulls(
        "words").unique()
    of_subject = pairs.filter(pl.col("words").is_in(_subject_words().implode())).select("row", "words")
    # (the prose is read only where it decides: lines of one item, no subject's word)
    asked = pairs.filter(pl.col("single_item") & ~pl.col("row").is_in(of_subject["row"].implode()))
    prose = paras.filter((pl.col("kind") == "P") & pl.col("file_idx").is_in(asked["file_idx"].unique().implode()))
    # (the words of the pages' prose, as written: only the pages of the lines looked at, few)
    vocabulary = prose.select("file_idx", words=pl.col("text").str.split(" ")).explode("words").select(
        "file_idx", pl.col("words").str.strip_chars(".,;:()[]\"'!?")).filter(
        pl.col("words").str.contains(r"^\p{Ll}+$")).unique()
    in_prose = asked.join(vocabulary, on=["file_idx", "words"]).select("row", "words")
    rows = pl.DataFrame({"row": pl.int_range(look.height, eager=True)})

    def count(found: pl.DataFrame) -> pl.Series:
        per_row = found.unique().group_by("row").len()
        return rows.join(per_row, on="row", how="left", maintain_order="left")["len"].fill_null(0)
    return count(pl.concat([in_prose, of_subject])), count(of_subject)


def _near(column: str, n: int) -> pl.Expr:
    """`column` of the row `n` rows down (up, n < 0), null across a file's edge: the rows are in
    file order, so no window is needed (a window per column cost the parse a tenth)."""
    return pl.when(pl.col("file_idx").shift(-n) == pl.col("file_idx")).then(pl.col(column).shift(-n))


def _group_records(paras: pl.DataFrame) -> pl.DataFrame:
    paras = _roles(paras)
    prev_kind = _near("kind", -1)
    opens = (prev_kind == "P") | prev_kind.is_null() | (pl.col("page") != _near("page", -1)).fill_null(False)
    # A line that opens its record and reads as its area: a one-level area, or topics in a list
    # (OpenReview's "transfer learning, meta learning, and lifelong learning") only where a record
    # opens (after one, such a list is as likely the short abstract of the record above).
    paras = paras.with_columns(an_area=(pl.col("lone_area") | (pl.col("area_of_items") & opens)).fill_null(False),
                               opens=opens)
    # A names line's shape read as prose ("tim kim, tankut can": a name's "can" beside words that
    # are no known name) that opens a record keeps the abstract under it: one record, quarantined
    # whole. As two records without authors they moved every later record's position by one.
    paras = paras.with_columns(named_opening=pl.col("named_prose") & pl.col("opens"))
    paras = paras.with_columns(opens=pl.col("opens") & ~((pl.col("kind") == "P") & _near("named_opening", -1)).fill_null(False))
    # A names line after a names line opens a record, unless the line above is its area: before
    # an abstract (the line above is a record cut off, or its short abstract), or as people
    # (people are no abstract). A one-level area after a names line opens its record.
    after_names = (pl.col("kind") == "N") & (_near("kind", -1) == "N") & (
        (~_near("an_area", -1) & ((_near("kind", 1) == "P") | pl.col("people"))) | pl.col("lone_area"))
    starts = (pl.col("kind") == "C") | pl.col("opens") | after_names.fill_null(False)
    paras = paras.with_columns(position=starts.cum_sum().over("file_idx"))
    recs = paras.group_by("file_idx", "position", maintain_order=True).agg(
        line_start=pl.col("line_start").first(),
        line_end=pl.col("line_end").last(),
        kinds=pl.col("kind").str.join(""),
        page=pl.col("page").first(),
        first_single=pl.col("single_item").first(),
        first_area=pl.col("an_area").first(),
        first_people=pl.col("people").first(),
        last_short_abstract=pl.col("short_abstract").last(),
        texts=pl.col("text"),
        raw_text=pl.col("raw_text").str.join("\n\n"),
    )
    n = pl.col("texts").list.len()
    is_last = (_near("position", 1).is_null()).alias("is_last")
    next_has_area = _near("kinds", 1).str.starts_with("C").fill_null(False)
    next_on_page = (_near("page", 1) == pl.col("page")).fill_null(False)
    # Names and a short abstract that reads like a names line ("CNN", "NN"): the last line is no
    # people (they open a record), and no area either: the next record opens with its own (or a
    # new page), or the line looks like an abstract (else it may be the next record's area).
    short = (pl.col("kinds").is_in(["CNN", "NN"]) & ~is_last
             & (next_has_area | ~next_on_page | pl.col("last_short_abstract"))
             & ((pl.col("kinds") == "CNN") | pl.col("first_people")))
    has_category = pl.col("kinds").is_in(["CNP", "CNN"]) | ((pl.col("kinds") == "NNP") & pl.col("first_area"))
    return recs.with_columns(
        is_last,
        category_raw=pl.when(has_category).then(pl.col("texts").list.first()),
        authors_raw=pl.col("texts").list.get(n - 2, null_on_oob=True),
        abstract=pl.col("texts").list.last(),
        valid_shape=(pl.col("kinds").is_in(["CNP", "NP"]) | ((pl.col("kinds") == "NNP") & pl.col("first_area")) | short),
        unsure_short=pl.col("kinds").is_in(["CNN", "NN"]) & ~short & next_on_page,
        unsure_one=(pl.col("kinds") == "N") & pl.col("first_single") & ~pl.col("first_people") & ~next_has_area & next_on_page,
    )


NAMED_PROSE_REASON = ("a line shaped like names that reads as prose, then prose: a record whose names read as prose,"
                      " or no record (an e-mail's sign-off)? (neither reads surely)")


def _reason() -> pl.Expr:
    kinds = pl.col("kinds")
    return (
        pl.when(pl.col("valid_shape"))
        .then(None)
        .when(kinds.str.contains("M"))
        .then(pl.lit(METADATA_REASON))
        .when(~kinds.str.ends_with("P") & pl.col("is_last"))
        .then(pl.lit("record cut off at end of file: no abstract"))
        .when(pl.col("unsure_one"))
        .then(pl.lit("one name line, then a record: a one-level area, or a one-author record without its abstract?"
                     " (neither reads surely)"))
        .when(pl.col("unsure_short"))
        .then(pl.lit("a short line after the names, then a record: their abstract, or the next record's one-level"
                     " area? (neither reads surely)"))
        .when(kinds.is_in(["P", "CP"]))
        .then(pl.lit("abstract without an authors line"))
        .when(kinds.is_in(["PP", "CPP"]))
        .then(pl.lit(NAMED_PROSE_REASON))
        .when(~kinds.str.ends_with("P"))
        .then(pl.lit("record has no abstract"))
        .otherwise(pl.lit("unexpected paragraphs (C=category, N=names, P=prose): ") + kinds)
    )
