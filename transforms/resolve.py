"""Entity resolution, the pure part: which abstracts are near-duplicates of one paper, and which
name keys are one person.

Papers. The exact matcher (`transforms.dedupe`) merges identical folded abstracts only. The
same paper also arrives edited: a v2 revision, a typo fixed, LaTeX rendered as Unicode, a
trailing sentence added, the abstract cut short, with or without its title. Resolution is two
steps, both vectorised:

1. Blocking (sub-quadratic). Each abstract becomes a *match text* (LaTeX and Unicode math
   spelled the same way, then folded), cut into word 3-shingles. A MinHash signature (datasketch's
   "affine32" scheme, computed for a whole frame at once with numpy) is split into LSH bands;
   two more blocks hold the first and the last `ANCHOR_WORDS` words, which catch abstracts cut
   short or extended (their shingle sets differ too much for the bands). Every block key also
   holds the first author's surname token: distinct papers rendered from one template by other
   people never meet, which keeps candidate sets small at any scale. Signatures use fixed
   permutations (fixed seed) and stable hashes (XXH3-64, a specified function), so block keys can
   be stored and new papers matched against old ones in SQL (`SIGNATURE_SCHEME` names them).
2. Scoring. Each candidate pair gets features: the shared word 3-shingles of the match texts
   (Jaccard, and containment in the shorter text, which covers an abstract cut short or
   extended), word-level Indel similarity (reported only), title
   similarity when both have a title, and author agreement over the positions both show. A
   weighted score against a threshold (a setting) decides, behind two gates: authors must agree
   and titles, when both exist, must be close and hold the same numbers (`TITLE_NUMBER`). Same
   authors + same template with different content stay apart because their texts differ.

Authors. `fold_key` already makes one key of case, accent, NFD, hyphen and spacing variants.
`alias_rule` classifies two different keys seen at the same position of the same paper: one
key written with initials ("r munos" / "remi munos") or with its spaces dropped
("jeanpierre" / "jean pierre") names the same person there; the flow decides whether it is
safe to alias the key everywhere.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import groupby
from operator import itemgetter

import numpy as np
import polars as pl
import polars_hash as plh
import pyarrow as pa
from rapidfuzz import fuzz, process
from rapidfuzz.distance import OSA, Indel, Levenshtein

from transforms.dedupe import BOILERPLATE_WORDS, NAME_SUFFIXES, first_author_token, is_boilerplate, surname_token
from transforms.text import _on_non_ascii_rows, fold_key
from transforms.words import one_word, other_english_word

# ----------------------------------------------------------------------------- settings of the method
SHINGLE_WORDS = 3
NUM_BANDS = 20
ROWS_PER_BAND = 3  # P(candidate) = 1 - (1 - J^3)^20: 0.93 at Jaccard 0.5, 0.99 at 0.6
NUM_PERM = NUM_BANDS * ROWS_PER_BAND
MINHASH_SEED = 4  # fixed: stored block keys must be reproducible across runs and machines
# What the stored block keys (paper_signature) are made of: a warehouse whose keys were made
# another way has every key signed again (flows.resolve), or new papers would miss stored ones.
# v1: BLAKE2b-64 word hashes; v2: XXH3-64 (the same MinHash and bands; see stable_hash64); v3: the
# salt is the first author's surname before a generational suffix (`first_author_token`: "jr" was
# the salt of "John Smith Jr.", so a stored paper salted so never met its own listing salted "smith").
# v4: the anchors also salted with the second author's surname (`block_keys`). v5: a long
# abstract's whole signature, unsalted (EXACT_BAND). v6: the folded title salted with the first
# author's surname (NOTICE_BAND for a short abstract, TITLE_BAND for a long one).
SIGNATURE_SCHEME = "xxh3-minhash-60x3-anchors-8-title-v6"
ANCHOR_WORDS = 8
PREFIX_BAND, SUFFIX_BAND, EXACT_BAND = NUM_BANDS, NUM_BANDS + 1, NUM_BANDS + 2
# A short abstract (fewer than BOILERPLATE_WORDS words: a withdrawal notice, "No abstract
# available.") says nothing of its paper's text: a withdrawn version, relisted under its paper's
# title and authors, met no block of the paper. Titled keys also get a block of their folded title
# and first author's surname: NOTICE_BAND for a short abstract, TITLE_BAND for a long one. Only
# pairs with a short side are candidates (schemas/resolve/candidates.sql): two long abstracts of
# one title are compared by their texts as before.
NOTICE_BAND, TITLE_BAND = NUM_BANDS + 3, NUM_BANDS + 4
NOTICE_RULE = "notice_abstract"
# A withdrawal or retraction notice for an abstract, in lower case (a match text, folded to
# words, or a text as stored: words joined by \W+): "Withdrawn.", "This paper has been withdrawn
# by the author ...", "The manuscript was withdrawn by the authors". Its phrasing, not its words:
# "We examine the withdrawal of arms ...", "Arms withdrawn by the learner ..." are abstracts; and
# not "No abstract available." (an editor's "Introduction" to two volumes was one paper).
NOTICE_TEXT = (r"^\W*(?:withdrawn|retracted)\b"
               r"|\b(?:paper|article|submission|manuscript|preprint|version|work|note)\W+(?:(?:has|have|had)\W+been|is|was)"
               r"\W+(?:withdrawn|retracted)\b")
MIN_PREFIX_WORDS = 20  # a shorter text is too little evidence for "cut short"
CUT_TITLE = r"(?:…|\.\.\.)\s*$"  # a title a display cut, as written: "... Multi-Layer Transform…"
CONTAINED_MARGIN = 0.2  # containment this far above Jaccard: one abstract holds the other
DEFAULT_THRESHOLD = 0.8  # chosen on the tuning corpus of eval/ (seed 11)
AUTHOR_GATE = 0.75  # share of the commonly shown author positions that must agree (all of 2 or 3)
TITLE_GATE = 0.8  # titles (folded) must be this close when both listings show one
SAME_TEXT_WORDS = 60  # an abstract this long, the same word for word (every shingle shared), ...
SAME_TEXT_AUTHOR_GATE = 0.5  # ... needs half the commonly shown positions to agree (2 of 3, 2 of 4)
# A title reworded (REWORDED_WORDS words of each replaced by others) beside an abstract that is not
# the same text (under TEXT_SURE) is no revision's evidence: both halves of the pair changed.
REWORDED_WORDS = 2
TEXT_SURE = 0.85  # (a revision's rewritten sentence left 0.89, a sibling's every other sentence 0.78)
# Words of four letters or more that link a title's words, not name its subject: "with" / "from",
# "using" / "through" is a revision's wording.
TITLE_LINKS = frozenset("with from using through into onto over under upon towards toward about across within between "
                        "among when where which what does that this their these those than then more less very also "
                        "both each only such other based".split())
# ... and the short ones, where a title's short words are compared too (beside a boilerplate
# abstract, where a short name is the only word that tells two papers apart: "MMLU" / "BBH", "GAN" /
# "VAE", "W" / "Z Boson"). Numbers are compared by value (`title_numbers`), not here.
SHORT_LINKS = frozenset("a s of on in to at by is as an or vs we do be it if no so up the and for via its are how can "
                        "why who our not but nor yet all any new".split())
MAX_GIVEN_NAMES = 4
WEIGHTS = {"text": 0.7, "authors": 0.15, "title": 0.15}
# Numbers in a title name one paper of a series ("Part I" / "Part II", "Llama 2" / "Llama 3",
# "YOLOv5" / "YOLOv8", "GPT-4" / "GPT-4o", "Part One" / "Part Two", "the First / Second Workshop",
# "Part A" / "Part B", "2023" / "2024"): two titles that hold other numbers are two papers,
# however close the rest and the abstracts ("the first part" / "the second part"). A digit run
# with the letters after it ("resnet50" and "resnet 50" hold "50"); Roman numerals up to 39,
# number words and ordinals up to twenty, the tens and magnitudes as words ("Thirteenth" /
# "Fourteenth Dialog System Technology Challenge", "Million-" / "Billion-Scale"); the letter of a
# part, a task or a track ("Subtask A" / "Subtask B"). Compared by value (`title_numbers`):
# compared as written, "Part I" / "Part 1", "Two-Stage" / "2-Stage" were two papers.
_CARDINALS = ("one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
              "seventeen eighteen nineteen").split()
_ORDINALS = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
             "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth").split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_MAGNITUDES = {"hundred": 10**2, "thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
_ROMAN_UNITS = ("", "i", "ii", "iii", "iv", "v", "vi", "vii", "viii", "ix")
# Each number word and Roman numeral, by its value as digits.
_NUMBER_VALUES = {
    **{w: str(n) for words in (_CARDINALS, _ORDINALS) for n, w in enumerate(words, 1)},
    **{w: str(10 * n) for n, tens in enumerate(_TENS, 2) for w in (tens, tens[:-1] + "ieth")},  # "twentieth"
    **{w: str(n) for m, n in _MAGNITUDES.items() for w in (m, m + "th")},  # "hundredth"
    **{"x" * tens + unit: str(10 * tens + u) for tens in range(4) for u, unit in enumerate(_ROMAN_UNITS) if tens or u},
}
_NUMBER_WORDS = "|".join(w for w in _NUMBER_VALUES if not set(w) <= set("xvi"))
# (not "a": "Time Series: A Survey", "Track a Moving Target")
_LETTERED = "part|subtask|task|track|phase|stage|volume|vol|chapter|appendix|supplement|series|level|type"
TITLE_NUMBER = (rf"\d+(?:point\d+)*\p{{L}}*|\b(?:x{{1,3}}(?:ix|iv|v?i{{0,3}})|ix|iv|v?i{{1,3}}|v|{_NUMBER_WORDS})\b"
                rf"|\bpart a\b|\b(?:{_LETTERED}) [b-hj-uwyz]\b")  # "Part I", "Part V": Roman, as "Part II"
ORDINAL_DIGITS = r"^0*(\d+)(?:st|nd|rd|th)?$"  # "1st", "01": "1" ("4o", "3d", "50k" stay as written)


GLUED_WORD = r"^(\d+(?:point\d+)*)\p{L}{3,}$"  # "1bit", "2stage": the number ("3d", "4o", "50k" stay)


def title_numbers(title: pl.Expr) -> pl.Expr:
    """The numbers of a folded title (`TITLE_NUMBER`), each by its value, in order: "Part I",
    "Part 1", "Part One", "First Part" and "1st Part" hold "1". (In order and each time: as a set,
    "3 Layers and 2 Heads" was "2 Layers and 3 Heads".)"""
    values = pl.element().replace(_NUMBER_VALUES).str.replace(GLUED_WORD, "${1}").str.replace(ORDINAL_DIGITS, "${1}")
    return title.str.extract_all(TITLE_NUMBER).list.eval(values)


def numbers_written(title: pl.Expr) -> pl.Expr:
    """A title as written, its numbers kept whole through the fold (`title_numbers`): a decimal as
    one number ("3.3" was "3" and "3", so "Llama 3.3" was "Llama 3"), thousands unseparated
    ("10,000"), a letter hyphened to a number or a letter glued ("3-D" / "3D", "X-ray" / "Xray": the
    "x" read as 10), "×" as "x" ("10×" was "10 times"), an acronym's stops dropped ("i.i.d." / "IID":
    the "i" read as 1)."""
    for pattern, glued in ((r"(\d),(\d\d\d)\b", "${1}${2}"), (r"(\d),(\d\d\d)\b", "${1}${2}"),
                           (r"(\d)\.(\d)", "${1}point${2}"), (r"(\d)\s?(?:×|✕|x\b)", "${1}x"),
                           (r"\b(\p{L})\.", "${1}"), (r"(\d)[-‐‑–](\p{L})\b", "${1}${2}"),
                           (r"\b(\p{L})[-‐‑–](\p{L}{2})", "${1}${2}")):
        title = title.str.replace_all(pattern, glued)
    return title


# A version tag closing a title ("... Noise (v2)", "[v3]", "(Version 2.1)", "... Noise v2", "- Version 2";
# a bare "v" in small letters: "YOLO V8" names a model) numbers a revision of
# the paper, not a paper of a series: its number was read as another paper's.
VERSION_TAG = (r"(?i)\s*(?:[(\[]\s*(?:v|ver\.?|version)\s*\d+(?:\.\d+)*\s*[)\]]"
               r"|[-–—:,]?\s+(?:(?-i:v)|version\s)\s*\d+(?:\.\d+)*)\s*$")  # or bare: "... Noise v2", "- Version 2"
# A notice about a paper is another document than the paper ("Erratum to: Spectra of ..." was
# merged into "Spectra of ...", its title shown for both): two titles with other notices are two
# papers, as two that hold other numbers. `_ABOUT` names documents about another document.
_ABOUT = ("errat(?:um|a)|corrigend(?:um|a)|corrections?|retraction|addend(?:um|a)|replies|reply|rejoinder|rebuttal|"
          "comments?|expression of concern|supplement(?:al|ary)?(?: (?:materials?|information|data|notes?))?|"
          "supporting information|appendix|appendices|extended data")
# Opening the title (of the folded title): also "X for/to T" ("Supplement to T"). Only as the
# opening: "Immune Response Dynamics" is no response to a paper. An article, a publisher's word or
# a kind of appendix may come first, as journal feeds print them ("Author Correction:", "A Comment
# on", "Editor's Note:", "Technical Appendix:", "Online Supplement to").
# (possessives folded: "Author's Reply", "Publisher's Note", "Editor’s Note": "author s")
TITLE_NOTICE = ("^(?:(?:a|an|the|further|invited|brief) )?(?:(?:(?:authors?|publishers?|editors?)(?: s)?|editorial|online|technical) )?"
                f"({_ABOUT}|retracted|response|commentary|critique|discussion|remarks|clarification|answers? to|"
                "letters? to the editor|letters?|in reply|"
                "notes?|notice of (?:retraction|withdrawal)|notice|withdrawal|withdrawn|update (?:to|on))(?: |$)")
# The other title whole after words that name a notice, in any wording ("Invited Discussion of T",
# "Further Comments on T", "Answer to Comment on T"): a notice about T, whatever words come first.
# (of the folded opening words; "Re:" is read from the written title, `_RE`: "Re-Thinking T" is no reply)
NOTICE_WORDS = (r"\b(?:errat\w*|corrigend\w*|corrections?|retract\w*|withdraw\w*|addend\w*|repl(?:y|ies)|answers?|"
                r"rejoinders?|rebuttals?|responses?|comments?|commentary|critiques?|discussions?|remarks|"
                r"clarifications?|notes?|notices?|letters?|concern|supplement\w*|appendix|appendices)\b")
NOTICE_WORDS_MAX = 8  # opening words read as a notice's: more is a title of its own
_RE = r"(?i)^\s*re\s*:\s*"  # "Re: T", "RE: T" (a reply), written
# Closing the title (of the title as written: the separator tells a notice from a title's last
# word): after ":", " - ", a dash, in brackets, or a sentence's end after a word, a number or
# math ("T: Erratum", "T (Erratum)", "T - Corrigendum", "T. Erratum"; not an abbreviation's
# stop, "Generation vs. Comment", "in U.S. Corrections"). Each was read as the paper's title
# cut short (ratio 1.0), and the paper showed the notice's title. Only the unambiguous kinds:
# "T: A Discussion" or "T: Notes" may be the paper's own subtitle. After a comma or semicolon,
# only an erratum's words ("T, Erratum"): "Retrieve, Rerank, Reply" is a title's list. The
# notice is group 1 or group 2.
_NOTICE_ARTICLE = r"(?:(?:an?|the|online|technical|authors?|authors?['’]s|publishers?|publishers?['’]s)\s+)?"
TITLE_NOTICE_CLOSING = (rf"(?i)(?:(?::|\s--?\s|[–—(\[]|(?:(?-i:\p{{Ll}}{{3}})|[\p{{N}}$}})\]])\.\s)\s*{_NOTICE_ARTICLE}({_ABOUT}|retracted|withdrawn)"
                        r"|[,;]\s*(errat(?:um|a)|corrigend(?:um|a)|addend(?:um|a)))\s*[)\]]?[\s.]*$")


@cache
def _permutations() -> tuple[np.ndarray, np.ndarray]:
    """datasketch's own affine32 permutations (a_k odd, b_k), drawn as its
    `MinHash._init_permutations` draws them from the fixed seed (a test checks they are equal).
    Drawn here, not through datasketch: importing it pulls in scipy, ~0.65 s of every run with
    new papers (`python -X importtime -c "import datasketch"`)."""
    gen = np.random.RandomState(MINHASH_SEED)
    a = gen.randint(0, 1 << 31, NUM_PERM, dtype=np.uint32) * np.uint32(2) + np.uint32(1)
    b = gen.randint(0, 1 << 32, NUM_PERM, dtype=np.uint32)
    return a, b


# ----------------------------------------------------------------------------- LaTeX ↔ Unicode
# One spelling for math written either way: "$\alpha$" and "α" both become " alpha ".
GREEK = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ϵ": "epsilon", "ζ": "zeta",
    "η": "eta", "θ": "theta", "ϑ": "theta", "ι": "iota", "κ": "kappa", "λ": "lambda", "μ": "mu", "ν": "nu",
    "ξ": "xi", "π": "pi", "ρ": "rho", "σ": "sigma", "ς": "sigma", "τ": "tau", "υ": "upsilon", "φ": "phi",
    "ϕ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega", "Γ": "gamma", "Δ": "delta", "Θ": "theta",
    "Λ": "lambda", "Ξ": "xi", "Π": "pi", "Σ": "sigma", "Υ": "upsilon", "Φ": "phi", "Ψ": "psi", "Ω": "omega",
}
SYMBOLS = {
    "≤": "leq", "≥": "geq", "≠": "neq", "≈": "approx", "∼": "sim", "≪": "ll", "≫": "gg", "×": "times",
    "·": "cdot", "±": "pm", "∓": "mp", "∞": "infty", "∈": "in", "∉": "notin", "⊂": "subset", "⊆": "subseteq",
    "∪": "cup", "∩": "cap", "∑": "sum", "∏": "prod", "∫": "int", "∂": "partial", "∇": "nabla", "√": "sqrt",
    "→": "to", "←": "leftarrow", "⇒": "rightarrow", "↦": "mapsto", "∀": "forall", "∃": "exists",
    "ℓ": "ell", "∅": "emptyset", "∝": "propto", "≡": "equiv", "⊕": "oplus", "⊗": "otimes", "′": "prime",
    "∘": "circ", "⋅": "cdot", "−": "-", "∧": "wedge", "∨": "vee", "¬": "neg", "⟨": "langle", "⟩": "rangle",
}
# LaTeX names that differ from the Unicode symbol's name above.
LATEX_SYNONYMS = {
    "le": "leq", "ge": "geq", "ne": "neq", "varepsilon": "epsilon", "varphi": "phi", "vartheta": "theta",
    "varsigma": "sigma", "rightarrow": "to", "Rightarrow": "rightarrow", "lvert": "", "rvert": "",
    "ldots": "", "cdots": "", "dots": "", "left": "", "right": "", "big": "", "Big": "", "quad": "",
    "Alpha": "alpha", "Beta": "beta",
}
# Markup that only styles its argument: dropped, the argument kept.
LATEX_STYLE = (
    r"\\(?:mathrm|mathbf|mathcal|mathbb|mathit|mathsf|mathtt|mathfrak|mathscr|boldsymbol|bm|textbf|textit"
    r"|textrm|texttt|textsf|emph|text|operatorname|hat|tilde|bar|vec|widehat|widetilde|overline|underline"
    r"|displaystyle|mbox)\b\s*"
)
_UNICODE_MATH = {**{k: f" {v} " for k, v in GREEK.items()}, **{k: f" {v} " for k, v in SYMBOLS.items()}}
_LATEX_COMMAND = r"\\([A-Za-z]+)"


def normalize_math(expr: pl.Expr) -> pl.Expr:
    """Math written in LaTeX and rendered as Unicode, spelled one way (before folding)."""
    return expr.map_batches(_normalize_math_rows, return_dtype=pl.String, is_elementwise=True)


def _normalize_math_rows(text: pl.Series) -> pl.Series:
    """The LaTeX passes run on the rows holding a backslash only: each of them needs one (and the
    Unicode spellings bring none), and most abstracts have none (~84 % of the bench corpus), so
    whole-column passes were most of `match_text`'s time, which blocking and scoring pay for every
    abstract (`tests/test_resolve.py` checks it against every pass on every row). Likewise the
    Unicode spellings run on the rows holding a non-ASCII character only (~6 %)."""
    spelled = _on_non_ascii_rows(text, _spell_unicode_math).clone()  # clone: scattered into below
    has_latex = text.str.contains("\\", literal=True).fill_null(False)
    if has_latex.any():
        rows = has_latex.arg_true()
        spelled = spelled.scatter(rows, _latex_passes(text.gather(rows)))
    # sub/superscripts glue to their base in Unicode ("n²" → NFKD "n2"): glue them in LaTeX too
    return spelled.str.replace_all(r"[$\\{}^_]", "")


def _spell_unicode_math(text: pl.Series) -> pl.Series:
    return text.str.replace_many(list(_UNICODE_MATH), list(_UNICODE_MATH.values()))


def _latex_passes(text: pl.Series) -> pl.Series:
    """Styles dropped, Unicode math and LaTeX names spelled as words (in this order)."""
    spelled = _spell_unicode_math(text.str.replace_all(LATEX_STYLE, ""))
    for name, word in LATEX_SYNONYMS.items():  # few, and each needs word boundaries
        spelled = spelled.str.replace_all(rf"\\{name}\b", f" {word} ")
    return spelled.str.replace_all(_LATEX_COMMAND, " ${1} ")


def match_text(expr: pl.Expr) -> pl.Expr:
    """The text compared for near-duplicates: math spelled one way, then folded to words."""
    return fold_key(normalize_math(expr))


def normalize_math_py(text: str) -> str:
    """`match_text` for one string (tests, diagnostics)."""
    return pl.select(match_text(pl.lit(text))).item()


# ----------------------------------------------------------------------------- hashing
def _fmix64(h: np.ndarray) -> np.ndarray:
    h = h ^ (h >> np.uint64(33))
    h = h * np.uint64(0xFF51AFD7ED558CCD)
    h = h ^ (h >> np.uint64(33))
    h = h * np.uint64(0xC4CEB9FE1A85EC53)
    return h ^ (h >> np.uint64(33))


def _fmix32(h: np.ndarray) -> np.ndarray:
    """datasketch's pre-mix of the affine32 scheme (MurmurHash3 finalizer, 32 bits)."""
    h = h ^ (h >> np.uint32(16))
    h = h * np.uint32(0x85EBCA6B)
    h = h ^ (h >> np.uint32(13))
    h = h * np.uint32(0xC2B2AE35)
    return h ^ (h >> np.uint32(16))


def stable_hash64(values: pl.Series) -> pl.Series:
    """XXH3-64 (seed 0) of each string's UTF-8 bytes, null for null: a specified function, the same
    in every release and on every machine (Polars' own `hash` is per-version). In Rust, over the
    whole column (polars-hash): the resolver hashes every word of every new abstract, ~1M per
    5,000 papers, and BLAKE2b in Python took 31 ms of them, 7 ms now (`python -m
    bench.resolve_micro W.duckdb --baseline 7ba1b1d`: block_keys 174 -> 142 ms)."""
    return values.to_frame("v").select(plh.col("v").nchash.xxh3_64())["v"].rename(values.name)


def _words(df: pl.DataFrame) -> pl.DataFrame:
    """One row per word, in text order: row (index into df), hash."""
    words = (
        df.select(row=pl.int_range(pl.len(), dtype=pl.UInt32), word=pl.col("text").str.split(" "))
        .explode("word")
        .filter(pl.col("word").is_not_null() & (pl.col("word") != ""))
    )
    return words.with_columns(h=stable_hash64(words["word"])).drop("word")


def _shingle_hashes(words: pl.DataFrame) -> pl.DataFrame:
    """32-bit hash of every word 3-shingle (one shingle of all words for shorter texts).
    Vectorised over the whole frame: a word's successors belong to its shingle only while they
    are in the same row (text)."""
    k = SHINGLE_WORDS
    rows, h = words["row"].to_numpy(), words["h"].to_numpy().astype(np.uint64, copy=False)
    n = len(rows)
    combined = h.copy()
    with np.errstate(over="ignore"):
        for i in range(1, k):
            nxt = np.zeros(n, dtype=np.uint64)
            same = rows[i:] == rows[:-i] if n > i else np.zeros(0, dtype=bool)
            nxt[: n - i] = np.where(same, h[i:], 0)
            combined = combined * np.uint64(0x9E3779B97F4A7C15 + 2 * i) + nxt
    full = np.zeros(n, dtype=bool)  # a whole shingle starts here
    full[: max(n - k + 1, 0)] = rows[k - 1:] == rows[: n - k + 1]
    first = np.r_[True, rows[1:] != rows[:-1]] if n else np.zeros(0, dtype=bool)
    keep = full | (first & ~full)  # a text shorter than k words: its one shingle of all words
    hashed = _fmix64(combined[keep])
    return pl.DataFrame({"row": rows[keep], "h32": (hashed & np.uint64(0xFFFFFFFF)).astype(np.uint32)})


def shingle_sets(texts: pl.Series) -> pl.Series:
    """Each text's distinct word 3-shingle hashes (32-bit), as a list column."""
    return _shingle_sets(_words(pl.DataFrame({"text": texts.fill_null("")})), texts.len())


def _shingle_sets(words: pl.DataFrame, n: int) -> pl.Series:
    """`shingle_sets` of the n texts whose `_words` are given."""
    sets = _shingle_hashes(words).group_by("row").agg(pl.col("h32").unique())
    rows = pl.DataFrame({"row": pl.int_range(n, dtype=pl.UInt32, eager=True)})
    return rows.join(sets, on="row", how="left")["h32"].fill_null(pl.lit([], pl.List(pl.UInt32)))


def minhash_signatures(texts: pl.Series) -> np.ndarray:
    """(n, NUM_PERM) uint32 MinHash of each text's word 3-shingles; the same values as
    datasketch `MinHash(num_perm=NUM_PERM, seed=MINHASH_SEED)` fed the same 32-bit hashes,
    computed for a block of texts at once, one permutation at a time (a vector that stays in
    cache, not a shingles x permutations matrix). Texts are match texts."""
    n = texts.len()
    sig = np.full((n, NUM_PERM), np.iinfo(np.uint32).max, dtype=np.uint32)
    if n == 0:
        return sig
    sh = _shingle_hashes(_words(pl.DataFrame({"text": texts})))
    rows, h32 = sh["row"].to_numpy(), _fmix32(sh["h32"].to_numpy())
    if len(rows) == 0:
        return sig
    heads = np.r_[np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]]), len(rows)]  # rows are in order: one run each
    # Blocks of whole texts of about MINHASH_BLOCK shingles: the 60 passes over a block stay in
    # the core's cache (256 KB), twice as fast as 60 passes over a chunk's ~1M shingles.
    cuts = np.unique(np.r_[np.searchsorted(heads, np.arange(0, len(rows), MINHASH_BLOCK)), len(heads) - 1])
    for s, e in zip(cuts[:-1], cuts[1:]):
        lo, hi = heads[s], heads[e]
        sig[rows[heads[s:e]]] = _minhash_block(h32[lo:hi], heads[s:e] - lo)
    return sig


MINHASH_BLOCK = 1 << 16


def _minhash_block(h32: np.ndarray, heads: np.ndarray) -> np.ndarray:
    """(len(heads), NUM_PERM): each permutation's minimum over each run of h32 (runs start at heads)."""
    a, b = _permutations()
    out = np.empty((len(heads), NUM_PERM), dtype=np.uint32)
    permuted = np.empty_like(h32)
    with np.errstate(over="ignore"):
        for j in range(NUM_PERM):  # uint32 wraparound = mod 2^32, as datasketch
            np.multiply(h32, a[j], out=permuted)
            permuted += b[j]
            out[:, j] = np.minimum.reduceat(permuted, heads)
    return out


# ----------------------------------------------------------------------------- blocking
# The first and the last ANCHOR_WORDS words of a text, as `str.split(" ")` cuts them, joined by
# " ": the same strings as splitting, taking the list's head or tail and joining it again (a
# test checks), in a fifth of the time.
_ANCHOR = rf"[^ ]*(?: [^ ]*){{0,{ANCHOR_WORDS - 1}}}"
_PREFIX, _SUFFIX = f"^({_ANCHOR})", f"({_ANCHOR})$"


def block_keys(papers: pl.DataFrame, compiled: bool = False) -> pl.DataFrame:
    """papers (paper_key, abstract, author_keys) → (paper_key, band, bucket): LSH bands of the
    MinHash signature plus the prefix and suffix anchors, each salted with the first author's
    surname token; the anchors once more salted with the second author's, so that a revision
    with an author added before the first, or the first dropped, meets its paper (salted by one
    name only, it never did). And a long abstract's whole signature unsalted (EXACT_BAND): one
    abstract word for word under a first author spelled otherwise ("Müller" / "Mueller", a typo),
    the authors in another order, or written surname first on a search page, never met its
    paper. Two papers are candidates when they share one (band, bucket). `compiled`:
    signatures and anchors from `transforms.signatures` (the same values for ~55 % of the CPU;
    ~1.5 s to load once per process)."""
    if papers.is_empty():
        return pl.DataFrame(schema={"paper_key": pl.Int64, "band": pl.Int16, "bucket": pl.Int64})
    signed = _compiled_signatures if compiled else _signatures
    sig, prefix, suffix = signed(papers["abstract"])
    sig = sig.astype(np.uint64)
    salt = stable_hash64(papers.select(first_author_token(pl.col("author_keys"))).to_series()).to_numpy()
    r = ROWS_PER_BAND
    bands = []
    whole = np.full(papers.height, np.uint64(EXACT_BAND), dtype=np.uint64)  # every band's values, unsalted
    with np.errstate(over="ignore"):
        for band in range(NUM_BANDS):
            h = np.zeros(papers.height, dtype=np.uint64)
            for j in range(r):
                h = _fmix64(h * np.uint64(0x100000001B3) + sig[:, band * r + j] + np.uint64(band))
            bands.append(_fmix64(h ^ salt))
            whole = _fmix64(whole * np.uint64(0x100000001B3) + h)
        anchors = [stable_hash64(edge + f"\x1f{band}").to_numpy() for band, edge in ((PREFIX_BAND, prefix), (SUFFIX_BAND, suffix))]
        bands += [_fmix64(anchor ^ salt) for anchor in anchors]
        second = papers.select(pl.col("author_keys").list.len() >= 2).to_series().to_numpy()
        second_salt = stable_hash64(papers.filter(second).select(first_author_token(pl.col("author_keys"), 1))
                                    .to_series()).to_numpy()
        crossed = [_fmix64(anchor[second] ^ second_salt) for anchor in anchors]
    buckets = np.stack(bands, axis=1).view(np.int64)  # (n, bands): stored as BIGINT
    n_bands = buckets.shape[1]
    keys = papers["paper_key"].to_numpy()
    long = papers.select(pl.col("abstract").str.count_matches(" ") + 1 >= SAME_TEXT_WORDS).to_series().to_numpy()
    titled = _title_keys(papers)
    return pl.DataFrame({
        "paper_key": np.concatenate([np.repeat(keys, n_bands), keys[second], keys[second], keys[long],
                                     titled["paper_key"].to_numpy()]),
        "band": np.concatenate([np.tile(np.arange(n_bands, dtype=np.int16), papers.height),
                                np.full(second.sum(), PREFIX_BAND, np.int16), np.full(second.sum(), SUFFIX_BAND, np.int16),
                                np.full(long.sum(), EXACT_BAND, np.int16), titled["band"].to_numpy()]),
        "bucket": np.concatenate([buckets.reshape(-1), *(c.view(np.int64) for c in crossed), whole[long].view(np.int64),
                                  titled["bucket"].to_numpy()]),
    }, schema={"paper_key": pl.Int64, "band": pl.Int16, "bucket": pl.Int64})


def _title_keys(papers: pl.DataFrame) -> pl.DataFrame:
    """(paper_key, band, bucket) of the titled papers: the folded title salted with the first
    author's surname, in NOTICE_BAND for a short abstract (`is_boilerplate`), else in TITLE_BAND.
    None without a title column (a caller that has no titles)."""
    if "title" not in papers.columns:
        return pl.DataFrame(schema={"paper_key": pl.Int64, "band": pl.Int16, "bucket": pl.Int64})
    titled = papers.select(
        "paper_key", title=fold_key(pl.col("title")), salt=first_author_token(pl.col("author_keys")),
        band=pl.when(is_boilerplate(pl.col("abstract"))).then(NOTICE_BAND).otherwise(TITLE_BAND).cast(pl.Int16),
    ).filter(pl.col("title").is_not_null() & (pl.col("title") != ""))
    text = titled.select(pl.concat_str("title", "salt", pl.lit("title"), separator="\x1f")).to_series()
    return titled.select("paper_key", "band", bucket=stable_hash64(text).cast(pl.UInt64).reinterpret(signed=True))


def _signatures(abstracts: pl.Series) -> tuple[np.ndarray, pl.Series, pl.Series]:
    """MinHash signatures, prefix and suffix anchors of the abstracts' match texts."""
    text = abstracts.to_frame("text").select(match_text(pl.col("text")))["text"]
    return minhash_signatures(text), text.str.extract(_PREFIX), text.str.extract(_SUFFIX)


def _compiled_signatures(abstracts: pl.Series) -> tuple[np.ndarray, pl.Series, pl.Series]:
    """`_signatures` in one compiled pass (transforms.signatures): math spelled one way here,
    non-ASCII texts folded here, words cut and folded there. Texts with a word too long for it
    go the numpy way."""
    try:  # numba: imported only by runs that sign many papers
        from transforms import signatures
    except (ImportError, RuntimeError):  # no numba here, or nowhere to cache its code: the same keys, slower
        return _signatures(abstracts)

    math = abstracts.to_frame("text").select(normalize_math(pl.col("text")))["text"]
    text = _on_non_ascii_rows(math, lambda rows: rows.to_frame("text").select(fold_key(pl.col("text")))["text"])
    a, b = _permutations()
    sig, prefix, suffix, too_long = signatures.signatures(
        text.to_arrow().cast(pa.large_string()), a, b, ANCHOR_WORDS)
    prefix, suffix = pl.Series(prefix, dtype=pl.String), pl.Series(suffix, dtype=pl.String)
    if too_long.any():
        rows = np.flatnonzero(too_long)
        sig[rows], long_prefix, long_suffix = _signatures(abstracts.gather(rows))
        prefix, suffix = prefix.scatter(rows, long_prefix), suffix.scatter(rows, long_suffix)
    return sig, prefix, suffix


# ----------------------------------------------------------------------------- scoring
def _cpdist(a: pl.Series, b: pl.Series, scorer) -> np.ndarray:
    """Element-wise similarity (0-1) of two equally long string columns, in C++."""
    if a.len() == 0:
        return np.zeros(0)
    return process.cpdist(a.fill_null("").to_list(), b.fill_null("").to_list(), scorer=scorer, workers=1) / 100.0


def names_agree(a: pl.Expr, b: pl.Expr, lenient: bool = True) -> pl.Expr:
    """Two name keys at the same position of two lists name one person: equal, equal without
    spaces, or one written with initials ("r munos" / "remi munos"); `lenient`, also one without
    the other's middle names (`middle_dropped`) or its suffix."""
    strict = (a == b) | (a.str.replace_all(" ", "") == b.str.replace_all(" ", "")) | initials_agree(a, b)
    if not lenient:
        return strict
    a, b = (key.str.replace(_SUFFIXED, "$1") for key in (a, b))  # "john smith jr" / "john smith"
    return strict | (a == b) | middle_dropped(a, b) | reordered(a, b)


def reordered(a: pl.Expr, b: pl.Expr) -> pl.Expr:
    """The same words in another order, at the same position of one paper's lists: "Qiuhao Zeng"
    and "Zeng Qiuhao", "YUNFAN Marina" (read surname first: "Marina Yunfan") and "YUNFAN MARINA"."""
    return (a != b) & (_sorted_words(a) == _sorted_words(b)) & a.str.contains(" ")


def _sorted_words(key: pl.Expr) -> pl.Expr:
    return key.str.split(" ").list.sort().list.join(" ")


_SUFFIXED = rf"^(\S+(?: \S+)+) (?:{'|'.join(NAME_SUFFIXES)})$"


def middle_dropped(a: pl.Expr, b: pl.Expr) -> pl.Expr:
    """One key is the other's first and last word ("frederikke marin" / "frederikke isa marin",
    "joshua susskind" / "joshua m susskind"; the first may be an initial of the other's). One
    source shows middle names, another leaves them out: of 400 real ICLR 2024 papers listed both
    ways, 44 were loaded twice, most for this. For the authors of one paper only: as an alias of a
    person everywhere, the short form could be several people."""
    ta, tb = a.str.split(" "), b.str.split(" ")
    short, long = pl.min_horizontal(ta.list.len(), tb.list.len()), pl.max_horizontal(ta.list.len(), tb.list.len())
    first_a, first_b = ta.list.first(), tb.list.first()
    first_ok = (first_a == first_b) | (((first_a.str.len_chars() == 1) | (first_b.str.len_chars() == 1))
                                       & (first_a.str.slice(0, 1) == first_b.str.slice(0, 1)))
    return ((short == 2) & (long > 2) & (long <= MAX_GIVEN_NAMES + 1) & (ta.list.last() == tb.list.last())
            & first_ok).fill_null(False)


def initials_agree(a: pl.Expr, b: pl.Expr) -> pl.Expr:
    """Same surname (last token), same number of tokens, and each given name equal or an
    initial of the other's ("r munos" / "remi munos", "j p sartre" / "jean paul sartre")."""
    ta, tb = a.str.split(" "), b.str.split(" ")
    same_shape = (ta.list.len() == tb.list.len()) & (ta.list.len() >= 2) & (ta.list.last() == tb.list.last())
    token_ok = []
    for i in range(MAX_GIVEN_NAMES):
        x, y = ta.list.get(i, null_on_oob=True), tb.list.get(i, null_on_oob=True)
        is_given = pl.lit(i) < ta.list.len() - 1
        initial = ((x.str.len_chars() == 1) | (y.str.len_chars() == 1)) & (x.str.slice(0, 1) == y.str.slice(0, 1))
        token_ok.append(~is_given | (x == y) | initial)
    fits = pl.all_horizontal(token_ok).fill_null(False)
    return same_shape & (ta.list.len() <= MAX_GIVEN_NAMES + 1) & fits & (a != b)


def author_agreement(pairs: pl.DataFrame, lenient: bool = True) -> pl.Series:
    """Share of the positions both lists show (first min(n_a, n_b)) whose names agree
    (`names_agree`; `lenient`, also one letter apart in a long word: `_one_typo`)."""
    idx = pairs.select(
        pair=pl.int_range(pl.len(), dtype=pl.UInt32),
        a=pl.col("keys_a"),
        b=pl.col("keys_b").list.head(pl.col("keys_a").list.len()),
    ).with_columns(a=pl.col("a").list.head(pl.col("b").list.len()))
    flat = idx.explode("a", "b").filter(pl.col("a").is_not_null())
    flat = flat.with_columns(agree=names_agree(pl.col("a"), pl.col("b"), lenient))
    # A typo is read as one only beside a name that agrees ("Xiaoyu Li" alone is not "Xiaoyi Li")
    differ = flat.select(~pl.col("agree") & pl.col("agree").any().over("pair")).to_series().arg_true()
    if lenient and differ.len():
        flat = flat.with_columns(flat["agree"].scatter(differ, _one_typo(flat["a"].gather(differ), flat["b"].gather(differ))))
    per_pair = flat.group_by("pair").agg(pl.col("agree").mean())
    return idx.select("pair").join(per_pair, on="pair", how="left")["agree"].fill_null(0.0)


def _same_first_author(pairs: pl.DataFrame) -> np.ndarray:
    """Whether the two lists open with one surname (the blocks' salt), or one opens with the
    other's second (an author added before the first, or the first dropped). The anchor blocks
    salted by the second author also pair two papers whose second authors alone agree: a paper of
    the same three co-authors under another first author, with a near-same abstract, is another
    paper (it merged at 3 of 4 positions). A first author's words in another order are one name.
    The shifted opening compares whole names (`names_agree`: "j smith" is "john smith"): by
    surname, "Yiqin Yang" opening one list was "Xu Yang", the other's second, and a twin of 181
    names under another first author merged (1.6 % of the ICLR 2024 lists open with two authors
    of one surname). The first authors compare by surname, the blocks' salt: real sources of one
    paper write its first author "Alexander Robey" / "Alex Robey", "Manh Luong" / "Tien Manh Luong"
    (20 of the 2,260 ICLR 2024 papers listed both ways)."""
    first = [first_author_token(pl.col(c)) for c in ("keys_a", "keys_b")]
    opening = [pl.col(c).list.first() for c in ("keys_a", "keys_b")]
    second = [pl.col(c).list.get(1, null_on_oob=True) for c in ("keys_a", "keys_b")]
    shifted = names_agree(opening[0], second[1]) | names_agree(second[0], opening[1])
    swapped = reordered(*opening)  # "Zeng Qiuhao"
    return pairs.select((first[0] == first[1]) | (shifted | swapped).fill_null(False)).to_series().to_numpy()


def _one_paper_however_listed(pairs: pl.DataFrame, titled: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For pairs of one long abstract under one title (`titled`: both show it) or beside none:
    (whether the lists name one paper's people, the share of the names compared that agree).
    They do when they name the same people in another order (`_most_of_the_shorter`; sorted by
    surname, the longest common subsequence is the names shared), under one title only: an
    untitled record with the first two authors swapped may be a companion's ("Part II" under Part
    I's abstract); or open with one name spelled alike (fuzz ratio FIRST_NAME_SPELLED or more:
    "Nallamala" / "Nalamala", "Juergen Mueller" / "Jurgen Muller"), the other names agreeing at
    their positions (`author_agreement`): "Yang Liu" / "Yang Li" with other co-authors are other
    people. The share is what paper_match reports: the names shared of the shorter list, or the
    positions with the first names counted as agreeing (the positions alone said 1 of 3 for a
    list reversed)."""
    by_surname = [pl.col(c).list.eval(pl.element().sort_by(surname_token(pl.element()), pl.element()))
                  for c in ("keys_a", "keys_b")]
    common, sizes = _names_in_order(pairs.with_columns(keys_a=by_surname[0], keys_b=by_surname[1]))
    reordered = titled & _most_of_the_shorter(common, sizes, min_names=np.minimum(sizes, ALIGNED_MIN_NAMES)) & (sizes > 0)
    firsts = [pairs[c].list.first() for c in ("keys_a", "keys_b")]
    rest = pairs.with_columns(keys_a=pl.col("keys_a").list.slice(1), keys_b=pl.col("keys_b").list.slice(1))
    shown = rest.select(pl.min_horizontal(pl.col("keys_a").list.len(), pl.col("keys_b").list.len())).to_series().to_numpy()
    rest_share = author_agreement(rest).fill_null(0.0).to_numpy()
    alike = (_cpdist(*firsts, fuzz.ratio) >= FIRST_NAME_SPELLED) | _fewer_words(pairs)
    spelled = ((shown == 0) | (rest_share >= AUTHOR_GATE)) & alike
    share = np.maximum(np.where(reordered, common / np.maximum(sizes, 1), 0.0),
                       np.where(spelled, (1 + rest_share * shown) / (1 + shown), 0.0))
    return reordered | spelled, share


FIRST_NAME_SPELLED = 0.9  # "gautam reddy nallamala" / "gautam reddy nalamala", "suha kose" / "sueha koese"


def _fewer_words(pairs: pl.DataFrame) -> np.ndarray:
    """Whether one first author is the other's opening words, two or more: a source that leaves
    out a last name ("Gautam Reddy Nallamala" / "Gautam Reddy", "Amro Kamal Mohamed Abbas" /
    "Amro Kamal", "López-García" / "López": 2 of the 2,260 ICLR 2024 papers between their two
    sources, each split under one long abstract)."""
    a, b = (pl.col(c).list.first() for c in ("keys_a", "keys_b"))

    def opens(short: pl.Expr, long: pl.Expr) -> pl.Expr:
        return short.str.contains(" ") & (long + " ").str.starts_with(short + " ")
    return pairs.select(opens(a, b) | opens(b, a)).to_series().fill_null(False).to_numpy()


ALIGNED_MIN_NAMES = 2  # one name found in the other list is no evidence of the same people
# Of the shorter list's names compared, the share two lists of one paper must both show: a real
# revision, "Tongliang Liu, Chentao Shen, Chen Jia and 4 more" after "Chentao Shen, Chen Jia,
# Mingjie Huang and 3 more", shows two of three. Two names was enough: a same-title twin of 181
# names shared 2 of the 30 compared with its paper's 102, and merged (author_agreement 1.0).
ALIGNED_MIN_SHARE = Fraction(2, 3)


def _most_of_the_shorter(common: np.ndarray, sizes: np.ndarray, min_names=ALIGNED_MIN_NAMES) -> np.ndarray:
    """Whether `common` names (found in both lists) are ALIGNED_MIN_SHARE of the shorter list's
    `sizes` names compared, and `min_names` at least."""
    share = ALIGNED_MIN_SHARE
    return (common >= min_names) & (common * share.denominator >= sizes * share.numerator)


def aligned_agreement(pairs: pl.DataFrame) -> np.ndarray:
    """1 when the other list shows every name of the shorter one in the same order, at least
    ALIGNED_MIN_NAMES of them; else 0 (`_names_in_order`). Lists cut short ("and 3 more") may
    hide as many of those names as the declared totals differ (total_a, total_b when the pairs
    have them): "Tongliang Liu, Chentao Shen, Chen Jia and 4 more" shows two of "Chentao Shen,
    Chen Jia, Mingjie Huang and 3 more", its third pushed past the cut. Hidden or not, the names
    found are most of the shorter list (`_most_of_the_shorter`): totals 80 apart hid 28 of 30,
    and 2 names shared made two long lists one paper's. The 1 says: every name both lists can
    show agrees, in order."""
    if pairs.is_empty():
        return np.zeros(0)
    common, sizes = _names_in_order(pairs)
    whole = common >= sizes - _pushed_past_the_cut(pairs)
    return (whole & _most_of_the_shorter(common, sizes)).astype(float)


def _pushed_past_the_cut(pairs: pl.DataFrame) -> np.ndarray:
    """Names of the shorter list the other may hide: the difference of the declared totals when
    both are known and a list is cut short (shows fewer names than its total); else 0."""
    if "total_a" not in pairs.columns or "total_b" not in pairs.columns:
        return np.zeros(pairs.height, dtype=np.int64)
    cut = (pl.col("keys_a").list.len() < pl.col("total_a")) | (pl.col("keys_b").list.len() < pl.col("total_b"))
    added = (pl.col("total_a") - pl.col("total_b")).abs()
    return pairs.select(pl.when(cut).then(added).otherwise(0).fill_null(0).cast(pl.Int64)).to_series().to_numpy()


def _names_in_order(pairs: pl.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """(names the two lists show in the same order: the longest common subsequence under
    `names_agree`; names of the shorter list) per pair. For `aligned_agreement`, a part is no
    evidence: companion papers whose co-first authors swap places ("Lee, Chen, Wu, Li" /
    "Chen, Lee, Wu, Li") share 3 of 4 in order, and merged. A revision that adds an author
    ("Dmitri Volkov, Ann Lee, Bo Chen" after "Ann Lee, Bo Chen") or drops one moves every later
    name: position by position they disagreed, and the paper loaded twice. For the few pairs the
    positions fail (the lists are crossed name by name). The shorter list's first MAX_ALIGNED
    names are looked up in the whole longer list: a cut listing's 10 names, sorted by surname,
    fell past the first 30 of a revision's 60 about half the time, and the paper split."""
    len_a, len_b = pl.col("keys_a").list.len(), pl.col("keys_b").list.len()
    lists = pairs.select(pair=pl.int_range(pl.len(), dtype=pl.UInt32),
                         a=pl.when(len_a <= len_b).then(pl.col("keys_a").list.head(MAX_ALIGNED)).otherwise("keys_a"),
                         b=pl.when(len_b <= len_a).then(pl.col("keys_b").list.head(MAX_ALIGNED)).otherwise("keys_b"))
    # Names are crossed within a surname only (the names that agree share it): crossed all with
    # all, 20k pairs of 40 names took a minute.
    a, b = (lists.select("pair", pl.col(side).alias(side[0]), pl.int_ranges(pl.col(side).list.len()).alias(index))
            .explode(side[0], index).filter(pl.col(side[0]).is_not_null())
            .with_columns(surname=surname_token(pl.col(side[0])))
            for side, index in (("a", "i"), ("b", "j")))
    cross = a.join(b, on=["pair", "surname"])
    agreeing = cross.filter(names_agree(pl.col("a"), pl.col("b"))).group_by("pair").agg("i", "j")
    sizes = lists.select(pl.min_horizontal(pl.col("a").list.len(), pl.col("b").list.len())).to_series().to_numpy()
    common = np.zeros(pairs.height, dtype=np.int64)
    for pair, i, j in agreeing.iter_rows():
        common[pair] = _common_subsequence(sorted(zip(i, j)))
    return common, sizes


MAX_ALIGNED = 30  # the shorter list's names compared in order: a physics list of 500 stays cheap


def _common_subsequence(matches: list[tuple[int, int]]) -> int:
    """The longest chain of (i, j) matches increasing in both: the names two lists show in the
    same order (the longest strictly increasing run of j over i, one j per i)."""
    tails: list[int] = []  # tails[k]: the least j ending a chain of k + 1 (patience sorting)
    for _, row in groupby(sorted(matches), key=itemgetter(0)):
        for _, j in sorted(row, reverse=True):  # one i's js descending: never two of them chained
            k = bisect_left(tails, j)
            tails[k:k + 1] = [j]
    return len(tails)


def _strict_agreement(pairs: pl.DataFrame, rows: np.ndarray) -> np.ndarray:
    """`author_agreement` without its lenient rules, on `rows` (a mask) only; 0 elsewhere."""
    out = np.zeros(pairs.height)
    where = np.flatnonzero(rows)
    if where.size:
        out[where] = author_agreement(pairs[where], lenient=False).to_numpy()
    return out


TYPO_MIN_LETTERS = 6  # a letter more or less in a shorter word is another name ("Jian" / "Jiao")


def _one_typo(a: pl.Series, b: pl.Series) -> list[bool]:
    """Two name keys one letter apart in one long word, their other words equal ("vivien
    cabannnes" / "vivien cabannes"): one listing's typo, which made a paper listed four times
    two papers when it stood at one of its three positions."""
    close = process.cpdist(a.to_list(), b.to_list(), scorer=Levenshtein.distance, workers=1) == 1
    out = [False] * a.len()
    for i in np.flatnonzero(close):
        wa, wb = a[int(i)].split(" "), b[int(i)].split(" ")
        differ = [(x, y) for x, y in zip(wa, wb) if x != y] if len(wa) == len(wb) else []
        out[i] = len(differ) == 1 and min(map(len, differ[0])) >= TYPO_MIN_LETTERS
    return out


def _distinct_of_pairs(a: pl.Series, b: pl.Series) -> tuple[pl.Series, np.ndarray, np.ndarray]:
    """The distinct values of two columns (null is one) and, per row, the index of a's and of
    b's value among them."""
    both = pl.concat([a, b]).rename("value").to_frame()
    distinct = both.unique().with_row_index("i")
    i = both.join(distinct, on="value", how="left", nulls_equal=True, maintain_order="left")["i"].to_numpy()
    return distinct["value"], i[: a.len()], i[a.len():]


def _word_sequences(texts: pl.Series, words: pl.DataFrame) -> list[array]:
    """Each text's word hashes (`_words` of the texts), in text order: the Indel ratio of two is
    that of the two word lists, `str.split(" ")` (rapidfuzz compares words by a hash too),
    without making every word of every text a Python string. Match texts hold no empty word
    but the empty text, whose one empty word `_words` drops: it is put back (a test checks)."""
    rows, h = words["row"].to_numpy(), words["h"].to_numpy()
    ends = np.searchsorted(rows, np.arange(1, texts.len()))  # rows are in order
    seqs = [array("Q", text.tobytes()) for text in np.split(h, ends)]
    for row in (texts == "").arg_true():
        seqs[row] = array("Q", stable_hash64(pl.Series([""])).to_numpy().tobytes())
    return seqs


def _text_similarity(texts: pl.Series, ia: np.ndarray, ib: np.ndarray, short_words: np.ndarray
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Shingle Jaccard, containment (texts of MIN_PREFIX_WORDS words or more) and word Indel
    ratio of texts[ia] against texts[ib], pair by pair."""
    used, inverse = np.unique(np.r_[ia, ib], return_inverse=True)  # the texts these pairs compare
    texts, ia, ib = texts.gather(used), inverse[: len(ia)], inverse[len(ia):]
    words = _words(pl.DataFrame({"text": texts}))
    sets = _shingle_sets(words, texts.len())
    sizes = pl.DataFrame({"a": sets.gather(ia), "b": sets.gather(ib)}).select(
        shared=pl.col("a").list.set_intersection(pl.col("b")).list.len(),
        na=pl.col("a").list.len(), nb=pl.col("b").list.len(),
    )
    shared, na, nb = (sizes[c].to_numpy().astype(float) for c in ("shared", "na", "nb"))
    jaccard = shared / np.maximum(na + nb - shared, 1)
    contained = np.where(short_words >= MIN_PREFIX_WORDS, shared / np.maximum(np.minimum(na, nb), 1), 0.0)
    seqs = _word_sequences(texts, words)
    ratio = process.cpdist([seqs[i] for i in ia], [seqs[i] for i in ib], scorer=Indel.normalized_similarity, workers=1)
    return jaccard, contained, ratio


def with_match_texts(pairs: pl.DataFrame) -> pl.DataFrame:
    """pairs (abstract_a, abstract_b) with their match texts (text_a, text_b), each distinct
    abstract made into one once: a paper's abstract is in every pair of its candidates."""
    abstracts, ia, ib = _distinct_of_pairs(pairs["abstract_a"], pairs["abstract_b"])
    texts = abstracts.to_frame().select(match_text(pl.col("value")))["value"]
    return pairs.with_columns(text_a=texts.gather(ia), text_b=texts.gather(ib))


def score_pairs(pairs: pl.DataFrame, threshold: float = DEFAULT_THRESHOLD) -> pl.DataFrame:
    """pairs (text_a, text_b: match texts; title_a, title_b: titles or null; keys_a, keys_b:
    author keys) → the same rows plus features, score, rule and is_match."""
    if pairs.is_empty():
        return pairs.with_columns(
            abstract_ratio=pl.lit(None, pl.Float64), shingle_jaccard=pl.lit(None, pl.Float64),
            shingle_containment=pl.lit(None, pl.Float64),
            title_ratio=pl.lit(None, pl.Float64), author_agreement=pl.lit(None, pl.Float64),
            score=pl.lit(None, pl.Float64), rule=pl.lit(None, pl.String), is_match=pl.lit(None, pl.Boolean),
        )
    # Abstracts compare by their word 3-shingles: chance matches of common words ("of the")
    # inflate character or word LCS ratios between sibling papers, shared 3-shingles do not.
    # Containment (shared / shingles of the shorter) covers an abstract cut short or extended;
    # Jaccard (shared / all) is the symmetric edit measure.
    # Per distinct text, then per pair: a text is in several pairs (its paper's candidates).
    texts, ia, ib = _distinct_of_pairs(pairs["text_a"], pairs["text_b"])
    spaces = texts.str.count_matches(" ")
    short_words = pl.select(pl.min_horizontal(spaces.gather(ia), spaces.gather(ib)) + 1).to_series().to_numpy()
    # Two equal texts that hold a word share every shingle and every word: 1 on each measure
    # (containment only from MIN_PREFIX_WORDS words). Such pairs were 98-100 % of the scored pairs
    # of both bench shapes (one abstract under two titles, or with and without one); only the
    # others are compared.
    same = (ia == ib) & (texts.fill_null("") != "").to_numpy()[ia]
    jaccard, contained, ratio = np.ones(len(ia)), (short_words >= MIN_PREFIX_WORDS).astype(float), np.ones(len(ia))
    differ = np.flatnonzero(~same)
    if differ.size:
        jaccard[differ], contained[differ], ratio[differ] = _text_similarity(texts, ia[differ], ib[differ], short_words[differ])
    titles = _folded_titles(pairs)
    # A title cut short ("Policy Gradients" / "Policy Gradients Converge Linearly") agrees in full;
    # so does one a display cut anywhere, its ellipsis saying so ("... Multi-Layer Transform…":
    # ratio 0.72, and a paper shown so split from itself).
    ellipsis = pairs.select(a=pl.col("title_a").str.contains(CUT_TITLE), b=pl.col("title_b").str.contains(CUT_TITLE))
    cut_short = titles.with_columns(ellipsis).select(
        (pl.col("ta").str.count_matches(" ") >= 1)
        & pl.col("tb").str.starts_with(pl.when(pl.col("a")).then(pl.col("ta")).otherwise(pl.col("ta") + " "))
        | (pl.col("tb").str.count_matches(" ") >= 1)
        & pl.col("ta").str.starts_with(pl.when(pl.col("b")).then(pl.col("tb")).otherwise(pl.col("tb") + " "))
    ).to_series().fill_null(False).to_numpy()
    # ... and the words it does not show hold nothing to compare: not a number ("… in 6G RAN
    # Slicing"). Two parts of a series ("T: Part I" / "T: Part II") still say two papers to each
    # other, so a cut title beside both joins one of them (DISTINCT_RULES), not both.
    display_cut = cut_short & (ellipsis["a"] | ellipsis["b"]).fill_null(False).to_numpy()
    written = _cpdist(titles["ta"], titles["tb"], fuzz.ratio)
    title = np.where(cut_short, 1.0, written)
    has_titles = (titles["ta"].is_not_null() & titles["tb"].is_not_null() & (titles["ta"] != "") & (titles["tb"] != "")).to_numpy()
    # Numbers and swapped words are looked for only in titles close enough to pass the gate: other
    # titles fail it anyway. On all of them, one boilerplate abstract under thousands of titles
    # ("No abstract available.") spent ~80 % of the resolver's time comparing words of titles
    # that were never alike.
    close = has_titles & (title >= TITLE_GATE)
    edited = np.flatnonzero(close & (title < 1.0))
    # The numbers of a title cut short are looked at too: the words after the cut may be the
    # number ("T" / "T: Part II"), never its own words ("T" / "T Not Seen in Training").
    numbered = np.flatnonzero(close & (written < 1.0) & ~display_cut)
    other_numbers = _other_numbers(pairs, numbered) | _swapped_words(pairs, edited)
    # Beside a boilerplate abstract ("No abstract available.": a titles-only feed) the abstracts
    # cannot say which word each title means, as `_swapped_words` asks them: a word of one title
    # replaced by another (no form of it) is the template filled in twice, by the same authors
    # ("Efficient Training of ..." / "Efficient Inference of ...", "Vision ..." / "Audio ...":
    # merged at 0.98-0.99). A spelling fixed, a plural, a linking word or an acronym spelled out is
    # no such word (`_reworded`).
    long_words = pl.select(pl.max_horizontal(spaces.gather(ia), spaces.gather(ib)) + 1).to_series().to_numpy()
    said_nothing = np.flatnonzero(close & (written < 1.0) & ~display_cut & (long_words < BOILERPLATE_WORDS))
    other_numbers |= _reworded(pairs, said_nothing, min_words=1, short_words=True)
    other_numbers |= _reversed_direction(pairs, edited)
    # A name the fold cannot spell ("C++" / "C#" / "C": one folded title, one folded abstract).
    raw_differ = pairs.select((pl.col("title_a") != pl.col("title_b"))  # (and one holds a mark: most hold none)
                              & (pl.col("title_a").str.contains(r"[+#♯<>=≤≥≠,\\]")
                                 | pl.col("title_b").str.contains(r"[+#♯<>=≤≥≠,\\]"))
                              ).to_series().fill_null(False).to_numpy()
    other_numbers |= _other_marks(pairs, np.flatnonzero(close & raw_differ))
    authors = author_agreement(pairs).to_numpy(writable=True)
    text = np.maximum(jaccard, contained)
    shifted = np.flatnonzero((authors < AUTHOR_GATE) & (text >= threshold))
    authors[shifted] = np.maximum(authors[shifted], aligned_agreement(pairs[shifted]))
    # One long abstract word for word needs fewer names to agree: real sources of one paper differ
    # at a third of the positions ("Aleksandr"/"Alexander", "Jeff"/"Jeffrey", "Seyed Iman"/"Iman").
    same_long_text = (jaccard == 1.0) & (short_words >= SAME_TEXT_WORDS)
    authors_ok = (authors >= AUTHOR_GATE) | (same_long_text & (authors >= SAME_TEXT_AUTHOR_GATE))
    authors_ok &= _same_first_author(pairs)
    # One long abstract word for word under one title (or beside none) is one paper however its
    # list is written: the first surname spelled otherwise ("Wisadwongsa" / "Wizadwongsa",
    # "Müller" / "Mueller": the positions agree, the gate's surnames do not), or, under one title,
    # the names in another order (swapped, reversed).
    copied = np.flatnonzero(same_long_text & (~has_titles | (title == 1.0)) & ~authors_ok)
    if copied.size:
        listed_ok, listed_share = _one_paper_however_listed(pairs[copied], has_titles[copied])
        authors_ok[copied] = (authors[copied] >= AUTHOR_GATE) | listed_ok
        authors[copied] = np.maximum(authors[copied], listed_share)  # the names compared, reported
    w = WEIGHTS
    with_title = w["text"] * text + w["authors"] * authors + w["title"] * title
    without_title = (w["text"] * text + w["authors"] * authors) / (w["text"] + w["authors"])
    score = np.where(has_titles, with_title, without_title)
    titles_ok = ~has_titles | ((title >= TITLE_GATE) & ~other_numbers)
    # A sibling on one template ("... How Language Models Handle Conflicting Evidence" / "... Generate
    # Contracts?", every other sentence its own) scored 0.82 with its paper and merged: a title's
    # words replaced count little in a character ratio (0.82), and the abstract's share (0.78) is
    # what a revision's could be. Both changed at once are two papers.
    titles_ok &= ~(_reworded(pairs, np.flatnonzero(close & (written < 1.0) & (text < TEXT_SURE))))
    # A short abstract may be boilerplate ("No abstract available.") and says little: it merges
    # with two titles that agree, or, without two titles, only as the same text shown with the
    # same authors at every position both lists show (a short real abstract on a search page).
    # (the names strictly: "Xiaoyu Li" / "Xiaoyi Li" under one withdrawn notice are two people)
    same_people = (jaccard == 1.0) & (authors == 1.0)
    same_people &= _strict_agreement(pairs, same_people & (short_words < BOILERPLATE_WORDS)) == 1.0
    # With a title, the declared totals agree too: two "Editorial"s of one editor and one
    # sentence, "and 2 more" and "and 9 more", are two documents.
    boilerplate_ok = (short_words >= BOILERPLATE_WORDS) | np.where(has_titles, titles_ok & _same_totals(pairs), same_people)
    is_match = authors_ok & titles_ok & boilerplate_ok & (score >= threshold)
    # A short notice (a withdrawal: NOTICE_TEXT) under the same title (folded)
    # and the same authors, every name agreeing strictly and as many shown, is a version of the
    # paper (arXiv relists a withdrawn version with its title and authors): merged whatever the
    # texts' score, which says nothing here (NOTICE_RULE). Two long abstracts never count so.
    notice = ~is_match & _same_paper_under_a_notice(pairs, titles, _a_notice(pairs, has_titles & (short_words < BOILERPLATE_WORDS)))
    is_match |= notice
    # Titles holding other numbers ("T" / "T: Part II") or swapping a word are two papers whatever
    # the texts score: labelled below_threshold, the pair was not among the distinct ones
    # (DISTINCT_RULES), and an untitled copy of the parts' shared opening joined one part, not neither.
    titles_say_two = has_titles & other_numbers
    rule = np.select(
        [notice, is_match & (contained - jaccard > CONTAINED_MARGIN), is_match, titles_say_two, score < threshold,
         ~authors_ok, ~titles_ok],
        [NOTICE_RULE, "abstract_contained", "abstract", "titles_differ", "below_threshold", "authors_differ",
         "titles_differ"],
        "boilerplate_abstract",
    )
    return pairs.with_columns(
        abstract_ratio=pl.Series(ratio, dtype=pl.Float64).round(4), shingle_jaccard=pl.Series(jaccard).round(4),
        shingle_containment=pl.Series(contained).round(4),
        title_ratio=pl.Series(np.where(has_titles, title, np.nan)).round(4).fill_nan(None),
        author_agreement=pl.Series(authors).round(4), score=pl.Series(score).round(4),
        rule=pl.Series(rule), is_match=pl.Series(is_match),
    )


def _folded_titles(pairs: pl.DataFrame) -> pl.DataFrame:
    """The titles folded (ta, tb); two that differ with math spelled one way, as the texts are
    ("From dyadic $\\Lambda_{\\alpha}$ ..." / "From dyadic Λα ...": ratio 0.53, a paper split
    from itself). Only those: most pairs show one title twice."""
    titles = pairs.select(ta=fold_key(pl.col("title_a")), tb=fold_key(pl.col("title_b")))
    rows = titles.select((pl.col("ta") != pl.col("tb")).fill_null(False)).to_series().arg_true()
    if rows.is_empty():
        return titles
    spelled = pairs[rows].select(ta=match_text(pl.col("title_a")), tb=match_text(pl.col("title_b")))
    return titles.with_columns(titles["ta"].scatter(rows, spelled["ta"]), titles["tb"].scatter(rows, spelled["tb"]))


def _a_notice(pairs: pl.DataFrame, rows: np.ndarray) -> np.ndarray:
    """For `rows` (a mask), whether a side's text is a short notice (NOTICE_TEXT): a short real
    abstract is no notice ("We present the proceedings of ...": two "Introduction"s of one editor,
    or one beside another paper of its title, were merged)."""
    out = np.zeros(pairs.height, dtype=bool)
    picked = np.flatnonzero(rows)
    if picked.size:
        def side(text: str) -> pl.Expr:  # short as the blocks count it (`is_boilerplate`)
            return pl.col(text).str.contains(NOTICE_TEXT) & is_boilerplate(pl.col(text))
        out[picked] = pairs[picked].select((side("text_a") | side("text_b")).fill_null(False)).to_series().to_numpy()
    return out


def _same_paper_under_a_notice(pairs: pl.DataFrame, titles: pl.DataFrame, rows: np.ndarray) -> np.ndarray:
    """For `rows` (a mask: titled pairs with a short abstract), whether the folded titles are equal
    and the author lists name the same people: as many names shown (and the same declared total,
    when both are known), each agreeing at its position strictly (`names_agree` without its lenient
    rules: "Xiaoyu Li" / "Xiaoyi Li" are two people)."""
    out = np.zeros(pairs.height, dtype=bool)
    same = rows & (titles["ta"] == titles["tb"]).fill_null(False).to_numpy()
    same &= pairs.select(pl.col("keys_a").list.len() == pl.col("keys_b").list.len()).to_series().fill_null(False).to_numpy()
    same &= _same_totals(pairs)
    out[same] = _strict_agreement(pairs, same)[same] == 1.0
    return out


def _same_totals(pairs: pl.DataFrame) -> np.ndarray:
    """Whether the declared totals of each pair agree (or one is not known)."""
    if "total_a" not in pairs.columns or "total_b" not in pairs.columns:
        return np.ones(pairs.height, dtype=bool)
    return pairs.select((pl.col("total_a") == pl.col("total_b")).fill_null(True)).to_series().to_numpy()


def ambiguous_notices(accepted: pl.DataFrame) -> tuple[pl.DataFrame, dict[tuple[int, int, bool], str]]:
    """accepted pairs (paper_key, other, other_is_paper, score, rule) without the NOTICE_RULE pairs of
    a node whose notice partners are not one paper (two of them not accepted as a pair: two stored
    papers, or two real papers of one title and authors, "Introduction"), and the pairs left out,
    each KEPT_APART_AMBIGUOUS: which of them was withdrawn is unknown, and through the notice they
    chained into one paper."""
    notice = accepted.filter(pl.col("rule") == NOTICE_RULE)
    if notice.is_empty():
        return accepted, {}
    ends = list(notice.select("paper_key", "other", "other_is_paper").iter_rows())
    joined = {frozenset({(False, k), (bool(p), o)}) for k, o, p in accepted.select(
        "paper_key", "other", "other_is_paper").iter_rows()}
    partners: dict[tuple[bool, int], set[tuple[bool, int]]] = {}
    for key, other, is_paper in ends:
        a, b = (False, key), (bool(is_paper), other)
        partners.setdefault(a, set()).add(b)
        partners.setdefault(b, set()).add(a)
    ambiguous = {node for node, near in partners.items()
                 if any(frozenset({x, y}) not in joined for x in near for y in near if x < y)}
    dropped = {(k, o, bool(p)) for k, o, p in ends if {(False, k), (bool(p), o)} & ambiguous}
    if not dropped:
        return accepted, {}
    keep = ~pl.struct("paper_key", "other", "other_is_paper").is_in(pl.DataFrame(
        list(dropped), schema={"paper_key": pl.Int64, "other": pl.Int64, "other_is_paper": pl.Boolean},
        orient="row").to_struct().implode())
    return accepted.filter(keep | (pl.col("rule") != NOTICE_RULE)), dict.fromkeys(dropped, KEPT_APART_AMBIGUOUS)


def _other_numbers(pairs: pl.DataFrame, rows: np.ndarray) -> np.ndarray:
    """Whether the two titles of each pair hold other numbers (`TITLE_NUMBER`) or other notices
    (`TITLE_NOTICE` opening them, `TITLE_NOTICE_CLOSING` closing them), looked at in
    `rows` only (titles that differ: most pairs show one title twice). Read with TeX spelled as
    Unicode: "$O(n^2)$" and "O(n²)" hold the same numbers."""
    other = np.zeros(pairs.height, dtype=bool)
    if rows.size:
        # (the tag left out only beside a title without one: "(Version 2)" / "(Version 3)" may be
        # two papers of a series, as "Part 2" / "Part 3")
        one_tagged = pl.col("title_a").str.contains(VERSION_TAG) != pl.col("title_b").str.contains(VERSION_TAG)
        written = [pl.when(one_tagged).then(pl.col(t).str.replace(VERSION_TAG, "")).otherwise(pl.col(t))
                   .str.replace(_RE, "Reply to ") for t in ("title_a", "title_b")]
        titles = [fold_key(match_text(numbers_written(t))) for t in written]
        numbers = [title_numbers(t) for t in titles]
        # one notice however placed: "Erratum: T" and "T (Erratum)" are one document
        notices = [pl.concat_str(t.str.extract(TITLE_NOTICE, 1), fold_key(_closing_notice(w)),
                                 separator="|", ignore_nulls=True).fill_null("") for t, w in zip(titles, written)]
        found = pairs[rows].select(differ=(numbers[0] != numbers[1]) | (notices[0] != notices[1]),
                                   a=titles[0], b=titles[1])
        other[rows] = found["differ"].fill_null(False).to_numpy()
        other[rows] |= [_notice_before(a or "", b or "") for a, b in found.select("a", "b").iter_rows()]
    return other


def _notice_before(a: str, b: str) -> bool:
    """Whether one folded title is the other whole after a few words naming a notice (`NOTICE_WORDS`)."""
    short, long = sorted((a, b), key=len)
    if not short or not long.endswith(" " + short):
        return False
    opening = long[: -len(short) - 1]
    return opening.count(" ") < NOTICE_WORDS_MAX and re.search(NOTICE_WORDS, opening) is not None


# "A to B" (a direction: "Swahili to English", "Text-to-Image", "Sim → Real"), in a title's folded words.
_ARROWS = r"\s*(?:→|⟶|->|=>|⇒)\s*"
_SAYS_TO = r"(?i)\bto\b|\binto\b|\p{L}2\p{L}|→|⟶|->|=>|⇒"


def _directions(title: pl.Expr) -> pl.Expr:
    """The "A to B" pairs of a title ("a>b"), arrows read as "to"; overlapping pairs too ("A to B to C")."""
    folded = fold_key(match_text(title.str.replace_all(_ARROWS, " to ")))
    pairs = folded.str.extract_all(r"\S+ (?:to|into|2) \S+")
    # (each "to" once: extract_all does not overlap, so the words after each "to" are read again)
    again = folded.str.replace(r"^\S+ ", "").str.extract_all(r"\S+ (?:to|into|2) \S+")
    return pl.concat_list(pairs, again).list.eval(
        pl.element().str.replace(r"^(\S+) (?:to|into|2) (\S+)$", "${1}>${2}")).list.unique()


def _reversed_direction(pairs: pl.DataFrame, rows: np.ndarray) -> np.ndarray:
    """Whether one title says "A to B" where the other says "B to A" and not "A to B": the same words,
    the other direction ("Translating Swahili to English ..." / "... English to Swahili ...",
    "Text-to-Image" / "Image-to-Text Retrieval", on one abstract template: merged at 0.81-0.86).
    Looked at in `rows` only (titles that differ)."""
    out = np.zeros(pairs.height, dtype=bool)
    if not rows.size:
        return out
    # (only titles that both say "to": most say it in neither)
    said = pairs[rows].select(pl.col("title_a").str.contains(_SAYS_TO) & pl.col("title_b").str.contains(_SAYS_TO))
    rows = rows[said.to_series().fill_null(False).to_numpy()]
    found = pairs[rows].select(a=_directions(pl.col("title_a")), b=_directions(pl.col("title_b")))
    for i, (da, db) in zip(rows, found.iter_rows()):
        da, db = set(da or []), set(db or [])
        # (one direction each: "A to B" / "A to B and B to A" may be the paper grown)
        out[i] = any(flip in db and d not in db and flip not in da
                     for d in da for flip in [">".join(reversed(d.split(">", 1)))])
    return out


# A word closed by a mark that names another thing ("C++", "C#", "F#", "LoRA+"), not before a letter or
# digit ("Vision+Language" is two words): folded, "C++", "C#" and "C" are one word.
MARKED_WORD = r"\p{L}[\p{L}\p{N}]*(?:\+\+|\+|#|♯)(?:[^\p{L}\p{N}+#♯]|$)"
# ... and a relation, or a parenthesised pair ("p<2" / "p>2", "(1+λ)" / "(1,λ)"; not "Vision+Language",
# a title's words), which the fold drops too: of the title with its math spelled one way (`normalize_math`).
OPERATOR = r"[<>=]|\b(?:leq|geq|neq)\b|\(\s*[\p{L}\p{N}]+\s*[+,]\s*[\p{L}\p{N}]+\s*\)"


def _other_marks(pairs: pl.DataFrame, rows: np.ndarray) -> np.ndarray:
    """Whether the two titles of each pair hold other marked words (`MARKED_WORD`), looked at in
    `rows` only (titles written otherwise): "Memory Errors in C++ Programs" / "... in C# Programs" /
    "... in C Programs", on one abstract template, were one paper."""
    other = np.zeros(pairs.height, dtype=bool)
    if rows.size:
        marks = [pl.concat_list(pl.col(t).str.to_lowercase().str.extract_all(MARKED_WORD)
                                .list.eval(pl.element().str.replace(r"[^\p{L}\p{N}+#♯]$", "")).list.unique().list.sort(),
                                normalize_math(pl.col(t)).str.to_lowercase().str.extract_all(OPERATOR)
                                .list.eval(pl.element().str.replace_all(r"\s", "")))
                 for t in ("title_a", "title_b")]
        other[rows] = pairs[rows].select(marks[0] != marks[1]).to_series().fill_null(False).to_numpy()
    return other


def _closing_notice(title: pl.Expr) -> pl.Expr:
    """The notice closing a title as written (`TITLE_NOTICE_CLOSING`), or null."""
    return pl.coalesce(title.str.extract(TITLE_NOTICE_CLOSING, 1), title.str.extract(TITLE_NOTICE_CLOSING, 2))


def _swapped_words(pairs: pl.DataFrame, rows: np.ndarray) -> np.ndarray:
    """Whether the titles say opposite things (`_opposite`), or a word of one title stands where
    the other title has another word (not a spelling of it: fuzz ratio under TITLE_GATE) and the
    abstracts swap the two words the same way (as written, or renamed completely in some form:
    `_renamed`): one template filled in twice ("Overview of the
    Shared Task on Spanish Clinical NER" and "... Portuguese ..." by the same people, their
    abstracts differing in the language and a count: merged at 0.84). A revision that renames its
    title's word seldom renames it all through its abstract too. The abstracts swap a word when
    each says it more often than the other (a sibling may name the other's word once: "unlike
    earlier work on Spanish"). Two words spelled alike but for their opening letters (fuzz ratio
    TITLE_GATE or more, `_other_opening`: "encoder" / "decoder", "minimization" / "maximization")
    are no spelling fix either: such companions merged at 0.95-0.98. They are swapped when the
    abstracts say each word otherwise often (a sibling may say both, as "encoder-decoder" does); a
    title's typo fixed ("Grpahs") is in neither abstract. Looked at in `rows` only (titles that
    differ)."""
    swapped = np.zeros(pairs.height, dtype=bool)
    if not rows.size:
        return swapped
    words = pairs[rows].select(*_title_words(), *(fold_key(match_text(pl.col(c))).str.split(" ").alias(c) for c in ("text_a", "text_b")))
    for i, (ta, tb, xa, xb) in zip(rows, words.iter_rows()):
        if "".join(ta or []) == "".join(tb or []):  # the same words spaced otherwise: "Non-Convex" / "Nonconvex"
            continue
        only_a, only_b = set(ta or []) - set(tb or []), set(tb or []) - set(ta or [])
        # The words compared as a swap are counted: a title's word replaced by one its title already
        # holds elsewhere ("Heavy Neutral Leptons ... Three Charged Leptons" / "Heavy Charged
        # Leptons ... Three Charged Leptons": as sets, only one title had a word of its own).
        extra_a, extra_b = Counter(ta or []) - Counter(tb or []), Counter(tb or []) - Counter(ta or [])
        # (a word respelled is no swap: "Summarization ... Summarizing" / "Summarisation ... Summarising"
        # paired each with the other word too)
        extra_a, extra_b = _not_respelled(extra_a, extra_b), _not_respelled(extra_b, extra_a)
        in_a, in_b = Counter(xa or []), Counter(xb or [])
        swapped[i] = _opposite(only_a, only_b) or any(
            (in_a[a] > in_b[a] and in_b[b] > in_a[b]) or _renamed(in_a, in_b, a, b) if fuzz.ratio(a, b) < TITLE_GATE * 100
            else (_other_opening(a, b) and in_a[a] != in_b[a] and in_a[b] != in_b[b])
            for a in extra_a for b in extra_b)
    return swapped


def _not_respelled(words: Counter, other: Counter) -> Counter:
    """The words without a respelling among the other title's (`words.one_word`)."""
    return Counter({w: n for w, n in words.items() if not any(one_word(w, o) for o in other)})


def _title_words() -> list[pl.Expr]:
    """title_a and title_b as lists of words, folded, TeX spelled as Unicode, contractions spelled out."""
    return [_contractions_spelled(fold_key(match_text(pl.col(c)))).str.split(" ").alias(c) for c in ("title_a", "title_b")]


def _reworded(pairs: pl.DataFrame, rows: np.ndarray, min_words: int = REWORDED_WORDS,
              short_words: bool = False) -> np.ndarray:
    """Whether REWORDED_WORDS or more words of each title (of MIN_FORM_LETTERS letters or more:
    "for" / "to" is wording) have no form in the other (`_a_form`): "Handle Conflicting Evidence" /
    "Generate Contracts". A word added or dropped ("Towards"), a plural, a spelling fix
    ("Optimisation"), a linking word (TITLE_LINKS), an acronym spelled out ("LLMs"), or one word
    renamed is a revision's edit. Looked at in `rows` only. `min_words`, `short_words`: beside a
    boilerplate abstract one word replaced is enough, a short one too ("W" / "Z", not a linking
    word, SHORT_LINKS, or a number: `score_pairs`)."""
    reworded = np.zeros(pairs.height, dtype=bool)
    if not rows.size:
        return reworded

    def compared(w: str) -> bool:
        if short_words:
            return w not in SHORT_LINKS and not re.match(ORDINAL_DIGITS, w) and w not in _NUMBER_VALUES
        return len(w) >= MIN_FORM_LETTERS
    for i, (ta, tb) in zip(rows, pairs[rows].select(_title_words()).iter_rows()):
        ta, tb = ta or [], tb or []
        spelled_out = _acronyms_spelled(ta, tb) | _acronyms_spelled(tb, ta)
        words_a, words_b = (Counter(w for w in t if compared(w) and w not in TITLE_LINKS and w not in spelled_out)
                            for t in (ta, tb))
        # (counted: "... Where They Struggle" / "... Where They Time", "Time" said earlier in both
        # titles; as sets, the other title had no word of its own, as in `_swapped_words`)
        only_a, only_b = set(words_a - words_b), set(words_b - words_a)
        form = _a_form_or_transposed_one_word if short_words else _a_form
        replaced_a = [a for a in only_a if not any(form(a, b) for b in only_b)]
        replaced_b = [b for b in only_b if not any(form(a, b) for a in only_a)]
        reworded[i] = min(len(replaced_a), len(replaced_b)) >= min_words
    return reworded


def _acronyms_spelled(title: list[str], other: list[str]) -> set[str]:
    """The words of `title` that an acronym of `other` spells out, and the acronym ("LLMs" /
    "Large Language Models"; a plural's "s" aside)."""
    spelled = set()
    for word in set(other) - set(title):
        for letters in {word, word.removesuffix("s")} - {""}:
            for start in range(len(title) - len(letters) + 1):
                run = title[start:start + len(letters)]
                if len(letters) >= 2 and "".join(w[:1] for w in run) == letters:
                    spelled |= {word, *run}
    return spelled


def _a_form(a: str, b: str) -> bool:
    """Two title words one word's forms: spelled close (fuzz ratio TITLE_GATE or more), or one's stem
    opening the other ("rank" / "ranking", "model" / "models")."""
    stem_a, stem_b = _stem(a), _stem(b)
    return fuzz.ratio(a, b) >= TITLE_GATE * 100 or stem_a.startswith(stem_b) or stem_b.startswith(stem_a)


MIN_FORM_LETTERS = 4  # "muon" in "dimuon"; a shorter word is inside too many others ("jet", "art")


def _a_form_or_transposed(a: str, b: str) -> bool:
    """`_a_form`, or a short word's typo: two letters swapped ("Multi-veiw" / "Multi-view", 0.75)."""
    return _a_form(a, b) or (len(a) >= MIN_FORM_LETTERS and sorted(a) == sorted(b) and OSA.distance(a, b) == 1)


def _a_form_or_transposed_one_word(a: str, b: str) -> bool:
    """`_a_form_or_transposed`, unless the two are two English words (`other_english_word`):
    beside a placeholder abstract, "Encoder" / "Decoder" (0.86) is the template filled in twice,
    "Lerning" / "Learning" a typo fixed."""
    return _a_form_or_transposed(a, b) and not other_english_word(a, b)


def _stem(word: str) -> str:
    return word[:-1] if word.endswith("s") and len(word) > MIN_FORM_LETTERS else word


def _renamed(in_a: Counter, in_b: Counter, a: str, b: str) -> bool:
    """Whether each abstract says its title's word in some form (`_said`) and never the other's:
    a template filled in twice. Only a complete rename: a revision renaming one phrase ("network"
    -> "graph" beside "Networks" -> "Graphs") still says the old word."""
    return _said(in_a, a) > 0 and _said(in_b, a) == 0 and _said(in_b, b) > 0 and _said(in_a, b) == 0


def _said(counts: Counter, word: str) -> int:
    """How often an abstract (word counts) says a title's word in some form: the word, or a word
    held in it (a plural's "s" dropped) of MIN_FORM_LETTERS or more and over half its length. A
    title's "Dielectron" / "Dimuon", "Korean" / "Japanese" are said as "electrons" / "muons",
    "Korea" / "Japan": counted as written, neither abstract said either word. Not a word that
    holds the title's ("research" is no form of "Search", "encoder" none of "Code")."""
    stem = _stem(word)

    def form(other: str) -> bool:
        held = _stem(other)
        return len(held) >= MIN_FORM_LETTERS and 2 * len(held) > len(stem) and held in stem
    return counts[word] + sum(n for other, n in counts.items() if other != word and form(other))


OPENING_LETTERS = 3  # a spelling (US/UK, a typo fixed) keeps a word's opening: "optimi[sz]ation", "colo(u)r"


def _other_opening(a: str, b: str) -> bool:
    """Two words that differ within their first OPENING_LETTERS letters: another word, however
    alike the rest ("encoder" / "decoder", "maximization" / "minimization")."""
    return a[:OPENING_LETTERS] != b[:OPENING_LETTERS] and len(a) > OPENING_LETTERS and len(b) > OPENING_LETTERS


# Words that turn a title's claim around ("Why X Works" / "Why X Does Not Work"), and prefixes
# that make a word its opposite ("Learning" / "Unlearning", "Symmetric" / "Asymmetric"): close in
# spelling (fuzz ratio 0.8-0.95), they passed for a spelling fix.
NEGATIONS = frozenset({"not", "no", "non", "without", "cannot", "never", "nor", "un", "anti"})
NEGATING_PREFIXES = ("un", "non", "in", "im", "ir", "il", "dis", "de", "anti", "a", "an")
_MIN_STEM = 5  # "a" + "live" is no opposite: a short word is seldom a stem


# Contractions and shorthand spelled out, so that they are no negation of their long form.
_CONTRACTIONS = {r"(?:^| )can t(?: |$)": " cannot ", r"(?:^| )won t(?: |$)": " will not ", r"n t(?: |$)": " not ",
                 r"(?:^| )w o(?: |$)": " without "}


def _contractions_spelled(title: pl.Expr) -> pl.Expr:
    """A folded title with "don t" as "do not", "can t" as "cannot", "w o" as "without"."""
    for pattern, spelled in _CONTRACTIONS.items():
        title = title.str.replace_all(pattern, spelled)
    return title.str.replace_all(" +", " ").str.strip_chars()


def _opposite(only_a: set[str], only_b: set[str]) -> bool:
    """Whether one title alone holds a negation, or a word of one is a word of the other with a
    negating prefix. Not a prefix written apart ("nonlinear" / "non-linear", folded "non linear")."""
    for x, y in ((only_a, only_b), (only_b, only_a)):
        if any(not any(other.startswith(word) for other in y) for word in x & NEGATIONS):
            return True
        if any(len(stem) >= _MIN_STEM and long == prefix + stem and prefix not in x
               for stem in x for long in y for prefix in NEGATING_PREFIXES):
            return True
    return False


# ----------------------------------------------------------------------------- clustering
KEPT_APART_EXISTING = "kept_apart_existing"  # the merge would join two stored papers
KEPT_APART_REJECTED = "kept_apart_rejected_pair"  # the merge would join two papers the scorer kept apart
KEPT_APART_AMBIGUOUS = "kept_apart_ambiguous"  # the key fits two papers that are surely distinct
# Scores this close to a key's best match are as good: two distinct papers this close both fit it.
AMBIGUITY_MARGIN = 0.05
# Rejections that say two papers are distinct (not merely "not similar enough").
DISTINCT_RULES = ("authors_differ", "titles_differ", "boilerplate_abstract")


def cluster_papers(edges: pl.DataFrame, rejected: pl.DataFrame | None = None
                   ) -> tuple[dict[int, int], dict[tuple[int, int, bool], str]]:
    """Clusters of new keys, each joined to at most one existing paper.

    edges: (paper_key, other, other_is_paper, score) accepted pairs; `other` is a new key or,
    when other_is_paper, an existing paper_id. rejected: (paper_key, other, other_is_paper) pairs
    the scorer kept apart. Strongest edges first; an edge is skipped when it would put two
    existing papers in one cluster (existing ids are never merged away) or two nodes of a
    rejected pair: accepted pairs never chain papers the scorer kept apart. A key accepted with
    two papers that the scorer found distinct (rejected for their titles or authors: an untitled
    listing of a copied abstract) fits both: it joins neither rather than one by chance.
    Returns new key → paper_id (the existing paper's id, else the lowest key of the cluster) for
    the keys of the edges (every other new key is its own paper) and, per accepted edge that was
    skipped (paper_key, other, other_is_paper), the reason (every other accepted edge was applied).

    A lone edge (each end in no other accepted pair and in no rejected one) is applied whatever
    the order: it is decided in Polars, the rest in `_cluster_in_order`. Most accepted pairs of the
    bench corpora are lone (one abstract listed with and without a title), and the loop over them
    took 2-3 s of the resolver at 1M listings."""
    lone, edges = _split_lone(edges, rejected)
    mapping, skipped = _cluster_in_order(edges, _between(edges, rejected))
    paper = pl.when("other_is_paper").then("other").otherwise(pl.min_horizontal("paper_key", "other"))
    ids = lone.select(paper=paper, key=pl.col("paper_key"), other=pl.col("other"), is_paper=pl.col("other_is_paper"))
    mapping.update(zip(ids["key"], ids["paper"]))
    new_others = ids.filter(~pl.col("is_paper"))
    mapping.update(zip(new_others["other"], new_others["paper"]))
    return mapping, skipped


def _nodes(frame: pl.DataFrame) -> pl.LazyFrame:
    """Both ends of each pair as nodes (is_paper, node): a new key and a stored paper id may be
    equal. Lazy: the callers count or dedupe them streaming, without a copy of every pair's ends."""
    pairs = frame.lazy()
    return pl.concat([pairs.select(is_paper=pl.lit(False), node=pl.col("paper_key")),
                      pairs.select(is_paper=pl.col("other_is_paper"), node=pl.col("other"))])


def _distinct_nodes(frame: pl.DataFrame) -> pl.DataFrame:
    """The pairs' nodes (is_paper, node), each once."""
    return _nodes(frame).unique().collect(engine="streaming")


def _both_ends_in(nodes: pl.DataFrame) -> pl.Expr:
    """Whether both ends of a pair (paper_key, other, other_is_paper) are among `nodes`."""
    new, paper = nodes.filter(~pl.col("is_paper"))["node"].implode(), nodes.filter("is_paper")["node"].implode()
    return pl.col("paper_key").is_in(new) & pl.when("other_is_paper").then(
        pl.col("other").is_in(paper)).otherwise(pl.col("other").is_in(new))


def _split_lone(edges: pl.DataFrame, rejected: pl.DataFrame | None) -> tuple[pl.DataFrame, pl.DataFrame]:
    """(lone edges, the others): an edge is lone when neither of its nodes is in another accepted
    pair or in a rejected pair."""
    seen = _nodes(edges)
    if rejected is not None and not rejected.is_empty():
        seen = pl.concat([seen, _nodes(rejected.select("paper_key", "other", "other_is_paper"))])
    is_lone = _both_ends_in(seen.group_by("is_paper", "node").len().filter(pl.col("len") == 1).collect(engine="streaming"))
    return edges.filter(is_lone), edges.filter(~is_lone)


def _between(edges: pl.DataFrame, rejected: pl.DataFrame | None) -> pl.DataFrame | None:
    """The rejected pairs between two nodes of the edges: the only ones a cluster or a close call
    can meet. One abstract under 128k titles ("No abstract available.") was rejected 1.7M times
    with 5 pairs accepted, and every rejected pair was held as Python sets."""
    if rejected is None or rejected.is_empty():
        return rejected
    return rejected.filter(_both_ends_in(_distinct_nodes(edges)))


def _cluster_in_order(edges: pl.DataFrame, rejected: pl.DataFrame | None
                      ) -> tuple[dict[int, int], dict[tuple[int, int, bool], str]]:
    """`cluster_papers` of any edges, strongest first (see there). Nodes are numbered and the
    loop keeps a list per node, never a Python object per pair: a corpus of many revisions of
    each paper accepts ~20 pairs per listing (2.1M at 100k listings), and a dict entry, sets and
    tuples per pair (377 bytes a pair) held ~0.8 GB beside DuckDB's memory limit."""
    ordered = edges.sort(["score", "paper_key", "other", "other_is_paper"], descending=[True, False, False, False])
    nodes = _distinct_nodes(ordered).sort("is_paper", "node").with_row_index("idx")
    ends = _node_numbers(ordered, nodes)
    flagged = nodes.join(_ambiguous_nodes(ordered, rejected), on=["is_paper", "node"], how="semi")["idx"]
    ambiguous = np.zeros(nodes.height, dtype=bool)
    ambiguous[flagged.to_numpy()] = True
    apart = _apart_by_number(rejected, nodes)
    root = list(range(nodes.height))
    members: dict[int, list[int]] = {}
    paper_of = [n if p else None for p, n in nodes.select("is_paper", "node").iter_rows()]
    reasons = np.full(ordered.height, APPLIED, dtype=np.int8)
    for start in range(0, ordered.height, LOOP_CHUNK):
        part = ends.slice(start, LOOP_CHUNK)
        for i, a, b in zip(range(start, start + part.height), part["a"].to_list(), part["b"].to_list()):
            if ambiguous[a] or ambiguous[b]:
                reasons[i] = AMBIGUOUS
            else:
                reasons[i] = _join(a, b, root, members, paper_of, apart)
    return _cluster_mapping(nodes, root, ends, reasons), _skipped(ordered, reasons)


LOOP_CHUNK = 100_000  # pairs turned into Python ints at a time
SKIP_REASONS = (None, KEPT_APART_AMBIGUOUS, KEPT_APART_EXISTING, KEPT_APART_REJECTED)
APPLIED, AMBIGUOUS, EXISTING, REJECTED = range(len(SKIP_REASONS))  # a pair's outcome, as an index


def _join(a: int, b: int, root: list[int], members: dict[int, list[int]], paper_of: list[int | None],
          apart: dict[int, set[int]]) -> int:
    """Joins the clusters of nodes a and b unless that puts two stored papers or two nodes of a
    rejected pair in one; returns the outcome (an index of SKIP_REASONS)."""
    ra, rb = root[a], root[b]
    if ra == rb:
        return APPLIED
    small, large = sorted((ra, rb), key=lambda r: len(members.get(r, ())))
    if paper_of[ra] is not None and paper_of[rb] is not None:
        return EXISTING
    moved = members.pop(small, [small])
    if any(root[far] == large for m in moved if m in apart for far in apart[m]):
        if len(moved) > 1:
            members[small] = moved
        return REJECTED
    members.setdefault(large, [large]).extend(moved)
    for m in moved:
        root[m] = large
    if paper_of[large] is None:
        paper_of[large] = paper_of[small]
    return APPLIED


def _node_numbers(pairs: pl.DataFrame, nodes: pl.DataFrame) -> pl.DataFrame:
    """(a, b): the numbers in `nodes` (sorted by is_paper, node; numbered from 0) of each pair's
    two ends, in the pairs' order; null where an end is not among them. Binary search over the
    sorted nodes: a hash join of every pair with the nodes held several copies of the pairs."""
    new, papers = (nodes.filter(pl.col("is_paper") == flag)["node"].to_numpy() for flag in (False, True))

    def number(values: np.ndarray, among: np.ndarray, offset: int) -> np.ndarray:
        at = np.minimum(np.searchsorted(among, values), max(len(among) - 1, 0))
        found = among[at] == values if len(among) else np.zeros(len(values), dtype=bool)
        return np.where(found, at + offset, -1)

    a = number(pairs["paper_key"].to_numpy(), new, 0)
    others, is_paper = pairs["other"].to_numpy(), pairs["other_is_paper"].to_numpy()
    b = np.where(is_paper, number(others, papers, len(new)), number(others, new, 0))
    return pl.DataFrame({"a": a, "b": b}).with_columns(pl.all().replace(-1, None))


def _apart_by_number(rejected: pl.DataFrame | None, nodes: pl.DataFrame) -> dict[int, set[int]]:
    """The rejected pairs between numbered nodes, both ways: number → the numbers kept apart from it."""
    apart: dict[int, set[int]] = {}
    if rejected is None or rejected.is_empty():
        return apart
    ends = _node_numbers(rejected, nodes).drop_nulls()
    for a, b in ends.iter_rows():
        apart.setdefault(a, set()).add(b)
        apart.setdefault(b, set()).add(a)
    return apart


def _cluster_mapping(nodes: pl.DataFrame, root: list[int], ends: pl.DataFrame, reasons: np.ndarray) -> dict[int, int]:
    """New key → its cluster's stored paper, else the cluster's lowest new key, for every new key
    of a pair that was not skipped as ambiguous (only those were ever looked at)."""
    looked_at = ends.filter(pl.Series(reasons) != AMBIGUOUS)
    seen = pl.concat([looked_at["a"], looked_at["b"]]).unique()
    clustered = nodes.with_columns(root=pl.Series(root, dtype=pl.UInt32)).filter(pl.col("idx").is_in(seen.implode()))
    per_root = clustered.group_by("root").agg(paper=pl.col("node").filter("is_paper").first(),
                                              lowest=pl.col("node").filter(~pl.col("is_paper")).min())
    new = clustered.filter(~pl.col("is_paper")).join(per_root, on="root").select(
        "node", paper=pl.coalesce("paper", "lowest"))
    return dict(zip(new["node"].to_list(), new["paper"].to_list()))


def _skipped(ordered: pl.DataFrame, reasons: np.ndarray) -> dict[tuple[int, int, bool], str]:
    """(paper_key, other, other_is_paper) → why the accepted pair was not applied, for the skipped
    pairs only."""
    skipped = ordered.select("paper_key", "other", "other_is_paper").with_columns(
        reason=pl.Series(reasons)).filter(pl.col("reason") != APPLIED)
    return {(k, o, p): SKIP_REASONS[r] for k, o, p, r in skipped.iter_rows()}


def name_new_papers(mapping: dict[int, int], id_keys: dict[int, int], taken: set[int],
                    first_on: dict[int, object] | None = None) -> dict[int, int]:
    """The id of each new paper: the *id key* (abstract and first author, no title) of its first
    listed key (`first_on`; undated last; the smallest id key among keys of that date), so a
    paper listed with and without a title gets one id whichever listing arrived first, and a
    paper whose later listings edit its abstract keeps its first one's (a fresh load and an
    incremental load in date order agree: with the smallest id key of all, a v2 loaded with its
    v1 named the paper, loaded later it did not). When that id is taken (a stored paper, or
    another new paper of the same abstract and first author under another title) the paper keeps
    the lowest of its own keys. Keys that joined a stored paper keep its id."""
    first_on = first_on or {}
    clusters: dict[int, list[int]] = {}
    for key, paper in mapping.items():
        clusters.setdefault(paper, []).append(key)
    claimed, renamed = set(taken), {}
    for paper in sorted(clusters):  # deterministic: by each cluster's lowest key
        keys = clusters[paper]
        if paper not in keys:  # joined a stored paper
            continue
        first = min(keys, key=lambda k: (first_on.get(k) is None, first_on.get(k) or 0, id_keys[k]))
        wanted = id_keys[first]
        renamed[paper] = wanted if wanted not in claimed else paper
        claimed.add(renamed[paper])
    return {key: renamed.get(paper, paper) for key, paper in mapping.items()}


def paper_ids(keys: pl.DataFrame, taken: pl.Series, clustered: dict[int, int]) -> pl.DataFrame:
    """`name_new_papers` over frames: keys (paper_key, id_key, first_on) of every new key, taken (the id
    keys stored papers hold), clustered (`cluster_papers`' mapping of the keys in edges; every
    other key is its own paper) -> (paper_key, paper_id). On 800k synthetic new keys the loop took
    5.5-6.5 s and this 0.3-0.4 s, with the same ids (`python -m bench.paper_ids`, two runs); it falls back to the loop where a cluster's own key
    is another's id key (two hashes equal: then the order of claims decides)."""
    clusters = pl.DataFrame({"paper_key": list(clustered), "cluster": list(clustered.values())},
                            schema={"paper_key": pl.Int64, "cluster": pl.Int64})
    if "first_on" not in keys.columns:
        keys = keys.with_columns(first_on=pl.lit(None, pl.Date))
    papers = keys.join(clusters, on="paper_key", how="left").select(
        "paper_key", "id_key", "first_on", paper=pl.coalesce("cluster", "paper_key"))
    named = (papers.group_by("paper").agg(is_new=(pl.col("paper_key") == pl.col("paper")).any(),
                                          wanted=pl.col("id_key").sort_by(["first_on", "id_key"], nulls_last=True).first())
             .filter("is_new")  # a cluster that joined a stored paper keeps its id
             .with_columns(won=~pl.col("wanted").is_in(taken.implode())
                           & (pl.col("paper") == pl.col("paper").min().over("wanted"))))
    if named.filter("won")["wanted"].is_in(named.filter(~pl.col("won"))["paper"].implode()).any():
        mapping = name_new_papers(dict(papers.select("paper_key", "paper").iter_rows()),
                                  dict(keys.select("paper_key", "id_key").iter_rows()), set(taken),
                                  dict(keys.select("paper_key", "first_on").iter_rows()))
        return pl.DataFrame({"paper_key": list(mapping), "paper_id": list(mapping.values())},
                            schema={"paper_key": pl.Int64, "paper_id": pl.Int64})
    ids = named.select("paper", paper_id=pl.when("won").then("wanted").otherwise("paper"))
    return papers.join(ids, on="paper", how="left").select(
        "paper_key", paper_id=pl.coalesce("paper_id", "paper").cast(pl.Int64))


def _ambiguous_nodes(edges: pl.DataFrame, rejected: pl.DataFrame | None) -> pl.DataFrame:
    """Nodes (is_paper, node) accepted with two nodes that are surely distinct papers (rejected
    for their titles or authors, or two stored papers), each scoring within AMBIGUITY_MARGIN of
    the node's best. One clearly best ("Part I"'s own abstract, untitled, beside "Part II" sharing
    most of it) is no ambiguity: such a key joined neither and was a paper of its own. Stored
    papers count as distinct: a key that fits two equally chained them (an untitled "Part II"
    joined "Part I" through a third key that fit both)."""
    distinct = _distinct_pairs(rejected)
    near = _near_where_distinct_meet(edges, distinct)
    best = pl.col("score").max().over("is_paper", "node")
    # an exact copy of one paper is no closer call with another (1.0 beside 0.97: it is the first)
    close = near.filter(pl.col("score") >= pl.when(best >= 1.0).then(best).otherwise(best - AMBIGUITY_MARGIN))
    two_papers = close.filter("near_paper").group_by("is_paper", "node").len().filter(pl.col("len") > 1)
    close_x = close.rename({"near_paper": "x_paper", "near": "x"}).drop("score")
    close_y = close.rename({"near_paper": "y_paper", "near": "y"}).drop("score")
    both = close_x.join(distinct, on=["x_paper", "x"]).join(close_y, on=["is_paper", "node", "y_paper", "y"], how="semi")
    return pl.concat([two_papers.select("is_paper", "node"), both.select("is_paper", "node")]).unique()


def _distinct_pairs(rejected: pl.DataFrame | None) -> pl.DataFrame:
    """The rejected pairs that say two nodes are distinct papers, both ways: (x_paper, x, y_paper, y)."""
    schema = {"x_paper": pl.Boolean, "x": pl.Int64, "y_paper": pl.Boolean, "y": pl.Int64}
    if rejected is None or rejected.is_empty() or "rule" not in rejected.columns:
        return pl.DataFrame(schema=schema)
    one_way = rejected.filter(pl.col("rule").is_in(DISTINCT_RULES)).select(
        x_paper=pl.lit(False), x="paper_key", y_paper="other_is_paper", y="other")
    return pl.concat([one_way, one_way.select(x_paper="y_paper", x="y", y_paper="x_paper", y="x")]).cast(schema)


def _near_where_distinct_meet(edges: pl.DataFrame, distinct: pl.DataFrame) -> pl.DataFrame:
    """(is_paper, node, near_paper, near, score): the accepted pairs of each node that may be
    ambiguous, both ways: a new key accepted with two stored papers, or with a node of a distinct
    pair. Only new keys meet stored papers (pairs are new x new or new x stored), and a node
    needs two partners. Most nodes of a corpus of many revisions are neither: their pairs are
    never copied."""
    score = pl.col("score").cast(pl.Float64)
    near = pl.concat([
        edges.select(is_paper=pl.lit(False), node="paper_key", near_paper="other_is_paper", near="other", score=score),
        edges.select(is_paper="other_is_paper", node="other", near_paper=pl.lit(False), near="paper_key", score=score),
    ]).lazy()
    with_papers = edges.lazy().filter("other_is_paper").group_by("paper_key").len().filter(pl.col("len") > 1).select(
        is_paper=pl.lit(False), node="paper_key")
    by_distinct = near.join(distinct.lazy().select(near_paper="x_paper", near="x").unique(),
                            on=["near_paper", "near"], how="semi").select("is_paper", "node")
    nodes = pl.concat([with_papers, by_distinct]).unique()
    return near.join(nodes, on=["is_paper", "node"], how="semi").filter(
        pl.len().over("is_paper", "node") > 1).collect()


def alias_rule(a: pl.Expr, b: pl.Expr) -> pl.Expr:
    """Why two different keys at one position of one paper are one person (null: they are not)."""
    return (
        pl.when(a == b).then(None)
        .when(a.str.replace_all(" ", "") == b.str.replace_all(" ", "")).then(pl.lit("spacing"))
        .when(initials_agree(a, b)).then(pl.lit("initials"))
    )


def fuller_key(a: pl.Expr, b: pl.Expr) -> pl.Expr:
    """The key that says more: more letters, then (for spacing variants) more words, then the smaller."""
    la, lb = a.str.replace_all(" ", "").str.len_chars(), b.str.replace_all(" ", "").str.len_chars()
    wa, wb = a.str.count_matches(" "), b.str.count_matches(" ")
    return pl.when((la > lb) | ((la == lb) & (wa > wb)) | ((la == lb) & (wa == wb) & (a < b))).then(a).otherwise(b)
