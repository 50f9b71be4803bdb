"""Entity resolution: near-duplicate papers and author aliases (transforms/resolve.py,
flows/resolve.py), on real-looking digest records.

Unit tests score pairs directly; loader tests run the real pipeline (process_batch → RunLoader
with the resolver) on digest text, one DuckDB file per test, twice where a test is about an
incremental run. No Prefect: the loader is what the flow's tasks call.
"""

from __future__ import annotations

import datetime as dt
import random
from functools import partial
from pathlib import Path

import duckdb
import numpy as np
import polars as pl
import pytest
from datasketch import MinHash
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import process
from rapidfuzz.distance import Indel

from flows import load
from flows import resolve as flows_resolve
from flows.resolve import resolve_entities
from transforms import resolve
from transforms.pipeline import SourceFile, process_batch

from support import cluster_reference

# ----------------------------------------------------------------------------- real-looking records
ABSTRACT = (
    "Transformer-based language models exhibit an astonishing capacity to generalize to longer and more "
    "difficult problem instances than those seen in training. However, theoretical understanding of this "
    "phenomenon still lags behind. Unlike most machine learning models, the generalisation abilities of "
    "transformers inherently require considering two axes. On one hand, one must examine in-distribution "
    "statistical generalisation, which concerns the ability of a model to broaden a function from training "
    "samples to novel samples of the same distribution. On the other hand, given the sequential nature of "
    "language data, one must also consider length generalisation. In this work, we give a joint treatment of "
    "both axes for fixed-precision transformers with $\\alpha$-bounded weights and $O(n^2)$ attention. "
    "Finally, we illustrate how the requirements in the sample count and training length trade off. "
    "Experiments support predictions of the theory."
)
TITLE = "Quantitative Generalization Bounds for Multi-Layer Transformers: A Few Long Strings can Beat Many Short Ones"
AUTHORS = ["Marius Henry", "Michael Rizvi-Martel", "Michael Hahn"]
# Another paper by the same authors on the same template: first and last sentences shared.
SIBLING = (
    "Transformer-based language models exhibit an astonishing capacity to generalize to longer and more "
    "difficult problem instances than those seen in training. We study how positional encodings interact "
    "with tokenisation when sequences contain repeated sub-words, and show that rotary embeddings lose "
    "resolution beyond a critical period that depends on the vocabulary. We derive matching lower bounds "
    "for learned absolute encodings and evaluate on code completion and arithmetic benchmarks, where a "
    "simple rescaling recovers most of the lost accuracy at no cost. Experiments support predictions of the theory."
)
OTHER = (
    "Self-supervised training is monitored without labels, through the loss and statistics of the learned "
    "features. We report a case where we know the encoders lost part of what they had learned, so we can "
    "check whether these signals noticed. We trained LeJEPA encoders on synthetic images with known "
    "generating factors. In nine of ten seeds, the readability of those factors fell abruptly and stayed down."
)

VARIANTS = {
    "v2_revision": ABSTRACT.replace("astonishing", "remarkable").replace(
        "Finally, we illustrate", "Finally, and perhaps most importantly, we illustrate"),
    "typo": ABSTRACT.replace("theoretical", "theoretcial").replace("phenomenon", "phenomenom"),
    "latex_unicode": ABSTRACT.replace("$\\alpha$", "α").replace("$O(n^2)$", "O(n²)"),
    "trailing_sentence": ABSTRACT + " Code is available at https://github.com/ml-lab/release.",
    "cut_short": ABSTRACT[: ABSTRACT.index(" In this work")] + " ...",
}


def listing_text(records: list[tuple[str, list[str], str]], day: str = "Oct 26, 2026") -> str:
    return "\n".join(f"#{i:02d}{day}\ncs.LG\n{title}\n{', '.join(names)}\n{abstract}"
                     for i, (title, names, abstract) in enumerate(records, 1))


def search_text(records: list[tuple[list[str], str]]) -> str:
    return "\n\n".join(["论文检索"] + [f"{', '.join(names)}\n\n{abstract}" for names, abstract in records])


def pair(a: str, b: str, keys_a=None, keys_b=None, title_a=TITLE, title_b=TITLE) -> dict:
    keys_a = keys_a or [n.lower().replace("-", " ") for n in AUTHORS]
    return {"text_a": a, "text_b": b, "title_a": title_a, "title_b": title_b,
            "keys_a": keys_a, "keys_b": keys_b or keys_a}


def scored(*pairs: dict, threshold: float = resolve.DEFAULT_THRESHOLD) -> pl.DataFrame:
    df = pl.DataFrame(list(pairs), schema={"text_a": pl.String, "text_b": pl.String, "title_a": pl.String,
                                           "title_b": pl.String, "keys_a": pl.List(pl.String), "keys_b": pl.List(pl.String)})
    df = df.with_columns(text_a=resolve.match_text(pl.col("text_a")), text_b=resolve.match_text(pl.col("text_b")))
    return resolve.score_pairs(df, threshold)


# ----------------------------------------------------------------------------- the normaliser
GREEK = sorted(resolve.GREEK.items())
# (LaTeX, Unicode) renderings of one math token, as listing bots and arXiv show them.
MATH = [(f"${{\\{name}}}$", char) for char, name in GREEK if char.islower()] + [
    ("$\\leq$", "≤"), ("$\\geq$", "≥"), ("$\\times$", "×"), ("$\\infty$", "∞"), ("$\\ell$", "ℓ"),
    ("$x^2$", "x²"), ("$n^{3}$", "n³"), ("$x_i$", "xᵢ"), ("$\\mathbb{R}^d$", "ℝᵈ"), ("$\\mathcal{O}(n)$", "O(n)"),
]
WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJ", min_size=1, max_size=9)


@given(st.lists(st.one_of(WORDS.map(lambda w: (w, w)), st.sampled_from(MATH)), min_size=1, max_size=25))
def test_latex_and_unicode_math_give_one_match_text(tokens):
    latex = " ".join(t[0] for t in tokens)
    unicode = " ".join(t[1] for t in tokens)
    assert resolve.normalize_math_py(latex) == resolve.normalize_math_py(unicode)


def reference_normalize_math(expr: pl.Expr) -> pl.Expr:
    """normalize_math as first written: every LaTeX pass over every row (its fast path, which
    runs them on the rows holding a backslash only, must agree)."""
    spelled = expr.str.replace_all(resolve.LATEX_STYLE, "").str.replace_many(
        list(resolve._UNICODE_MATH), list(resolve._UNICODE_MATH.values()))
    for name, word in resolve.LATEX_SYNONYMS.items():
        spelled = spelled.str.replace_all(rf"\\{name}\b", f" {word} ")
    return spelled.str.replace_all(resolve._LATEX_COMMAND, " ${1} ").str.replace_all(r"[$\\{}^_]", "")


LATEX_BITS = [t for pair in MATH for t in pair] + ["\\", "\\le", "\\left(", "\\mathrm{d}", "\\textbf x", "\\foo", "{", "^", "_", "$"]


@given(st.lists(st.one_of(st.none(), st.lists(st.one_of(WORDS, st.sampled_from(LATEX_BITS), st.text(max_size=4)),
                                               max_size=12).map(" ".join)), max_size=8))
def test_normalize_math_fast_path_agrees_with_every_pass_on_every_row(values):
    df = pl.DataFrame({"v": values}, schema={"v": pl.String})
    assert (df.select(resolve.normalize_math(pl.col("v")))["v"].to_list()
            == df.select(reference_normalize_math(pl.col("v")))["v"].to_list())


@given(st.text(min_size=0, max_size=200))
def test_match_text_is_folded_words(text):
    out = resolve.normalize_math_py(text)
    assert out == out.strip() and "  " not in out and out == out.lower()


def test_minhash_is_datasketch_minhash_of_the_same_shingles():
    texts = pl.Series([resolve.normalize_math_py(t) for t in (ABSTRACT, OTHER, "two words")])
    sig = resolve.minhash_signatures(texts)
    shingles = resolve._shingle_hashes(resolve._words(pl.DataFrame({"text": texts})))
    for row in range(texts.len()):
        m = MinHash(num_perm=resolve.NUM_PERM, seed=resolve.MINHASH_SEED, scheme="affine32", hashfunc=int)
        m.update_batch(shingles.filter(pl.col("row") == row)["h32"].to_list())
        assert np.array_equal(m.hashvalues, sig[row])


def test_minhash_does_not_depend_on_the_block_size(monkeypatch):
    texts = pl.Series([resolve.normalize_math_py(t) for t in (ABSTRACT, "", *VARIANTS.values(), "one", OTHER)])
    whole = resolve.minhash_signatures(texts)
    monkeypatch.setattr(resolve, "MINHASH_BLOCK", 7)  # blocks of one or a few texts, a text over several
    assert np.array_equal(resolve.minhash_signatures(texts), whole)


def test_permutations_are_datasketchs():
    a, b = MinHash(num_perm=resolve.NUM_PERM, seed=resolve.MINHASH_SEED, scheme="affine32").permutations
    assert np.array_equal(resolve._permutations()[0], a) and np.array_equal(resolve._permutations()[1], b)


def test_stable_hash64_is_xxh3_of_each_string():
    """Pinned: block keys stored in warehouses are made of these hashes. XXH3-64 with seed 0, as
    its specification's test values give it ("" -> 0x2D06800538D394C2, "abc" -> 0x78AF5F94892F3950)."""
    values = pl.Series(["munos", None, "", "munos", "αβ", "abc"])
    assert resolve.stable_hash64(values).to_list() == [
        16139196418350692302, None, 0x2D06800538D394C2, 16139196418350692302, 10618889520101665601, 0x78AF5F94892F3950]
    assert resolve.stable_hash64(pl.Series([], dtype=pl.String)).to_list() == []


@given(st.lists(st.one_of(st.none(), st.text(alphabet="ab \n\x1f", max_size=40)), max_size=8))
def test_anchor_patterns_cut_the_words_split_would(values):
    text = pl.Series(values, dtype=pl.String)
    words = text.str.split(" ")
    for pattern, edge in ((resolve._PREFIX, words.list.head(resolve.ANCHOR_WORDS)),
                          (resolve._SUFFIX, words.list.tail(resolve.ANCHOR_WORDS))):
        assert text.str.extract(pattern).to_list() == edge.list.join(" ").to_list()


def test_block_keys_are_stable_and_variants_share_a_block():
    papers = pl.DataFrame({
        "paper_key": [1, 2, 3, 4],
        "abstract": [ABSTRACT, VARIANTS["typo"], VARIANTS["cut_short"], ABSTRACT],
        "author_keys": [["marius henry"]] * 3 + [["someone else"]],
    })
    keys = resolve.block_keys(papers)
    # Stored keys must come out the same in every process and release: pinned values (bands 0
    # and 19 of the MinHash, the prefix and suffix anchors) of the first paper.
    pinned = keys.filter((pl.col("paper_key") == 1) & pl.col("band").is_in([0, 19, 20, 21])).sort("band")
    assert pinned["bucket"].to_list() == [-428467316765845666, -5048510027007819018, -2259885961186306224,
                                          -5399936420181697410]
    assert keys["band"].n_unique() == resolve.NUM_BANDS + 3
    shared = keys.join(keys, on=["band", "bucket"]).filter(pl.col("paper_key") < pl.col("paper_key_right"))
    pairs = set(shared.filter(pl.col("band") != resolve.EXACT_BAND).select("paper_key", "paper_key_right").unique().iter_rows())
    assert {(1, 2), (1, 3)} <= pairs
    assert not any(4 in p for p in pairs)  # same text, another first author: another block, ...
    # ... but for the whole signature of a long text, unsalted (its first author spelled otherwise)
    exact = set(shared.filter(pl.col("band") == resolve.EXACT_BAND).select("paper_key", "paper_key_right").iter_rows())
    assert exact == {(1, 4)}


@given(st.lists(st.one_of(st.none(), st.text(alphabet="ab \u00e9-", max_size=12)), min_size=2, max_size=10))
def test_word_sequences_give_the_indel_ratio_of_the_word_lists(values):
    texts = pl.Series(values, dtype=pl.String).to_frame("t").select(resolve.match_text(pl.col("t")))["t"]
    seqs = resolve._word_sequences(texts, resolve._words(pl.DataFrame({"text": texts})))
    words = [[] if t is None else t.split(" ") for t in texts]
    pairs = [(i, j) for i in range(len(texts)) for j in range(len(texts))]
    ratio = partial(process.cpdist, scorer=Indel.normalized_similarity, workers=1)
    assert np.array_equal(ratio([seqs[i] for i, _ in pairs], [seqs[j] for _, j in pairs]),
                          ratio([words[i] for i, _ in pairs], [words[j] for _, j in pairs]))


# ----------------------------------------------------------------------------- pair decisions
@pytest.mark.parametrize("kind", sorted(VARIANTS))
def test_each_variant_kind_merges(kind):
    got = scored(pair(ABSTRACT, VARIANTS[kind]), pair(ABSTRACT, VARIANTS[kind], title_b=None)).to_dicts()
    assert len(got) == 2
    for row in got:
        assert row["is_match"], row
        assert row["rule"] in {"abstract", "abstract_contained"}
    if kind == "cut_short":
        assert got[0]["rule"] == "abstract_contained" and got[0]["shingle_containment"] == 1.0


def test_listing_and_search_record_of_one_paper_merge_with_name_variants():
    search_keys = ["marius henry", "m rizvi martel", "michael hahn"]
    row = scored(pair(ABSTRACT, VARIANTS["typo"], keys_b=search_keys, title_b=None)).row(0, named=True)
    assert row["is_match"] and row["author_agreement"] == 1.0 and row["title_ratio"] is None


def test_same_authors_same_template_distinct_papers_stay_apart():
    row = scored(pair(ABSTRACT, SIBLING)).row(0, named=True)
    assert not row["is_match"] and row["rule"] == "below_threshold"


def test_same_text_by_other_people_is_not_merged():
    row = scored(pair(ABSTRACT, VARIANTS["typo"], keys_b=["ana lopez", "wei zhang", "jo smith"])).row(0, named=True)
    assert not row["is_match"] and row["rule"] == "authors_differ"


def test_different_titles_veto_a_merge():
    row = scored(pair(ABSTRACT, VARIANTS["typo"], title_b="Label-Free Monitoring in Self-Supervised Learning")).row(0, named=True)
    assert not row["is_match"] and row["rule"] == "titles_differ"


# Papers of one series: near-identical abstracts, the same authors, titles that differ only in
# the paper's number. They merged as one paper (the title gate only asked for close titles).
SERIES = [
    ("Coding Theorems for Channels with Feedback, Part I", "Coding Theorems for Channels with Feedback, Part II"),
    ("Coding Theorems for Channels with Feedback II", "Coding Theorems for Channels with Feedback III"),
    ("Llama 2: Open Foundation and Fine-Tuned Chat Models", "Llama 3: Open Foundation and Fine-Tuned Chat Models"),
    ("Findings of the Shared Task on Parsing 2023", "Findings of the Shared Task on Parsing 2024"),
    ("Scaling Laws for 10 Languages", "Scaling Laws for 12 Languages"),
    # the same kind, spelled otherwise: numbers glued to a name, number words, a part's letter
    ("Llama2: Open Foundation Models", "Llama3: Open Foundation Models"),
    ("YOLOv5 for Real-Time Detection", "YOLOv8 for Real-Time Detection"),
    ("GPT-4 System Card", "GPT-4o System Card"),
    ("Coding Theorems for Channels with Feedback, Part One", "Coding Theorems for Channels with Feedback, Part Two"),
    ("The First Workshop on Parsing Low-Resource Languages", "The Second Workshop on Parsing Low-Resource Languages"),
    ("Coding Theorems for Channels with Feedback, Part A", "Coding Theorems for Channels with Feedback, Part B"),
    # the first part without its number: one title is the other cut short, which was read as
    # agreeing in full before the numbers were looked at
    ("Coding Theorems for Channels with Feedback", "Coding Theorems for Channels with Feedback, Part II"),
    ("Coding Theorems for Channels with Feedback", "Coding Theorems for Channels with Feedback 2"),
    # ordinals past twelve, the letter of a subtask or a track
    ("The Thirteenth Dialog System Technology Challenge", "The Fourteenth Dialog System Technology Challenge"),
    ("Overview of the Clinical NER Shared Task: Subtask A", "Overview of the Clinical NER Shared Task: Subtask B"),
    ("BioCreative Track A: Gene Normalization Overview", "BioCreative Track B: Gene Normalization Overview"),
    # numbers compared by value stay apart when the values differ, magnitudes too (both "1")
    ("Scaling Transformers to 1 Million Tokens of Context", "Scaling Transformers to 1 Billion Tokens of Context"),
    ("Million-Scale Retrieval with Learned Indexes", "Billion-Scale Retrieval with Learned Indexes"),
    ("The 2nd Workshop on Gender Bias in NLP", "The 3rd Workshop on Gender Bias in NLP"),
    ("Coding Theorems for Channels with Feedback, Part One", "Coding Theorems for Channels with Feedback, Part 2"),
    ("Coding Theorems for Channels with Feedback, Part IV", "Coding Theorems for Channels with Feedback, Part 6"),
]


@pytest.mark.parametrize("title_a,title_b", SERIES)
def test_titles_that_differ_in_their_numbers_are_two_papers(title_a, title_b):
    sibling = ABSTRACT.replace("On one hand", "In this second part, on one hand")
    row = scored(pair(ABSTRACT, sibling, title_a=title_a, title_b=title_b)).row(0, named=True)
    assert not row["is_match"] and row["rule"] == "titles_differ"


# One number written two ways, in titles alike: compared as written, "Part I" / "Part 1" and
# "Two-Stage" / "2-Stage" were two papers.
SAME_NUMBERS = [
    ("Anisotropic Thermo-Elasticity in 2D -- Part I: A Unified Approach", "Anisotropic Thermo-Elasticity in 2D -- Part 1: A Unified Approach"),
    ("Two-Stage Cross-Domain Cervical Abnormality Screening", "2-Stage Cross-Domain Cervical Abnormality Screening"),
    ("Second-Order Methods for Training Deep Networks", "2nd-Order Methods for Training Deep Networks"),
    ("Findings of the First Workshop on Gender Bias in NLP", "Findings of the 1st Workshop on Gender Bias in NLP"),
    ("Proceedings of the Nineteenth Conference on Learning Theory", "Proceedings of the 19th Conference on Learning Theory"),
    ("Coding Theorems for Channels with Feedback, Part II", "Coding Theorems for Channels with Feedback, Part 2"),
    ("Three Lessons from Scaling Sparse Mixture-of-Experts Models", "3 Lessons from Scaling Sparse Mixture-of-Experts Models"),
    ("One Million Tokens of Context with Ring Attention", "1 Million Tokens of Context with Ring Attention"),
    ("The Fourth Workshop on Online Abuse and Harms, Part 03", "The 4th Workshop on Online Abuse and Harms, Part Three"),
]


@pytest.mark.parametrize("title_a,title_b", SAME_NUMBERS)
def test_one_number_written_two_ways_is_one_paper(title_a, title_b):
    row = scored(pair(ABSTRACT, VARIANTS["typo"], title_a=title_a, title_b=title_b)).row(0, named=True)
    assert row["is_match"], row


def _roman(n: int) -> str:
    tens, units = divmod(n, 10)
    return "X" * tens + ["", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"][units]


_CARDINAL = ("one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
             "seventeen eighteen nineteen twenty").split()
_ORDINAL = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth "
            "fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth").split()


def _spellings(n: int) -> list[str]:
    """The ways a title writes n (1-39): digits, an ordinal suffix, a Roman numeral, words."""
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    out = [str(n), f"{n}{suffix}", f"0{n}", _roman(n), _roman(n).lower()]
    if n <= 20:
        out += [_CARDINAL[n - 1], _ORDINAL[n - 1].capitalize()]
    if n == 30:
        out += ["thirty", "Thirtieth"]
    return out


def _title_numbers(title: str) -> list[str]:
    return pl.select(resolve.title_numbers(resolve.fold_key(pl.lit(title)))).item().to_list()


@given(st.integers(1, 39).flatmap(lambda n: st.tuples(st.sampled_from(_spellings(n)), st.sampled_from(_spellings(n)))),
       st.integers(1, 39), st.integers(1, 39))
@settings(max_examples=200, deadline=None)
def test_title_numbers_are_compared_by_value(same, n, m):
    """Any two spellings of one number give one value; two numbers, two values (any spellings)."""
    template = "Coding Theorems for Channels with Feedback, Part {}: Converse Bounds"
    assert _title_numbers(template.format(same[0])) == _title_numbers(template.format(same[1]))
    if n != m:
        assert _title_numbers(template.format(_spellings(n)[0])) != _title_numbers(template.format(_spellings(m)[-1]))


# Titles that say the opposite: a negating prefix or word. Spelled close (fuzz 0.8-0.95), they
# passed for a spelling fix, and one template filled in twice was one paper.
OPPOSITES = [
    ("Certified Machine Learning for Vision Transformers", "Certified Machine Unlearning for Vision Transformers"),
    ("Structured Pruning of Large Language Models", "Unstructured Pruning of Large Language Models"),
    ("Symmetric Equilibria in Multi-Agent Games", "Asymmetric Equilibria in Multi-Agent Games"),
    ("Why Sharpness-Aware Minimization Works", "Why Sharpness-Aware Minimization Does Not Work"),
    ("Robust Reinforcement Learning with Expert Demonstrations", "Robust Reinforcement Learning without Expert Demonstrations"),
    ("Entangled Representations for Control", "Disentangled Representations for Control"),
]


@pytest.mark.parametrize("title_a,title_b", OPPOSITES)
def test_titles_that_say_the_opposite_are_two_papers(title_a, title_b):
    row = scored(pair(ABSTRACT, VARIANTS["typo"], title_a=title_a, title_b=title_b)).row(0, named=True)
    assert not row["is_match"] and row["rule"] == "titles_differ"


# One template filled in twice, the word swapped in the title said in the abstracts in another form
# ("Dielectron" / "Dimuon" beside "electrons" / "muons", "Korean" / "Japanese" beside "Korea" /
# "Japan"): counted as written, neither abstract said either title word, and the two were one paper.
SEARCH = ("A search for heavy Majorana neutrinos produced in proton-proton collisions is presented, using events "
          "with two same-sign {0} and at least two jets. The data were recorded with the detector at the Large "
          "Hadron Collider and correspond to an integrated luminosity of 19.7 inverse femtobarns. No excess of "
          "events is observed beyond the expected standard model background, and upper limits are set on the "
          "mixing of the heavy neutrinos with the light ones, for {0} of transverse momentum above 20 GeV.")
BENCH = ("We construct a benchmark of legal questions drawn from bar examinations and statutes in {0}, covering "
         "civil, criminal and administrative law. We evaluate twelve large language models, both proprietary and "
         "open, under zero-shot prompting and with retrieval of statutes. The best model answers sixty percent of "
         "the questions correctly, while smaller open models remain close to chance on statutory reasoning. "
         "Questions that cite the case law of {0} are the hardest for every model.")
FORMS = [
    ("Search for Heavy Majorana Neutrinos in the {} Channel at 8 TeV", SEARCH, ("Dielectron", "electrons"), ("Dimuon", "muons")),
    ("Search for Heavy Majorana Neutrinos in the {} Channel at 8 TeV", SEARCH, ("Diphoton", "photons"), ("Dimuon", "muons")),
    ("Benchmarking Large Language Models on {} Legal Reasoning", BENCH, ("Korean", "Korea"), ("Japanese", "Japan")),
    ("Benchmarking Large Language Models on {} Legal Reasoning", BENCH, ("Russian", "Russia"), ("Indian", "India")),
]


@pytest.mark.parametrize("title,abstract,a,b", FORMS)
def test_a_title_word_swapped_with_its_form_in_the_abstracts_is_two_papers(title, abstract, a, b):
    row = scored(pair(abstract.format(a[1]), abstract.format(b[1]), title_a=title.format(a[0]),
                      title_b=title.format(b[0]))).row(0, named=True)
    assert not row["is_match"] and row["rule"] == "titles_differ", row
    # the title's word changed alone (the abstract as it was) is a title edited: one paper
    row = scored(pair(abstract.format(a[1]), abstract.format(a[1]) + " Code is released.", title_a=title.format(a[0]),
                      title_b=title.format(b[0]))).row(0, named=True)
    assert row["is_match"], row


# A word swapped for one the other title already holds elsewhere: as sets of words, only one title
# had a word of its own, and the swap went unseen (hunt: two ATLAS searches, one paper).
ATLAS = ("A search for heavy {0} leptons is presented. The search uses 139 fb^-1 of proton-proton collision data at "
         "a centre-of-mass energy of 13 TeV recorded by the ATLAS detector at the Large Hadron Collider. Events with "
         "three charged leptons and missing transverse momentum are selected. The observed data are consistent with "
         "the Standard Model background expectation. Upper limits at 95% confidence level are set on the production "
         "cross-section of heavy {0} leptons, excluding masses up to 2.1 TeV.")


def test_a_title_word_swapped_for_one_the_title_holds_elsewhere_is_two_papers():
    title = "Search for Heavy {} Leptons in Final States with Three Charged Leptons with the ATLAS Detector"
    row = scored(pair(ATLAS.format("neutral"), ATLAS.format("charged"), title_a=title.format("Neutral"),
                      title_b=title.format("Charged"))).row(0, named=True)
    assert not row["is_match"] and row["rule"] == "titles_differ", row
    # the title's word changed alone (the abstract as it was) is still a title edited
    row = scored(pair(ATLAS.format("neutral"), ATLAS.format("neutral") + " Code is released.",
                      title_a=title.format("Neutral"), title_b=title.format("Charged"))).row(0, named=True)
    assert row["is_match"], row


# Titles-only records (ICML's: "No abstract available."): the abstract cannot say which word each
# title means, so one word of one title replaced by another is two papers of one template; a
# revision's edits (a typo, a plural, an acronym spelled out, a linking word) stay one paper.
@pytest.mark.parametrize("title_a,title_b", [
    ("Efficient Training of Sparse Transformers for Long Documents", "Efficient Inference of Sparse Transformers for Long Documents"),
    ("Benchmarking Large Language Models on the MMLU Benchmark", "Benchmarking Large Language Models on the BBH Benchmark"),
    ("Vision Transformers Are Efficient Learners of Sparse Structure", "Audio Transformers Are Efficient Learners of Sparse Structure"),
    ("Offline Reinforcement Learning with Diffusion Policies", "Online Reinforcement Learning with Diffusion Policies"),
    ("Conditional GAN Priors for Inverse Problems", "Conditional VAE Priors for Inverse Problems"),
    ("Measurement of the W Boson Mass at 13 TeV with the ATLAS Detector",
     "Measurement of the Z Boson Mass at 13 TeV with the ATLAS Detector"),
    ("Offline RL for Robotic Manipulation", "Offline ML for Robotic Manipulation"),
    # the other word spelled close: two English words, neither a form of the other (transforms.words)
    ("Masked Autoencoder Pretraining with a Shallow Encoder", "Masked Autoencoder Pretraining with a Shallow Decoder"),
    ("Convergence of Alternating Maximization for Matrix Sensing", "Convergence of Alternating Minimization for Matrix Sensing"),
    ("Learned Upsampling Filters for Point Clouds", "Learned Downsampling Filters for Point Clouds"),
    ("Contrastive Objectives for Supervised Domain Adaptation", "Contrastive Objectives for Unsupervised Domain Adaptation"),
    ("Retrieval over Structured Content for Question Answering", "Retrieval over Structured Context for Question Answering"),
    # the other title's word said elsewhere in both titles: counted, not looked up as a set
    ("Search for Heavy Neutral Leptons in Events with Three Charged Leptons",
     "Search for Heavy Charged Leptons in Events with Three Charged Leptons"),
])
def test_a_title_word_swapped_beside_a_boilerplate_abstract_is_two_papers(title_a, title_b):
    row = scored(pair("No abstract available.", "No abstract available.", title_a=title_a,
                      title_b=title_b)).row(0, named=True)
    assert not row["is_match"] and row["rule"] == "titles_differ", row


@pytest.mark.parametrize("title_a,title_b", [
    ("Efficient Trainig of Sparse Transformers for Long Documents", "Efficient Training of Sparse Transformers for Long Documents"),
    ("Graph Neural Network for Molecular Property Prediction", "Graph Neural Networks for Molecular Property Prediction"),
    ("Aligning LLMs with Human Preferences via Contrastive Feedback",
     "Aligning Large Language Models with Human Preferences via Contrastive Feedback"),
    ("Learning Policies with Human Feedback via Preference Models", "Learning Policies from Human Feedback through Preference Models"),
    ("Towards Robust Optimisation of Non-Convex Objectives", "Robust Optimization of Nonconvex Objectives"),
    ("Conditional GAN Priors for Inverse Problems", "Conditional GANs Priors for the Inverse Problems"),
    ("Learning in Games with Bandit Feedback", "Learning on Games with Bandit Feedback"),
    ("A Survey of Graph Neural Networks", "The Survey of Graph Neural Networks"),
    ("Two-Stage Detection with Transformers", "2-Stage Detection with Transformers"),
    ("Coding Theorems for Channels, Part II", "Coding Theorems for Channels, Part 2"),
    ("Graph Learning in the U.S. Power Grid", "Graph Learning in the US Power Grid"),
    ("$k$-NN Classifiers Are Robust to Label Noise", "kNN Classifiers Are Robust to Label Noise"),
    # a typo, or British spelling, beside two close English words: one word (transforms.words)
    ("Lerning Sparse Transformers for Long Documents", "Learning Sparse Transformers for Long Documents"),
    ("Efficient Transfomers for Long Documents", "Efficient Transformers for Long Documents"),
    ("Modelling Human Behaviour with Neural Processes", "Modeling Human Behavior with Neural Processes"),
    ("Tokenisers for Code Models", "Tokenizers for Code Models"),
    ("Feature Extraction for Graphs", "Feature Extractive for Graphs"),
    # a short word's letters swapped (0.75), the word said again elsewhere (ICML 2025's "Cavia")
    ("Cavia: Camera-controllable Multi-view Video Diffusion with View-Integrated Attention",
     "Cavia: Camera-controllable Multi-veiw Video Diffusion with View-Integrated Attention"),
])
def test_a_titles_only_revision_stays_one_paper(title_a, title_b):
    row = scored(pair("No abstract available.", "No abstract available.", title_a=title_a,
                      title_b=title_b)).row(0, named=True)
    assert row["is_match"], row


def test_titles_only_siblings_load_as_two_papers(warehouse):
    """The loader's side: two titles-only listings by the same authors, one word of the title apart,
    in two files and in two runs."""
    a = ("Efficient Training of Sparse Transformers for Long Documents", AUTHORS, "No abstract available.")
    b = ("Efficient Inference of Sparse Transformers for Long Documents", AUTHORS, "No abstract available.")
    warehouse.ingest([listing_text([a])])
    warehouse.ingest([listing_text([b], day="Oct 27, 2026")])
    assert sorted(warehouse.sql("SELECT title FROM dim_paper")) == [(b[0],), (a[0],)]


# Names the fold cannot spell: "C++", "C#" and "C" fold to one word, in the titles and the abstracts.
MEMORY = ("We present a static analysis for {0} programs that detects use-after-free and double-free errors. The "
          "analysis tracks ownership of heap objects through function boundaries and scales to millions of lines of "
          "{0} code. On twenty open-source {0} projects it finds 143 previously unknown bugs with a false positive "
          "rate of 12 percent, and developers confirmed most of the reported {0} defects.")


@pytest.mark.parametrize("a,b", [("C++", "C#"), ("C++", "C"), ("C#", "C"), ("F#", "F"), ("LoRA+", "LoRA")])
def test_titles_apart_by_a_marked_name_are_two_papers(a, b):
    title = "Scalable Static Analysis of Memory Errors in {} Programs"
    row = scored(pair(MEMORY.format(a), MEMORY.format(b), title_a=title.format(a),
                      title_b=title.format(b))).row(0, named=True)
    assert not row["is_match"] and row["rule"] == "titles_differ", row


@pytest.mark.parametrize("title_a,title_b", [
    ("Memory Errors in C++ Programs", "Memory errors in C++ programs"),
    ("Memory Errors in C/C++ Programs", "Memory Errors in C++ Programs"),
    ("Vision+Language Models Revisited", "Vision + Language Models Revisited"),
    ("LoRA+: Efficient Low Rank Adaptation", "LoRA+ : Efficient Low-Rank Adaptation"),
])
def test_titles_with_the_same_marked_names_still_merge(title_a, title_b):
    row = scored(pair(MEMORY.format("C++"), MEMORY.format("C++") + " Code is released.", title_a=title_a,
                      title_b=title_b)).row(0, named=True)
    assert row["is_match"], row


# One template, the direction turned around ("Swahili to English" / "English to Swahili"): the same
# words in both titles, so no word was swapped, and the two papers merged at 0.81-0.86.
DIRECTION = ("We study low-resource machine translation from {0} to {1}. We collect a parallel corpus of 40,000 "
             "sentence pairs from news and government sources and train small transformer models on it. "
             "Back-translation of monolingual {1} text improves BLEU by 4 points, and a vocabulary shared between {0} "
             "and {1} helps rare words. We release the corpus and models and report results on a new test set built "
             "by professional translators for the {0} to {1} direction.")


@pytest.mark.parametrize("title", ["Translating {} to {} with Small Transformers", "{} → {} Translation with Small Transformers",
                                   "{}-to-{} Translation with Small Transformers"])
@pytest.mark.parametrize("same_text", [False, True])
def test_a_title_turned_the_other_direction_is_two_papers(title, same_text):
    a, b = DIRECTION.format("Swahili", "English"), DIRECTION.format("English", "Swahili")
    row = scored(pair(a, a if same_text else b, title_a=title.format("Swahili", "English"),
                      title_b=title.format("English", "Swahili"))).row(0, named=True)
    assert not row["is_match"] and row["rule"] == "titles_differ", row


@pytest.mark.parametrize("title_a,title_b", [
    ("Learning to Rank Documents with Transformers", "Learning to Rank Documents with Small Transformers"),
    ("Translating Swahili to English with Small Transformers", "Translating Swahili → English with Small Transformers"),
    ("Swahili to English Translation with Small Transformers", "Swahili to English and English to Swahili Translation with Small Transformers"),
])
def test_a_title_in_one_direction_still_merges(title_a, title_b):
    a = DIRECTION.format("Swahili", "English")
    row = scored(pair(a, a + " Code is released.", title_a=title_a, title_b=title_b)).row(0, named=True)
    assert row["is_match"], row


RETITLED = ("Large language models answer open-domain questions better when they can consult external documents. "
            "Prior {} has mostly studied when to {} such documents for single-hop questions, leaving multi-hop "
            "questions open. We propose a lightweight controller that decides at each step whether to read more, "
            "and show on three benchmarks that it matches always-reading baselines at a third of the cost.")


@pytest.mark.parametrize("a,b", [
    # a review: "research" was counted as a form of "Search", "context" of "Text", "encoder" of "Code"
    (("Search", "research", "consult"), ("Retrieve", "work", "retrieve")),
    (("Text", "context", "consult"), ("Retrieve", "work", "retrieve")),
    (("Code", "encoder", "consult"), ("Retrieve", "work", "retrieve")),
    # a revision renaming a title word and one of its abstract's (a second review: "Networks" ->
    # "Graphs", one "network" -> "graph", the singular counted as a form of the plural)
    (("Networks", "network research", "consult the network"), ("Graphs", "graph research", "consult the network")),
])
def test_a_word_holding_a_title_word_is_no_form_of_it(a, b):
    """One paper retitled, its abstract revised beside: a word of the abstract that merely holds the
    old title word ("research" / "Search") is none of its forms: the revision was split in two."""
    title = "Learning When to {} for Multi-Hop Question Answering"
    row = scored(pair(RETITLED.format(a[1], a[2]), RETITLED.format(b[1], b[2]), title_a=title.format(a[0]),
                      title_b=title.format(b[0]))).row(0, named=True)
    assert row["is_match"], row


# A sibling on one template: the paper's sentences 1, 3 and 5, two of another paper's between them,
# the title's closing words another's (eval.run --seed 41: 0.78 contained, titles 0.82, merged).
CLAIMS = ["Existing metrics for factuality and faithfulness check whether an answer is supported or "
          "contradicted by its grounding documents, but they miss cases where both kinds of evidence coexist.",
          "We introduce a metric that quantifies how well a response acknowledges conflicting evidence in "
          "the documents it was given.",
          "Our framework splits each response into atomic claims, labels every claim against every "
          "document, and aggregates the labels into a count of conflicting claims and a support ratio.",
          "We also release a benchmark covering ambiguity, contradiction and divergent opinions to "
          "evaluate the metric systematically.",
          "Experiments show that the metric detects overconfident claims across domains and serves as "
          "corrective feedback that improves truthfulness on question answering."]
ELSEWHERE = ["Their output approximates the statistically dominant word patterns.",
             "This paper seeks to end such unreasonable ideas."]
SIBLING_OF_CLAIMS = " ".join([CLAIMS[0], ELSEWHERE[0], CLAIMS[2], ELSEWHERE[1], CLAIMS[4]])
REVISED_CLAIMS = " ".join(CLAIMS[:2] + ELSEWHERE[:1] + CLAIMS[3:])  # a sentence rewritten: 0.7-0.9
CLAIMS_TITLE = "ConflictScore: Identifying and Measuring How Language Models {}"
REWORDED = [  # (title ending of the paper, of the other): two or more words of each replaced
    ("Handle Conflicting Evidence", "Generate Contracts?"),
    ("Weigh Supporting Sources", "Write Legal Briefs"),
    ("Handle Conflicting Evidence", "Hallucinate Citations in Medicine"),
]


@pytest.mark.parametrize("ending_a,ending_b", REWORDED)
def test_a_reworded_title_beside_a_rewritten_abstract_is_two_papers(ending_a, ending_b, warehouse):
    """Both halves of the pair changed, the title reworded and the abstract not the same text, say
    two papers: the character ratio of such titles passes the gate (0.8) and the abstract's share
    (0.7-0.8) is what a revision's could be, so the sibling scored over the threshold and merged."""
    paper, sibling = " ".join(CLAIMS), SIBLING_OF_CLAIMS
    title_a, title_b = CLAIMS_TITLE.format(ending_a), CLAIMS_TITLE.format(ending_b)
    (row,) = scored(pair(paper, sibling, title_a=title_a, title_b=title_b)).rows(named=True)
    assert row["title_ratio"] >= resolve.TITLE_GATE and row["score"] >= resolve.DEFAULT_THRESHOLD, row
    assert not row["is_match"] and row["rule"] == "titles_differ", row
    warehouse.ingest([listing_text([(title_a, AUTHORS, paper), (title_b, AUTHORS, sibling)]),
                      listing_text([(title_b, AUTHORS, sibling)], day="Oct 27, 2026")])
    assert sorted(warehouse.sql("SELECT n_listings FROM dim_paper")) == [(1,), (2,)]


@pytest.mark.parametrize("title_b,abstract_b", [
    # the title reworded, the abstract the same text (or with a sentence more): a retitled paper
    (CLAIMS_TITLE.format("Generate Contracts?"), " ".join(CLAIMS)),
    (CLAIMS_TITLE.format("Generate Contracts?"), " ".join(CLAIMS) + " Code is available at https://github.com/x/y."),
    # the abstract revised, the title's words kept but one renamed, added or spelled otherwise
    (CLAIMS_TITLE.format("Handle Contradictory Evidence"), REVISED_CLAIMS),
    (CLAIMS_TITLE.format("Handle Conflicting Evidence in Retrieved Documents"), REVISED_CLAIMS),
    (CLAIMS_TITLE.format("Handle Conflicting Evidences").upper(), REVISED_CLAIMS),
    ("Towards " + CLAIMS_TITLE.format("Handle Conflicting Evidence"), REVISED_CLAIMS),
])
def test_a_retitled_or_revised_paper_stays_one(title_b, abstract_b):
    """The rule's other side: one half changed (or only a word of the title) is a revision."""
    (row,) = scored(pair(" ".join(CLAIMS), abstract_b, title_a=CLAIMS_TITLE.format("Handle Conflicting Evidence"),
                         title_b=title_b)).rows(named=True)
    assert row["is_match"], row


@pytest.mark.parametrize("title_a,title_b", [  # review 49: split by the rule's first version
    ("Learning Policies with Human Feedback Using Preference Models",  # linking words
     "Learning Policies from Human Feedback through Preference Models"),
    ("Identifying and Measuring How Large Language Models and Vision Language Models Handle Conflicting Evidence",
     "Identifying and Measuring How LLMs and VLMs Handle Conflicting Evidence"),  # acronyms
    ("ConflictScore: Measuring How Language Models Handle Conflicting Evidence",  # two synonyms
     "ConflictScore: Quantifying How Language Models Handle Contradictory Evidence"),
    ("ConflictScore: Identifying and Measuring How Language Models Handle Conflicting Evidence",  # a tool renamed
     "ClaimCheck: Identifying and Measuring How Language Models Handle Contradictory Evidence"),
])
def test_a_revision_reworded_beside_a_sentence_rewritten_stays_one(title_a, title_b):
    """Linking words and acronyms are wording; two words replaced beside an abstract with one
    sentence rewritten (0.89 contained) is a revision (a sibling's every other sentence: 0.78)."""
    (row,) = scored(pair(" ".join(CLAIMS), REVISED_CLAIMS, title_a=title_a, title_b=title_b)).rows(named=True)
    assert row["is_match"], row


LONG_WORDS = ["conflicting", "evidence", "glaciology", "contracts", "medicine", "citations", "weather", "protein",
              "robotics", "auctions", "galaxies", "tokenizer", "compilers", "bandits", "vaccines", "glaciers"]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(LONG_WORDS), min_size=4, max_size=4, unique=True), st.integers(0, 2),
       st.booleans())
def test_reworded_titles_count_words_not_letters(words, n_replaced, same_text):
    """Any two long titles alike but for n replaced words (none a form of another): kept apart when
    two or more are replaced and the abstracts differ; one word replaced, or the same abstract, merges."""
    opening = "Identifying and Measuring How Large Language Models and Their Retrieval Pipelines Handle {} {}"
    title_a, title_b = opening.format(*words[:2]), opening.format(*(words[2:2 + n_replaced] + words[n_replaced:2]))
    abstract_b = " ".join(CLAIMS) if same_text else SIBLING_OF_CLAIMS
    (row,) = scored(pair(" ".join(CLAIMS), abstract_b, title_a=title_a, title_b=title_b)).rows(named=True)
    assert row["is_match"] == (same_text or n_replaced < resolve.REWORDED_WORDS), row


@pytest.mark.parametrize("title_a,title_b", [
    ("Coding Theorems, Part II", "CODING THEOREMS — PART II"),  # case and punctuation
    ("Nonlinear Control of Unsupervised Agents", "Non-linear Control of Un-supervised Agents"),  # a prefix written apart
    # the same words spaced or spelled otherwise, beside a second word of the prefix; contractions;
    # "a" after a lettered word is an article (each was split by the rules for opposites and numbers)
    ("Non-Asymptotic Analysis of Nonconvex SGD", "Non-Asymptotic Analysis of Non-Convex SGD"),
    ("Why Transformers Don't Generalize Out of Distribution", "Why Transformers Do Not Generalize Out of Distribution"),
    ("Models That Cannot Forget", "Models That Can Not Forget"),
    ("Learning without Forgetting in Vision Transformers", "Learning w/o Forgetting in Vision Transformers"),
    ("Deep Learning for Time Series: A Survey", "Deep Learning for Time Series Forecasting: A Survey"),
    ("Learning to Track a Moving Target with Drones", "Learning to Track Moving Targets with Drones"),
    ("Learning to Rank Documents", "Learning to Rank Documents Not Seen in Training"),  # a title cut short, no number
    ("Llama 2: Open Foundation Models", "Llama 2"),  # a title cut short
    ("Can I Trust My Model? Calibration in 3 Steps", "Can I trust my model? Calibration in 3 steps"),
    ("ResNet-50 Revisited: One Model for Images", "ResNet50 revisited: one model for images"),
    ("An $O(n^2)$ Algorithm for Top-$k$ Sampling in $\\mathbb{R}^3$", "An O(n²) Algorithm for Top-k Sampling in ℝ³"),
])
def test_titles_with_the_same_numbers_still_merge(title_a, title_b):
    row = scored(pair(ABSTRACT, VARIANTS["typo"], title_a=title_a, title_b=title_b)).row(0, named=True)
    assert row["is_match"], row


@given(st.lists(st.lists(st.sampled_from(["model", "graph", "of", "the", "x", "a1"]), max_size=40)
                .map(" ".join), min_size=1, max_size=6),
       st.lists(st.booleans(), min_size=6, max_size=6))
@settings(max_examples=150, deadline=None)
def test_equal_texts_score_as_if_compared(texts, equal):
    """score_pairs skips the comparison of two equal texts (1 on every text measure): the
    features and decisions are those of comparing them, for the empty text, texts under
    MIN_PREFIX_WORDS and BOILERPLATE_WORDS words, and longer ones, beside unequal pairs."""
    others = [t if same else t + " extra words" for t, same in zip(texts, equal)]
    df = scored(*(pair(a, b) for a, b in zip(texts, others)))
    match = df.select("text_a", "text_b")
    both = pl.concat([match["text_a"], match["text_b"]]).unique(maintain_order=True)
    index = {t: i for i, t in enumerate(both.to_list())}
    ia, ib = (np.array([index[t] for t in match[c].to_list()]) for c in ("text_a", "text_b"))
    words = both.str.count_matches(" ").to_numpy() + 1
    compared = resolve._text_similarity(both, ia, ib, np.minimum(words[ia], words[ib]))
    for column, values in zip(("shingle_jaccard", "shingle_containment", "abstract_ratio"), compared):
        assert df[column].to_list() == pl.Series(values, dtype=pl.Float64).round(4).to_list()


def test_title_words_are_compared_only_in_titles_close_enough_to_pass(monkeypatch):
    """One boilerplate abstract under thousands of unrelated titles ("No abstract available.",
    a titles-only page): every pair's titles were searched for swapped words and numbers, ~80 %
    of the resolver's time on that shape; titles that fail the gate are rejected anyway."""
    looked_at = []
    swapped, numbers = resolve._swapped_words, resolve._other_numbers
    monkeypatch.setattr(resolve, "_swapped_words", lambda pairs, rows: looked_at.append(len(rows)) or swapped(pairs, rows))
    monkeypatch.setattr(resolve, "_other_numbers", lambda pairs, rows: looked_at.append(len(rows)) or numbers(pairs, rows))
    titles = ["Graph Attention for Citation Networks", "Tokenizers Matter Across Scripts", "Sparse Solvers on GPUs 2",
              "Sparse Solvers on GPUs 3"]
    df = scored(*(pair("No abstract available.", "No abstract available.", title_a=a, title_b=b)
                  for a, b in [(titles[0], titles[1]), (titles[1], titles[2]), (titles[2], titles[3])]))
    assert looked_at == [1, 1]  # only "Sparse Solvers on GPUs 2" / "... 3": its numbers differ
    assert df["rule"].to_list() == ["titles_differ"] * 3 and not df["is_match"].any()


def test_threshold_is_the_setting():
    row = scored(pair(ABSTRACT, VARIANTS["v2_revision"]), threshold=0.999).row(0, named=True)
    assert not row["is_match"] and row["rule"] == "below_threshold"


def test_clusters_never_merge_two_existing_papers_and_keep_their_ids():
    edges = pl.DataFrame({"paper_key": [10, 10, 11], "other": [500, 600, 10], "other_is_paper": [True, True, False],
                          "score": [0.95, 0.9, 0.99]})
    mapping, outcome = resolve.cluster_papers(edges)
    assert mapping == {10: 500, 11: 500}  # a key in no edge (12) is its own paper: not in the mapping
    assert outcome == {(10, 600, True): resolve.KEPT_APART_EXISTING}  # (10, 500) and (11, 10) applied


@st.composite
def resolver_graphs(draw):
    """Accepted and rejected pairs over a few new keys and stored papers, as the scorer gives
    them: new x new pairs once (lower key first), new x stored; ids of both kinds overlap."""
    new_keys, papers = st.integers(1, 8), st.integers(1, 4)
    pair = st.one_of(st.tuples(new_keys, new_keys, st.just(False)).filter(lambda p: p[0] < p[1]),
                     st.tuples(new_keys, papers, st.just(True)))
    pairs = draw(st.lists(pair, max_size=14, unique=True))
    n_accepted = draw(st.integers(0, len(pairs)))
    scores = draw(st.lists(st.sampled_from([0.85, 0.9, 0.95, 1.0]), min_size=n_accepted, max_size=n_accepted))
    rules = draw(st.lists(st.sampled_from(["below_threshold", *resolve.DISTINCT_RULES]),
                          min_size=len(pairs) - n_accepted, max_size=len(pairs) - n_accepted))
    schema = {"paper_key": pl.Int64, "other": pl.Int64, "other_is_paper": pl.Boolean}
    accepted = pl.DataFrame(pairs[:n_accepted], schema=schema, orient="row").with_columns(
        score=pl.Series(scores, dtype=pl.Float64))
    rejected = pl.DataFrame(pairs[n_accepted:], schema=schema, orient="row").with_columns(
        rule=pl.Series(rules, dtype=pl.String))
    return accepted, rejected


@given(resolver_graphs())
@settings(max_examples=300, deadline=None)
def test_lone_pairs_decided_apart_give_the_clusters_of_the_ordered_loop(graph):
    accepted, rejected = graph
    assert resolve.cluster_papers(accepted, rejected) == resolve._cluster_in_order(accepted, rejected)


def _reference(accepted: pl.DataFrame, rejected: pl.DataFrame | None):
    """The pre-session-47 loop's mapping and skipped pairs (its applied pairs, None, left out)."""
    mapping, outcome = cluster_reference._cluster_in_order(accepted, rejected)
    return mapping, {pair: why for pair, why in outcome.items() if why is not None}


@given(resolver_graphs())
@settings(max_examples=300, deadline=None)
def test_the_numbered_loop_decides_every_pair_as_the_loop_of_sets_did(graph):
    # the loop keeps a list per node instead of sets and a dict entry per pair (2.1M pairs at
    # 100k listings of a paper's many revisions held ~1.5 GB outside DuckDB's memory limit)
    accepted, rejected = graph
    assert resolve._cluster_in_order(accepted, rejected) == _reference(accepted, rejected)


def test_the_numbered_loop_on_many_revisions_of_each_paper_decides_as_the_loop_of_sets():
    # blocks of revisions: each paper's versions all accepted with each other, a few pairs
    # rejected (below the threshold, or authors that differ), a few stored papers met twice
    rng = np.random.default_rng(47)
    accepted, rejected = [], []
    for paper in range(60):
        keys = [paper * 1000 + v for v in range(int(rng.integers(2, 40)))]
        for i, a in enumerate(keys):
            for b in keys[i + 1:]:
                if rng.random() < 0.08:
                    rejected.append((a, b, False, str(rng.choice(["below_threshold", "authors_differ"]))))
                else:
                    accepted.append((a, b, False, float(rng.choice([0.82, 0.9, 0.95, 0.99, 1.0]))))
            if rng.random() < 0.05:
                accepted.append((a, int(rng.integers(1, 5)), True, float(rng.choice([0.85, 0.9]))))
    schema = {"paper_key": pl.Int64, "other": pl.Int64, "other_is_paper": pl.Boolean}
    edges = pl.DataFrame(accepted, schema={**schema, "score": pl.Float64}, orient="row")
    kept_apart = pl.DataFrame(rejected, schema={**schema, "rule": pl.String}, orient="row")
    mapping, skipped = resolve._cluster_in_order(edges, kept_apart)
    assert (mapping, skipped) == _reference(edges, kept_apart)
    assert set(skipped.values()) >= {resolve.KEPT_APART_REJECTED, resolve.KEPT_APART_EXISTING}


def test_the_ordered_loop_holds_only_the_rejected_pairs_between_nodes_it_may_join(monkeypatch):
    # one placeholder abstract under 128k titles: 1.7M rejected pairs, 5 accepted; all of them
    # were held as Python sets though none but those between two accepted nodes matter
    schema = {"paper_key": pl.Int64, "other": pl.Int64, "other_is_paper": pl.Boolean}
    accepted = pl.DataFrame([(1, 2, False), (2, 3, False)], schema=schema, orient="row").with_columns(score=pl.lit(0.9))
    far = [(k, k + 1, False) for k in range(10, 10_010)] + [(1, 50_000, False), (3, 7, True)]
    rejected = pl.DataFrame([*far, (1, 3, False)], schema=schema, orient="row").with_columns(rule=pl.lit("below_threshold"))
    seen = []
    ordered = resolve._cluster_in_order
    monkeypatch.setattr(resolve, "_cluster_in_order", lambda e, r: seen.append(r.height) or ordered(e, r))
    mapping, outcome = resolve.cluster_papers(accepted, rejected)
    assert seen == [1]  # (1, 3): both ends accepted with 2
    assert (mapping, outcome) == ordered(accepted, rejected)
    assert outcome == {(2, 3, False): resolve.KEPT_APART_REJECTED}


def test_alias_rules():
    df = pl.DataFrame({"a": ["r munos", "jean pierre", "remi munos", "wei zhang", "j p sartre"],
                       "b": ["remi munos", "jeanpierre", "robert munos", "zhang wei", "jean paul sartre"]})
    rules = df.select(resolve.alias_rule(pl.col("a"), pl.col("b")))[:, 0].to_list()
    assert rules == ["initials", "spacing", None, None, "initials"]


# ----------------------------------------------------------------------------- in the warehouse
class Warehouse:
    """Runs the real load (process_batch → RunLoader with the entity resolver), run by run."""

    def __init__(self, path: Path):
        self.path, self.n_files = path, 0

    def ingest(self, texts: list[str], resolver=partial(resolve_entities, threshold=0.8)) -> load.RunStats:
        sources = []
        for text in texts:
            self.n_files += 1
            sources.append(SourceFile(self.n_files, f"f{self.n_files:03d}.txt", text.encode()))
        batch = process_batch(sources)
        batch.files = batch.files.with_columns(
            path=pl.Series([s.path for s in sources]), sha256=pl.Series([f"{s.source_file_id:064d}" for s in sources]),
            size_bytes=pl.Series([len(s.data) for s in sources], dtype=pl.Int64), mtime_ns=pl.lit(0, pl.Int64))
        con = load.connect(self.path)
        loader = load.RunLoader(con, f"run{self.n_files}", resolver=resolver)
        try:
            loader.begin()
            loader.stage(batch)
            stats = loader.merge(dt.datetime(2026, 10, 27, tzinfo=dt.timezone.utc))
            loader.check()
            loader.commit()
        finally:
            loader.rollback()
            con.close()
        return stats

    def sql(self, query: str) -> list[tuple]:
        with duckdb.connect(str(self.path), read_only=True) as con:
            return con.execute(query).fetchall()


@pytest.fixture
def warehouse(tmp_path) -> Warehouse:
    return Warehouse(tmp_path / "w.duckdb")


def test_incremental_variants_join_the_stored_paper_and_ids_stay(warehouse):
    warehouse.ingest([listing_text([(TITLE, AUTHORS, ABSTRACT), ("Improving Signals", ["Nilotpal Kakati"], OTHER)])])
    (paper_id,) = warehouse.sql(f"SELECT paper_id FROM dim_paper WHERE title = '{TITLE}'")[0]
    before = set(warehouse.sql("SELECT paper_id FROM dim_paper"))

    stats = warehouse.ingest([
        search_text([(["Marius Henry", "MICHAEL RIZVI-MARTEL", "Michael Hahn"], VARIANTS["latex_unicode"]),
                     (AUTHORS, VARIANTS["cut_short"])]),
        listing_text([(TITLE, AUTHORS, VARIANTS["v2_revision"]), (TITLE, AUTHORS, SIBLING)], day="Oct 27, 2026"),
    ])
    assert stats.n_new_papers == 1  # only the sibling is a new paper
    assert before <= set(warehouse.sql("SELECT paper_id FROM dim_paper"))  # nothing renumbered
    assert warehouse.sql(f"SELECT n_listings, title FROM dim_paper WHERE paper_id = {paper_id}") == [(4, TITLE)]
    merges = warehouse.sql("SELECT paper_id, matched_paper_id, rule, score, features FROM paper_match WHERE is_merge")
    assert {m[0] for m in merges} == {paper_id}  # every merge went to the stored paper
    assert sum(m[1] == paper_id for m in merges) == 3  # each variant matched it directly (others: each other)
    assert {m[2] for m in merges} == {"abstract", "abstract_contained"}
    assert all(m[3] >= 0.8 and '"author_agreement":1.0' in m[4] for m in merges)
    (sibling,) = set(warehouse.sql("SELECT paper_id FROM dim_paper")) - before
    kept_apart = warehouse.sql("SELECT paper_id, matched_key, rule FROM paper_match WHERE NOT is_merge")
    assert kept_apart and {r for *_, r in kept_apart} == {"below_threshold"}
    sibling_keys = {k for (k,) in warehouse.sql(f"SELECT paper_key FROM paper_key_map WHERE paper_id = {sibling[0]}")}
    assert all(paper == sibling[0] or matched in sibling_keys for paper, matched, _ in kept_apart)  # only the sibling


def test_papers_stored_without_signatures_are_signed_once_and_then_matched(warehouse, monkeypatch):
    """A warehouse loaded by the exact resolver (or before signatures existed) has papers with
    no block keys: the next run signs them, so its near-duplicates still find them."""
    warehouse.ingest([listing_text([(TITLE, AUTHORS, ABSTRACT), ("Improving Signals", ["Nilotpal Kakati"], OTHER)])],
                     resolver=load.resolve_exact)
    assert warehouse.sql("SELECT count(*) FROM paper_signature") == [(0,)]
    (paper_id,) = warehouse.sql(f"SELECT paper_id FROM dim_paper WHERE title = '{TITLE}'")[0]

    backfills = []
    chunks = flows_resolve._chunks
    monkeypatch.setattr(flows_resolve, "_chunks", lambda con, query, **kw: backfills.append(query) or chunks(con, query, **kw))
    backfill = "FROM dim_paper WHERE paper_id NOT IN"
    assert warehouse.ingest([search_text([(AUTHORS, VARIANTS["typo"])])]).n_new_papers == 0
    signed = "SELECT count(DISTINCT paper_key) FROM paper_signature WHERE band = 0"
    assert warehouse.sql(signed) == [(3,)]  # the two stored papers (backfilled) and the variant's own key
    assert [q for q in backfills if backfill in q], "the spy saw no backfill (it reads the papers through _chunks)"

    # Every key signed now: the next run skips the backfill (no anti-join over every paper) and
    # still matches.
    backfills.clear()
    stats = warehouse.ingest([listing_text([(TITLE, AUTHORS, VARIANTS["v2_revision"])], day="Oct 28, 2026")])
    assert not [q for q in backfills if backfill in q]
    assert stats.n_new_papers == 0
    assert warehouse.sql(f"SELECT n_listings FROM dim_paper WHERE paper_id = {paper_id}") == [(3,)]


def test_keys_signed_by_another_scheme_are_signed_again_and_then_matched(warehouse, tmp_path):
    """A warehouse whose block keys older code made (words hashed with BLAKE2b, no
    signature_scheme row) holds keys no new paper meets: the next run signs every stored key
    again from its stored version, as a fresh load signs it, and its near-duplicates find them."""
    texts = [listing_text([(TITLE, AUTHORS, ABSTRACT), ("Improving Signals", ["Nilotpal Kakati"], OTHER)])]
    warehouse.ingest(texts)
    assert warehouse.sql("SELECT scheme FROM signature_scheme") == [(resolve.SIGNATURE_SCHEME,)]
    signatures = "SELECT paper_key, band, bucket FROM paper_signature ORDER BY ALL"
    fresh = warehouse.sql(signatures)
    with duckdb.connect(str(warehouse.path)) as con:  # what older code left: other buckets, no scheme
        con.execute("UPDATE paper_signature SET bucket = xor(bucket, 12345)")
        con.execute("DELETE FROM signature_scheme")
    assert warehouse.ingest([search_text([(AUTHORS, VARIANTS["typo"])])]).n_new_papers == 0
    assert warehouse.sql("SELECT scheme FROM signature_scheme") == [(resolve.SIGNATURE_SCHEME,)]
    twice = Warehouse(tmp_path / "fresh.duckdb")
    twice.ingest(texts)
    twice.ingest([search_text([(AUTHORS, VARIANTS["typo"])])])
    assert warehouse.sql(signatures) == twice.sql(signatures) and set(fresh) < set(warehouse.sql(signatures))


def test_a_fresh_load_of_the_same_files_finds_the_same_papers(warehouse, tmp_path):
    texts = [listing_text([(TITLE, AUTHORS, ABSTRACT)]), search_text([(AUTHORS, VARIANTS["typo"])]),
             listing_text([(TITLE, AUTHORS, SIBLING)], day="Oct 27, 2026")]
    warehouse.ingest(texts[:1])
    warehouse.ingest(texts[1:])
    fresh = Warehouse(tmp_path / "fresh.duckdb")
    fresh.ingest(texts)
    query = "SELECT title, n_listings, n_authors_shown FROM dim_paper ORDER BY ALL"
    assert warehouse.sql(query) == fresh.sql(query)
    assert warehouse.sql("SELECT count(*) FROM dim_paper")[0][0] == 2


def test_initials_at_the_same_position_become_an_alias_with_a_stable_id(warehouse):
    warehouse.ingest([listing_text([(TITLE, AUTHORS, ABSTRACT)])])
    (hahn_id,) = warehouse.sql("SELECT author_id FROM dim_author WHERE name = 'Michael Hahn'")[0]
    warehouse.ingest([search_text([(["Marius Henry", "Michael Rizvi-Martel", "M. Hahn"], VARIANTS["typo"])])])
    assert warehouse.sql("SELECT name_key, author_id, rule FROM author_alias") == [("m hahn", hahn_id, "initials")]
    assert warehouse.sql("SELECT author_id, name FROM dim_author WHERE name_key LIKE '%hahn'") == [(hahn_id, "Michael Hahn")]
    assert warehouse.sql("SELECT count(*) FROM dim_author")[0][0] == 3


def test_ambiguous_initials_are_not_aliased(warehouse):
    warehouse.ingest([listing_text([(TITLE, AUTHORS, ABSTRACT),
                                    ("Improving Signals", ["Nilotpal Kakati", "Mark Hahn"], OTHER)])])
    warehouse.ingest([search_text([(["Marius Henry", "Michael Rizvi-Martel", "M. Hahn"], VARIANTS["typo"])])])
    assert warehouse.sql("SELECT count(*) FROM author_alias")[0][0] == 0
    hahns = warehouse.sql("SELECT name FROM dim_author WHERE name_key LIKE '%hahn' ORDER BY 1")
    assert hahns == [("Mark Hahn",), ("Michael Hahn",)]  # two people; "M. Hahn" names neither for sure


def test_last_first_names_are_the_same_authors(warehouse):
    warehouse.ingest([listing_text([(TITLE, AUTHORS, ABSTRACT)]),
                      listing_text([(TITLE, ["Henry, Marius; Rizvi-Martel, Michael; Hahn, Michael"], VARIANTS["typo"])],
                                   day="Oct 27, 2026")])
    assert warehouse.sql("SELECT count(*) FROM dim_author")[0][0] == 3
    assert warehouse.sql("SELECT count(*) FROM dim_paper")[0][0] == 1


def test_truncated_list_and_full_list_reconcile(warehouse):
    full = ["Marius Henry", "Michael Rizvi-Martel", "Michael Hahn", "Ana Lopez", "Jo Smith"]
    warehouse.ingest([listing_text([(TITLE, full[:3] + ["and 2 more"], ABSTRACT)]).replace(", and 2 more", " and 2 more"),
                      search_text([(full, VARIANTS["trailing_sentence"])])])
    rows = warehouse.sql("SELECT authors, author_count, is_author_list_complete FROM dim_paper")
    assert rows == [(full, 5, True)]
    positions = warehouse.sql("SELECT a.name, b.author_position FROM bridge_paper_author b JOIN dim_author a USING (author_id) ORDER BY 2")
    assert [p[0] for p in positions] == full


def test_initials_take_the_full_name_seen_on_the_same_paper_even_when_ambiguous(warehouse):
    # "M. Hahn" could be Mark or Michael Hahn in general (no alias), but on this paper another
    # listing shows "Michael Hahn" at that position: the paper's list gets the full name.
    warehouse.ingest([listing_text([("Improving Signals", ["Nilotpal Kakati", "Mark Hahn"], OTHER)]),
                      search_text([(["Marius Henry", "Michael Rizvi-Martel", "M. Hahn", "Ana Lopez"], ABSTRACT)])])
    warehouse.ingest([listing_text([(TITLE, AUTHORS, VARIANTS["typo"])], day="Oct 27, 2026")])
    assert warehouse.sql("SELECT count(*) FROM author_alias")[0][0] == 0
    (authors,) = warehouse.sql(f"SELECT authors FROM dim_paper WHERE title = '{TITLE}'")[0]
    assert authors == ["Marius Henry", "Michael Rizvi-Martel", "Michael Hahn", "Ana Lopez"]
    third = warehouse.sql(f"""SELECT a.name FROM bridge_paper_author b JOIN dim_author a USING (author_id)
                              JOIN dim_paper p USING (paper_id) WHERE p.title = '{TITLE}' AND b.author_position = 3""")
    assert third == [("Michael Hahn",)]
    assert warehouse.sql("SELECT count(*) FROM dim_author WHERE name_key = 'm hahn'")[0][0] == 0


@pytest.mark.timeout(30)  # the bug looped through 2^55 empty ranges
def test_table_chunks_cover_a_temp_table_made_in_the_open_transaction():
    """Row ids of rows made in an open transaction do not start at 0 (the first version of
    `_table_chunks` counted from 0 and looped through 2^62 empty ranges)."""
    import duckdb

    from flows.resolve import _table_chunks

    con = duckdb.connect()
    con.execute("BEGIN TRANSACTION")
    con.execute("CREATE TEMP TABLE papers AS SELECT range AS paper_key FROM range(25)")
    chunks = list(_table_chunks(con, "papers", "paper_key", "paper_key % 5 <> 0", size=10))
    assert len(chunks) == 3
    assert sorted(k for c in chunks for k in c["paper_key"]) == [k for k in range(25) if k % 5]


def test_a_new_paper_is_named_by_its_id_key_whichever_listing_came_first():
    """A listing with a title (key 30) and one without (key 10) of one paper: the paper's id is
    their shared id key, so a fresh load and an incremental load give the same id. Another new
    paper wanting a taken id keeps its lowest key."""
    fresh = resolve.name_new_papers({10: 10, 30: 10, 40: 40}, {10: 7, 30: 7, 40: 9}, taken={9})
    assert fresh == {10: 7, 30: 7, 40: 40}
    first_run = resolve.name_new_papers({30: 30}, {30: 7}, taken=set())
    assert first_run == {30: 7}  # the untitled listing later joins paper 7: the same id
    assert resolve.name_new_papers({50: 1234}, {50: 7}, taken=set()) == {50: 1234}  # joined a stored paper


def _ids_as_frames(mapping: dict[int, int], id_keys: dict[int, int], taken: set[int]) -> dict[int, int]:
    keys = pl.DataFrame({"paper_key": list(id_keys), "id_key": list(id_keys.values())},
                        schema={"paper_key": pl.Int64, "id_key": pl.Int64})
    clustered = {k: p for k, p in mapping.items() if k != p}
    named = resolve.paper_ids(keys, pl.Series("paper_id", sorted(taken), pl.Int64), clustered)
    return dict(named.iter_rows())


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.integers(0, 12), st.tuples(st.integers(0, 4), st.integers(0, 12)), min_size=1, max_size=13),
       st.sets(st.integers(0, 12), max_size=4), st.booleans())
def test_paper_ids_over_frames_name_papers_as_the_loop_does(keys, taken, group_zero_is_stored):
    """`paper_ids` (the flow's, vectorised: the loop over 800k new papers took seconds) gives
    every key the id `name_new_papers` gives, on small id spaces where keys, id keys and taken
    ids collide often: clusters wanting one id key, an id key that is another cluster's own key
    (the order of claims decides: the loop's answer), a cluster that joined a stored paper (1000).
    keys: key -> (its cluster, its id key)."""
    id_keys = {key: id_key for key, (_, id_key) in keys.items()}
    mapping = {}
    for key, (group, _) in keys.items():
        members = [k for k, (g, _) in keys.items() if g == group]
        mapping[key] = 1000 if group == 0 and group_zero_is_stored else min(members)
    assert _ids_as_frames(mapping, id_keys, taken) == resolve.name_new_papers(mapping, id_keys, taken)


def test_paper_ids_over_frames_on_the_documented_cases():
    assert _ids_as_frames({10: 10, 30: 10, 40: 40}, {10: 7, 30: 7, 40: 9}, {9}) == {10: 7, 30: 7, 40: 40}
    assert _ids_as_frames({50: 1234}, {50: 7}, set()) == {50: 1234}
    assert _ids_as_frames({}, {}, set()) == {}
    # paper 5 wants the taken id 7 and keeps its key 5; paper 6 then wants 5, claimed: it keeps 6
    assert _ids_as_frames({5: 5, 6: 6}, {5: 7, 6: 5}, {7}) == {5: 5, 6: 6}


def test_an_exact_copy_of_one_stored_paper_is_no_close_call_with_another():
    # an untitled exact copy of "Part II" (1.0) beside "Part I" (0.97): it joined neither
    def mapping(scores):
        edges = pl.DataFrame({"paper_key": [1, 1], "other": [100, 200], "other_is_paper": [True, True],
                              "score": scores})
        return resolve.cluster_papers(edges.vstack(pl.DataFrame(
            {"paper_key": [2], "other": [1], "other_is_paper": [False], "score": [0.5]})))[0]
    assert mapping([1.0, 0.97]).get(1) == 100
    assert mapping([0.96, 0.98]).get(1) is None  # two near fits of two stored papers: neither


def test_one_long_abstract_word_for_word_needs_half_the_names_to_agree():
    """Real sources of one paper spell a third of its names otherwise ("Aleksandr" / "Alexander",
    "Jeff" / "Jeffrey"): with 2 of 3 positions agreeing, the ICLR 2024 papers listed both ways
    were 13 papers too many (of 400) though their abstracts were the same word for word. An edited
    text still needs AUTHOR_GATE, and other people's copy of an abstract stays apart."""
    keys = [n.lower().replace("-", " ") for n in AUTHORS]
    spelled = [keys[0], "alexander " + keys[1].split(" ")[-1], *keys[2:]]
    assert len(keys) == 3 and len(ABSTRACT.split()) >= resolve.SAME_TEXT_WORDS
    same, edited, others = scored(pair(ABSTRACT, ABSTRACT, keys_a=keys, keys_b=spelled),
                                  pair(ABSTRACT, VARIANTS["typo"], keys_a=keys, keys_b=spelled),
                                  pair(ABSTRACT, ABSTRACT, keys_a=keys, keys_b=["ana lopez", "wei zhang", keys[2]])).rows(named=True)
    assert same["is_match"] and not edited["is_match"] and not others["is_match"]
    assert edited["rule"] == others["rule"] == "authors_differ"


# ----------------------------------------------------------------------------- revisions of the author list
ADDED_FIRST = ["Dmitri Volkov", *AUTHORS]


@pytest.mark.parametrize("first, later", [(AUTHORS, ADDED_FIRST), (ADDED_FIRST, AUTHORS),
                                          (AUTHORS, [AUTHORS[0], "Dmitri Volkov", *AUTHORS[1:]]),
                                          (ADDED_FIRST, [AUTHORS[0], AUTHORS[2]])])
@pytest.mark.parametrize("abstract", [ABSTRACT, VARIANTS["v2_revision"]])
@pytest.mark.parametrize("together", [True, False])
def test_a_revision_that_adds_or_drops_an_author_is_the_same_paper(warehouse, first, later, abstract, together):
    """An author added before the first, or between two, or the first dropped (with another):
    every later name moved. (Two added before the first still split: the blocks are salted by
    the first two authors only.) Position by position the names disagreed, and the blocks (salted by the first
    author) never met: the revision was a second paper."""
    texts = [listing_text([(TITLE, first, ABSTRACT)]), listing_text([(TITLE, later, abstract)], day="Oct 27, 2026")]
    for batch in ([texts] if together else [[t] for t in texts]):
        warehouse.ingest(batch)
    assert warehouse.sql("SELECT n_listings FROM dim_paper") == [(2,)]


@pytest.mark.parametrize("together", [True, False])
def test_a_revision_that_adds_a_first_author_to_a_list_cut_short_is_the_same_paper(warehouse, together):
    """"Chentao Shen, Chen Jia, Mingjie Huang and 3 more", then "Tongliang Liu, Chentao Shen,
    Chen Jia and 4 more" (and its search page in full): the added name pushed Mingjie Huang past
    the cut, two of three names agreed, and the revision was a second paper (the full search
    record, fitting both, a third)."""
    v1, v2 = ["Chentao Shen", "Chen Jia", "Mingjie Huang and 3 more"], ["Tongliang Liu", "Chentao Shen", "Chen Jia and 4 more"]
    full = ["Tongliang Liu", "Chentao Shen", "Chen Jia", "Mingjie Huang", "Zhuang Zhang", "Haisen Zhao", "Xiangru Huang"]
    texts = [listing_text([(TITLE, v1, ABSTRACT)]), listing_text([(TITLE, v2, VARIANTS["v2_revision"])], day="Oct 27, 2026"),
             search_text([(full, VARIANTS["v2_revision"])])]
    for batch in ([texts] if together else [[t] for t in texts]):
        warehouse.ingest(batch)
    assert warehouse.sql("SELECT n_listings FROM dim_paper") == [(3,)]


# A 43-word abstract (under SAME_TEXT_WORDS: no unsalted block catches it) listed on three days.
CYBER_TITLE = "CyberRange: Benchmarking LLM Agents in Open-Ended Offensive Security"
CYBER_ABSTRACT = (
    "Real-world offensive security operations are inherently open-ended. We introduce a benchmark that places "
    "language model agents in realistic network ranges with many services and measures how far they progress "
    "toward a goal. Results show that current agents stall early and rarely chain exploits.")
CYBER_FULL = ["Nanda Rani", "Kimberly Milner", "Minghao Shao"]


@pytest.mark.parametrize("first_list", [["Nanda Rani et al."], ["Nanda Rani", "Kimberly Millner", "Minghao Shao"]],
                         ids=["et_al_then_full_list", "second_author_typo_fixed_later"])
@pytest.mark.parametrize("runs", [[[0], [1, 2]], [[0], [1], [2]]], ids=["d21_then_d22_d23", "one_file_a_run"])
def test_a_key_is_signed_again_when_a_later_run_changes_its_first_two_authors(tmp_path, first_list, runs):
    """"Nanda Rani et al." (or "..., Kimberly Millner, ..."), then the full list (the typo fixed),
    then a revision dropping the first author ("Kimberly Milner, Minghao Shao"). A fresh load
    merges the three; in date order the stored key kept the block keys of its first run (no second
    author, or "millner", in the second-author anchors), the revision never met it and was a
    second paper. Now a run that changes a stored key's abstract or first two authors signs it
    again, and scores the pair on that version: the same papers, ids and block keys either way."""
    assert len(CYBER_ABSTRACT.split()) < resolve.SAME_TEXT_WORDS
    texts = [listing_text([(CYBER_TITLE, names, CYBER_ABSTRACT)], day=f"Jun {day}, 2026")
             for names, day in ((first_list, 21), (CYBER_FULL, 22), (CYBER_FULL[1:], 23))]
    fresh = Warehouse(tmp_path / "fresh.duckdb")
    fresh.ingest(texts)
    incremental = Warehouse(tmp_path / "incremental.duckdb")
    for run in runs:
        incremental.ingest([texts[i] for i in run])
    papers = "SELECT paper_id, authors, n_listings FROM dim_paper ORDER BY ALL"
    assert fresh.sql(papers) == [(fresh.sql(papers)[0][0], CYBER_FULL, 3)]
    assert incremental.sql(papers) == fresh.sql(papers)
    for query in ("SELECT paper_key, paper_id FROM paper_key_map ORDER BY ALL",
                  "SELECT paper_key, band, bucket FROM paper_signature ORDER BY ALL"):
        assert incremental.sql(query) == fresh.sql(query)


def test_only_stored_keys_whose_signature_inputs_changed_are_signed_again(warehouse, monkeypatch):
    """Listing a stored paper again with the same first two authors and abstract, or a list that
    only adds a third name, signs nothing again (the cost follows the keys a run changes); the
    full list after "et al." (a second author where there was none) signs that key, only."""
    warehouse.ingest([listing_text([(TITLE, ["Marius Henry et al."], ABSTRACT),
                                    ("Improving Signals", ["Nilotpal Kakati"], OTHER)])])
    signed = []
    sign = flows_resolve._sign_query
    monkeypatch.setattr(flows_resolve, "_sign_query", lambda con, table, query: signed.append(
        con.execute(f"SELECT paper_key FROM ({query})").fetchall()) or sign(con, table, query))
    warehouse.ingest([listing_text([(TITLE, ["Marius Henry et al."], ABSTRACT)], day="Oct 27, 2026")])
    assert signed == []
    warehouse.ingest([listing_text([(TITLE, AUTHORS[:2], ABSTRACT)], day="Oct 28, 2026")])
    (key,) = warehouse.sql(f"SELECT paper_key FROM paper_version WHERE title = '{TITLE}'")[0]
    assert signed == [[(key,)]]
    warehouse.ingest([listing_text([(TITLE, AUTHORS, ABSTRACT)], day="Oct 29, 2026")])
    assert signed == [[(key,)]]  # a third name is no input of the block keys
    assert warehouse.sql("SELECT n_listings FROM dim_paper ORDER BY ALL") == [(1,), (4,)]


def test_names_pushed_past_the_cut_are_forgiven_only_as_the_totals_differ():
    """Co-first authors swapped in lists cut short with the same totals: no name was pushed past
    the cut, and two of three in order is no revision; unknown totals forgive nothing."""
    v1, v2 = ["chentao shen", "chen jia", "mingjie huang"], ["tongliang liu", "chentao shen", "chen jia"]
    lee, chen = ["ann lee", "bo chen", "carl wu"], ["bo chen", "ann lee", "carl wu"]
    pairs = pl.DataFrame({"keys_a": [v1, v1, lee], "keys_b": [v2, v2, chen], "total_a": [6, None, 6], "total_b": [7, None, 6]},
                         schema_overrides={"total_a": pl.Int32, "total_b": pl.Int32})
    assert list(resolve.aligned_agreement(pairs)) == [1, 0, 0]


def test_the_same_names_moved_or_one_shared_name_is_no_revision():
    """A shifted list needs two names in the same order: one shared name, or the names reversed
    under an edited abstract, is another group's paper (the positions decide, as before)."""
    keys = [n.lower().replace("-", " ") for n in AUTHORS]
    rows = scored(pair(ABSTRACT, ABSTRACT, keys_a=keys, keys_b=["dmitri volkov", keys[0], "ana lopez"]),
                  pair(ABSTRACT, VARIANTS["v2_revision"], keys_a=keys, keys_b=keys[::-1]))
    assert rows["rule"].to_list() == ["authors_differ", "authors_differ"]


@pytest.mark.parametrize("listed, other", [
    (AUTHORS, ["Marius Henri", *AUTHORS[1:]]),  # the first surname with a typo
    (["Jürgen Müller", *AUTHORS[1:]], ["Juergen Mueller", *AUTHORS[1:]]),  # transliterated
    (["Gautam Reddy Nallamala"], ["Gautam Reddy Nalamala"]),  # one author, a typo
    # a source leaving out a last name (hunt 50: real ICLR 2024 papers between two sources)
    (["Gautam Reddy Nallamala"], ["Gautam Reddy"]),
    (["Amro Kamal Mohamed Abbas", *AUTHORS[1:]], ["Amro Kamal", *AUTHORS[1:]]),
    (["María López-García", *AUTHORS[1:]], ["María López", *AUTHORS[1:]]),
    (AUTHORS, AUTHORS[::-1]),  # the order reversed
    (AUTHORS + ["Ann Lee"], ["Ann Lee", *AUTHORS]),  # the last moved first
])
@pytest.mark.parametrize("searched", [False, True])
def test_one_long_abstract_word_for_word_under_one_title_is_one_paper_however_its_list_is_written(
        warehouse, listed, other, searched):
    """The same abstract and title with the first author spelled otherwise, or the names in
    another order: the blocks (salted by the first author) never met, and the gate on the first
    surname kept them apart (2 papers). A search record without a title is the paper when its
    first author is spelled otherwise; reordered, it may be a companion's (below)."""
    second = search_text([(other, ABSTRACT)]) if searched else listing_text([(TITLE, other, ABSTRACT)], day="Oct 27, 2026")
    warehouse.ingest([listing_text([(TITLE, listed, ABSTRACT)]), second])
    reordered = sorted(listed) == sorted(other)
    expected = [(1,), (1,)] if searched and reordered else [(2,)]
    assert sorted(warehouse.sql("SELECT n_listings FROM dim_paper")) == expected


@pytest.mark.parametrize("listed, other", [
    (["Yang Liu", "Anna Schmidt", "Peter Novak"], ["Yang Li", "Hiroshi Tanaka", "Maria Rossi"]),  # the rest differs
    (["Gautam Reddy Nallamala", "Anna Schmidt"], ["Gautam Reddy", "Hiroshi Tanaka"]),  # fewer words, the rest differs
    (["Wei Zhang"], ["Wei"]),  # one word is no name's opening words
    ([*AUTHORS[:2], AUTHORS[2] + " and 1 more"], [AUTHORS[1], AUTHORS[0], AUTHORS[2], "Ann Lee"]),  # swapped, untitled
])
def test_one_abstract_under_other_people_or_untitled_and_reordered_stays_two(warehouse, listed, other):
    """The review's finds: a first name spelled alike ("Yang Liu" / "Yang Li") carried lists whose
    other names all differ; an untitled record with the first two authors swapped joined the
    titled paper whose abstract it repeats (a series' Part I and II may share one)."""
    warehouse.ingest([listing_text([(TITLE, listed, ABSTRACT)]), search_text([(other, ABSTRACT)])])
    assert warehouse.sql("SELECT count(*) FROM dim_paper") == [(2,)]


def test_a_source_writing_every_name_surname_first_shows_one_paper(warehouse):
    """"Luo donghao; wang xue" on a search page beside "DongHao Luo, Xue Wang": every salt
    differed, and the two never met."""
    warehouse.ingest([listing_text([(TITLE, ["DongHao Luo", "Xue Wang", "Jianwen Sun"], ABSTRACT)]),
                      search_text([(["Luo donghao", "wang xue", "sun jianwen"], ABSTRACT)])])
    assert warehouse.sql("SELECT n_listings FROM dim_paper") == [(2,)]


@pytest.mark.parametrize("tag", [" (v2)", " [v3]", " (Version 2.1)", " (ver. 2)", " v2", " - Version 2", ": v3.1"])
def test_a_version_tag_closing_the_title_is_no_paper_of_a_series(warehouse, tag):
    """"... Short Ones (v2)": the "2" was read as a series number ("Part 2"), so the revision was
    another paper at score 1.0 (rule titles_differ)."""
    warehouse.ingest([listing_text([(TITLE, AUTHORS, ABSTRACT)]),
                      listing_text([(TITLE + tag, AUTHORS, VARIANTS["v2_revision"])], day="Oct 27, 2026")])
    assert warehouse.sql("SELECT n_listings FROM dim_paper") == [(2,)]
    rows = scored(pair(ABSTRACT, ABSTRACT, title_a="Llama 2: Open Models", title_b="Llama 3: Open Models (v2)"),
                  pair(ABSTRACT, ABSTRACT, title_a="Open Code Corpus (Version 2)", title_b="Open Code Corpus (Version 3)"))
    assert rows["rule"].to_list() == ["titles_differ"] * 2  # the numbers before the tag, and two tags, still count


@pytest.mark.parametrize("order", [1, -1])
def test_a_declared_total_above_a_full_list_makes_the_list_incomplete(warehouse, order):
    """"A, B, C" in full one day, "A, B, C and 1 more" the next: four authors, three shown. The
    paper was marked complete beside author_count 4 (the completeness mart contradicted itself)."""
    texts = [listing_text([(TITLE, AUTHORS, ABSTRACT)]),
             listing_text([(TITLE, [*AUTHORS[:2], AUTHORS[2] + " and 1 more"], ABSTRACT)], day="Oct 27, 2026")]
    warehouse.ingest(texts[::order])
    assert warehouse.sql("SELECT n_authors_shown, author_count, is_author_list_complete FROM dim_paper") == [(3, 4, False)]


def test_a_week_across_new_year_is_one_iso_week(warehouse):
    """2026-12-31 and 2027-01-01 are in ISO week 53 of 2026: grouped by (year, iso_week), the
    week was two rows; dim_date.iso_year makes it one."""
    warehouse.ingest([listing_text([(TITLE, AUTHORS, ABSTRACT)], day="Dec 31, 2026"),
                      listing_text([("Improving Signals", ["Nilotpal Kakati"], OTHER)], day="Jan 1, 2027")])
    assert warehouse.sql("SELECT iso_year, iso_week, count(*) FROM dim_date GROUP BY ALL") == [(2026, 53, 2)]


@pytest.mark.parametrize("together", [True, False])
def test_the_same_co_authors_under_another_first_author_are_another_paper(warehouse, together):
    """A near-same abstract (words swapped) by the same co-authors under another first author:
    the blocks salted by the second author paired the two, and 3 of 4 positions agreeing merged
    them (the benchmark corpus's synthetic twins: 6 of 80,000 papers lost)."""
    twin = ABSTRACT.replace("astonishing capacity", "capacity astonishing").replace("one must examine", "examine one must")
    texts = [listing_text([(TITLE, ["Junhyung Kim", *AUTHORS], ABSTRACT)]),
             listing_text([(TITLE, ["Judea Lightman", *AUTHORS], twin)], day="Oct 27, 2026")]
    for batch in ([texts] if together else [[t] for t in texts]):
        warehouse.ingest(batch)
    assert warehouse.sql("SELECT n_listings FROM dim_paper") == [(1,), (1,)]


@pytest.mark.parametrize("written", ["Zeng Qiuhao", "ZENG QIUHAO"])
def test_a_first_author_written_in_another_order_is_the_same_paper(warehouse, written):
    """"Qiuhao Zeng" and "Zeng Qiuhao" at the first position: blocks salted by the first surname
    never met, and the names disagreed (the benchmark corpus's "YUNFAN Marina" / "YUNFAN MARINA":
    one paper loaded twice)."""
    names = ["Qiuhao Zeng", *AUTHORS[:2]]
    warehouse.ingest([listing_text([(TITLE, names, ABSTRACT)]),
                      listing_text([(TITLE, [written, *AUTHORS[:2]], VARIANTS["v2_revision"])], day="Oct 27, 2026")])
    assert warehouse.sql("SELECT n_listings FROM dim_paper") == [(2,)]


def test_companion_papers_with_co_first_authors_swapped_stay_two():
    """"... to Genomics" by Lee, Chen, Wu, Li and "... to Neuroscience" by Chen, Lee, Wu, Li,
    abstracts sharing their opening: 3 of 4 names in order passed the gate as an author added or
    dropped (the review's find); only a list found whole inside the other counts so."""
    keys = ["ann lee", "bo chen", "carl wu", "dan li"]
    swapped = [keys[1], keys[0], *keys[2:]]
    rows = scored(pair(ABSTRACT, VARIANTS["v2_revision"], keys_a=keys, keys_b=swapped,
                       title_a="Sparse Models with Applications to Genomics", title_b="Sparse Models with Applications to Neuroscience"))
    assert rows["rule"].to_list() == ["authors_differ"]
    assert list(resolve.aligned_agreement(pl.DataFrame({"keys_a": [keys, keys[:2], keys], "keys_b": [swapped, keys, ["x y", *keys]]}))) == [0, 1, 1]


# ----------------------------------------------------------------------------- revisions edited apart
def _edited(abstract: str, positions, mark: str) -> str:
    words = abstract.split(" ")
    for i in positions:
        words[i] += mark
    return " ".join(words)


N_WORDS = len(ABSTRACT.split(" "))
# Two revisions of one paper, each eight words off the first version, one in its first half and
# one in its second (the first and last eight words kept: the two meet in a block and are scored):
# each matches the first, the two miss each other by a little (16 words apart).
OPENING_EDITED = _edited(ABSTRACT, range(9, 9 + 8 * 8, 8), "ed")
CLOSE_EDITED = _edited(ABSTRACT, range(N_WORDS - 10, N_WORDS - 10 - 8 * 8, -8), "ly")


@pytest.mark.xfail(strict=True, reason="known limitation (README, 'Cost and splits (46)'): two versions under "
                   "the threshold with each other keep the chain through the first apart")
def test_revisions_edited_apart_are_one_paper(warehouse):
    """Hunt 46 / bench.corpus --shape revisions: versions a few words off the first, each matched
    with it, are split off when two of them score just under the threshold with each other
    (8,438 papers for 3,631 at 30k listings). Rules that let such a pair chain when its title and
    names agree were built in sessions 47 and 48 and taken back (the guards below)."""
    first, opening, close = scored(pair(ABSTRACT, OPENING_EDITED), pair(ABSTRACT, CLOSE_EDITED),
                                   pair(OPENING_EDITED, CLOSE_EDITED)).rows(named=True)
    assert first["is_match"] and opening["is_match"]
    assert close["rule"] == "below_threshold" and 0.7 <= close["score"] < resolve.DEFAULT_THRESHOLD
    warehouse.ingest([listing_text([(TITLE, AUTHORS, ABSTRACT), (TITLE, AUTHORS, OPENING_EDITED),
                                    (TITLE, AUTHORS, CLOSE_EDITED)])])
    assert warehouse.sql("SELECT n_listings FROM dim_paper") == [(3,)]


def test_a_paper_and_its_sibling_listed_twice_stay_two_though_a_cut_copy_fits_every_listing(warehouse):
    """Review 47's "Preface" / "Preface" (one title, the same editors, 64 % shared), each listed on
    two days: the cut copy of their shared opening is contained in all four listings, and each of
    its pairs with the sibling meets a near miss."""
    paper, sibling, opening = _sharing_opening(0.64)
    both = [("Preface", EDITORS, paper), ("Preface", EDITORS, sibling)]
    warehouse.ingest([listing_text(both), listing_text(both, day="Oct 27, 2026"),
                      listing_text([("Preface", EDITORS, opening)], day="Oct 28, 2026")])
    assert sorted(warehouse.sql("SELECT n_listings FROM dim_paper")) == [(2,), (3,)]


EDITORS = ["Anna Kowalska", "Jun Li"]


def _cut_past_opening(share: float, extra: int) -> tuple[str, str, str, str]:
    """(paper, sibling, paper cut short, sibling cut short): each copy keeps the shared opening and
    `extra` words of its own paper's text after it."""
    paper, sibling, opening = _sharing_opening(share)
    n = len(opening.split(" "))
    return paper, sibling, " ".join(paper.split(" ")[: n + extra]), " ".join(sibling.split(" ")[: n + extra])


@pytest.mark.parametrize("share, extra", [(0.64, 2), (0.64, 10), (0.68, 5)])
def test_two_cut_copies_do_not_chain_a_paper_and_its_sibling(warehouse, share, extra):
    """Review 48: a cut copy of each of two distinct papers of one title and editors. The copies
    match each other on their shared opening (two texts of about one length: `abstract`); a near
    miss kept apart only by contained pairs chained paper, copy, copy and sibling."""
    keys = [n.lower() for n in EDITORS]
    paper, sibling, paper_cut, sibling_cut = _cut_past_opening(share, extra)
    apart, copies = scored(pair(paper, sibling, keys, keys, "Preface", "Preface"),
                           pair(paper_cut, sibling_cut, keys, keys, "Preface", "Preface")).rows(named=True)
    assert apart["rule"] == "below_threshold" and copies["rule"] == "abstract"  # the shape under test
    warehouse.ingest([listing_text([("Preface", EDITORS, t) for t in (paper, sibling, paper_cut, sibling_cut)])])
    assert sorted(warehouse.sql("SELECT n_listings FROM dim_paper")) == [(2,), (2,)]


@pytest.mark.parametrize("untitled", ["sibling's copy", "both copies"])
def test_two_cut_copies_one_on_a_search_page_do_not_chain_two_papers(warehouse, untitled):
    paper, sibling, paper_cut, sibling_cut = _cut_past_opening(0.64, 5)
    listed, searched = [("Preface", EDITORS, paper), ("Preface", EDITORS, sibling)], [(EDITORS, sibling_cut)]
    if untitled == "both copies":
        searched.append((EDITORS, paper_cut))
    else:
        listed.append(("Preface", EDITORS, paper_cut))
    warehouse.ingest([listing_text(listed), search_text(searched)])
    assert sorted(warehouse.sql("SELECT n_listings FROM dim_paper")) == [(2,), (2,)]


@pytest.mark.parametrize("stored", ["paper", "sibling"])
def test_two_cut_copies_do_not_chain_a_stored_paper_and_a_new_sibling(warehouse, stored):
    paper, sibling, paper_cut, sibling_cut = _cut_past_opening(0.64, 5)
    first = paper if stored == "paper" else sibling
    rest = [t for t in (paper, sibling) if t != first] + [paper_cut, sibling_cut]
    warehouse.ingest([listing_text([("Preface", EDITORS, first)], day="Oct 20, 2026")])
    warehouse.ingest([listing_text([("Preface", EDITORS, t) for t in rest], day="Oct 21, 2026")])
    assert sorted(warehouse.sql("SELECT n_listings FROM dim_paper")) == [(2,), (2,)]


@pytest.mark.parametrize("share", [0.58, 0.64, 0.7])
def test_a_mix_of_a_paper_and_its_sibling_does_not_chain_them(warehouse, share):
    """Review 48: a record holding the shared opening, then half of each paper's own text, is
    accepted on its whole text with both; their pair under the threshold keeps them apart."""
    keys = [n.lower() for n in EDITORS]
    paper, sibling, opening = _sharing_opening(share)
    p, s, n = paper.split(" "), sibling.split(" "), len(opening.split(" "))
    mix = " ".join(p[: n + (len(p) - n) // 2] + s[n + (len(p) - n) // 2:])
    rows = scored(pair(paper, sibling, keys, keys, "Preface", "Preface"), pair(mix, paper, keys, keys, "Preface", "Preface"),
                  pair(mix, sibling, keys, keys, "Preface", "Preface")).rows(named=True)
    assert [r["rule"] for r in rows] == ["below_threshold", "abstract", "abstract"]  # the shape under test
    warehouse.ingest([listing_text([("Preface", EDITORS, t) for t in (paper, sibling, mix)])])
    assert sorted(warehouse.sql("SELECT n_listings FROM dim_paper")) == [(1,), (2,)]


REPORT = "Annual Report of the Regional Health Survey"
TEMPLATE = (ABSTRACT + " " + OTHER).split(" ")


def _filled(slots: list[int], values_at) -> str:
    """The template with the words at `slots` replaced: values_at(i) is the i-th slot's value."""
    words = list(TEMPLATE)
    for i, at in enumerate(slots):
        words[at] = values_at(i)
    return " ".join(words)


def _report_listings(warehouse, runs: list[list[str]]) -> list[int]:
    for day, run in enumerate(runs, 10):
        warehouse.ingest([listing_text([(REPORT, EDITORS, t) for t in run], day=f"Oct {day}, 2026")])
    return sorted(n for (n,) in warehouse.sql("SELECT n_listings FROM dim_paper"))


@pytest.mark.parametrize("every, runs", [(7, "ABZ"), (8, "ABZ"), (9, "ABZ"), (8, "A|BZ"), (8, "Z|AB")])
def test_a_third_report_of_a_template_does_not_join_two_reports(warehouse, every, runs):
    """Review 48b: reports A and B of one template (one title, the same editors) differ in their
    numbers every 7th-9th word: a pair just under the threshold, words an edit apart, as two
    revisions of one paper are. A third report Z with A's numbers in one half and B's in the other
    is accepted with both on the whole texts; a rule that let such a third record bridge the near
    miss (session 48, taken back) made the three one paper, fresh and against a stored report."""
    slots = list(range(3, len(TEMPLATE), every))
    a, b = _filled(slots, lambda i: str(1000 + 7 * i)), _filled(slots, lambda i: str(5000 + 13 * i))
    z = _filled(slots, lambda i: str(1000 + 7 * i) if i < len(slots) // 2 else str(5000 + 13 * i))
    keys = [n.lower() for n in EDITORS]
    ab, za, zb = scored(pair(a, b, keys, keys, REPORT, REPORT), pair(z, a, keys, keys, REPORT, REPORT),
                        pair(z, b, keys, keys, REPORT, REPORT)).rows(named=True)
    assert ab["rule"] == "below_threshold" and za["rule"] == zb["rule"] == "abstract"  # the shape under test
    by = {"A": a, "B": b, "Z": z}
    assert max(_report_listings(warehouse, [[by[c] for c in run] for run in runs.split("|")])) < 3


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_chain_of_third_reports_does_not_join_far_reports(warehouse, seed):
    """Review 48b: A, B, C of one template, B between A and C (A ~ C 0.5, never compared); z1
    between A and B, z2 between B and C. Bridged near misses chained all five in 10 of 12 seeds."""
    slots = list(range(2, len(TEMPLATE), 4))
    rng = random.Random(seed)
    va, vb = [str(rng.randint(100, 9999)) for _ in slots], [str(rng.randint(100, 9999)) for _ in slots]
    m = len(slots)

    def filled(picks_b) -> str:
        return _filled(slots, lambda i: vb[i] if picks_b(i) else va[i])
    a, b, c = filled(lambda i: False), filled(lambda i: i % 2 == 0), filled(lambda i: True)
    z1, z2 = filled(lambda i: i % 2 == 0 and i < m // 2), filled(lambda i: i % 2 == 0 or i < m // 2)
    keys = [n.lower() for n in EDITORS]
    assert scored(pair(a, c, keys, keys, REPORT, REPORT))["score"].item() < 0.6  # the shape: A and C far apart
    records = [a, b, c, z1, z2]
    rng.shuffle(records)
    assert _report_listings(warehouse, [records]) != [5]


def _sharing_opening(share: float) -> tuple[str, str, str]:
    """(paper, sibling, opening): a distinct sibling that keeps the paper's first `share` of words
    and then has its own text (a series, a template), and the shared opening alone."""
    words, own = ABSTRACT.split(" "), (OTHER + " " + SIBLING).split(" ")
    kept = int(len(words) * share)
    return ABSTRACT, " ".join(words[:kept] + own[: len(words) - kept]), " ".join(words[:kept])


PART_ONE = "Diphoton Production at Hadron Colliders"


ONE_JOINED, NONE_JOINED = [(1,), (2,)], [(1,), (1,), (1,)]


@pytest.mark.parametrize("share, titles, authors, listings", [
    (0.72, (None, None, None), AUTHORS, ONE_JOINED),  # untitled search records
    # a title cut short, another number: the two parts are distinct, so the copy joins neither
    (0.64, (PART_ONE, PART_ONE + ": Part II", None), AUTHORS, NONE_JOINED),
    (0.64, ("Preface", "Preface", None), EDITORS, ONE_JOINED),  # a generic title, two editors
    (0.64, (PART_ONE, PART_ONE, PART_ONE), AUTHORS, ONE_JOINED),  # one long title on all three
    (0.45, (TITLE, TITLE, TITLE), AUTHORS, ONE_JOINED),
], ids=["untitled", "part II", "preface", "same title", "shares less"])
def test_papers_sharing_a_long_opening_stay_two_though_a_cut_copy_fits_both(warehouse, share, titles, authors, listings):
    """Review 47: distinct papers of one title and authors that share 45-72 % of their text score
    0.6-0.8 with each other; a copy of their shared opening alone is contained in both and
    accepted with each. Let a pair just under the threshold chain (a rule for revisions, taken
    back), the three loaded as one paper. Where nothing says the two are distinct the copy joins
    the closer; two parts of a series, it joins neither."""
    paper, sibling, opening = _sharing_opening(share)
    keys = [n.lower().replace("-", " ") for n in authors]
    siblings, to_paper, to_sibling = scored(
        pair(paper, sibling, keys, keys, titles[0], titles[1]), pair(opening, paper, keys, keys, titles[2], titles[0]),
        pair(opening, sibling, keys, keys, titles[2], titles[1])).rows(named=True)
    assert not siblings["is_match"] and to_paper["is_match"] and to_sibling["is_match"]
    records = list(zip(titles, (paper, sibling, opening)))
    listed = [(title, authors, text) for title, text in records if title is not None]
    untitled = [(authors, text) for title, text in records if title is None]
    warehouse.ingest(([listing_text(listed)] if listed else []) + ([search_text(untitled)] if untitled else []))
    assert sorted(warehouse.sql("SELECT n_listings FROM dim_paper")) == listings


SERIES_TITLES = [
    (PART_ONE + ", Part I", PART_ONE + ", Part II"),
    (PART_ONE + " (Part 1)", PART_ONE + " (Part 2)"),
    ("Lectures on " + PART_ONE + " II", "Lectures on " + PART_ONE + " III"),
    ("Resonant " + PART_ONE, "Nonresonant " + PART_ONE),  # a negated word, no number
    (PART_ONE, "Erratum: " + PART_ONE),  # a notice of the paper, under its title
]


@pytest.mark.parametrize("titles", SERIES_TITLES, ids=["part I/II", "part 1/2", "II/III", "negated", "erratum"])
def test_titles_of_two_papers_say_so_whatever_their_texts_score(warehouse, titles):
    """Two parts of a series by the same people that share 64 % of their abstract score under the
    threshold. Their titles (other numbers, opposite words) say they are two papers: the pair is
    titles_differ, not below_threshold, so an untitled listing of their shared opening, accepted
    with both, is an ambiguous key and joins neither (it joined the closer part)."""
    paper, sibling, opening = _sharing_opening(0.64)
    keys = [n.lower().replace("-", " ") for n in AUTHORS]
    (parts,) = scored(pair(paper, sibling, keys, keys, *titles)).rows(named=True)
    assert parts["score"] < resolve.DEFAULT_THRESHOLD and parts["rule"] == "titles_differ"
    warehouse.ingest([listing_text([(titles[0], AUTHORS, paper), (titles[1], AUTHORS, sibling)]),
                      search_text([(AUTHORS, opening)])])
    assert sorted(warehouse.sql("SELECT n_listings FROM dim_paper")) == [(1,), (1,), (1,)]
    assert warehouse.sql("SELECT count(*) FROM paper_match WHERE rule = 'kept_apart_ambiguous'") == [(2,)]


def test_titles_that_merely_differ_under_the_threshold_stay_below_it():
    """Only titles that say two papers are distinct are labelled so at any score: a renamed title
    under the threshold is a near miss (below_threshold), which keeps chains apart but no key
    ambiguous."""
    paper, sibling, _ = _sharing_opening(0.64)
    (renamed,) = scored(pair(paper, sibling, title_b=TITLE.replace("Short", "Brief"))).rows(named=True)
    assert renamed["rule"] == "below_threshold"


def test_a_pair_under_the_threshold_keeps_a_chain_apart_under_another_title(warehouse):
    renamed = TITLE.replace("Short", "Brief")
    (pair_scored,) = scored(pair(OPENING_EDITED, CLOSE_EDITED, title_b=renamed)).rows(named=True)
    assert pair_scored["rule"] == "below_threshold" and pair_scored["title_ratio"] < 1
    warehouse.ingest([listing_text([(TITLE, AUTHORS, ABSTRACT), (TITLE, AUTHORS, OPENING_EDITED),
                                    (renamed, AUTHORS, CLOSE_EDITED)])])
    assert sorted(warehouse.sql("SELECT n_listings FROM dim_paper")) == [(1,), (2,)]


# ----------------------------------------------------------------------------- titles a display cut
# A listing site shows a long title cut, with an ellipsis (hunt 50): cut inside a word ("...
# Multi-Layer Transform…", ratio 0.72 under the gate) or before the number that ends it ("... in
# 6G RAN Slicing"), the paper split from itself, its abstract word for word the same.
SLICING = "Interpretable Attention-Based Multi-Agent PPO for Latency Spike Resolution in 6G RAN Slicing"
BOUNDS = "Quantitative Generalization Bounds for Multi-Layer Transformers: A Few Long Strings can Beat Many Short Ones"


@pytest.mark.parametrize("full,cut", [
    (BOUNDS, BOUNDS[:60] + "…"), (BOUNDS, BOUNDS[:45] + "..."), (BOUNDS, BOUNDS[:71] + " …"),
    (SLICING, SLICING[:SLICING.index(" in 6G")] + "…"), (SLICING, SLICING[:SLICING.index(" in 6G")] + " ..."),
    (SLICING, SLICING[:70] + "…"), (PART_ONE + ": Part II", PART_ONE + ": Pa…"),
])
def test_a_title_a_display_cut_is_the_papers(full, cut):
    for a, b in ((full, cut), (cut, full)):
        row = scored(pair(ABSTRACT, ABSTRACT, title_a=a, title_b=b)).row(0, named=True)
        assert row["is_match"] and row["title_ratio"] == 1.0, row


@pytest.mark.parametrize("full,cut", [
    (BOUNDS, BOUNDS[:60]),  # no ellipsis: cut inside a word, another title
    (BOUNDS, "Quantitative Generalization Bounds for Multi-Layer Networks…"),  # not the full one's opening
    (SLICING, SLICING[:SLICING.index(" in 6G")]),  # no ellipsis: its number is its own
])
def test_a_title_cut_without_an_ellipsis_or_elsewhere_is_not_read_as_a_display_cut(full, cut):
    row = scored(pair(ABSTRACT, ABSTRACT, title_a=full, title_b=cut)).row(0, named=True)
    assert row["title_ratio"] < 1.0 or row["rule"] == "titles_differ", row


def test_a_display_cut_title_beside_two_parts_of_a_series_joins_one_at_most(warehouse):
    """The cut hides the number that tells the parts apart: it fits both; the parts still say
    they are two papers to each other, so they are never joined through it."""
    paper, sibling, opening = _sharing_opening(0.64)
    parts = (PART_ONE + ", Part I", PART_ONE + ", Part II")
    warehouse.ingest([listing_text([(parts[0], AUTHORS, paper), (parts[1], AUTHORS, sibling),
                                    (PART_ONE[:40] + "…", AUTHORS, opening)])])
    ids = dict(warehouse.sql("SELECT title, paper_id FROM dim_paper"))
    assert ids[parts[0]] != ids[parts[1]]


# A title in TeX beside its Unicode rendering (hunt 50: real Kaggle 0704.0005, "From dyadic
# $\Lambda_{\alpha}$ to $\Lambda_{\alpha}$" / "From dyadic Λα to Λα", ratio 0.53: two papers).
@pytest.mark.parametrize("tex,unicode", [
    (r"From dyadic $\Lambda_{\alpha}$ to $\Lambda_{\alpha}$", "From dyadic Λα to Λα"),
    (r"$\ell_1$ Regularised $\mathcal{O}(n^2)$ Solvers", "ℓ1 Regularised O(n²) Solvers"),
    (r"The $\beta$-VAE at $\sigma\to 0$", "The β-VAE at σ→0"),
])
def test_a_title_in_tex_is_its_unicode_rendering(tex, unicode):
    row = scored(pair(ABSTRACT, ABSTRACT, title_a=tex, title_b=unicode)).row(0, named=True)
    assert row["is_match"] and row["title_ratio"] == 1.0, row
