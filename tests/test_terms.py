"""Term extraction (transforms.terms): the normaliser's properties, per-paper terms that do not
depend on the other papers of the frame, and readable text from LaTeX."""

from __future__ import annotations

import functools
import re

import polars as pl
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from transforms.terms import (IRREGULAR_PLURALS, KEEP_FINAL_S, normalise_term, normalise_terms, paper_terms,
                              readable_text)

WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=12)
PHRASE_TEXT = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCXYZ0123 -_'.,é", max_size=40)


# ---------------------------------------------------------------------------- the normaliser
@given(PHRASE_TEXT)
def test_normalising_twice_changes_nothing(text):
    once = normalise_term(text)
    assert normalise_term(once) == once


@given(PHRASE_TEXT)
def test_normal_form_is_lower_case_words_with_single_spaces(text):
    out = normalise_term(text)
    assert out == out.strip() and "  " not in out
    assert set(out) <= set("abcdefghijklmnopqrstuvwxyz0123456789 ")


@given(st.lists(WORD, min_size=1, max_size=4))
def test_case_and_hyphens_do_not_matter(words):
    spaced = " ".join(words)
    assert normalise_term(spaced.upper()) == normalise_term(spaced)
    assert normalise_term("-".join(words)) == normalise_term(spaced)


@given(st.lists(WORD, min_size=0, max_size=3), st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=10),
       st.sampled_from("bdgklmnprtw"))
def test_a_plain_plural_folds_onto_its_singular(before, stem, last):
    singular = stem + last  # ends in a consonant that takes a plain -s plural
    assume(singular + "s" not in KEEP_FINAL_S and singular + "s" not in IRREGULAR_PLURALS)
    assert normalise_term(" ".join([*before, singular + "s"])) == normalise_term(" ".join([*before, singular]))


@pytest.mark.parametrize("text, normal", [
    ("Language Models", "language model"), ("large language models (LLMs)", "large language model llm"),
    ("studies", "study"), ("processes", "process"), ("patches", "patch"), ("analyses", "analysis"),
    ("analysis", "analysis"), ("physics", "physics"), ("bias", "bias"), ("loss", "loss"), ("corpus", "corpus"),
    ("Out-of-Distribution", "out of distribution"), ("time series", "time series"), ("GNNs", "gnn"),
])
def test_known_forms(text, normal):
    assert normalise_term(text) == normal


def test_normalise_terms_is_an_expression_over_a_column():
    frame = pl.DataFrame({"k": ["Diffusion Models", None, "diffusion model"]})
    assert frame.select(normalise_terms(pl.col("k")))["k"].to_list() == ["diffusion model", None, "diffusion model"]


# ---------------------------------------------------------------------------- terms per paper
PAPERS = pl.DataFrame({
    "paper_id": [1, 2, 3],
    "title": ["Diffusion Models for Protein Design", None, "Sparse Attention in Large Language Models"],
    "abstract": [
        "We propose diffusion models for protein design. Our diffusion model generates proteins with "
        "$O(n^2)$ cost and beats state-of-the-art baselines.",
        "Graph neural networks learn on graphs. We show that graph neural networks over-smooth.",
        "Large language models (LLMs) are costly. Sparse attention makes large language models cheaper.",
    ],
})


def test_each_paper_gets_its_own_salient_phrases():
    terms = paper_terms(PAPERS)
    top = {pid: rows["term"].to_list()[:5] for (pid,), rows in terms.sort("term_rank").group_by("paper_id")}
    assert "diffusion model" in top[1] and "protein design" in top[1]
    assert "graph neural network" in top[2]
    assert "large language model" in top[3] and "sparse attention" in top[3]
    assert not terms.filter(pl.col("term").str.contains("state of the art|propose|n 2")).height
    assert terms.group_by("paper_id").agg(pl.col("term_rank").sort()).filter(
        pl.col("term_rank") != pl.int_ranges(1, pl.col("term_rank").list.len() + 1)).is_empty()


def test_a_papers_terms_do_not_depend_on_the_other_papers():
    # What makes a fresh and an incremental load agree: scoring within the paper only.
    alone = paper_terms(PAPERS.filter(pl.col("paper_id") == 3))
    together = paper_terms(PAPERS.reverse()).filter(pl.col("paper_id") == 3)
    assert alone.equals(together)


def test_no_text_no_terms():
    empty = paper_terms(PAPERS.clear())
    assert empty.is_empty() and empty.columns == ["paper_id", "term", "score", "term_rank"]
    blank = paper_terms(pl.DataFrame({"paper_id": [9], "title": [None], "abstract": ["We show that it is."]},
                                     schema={"paper_id": pl.Int64, "title": pl.String, "abstract": pl.String}))
    assert blank.is_empty()


# ---------------------------------------------------------------------------- readable text
@pytest.mark.parametrize("source, shown", [
    (r"a $3\times$ speedup", "a 3× speedup"),
    (r"regret $O(d/\sqrt{T})$", "regret O(d/√T)"),
    (r"\textbf{bold} and \emph{new}", "bold and new"),
    (r"improves by 6.9\% over $\alpha$-nets", "improves by 6.9% over α-nets"),
    ("no LaTeX here", "no LaTeX here"),
])
def test_readable_text_from_latex(source, shown):
    assert readable_text(source) == shown


def test_phrases_of_one_head_word_that_tie_both_keep_their_score():
    # The four-word title phrase scores (1 + 2) × 1.6 and its last two words (2 + 2) × 1.2: both 4.8,
    # so neither is "all but the best" of the head word "generation". Scores in floating point made
    # the first 4.800000000000001, and "augmented generation" lost a fifth of its score (3.84).
    paper = pl.DataFrame({"paper_id": [1], "title": ["Robust Retrieval-Augmented Generation"],
                          "abstract": ["We study retrieval-augmented generation."]})
    scores = dict(paper_terms(paper).select("term", "score").iter_rows())
    assert scores["robust retrieval augmented generation"] == scores["augmented generation"] == 4.8
    # in the abstract's first sentence only: (1 + 0.5) × 1.4, × 0.8, not the best of its head word
    assert scores["retrieval augmented generation"] == 1.68


def test_phrase_cuts_and_one_word_phrases():
    # A dash between words ("--", " - ") and double spaces do not cut a phrase; a stopword, a single
    # letter, a number and punctuation do. A one-word phrase is kept even when its singular is a
    # stopword ("developments" → "development"); a whole phrase may open with the stopword of a hyphen
    # compound ("out-of-distribution detection", "in-context learning"), a part may not ("of ...").
    # Words with digits are words ("3D", "GPT-4"); alone, a term of one word needs 3 letters.
    paper = pl.DataFrame({"paper_id": [7], "title": ["Flingo -- Instilling  Expressiveness: Recent Developments"],
                          "abstract": ["Out-of-distribution detection, a survey of x calibration. In-context learning "
                                       "with GPT-4 for 3D Gaussian splatting in 2024, out-of 10 runs."]})
    terms = paper_terms(paper, top_k=50)["term"].to_list()
    assert "flingo instilling expressiveness" in terms and "development" in terms
    assert "distribution detection" in terms and "detection" in terms and "out of distribution detection" in terms
    assert "in context learning" in terms and "gpt 4" in terms and "3d gaussian splatting" in terms
    assert not [t for t in terms if t.startswith(("out ", "of ", "a ", "x ")) and t != "out of distribution detection"]
    assert not {"out of", "2024", "10", "3d", "in"} & set(terms)
    assert "survey" in terms and "calibration" in terms and "survey calibration" not in terms
    paper = pl.DataFrame({"paper_id": [1], "title": ["GPT-4 agents for type-2 diabetes"], "abstract": [None]},
                         schema={"paper_id": pl.Int64, "title": pl.String, "abstract": pl.String})
    terms = paper_terms(paper, top_k=50)["term"].to_list()
    assert "gpt 4 agent" in terms and "type 2 diabete" in terms and not [t for t in terms if t[0].isdigit()]


def test_x_of_y_terms():
    # A word, "of", and a one-word phrase: the stopword of "X of Y" joins them ("mixture of
    # experts", "theory of mind"); not before a longer phrase ("capability of large language
    # models" is no term), nor with a stopword or a word of 1-2 letters on either side.
    paper = pl.DataFrame({"paper_id": [1], "title": ["Sparse Mixture-of-Experts and a Theory of Mind"],
                          "abstract": ["We test the capability of large language models, the mixture of experts (MoE) "
                                       "and the curse of dimensionality. Lack of it; set of x; union of AI."]})
    terms = paper_terms(paper, top_k=50)["term"].to_list()
    assert {"mixture of expert", "theory of mind", "curse of dimensionality"} <= set(terms)
    assert not [t for t in terms if t.startswith(("capability of", "lack of", "set of", "union of"))]


# ---------------------------------------------------------------------------- against a plain reference
def reference_terms(title: str | None, abstract: str | None, top_k: int = 10) -> list[tuple[str, float]]:
    """The rules of transforms.terms written out plainly, one paper at a time, in exact fractions."""
    from fractions import Fraction
    from transforms import terms
    from transforms.terms import _CUT_RE, ABSTRACT_CHARS, GENERIC_WORDS, MAX_WORDS, STOPWORDS
    title_weight, lead_weight, length_bonus, repeat_weight = (Fraction(str(w)) for w in (
        terms.TITLE_WEIGHT, terms.LEAD_WEIGHT, terms.LENGTH_BONUS, terms.HEAD_REPEAT_WEIGHT))
    cuts = STOPWORDS | set("abcdefghijklmnopqrstuvwxyz|")
    tf: dict[str, int] = {}
    in_title: set[str] = set()
    in_lead: set[str] = set()  # the abstract's first sentence
    shown = None if abstract is None else abstract[:ABSTRACT_CHARS]
    lead, stop, rest = ("" if shown is None else shown + " ").partition(". ")  # a final "." ends one too
    lead, rest = (lead, rest) if stop else ("", None if shown is None else shown + " ")
    def is_cut(token: str) -> bool:
        return token in cuts or bool(re.search("[0-9]", token) and not re.search("[a-z]", token))  # numbers cut

    def is_content(word: str) -> bool:
        return word not in STOPWORDS and len(re.findall("[a-z]", word)) > 2

    for place, text in (("title", title), ("lead", lead), ("rest", rest)):
        phrases, phrase, joined = [], [], []
        tokens = re.sub(_CUT_RE, " | ", (text or "").lower()).split(" ") + ["|"]
        for at, token in enumerate(tokens):
            if is_cut(token):
                phrases, phrase = phrases + [phrase] if phrase else phrases, []
            else:
                phrase += [_fold(word) for word in token.split("-") if word]
            # "X of Y": a word, "of", a one-word token that ends its phrase
            if token == "of" and 0 < at < len(tokens) - 2 and not is_cut(tokens[at - 1]) and not is_cut(tokens[at + 1]):
                x = [w for w in tokens[at - 1].split("-") if w]
                y = [w for w in tokens[at + 1].split("-") if w]
                after = tokens[at + 2]  # a cut, or a token of no word
                ends = is_cut(after) or not [w for w in after.split("-") if w]
                if x and len(y) == 1 and ends and is_content(_fold(x[-1])) and is_content(_fold(y[0])):
                    joined.append(f"{_fold(x[-1])} of {_fold(y[0])}")
        for term in joined:
            tf[term] = tf.get(term, 0) + 1
            {"title": in_title, "lead": in_lead}.get(place, set()).add(term)
        for words in phrases:
            if len(words) == 1:
                parts = [words]
            else:
                content = any(w not in STOPWORDS and re.search("[a-z]", w) for w in words)
                parts = ([words] if len(words) <= MAX_WORDS and content else []) \
                    + [p for p in [words[-1:]] + ([words[-2:]] if len(words) >= 3 else []) + [words[:1]]
                       if p[0] not in STOPWORDS and (len(p) == 1 or re.search("[a-z]", p[0]))]
            for part in parts:
                term = " ".join(part)
                letters = len(re.findall("[a-z]", term))
                if (len(part) > 1 or letters > 2) and not (len(part) == 1 and term in GENERIC_WORDS):
                    tf[term] = tf.get(term, 0) + 1
                    {"title": in_title, "lead": in_lead}.get(place, set()).add(term)
    place_weight = {t: title_weight if t in in_title else lead_weight if t in in_lead else 0 for t in tf}
    score = {t: (n + place_weight[t]) * (1 + length_bonus * t.count(" ")) for t, n in tf.items()}
    best = {}
    for t, s in score.items():
        best[t.split(" ")[-1]] = max(s, best.get(t.split(" ")[-1], 0))
    score = {t: s if s == best[t.split(" ")[-1]] else s * repeat_weight for t, s in score.items()}
    return [(t, round(float(s), 6)) for t, s in sorted(score.items(), key=lambda ts: (-ts[1], ts[0]))[:top_k]]


_fold = functools.cache(normalise_term)


def _ours(papers: pl.DataFrame) -> dict[int, list[tuple[str, float]]]:
    terms = paper_terms(papers)
    by_paper = terms.sort("term_rank").group_by("paper_id")
    return {pid: list(zip(rows["term"], rows["score"])) for (pid,), rows in by_paper}


TEXT = st.lists(st.sampled_from([
    "Diffusion", "models", "model", "of", "the", "a", "x", "graph", "neural", "networks", "out-of-distribution",
    "state-of-the-art", "--", "-", "-based", "self-", ",", ".", "(GNNs)", "$O(n)$", "\\alpha", "2024", "studies",
    "in-context", "out-of", "GPT-4", "3D", "a-1", "co2", "10x", "3-5", "mixture", "experts", "of", "thought",
    "analyses", "physics", "developments", "approaches", "language", "large", "Language", "attention", "",
]), max_size=40).map(" ".join)


@given(st.lists(st.tuples(st.one_of(st.none(), TEXT), st.one_of(st.none(), TEXT)), min_size=1, max_size=4))
def test_terms_follow_the_plain_rules(texts):
    papers = pl.DataFrame({"paper_id": range(len(texts)), "title": [t for t, _ in texts],
                           "abstract": [a for _, a in texts]},
                          schema={"paper_id": pl.Int64, "title": pl.String, "abstract": pl.String})
    ours = _ours(papers)
    for pid, (title, abstract) in enumerate(texts):
        assert ours.get(pid, []) == reference_terms(title, abstract)


@pytest.mark.parametrize("weights", [(1.5, 0.5, 0.25, 0.5), (3.0, 0.0, 0.0, 1.0), (2.0, 0.75, 0.2, 0.8)])
def test_other_weights_follow_the_plain_rules(monkeypatch, weights):
    import transforms.terms as terms
    for name, value in zip(("TITLE_WEIGHT", "LEAD_WEIGHT", "LENGTH_BONUS", "HEAD_REPEAT_WEIGHT"), weights):
        monkeypatch.setattr(terms, name, value)
    ours = _ours(PAPERS)
    for pid, title, abstract in PAPERS.iter_rows():
        assert ours.get(pid, []) == reference_terms(title, abstract)


def test_real_abstracts_follow_the_plain_rules():
    from eval.keywords import REALDATA, load_iclr
    if not (REALDATA / "iclr2024_openreview_primary_area_dotd.tsv").is_file():
        pytest.skip("ICLR keywords file not found (../shared/realdata)")
    papers = load_iclr(REALDATA).head(300).select("paper_id", "title", "abstract")
    ours = _ours(papers)
    for pid, title, abstract in papers.iter_rows():
        assert ours.get(pid, []) == reference_terms(title, abstract), title


def test_too_many_words_for_one_pass_split_the_papers(monkeypatch):
    # Word numbers are 16 bits; a frame with more distinct words is done in halves, same rows.
    import transforms.terms as terms
    papers = pl.concat([PAPERS, PAPERS.with_columns(pl.col("paper_id") + 10, pl.col("title").str.to_uppercase())])
    whole = paper_terms(papers)
    monkeypatch.setattr(terms, "_WORD_LIMIT", 12)
    assert_frame_equal(paper_terms(papers), whole)
    rows, table = terms.paper_term_codes(papers)
    assert table["term_code"].to_list() == list(range(table.height))
    assert rows.select(pl.lit(table["term"]).gather(pl.col("term_code")))["term"].to_list() == whole["term"].to_list()
