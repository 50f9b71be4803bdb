"""Key terms of each paper, from its title and abstract: Polars and numpy, frame in, frame out.

A candidate term is a run of 1-4 words between stopwords and punctuation (the RAKE idea), with
LaTeX, URLs and numbers cut out first (a word with a letter and digits is a word: "3D", "GPT-4"),
or "X of Y". Words are normalised (lower case, hyphens as spaces, a light plural folding), so
"Language Models" and "language model" are one term.

Scores use only the paper itself (how often the term and its words occur, whether the title or
the abstract's first sentence holds it, how many words it has), never corpus statistics: a paper
gets the same terms in a fresh load and in an incremental run, and loading other papers never
changes them.

No Python loop per paper, and text is handled once per distinct token: Polars lower-cases,
cuts and splits the whole column into tokens and numbers the distinct ones; each distinct word is
plural-folded once; phrases, their parts, counts and the top terms of every paper are then numpy
work on integers (word numbers, terms packed into one UInt64), a few sorts of plain integers
instead of group-bys on strings (`python -m bench.terms` measures the throughput).
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import polars as pl

# Raise it with any change that gives a paper other terms: the next run extracts every paper of
# the warehouse again (flows/terms.py, table term_rules). 2: numbers with letters are words ("3D",
# "GPT-4"), a phrase may open with a hyphen compound's stopword ("in-context learning"); 3: "X of
# Y" terms ("mixture of experts"); 4: the abstract's first sentence weighs (LEAD_WEIGHT); 5: a
# part of two words opens with a word of letters ("GPT-4 agents" has no "4 agent").
RULES_VERSION = 5
OF = "of"  # the one stopword inside a term: "X of Y" ("mixture of experts", "theory of mind")
MAX_WORDS = 4  # longer stopword-free runs are mostly run-on noun piles ("multi agent rl based ...")
TOP_K = 10  # terms kept per paper
# Scoring weights, chosen on the ICLR keywords (eval/keywords.py; a 3-parameter grid, README).
TITLE_WEIGHT = 2.0  # a term in the title counts as two more occurrences
# A term in the abstract's first sentence (and not the title) counts as half an occurrence more: a
# paper names its topic first, and named only there, a one-word topic lost to every tf-1 phrase of
# two words (eval.rising_topics: 0 of 10 topics named only in the abstract rose; 7 with 0.5; 8 with
# 1.0, but then two one-word topics named in the title only fell out of their papers' top 10).
LEAD_WEIGHT = 0.5
LENGTH_BONUS = 0.2  # per word beyond the first
HEAD_REPEAT_WEIGHT = 0.8  # second-best and later phrases of one head word
# Terms come from the title and the abstract's first characters: what a paper is about is said
# early, and the cost grows with the text (README "Topics and trends": quality vs length).
ABSTRACT_CHARS = 500

# Function words, and the boilerplate of abstracts ("we propose a novel ... that outperforms
# state-of-the-art ..."): they split candidate phrases and are never part of a term.
STOPWORDS = frozenset("""
a about above across after again against all almost along already also although always am among amongst an
and another any anyone anything are around as at away be became because become becomes been before being below
beneath beside besides between beyond both but by can cannot could did do does doing done down due during each
either else enough especially etc even ever every everything far few for from further furthermore had has have
having he hence her here hers herein him his how however i ie eg if in into is it its itself just least less let
like many may me might more moreover most mostly much must my neither never nevertheless no nor not now of off
often on once one only onto or other others otherwise our ours ourselves out over own per perhaps quite rather
same several she should since so some such than that the their theirs them themselves then there thereby
therefore these they this those though through throughout thus to together too toward towards under unless until
up upon us very via was we well were what whatever when where whereas whether which while who whom whose why will
with within without would yet you your zero two three four five six seven eight nine ten first second third
hundreds thousands millions billions
abstract paper papers work works study studies article here herein propose proposes proposed proposing present
presents presented presenting introduce introduces introduced introducing show shows showed shown showing
demonstrate demonstrates demonstrated demonstrating achieve achieves achieved achieving achievement outperform
outperforms outperformed outperforming improve improves improving improvement improvements use uses used using
usage utilize utilizes utilized utilizing leverage leverages leveraged leveraging enable enables enabled enabling
allow allows allowed allowing provide provides provided providing require requires required requiring
investigate investigates investigated investigating explore explores explored exploring develop develops
developed developing evaluate evaluates evaluated evaluating evaluation evaluations conduct conducts conducted
conducting perform performs performed performing obtain obtains obtained obtaining apply applies applied applying
consider considers considered considering focus focuses focused focusing address addresses addressed addressing
tackle tackles tackled tackling aim aims aimed aiming remain remains remained remaining lead leads led leading yield
yields yielded yielding result results resulted resulting suggest suggests suggested suggesting find finds found
finding findings observe observes observed observing observation make makes made making take takes took taken
taking give gives gave given giving know known called named termed dubbed refer referred compare compares compared
comparing comparison comparisons exist exists existing various different diverse several specific particular
particularly significant significantly substantial substantially effective effectively efficiently strong stronger
strongly better best good high higher highly low lower key main mainly important importantly crucial critical
critically challenging challenge challenges difficult difficulty simple simply recent recently prior previous
previously current currently traditional typical typically common commonly widely wide extensive extensively
comprehensive comprehensively experiment experiments experimental experimentally empirical empirically additionally
specifically notably respectively approach approaches method methods methodology framework frameworks technique
techniques performance performances problem problems issue issues task tasks stateoftheart sota baseline baselines
outcome outcomes insight insights way ways number numbers amount set sets kind kinds type types form forms case
cases part parts lot lots range variety terms term fact aspect aspects thing things level levels degree order
able unable possible impossible potential potentially promising superior competitive remarkable remarkably
considerable considerably consistent consistently novel new existing recent further additional often still
instead although despite across even without whereas available publicly code codes github project page released
release source open achieves enhance enhances enhanced enhancing boost boosts boosted boosting propose able
paradigm paradigms benefit benefits beneficial advantage advantages limitation limitations drawback drawbacks
overall generally general usually thereby thus therefore namely i.e e.g et al versus vs can't don't won't it's
we're need needs needed necessary serve serves served crucially inherent inherently underlying based
research researcher researchers learn learns learned learnt gap gaps effect effects change changes stage stages
update updates view views rule user users development field fields group groups dimension dimensions condition
conditions pipeline pipelines success rate rates report reports percentage point points end goal goals
state-of-the-art real-world large-scale high-quality fine-grained well-known open-source off-the-shelf
plug-and-play end-to-end so-called trade-off trade-offs in-depth up-to-date long-standing cutting-edge
wide-ranging easy-to-use general-purpose task-specific domain-specific user-friendly well-established
non-trivial high-level low-level
""".split())

# Generic on their own, informative inside a phrase ("model" alone says nothing; "diffusion
# model" does): never a one-word term.
GENERIC_WORDS = frozenset("""
model learning network data training method algorithm system analysis setting function information feature
features dataset datasets accuracy efficiency effectiveness quality process application applications domain
domains scenario scenarios structure tool tools environment environments evidence behavior behaviour property
properties world step steps time times space input output sample error loss rate cost value size scale state
strategy mechanism component module solution solutions theory experiment practice understanding knowledge
capability capabilities ability abilities objective goal target idea concept result version variant variants
large small deep neural machine real robust efficient accurate scalable fast novel human empirical theoretical
long short single multiple early late full partial global fixed open closed simple complex
""".split())

# Irregular plurals worth folding, and words whose final "s" is not a plural.
IRREGULAR_PLURALS = {
    "analyses": "analysis", "hypotheses": "hypothesis", "indices": "index", "matrices": "matrix",
    "vertices": "vertex", "criteria": "criterion", "phenomena": "phenomenon", "children": "child",
    "people": "person", "axes": "axis", "bases": "basis", "theses": "thesis", "movies": "movie",
    "cookies": "cookie", "caches": "cache", "gases": "gas", "biases": "bias", "aliases": "alias",
}
KEEP_FINAL_S = frozenset("""
series species means lens news gas atlas canvas bayes chaos ethics optics graphics economics robotics
semantics analytics logistics physics dynamics kinetics mathematics statistics linguistics electronics
mechanics genomics proteomics informatics pros cons
""".split())
_KEPT_S = "\x01"  # stands for a final "s" that the plural rules must not touch
# Words whose final "s" is no plural: the -ics sciences, ...ias, KEEP_FINAL_S (and, by the
# rules themselves, ...ss, ...us, ...is).
_KEEP_S_RE = (r"\b([a-z]*(?:omic|istic|matic|onic|dynamic|physic|ia)|"
              + "|".join(w[:-1] for w in sorted(KEEP_FINAL_S)) + r")s ")


def _fold_plurals(padded: pl.Expr) -> pl.Expr:
    """Light plural folding of every word of lower-case text where each word is followed by a
    space: models→model, studies→study, processes→process, patches→patch, analyses→analysis;
    analysis, physics, bias, loss stay. A few regex passes over whole strings."""
    plurals = list(IRREGULAR_PLURALS)
    singulars = [IRREGULAR_PLURALS[w] for w in plurals]
    protected = [w[:-1] + _KEPT_S if w.endswith("s") else w for w in singulars]
    return (
        padded.str.replace_many([f" {w} " for w in plurals], [f" {w} " for w in protected])
        .str.replace_all(_KEEP_S_RE, "${1}" + _KEPT_S + " ")
        .str.replace_all(r"\b([a-z]{2,}[^aeiou ])ies ", "${1}y ")  # studies → study (not "dies")
        .str.replace_all(r"\b([a-z]+(?:ss|x|ch|sh|zz))es ", "${1} ")  # processes, boxes, patches
        .str.replace_all(r"\b([a-z0-9]{2,}[^sui ])s ", "${1} ")  # models; not loss, corpus, analysis
        .str.replace_all(_KEPT_S, "s", literal=True)
    )


def normalise_terms(text: pl.Expr) -> pl.Expr:
    """The one normal form of a term or keyword: NFKC, lower case, hyphens and other
    punctuation as spaces, every word's plural folded, single spaces. Stored terms and the
    evaluation's keywords both go through it."""
    spaced = text.str.normalize("NFKC").str.to_lowercase().str.replace_all(r"[^a-z0-9]+", "  ")
    # each word between two spaces of its own, so every rule sees "word " for every word
    padded = pl.concat_str(spaced.str.replace(r"^", " "), pl.lit("  "))  # keeps the input's name
    return _fold_plurals(padded).str.replace_all(r"\s+", " ").str.strip_chars()


def normalise_term(text: str) -> str:
    """`normalise_terms` for one string (tests, the CLI)."""
    return pl.select(normalise_terms(pl.lit(text, pl.String))).item()


def plain_text(text: pl.Expr) -> pl.Expr:
    """Readable text from abstract source: LaTeX math and commands, markdown emphasis and URLs
    replaced by what a reader would see (shared with the dashboard, see `readable_text`)."""
    out = text
    for pattern, replacement in _LATEX_SYMBOLS:
        out = out.str.replace_all(pattern, replacement, literal=True)
    return (
        out
        .str.replace_all(r"\\(?:textbf|textit|emph|mathrm|mathbf|mathcal|mathbb|text|texttt|underline|textsc)\{([^{}]*)\}", "${1}")
        .str.replace_all(r"\\([%&#_$])", "${1}")
        .str.replace_all(r"\\[A-Za-z]+\s?", "")  # remaining commands: no readable form
        .str.replace_all(r"\$([^$]*)\$", "${1}")  # math delimiters
        .str.replace_all(r"[{}]", "")
        .str.replace_all(r"\*\*([^*]+)\*\*|\*([^*\s][^*]*)\*", "${1}${2}")  # markdown emphasis
    )


# LaTeX commands that have a one-character reading (the common ones in abstracts).
_LATEX_SYMBOLS = [
    ("\\times", "×"), ("\\cdot", "·"), ("\\pm", "±"), ("\\leq", "≤"), ("\\geq", "≥"), ("\\le ", "≤ "),
    ("\\ge ", "≥ "), ("\\neq", "≠"), ("\\approx", "≈"), ("\\sim", "~"), ("\\infty", "∞"), ("\\to", "→"),
    ("\\rightarrow", "→"), ("\\sqrt", "√"), ("\\alpha", "α"), ("\\beta", "β"), ("\\gamma", "γ"),
    ("\\delta", "δ"), ("\\epsilon", "ε"), ("\\varepsilon", "ε"), ("\\theta", "θ"), ("\\lambda", "λ"),
    ("\\mu", "μ"), ("\\sigma", "σ"), ("\\tau", "τ"), ("\\phi", "φ"), ("\\pi", "π"), ("\\ell", "ℓ"),
    ("\\log", "log"), ("\\sum", "Σ"), ("\\in ", "∈ "), ("\\%", "%"), ("\\sim", "~"), ("~", " "),
    ("\\ ", " "), ("\\,", " "), ("\\;", " "), ("\\!", ""),
]
# Order matters: "\le " must not eat "\leq", so longer commands come first above.


def readable_text(text: str | None) -> str | None:
    """One abstract as a reader would want it: `plain_text` for one string (the dashboard)."""
    if text is None:
        return None
    return pl.select(plain_text(pl.lit(text, pl.String))).item()


# A phrase ends at punctuation, inline math, a URL or a LaTeX command (one regex turns them all
# into the token "|"), and at a stopword, a single letter or a number (a token of digits and no
# letter: "2024", "3-5"; "3d" and "gpt-4" are words).
# (A space on either side goes with the cut: "a, b" becomes "a | b", not "a |  b" with an empty
# token to number.)
_CUT_RE = r" ?(?:\$[^$]*\$|https?://\S+|\\[a-z]+|[^a-z0-9\- ]+) ?"
_BOUNDARY_TOKENS = sorted(STOPWORDS | set("abcdefghijklmnopqrstuvwxyz|"))
# Words are numbered 1..W in text order (0 = no word) and a term is its up to MAX_WORDS word
# numbers packed into one integer, first word highest: the packed keys sort as the terms' text
# does ("a b" < "ab" < "ab c", as " " sorts before any letter), so ties are broken by the text
# without comparing text. Whole runs of work are then sorts of plain integers.
WORD_BITS = 16
_BASE = 1 << WORD_BITS
_LONG = _BASE - 1  # the fourth number of a phrase of more than MAX_WORDS words: no word has it
_WORD_LIMIT = _BASE - 2  # distinct words one call numbers; more, and the papers are split in two


class _TooLarge(Exception):
    """The frame has more distinct words, terms or papers than the packed integers can hold."""


def paper_terms(papers: pl.DataFrame, top_k: int = TOP_K) -> pl.DataFrame:
    """(paper_id, title, abstract) → (paper_id, term, score, term_rank): the paper's `top_k` terms,
    best first, scored within the paper only. Deterministic: ties broken by the term text."""
    rows, terms = paper_term_codes(papers, top_k)
    return rows.select(
        "paper_id", pl.lit(terms.get_column("term")).gather(pl.col("term_code")).alias("term"), "score", "term_rank")


def paper_term_codes(papers: pl.DataFrame, top_k: int = TOP_K) -> tuple[pl.DataFrame, pl.DataFrame]:
    """`paper_terms` with each term's text once: (paper_id, term_code, score, term_rank) in paper
    and rank order, and (term_code, term, n_words) for codes 0, 1, ... (numbers of this call only)."""
    if papers.is_empty():
        return _frames([], [], [], [], [], [])
    return _paper_term_codes(papers.select("paper_id", "title", "abstract").sort("paper_id"), top_k)


def _paper_term_codes(papers: pl.DataFrame, top_k: int) -> tuple[pl.DataFrame, pl.DataFrame]:
    try:
        return _paper_terms(papers, top_k)
    except _TooLarge:  # terms are per paper: the two halves give the rows of the whole
        if papers.height < 2:
            raise
        half = papers.height // 2
        return _concat([_paper_term_codes(papers.head(half), top_k), _paper_term_codes(papers.tail(-half), top_k)])


def _concat(parts: list[tuple[pl.DataFrame, pl.DataFrame]]) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The (rows, terms) of consecutive parts as one: term numbers shifted past the earlier parts'
    (a term found in two parts has two numbers)."""
    rows, terms, offset = [], [], 0
    for part_rows, part_terms in parts:
        rows.append(part_rows.with_columns(pl.col("term_code") + offset))
        terms.append(part_terms.with_columns(pl.col("term_code") + offset))
        offset += part_terms.height
    return pl.concat(rows), pl.concat(terms)


def _frames(paper_id, term_code, score, term_rank, term, n_words) -> tuple[pl.DataFrame, pl.DataFrame]:
    rows = pl.DataFrame({"paper_id": paper_id, "term_code": term_code, "score": score, "term_rank": term_rank},
                        schema={"paper_id": pl.Int64, "term_code": pl.UInt32, "score": pl.Float64,
                                "term_rank": pl.Int32})
    terms = pl.DataFrame({"term_code": pl.int_range(len(term), dtype=pl.UInt32, eager=True), "term": term,
                          "n_words": n_words}, schema={"term_code": pl.UInt32, "term": pl.String, "n_words": pl.Int32})
    return rows, terms


def _tokens(papers: pl.DataFrame) -> tuple[np.ndarray, pl.Series]:
    """(field, token) of every space-separated token, lower case, of each paper's title (field =
    its row), and of its abstract's first ABSTRACT_CHARS characters: the first sentence (field =
    row + height) and the rest (row + 2 × height), in text order; what cuts a phrase (_CUT_RE) is
    the token "|", a missing text the token ""."""
    # the first sentence: before the first ". " or a final "." (a literal split, as cheap as a
    # search for it; "e.g. " ends it early); none, and the whole abstract is the rest
    shown = pl.concat_str(papers.get_column("abstract").str.slice(0, ABSTRACT_CHARS), pl.lit(" "))
    parts = pl.select(shown).to_series().str.splitn(". ", 2).struct.unnest()
    split = pl.col("field_1").is_not_null()
    lead_rest = parts.select(lead=pl.when(split).then("field_0").otherwise(pl.lit("")),
                             rest=pl.when(split).then("field_1").otherwise("field_0"))
    texts = pl.concat([papers.get_column("title"), lead_rest.get_column("lead"), lead_rest.get_column("rest")])
    tokens = texts.fill_null("").str.to_lowercase().str.replace_all(_CUT_RE, " | ").str.split(" ")
    field = np.repeat(np.arange(len(tokens), dtype=np.uint32), tokens.list.len().to_numpy())
    return field, tokens.explode()


class _Tokens:
    """Each distinct token once: whether it cuts a phrase, and its words (split at hyphens, plural
    folded, as word numbers) in CSR form (`offsets`, `counts` into `flat`); and the words: text
    (index = number, 0 = none), length, stopword, generic. Folding each distinct word equals folding
    the phrase: every folding rule works within one word."""

    def __init__(self, distinct: pl.Series):
        n_tokens = len(distinct)
        number = distinct.str.contains("[0-9]") & ~distinct.str.contains("[a-z]")  # "2024", "3-5"
        self.boundary = (distinct.is_in(_BOUNDARY_TOKENS) | number).to_numpy()
        pieces = (
            pl.DataFrame({"token": distinct}).with_row_index("code")
            .filter(~pl.col("token").is_in(_BOUNDARY_TOKENS))
            .select("code", pl.col("token").str.split("-").alias("raw"))
            .explode("raw")
            .filter(pl.col("raw") != "")
        )
        padded = pl.concat_str(pl.lit(" "), pl.col("raw"), pl.lit("  "))
        folded = pieces.select("raw").unique().with_columns(word=_fold_plurals(padded).str.strip_chars())
        words = (pl.concat([folded.select("word"), pl.DataFrame({"word": [OF]})])  # "of" joins "X of Y" terms
                 .unique().sort("word").with_row_index("number", offset=1))
        if words.height > _WORD_LIMIT:
            raise _TooLarge
        pieces = (pieces.join(folded, on="raw", maintain_order="left")
                  .join(words, on="word", maintain_order="left"))  # in token order, then word order
        self.flat = pieces.get_column("number").to_numpy().astype(np.uint32)
        counts = np.bincount(pieces.get_column("code").to_numpy(), minlength=n_tokens)
        self.offsets = np.cumsum(counts) - counts
        self.counts = np.where(self.boundary, -1, counts).astype(np.int32)
        text = pl.concat([pl.Series([None], dtype=pl.String), words.get_column("word")])
        self.text = text
        self.length = text.str.count_matches("[a-z]").fill_null(0).to_numpy()  # letters: "3d" and "360" are no term alone
        self.stop = text.is_in(sorted(STOPWORDS)).fill_null(False).to_numpy()
        generic = text.is_in(sorted(GENERIC_WORDS)).fill_null(False).to_numpy()
        # a term of one word (a part of a phrase) has 3+ letters and is neither a stopword nor generic
        self.single_ok = ~self.stop & (self.length > 2) & ~generic
        self.one_word_ok = (self.length > 2) & ~generic  # a one-word phrase may fold onto a stopword
        self.content = ~self.stop & (self.length > 0)  # a word with letters, no stopword (0, no word: False)
        self.n_words = len(words) + 1
        self.of = words.filter(pl.col("word") == OF).item(0, "number")
        self.of_code = distinct.index_of(OF)  # the token "of", if this text holds it


def _phrases(field: np.ndarray, tokens: pl.Series) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, _Tokens,
                                                             tuple[np.ndarray, np.ndarray]]:
    """Every maximal run of words between boundaries: (field, start, n) into `words`, the word
    numbers of all phrases in text order; and the "X of Y" joins (`_of_joins`)."""
    # this call's own token codes (the categories live as long as the column that uses them)
    categorical = tokens.cast(pl.Categorical(pl.Categories.random()))
    table = _Tokens(categorical.dtype.categories.to_series())
    code = categorical.to_physical().to_numpy()
    counts = table.counts[code]  # -1: a boundary, 0: no word ("-"), else the token's words
    joins = _of_joins(field, code, counts, table)
    cut = counts < 0
    cut[1:] |= field[1:] != field[:-1]  # a new field starts a new phrase
    cut[0] = True
    phrase = np.cumsum(cut, dtype=np.uint32)
    keep = np.flatnonzero(counts > 0)
    code, phrase, field, counts = code[keep], phrase[keep], field[keep], counts[keep]
    if (counts > 1).any():  # hyphen compounds: one row per word
        first = np.cumsum(counts) - counts  # of each token's words in the output
        words = table.flat[np.arange(first[-1] + counts[-1]) + np.repeat(table.offsets[code] - first, counts)]
        phrase, field = np.repeat(phrase, counts), np.repeat(field, counts)
    else:
        words = table.flat[table.offsets[code]]
    start = np.flatnonzero(np.concatenate([[True], phrase[1:] != phrase[:-1]])) if len(words) else keep[:0]
    n = np.diff(np.append(start, len(words)))
    return field[start], start, n, words, table, joins


def _of_joins(field: np.ndarray, code: np.ndarray, counts: np.ndarray, table: _Tokens) -> tuple[np.ndarray, np.ndarray]:
    """(field, packed term) of every "X of Y": a word, the token "of" and a phrase of one word, in
    one field ("sparse mixture of experts." → "mixture of expert"; "capability of large language
    models" is none); X is the last word of its token, both have 3+ letters and are no stopword. A
    stopword cuts a phrase, so without these such topics were only their parts ("mixture",
    "expert"). A hyphenated "mixture-of-experts" is one phrase already."""
    if table.of_code is None or len(code) < 3:
        return field[:0], np.zeros(0, np.uint64)
    # Y is a phrase of one word: "of" then a word, then a cut, the field's end or a token of no word
    # ("--" between words, which does not cut a phrase, or the trailing space of a field)
    ends = np.append(counts[3:] <= 0, [True]) | np.append(field[3:] != field[2:-1], [True])
    at = np.flatnonzero((code[1:-1] == table.of_code) & (counts[:-2] > 0) & (counts[2:] == 1) & ends
                        & (field[:-2] == field[2:])) + 1
    x = table.flat[table.offsets[code[at - 1]] + counts[at - 1] - 1]
    y = table.flat[table.offsets[code[at + 1]]]
    ok = table.content[x] & (table.length[x] > 2) & table.content[y] & (table.length[y] > 2)
    return field[at[ok]], _pack(x[ok], np.full(ok.sum(), table.of), y[ok], np.zeros(ok.sum(), np.uint32))


def _candidates(papers: pl.DataFrame) -> tuple[np.ndarray, np.ndarray, np.ndarray, _Tokens]:
    """(field, term) for every term occurrence (one row per phrase and part of it), the terms
    (packed keys in text order: `term` indexes them), and the token table.

    Parts of a phrase: the whole (up to MAX_WORDS words), and for 2+ words the last word and the
    last two (the head of an English noun phrase comes last: "federated prompt tuning" → "prompt
    tuning") and the first word; a part that starts with a stopword (cut inside
    "out-of-distribution") is dropped, and so are one-word terms of 1-2 letters or generic.
    Parts depend on a phrase's first four words, or for a longer one on its first and last two:
    those (packed like a term) are its signature, and parts are cut once per distinct signature."""
    field, start, n, words, table, (of_field, of_keys) = _phrases(*_tokens(papers))
    w = np.concatenate([words, np.zeros(MAX_WORDS, np.uint32)])  # start + 3 stays in range
    long = n > MAX_WORDS
    signature = _pack(w[start], w[np.where(long, start + n - 2, start + 1)] * (n >= 2),
                      w[np.where(long, start + n - 1, start + 2)] * (n >= 3),
                      np.where(long, _LONG, w[start + 3] * (n >= 4)))
    sig, phrase = np.unique(signature, return_inverse=True)
    # the parts of each distinct phrase
    first, second, third, fourth = ((sig >> np.uint64(WORD_BITS * (MAX_WORDS - 1 - i))) & np.uint64(_BASE - 1)
                                    for i in range(MAX_WORDS))
    long = fourth == _LONG
    n_words = np.where(long, MAX_WORDS + 1, (first > 0).astype(int) + (second > 0) + (third > 0) + (fourth > 0))
    last = np.choose(np.minimum(n_words, MAX_WORDS) - 1, [first, second, third, np.where(long, third, fourth)])
    before_last = np.choose(np.clip(n_words - 2, 0, 2), [first, second, np.where(long, second, third)])
    multi = n_words >= 2
    ok = np.stack([
        # the whole: a phrase may open with a stopword of a hyphen compound ("in-context learning",
        # "out-of-distribution detection"), but holds a word that is none ("out-of" alone is no term)
        np.where(multi, ~long & (table.content[first] | table.content[second] | table.content[third]
                                 | table.content[np.where(long, 0, fourth)]), table.one_word_ok[first]),
        multi & table.single_ok[last],
        (n_words >= 3) & table.content[before_last],  # "4 agent" of "GPT-4 agents" is no term
        multi & table.single_ok[first],
    ], axis=1)
    zero = np.zeros_like(first)
    keys = np.stack([sig, _pack(last, zero, zero, zero), _pack(before_last, last, zero, zero),
                     _pack(first, zero, zero, zero)], axis=1)
    parts = keys[ok]  # row by row: each phrase's parts together
    terms, numbers = np.unique(np.concatenate([parts, of_keys]), return_inverse=True)
    term, of_term = numbers[:len(parts)], numbers[len(parts):]
    n_parts = ok.sum(axis=1)
    offsets = np.cumsum(n_parts) - n_parts
    # every occurrence's parts
    counts = n_parts[phrase]
    out = np.cumsum(counts) - counts
    total = int(out[-1] + counts[-1]) if len(out) else 0
    source = np.arange(total) + np.repeat(offsets[phrase] - out, counts)
    return np.concatenate([np.repeat(field, counts), of_field]), np.concatenate([term[source], of_term]), terms, table


def _pack(*words: np.ndarray) -> np.ndarray:
    """Up to MAX_WORDS word numbers packed into one UInt64, the first highest."""
    key = np.zeros(len(words[0]), np.uint64)
    for i, word in enumerate(words):
        key |= np.asarray(word).astype(np.uint64) << np.uint64(WORD_BITS * (MAX_WORDS - 1 - i))
    return key


def _paper_terms(papers: pl.DataFrame, top_k: int) -> tuple[pl.DataFrame, pl.DataFrame]:
    """`paper_term_codes` of papers sorted by paper_id, in one pass."""
    n_papers = papers.height
    fields, code, terms, table = _candidates(papers)
    if not len(code):
        return _frames([], [], [], [], [], [])
    term_words = np.stack([(terms >> np.uint64(WORD_BITS * (MAX_WORDS - 1 - i))) & np.uint64(_BASE - 1)
                           for i in range(MAX_WORDS)])
    n_words = (term_words > 0).sum(axis=0)
    head = term_words[n_words - 1, np.arange(len(terms))]  # the last word
    paper_bits, head_bits, code_bits = _bits(n_papers - 1), _bits(table.n_words - 1), _bits(len(terms) - 1)
    if paper_bits + head_bits + code_bits + 2 > 64:
        raise _TooLarge
    u64 = np.uint64
    # One sort by (paper, head word, term, place): a run of equal (paper, term) is the term's
    # occurrences in the paper (tf; its first row has the best place it is in), and the runs of
    # one (paper, head word) lie together.
    v = (fields % n_papers).astype(u64) << u64(head_bits)
    v |= head[code]
    v <<= u64(code_bits + 2)
    v |= code.astype(u64) << u64(2)
    v |= (fields // n_papers).astype(u64)  # 0: the title, 1: the abstract's first sentence, 2: its rest
    v.sort()
    group = v >> u64(2)
    first = np.flatnonzero(np.concatenate([[True], group[1:] != group[:-1]]))
    tf = np.diff(np.append(first, len(v)))
    where = v[first] & u64(3)  # the best place it occurs
    in_title, in_lead = where == 0, where == 1
    group = group[first]
    code = group & u64((1 << code_bits) - 1)
    paper_head = group >> u64(code_bits)
    # scale × score, exact in integers (the weights as fractions): (tf + TITLE_WEIGHT if in the
    # title, else + LEAD_WEIGHT if in the abstract's first sentence) × (1 + LENGTH_BONUS per extra
    # word), × HEAD_REPEAT_WEIGHT for all but the best phrase(s) of a head word in the paper
    title_w, lead_w, length_w, repeat_w = (Fraction(str(w)) for w in (TITLE_WEIGHT, LEAD_WEIGHT, LENGTH_BONUS,
                                                                       HEAD_REPEAT_WEIGHT))
    place = title_w.denominator * lead_w.denominator
    scale = place * length_w.denominator * repeat_w.denominator
    s = ((tf * place + int(title_w * place) * in_title + int(lead_w * place) * in_lead)
         * (length_w.denominator + length_w.numerator * (n_words[code].astype(np.int64) - 1)))
    head_first = np.flatnonzero(np.concatenate([[True], paper_head[1:] != paper_head[:-1]]))
    best = np.repeat(np.maximum.reduceat(s, head_first), np.diff(np.append(head_first, len(s))))
    s = (s * np.where(s == best, repeat_w.denominator, repeat_w.numerator)).astype(u64)
    s_bits = _bits(int(s.max()))
    if paper_bits + s_bits + code_bits > 64:
        raise _TooLarge
    # the top_k of each paper: one sort by (paper, score high first, term text)
    top = u64((1 << s_bits) - 1)
    v = (paper_head >> u64(head_bits)) << u64(s_bits + code_bits)
    v |= (top - s) << u64(code_bits)
    v |= code
    v.sort()
    paper = v >> u64(s_bits + code_bits)
    first = np.flatnonzero(np.concatenate([[True], paper[1:] != paper[:-1]]))
    rank = np.arange(len(v)) - np.repeat(first, np.diff(np.append(first, len(v)))) + 1
    keep = rank <= top_k
    v, paper, rank = v[keep], paper[keep], rank[keep]
    s = top - ((v >> u64(code_bits)) & top)
    code = (v & u64((1 << code_bits) - 1)).astype(np.int64)
    # the text of each term kept, once
    used = np.zeros(len(terms), bool)
    used[code] = True
    kept = np.flatnonzero(used)
    renumber = np.cumsum(used) - 1
    words = term_words[:, kept].astype(np.int64)
    text = pl.select(pl.concat_str([table.text.gather(pl.Series(words[i])) for i in range(MAX_WORDS)],
                                   separator=" ", ignore_nulls=True)).to_series()
    return _frames(papers.get_column("paper_id").gather(pl.Series(paper.astype(np.int64))), renumber[code],
                   pl.Series(s.astype(np.float64) / scale).round(6), rank, text, n_words[kept])


def _bits(n: int) -> int:
    """Bits to hold 0..n."""
    return max(int(n).bit_length(), 1)
