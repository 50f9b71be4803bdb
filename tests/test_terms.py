"""Term extraction (transforms.terms): the normaliser's properties, per-paper terms that do not
depend on the other papers of the frame, and readable text from LaTeX."""

from __future__ import annotations

import polars as pl
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

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
