"""Paper identity read from titles (hunt 52): a notice in a form the resolver did not read, marks
the fold drops, numbers read as sets of digit runs, one number written two ways, and British /
American respellings. Each pair is the same people and the same (or a copied) abstract: only the
title tells one paper from two."""

from __future__ import annotations

import polars as pl
import pytest

from tests.test_resolve import ABSTRACT, AUTHORS, VARIANTS, pair, scored
from transforms import dedupe

# Long enough for the title gate beside a notice's opening words (~58 characters or more).
T = "Filling-Factor-Dependent Magnetophonon Resonance in Bilayer Graphene under Uniaxial Strain"
BOILERPLATE = "No abstract available."

# ----------------------------------------------------------------------------- (1) notices
NOTICES = [
    # the hunt's forms: each merged with the paper, the paper showing the notice's title
    f"Author's Reply to Comment on {T}", f"Publisher's Note: {T}", f"Author's Correction: {T}",
    f"Answer to Comment on {T}", f"Letter to the Editor: {T}", f"Re: {T}", f"In Reply: {T}",
    f"Invited Discussion of {T}", f"Further Comments on {T}", f"{T} (Retracted)", f"{T} [Retracted]",
    # the same kinds written otherwise
    f"Editor’s Note: {T}", f"Publishers' Note: {T}", f"A Brief Reply to {T}", f"Discussion of {T}",
    f"Rejoinder to the Discussion of {T}", f"RE: {T}", f"Answers to Comments on {T}", f"{T} (Withdrawn)",
    f"Authors’ Response to the Letter on {T}", f"Letters: {T}", f"The Author's Reply: {T}",
]


@pytest.mark.parametrize("notice", NOTICES)
def test_a_notice_in_any_form_is_not_the_paper(notice):
    for a, b in ((ABSTRACT, ABSTRACT), (ABSTRACT, ABSTRACT + " This notice concerns Lemma 4.2."),
                 (BOILERPLATE, BOILERPLATE)):
        row = scored(pair(a, b, title_a=T, title_b=notice)).row(0, named=True)
        assert not row["is_match"], (a == BOILERPLATE, row)


@pytest.mark.parametrize("title_a,title_b", [
    # a revision's words around the title, or words of the kind inside it, are no notice
    (f"Towards {T}", T),
    (f"Rethinking {T}", f"Re-Thinking {T}"),
    (f"Answer Set Programming for {T}", f"Answer Set Programming for {T.replace('Uniaxial', 'Uni-axial')}"),
    (f"{T} (Extended Abstract)", T),
    (f"{T}: Notes", f"{T}: Notes"),
    (f"Letter-Level {T}", f"Letter Level {T}"),
])
def test_a_revision_around_the_title_still_merges(title_a, title_b):
    row = scored(pair(ABSTRACT, VARIANTS["v2_revision"], title_a=title_a, title_b=title_b)).row(0, named=True)
    assert row["is_match"], row


# ----------------------------------------------------------------------------- (3) numbers in order, decimals whole
# Read as a set of digit runs, "3.3" was {3} as "3" was, "1.2" and "2.1" were {1, 2}, and "0.05" was "0.5".
OTHER_NUMBERS = [
    ("Evaluating Llama 3.3 on Long-Context Clinical Question Answering", "Evaluating Llama 3 on Long-Context Clinical Question Answering"),
    ("Overview of the Shared Task on Clinical Entity Recognition (Subtask 1.2)", "Overview of the Shared Task on Clinical Entity Recognition (Subtask 2.1)"),
    ("Sparse Recovery with Noise Level 0.05 in High-Dimensional Regression", "Sparse Recovery with Noise Level 0.5 in High-Dimensional Regression"),
    ("Exponents 1.05 in the Critical Scaling of Percolation on Random Graphs", "Exponents 1.5 in the Critical Scaling of Percolation on Random Graphs"),
    ("Qwen 2.5 Technical Report: Training Multilingual Foundation Models", "Qwen 2 Technical Report: Training Multilingual Foundation Models"),
    ("Transformers with 3 Layers and 2 Heads Learn Induction Circuits", "Transformers with 2 Layers and 3 Heads Learn Induction Circuits"),
    ("Section 4.1 Revisited: Generalization Bounds for Overparameterized Networks", "Section 4.10 Revisited: Generalization Bounds for Overparameterized Networks"),
]


@pytest.mark.parametrize("title_a,title_b", OTHER_NUMBERS)
def test_numbers_compare_in_order_with_their_decimals(title_a, title_b):
    sibling = ABSTRACT.replace("On one hand", "In this second part, on one hand")
    row = scored(pair(ABSTRACT, sibling, title_a=title_a, title_b=title_b)).row(0, named=True)
    assert not row["is_match"] and row["rule"] == "titles_differ", row


# ----------------------------------------------------------------------------- (4) one number written two ways
# Each split from itself ("titles_differ" at 0.99-1.0): "3-D" read as "3" beside "3d", "1bit" as
# other than "1 bit", "×" spelled "times", a thousands separator splitting "10,000", the "i" of
# "i.i.d." and the "x" of "X-ray" read as Roman numerals.
SAME_NUMBERS = [
    ("Learning 3D Shape Priors from Single Images with Diffusion Models", "Learning 3-D Shape Priors from Single Images with Diffusion Models"),
    ("Training 1-bit Transformers at Scale without Straight-Through Estimators", "Training 1bit Transformers at Scale without Straight-Through Estimators"),
    ("A 10x Faster Solver for Sparse Linear Systems on Graphics Processors", "A 10× Faster Solver for Sparse Linear Systems on Graphics Processors"),
    ("Scaling Tabular Foundation Models to 10,000 Features and Beyond", "Scaling Tabular Foundation Models to 10000 Features and Beyond"),
    ("Generalization Bounds Beyond i.i.d. Data for Deep Neural Networks", "Generalization Bounds Beyond IID Data for Deep Neural Networks"),
    ("Self-Supervised Pretraining for Chest X-ray Report Generation", "Self-Supervised Pretraining for Chest Xray Report Generation"),
    # the same kinds written otherwise
    ("Robust 2D Pose Estimation in Crowded Scenes with Part Affinity Fields", "Robust 2-D Pose Estimation in Crowded Scenes with Part Affinity Fields"),
    ("Training 4-Bit Language Models with Outlier-Aware Quantization", "Training 4bit Language Models with Outlier-Aware Quantization"),
    ("Sorting 1,000,000 Keys per Second on a Single Embedded Processor", "Sorting 1000000 Keys per Second on a Single Embedded Processor"),
    ("Generalization Bounds Beyond i.i.d Data for Deep Neural Networks", "Generalization Bounds Beyond iid Data for Deep Neural Networks"),
    ("Self-Supervised Pretraining for Chest X-Ray Report Generation, Part II", "Self-Supervised Pretraining for Chest Xray Report Generation, Part 2"),
]


@pytest.mark.parametrize("title_a,title_b", SAME_NUMBERS)
def test_one_number_written_two_ways_is_one_paper(title_a, title_b):
    row = scored(pair(ABSTRACT, VARIANTS["typo"], title_a=title_a, title_b=title_b)).row(0, named=True)
    assert row["is_match"], row


# ----------------------------------------------------------------------------- (5) British / American respellings
# Two title words respelled, the abstract too: "summarization" was compared with "summarising" (the
# other word), and the abstracts, each saying its own spelling, read as one template filled in twice.
LEGAL = ("Summarizing Indian legal court judgments is a complex task not only due to the intricate language and "
         "unstructured nature of the legal texts. In this study, we aim to improve the summarization of Indian legal "
         "text by injecting domain knowledge into diverse summarization models, and we optimize extractive neural "
         "summarization models with domain-specific encoders; the optimization is measured by standard metrics and "
         "by domain experts, who judge summarizing quality.")


def _british(text: str) -> str:
    for us, uk in (("Summariz", "Summaris"), ("summariz", "summaris"), ("Optimiz", "Optimis"), ("optimiz", "optimis"),
                   ("Reparameteriz", "Reparameteris"), ("Color", "Colour"), ("color", "colour"), ("Model", "Modell"),
                   ("izing", "ising")):
        text = text.replace(us, uk)
    return text


@pytest.mark.parametrize("title", [
    "Domain Knowledge Injection for Legal Document Summarization: A Case Study on Summarizing Indian Court Judgments",
    "Reparameterization Flow Policy Optimization for Legal Document Summarization",
    "Optimizing Summarization Models for Color-Coded Legal Documents with Domain Knowledge",
])
def test_a_title_respelled_british_is_one_paper(title):
    row = scored(pair(LEGAL, _british(LEGAL), title_a=title, title_b=_british(title))).row(0, named=True)
    assert row["is_match"], row


# ----------------------------------------------------------------------------- (2) marks the fold drops
# One folded title ("the 1 λ ea", "p 2"): title ratio 1.0, and no number, swap or mark was looked for.
MARKS = [
    ("The (1+λ) EA on OneMax: Runtime Analysis with Fitness-Dependent Mutation Rates",
     "The (1,λ) EA on OneMax: Runtime Analysis with Fitness-Dependent Mutation Rates"),
    ("Sharp Sobolev Inequalities for the p-Laplacian on Bounded Domains for $p<2$",
     "Sharp Sobolev Inequalities for the p-Laplacian on Bounded Domains for $p>2$"),
    ("The (μ+λ) Genetic Algorithm on Jump Functions with Crossover and Mutation",
     "The (μ,λ) Genetic Algorithm on Jump Functions with Crossover and Mutation"),
    ("Regularity of Weak Solutions for Nonlinear Elliptic Systems when p ≤ 2 in Dimension Three",
     "Regularity of Weak Solutions for Nonlinear Elliptic Systems when p ≥ 2 in Dimension Three"),
]


@pytest.mark.parametrize("title_a,title_b", MARKS)
def test_titles_apart_in_marks_the_fold_drops_are_two_papers(title_a, title_b):
    sibling = ABSTRACT.replace("On one hand", "In this second part, on one hand")
    for a, b in ((ABSTRACT, sibling), (BOILERPLATE, BOILERPLATE)):
        row = scored(pair(a, b, title_a=title_a, title_b=title_b)).row(0, named=True)
        assert not row["is_match"] and row["rule"] == "titles_differ", row


@pytest.mark.parametrize("title_a,title_b", [
    ("Vision+Language Pretraining with Contrastive Objectives at Scale", "Vision and Language Pretraining with Contrastive Objectives at Scale"),
    ("The (1+λ) EA on OneMax: Runtime Analysis with Fitness-Dependent Mutation Rates",
     "The $(1+\\lambda)$ EA on OneMax: Runtime Analysis with Fitness Dependent Mutation Rates"),
    ("Retrieve, Rerank, Reply: Grounded Dialogue with Large Language Models", "Retrieve, Rerank and Reply: Grounded Dialogue with Large Language Models"),
])
def test_titles_with_the_same_marks_still_merge(title_a, title_b):
    row = scored(pair(ABSTRACT, VARIANTS["typo"], title_a=title_a, title_b=title_b)).row(0, named=True)
    assert row["is_match"], row
