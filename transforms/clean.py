"""Clean parsed records into listings: authors split and keyed, categories typed, paper keys.

Input: the records of `transforms.formats` with the file each came from. Output: one row per
listing, the columns of `schemas.frames.CleanListing`, plus quarantine rows for records that
cannot be trusted (undecodable bytes, no usable author or abstract).
"""

from __future__ import annotations

import re
import unicodedata

import polars as pl

from schemas.frames import AUTHOR_TOTAL_MAX
from transforms.categories import ARXIV, CONFERENCE
from transforms.decode import REPLACEMENT
from transforms.formats import listing
from transforms.formats.search import area_list
from transforms.formats.common import (
    AND_MORE,
    BRACKETED_ET_AL,
    DECLARED_TOTAL,
    DIGIT_GROUP_SEPARATORS,
    ET_AL,
    GLUED_MARKS,
    LOOSE_MARKS,
    MORE_COUNT_WORDS,
    PARTICLES,
    SCRIPT_COMMAS,
    SCRIPT_JOINERS,
    as_quarantine,
    names_line,
)
from transforms.persons import reference_name_parts as known
from transforms.persons import reference_surname_odds
from transforms.text import fold_key, on_rows_where, text_key

# "A, B, C…", "A, B, ..., Z": a list cut short (anywhere), total unknown.
ELLIPSIS = r"\s*(?:…|\.{3,})\s*"
TRAILING_ELLIPSIS = r"\s*[,，;；、]?\s*(?:…|\.{3})\s*$"  # the last three dots: "Anderson, J...."
# Words that join two names: "A and B", "A & B", "A, B, and C", German "und", French "et".
# Only as whole words between spaces: never inside a name (Anderson, Alexandra, Ferrand).
JOINERS = r"and|und|et"
# A list cut after its joiner ("…, Axel Laborieux, and", "Giannis Daras and", "A, B, et", "A, B &"), or
# after a small word that opens a phrase, not a name (", with", ", the"): a name was lost. Read, the
# word was an author ("and", "Giannis Daras and") and the list complete (hunt 52).
DANGLING_END = (rf"(?:(?:^|[\s,，;；、])(?i:{JOINERS})|\s*&|\s(?:{SCRIPT_JOINERS})|[,，;；、]\s*(?:with|the|for|of|by|from|or|nor))"
                r"[\s.,，;；、]*$")
# German nobility's "von und zu" ("Hans von und zu Liechtenstein"): "und" inside a name, not
# between two (it was split into "Hans von" and "zu Liechtenstein").
VON_UND_ZU = r"(?i)\b(von)\s+und\s+(zu)\b"
# Between names: , ， 、(ideographic comma) ; ； and the joiners, ", and" as one separator.
# And a middle dot or bullet between spaces, as conference sites print lists ("Kevin Wang · Hongqian
# Niu · Didong Li" was one author); not one inside a name ("Jean·Pierre").
# So does a bar between spaces ("Ann Lee | Bo Chen | Carl Wu" was one person); not a slash, which
# may join one person's two spellings ("Wei Zhang / 张伟").
NAME_SEPARATORS = (rf"(?i)\s*[,，、;；{SCRIPT_COMMAS}]\s*(?:(?:{JOINERS})\s+|&\s*)?|\s+(?:{JOINERS})\s+|\s*&\s*|\s+[·•∙⋅|｜]\s+"
                   rf"|\s+(?-i:{SCRIPT_JOINERS})\s+")  # in small letters only: "И", "Та" are initials, names
# Separators that look like a comma and that no name holds: the small and the vertical comma "﹐" "︐",
# the low-9 quote "‚" before a space (Windows-1252's 0x82), the halfwidth, small and vertical
# ideographic commas, the small and vertical semicolons. Not read, "Oliver Zahn‚ Matt Beton‚ Simran
# Chana" was one person, the list complete (hunt 52). And a middle dot or bullet without spaces between
# names of two words or more each ("Pavan Mantripragada·Siddhanth Deshmukh·Eadom Dessalene"), never
# one inside a name: a part of one word stands beside it there ("Jean·Pierre Dupont", "Mairidan·Wushouer",
# "约翰·菲茨杰拉德·肯尼迪").
_COMMA_LOOKALIKES = str.maketrans({"﹐": ",", "︐": ",", "､": "、", "﹑": "、", "︑": "、", "﹔": ";", "︔": ";"})
_LOOKALIKE_SEEN = "[﹐︐､﹑︑﹔︔‚·・•∙⋅]"
_DOTS = re.compile("[·・•∙⋅]")
_BETWEEN_ITEMS = re.compile("([,;，；、])")
# A sentence's period after the last name ("…, Carl Wu."), in a list with no other period: not the
# name's ("Carl Wu." became the display spelling of every Carl Wu). A list with periods elsewhere
# abbreviates ("Petrov A., Ivanov Yu."), and a suffix keeps its period ("John Smith, Jr.").
CLOSING_PERIOD = r"(\p{L}{2,})\.\s*$"
# Chinese names between spaces, as Chinese sites write lists ("张伟 李娜 王芳" was one person):
# three or more, each a common surname (the commonest few hundred, simplified and traditional;
# the top hundred alone are about 85 % of people in China) and one or two characters more. Not two names: "今泉 允聡" is one Japanese name,
# surname and given name. Not other words: "张伟 清华大学 计算机系", "深度学习 神经网络 图像分割".
_CHINESE_SURNAMES = ("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任"
                     "沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付傅方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔"
                     "向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单"
                     "季裴霍涂成苗谷盛曲翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦"
                     "戚岑景党宫费卜冷晏席卫米柏宗瞿桂全佟应臧闵苟邬边卞姬师和仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝"
                     "張劉陳楊黃趙吳週孫馬鄭謝韓馮鄧蔣蔡葉蘇魏呂沈盧鍾譚陸賈韋鄒龔錢嚴莫賀顧許羅歐陽聶")
_COMPOUND_SURNAMES = "欧阳|歐陽|司马|司馬|上官|诸葛|諸葛|东方|東方|皇甫|尉迟|尉遲|公孙|公孫|慕容|令狐|长孙|長孫|夏侯|宇文"
_CHINESE_NAME = rf"(?:(?:{_COMPOUND_SURNAMES})|[{_CHINESE_SURNAMES}])\p{{Han}}{{1,2}}"
HAN_NAMES_BY_SPACES = rf"^\s*{_CHINESE_NAME}(?:[ \u3000]+{_CHINESE_NAME}){{2,}}\s*$"
ABBREVIATION_LAST = r"(?i)(?:^|[\s,])(?:jr|sr|st)\.\s*$"
# Generational suffixes: "John Smith, Jr." is one person. Not "Junior" or "Senior" (a given name,
# a surname: Andrew Senior), not "I" or "V" (initials), not lower-case numerals ("Ii" is a surname).
SUFFIX = r"(?:(?i:jr|sr)\.?|II|III|IV)"
# A suffix standing alone between separators belongs to the name before it: "John Smith, Jr.,
# Ann Lee" → "John Smith Jr., Ann Lee" (the separator after it is kept; no look-ahead in Polars).
SUFFIX_ITEM = rf"\s*[,，]\s*({SUFFIX})(\s*(?:[,，;；、&]|$)|\s+(?i:{JOINERS})\s)"
BARE_SUFFIX = rf"^{SUFFIX}$"  # one left at the head of a list has no name to belong to
# A learned society's grade, an item of its own after a name as IEEE and ACM papers print it
# ("Ann Lee, Member, IEEE, Bo Chen, Senior Member, IEEE", "IEEE Fellow", "FIEEE", "Fellow, ACM"):
# read as names, "IEEE" was the top author, co-author of every such paper.
_GRADE = r"(?:(?:Life|Senior|Student|Graduate\s+Student|Associate|Honorary|Distinguished|Emeritus)\s+)*(?:Member|Fellow)"
_SOCIETY = r"IEEE|ACM|SIAM|AAAI|AAAS|AMS|APS|ASA|IMS|OSA|Optica|SPIE|IET|IAPR|INFORMS|EURASIP|ISCA|AIAA|ASME|IFAC"
SOCIETY_GRADE = rf"^(?:{_GRADE}(?:,?\s+(?:{_SOCIETY}))?|(?:{_SOCIETY})(?:\s+{_GRADE})?|(?:F|SM|M|LF|LSM|S|GS)IEEE)\.?$"
# A lone small letter between names: an affiliation mark that lost its superscript ("Jiayun
# Panga,b, Ahmed M. Zaitounb"); which names hold one glued ("Panga") cannot be read: quarantined.
LETTER_MARK_ITEM = r"^\p{Ll}$"
# Titles and degrees around a name, and a contact address: "Prof. Dr. Hans Müller", "Dr Anna
# Schmidt", "Hans Müller PhD", "Anna Schmidt, Ph.D.", "Hans Müller <hans@ethz.ch>". None is part
# of the person's name: kept, they made other people ("prof dr hans muller", a person "Ph.D.").
# Not "MD" (initials in "Lee MD", Vancouver style), not "Sir" (a given name too).
# Titles may run together ("Assoc. Prof.", "Prof.Dr.", "Dipl.-Ing.", "Priv.-Doz. Dr.", "Dr. med.",
# "Prof. (Dr.)", "Professor Emeritus"); the short ones only with their period ("Nat Friedman").
HONORIFICS = (r"^(?:(?:Prof|Professor|Dr|Mr|Mrs|Ms|Mx|PROF|DR|Associate|Assistant|Emeritus|Emerita)(?:\.[\s\-]*|[\s\-]+)"
              r"|(?:Assoc|Asst|Dipl|Priv|Doz|Ing|med|habil|rer\.\s?nat|phil)\.[\s\-]*|\((?:Dr|Prof)\.?\)\s*)+")
# A degree closes a name or stands alone; one in capitals ("MBA", "FRS") only after a name with a
# small letter in it: "JEAN MBA" is Jean Mba ("JOHN SMITH PhD" still holds a degree).
_DEGREE = r"Ph\.?\s?D|D\.?\s?Phil|M\.?\s?Phil|M\.?\s?Sc|B\.?\s?Sc|D\.?\s?Sc"
# Post-nominal credentials as medical and clinical lists print them, each its own item after the
# name ("John Smith, MD, MPH, Jane Doe, RN"): read as items, "MD" was a top author and every
# position after it shifted. In capitals as written (case matters: "Ma", "Do" are surnames); as an
# item of their own only, once the list's shape is read: in "Surname, Initials" pairs ("Jones, MD",
# "MA, Li", "Van Dyke, M.D.") they are initials or a surname, and "Ann Lee MD" may be Vancouver's.
_CREDENTIAL = (r"MD|DO|RN|NP|PA-C|APRN|CRNA|BSN|MSN|DNP|MPH|MSPH|MHS|MS|MA|BA|BS|MEd|EdD|PsyD|PharmD|DrPH"
               r"|DDS|DMD|DVM|DPT|MBBS|MBChB|MBBCh|BMBS|FRCPC?|FRCSC?|FRACP|FRACS|FACS|FACP|FACC|FAAP|FAHA"
               r"|FESC|FRCR|FRCPath|FMedSci|FREng|FRSE|MRCP|MRCS|MRCGP|ScD|JD|LLM|MSW|LCSW|CCRN"
               r"|F(?:RC|AC|AA|RA)[A-Z]{1,4}|M(?:RC|FPH)[A-Z]{0,3}|[FM]RCPsych|BPharm|MPharm|RPh|PGCert|PGDip|DPhil|MPhil")  # fellowships, members
_DOTTED_CREDENTIAL = (r"M\.\s?D|D\.\s?O|R\.\s?N|M\.\s?P\.\s?H|M\.\s?S|M\.\s?A|B\.\s?A|B\.\s?S|D\.\s?D\.\s?S"
                      r"|D\.\s?M\.\s?D|Pharm\.\s?D|Dr\.\s?P\.\s?H|Sc\.\s?D|J\.\s?D")
DEGREES = (rf"^(?:(.*\p{{Ll}}.*?)\s*,?\s+(?:MBA|FRS)|(.*?)\s*,?\s+(?:{_DEGREE})"
           rf"|(?:MBA|FRS|{_DEGREE}|{_CREDENTIAL}|{_DOTTED_CREDENTIAL}))\.?$")
EMAIL = r"\s*[<(\[]?(?:mailto:)?[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+[>)\]]?"
# An ORCID iD after a name, bare or as its address: "Ann Lee 0000-0002-1825-0097", "Ann Lee
# https://orcid.org/0000-0002-1825-009X", "Ann Lee ORCID: 0000-…" (in parentheses it was dropped
# with the affiliations). Kept, it made the name another person.
ORCID = r"\s*(?i:orcid(?:\s*id)?\s*:?\s*)?(?:https?://)?(?:orcid\.org/)?\d{4}-\d{4}-\d{4}-\d{3}[\dX]"
# "Munos, Rémi; Valko, Michal": with semicolons between names, a comma inside one is "Last, First"
# ("Smith Jr., John" and "Smith, John Jr." once a suffix joined its name: "John Smith Jr.").
SEMICOLON_LIST = r"[;；]"
SEMICOLON_SEPARATORS = rf"(?i)\s*[;；、]\s*(?:(?:{JOINERS})\s+|&\s*)?|\s+(?:{JOINERS})\s+|\s*&\s*"
LAST_FIRST = rf"^\s*([^,，]+?)\s*[,，]\s*([^,，]+?)(?:\s+({SUFFIX}))?\s*$"
# A whole line that is one "Surname, Given" pair: "Smith, John", "van der Berg, Anna", "Li, J. R.".
# Two single tokens ("Smith, Jones") could also be two one-word names; a listing names people
# in full, so a bare one-word author is rarer than the bibliography form: one person (also
# before "et al.": "Smith, J. et al."). Any other list form (a third item, "and", "&", a
# semicolon, a first item of two words such as "Ann Lee, Bo") is a list, never Last, First.
# A suffix may follow either part ("Smith Jr., John", "Smith, John Jr."): the given part takes a
# second word only when that word is not the suffix (lazy).
_TOKEN = r"[^\s,，;；、&]+"
SINGLE_LAST_FIRST = (
    r"^((?:(?:" + PARTICLES + r")\s+)*" + _TOKEN + r")(?:\s+(" + SUFFIX + r"))?\s*,\s*"
    r"(" + _TOKEN + r"(?:\s+" + _TOKEN + r")??)(?:\s+(" + SUFFIX + r"))?$"
)
# Bibliography lists of "Surname, Initials" between commas: "Smith, J., Jones, B. R. and Brown,
# C.-P." is three people (read as a list, it was six: "Smith", "J.", ...). An item of initials
# alone is no name, so the pairs are sure.
_SURNAME = r"(?:(?:" + PARTICLES + r")\s+)*" + _TOKEN
_INITIALS = r"\p{Lu}\.(?:[\s\-]?\p{Lu}\.)*"
INITIALS_PAIR = rf"({_SURNAME})\s*,\s*({_INITIALS})"
INITIALS_PAIRS = rf"^{INITIALS_PAIR}(?:\s*(?:,\s*(?:(?i:and)\s+|&\s*)?|\s+(?i:and)\s+|\s*&\s*){INITIALS_PAIR})+\s*,?$"
# BibTeX's "Smith, John and Doe, Jane": one-word surnames (particles aside), each with its given
# names after a comma, between "and"s. Read as a list, it was four people; read as a semicolon list
# (which splits at "and" too), each item is a "Last, First".
_GIVEN = _TOKEN + r"(?:\s+" + _TOKEN + r"){0,2}"
BIBTEX_LIST = rf"^{_SURNAME}\s*,\s*{_GIVEN}(?:(?:\s+(?i:and)\s+|\s*&\s*){_SURNAME}\s*,\s*{_GIVEN})+$"  # or "&"
# "Smith, John, Doe, Jane": one-word items in pairs, each a "Surname, Given". Read as a list, it
# was four people ("Smith", "John", ...). Four one-word names are rare in a listing, but the
# pairs are read only when the reference confirms them (`_confirmed_pairs`): mononyms stay a list.
LAST_FIRST_PAIR = rf"({_SURNAME})\s*,\s*({_TOKEN})"
_PAIR_GAP = r"\s*(?:,\s*(?:(?i:and)\s+|&\s*)?|\s+(?i:and)\s+|\s*&\s*)"
LAST_FIRST_PAIRS = rf"^{LAST_FIRST_PAIR}(?:{_PAIR_GAP}{LAST_FIRST_PAIR})+\s*$"
# "WANG Jiaxu", "ALLGEUER Philipp": the surname first in capitals, as people write it on OpenReview
# profiles (conference search pages), the given names after it. Read as written, the key was
# "wang jiaxu" beside the listing's "Jiaxu Wang": another person, and the paper loaded twice.
SURNAME_FIRST = r"^(\p{Lu}{2,})((?:\s+\p{Lu}\p{Ll}+(?:-\p{Lu}?\p{Ll}+)?){1,2})$"
SURNAME_FIRST_IN_LIST = r"(?:^|[,;，；、&]\s*)\p{Lu}{2,}\s+\p{Lu}\p{Ll}"  # a list that may hold one
# Initials glued to a word ("J.P.Hague", "A.Smith", "N.d'Ambrumenil", "J.-P.Dupont", as old arXiv
# records write names) are a whole name: a list holding one is a list of names, never of "Last,
# First" pairs ("J.P.Hague, N.d'Ambrumenil" was one person "N.d'Ambrumenil J.P.Hague", "A.Smith,
# B.Jones, C.Brown, D.White" two). Not initials alone ("Smith, J.P.", "Ivanov, A.Yu.": a period closes them).
GLUED_INITIALS_NAME = r"(?:^|[,，;；、&]\s*)(?:\p{Lu}\.-?)+\p{L}[\p{L}'’\-]+(?:\s|[,，;；、&]|$)"
# The glued word of one item ("Hague" of "J.P.Hague"). It makes a whole name only when it may be a
# surname: not a given name the reference knows ("J.-Pierre" completes "Dupont, J.-Pierre"), nor
# an initial of two letters without its period, as Russian names write them ("Ivanov, A.Yu").
GLUED_WORD = r"^(?:\p{Lu}\.-?)+(\p{L}[\p{L}'’\-]+)(?:\s|$)"
INITIAL_DIGRAPH = r"^(?:Yu|Ya|Zh|Kh|Ch|Sh|Ts|Shch)$"
# The given part of a lone pair that is rather a name of its own: a word, then a capitalised one
# that is not an initial ("Parag Singla", "J.-P. Dupont"; not "Donald E.").
GIVEN_AND_SURNAME = r"^(\S+)\s+(\p{Lu}\S*\p{Ll})$"
# Chinese, Japanese, Korean names are never written "Last, First" with a comma: "张伟，李娜" is two.
CJK = r"[\p{Han}\p{Hiragana}\p{Katakana}\p{Hangul}]"


def clean_listings(records: pl.DataFrame, files: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """records × files (file_idx, source_file_id, format) → (listings, quarantine)."""
    # A record's own format when its parser set it (a file may hold both: formats/joined.py).
    file_columns = ["file_idx", "source_file_id", *(["format"] if "format" not in records.columns else [])]
    df = records.join(files.select(file_columns), on="file_idx", how="left")
    df = split_authors(df.with_columns(**category_columns()))
    df = df.with_columns(
        # The parsers return clean_text()ed fields (formats/common.py): no second pass here.
        author_keys=pl.col("authors").list.eval(fold_key(pl.element())),
        abstract_key=text_key(pl.col("abstract")),
    )
    return _split_bad(df)


def split_authors(df: pl.DataFrame, line: str = "authors_raw") -> pl.DataFrame:
    """`df` with its authors `line` read: the ordered name list, the shown count, the declared
    total (null when unknown) and the truncation flag ("authors", "n_authors_shown",
    "author_total", "is_truncated").

    Forms read: "A, B, C", "A, B, C and 3 more" (total 6), "A and B", "A & B", "A, B, and C",
    "A, B et al." / "A, B and others" / "A 等" / "A, B, …" (truncated, total unknown),
    "张三、李四", "Last, First; Last, First", a lone "Last, First", affiliation marks
    ("Smith1,2", "Smith¹", "Smith*") and affiliations closing a name ("Smith (MIT)") dropped,
    TeX accents read ("G\\"ahler").
    """
    # In stages, each stage's columns computed once: as one expression tree every use of a part
    # was computed again (its plan 1.9 MB of text, ~1 s to split a single line).
    df = df.with_columns(_names=names_line(pl.col(line)).map_batches(_separators_read, return_dtype=pl.String))
    parts = _author_parts(pl.col(line), pl.col("_names"))
    df = df.with_columns(**parts).drop("_names")
    df = df.with_columns(_shown=_initials_pairs(pl.col("_shown")))  # on the column: the condition needs it whole
    df = df.with_columns(_items=_author_items(*map(pl.col, parts)))
    df = df.with_columns(_items=_surnames_last(pl.col("_shown"), pl.col("_items")))  # its lookups once, on the column
    df = df.with_columns(**_author_columns(*map(pl.col, parts), pl.col("_items"))).drop(*parts, "_items")
    return df.with_columns(**_declared_total(pl.col(line), pl.col("n_authors_shown")))


def _separators_read(lines: pl.Series) -> pl.Series:
    """The lines with separators of `_COMMA_LOOKALIKES` and `_DOTS` between names as the separators
    the list is read at; only the few lines holding one (`_LOOKALIKE_SEEN`), in Python."""
    # (the class looked for in the non-ASCII lines only: over every line it cost a sixth of the split)
    return on_rows_where(lines, lines.str.len_bytes() != lines.str.len_chars(), lambda rows: on_rows_where(
        rows, rows.str.contains(_LOOKALIKE_SEEN), lambda seen: pl.Series([_separators_as_commas(line) for line in seen],
                                                                         dtype=pl.String)))


def _separators_as_commas(line: str) -> str:
    parts = _BETWEEN_ITEMS.split(line.translate(_COMMA_LOOKALIKES).replace("‚ ", ", "))
    return "".join(", ".join(dotted) if len(dotted := [p.strip() for p in _DOTS.split(part)]) > 1
                   and all(" " in p for p in dotted) else part for part in parts)


def _declared_total(line: pl.Expr, shown: pl.Expr) -> dict[str, pl.Expr]:
    """A total the line declares ("(2,934 authors)"), when it is no smaller than the names shown
    and the list does not count its missing names itself ("and 5 more (7 authors)": 8)."""
    declared = pl.when(line.str.contains(DECLARED_TOTAL)).then(line).str.extract(DECLARED_TOTAL, 1)
    total = _count_value(declared)
    said = total.is_not_null() & (total >= shown) & ~(pl.col("is_truncated") & pl.col("author_total").is_not_null())
    return {"author_total": pl.when(said).then(total).otherwise(pl.col("author_total")),
            "is_truncated": pl.col("is_truncated") | (said & (total > shown))}


def _author_parts(line: pl.Expr, authors: pl.Expr) -> dict[str, pl.Expr]:
    """The declared "and N more", whether the list is cut short, and the names part of the line
    (`authors`: the line as `names_line` reads it, which leaves out a closing "(+3)" with the
    affiliations)."""
    shown = authors.str.replace(AND_MORE, "")
    # a count read from no digit this Python knows (a newer Unicode's): cut short, how many unknown
    said_more = shown.str.len_bytes() != authors.str.len_bytes()
    et_al = shown.str.contains(ET_AL) | line.str.contains(BRACKETED_ET_AL)
    uncut = shown.str.replace(ET_AL, "")
    shown = uncut.str.replace(DANGLING_END, "")
    dangling = shown.str.len_bytes() != uncut.str.len_bytes()
    closing = (shown.str.contains(CLOSING_PERIOD) & (shown.str.count_matches(".", literal=True) == 1)
               & ~shown.str.contains(ABBREVIATION_LAST))
    shown = pl.when(closing).then(shown.str.replace(CLOSING_PERIOD, "${1}")).otherwise(shown)
    names = (pl.when(shown.str.contains(HAN_NAMES_BY_SPACES)).then(shown.str.replace_all(r"[ \u3000]+", "、"))
             .otherwise(shown)
             .str.replace(TRAILING_ELLIPSIS, "")
             .str.replace_all(ELLIPSIS, ", ")
             .str.replace_all(GLUED_MARKS, "${1}${2}")
             .str.replace_all(r"\s*" + LOOSE_MARKS + r"\s*", " ")
             .str.replace_all(EMAIL, "")
             .str.replace_all(ORCID, "")
             .str.replace_all(SUFFIX_ITEM, " ${1}${2}"))
    return {
        "_more": _more_count(line),
        # "A, B, ... and 3 more": the dots are the three left out
        "_unknown_total": et_al | dangling | ((shown.str.contains(ELLIPSIS) | said_more) & _more_count(line).is_null()),
        "_shown": names,
        "_semicolons": _pairs_between_semicolons(names) | authors.str.contains(BIBTEX_LIST),
    }


def _without_whole_names(lines: pl.Expr) -> pl.Expr:
    """`lines` (of a pair reading's shape, the others null), null where one holds a whole name
    of glued initials (`_holds_whole_name`): a list of names, not of "Last, First" pairs."""
    return pl.when(~_holds_whole_name(lines)).then(lines)


def _holds_whole_name(text: pl.Expr) -> pl.Expr:
    """Whether an item of `text` is initials glued to a word that may be a surname (GLUED_WORD):
    "J.P.Hague", "A.Brown"; not "A.Yu", "J.-Pierre", "J.P." (the given part of a pair)."""
    glued = pl.when(text.str.contains(GLUED_INITIALS_NAME)).then(text)  # null elsewhere: no lookups
    words = glued.str.replace_all(NAME_SEPARATORS, "\x1f").str.split("\x1f").list.eval(
        pl.element().str.strip_chars().str.extract(GLUED_WORD).drop_nulls())
    surname_like = words.list.eval(~pl.element().str.contains(INITIAL_DIGRAPH) & (_surname_odds(pl.element()) >= 1))
    return surname_like.list.any().fill_null(False)


def _pairs_between_semicolons(shown: pl.Expr) -> pl.Expr:
    """A semicolon list whose every item holds one comma (or is one word, a mononym): "Munos,
    Rémi; Valko, Michal" is two "Last, First" pairs. "Ann Lee; Bo Chen, Carl Wu" or "Ann Lee, Bo
    Chen; Carl Wu" mixes the separators between full names: read as pairs, "Bo Chen, Carl Wu"
    was one person."""
    listed = pl.when(shown.str.contains(SEMICOLON_LIST)).then(shown)  # null elsewhere: no cost
    # (cut as such a list is read: at "and", "&" and "、" too, "Valko, Michal and Lazaric, Alessandro")
    items = listed.str.replace_all(SEMICOLON_SEPARATORS, "\x1f").str.split("\x1f").list.eval(
        pl.element().filter(pl.element().str.contains(r"[\p{L}\p{N}]")))
    no_comma = ~pl.element().str.contains("[,，]")
    pair_or_mononym = ((pl.element().str.count_matches("[,，]") == 1) | (no_comma & ~pl.element().str.strip_chars().str.contains(r"\s"))
                       | (no_comma & _holds_whole_name(pl.element())))  # "A.van Dam": one name
    return items.list.eval(pair_or_mononym).list.all().fill_null(False)


# AND_MORE's capturing groups, each an alternative's count (counted, not listed by hand: a new
# alternative adds one).
_COUNT_GROUPS = range(1, re.compile(AND_MORE).groups + 1)


def _more_count(authors: pl.Expr) -> pl.Expr:
    """The count of AND_MORE (whichever of its groups holds it), a word read as its number. A
    count past any real list is kept just past AUTHOR_TOTAL_MAX, for the check to quarantine:
    read as Int64 it overflowed to null (the list loaded as complete) or wrapped below zero."""
    groups = authors.str.extract_groups(AND_MORE).struct
    return _count_value(pl.coalesce(*(groups.field(str(group)) for group in _COUNT_GROUPS)))


def _count_value(count: pl.Expr) -> pl.Expr:
    """A count as written (digits of any script, in groups of three or not, or a word) as a number."""
    count = count.map_batches(_ascii_digits, return_dtype=pl.String, is_elementwise=True)
    count = count.str.to_lowercase().str.replace_all(f"[{DIGIT_GROUP_SEPARATORS}]", "")  # "2,931": digits in groups
    as_number = count.replace(MORE_COUNT_WORDS).cast(pl.Float64, strict=False)
    return as_number.clip(upper_bound=AUTHOR_TOTAL_MAX + 1).cast(pl.Int64)


def _ascii_digits(count: pl.Series) -> pl.Series:
    """Counts written in other digits ("５", "٥", "𝟓", "⁵") in ASCII digits: cast as written, "５" was
    null and the list loaded as complete. The few non-ASCII counts only, in Python (its digit values)."""
    return on_rows_where(count, count.str.contains(r"[^\x00-\x7F]"),
                         lambda rows: pl.Series([_digit_values(text) for text in rows], dtype=pl.String))


def _digit_values(text: str) -> str:
    return "".join(str(unicodedata.decimal(c, c)) for c in unicodedata.normalize("NFKC", text))


def _initials_pairs(shown: pl.Expr) -> pl.Expr:
    """A bibliography list of INITIALS_PAIRS, or of LAST_FIRST_PAIRS the reference confirms, or a
    line of one SINGLE_LAST_FIRST pair (`_one_last_first_pair`), as "Given Surname" items."""
    # (each rewrite on its lists only, the others null: a when/then rewrote every line twice)
    initials = _without_whole_names(pl.when(shown.str.contains(INITIALS_PAIRS)).then(shown))
    initials = initials.str.replace_all(INITIALS_PAIR, "${2} ${1}")
    pairs = pl.when(_confirmed_pairs(shown)).then(shown).str.replace_all(LAST_FIRST_PAIR, "${2} ${1}")
    pair = shown.str.strip_chars(", ")
    cjk = shown.str.contains(CJK)  # of the names: "Anderson, Ann 等" is a Last, First
    one_pair = pl.when(_one_last_first_pair(pair, cjk)).then(pair.str.replace(SINGLE_LAST_FIRST, "${3} ${1} ${2}${4}"))
    return pl.coalesce(initials, pairs, one_pair, shown)


def _confirmed_pairs(shown: pl.Expr) -> pl.Expr:
    """LAST_FIRST_PAIRS with, on average, one part per pair a real author wears in its place (a
    given name second, a surname first: transforms/name_parts.csv). Lists of another shape are
    null before the lookups, which then cost nothing."""
    pairs = _without_whole_names(pl.when(shown.str.contains(LAST_FIRST_PAIRS)).then(shown))
    items = pairs.str.replace_all(r"(?i),?\s+and\s+|,?\s*&\s*", ",").str.split(",").list.eval(fold_key(pl.element()))
    surnames = items.list.gather_every(2).list.eval(pl.element().str.extract(r"(\S+)$").is_in(known("surname")))
    givens = items.list.gather_every(2, offset=1).list.eval(pl.element().is_in(known("given")))
    return (surnames.list.sum() + givens.list.sum() >= items.list.len() // 2).fill_null(False)


def _author_items(more: pl.Expr, unknown_total: pl.Expr, shown: pl.Expr, semicolons: pl.Expr) -> pl.Expr:
    """The list's items in order (empty ones and bare suffixes dropped)."""
    shown = shown.str.replace_all(VON_UND_ZU, "${1}\x1eund\x1e${2}")  # not a joiner there: kept from the split
    items = pl.when(~semicolons).then(shown).str.replace_all(NAME_SEPARATORS, "\x1f").str.split("\x1f")
    items = pl.coalesce(_semicolon_items(pl.when(semicolons).then(shown)), items)
    items = items.list.eval(pl.element().str.replace_all("\x1e", " ", literal=True))
    # (the titles in their own pass: in the filter's, each item was read without them twice)
    items = items.list.eval(pl.element().str.strip_chars().str.replace(HONORIFICS, "").str.replace(DEGREES, "${1}${2}"))
    return items.list.eval(pl.element().filter((pl.element() != "") & ~pl.element().str.contains(BARE_SUFFIX)
                                               & ~pl.element().str.contains(SOCIETY_GRADE)))


def _semicolon_items(lines: pl.Expr) -> pl.Expr:
    """The names of semicolon lists (the other lines null), each item read on its own: "Last,
    First" → "First Last", but an item holding a whole name of glued initials is names between
    commas ("Smith, J.; J.P.Hague, N.d'Ambrumenil" is three; one glued name made the whole list
    a comma list, "Smith, J.; Jones, A.B.; A.Brown" five people)."""
    items = lines.str.replace_all(SEMICOLON_SEPARATORS, "\x1f").str.split("\x1f")
    read = items.list.eval(pl.when(_holds_whole_name(pl.element()))
                           .then(pl.element().str.replace_all(NAME_SEPARATORS, "\x1f"))
                           .otherwise(pl.element().str.replace(LAST_FIRST, "${2} ${1} ${3}")))
    return read.list.join("\x1f").str.split("\x1f")


def _surnames_last(shown: pl.Expr, items: pl.Expr) -> pl.Expr:
    """The items with each SURNAME_FIRST name as `_surname_last` reads it."""
    # On the lists whose line shows such a name only, the others empty: a null list keeps its items
    # in the column, and list.eval read them all (0.26 s for the 176 such of 67,620 real lines).
    shaped = shown.str.contains(SURNAME_FIRST_IN_LIST)
    surname_first = pl.when(shaped).then(items).otherwise(pl.lit([], dtype=pl.List(pl.String)))
    return pl.when(shaped).then(surname_first.list.eval(_surname_last(pl.element()))).otherwise(items)


def _one_last_first_pair(pair: pl.Expr, cjk: pl.Expr) -> pl.Expr:
    """Whether a line is one SINGLE_LAST_FIRST pair ("Smith, John Paul", "van der Berg, Anna
    Maria", "Knuth, Donald E.", "Smith, Jones"), not two authors: a one-word name then a whole
    name (`_given_and_surname`: "Mansi, Avinash Kori", "Mausam, Parag Singla", real authors, each
    pair was one person "Parag Singla Mausam"), or whole names of glued initials ("J.P.Hague,
    N.d'Ambrumenil")."""
    shaped = _without_whole_names(pl.when(pair.str.contains(SINGLE_LAST_FIRST) & ~cjk).then(pair))  # null elsewhere
    first, rest = shaped.str.extract(SINGLE_LAST_FIRST, 1), shaped.str.extract(SINGLE_LAST_FIRST, 3)
    two_authors = ~first.str.contains(r"\s") & _given_and_surname(first, rest)
    return shaped.is_not_null() & ~two_authors.fill_null(False)


def _given_and_surname(surname: pl.Expr, given_part: pl.Expr) -> pl.Expr:
    """Whether the given part of a pair is rather a name of its own (GIVEN_AND_SURNAME), by the
    reference (transforms/name_parts.csv): its last word more often a surname than the `surname`
    part is, and than a given name ("Mausam, Parag Singla", ICML 2025's "Cheng, Hadi Amiri"; not
    "Smith, John Paul", "Oppenheimer, J. Robert", "Yu, Adams Wei"), or a word it does not know
    after a given name it knows or initials, when `surname` is no surname it knows ("Mansi,
    Avinash Kori"; "King, Martin Luther" stays one person)."""
    words = given_part.str.extract_groups(GIVEN_AND_SURNAME).struct
    first_word, last_word = words.field("1"), words.field("2")
    last_odds = _surname_odds(last_word)
    more_a_surname = last_odds > _surname_odds(surname).clip(lower_bound=1)
    after_given = first_word.str.contains(r"^\p{Lu}\.") | fold_key(first_word).is_in(known("given"))
    unknown_after_given = (last_odds == 1) & after_given & ~fold_key(surname).is_in(known("surname"))
    return more_a_surname | unknown_after_given


def _surname_odds(word: pl.Expr) -> pl.Expr:
    """How much more often real authors of the reference wear `word` as a surname than as a given
    name (`reference_surname_odds`: above 1 a surname, below a given name, 1 unknown or even)."""
    parts, odds = reference_surname_odds()
    return fold_key(word).replace_strict(parts, odds, default=1.0)


_PINYIN_SYLLABLE = (r"(?:zh|ch|sh|[bpmfdtnlgkhjqxrzcsyw])?(?:iang|iong|uang|ang|eng|ing|ong|ian|iao|uai|uan|ai|ei|ao|ou"
                    r"|an|en|in|un|ia|ie|iu|ua|uo|ui|ue|er|a|o|e|i|u|v)")
PINYIN_GIVEN = rf"^(?i:(?:{_PINYIN_SYLLABLE}){{1,2}})$"  # a Chinese given name in Pinyin: "Siyao", "Erzhen"


def _surname_last(name: pl.Expr) -> pl.Expr:
    """A SURNAME_FIRST name as "Given Surname" when the reference (transforms/name_parts.csv) knows
    the capitals (three letters or more) as a surname, or knows the next word as a given name and
    the capitals are four letters or more ("IBM Research" stays); not when it knows the capitals
    better as a given name and the next word better as a surname: "QIUHAO Zeng" stays (it was
    "Zeng Qiuhao", another person than "Qiuhao Zeng"). Two or three capitals may be initials
    written without periods ("GE Hinton", "JY Li", "JRR Tolkien"): two letters are read as a
    surname only before a word the reference knows better as a given name ("LI Siyao" is Siyao
    Li; it was another person than the listing's "Siyao Li")."""
    shaped = pl.when(name.str.contains(SURNAME_FIRST)).then(name)  # null elsewhere: the lookups cost nothing
    surname, given = shaped.str.extract(SURNAME_FIRST, 1), shaped.str.extract(SURNAME_FIRST, 2).str.strip_chars()
    next_word, letters = given.str.extract(r"^(\S+)"), surname.str.len_chars()
    given_after = fold_key(next_word).is_in(known("given"))
    # two: a surname before a given name, one the reference knows or one of Pinyin syllables that is
    # no likelier a surname ("LI Siyao", "HU Erzhen"; "GE Hinton", "LI Yang" stay as written)
    given_pinyin = (given_after | next_word.str.contains(PINYIN_GIVEN)) & (_surname_odds(next_word) <= 1)
    known_part = (((letters >= 3) & fold_key(surname).is_in(known("surname"))) | ((letters >= 4) & given_after)
                  | ((letters == 2) & fold_key(surname).is_in(known("surname")) & given_pinyin))
    given_first = (_surname_odds(surname) < 1) & (_surname_odds(next_word) > 1)  # "QIUHAO Zeng"
    flip = (known_part & ~given_first).fill_null(False)
    return pl.when(flip).then(pl.concat_str(given, pl.lit(" "), surname.str.to_titlecase())).otherwise(name)


# A name withheld, as review sites print it ("Anonymous", "Anonymous Authors"): no person ("Anonymous"
# was the top author of a conference's pages, "Anonymous, Anonymous" one person "Anonymous
# Anonymous", read as "Last, First"). Left out, the list is cut short; a list of nothing else has
# no names (its record is quarantined).
# A placeholder for names not known is no person either ("N/A" was loaded as an author, while
# "Anonymous" and "-" were quarantined; hunt 51).
_NOT_GIVEN = (r"n/a|n\.a\.|not available|none(?:\s+given)?|unknown(?:\s+authors?)?|tb[ad]|no authors?(?:\s+(?:given|listed))?"
              r"|(?:authors?\s+)?withheld|authors?\s+not\s+(?:given|listed|available)")
ANONYMOUS = (r"^[<\[(]?(?i:anonymous(?:\s+(?:anonymous|authors?|author\(s\)|submission|reviewers?))*|"
             + _NOT_GIVEN + r")[>\])]?$")
_MAY_BE_WITHHELD = r"(?i)anonymous|" + _NOT_GIVEN


def _author_columns(more: pl.Expr, unknown_total: pl.Expr, shown: pl.Expr, semicolons: pl.Expr,
                    items: pl.Expr) -> dict[str, pl.Expr]:
    # An item without letters or digits (":") is no name, but the line still counted it.
    names = items.list.eval(pl.element().filter(pl.element().str.contains(r"[\p{L}\p{N}]")))
    # (on the lists that show the word only: the others are null, and cost nothing)
    anonymous = pl.when(shown.str.contains(_MAY_BE_WITHHELD)).then(names).list.eval(pl.element().str.contains(ANONYMOUS))
    withheld = anonymous.list.any().fill_null(False)
    names = pl.when(withheld).then(names.list.gather(anonymous.list.eval(pl.element().not_().arg_true()))).otherwise(names)
    return {
        "authors": names,
        "n_authors_shown": names.list.len().cast(pl.Int64),
        "author_total": pl.when(unknown_total | withheld).then(None)
        .otherwise(items.list.len().cast(pl.Int64) + more.fill_null(0)),
        "is_truncated": unknown_total | more.is_not_null() | withheld,
    }


def category_columns() -> dict[str, pl.Expr]:
    """The listed code, its format's taxonomy (a search page's area that is an arXiv code is
    resolved as one: transforms.categories), and the secondary codes of a cross-listing: a listing's
    category line "cs.LG; stat.ML" (or "cs.LG, stat.ML", "cs.LG stat.ML") is primary cs.LG
    plus secondary stat.ML, a search page's "Deep Learning · LLMs, Theory · Learning Theory" the
    first area plus the second. Case is resolved against the taxonomy (transforms.categories)."""
    raw = pl.col("category_raw")
    is_listing = pl.col("format") == listing.NAME
    # (each side reads only its own rows: the other's are nulls)
    codes = pl.coalesce(pl.when(is_listing).then(raw).str.replace_all(listing.CODE_SEPARATOR, " ").str.split(" "),
                        area_list(pl.when(~is_listing).then(raw)))
    return {
        "listed_code": codes.list.first(),
        "secondary_codes": pl.when(raw.is_not_null())
        .then(codes.list.slice(1))
        .otherwise(pl.lit([], dtype=pl.List(pl.String))),
        "taxonomy": pl.when(raw.is_null())
        .then(None)
        .when(is_listing)
        .then(pl.lit(ARXIV))
        .otherwise(pl.lit(CONFERENCE)),
    }


# ASCII's control characters no text holds: a terminal escape ("\x1b]0;…\x07") in a name was
# loaded, printed raw by `digest query`, and its ";" made another author; dropped, they would leave
# "]0;owned" in the name: the record is quarantined. Not those read as spaces (tab, VT, FF,
# 1C-1F: `text.ASCII_SPACES`), nor DOS's end-of-file mark (1A, after a file's last line), nor C1
# controls (U+0080-U+009F: Windows-1252 punctuation read as Latin-1, "Don\x92t", loads as before).
CONTROL_CHARACTERS = r"[\x00-\x08\x0E-\x19\x1B\x7F]"


def _split_bad(df: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    reason = (
        pl.when(pl.col("raw_text").str.contains(REPLACEMENT, literal=True))
        .then(pl.lit("undecodable bytes in record"))
        .when(pl.col("raw_text").str.contains(CONTROL_CHARACTERS))
        .then(pl.lit("control characters in record"))
        .when(pl.col("n_authors_shown") == 0)
        .then(pl.lit("no author names"))
        .when(pl.col("authors").list.eval(pl.element().str.contains(LETTER_MARK_ITEM)).list.any())
        .then(pl.lit("affiliation letters between the names (\"Pang a,b\"): which names hold one is unclear"))
        .when(~pl.col("abstract").str.contains(r"[\p{L}\p{N}]"))
        .then(pl.lit("abstract holds no letters or digits"))
    )
    flagged = df.with_columns(reason=reason)
    bad = as_quarantine(flagged.filter(pl.col("reason").is_not_null()))
    good = flagged.filter(pl.col("reason").is_null()).drop("reason", "authors_raw", "category_raw")
    return good, bad
