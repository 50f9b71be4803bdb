"""A document about another document (an erratum, a supplement, an appendix, a reply...) is never
the paper it is about, wherever its title names the kind: opening it ("Erratum to:"), closing it
("T: Erratum", "T (Erratum)", "T - Corrigendum") or as "X for/to T". Same people, the paper's
abstract copied: only the title tells them apart, and a closing notice read as the title cut
short (title ratio 1.0), so each was merged into its paper, the paper showing the notice's title."""

from __future__ import annotations

import pytest

from tests.test_resolve import ABSTRACT, pair, scored

PAPER = "Evidence for an Excitonic Insulator Phase in 1T-TiSe$_{2}$"
FILLING = "Filling-Factor-Dependent Magnetophonon Resonance in Graphene"

NOTICES = [
    # closing the title: after a colon, a dash, in parentheses or brackets
    f"{PAPER}: Erratum", f"{PAPER} (Erratum)", f"{PAPER} [Erratum]", f"{PAPER} - Corrigendum",
    f"{PAPER} — Corrigendum", f"{PAPER} – Errata", f"{PAPER}: Addendum", f"{PAPER} (Retraction)",
    f"{PAPER}: Supplementary Material", f"{PAPER} (Supplemental Information)", f"{PAPER}: Supporting Information",
    f"{PAPER}: Extended Data", f"{PAPER} -- Online Appendix", f"{PAPER}: Author's Reply", f"{PAPER} (Correction)",
    f"{FILLING}: A Comment", f"{FILLING} (Rebuttal)",
    # "X for/to T", opening the title
    f"Supplemental Material for {FILLING}", f"Supporting Information for {FILLING}", f"Technical Appendix: {FILLING}",
    f"Appendix to {FILLING}", f"Online Appendix: {FILLING}", f"Supplement to {FILLING}", f"Extended Data for {FILLING}",
    f"Supplementary Information for {FILLING}", f"Supplementary Data for {FILLING}", f"Appendices for {FILLING}",
    f"Technical Comment on {FILLING}",
]


@pytest.mark.parametrize("notice", NOTICES)
def test_a_notice_anywhere_in_the_title_is_not_the_paper(notice):
    paper = FILLING if FILLING in notice else PAPER
    for extra in ("", " This notice concerns the proof of Lemma 4.2."):
        row = scored(pair(ABSTRACT, ABSTRACT + extra, title_a=paper, title_b=notice)).row(0, named=True)
        assert not row["is_match"] and row["rule"] == "titles_differ", row


@pytest.mark.parametrize("title_a,title_b", [
    # one notice written two ways is one document
    (f"{PAPER}: Erratum", f"{PAPER} (Erratum)"),
    (f"Erratum: {PAPER}", f"{PAPER} [Erratum]"),
    # a word of the kind inside a title, or its subtitle, is no notice
    ("Learning Error-Correction Codes with Transformers", "Learning Error Correction Codes with Transformers"),
    (f"{PAPER} (Extended Abstract)", PAPER),
    (f"{PAPER}: Extended Version", PAPER),
    ("Comment Ranking on Social Platforms: A Supplementary Study of Bias", "Comment Ranking on Social Platforms"),
    ("Appendix-Free Proofs of Concentration Inequalities", "Appendix Free Proofs of Concentration Inequalities"),
])
def test_titles_without_other_notices_still_merge(title_a, title_b):
    row = scored(pair(ABSTRACT, ABSTRACT, title_a=title_a, title_b=title_b)).row(0, named=True)
    assert row["is_match"], row
