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
