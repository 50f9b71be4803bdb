"""Key terms of each paper, from its title and abstract: pure Polars, frame in, frame out.

A candidate term is a run of 1-4 words between stopwords and punctuation (the RAKE idea), with
LaTeX, URLs and numbers cut out first. Words are normalised (lower case, hyphens as spaces, a
light plural folding), so "Language Models" and "language model" are one term.

Scores use only the paper itself (how often the term and its words occur, whether the title
holds it, how many words it has), never corpus statistics: a paper gets the same terms in a
fresh load and in an incremental run, and loading other papers never changes them.

Everything is vectorised string work on whole columns (regex replace, split, explode, group
by); no Python loop per paper (`python -m bench.terms` measures the throughput).
"""

from __future__ import annotations

import polars as pl

MAX_WORDS = 4  # longer stopword-free runs are mostly run-on noun piles ("multi agent rl based ...")
TOP_K = 10  # terms kept per paper
# Scoring weights, chosen on the ICLR keywords (eval/keywords.py; a 3-parameter grid, README).
TITLE_WEIGHT = 2.0  # a term in the title counts as two more occurrences
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


_BOUNDARY = " | "
# Stopwords and single letters, each padded by the spaces around a word: matched by one
# Aho-Corasick pass (`str.replace_many`), far faster than a regex alternation of 600 words.
_PADDED_STOPWORDS = [f" {w} " for w in sorted(STOPWORDS | set("abcdefghijklmnopqrstuvwxyz"))]


def _phrase_text(text: pl.Expr) -> pl.Expr:
    """Lower-case text in which every phrase boundary (punctuation, digits, inline math, URL,
    stopword, single letter) is "|". Hyphenated words stay whole ("out-of-distribution")."""
    spaced = (
        text.str.to_lowercase()
        .str.replace_all(r"\$[^$]*\$|https?://\S+|\\[a-z]+|[^a-z\- ]+", _BOUNDARY)
        .str.replace_all(" ", "  ", literal=True)  # two spaces between words: each stopword match owns its own
    )
    padded = pl.concat_str(pl.lit(" "), spaced, pl.lit(" "))
    return padded.str.replace_many(_PADDED_STOPWORDS, [_BOUNDARY] * len(_PADDED_STOPWORDS))


def _chunks(papers: pl.DataFrame) -> pl.LazyFrame:
    """(paper_id, in_title, chunk): every stopword-free run of words of the title and abstract,
    one row per occurrence (a chunk rarely repeats within a paper, so counting here would not
    shrink the frame; counts are taken per term after the join with `_chunk_terms`)."""
    fields = pl.concat([
        papers.lazy().select("paper_id", pl.lit(True).alias("in_title"), pl.col("title").alias("text")),
        papers.lazy().select("paper_id", pl.lit(False).alias("in_title"),
                             pl.col("abstract").str.slice(0, ABSTRACT_CHARS).alias("text")),
    ]).drop_nulls("text")
    return (
        fields.select("paper_id", "in_title", _phrase_text(pl.col("text")).str.split("|").alias("chunk"))
        .explode("chunk")
        .with_columns(pl.col("chunk").str.strip_chars(" -"))
        .filter(pl.col("chunk").str.len_bytes() > 2)
    )


def _chunk_terms(chunks: pl.LazyFrame) -> pl.LazyFrame:
    """(chunk) → (chunk, term, n_words): each distinct chunk normalised once (most chunks repeat
    across papers), as a whole (up to MAX_WORDS words) and as its shorter parts: the last word
    and the last two (the head of an English noun phrase comes last: "federated prompt tuning"
    → "prompt tuning") and the first word. Parts let a paper's "privacy preserving prompting"
    count towards "privacy" too (more parts — the first two words, the middle ones, the last
    three — measured worse on the ICLR keywords, and cost more). Generic single words are
    dropped, and parts that start with a stopword (cut inside "out-of-distribution") too."""
    # Parts by regex on the normalised text (cheaper than list operations); a pattern that
    # does not match gives null, so a part exists only when the chunk is long enough.
    parts = [
        pl.when(pl.col("n_words") <= MAX_WORDS).then(pl.col("whole")),
        pl.col("whole").str.extract(r" (\S+)$"),  # the last word and the last two
        pl.col("whole").str.extract(r" (\S+ \S+)$"),
        pl.col("whole").str.extract(r"^(\S+) "),  # the first word
    ]
    # Chunks are lower-case letters, hyphens and spaces already (_phrase_text): only the
    # plural folding of normalise_terms is left to do. One-word chunks (most) have no parts.
    padded = pl.concat_str(pl.col("chunk").str.replace_all(r"[- ]+", "  ").str.replace(r"^", " "), pl.lit("  "))
    normalised = chunks.with_columns(whole=_fold_plurals(padded).str.replace_all(r"\s+", " ").str.strip_chars())
    singles = normalised.filter(~pl.col("whole").str.contains(" ", literal=True)).select("chunk", term="whole")
    multi = (
        normalised.filter(pl.col("whole").str.contains(" ", literal=True))
        .with_columns(n_words=pl.col("whole").str.count_matches(" ") + 1)
        .select("chunk", pl.concat_list(parts).alias("term"))
        .explode("term")
        .drop_nulls("term")
        # a part cut inside a hyphen compound ("of distribution data") is no phrase
        .filter(~pl.col("term").str.extract(r"^(\S+)").is_in(pl.lit(sorted(STOPWORDS))))
    )
    return (
        pl.concat([singles, multi])
        .with_columns(n_words=pl.col("term").str.count_matches(" ") + 1)
        .filter(pl.col("term").str.len_bytes() > 2,
                ~((pl.col("n_words") == 1) & pl.col("term").is_in(pl.lit(sorted(GENERIC_WORDS)))))
    )


def paper_terms(papers: pl.DataFrame, top_k: int = TOP_K) -> pl.DataFrame:
    """(paper_id, title, abstract) → (paper_id, term, score, term_rank): the paper's `top_k` terms,
    best first, scored within the paper only. Deterministic: ties broken by the term text."""
    schema = {"paper_id": pl.Int64, "term": pl.String, "score": pl.Float64, "term_rank": pl.Int32}
    if papers.is_empty():
        return pl.DataFrame(schema=schema)
    chunks = _chunks(papers).collect()
    parts = _chunk_terms(chunks.lazy().select("chunk").unique()).collect()
    # Every distinct term once, coded in text order: the big frame groups, ranks and breaks ties
    # on integer codes, and the text comes back only for the top_k rows.
    vocab = (parts.select("term", "n_words").unique("term").sort("term")
             .with_columns(term_code=pl.int_range(pl.len(), dtype=pl.UInt32),
                           head_code=pl.col("term").str.extract(r"(\S+)$").rank("dense").cast(pl.UInt32)))
    parts = parts.join(vocab.select("term", "term_code"), on="term").select("chunk", "term_code")
    scored = (
        chunks.lazy().join(parts.lazy(), on="chunk")
        .group_by("paper_id", "term_code")
        .agg(tf=pl.len(), in_title=pl.col("in_title").any())
        .join(vocab.lazy().select("term_code", "n_words", "head_code"), on="term_code")
        .with_columns(score=_score())
        # One phrase per head word first: "federated prompt tuning" and "prompt tuning" name one
        # topic, so all but the best of a head give way a little to other topics.
        .with_columns(score=pl.when(pl.col("score") == pl.col("score").max().over("paper_id", "head_code"))
                      .then(pl.col("score")).otherwise(pl.col("score") * HEAD_REPEAT_WEIGHT).round(6))
    )
    return (  # the top_k by score, ties broken by the term (its code): deterministic
        scored.sort(["paper_id", "score", "term_code"], descending=[False, True, False])
        .with_columns(term_rank=pl.int_range(1, pl.len() + 1, dtype=pl.Int32).over("paper_id"))
        .filter(pl.col("term_rank") <= top_k)
        .join(vocab.lazy().select("term_code", "term"), on="term_code", maintain_order="left")
        .select("paper_id", "term", "score", "term_rank")
        .collect()
        .cast(schema)
    )


def _score() -> pl.Expr:
    """Within-paper salience: occurrences (as a whole phrase or inside a longer one), a title
    bonus, and a small bonus per extra word (a phrase is more specific than its words)."""
    in_title = pl.col("in_title").cast(pl.Float64)
    return (pl.col("tf") + TITLE_WEIGHT * in_title) * (1.0 + LENGTH_BONUS * (pl.col("n_words") - 1))
