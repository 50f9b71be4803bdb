"""Listing format: five lines per paper, each record opened by "#NN<Mon DD, YYYY>".

    #01Oct 26, 2026
    cs.LG                       one code, or a cross-listing "cs.LG; stat.ML" (primary first)
    <title>
    <authors>
    <abstract>

Records are delimited by their header lines, so a broken record never takes its neighbours
down with it. Blank lines between records are separators, and so are blank lines inside one
(they are skipped: the fields are the record's non-blank lines). Lines after a record's fifth
belong to no record (a lost header, stray text): they are quarantined on their own, and the
record keeps its five lines, unless its lines are short enough to be wrapped: then they may be
its abstract's rest, and it is unwrapped as below or quarantined whole.

Hard-wrapped records (e-mail wraps at 72 columns, or another width): a field spans several
lines, so a record has more than five non-blank lines. A wrapper that fills lines greedily
leaves a line short only where its text ended, so a line is *certainly* a field's last when
the next line's first word would have fitted on it (the width is the record's longest line
with a space, which is at most the wrapper's width), or when a blank line follows it. The
record is unwrapped when exactly one split into title (1 to 3 lines), authors (a names line,
`is_names_text`) and abstract (all the rest) agrees with those certain ends; otherwise it is
quarantined whole ("hard-wrapped record: fields cannot be told apart"), never loaded with
shifted fields. Not every wrapper is greedy (arXiv's metadata is wrapped by its submitters'
tools: a title at 72 columns, the abstract at 80 with its first line indented), so a record no
split agrees with is read once more from what its lines say (`_split_by_names`): one names line
between the title and the abstract's prose, and no other reading whose authors may be names.
A record whose lines are longer than any wrap width (`WRAP_MAX`) is not wrapped: its extra
lines are stray text, as above.
"""

from __future__ import annotations

import datetime as dt
import re

import polars as pl

from transforms.formats.common import (
    LIST_ENDING,
    LIST_SEPARATOR,
    NAME_ITEM,
    ONE_LINE_ABSTRACT,
    PARTICLES,
    QUARANTINE_SCHEMA,
    UNFINISHED_ENDING,
    _ABSTRACT_WORDS,
    as_quarantine,
    is_names_text,
    join_after_hyphen,
    name_words_blanked,
    names_line,
    on_rows,
    split_valid,
    without_field_label,
)
from transforms.text import INVISIBLE, PAD, clean_text, fold_key, on_rows_where

NAME = "listing"
HEADER = r"^#(?<rank>\d{2,})\s*(?<date>\p{L}{3,9}\.?\s+\d{1,2},\s*\d{4})$"
# "cs.LG", "cs.lg", "math-ph", "hep-th", "quant-ph": dotted (any case), or hyphenated archive names.
_DOTTED_CODE = r"[A-Za-z][A-Za-z\-]*\.[A-Za-z][A-Za-z\-]*"
_CODE = rf"(?:{_DOTTED_CODE}|[a-z]+(?:-[a-z]+)+|[A-Z]+(?:-[A-Z]+)+)"
ONE_CODE = rf"^{_CODE}$"  # a text that is one code as a category line writes it
# One code, or a cross-listing: "cs.LG; stat.ML", "cs.LG, stat.ML", "cs.LG stat.ML".
CODE_SEPARATOR = r"\s*[;,]\s*|\s+"
CATEGORY_LINE = rf"^{_CODE}(?:(?:{CODE_SEPARATOR}){_CODE})*$"
# A category line as arXiv's own pages write it, each code after its name: "Machine Learning
# (cs.LG); Artificial Intelligence (cs.AI)", "Subjects: Computation and Language (cs.CL)". The
# codes are the line (the record was quarantined: "second line is not an arXiv category code").
# Bare codes may stand beside named ones ("cs.CV (eess.IV)", "cs.LG; Artificial Intelligence
# (cs.AI)", "Machine Learning (cs.LG); cs.AI"): every code of the line is kept, in its order.
_NAMED_CODE = rf"[^()]*\(\s*{_CODE}\s*\)"
NAMED_CODES = rf"^{_NAMED_CODE}(?:\s*[;,]\s*{_NAMED_CODE})*(?:(?:{CODE_SEPARATOR}){_CODE})*\s*$"
N_LINES = 5
# Month names as listings write them, any case, with or without a period: "Sep", "Sept.", "September".
MONTHS = {name: i + 1 for i, names in enumerate([
    ("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"), ("may",),
    ("jun", "june"), ("jul", "july"), ("aug", "august"), ("sep", "sept", "september"),
    ("oct", "october"), ("nov", "november"), ("dec", "december"),
]) for name in names}
# Listing dates outside these are impossible and quarantined (9999, 2206, 1850 were seen). The
# first: arXiv's first mailing went out in August 1991. The last: a fixed, generous bound, not
# "today + 1 year": the same file must load the same way whenever it is ingested (ids are
# deterministic), and the benchmark corpora shift real dates years ahead. Either bound keeps
# dim_date (one row per day between the first and last listing) under 40,000 rows.
EARLIEST_LISTING = dt.date(1991, 8, 1)
LATEST_LISTING = dt.date(2099, 12, 31)
# A header HEADER does not read ("#1Oct 26, 2026", "#02Oct 26 2026", "#08Oct 26, 2026 (updated)",
# "No. 12 Oct 26, 2026", "#10 2026-10-26"): a "#" and a number, or a date, opening the line. After
# a short record's abstract it was read as the abstract's wrapped rest ("... apart. #02Oct 26
# 2026"); it starts stray lines instead, quarantined with the record it opens, when what follows
# it is a record's (`_long_records`).
_MONTH = "(?i:" + "|".join(sorted(MONTHS, key=len, reverse=True)) + ")"
# Also a short line holding a date in another order ("[02] Oct 26, 2026", "26 Oct 2026",
# "2026/10/26", "26.10.2026", "Rank 02 · Oct 26, 2026"): no abstract's wrapped rest is a date alone.
_DATE = (r"(?:" + _MONTH + r"\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|\d{1,2}(?:st|nd|rd|th)?\s+" + _MONTH
         + r"\.?,?\s+\d{4}|\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[./]\d{1,2}[./]\d{4})(?:\D|$)")
HEADER_LIKE = r"^(?:[#＃]\s*\d|.{0,16}" + _DATE + r"(?:.{0,16})$)"
# A line opening as a header does, a number after "#" and then a date, whatever follows ("#02Oct
# 26, 2026 cs.GR", "#02Oct 26, 2026 UTC" over "[cs.CV]" or over the title): a record's start, not
# an abstract's wrapped rest. Only before a category line did it count: the rest of its record
# was read into the abstract above (a paper lost, every later position one too low).
_WEEKDAY = r"(?:(?i:mon|tue|wed|thu|fri|sat|sun)[^\W\d_]{0,6}\.?,?\s+)?"  # "Mon, 26 Oct 2026", "Thursday, Oct 26"
# A rank of two digits or more as the format's, at most one blank on each side of it, and a short
# line: a wrapped abstract's line "#1 since Oct 5, 2024 ..." or "#3 2024-05-01 ..." goes on.
OPENS_AS_HEADER = r"^[#＃]\s?\d{2,}\s?" + _WEEKDAY + _DATE
OPENS_AS_HEADER_MAX_CHARS = 48
# Its form for the finder of joined files (`joined`): glued to the end of the other file's last
# line ("...resources.#01Oct 26 2026") it stayed in that abstract; cut off, it is read as above.
UNREAD_HEADER_FOUND = rf"#[{INVISIBLE}]*\d{{2,}}[{PAD}]*" + _WEEKDAY + _DATE
# Metadata lines as arXiv pages and mailing lists print them beside a paper: a label and a colon
# ("Comments: 9 pages", "DOI: 10.1234/abc", "Journal-ref: ...", "MSC classes: 68T05", "Code: https://..."),
# a venue note ("Accepted at NeurIPS 2025", "To appear in ...", "Published in ..."), a link or an
# identifier alone. Standing where the abstract belongs, such a line was loaded as the abstract.
# arXiv's own labels (no abstract opens with one, nor a title: "Comment: ..." is Statistical
# Science's discussions, "Comments:" arXiv's field)
_ARXIV_LABELS = (r"comments|doi|journal[- ]?ref(?:erence)?|report[- ]?(?:no|num(?:ber)?)\.?|(?:msc|acm|jel)[- ]?class(?:es)?"
                 r"|pacs|subjects|subj-class")
_META_LABELS = (_ARXIV_LABELS + r"|comment|subject|categories|keywords?|key ?words|index terms|(?:source )?code|project(?: page| website)?"
                r"|home ?page|website|url|github|data(?:set)?s?|demo|video|arxiv(?: id)?|cite as|submitted|published|accepted"
                r"|notes?|licen[cs]e|pages|conference|venue|proceedings|funding|correspondence|contact|e-?mail"
                r"|supplementary(?: material)?|preprint|primary class|version|status")
# (a venue note needs its preposition: "Accepted wisdom holds ..." opens an abstract)
_META_PHRASES = (r"(?:accepted|to appear|appearing|published|presented|under review|submitted)\s+(?:at|to|in|by|for)\s"
                 r"|in proceedings of\s|camera[- ]ready(?:[\s:]|$)")
METADATA_LINE = (r"^(?i:(?:" + _META_LABELS + r")\s*(?::|：)|" + _META_PHRASES + r"|(?:https?://|www\.|doi\.org/|arxiv:)\S+$"
                 r"|10\.\d{4,9}/\S+$)")
# The same shape with any short label ("Venue: ...", "Related work: ..."), trusted only on a short line
# of a record not hard-wrapped, a longer one after it (a wrapped line may open "theory: we show");
# not the labels of the fields themselves ("Abstract:", "Title:").
ANY_LABEL = r"^\p{L}[\p{L}\-]*(?: [\p{L}\-]+){0,2}\s*(?::|：)\s*\S"
FIELD_LABEL = r"^(?i:abstract|summary|tl;?dr|title|authors?|author\(s\)|by)\s*(?::|：)"
# Longer than any such line seen (a long Journal-ref); an abstract is longer.
METADATA_MAX_CHARS = 160
# A line of arXiv's labels, and its bound: the longest comment of ../shared/realdata's arXiv
# records is 392 characters.
_ARXIV_META = r"^(?i:" + _ARXIV_LABELS + r")\s*(?::|：)"
ARXIV_META_MAX_CHARS = 600
# Lines a mailing or a listing page prints between records, never an abstract's wrapped rest
# when they end its record: a section heading ("Cross-lists for Mon, 26 Oct 26", "New
# submissions (showing 4 of 4 entries)"), a separator (_SEPARATOR), an arXiv metadata label
# ("Comments:", "Journal-ref:") or the next record's title ("Title:"; a labelled record's own
# "Authors:" may follow a title of three lines), a note (_NOTE). After a record of short lines
# each was read as its one-line abstract's second line. (Not any label: a wrapped line may open
# "data: images and text"; not a link alone: an abstract's last line often is one; and only at
# the record's end, `_between_records_at_the_end`: "DOI: 10.1145/... is the version of record;
# here we" goes on.)
_SECTION = (r"(?i:(?:new|cross|replacement)\s+submissions|cross-?lists|replacements)\b.{0,40}"
            r"(?:\bfor\s+\p{L}{3},?\s+\d{1,2}\s+\p{L}{3}\s+\d{2,4}|\(showing\s+(?:first\s+)?\d+\s+of\s+\d+\s+entries\))")
# One mark three times or more ("------", "* * *", "===", and as editors draw them: "———",
# "────", "═══"), or arXiv's "\\\\"; not "}$." or "?" (a wrapped field's last marks), nor a DOS
# end-of-file ^Z. (No backreference in Polars' patterns: one alternative per mark.)
_SEPARATOR = ("(?:" + "|".join(rf"(?:{re.escape(mark)}\s*){{3,}}" for mark in "-=_*~#—–─━═") + r"|\\\\)$")
_ARXIV_LABELS = (r"(?i:comments?|journal[- ]?ref(?:erence)?|doi|report[- ]?(?:no|number)\.?|(?:msc|acm|jel)[- ]?class(?:es)?"
                 r"|subj-class|subjects|pacs|title)\s*(?::|：)")
# a listing's note ("(withdrawn)", "[replaced with revised version Mon, 26 Oct 2026]",
# "(showing first 25 of 312 entries)"), a version line ("[v2] Mon, 26 Oct 2026 ...")
# (only these: a names line wraps onto an affiliation alone, "(Lisbon, IST)")
_NOTE = (r"\((?i:withdrawn|showing\s[^()]*entries)\)$|\[(?i:replaced with\s)[^\[\]]*\]$|\[v\d+\]\s"
         r"|(?i:replaced with revised version)\b")
BETWEEN_RECORDS = rf"^(?:{_SECTION}\s*$|{_SEPARATOR}|{_ARXIV_LABELS}|{_NOTE})"
# arXiv's RSS feeds mark their items: before 2024 a title "T. (arXiv:2602.13165v2 [cs.IR] UPDATED)"
# (each version's digits read as another paper's number: a paper per version), since then an
# abstract "arXiv:2602.13165v2 Announce Type: replace Abstract: ...". A title's mark has the
# category in brackets, as the feeds wrote it (a title may name a paper: "Comments on
# (arXiv:2401.00001)", "Comment on "X" (arXiv:2401.00001v2)").
_ARXIV_ID = r"(?:\d{4}\.\d{4,5}|[a-z][a-z\-]*(?:\.[A-Z]{2})?/\d{7})"
FEED_TITLE_MARK = (rf"\.?\s*\(arXiv:{_ARXIV_ID}(?:v\d+)?\s*\[[^\]\s]+\]"
                   r"(?:\s+(?:UPDATED|CROSS LISTED|REPLACED))?\)$")
FEED_ABSTRACT_MARK = rf"^arXiv:{_ARXIV_ID}(?:v\d+)?\s+(?i:announce\s+type):\s*[\w-]+\s+(?i:abstract):\s*"


def is_metadata(line: pl.Expr, any_label: bool = True) -> pl.Expr:
    """Whether a line is a metadata line (METADATA_LINE; with `any_label`, a short line with any
    label but a field's own)."""
    labelled = line.str.contains(METADATA_LINE) | (
        pl.lit(any_label) & line.str.contains(ANY_LABEL) & ~line.str.contains(FIELD_LABEL))
    # (arXiv's own labels to a longer bound: 4 % of the realdata's comments are longer than
    # METADATA_MAX_CHARS, "Comments: 10 pages, 11 figures (...). Accepted for publication in Monthly
    # Notices ...", and were loaded as the abstract or glued into the title; hunt 51)
    long_arxiv = line.str.contains(_ARXIV_META) & (line.str.len_chars() <= ARXIV_META_MAX_CHARS)
    return ((labelled & (line.str.len_chars() <= METADATA_MAX_CHARS)) | long_arxiv).fill_null(False)


# No e-mail or terminal wraps wider than this: a record with a longer line is not hard-wrapped.
WRAP_MAX = 200
MAX_TITLE_LINES = 3
WRAP_REASON = "hard-wrapped record: fields cannot be told apart"
SHIFT_REASON = "fields out of place (a line missing or one too many): the authors read as prose or the abstract as names"
METADATA_REASON = ("a metadata line (Comments:, DOI:, Journal-ref:, Accepted at ..., a link) stands where the "
                   "abstract belongs")
EXTRA_REASON = "lines after a record's abstract that belong to no record (missing header?)"
NOT_TITLE_REASON = ("a line no title holds (a second category, an identifier, a link, a metadata line) stands "
                    "where the title belongs")


# HEADER as the finders see it (`find` with Python's `re`, `joined` with Polars: one pattern for
# both engines), found by its literal "#" first (a scan of 30 MB in ~20 ms; a pattern opening
# with "^" is tried at every position, ten times slower). Looser than HEADER on purpose: the
# parser, after clean_text, has the last word on each line.
# Its blanks are any that clean_text makes one space or drops (a thin or ideographic space, a
# zero-width one after the "#" or the rank): HEADER reads such headers, and a finder that did not
# left a joined file's header in the abstract before it, or a whole file "unknown format".
HEADER_FOUND = rf"#[{INVISIBLE}]*\d{{2,}}[{PAD}]*[^\W\d_]{{3,9}}\.?[{PAD}]+\d{{1,2}},[{PAD}]*\d{{4}}"
_FIND = re.compile(rf"{HEADER_FOUND}[{PAD}]*$", re.M)


def find(text: str) -> int | None:
    """Offset of the first header line, wherever it is (after any preamble)."""
    for match in _FIND.finditer(text):
        start = text.rfind("\n", 0, match.start()) + 1
        if not text[start:match.start()].strip(PAD):
            return start
    return None


def parse(lines: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """`lines` (file_idx, line_no, line) → (records, quarantine)."""
    df = lines.with_columns(text=clean_text(pl.col("line"))).with_columns(blank=pl.col("text") == "")  # = is_blank
    df = df.with_columns(header=pl.col("text").str.extract_groups(HEADER)).unnest("header")
    df = df.with_columns(position=pl.col("rank").is_not_null().cum_sum().over("file_idx"))
    # Trailing blank lines of a record are separators, not part of it.
    last_text = pl.when(~pl.col("blank")).then(pl.col("line_no")).max().over("file_idx", "position")
    df = df.filter(pl.col("line_no") <= last_text)

    preamble = df.filter(pl.col("position") == 0)
    stray = as_quarantine(
        preamble.group_by("file_idx", maintain_order=True).agg(
            line_start=pl.col("line_no").min(),
            line_end=pl.col("line_no").max(),
            reason=pl.lit("text before the first record header"),
            raw_text=pl.col("line").str.join("\n"),
        )
    )
    body = df.filter(pl.col("position") > 0)
    grouped = _group_records(body)
    long = grouped["n_lines"] > N_LINES
    if long.any():  # hard-wrapped or stray lines: the slow path, for those records' lines only
        long_body = _without_headings(body.join(grouped.filter(long).select("file_idx", "position"), on=["file_idx", "position"]))
        long_records, extra = _long_records(long_body)
        grouped = pl.concat([grouped.filter(~long), long_records], how="diagonal_relaxed")
    else:
        extra = pl.DataFrame(schema=QUARANTINE_SCHEMA)
    grouped = _in_file_order(grouped, preamble)
    abstract = without_field_label(grouped["abstract"], "abstract")
    # A title's label goes whether or not the other fields are labelled: "Title: HiPR: ..." won the
    # paper's title over its clean listings and made "title" a topic term (hunt 52, F4); no real
    # title of ../shared/realdata opens with "Title:", so a real "Title: Subtitle" is given up.
    title = without_field_label(grouped["title"], "title")
    grouped = grouped.with_columns(category_raw=_codes_of_named(grouped["category_raw"]), **_without_feed_marks(title, abstract))
    valid, bad = split_valid(_with_dates(_with_shifted(grouped)), _reason())
    return valid, pl.concat([stray, extra, bad])


# A heading alone on its line where a record's abstract opens ("Abstract", "ABSTRACT", "Abstract.",
# "Summary", "摘要", "TL;DR"), as pages print it: no field's line.
HEADING_ALONE = rf"^(?:{_ABSTRACT_WORDS})\s*[:.：]?$"


def _without_headings(body: pl.DataFrame) -> pl.DataFrame:
    """Records' lines with a heading (HEADING_ALONE) after the first names line's place made blank
    (a separator): a lone author's record read it as the author and glued the name to the title
    (hunt 52, F2), one of several names was quarantined."""
    text = pl.when(~pl.col("blank")).then(pl.col("text"))
    j = (~pl.col("blank")).cum_sum().over("file_idx", "position") - 1
    return body.with_columns(blank=pl.col("blank") | ((j >= N_LINES - 1) & text.str.contains(HEADING_ALONE)).fill_null(False))


def _without_feed_marks(title: pl.Series, abstract: pl.Series) -> dict[str, pl.Series]:
    """Title and abstract without an RSS feed's marks (FEED_TITLE_MARK, FEED_ABSTRACT_MARK)."""
    def unmarked(text: pl.Series, mark: str) -> pl.Series:
        return on_rows_where(text, text.str.contains("arXiv:", literal=True) & text.str.contains(mark),
                             lambda rows: rows.str.replace(mark, ""))
    return {"title": unmarked(title, FEED_TITLE_MARK), "abstract": unmarked(abstract, FEED_ABSTRACT_MARK)}


def _in_file_order(grouped: pl.DataFrame, preamble: pl.DataFrame) -> pl.DataFrame:
    """Positions are the records' order in the file, and a record whose header HEADER does not
    read (quarantined before the first header, or after another record's abstract) is one: the
    records after it kept their places ("#10" of a listing numbered from "#1" was position 1).
    In the preamble only before a category line: e-mail headers hold dates too."""
    lines = preamble.filter(~pl.col("blank"))
    opened = lines.filter(_unread_header(pl.col("text"), pl.col("text").shift(-1).over("file_idx"), at_end=False))
    if "n_unread" not in grouped.columns:  # (no long record)
        grouped = grouped.with_columns(n_unread=pl.lit(0, pl.Int64))
    if opened.is_empty() and not grouped["n_unread"].sum():  # nothing unread: positions count the headers
        return grouped.drop("n_unread")
    before = opened.group_by("file_idx").agg(n_before=pl.len().cast(pl.Int64))
    unread = pl.col("n_unread").fill_null(0)
    return grouped.sort("file_idx", "position").join(before, on="file_idx", how="left").with_columns(
        position=pl.col("position") + pl.col("n_before").fill_null(0) + unread.cum_sum().over("file_idx") - unread,
    ).drop("n_unread", "n_before")


def _group_records(df: pl.DataFrame) -> pl.DataFrame:
    """One row per record; fields one per non-blank line (right for records of five lines)."""
    fields = pl.col("fields")
    return df.group_by("file_idx", "position", maintain_order=True).agg(
        line_start=pl.col("line_no").first(),
        line_end=pl.col("line_no").last(),
        rank=pl.col("rank").first().cast(pl.Int64, strict=False),
        date_raw=pl.col("date").first(),
        fields=pl.col("text").filter(~pl.col("blank")),
        raw_text=pl.col("line").str.join("\n"),
    ).with_columns(
        n_lines=fields.list.len().cast(pl.Int64),
        category_raw=fields.list.get(1, null_on_oob=True),
        title=fields.list.get(2, null_on_oob=True),
        authors_raw=fields.list.get(3, null_on_oob=True),
        abstract=fields.list.get(4, null_on_oob=True),
        unwrappable=pl.lit(False),
        shift_reason=pl.lit(None, pl.String),
    ).drop("fields")


def _long_records(body: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Records with more than five non-blank lines: hard-wrapped fields, or stray lines after
    the abstract (module docstring). → (records, quarantine rows for the stray lines)."""
    g = ["file_idx", "position"]
    # j: the index of a line among its record's non-blank lines (0 the header, 1 the category).
    # Lines come in file and line order: a record's next line is the next row when it has the
    # same record (plain shifts: window expressions nested in each other were 10x slower).
    c = body.filter(~pl.col("blank"))
    starts = (pl.col("position") != pl.col("position").shift(1)) | (pl.col("file_idx") != pl.col("file_idx").shift(1))
    c = c.with_columns(new_record=starts.fill_null(True))
    c = c.with_columns(
        # j: the index of a line among its record's non-blank lines (0 the header, 1 the category).
        j=pl.int_range(pl.len(), dtype=pl.Int64) - pl.int_range(pl.len(), dtype=pl.Int64).filter(
            pl.col("new_record")).gather(pl.col("new_record").cum_sum() - 1),
        has_next=~pl.col("new_record").shift(-1).fill_null(True),
    )
    nxt = lambda col: pl.when(pl.col("has_next")).then(pl.col(col).shift(-1))  # noqa: E731
    # Widths as the wrapper saw them: on the raw line, where only ASCII blanks break a line (an
    # NBSP glues two words into one).
    c = c.with_columns(raw=pl.col("line").str.strip_chars_end(" \t\r"))
    c = c.with_columns(hyphen=join_after_hyphen(pl.col("text"), nxt("text")).fill_null(False))
    c = c.with_columns(
        length=pl.col("raw").str.len_chars().cast(pl.Int64),
        next_word=nxt("raw").str.extract(r"^[ \t]*([^ \t]+)", 1).str.len_chars().cast(pl.Int64),
        blank_after=(nxt("line_no") - pl.col("line_no")) > 1,
        space=pl.when(pl.col("hyphen")).then(0).otherwise(1),
        piece=pl.when(pl.col("hyphen").shift(1) & ~pl.col("new_record")).then(pl.col("text"))
        .otherwise(" " + pl.col("text")),
        spaced=(pl.col("j") >= 1) & pl.col("raw").str.strip_chars_start(" \t").str.contains(r"[ \t]"),
    )
    widths = c.group_by(g).agg(width=pl.col("length").filter(pl.col("spaced")).max())
    c = c.join(widths, on=g, how="left", maintain_order="left")
    fits = pl.col("length") + pl.col("space") + pl.col("next_word") <= pl.col("width")
    c = c.with_columns(ends=fits.fill_null(True) | pl.col("blank_after").fill_null(True))
    # A category line right after a certain field end: a record that lost its header. A header-like
    # line (HEADER_LIKE) where a record follows: a category line next, or nothing (a header cut off
    # with its record). Prose wraps onto such lines too ("#1 on the Open LLM Leaderboard ...", a
    # date alone ending the abstract: "2025-12-31."), and went to quarantine with the abstract's rest.
    unread = (pl.col("j") >= N_LINES) & _unread_header(pl.col("text"), nxt("text"))
    lost_header = unread | (
        (pl.col("j") >= N_LINES) & pl.col("text").str.contains(CATEGORY_LINE) & pl.col("ends").shift(1))
    # Likewise a metadata line ("Code: https://...") after a certain end of a wrapped record: it was
    # joined to the abstract. Looked for on those lines only (few: a wrapped field's last lines).
    # Not one opening in small letters: a line broken early goes on "presented for the production".
    after_end = (pl.col("j") >= N_LINES) & pl.col("ends").shift(1).fill_null(False) & (pl.col("width") <= WRAP_MAX)
    c = c.with_columns(metadata=on_rows(c, c.select(after_end.arg_true()).to_series(),
                                        is_metadata(pl.col("text"), any_label=False) & ~pl.col("text").str.contains(r"^\p{Ll}")))
    lost_header = lost_header | pl.col("metadata") | _between_records_at_the_end()
    recs = c.group_by(g, maintain_order=True).agg(
        n=pl.col("j").max(),
        width=pl.col("width").first(),
        one_per_line=pl.col("ends").filter(pl.col("j").is_between(2, N_LINES - 1)).all(),
        cut=pl.col("j").filter(lost_header).min(),
        n_unread=unread.sum().cast(pl.Int64),
        ends_at=pl.col("j").filter(pl.col("ends") & (pl.col("j") >= 2)),
        pieces=pl.col("piece"),
        line_nos=pl.col("line_no"),
        rank=pl.col("rank").first().cast(pl.Int64, strict=False),
        date_raw=pl.col("date").first(),
    )
    # Not wrapped (a line longer than any wrap width), or every field one line: fields are lines.
    by_lines = pl.col("one_per_line") | (pl.col("width").fill_null(0) > WRAP_MAX)
    # One field per line, yet short enough to be wrapped: trusted only when the authors line is a
    # names line and the abstract does not open with one (a wrapper that did not fill its lines
    # would otherwise put a title's second line in the authors, the case). A doubtful
    # record is quarantined whole.
    could_wrap = by_lines & (pl.col("width").fill_null(0) <= WRAP_MAX)
    # Lines after the abstract of such a record may be its abstract's rest: a wrapper measures the
    # spaces it was given, and two between words ("for  novel") leave a line short that looked
    # full; its abstract cut at one line was loaded.
    doubtful = could_wrap & (~is_names_text(names_line(_join(pl.col("pieces").list.slice(3, 1))))
                             | may_be_names(_join(pl.col("pieces").list.slice(4, 1)))
                             | (pl.col("cut").is_null() & (pl.col("n") >= N_LINES)))
    recs = recs.with_columns(by_lines=by_lines, could_wrap=could_wrap, doubtful=doubtful).with_columns(
        m=pl.when(pl.col("by_lines") & ~pl.col("doubtful")).then(N_LINES - 1)
        .otherwise(pl.col("cut").fill_null(pl.col("n") + 1) - 1),
    )
    # The certain field ends before the abstract's last line (ends_at is in line order): whether
    # there are 0, 1, 2 or more of them, and the first two.
    e = [pl.col("ends_at").list.get(i, null_on_oob=True) for i in range(3)]
    recs = recs.with_columns(
        n_certain=pl.sum_horizontal([(x < pl.col("m")).fill_null(False).cast(pl.Int32) for x in e]),
        e1=e[0], e2=e[1],
    )
    # Candidate splits on a slim frame (the lists join only the few that agree with the ends).
    wrapped = recs.filter(~pl.col("by_lines")).select(*g, "m", "n_certain", "e1", "e2")
    cand = wrapped.with_columns(a=pl.int_ranges(2, pl.min_horizontal(MAX_TITLE_LINES + 2, pl.col("m") - 1)))
    cand = cand.explode("a").drop_nulls("a").with_columns(b=pl.int_ranges(pl.col("a") + 1, pl.col("m")))
    cand = cand.explode("b").drop_nulls("b")
    a, b, n_certain = pl.col("a"), pl.col("b"), pl.col("n_certain")
    agrees = (
        (n_certain == 0)
        | ((n_certain == 1) & ((a == pl.col("e1")) | (b == pl.col("e1"))))
        | ((n_certain == 2) & (a == pl.col("e1")) & (b == pl.col("e2")))
    )
    cand = cand.filter(agrees).join(recs.select(*g, "pieces"), on=g)
    # The authors are a names line; the abstract does not open with what may be names (else the
    # authors could end later), nor does a title end with them (else they could start earlier).
    # A record is unwrapped when exactly one split is left.
    first_abstract_line = pl.col("pieces").list.get(b + 1).str.strip_chars_start(" ")
    last_title_line = pl.col("pieces").list.get(a).str.strip_chars_start(" ")
    # A split whose title ends with what may be names is never chosen, but it still counts: when
    # the split that starts the authors earlier is a names line too, the record has two readings
    # and is quarantined (dropping it made the other unique, and a Title Case list line such as
    # "Knowledge-Grounded, Multi-Perspective Reasoning Problem" was loaded as the first names).
    cand = cand.with_columns(
        authors_raw=_join(pl.col("pieces").list.slice(a + 1, b - a)),
    ).filter(
        is_names_text(names_line(pl.col("authors_raw")))
        & ~may_be_names(first_abstract_line)
    ).with_columns(title_ends_in_names=(a > 2) & may_be_names(last_title_line, lists_only=True))
    cand = cand.select(*g, "a", "b", "authors_raw", "title_ends_in_names")
    chosen = cand.join(cand.group_by(g).len().filter(pl.col("len") == 1).drop("len"), on=g).filter(
        ~pl.col("title_ends_in_names")).drop("title_ends_in_names")
    # No split agrees with the certain ends, or every field's line seemed to end it yet more lines
    # follow (doubtful): the wrapper may not have filled its lines. Such a record split by what its
    # lines say is a wrapped one.
    unsplit = recs.filter(~pl.col("by_lines") | pl.col("doubtful")).join(chosen.select(g), on=g, how="anti")
    if unsplit.height:  # most batches have none
        chosen = pl.concat([chosen, _split_by_names(unsplit.select(*g, "m", "pieces"))], how="vertical_relaxed")
    split = pl.col("a").is_not_null()
    recs = recs.join(chosen, on=g, how="left").with_columns(
        by_lines=pl.col("by_lines") & ~split, doubtful=pl.col("doubtful") & ~split)

    recs = _out_of_place(recs)
    whole, reread = pl.col("shift_reason").is_not_null(), pl.col("title_end").is_not_null()
    recs = recs.with_columns(
        unwrappable=((~pl.col("by_lines") & pl.col("a").is_null()) | pl.col("doubtful")) & ~whole,
        m=pl.when(whole).then(pl.col("cut").fill_null(pl.col("n") + 1) - 1)
        .when(reread).then(pl.col("names_end") + 1).otherwise(pl.col("m")),
    )
    recs = _with_paragraphs(recs)
    pieces, m = pl.col("pieces"), pl.col("m")
    recs = recs.with_columns(
        a=pl.when(reread).then(pl.col("title_end")).when(pl.col("by_lines")).then(2).otherwise(pl.col("a")),
        b=pl.when(reread).then(pl.col("names_end")).when(pl.col("by_lines")).then(3).otherwise(pl.col("b")),
    ).with_columns(
        category_raw=_join(pieces.list.slice(1, 1)),
        title=_join(pieces.list.slice(2, pl.col("a") - 1)),
        authors_raw=pl.when(reread).then(  # (one names line, or names one per line)
            pieces.list.slice(pl.col("a") + 1, pl.col("b") - pl.col("a")).list.eval(pl.element().str.strip_chars_start(" "))
            .list.join(", ")).otherwise(_join(pieces.list.slice(pl.col("a") + 1, pl.col("b") - pl.col("a")))),
        abstract=pl.concat_list(_join(pieces.list.slice(pl.col("b") + 1, m - pl.col("b") - pl.col("paragraphs").list.len())),
                                "paragraphs").list.join("\n"),
        line_start=pl.col("line_nos").list.first(),
        line_end=pl.col("line_nos").list.get(m),
        n_lines=m + 1,
    )
    # Lines of each record's span (blank lines inside it too), and the lines after it.
    spans = body.join(recs.select(*g, "line_end"), on=g)
    inside = spans.filter(pl.col("line_no") <= pl.col("line_end")).group_by(g, maintain_order=True).agg(
        raw_text=pl.col("line").str.join("\n"))
    extra = as_quarantine(spans.filter(pl.col("line_no") > pl.col("line_end")).group_by(g, maintain_order=True).agg(
        line_start=pl.col("line_no").min(),
        line_end=pl.col("line_no").max(),
        reason=pl.lit(EXTRA_REASON),
        raw_text=pl.col("line").str.join("\n"),
    ))
    out = recs.join(inside, on=g).select(
        *g, "line_start", "line_end", "n_lines", "rank", "date_raw", "raw_text",
        "category_raw", "title", "authors_raw", "abstract", "unwrappable", "shift_reason", "n_unread")
    return out, extra


# An abstract's paragraph on a line of its own: a sentence's end closing it (a title's does not).
_PARAGRAPH_END = r"[.!?。！？][\"'’”)\]]*$"


def _is_paragraph(line: pl.Expr) -> pl.Expr:
    """Whether a line after an abstract reads as its next paragraph: prose of a sentence or more,
    ending on a stop, no names, no metadata, no line printed between records."""
    words = line.str.count_matches(rf"{_CJK_CHAR}|\S+")
    return ((words >= PROSE_ITEM_WORDS) & _reads_as_prose(line) & line.str.contains(_PARAGRAPH_END)
            & ~may_be_names(line) & ~is_metadata(line) & ~line.str.contains(BETWEEN_RECORDS)
            & ~line.str.contains(HEADER_LIKE)).fill_null(False)


def _with_paragraphs(recs: pl.DataFrame) -> pl.DataFrame:
    """`m` past the abstract's further paragraphs, and those (`paragraphs`, joined to it by "\\n").

    An abstract with paragraph breaks is written one line per paragraph: only its first was
    loaded, the rest quarantined as lines of no record (5.6 % of real DayDayArXiv abstracts).
    Only in records of lines longer than any wrap (no wrapped field goes on there), read five lines
    to a field, and only when every line after the abstract up to the next record reads as a
    paragraph (`_is_paragraph`): a line that may be names, a title or metadata among them is a
    record that lost its header (an orphan abstract has its title and names above it), and the
    lines stay quarantined as before."""
    after = pl.col("pieces").list.slice(pl.col("m") + 1, pl.col("cut").fill_null(pl.col("n") + 1) - pl.col("m") - 1)
    looked = (pl.col("by_lines") & ~pl.col("could_wrap") & pl.col("shift_reason").is_null() & ~pl.col("unwrappable")
              & (after.list.len() > 0))
    g = ["file_idx", "position"]
    found = recs.filter(looked).select(*g, lines=after.list.eval(pl.element().str.strip_chars_start(" "))).filter(
        pl.col("lines").list.eval(_is_paragraph(pl.element())).list.all())
    recs = recs.join(found.rename({"lines": "paragraphs"}), on=g, how="left", maintain_order="left")
    return recs.with_columns(paragraphs=pl.col("paragraphs").fill_null([])).with_columns(
        m=pl.col("m") + pl.col("paragraphs").list.len())


# A line ending in a list separator ("Ann Lee,", "Tevatron and", "Lee &") ends no title and no
# authors field: the text goes on on the next line.
_OPEN_END = r"(?:[,，;；、&]|(?i:\sand))\s*$"


# Three words in small letters ("Single walled carbon nanotubes exhibit advanced", "The complex
# Monoceros Loop region contains several"): a names line holds two at most ("de la", "van der").
_SMALL_WORDS = r"(?:^|\s)\p{Ll}{3,}(?:\s|[,.;:]|$)"


def _opens_prose(line: pl.Expr) -> pl.Expr:
    """Whether an abstract's first line reads as prose, not as what may be names."""
    prose = _reads_as_prose(line) | (line.str.count_matches(_SMALL_WORDS) >= 3)
    return (prose & ~may_be_names(line)).fill_null(False)


# Authors lines of a sure reading (a bound: every reading's lines are joined, a record of
# thousands of lines took minutes). Longer lists are quarantined.
MAX_AUTHOR_LINES = 12
# Longer than any title seen (185 characters in the realdata).
MAX_TITLE_CHARS = 300


def _split_by_names(recs: pl.DataFrame) -> pl.DataFrame:
    """Splits of wrapped records (m, pieces) read from what the lines say, not their lengths:
    arXiv's metadata is wrapped by its submitters' tools, at other widths for the title and the
    abstract, an abstract's first line indented, so a short line ends no field for certain, and
    a line of the abstract that looked short vetoed every split (85 of the Kaggle snapshot's 200).

    Every split whose authors may be names (`may_be_names`, loose) is a reading. A record is
    split when it has exactly one reading and that one is sure: its authors are a names line
    (`is_names_text`), the abstract opens with prose (`_opens_prose`) and the title
    does not end with a names list. A doubt quarantines the record, as before: a title's last
    line that may be a name, a names line cut over two lines (several readings), an abstract
    opening with what may be names or holding a line that may be (no sure one).
    → (file_idx, position, a, b, authors_raw)."""
    g = ["file_idx", "position"]
    # Lines that may be names, each alone, where a title of more lines than are read would put
    # them (the lines before, from the title's first, are short enough to be one): a sure
    # reading's abstract holds none after its first.
    lines = recs.select(*g, line=pl.col("pieces").list.eval(pl.element().str.strip_chars_start(" "))).explode("line")
    length = pl.col("line").str.len_chars().cast(pl.Int64)
    lines = lines.with_columns(title_before=length.cum_sum().over(g) - length - length.head(2).sum().over(g))
    names_at = lines.with_columns(may_be=(pl.col("title_before") <= MAX_TITLE_CHARS) & may_be_names(pl.col("line"))).group_by(
        g, maintain_order=True).agg(line_may_be_names="may_be")
    cand = recs.join(names_at, on=g).with_columns(
        a=pl.int_ranges(2, pl.min_horizontal(MAX_TITLE_LINES + 2, pl.col("m") - 1)))
    # (authors of one line more than a sure reading's are read too: a reading, never a sure one)
    last_b = pl.min_horizontal(pl.col("m"), pl.col("a") + MAX_AUTHOR_LINES + 2)
    cand = cand.explode("a").drop_nulls("a").with_columns(b=pl.int_ranges(pl.col("a") + 1, last_b))
    cand = cand.explode("b").drop_nulls("b")
    a, b = pl.col("a"), pl.col("b")
    last_title, last_names, first_abstract = _line(a), _line(b), _line(b + 1)
    cand = cand.with_columns(authors_raw=_join(pl.col("pieces").list.slice(a + 1, b - a))).with_columns(
        names=names_line(pl.col("authors_raw")))
    cand = cand.filter(may_be_names(pl.col("names")) & ~last_title.str.contains(_OPEN_END)
                       & ~last_names.str.contains(_OPEN_END))
    sure = (is_names_text(pl.col("names")) & _opens_prose(first_abstract) & ~may_be_names(last_title, lists_only=True)
            & (b - a <= MAX_AUTHOR_LINES) & ~pl.col("line_may_be_names").list.slice(b + 2, pl.col("m") - b - 1).list.any())
    cand = cand.with_columns(sure=sure.fill_null(False), n_readings=pl.len().over(g))
    return cand.filter(pl.col("sure") & (pl.col("n_readings") == 1)).select(*g, "a", "b", "authors_raw")


def _between_records_at_the_end() -> pl.Expr:
    """Lines after a record's fifth that read as BETWEEN_RECORDS with nothing else after them in
    the record (else the field goes on past them)."""
    between = (pl.col("j") >= N_LINES) & pl.col("text").str.contains(BETWEEN_RECORDS)
    last_other = pl.col("j").filter(~between).max().over("file_idx", "position")
    return between & (pl.col("j") > last_other)


def _unread_header(text: pl.Expr, next_text: pl.Expr, at_end: bool = True) -> pl.Expr:
    """A header HEADER does not read (HEADER_LIKE) where a record follows it: a category line next,
    or nothing (`at_end`: a header cut off with its record) and no sentence end. Prose wraps onto
    header-like lines too ("#1 on the Open LLM Leaderboard ...", an abstract ending "2025-12-31.");
    a line opening with "#", a number and a date (OPENS_AS_HEADER) is a header whatever follows."""
    code_next = next_text.str.contains(CATEGORY_LINE) | next_text.str.contains(NAMED_CODES)
    return ((text.str.contains(HEADER_LIKE) & code_next.fill_null(at_end & ~text.str.contains(r"[.!?;,]$")))
            | (text.str.contains(OPENS_AS_HEADER) & (text.str.len_chars() <= OPENS_AS_HEADER_MAX_CHARS)))


def _line(j: int | pl.Expr) -> pl.Expr:
    """A record's `j`-th non-blank line (0 the header), null past its end."""
    return pl.col("pieces").list.get(j, null_on_oob=True).str.strip_chars_start(" ")


def _no_abstract(line: pl.Expr, after: pl.Expr) -> pl.Expr:
    """Whether `line`, followed by `after`, cannot be an abstract: what may be names, or a few words
    of no prose above a longer line (a lower-case name, "danah Munos", or "Rémi Munos and danah
    Munos", below a title's second line)."""
    few_words = ((line.str.count_matches(r"\S+") < PROSE_ITEM_WORDS) & ~_reads_as_prose(line)
                 & (after.str.len_chars() > line.str.len_chars()).fill_null(False))
    return may_be_names(line) | few_words.fill_null(False)


def _goes_on(line: pl.Expr) -> pl.Expr:
    """Whether a title's line ends where no title does: a list separator, a word of prose ("... under",
    "... with", not "... animal welfare"), a colon or a dash."""
    return line.str.contains(_OPEN_END) | line.str.contains(rf"(?:\s(?:{_SHORT_PROSE_WORDS}|{_LONG_PROSE_WORDS}|or)|[:\-–—])$")


def _lone_name(line: pl.Expr) -> pl.Expr:
    """Whether `line` is one person's name of two words or more: no list, no status word ("Oral")."""
    names = names_line(line)
    return (is_names_text(names) & ~names.str.contains(LIST_SEPARATOR) & names.str.contains(r"\S\s+\S")).fill_null(False)


def _names_one_per_line(recs: pl.DataFrame) -> pl.DataFrame:
    """Readings of `names_moved` records as a one-line title above two or more names one per line
    (`_lone_name`, each with a given name or surname the name reference knows: "Distribution
    Shift" under "Deep Learning" is none), then the abstract's prose. Before, every name but the
    last was glued to the title. → (file_idx, position, a, names_end)."""
    from transforms.persons import reference_name_parts  # (persons is a later stage)

    g = ["file_idx", "position"]
    cand = recs.filter(pl.col("names_moved")).select(*g, "n", "cut", "pieces").with_columns(
        names_end=pl.int_ranges(4, pl.min_horizontal(pl.col("cut").fill_null(pl.col("n") + 1) - 1, MAX_AUTHOR_LINES + 3)))
    cand = cand.explode("names_end").drop_nulls("names_end")
    end = pl.col("names_end")
    lines = pl.col("pieces").list.slice(3, end - 2).list.eval(pl.element().str.strip_chars_start(" "))
    words = lines.list.eval(fold_key(pl.element()).str.extract_all(r"\p{L}+"))
    known = words.list.eval(pl.element().list.eval(
        pl.element().is_in(reference_name_parts("given")) | pl.element().is_in(reference_name_parts("surname"))).list.any())
    title = _line(2)
    return cand.filter(
        lines.list.eval(_lone_name(pl.element())).list.all() & known.list.all()
        & ~_goes_on(title)
        & ~_no_abstract(_line(end + 1), _line(end + 2)) & ~is_metadata(_line(end + 1))
    ).select(*g, a=pl.lit(2, pl.Int64), names_end=end.cast(pl.Int64))


def _out_of_place(recs: pl.DataFrame) -> pl.DataFrame:
    """Records with a line after their fifth (no lost header) whose five-line reading is out of
    place: `shift_reason` for those quarantined whole, `title_end` (the title's last line) for
    those read again with a title of two or three lines.

    Before, such a record kept its first five lines and the rest was stray text: a metadata line
    after the authors ("Comments: 9 pages", "DOI: ...", "Accepted at NeurIPS 2025") was loaded as
    the abstract, and a title on two lines above one name or "A and B" loaded the title's second
    line as the authors and the authors as the abstract; the real abstract went to quarantine.
    Now a metadata line where the abstract belongs quarantines the record whole (the warehouse
    has no field for it, and a loaded record's span would hold a line no field holds); a names
    line where the abstract belongs, or after it, has the record read as title lines, one names
    line and the abstract when exactly one such reading exists (a line longer than any wrap:
    the title's break is no wrapper's, so no line ends are known), else quarantined whole."""
    extra = (pl.col("n") >= N_LINES) & (pl.col("cut").is_null() | (pl.col("cut") > N_LINES))
    far = pl.col("by_lines") & ~pl.col("could_wrap")  # not wrapped: a line longer than any wrap width
    rows = recs.select(extra.arg_true()).to_series()
    far_rows = recs.select((extra & far).arg_true()).to_series()  # (the checks on these rows only)
    # (any label only where a line of prose, no names, follows: "Graphs: A Metric" may be a title's third line)
    line, after = _line(N_LINES - 1), _line(N_LINES)
    metadata = on_rows(recs, rows, is_metadata(line, any_label=False))
    if far_rows.len():  # the lines staged once, and their names check (costly) computed once
        far_recs = recs[far_rows].select(line=line, after=after).with_columns(names_after=may_be_names(pl.col("after")))
        # (or a short line of no names over a line longer than any wrap: an affiliation or a date,
        # "Department of Computer Science, ETH Zurich", "(Submitted on 26 Oct 2026)", above the
        # abstract, was loaded as the abstract)
        above_abstract = ((pl.col("line").str.len_chars() <= METADATA_MAX_CHARS)
                          & (pl.col("after").str.len_chars() > WRAP_MAX) & ~may_be_names(pl.col("line")))
        checks = far_recs.select(
            metadata=(is_metadata(pl.col("line")) | above_abstract) & ~pl.col("names_after"),
            moved=_no_abstract(pl.col("line"), pl.col("after")) | pl.col("names_after"))
        metadata = metadata.scatter(far_rows, metadata.gather(far_rows) | checks["metadata"])
        moved = pl.repeat(False, recs.height, dtype=pl.Boolean, eager=True).scatter(far_rows, checks["moved"].fill_null(False))
    else:
        moved = pl.repeat(False, recs.height, dtype=pl.Boolean, eager=True)
    recs = recs.with_columns(metadata=metadata, names_moved=moved & ~metadata)
    g = ["file_idx", "position"]
    # Candidate readings: the title ends on line 3 or 4 (two or three lines), one names line, the abstract.
    cand = recs.filter(pl.col("names_moved")).select(*g, "n", "cut", "pieces").with_columns(
        a=pl.lit([3, MAX_TITLE_LINES + 1])).explode("a")
    a = pl.col("a")
    cand = cand.filter(a + 2 < pl.col("cut").fill_null(pl.col("n") + 1)).filter(
        is_names_text(names_line(_line(a + 1)))
        & ~_no_abstract(_line(a + 2), _line(a + 3)) & ~is_metadata(_line(a + 2))
        & ~may_be_names(_line(a), lists_only=True)
        # (nor names and an abstract in the title: a record followed by one that lost its header,
        # category and title, "Ann Lee, Bo Chen" / its abstract, was read so, silently)
        & ~_is_paragraph(_line(a))
        & ~is_metadata(_line(3), any_label=False)  # "Comments: ..." between title and authors is no title line
        & ~_no_title_line(_line(3))
        & ~may_be_names(_line(a + 3))  # no names line after the abstract either
    )
    # (a title whose last line is a name above one item is a doubt, unless the line before goes on:
    # names one per line, "Zuo Ye" / "Gennian Ge", or a name above a line no field holds, "Belcour
    # Laurent" / "Oral"; not "... Plasticity and" / "Metacognition" / "Louis Mouchon")
    one_item = ~names_line(_line(a + 1)).str.contains(LIST_SEPARATOR)
    cand = cand.filter(~(may_be_names(_line(a)) & one_item & ~_goes_on(_line(a - 1)))).with_columns(names_end=a + 1)
    cand = pl.concat([cand.select(*g, "a", "names_end"), _names_one_per_line(recs)])
    unique = cand.group_by(g).agg(title_end=a.first(), names_end=pl.col("names_end").first(),
                                  n_readings=pl.len()).filter(pl.col("n_readings") == 1)
    recs = recs.join(unique.select(*g, "title_end", "names_end"), on=g, how="left")
    # A title read from more than one line holding a line no title holds (`_no_title_line`:
    # "stat.ML" under "cs.LG", "arXiv:2606.11111", "[pdf] [html] [other]")
    title_end = pl.coalesce("title_end", "a").fill_null(2)
    # (or a line of arXiv's metadata, as a page prints them beside a paper: "Comments: 16 pages",
    # "Subjects: hep-ph", "[v1] Mon, 2 Apr 2007 ..." above or under the title, was glued into it,
    # hunt 51; a hard-wrapped title that goes on "Subjects: A Survey" is quarantined with them, as
    # one on lines of its own was)
    not_title = pl.any_horizontal(
        [(_no_title_line(_line(j)) | _line(j).str.contains(_TITLE_BLOCK_METADATA).fill_null(False)) & (title_end >= j)
         for j in range(2, MAX_TITLE_LINES + 2)])
    return recs.with_columns(shift_reason=pl.when("metadata").then(pl.lit(METADATA_REASON))
                             .when(extra & not_title).then(pl.lit(NOT_TITLE_REASON))
                             .when(pl.col("names_moved") & pl.col("title_end").is_null()).then(pl.lit(SHIFT_REASON)))


# Lines no title holds, where a reading puts title lines: a category line of arXiv's codes (a
# cross-list written one per line, "stat.ML" under "cs.LG"), a page's links ("[pdf] [html]
# [other]"), an identifier or a link alone ("arXiv:2606.11111", "2606.26612", "https://...").
# Each was glued into the title (hunt 50: "stat.ML NaLA: ...", "arXiv:2606.11111 DOPD: ...",
# "SIMAX: ... [pdf] [html] [other]"), which then won over the clean title of the paper's other
# listings, or split the paper from them. Only the taxonomy's codes (`taxonomy_code`): a title's
# wrapped line may be an acronym ("NOMA-ISAC", "(AURORA-AI)", "... Autoencoder (PS-VAE)"), which
# a category line's looser codes read as codes; and not a labelled line: it may open "data:
# time-varying ...".
_PAGE_LINKS = r"^(?:\[(?i:pdf|html|other|ps|abs|src|bib|bibtex|code|slides|video)\]\s*)+$"
_ID_ALONE = rf"^(?i:arxiv:\s*)?{_ARXIV_ID}(?:v\d+)?$|^(?i:(?:https?://|www\.|doi\.org/)\S+|10\.\d{{4,9}}/\S+)$"


# A submission history line: "[v1] Mon, 2 Apr 2007 19:18:42 GMT (1082kb)", "(Submitted on 2 Apr 2007)".
_SUBMISSION_LINE = r"^\[v\d+\]\s+\p{L}{3},?\s+\d|^\(?(?i:submitted\s+on)\s+(?:\p{L}{3},?\s+)?\d{1,2}\s+\p{L}{3}"
_TITLE_BLOCK_METADATA = _ARXIV_META + "|" + _SUBMISSION_LINE


def _no_title_line(line: pl.Expr) -> pl.Expr:
    from transforms.categories import taxonomy_code  # (categories imports the formats)

    # the codes of a category-shaped line: those in brackets after a name, or every word
    named = pl.when(line.str.contains(NAMED_CODES)).then(line).str.extract_all(rf"\(\s*{_CODE}\s*\)")
    bare = pl.when(line.str.contains(CATEGORY_LINE)).then(line).str.extract_all(_CODE)
    codes = pl.coalesce(named, bare).list.eval(taxonomy_code(pl.element().str.strip_chars("( )")))
    return ((codes.list.all() & (codes.list.len() > 0)) | line.str.contains(_PAGE_LINKS)
            | line.str.contains(_ID_ALONE)).fill_null(False)


# Words of prose that no names line holds (lower-case: a name's particles are not among them). The
# short ones are surnames too, typed in small letters ("an li", "jae in", "minh to"): they count after
# a blank only, and not ending an item (`_SURNAME_PROSE_WORD`). The others (none is a word of the
# 64,795 names in ../shared/realdata, in any case), and "e.g.", "i.e.", count at an item's start too,
# after a separator or "(" ("..., which transforms", "(e.g."): prose lists were names.
_SHORT_PROSE_WORDS = "a|an|the|of|to|in|for|with|on|by|from|as|at|into|via|using|we|our|is|are|this|that|can"
_LONG_PROSE_WORDS = (r"its|they|their|these|those|have|has|had|was|were|which|where|also|not|but|yet|while|whereas"
                     r"|between|through|across|without|within|under|over|onto|upon|among|during|often|thereby"
                     r"|including|e\.g\.|i\.e\.")
PROSE_WORDS = rf"(?:(?:^|\s)(?:{_SHORT_PROSE_WORDS})|(?:^|[\s,(])(?:{_LONG_PROSE_WORDS}))(?:\s|,|\.|$)"
PROSE_WORD_SET = frozenset(f"{_SHORT_PROSE_WORDS}|{_LONG_PROSE_WORDS}".replace("\\.", ".").split("|"))


# A list of short items (a names line's shape, lower case allowed): 1 to 5 words of letters each,
# a nickname in parentheses among them ("Xiao Shi (Gary) Zhongren").
_SHORT_ITEM = r"[\p{L}\p{M}'’.\-()]+(?: [\p{L}\p{M}'’.\-()]+){0,4}"
LIST_SHAPE = r"^" + _SHORT_ITEM + r"(?:," + _SHORT_ITEM + r")*$"


# A surname that is a short prose word in lower case, ending its item: "sohyun an", "minh to", "xiang we".
_SURNAME_PROSE_WORD = rf"(\p{{L}}[\p{{L}}\p{{M}}'’.\-]*) (?:{_SHORT_PROSE_WORDS})(,|$)"


# Small letters in a names line are a name's particles ("van der", "de la": two in a row at most) or
# a name typed in small letters, an item of its own ("danah boyd", "seyed amir hossein saberi"). So
# three small words in a row (three letters or more, no particle) after a capitalised word of their
# item are prose: "Complex unmanned systems comprising", "In today's fast-paced information era".
_SMALL_WORD = r"\p{Ll}[\p{L}\p{M}'’\-]{2,}"
_SMALL_RUN_AFTER_CAPITAL = rf"(?:^|,)[^,]*\p{{Lu}}[^,]*\s{_SMALL_WORD}(?:\s+{_SMALL_WORD}){{2}}"
_PARTICLE = rf"(^|[\s,])(?:{PARTICLES})([\s,]|$)"


def _small_words_after_a_capital(items: pl.Expr) -> pl.Expr:
    """Whether a list's `items` (one "," between each two) hold a run of small words after a
    capitalised word of their item (above)."""
    # particles out of the runs (twice: a match takes the blank after it, "van den")
    items = items.str.replace_all(_PARTICLE, "$1~$2").str.replace_all(_PARTICLE, "$1~$2")
    return items.str.contains(_SMALL_RUN_AFTER_CAPITAL)


def may_be_names(text: pl.Expr, lists_only: bool = False) -> pl.Expr:
    """Looser than `is_names_text`, to refuse a split, never to make one: also a list with
    lower-case names ("Rizvi-Martel, danah Munos and 1 more"): short items between list
    separators, no word of prose, and a list ending, a capitalised name among the items, a cut
    after a separator, or no capital at all; or a list's ending alone ("and 1 more", a wrapped names line's last line). `lists_only`: a lone capitalised phrase (a title's last line, "Regime")
    does not count."""
    # a names line cut by a wrap (it ends in a separator or inside its ending): the rest decides
    cut = text.str.contains(UNFINISHED_ENDING)
    text = text.str.replace(UNFINISHED_ENDING, "").str.strip_chars_end(" ,;，；、&")
    ending = text.str.contains(LIST_ENDING)
    is_list = text.str.contains(",", literal=True) | ending | cut
    items = text.str.replace(LIST_ENDING, "").str.replace_all(LIST_SEPARATOR, ",")
    a_name = items.str.split(",").list.eval(pl.element().str.contains(r"^" + NAME_ITEM + r"$")).list.any()
    # A list cut after a separator is a wrapped names line's shape even when no item is a whole
    # capitalised name ("Jean-Pierre boyd, j. müller-lüdenscheidt,": hypothesis found it ending a title).
    loose = (
        is_list
        & items.str.contains(LIST_SHAPE)
        & ~name_words_blanked(items.str.replace_all(_SURNAME_PROSE_WORD, "$1$2"), PROSE_WORD_SET).str.contains(PROSE_WORDS)
        & ~_small_words_after_a_capital(items)
        & (ending | a_name | cut | ~text.str.contains(r"\p{Lu}"))
    )
    # a line that is only a list's ending ("and 1 more", "et al.", a cut "and 2"): the rest of a
    # wrapped names line
    only_ending = (ending & (items.str.strip_chars(" ,;") == "")) | (cut & (text.str.strip_chars() == ""))
    strict = is_names_text(text) & (is_list if lists_only else pl.lit(True))
    return (strict | loose | only_ending).fill_null(False)


def _codes_of_named(lines: pl.Series) -> pl.Series:
    """"Machine Learning (cs.LG); Statistics Theory (math.ST)" -> "cs.LG; math.ST", "cs.CV
    (eess.IV)" -> "cs.CV; eess.IV"; other lines
    as they are. The patterns run on the lines holding a parenthesis only (few)."""
    from transforms.categories import undotted_codes  # (categories imports the formats)

    line = pl.col("category_raw")
    # Named codes marked; a bare word is a code when dotted or one the taxonomy knows ("hep-th"):
    # a name's hyphenated word in one case ("human-computer interaction (cs.HC)") is none.
    tokens = line.str.replace_all(rf"\(\s*({_CODE})\s*\)", " \x1e${1} ").str.extract_all(r"[^\s;,:()]+")
    word = pl.element()
    is_code = (word.str.starts_with("\x1e") | word.str.contains(f"^{_DOTTED_CODE}$")
               | word.str.to_lowercase().is_in(undotted_codes()))
    codes = tokens.list.eval(word.filter(is_code).str.strip_prefix("\x1e")).list.join("; ")
    return on_rows_where(lines, lines.str.contains("(", literal=True), lambda rows: rows.to_frame("category_raw").select(
        pl.when(line.str.contains(NAMED_CODES)).then(codes).otherwise(line)).to_series())


def _join(pieces: pl.Expr) -> pl.Expr:
    """A field's lines as one line: `piece` holds each line with the space before it (none
    after a wrapper's hyphen break)."""
    return pieces.list.join("").str.strip_chars_start(" ")


def _with_shifted(records: pl.DataFrame) -> pl.DataFrame:
    """`shifted` (see `_shifted`), computed only where a cheap look finds a field out of shape
    (few records): the names checks are costly on every abstract."""
    # The look reads the line as written: its affiliations and TeX only add to what it flags,
    # and the names line is read on the flagged rows alone (on every row: 5 % of a listing's parse).
    authors, abstract = pl.col("authors_raw"), pl.col("abstract")
    look = records.select(authors.str.contains(f"{PROSE_WORDS}|{_PROSE_SIGNS}|{_SENTENCE_END}|{_LONG_RUN}")  # one pass
                          | (abstract.str.len_chars() < SHORT_ABSTRACT_CHARS)).to_series().fill_null(False)
    # abstracts without a word of prose no names line holds: each word looked for only in the
    # abstracts that lack the ones before (nearly every abstract holds " the ")
    rows = pl.int_range(records.height, dtype=pl.UInt32, eager=True)
    for word in _PROSE_LITERALS:
        rows = rows.filter(~records["abstract"].gather(rows).str.contains(word, literal=True).fill_null(True))
    flagged = look.arg_true().append(rows).unique()
    named = records[flagged].with_columns(authors_raw=names_line(authors))  # once, not in each pattern
    shifted = named.select(_shifted(authors)).to_series().fill_null(False)
    # An abstract that is a metadata line alone ("Comments: 9 pages"): the abstract is missing or
    # moved (its abstract is short: flagged). It was loaded as the abstract.
    metadata = named.select(is_metadata(abstract, any_label=False)).to_series() & ~shifted
    reason = records["shift_reason"].clone()
    if metadata.any():
        reason = reason.scatter(flagged.filter(metadata), METADATA_REASON)
    return records.with_columns(shifted=pl.repeat(False, records.height, dtype=pl.Boolean, eager=True)
                                .scatter(flagged, shifted), shift_reason=reason)


def _shifted(authors: pl.Expr) -> pl.Expr:
    """A record whose fields are taken one per line, yet a line is missing and another one too
    many (no authors line and a two-line abstract, a blank authors line and a "Comments:" line, a
    wrapped title cut off before its abstract): every field after the gap moved up one. Seen in
    the authors, which then are no names list and read as prose, or in the abstract, which reads
    as a list of names, or as a name while the authors do not (a title's last line, "Distribution
    Shift", reads as a name too), or in both: authors that are no names and an abstract too short
    to be one (a title's second line above one lower-case name). None of the bench corpora's
    listings were flagged when this was written (100k of both shapes, a fifth of 1M). `authors`:
    the names line without its affiliations."""
    abstract = pl.col("abstract")
    # words; a CJK character counts as one (their prose has no spaces: every CJK abstract was "short")
    short_abstract = abstract.str.count_matches(rf"{_CJK_CHAR}|\S+") < PROSE_ITEM_WORDS
    # (authors with no word at all, "—, ...", are no names and no shift: cleaning says so)
    prose_authors = ~may_be_names(authors) & authors.str.contains(r"\p{L}{2}") & (_reads_as_prose(authors) | short_abstract)
    names_abstract = (may_be_names(abstract, lists_only=True) | (is_names_text(abstract) & ~is_names_text(authors))) & (
        ~abstract.str.contains(ONE_LINE_ABSTRACT))  # "Withdrawn" under "yu chen, Jing Lian" is no shift
    return (prose_authors | names_abstract).fill_null(False)


# Longer than any one name: the longest seen in the bench corpora has 8 words.
PROSE_ITEM_WORDS = 10
_LONG_RUN = rf"[^,;，；、&\s]+(?:\s+[^,;，；、&\s]+){{{PROSE_ITEM_WORDS - 1}}}"  # that many words, no separator
# The last word, not capitalised, before a stop ("fast}.", not "J." or "Jr."): a sentence's end.
_SENTENCE_END = r"(?:^|\s)[^\s\p{Lu}]\S*[.!?:。．！？]$"  # CJK stops too: "界限。"
SHORT_ABSTRACT_CHARS = 200  # PROSE_ITEM_WORDS words are shorter
_CJK_CHAR = r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]"
_PROSE_LITERALS = (" the ", " of ", " we ", " in ", " to ", " for ")  # PROSE_WORDS no names hold: no regex
# What no names line holds either: a sentence's capitalised opening; a link or TeX math, once
# `names_line` has left out affiliations and superscript marks ("Ann Lee$^1$", "Bo Chen (https://...)").
# Looked for outside lists only before: half an abstract cut after a comma, "Training https://...
# bounds $O(\log n)$ ... theory,", loaded as the authors (hypothesis found it).
_PROSE_SIGNS = r"^(?:We|Our|This|These|Here|In this)\s|https?://|www\.|\$"


def _reads_as_prose(text: pl.Expr) -> pl.Expr:
    """A word no names line holds, a sentence's opening or end, or an item longer than any name."""
    text = text.str.replace(LIST_ENDING, "")
    items = text.str.replace_all(LIST_SEPARATOR, ",").str.split(",")
    longest = items.list.eval(pl.element().str.count_matches(r"\S+")).list.max()
    # (a name's words of prose, typed in small letters, are none: "pedro a. ortega", "jae in kim")
    named = name_words_blanked(text.str.replace_all(LIST_SEPARATOR, ", "), PROSE_WORD_SET)
    return named.str.contains(PROSE_WORDS) | text.str.contains(f"{_PROSE_SIGNS}|{_SENTENCE_END}") | (longest >= PROSE_ITEM_WORDS)


def _with_dates(records: pl.DataFrame) -> pl.DataFrame:
    parts = pl.col("date_raw").str.extract_groups(r"^(?<month>\p{L}+)\.?\s+(?<day>\d{1,2}),\s*(?<year>\d{4})$")
    month = parts.struct.field("month").str.to_lowercase().replace_strict(
        MONTHS, default=None, return_dtype=pl.String)
    iso = pl.concat_str(parts.struct.field("year"), month, parts.struct.field("day"), separator="-")
    day = iso.str.to_date("%Y-%-m-%-d", strict=False)
    last_position = pl.col("position").max().over("file_idx")
    return records.sort("file_idx", "position").with_columns(
        listed_on=pl.when(day.is_between(EARLIEST_LISTING, LATEST_LISTING)).then(day),
        is_last=pl.col("position") == last_position,
    )


def _reason() -> pl.Expr:
    n = pl.col("n_lines").cast(pl.String)
    return (
        pl.when((pl.col("n_lines") < N_LINES) & pl.col("is_last"))
        .then(pl.lit("record cut off at end of file: ") + n + pl.lit(" of 5 lines"))
        .when(pl.col("n_lines") < N_LINES)
        .then(pl.lit("record has ") + n + pl.lit(" of 5 lines (header, category, title, authors, abstract)"))
        .when(pl.col("shift_reason").is_not_null())
        .then(pl.col("shift_reason"))
        .when(pl.col("unwrappable"))
        .then(pl.lit(WRAP_REASON))
        .when(pl.col("shifted"))
        .then(pl.lit(SHIFT_REASON))
        .when(pl.col("rank").is_null())
        .then(pl.lit("listing rank is not a number"))
        .when(pl.col("listed_on").is_null())
        .then(pl.lit("impossible listing date: ") + pl.col("date_raw"))
        .when(~pl.col("category_raw").str.contains(CATEGORY_LINE))
        .then(pl.lit("second line is not an arXiv category code"))
    )
