"""A document about another document (an erratum, a supplement, an appendix, a reply...) is never
the paper it is about, wherever its title names the kind: opening it ("Erratum to:"), closing it
("T: Erratum", "T (Erratum)", "T - Corrigendum") or as "X for/to T". Same people, the paper's
abstract copied: only the title tells them apart, and a closing notice read as the title cut
short (title ratio 1.0), so each was merged into its paper, the paper showing the notice's title."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.test_resolve import ABSTRACT, AUTHORS, OTHER, TITLE, VARIANTS, Warehouse, listing_text, pair, scored
from transforms import resolve

PAPER = "Evidence for an Excitonic Insulator Phase in 1T-TiSe$_{2}$"
FILLING = "Filling-Factor-Dependent Magnetophonon Resonance in Graphene"

NOTICES = [
    # closing the title: after a colon, a dash, in parentheses or brackets
    f"{PAPER}: Erratum", f"{PAPER} (Erratum)", f"{PAPER} [Erratum]", f"{PAPER} - Corrigendum",
    f"{PAPER} — Corrigendum", f"{PAPER} – Errata", f"{PAPER}: Addendum", f"{PAPER} (Retraction)",
    f"{PAPER}: Supplementary Material", f"{PAPER} (Supplemental Information)", f"{PAPER}: Supporting Information",
    f"{PAPER}: Extended Data", f"{PAPER} -- Online Appendix", f"{PAPER}: Author's Reply", f"{PAPER} (Correction)",
    f"{FILLING}: A Comment", f"{FILLING} (Rebuttal)",
    # after a sentence's end (hunt 50: real 2007 arXiv errata, "Sparsity-certifying Graph
    # Decompositions. Erratum", merged into their paper, whose title became the erratum's)
    f"{PAPER}. Erratum", f"{PAPER}, Erratum", f"{PAPER}. Corrigendum", f"{PAPER}. Addendum",
    f"{FILLING}. Reply", f"{FILLING}. Comment", f"{FILLING}; Corrigendum", f"{FILLING}. Author's Reply.",
    f"{FILLING} (Part 2). Erratum",
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
    (f"{PAPER}. Erratum", f"{PAPER}: Erratum"),
    # an abbreviation's stop, a title's own list (the review of session 50: each was read as a
    # notice, and a revision that edited its title split from its paper)
    ("Algorithmic Risk Assessment in U.S. Corrections", "Algorithmic Risk Assessment in US Corrections"),
    ("Code Review Automation: Generation vs. Comment", "Code Review Automation: Generation versus Comment"),
    ("Retrieve, Rerank, Reply", "Retrieve, Rerank and Reply"),
    ("Listen, Think, Comment: Video Commenting with LLMs", "Listen, Think, Comment"),
    ("Detect, Localize, Correction", "Detect, Localize, Correct"),
    ("Errors in Reports, Comments and Corrections of Clinical Trials", "Errors in Reports, Comments and Corrections"),
])
def test_titles_without_other_notices_still_merge(title_a, title_b):
    row = scored(pair(ABSTRACT, ABSTRACT, title_a=title_a, title_b=title_b)).row(0, named=True)
    assert row["is_match"], row


# ----------------------------------------------------------------------------- a withdrawn version
# arXiv shows a withdrawn version with the paper's title and authors and a notice for its abstract.
# Blocked by abstract text only, the notice never met its paper, and the paper was loaded twice.
# A short (boilerplate) abstract now meets its paper by the folded title and the first author, and
# merges when the title is the same and every author agrees strictly (rule `notice_abstract`).
WITHDRAWALS = [
    "This paper has been withdrawn by the author due to an error in the proof of Theorem 2.",
    "This paper has been withdrawn by the authors.",
    "This article has been withdrawn.",
    "Withdrawn due to a crucial error in equation 5.",
    "Withdrawn.",
    "The paper is withdrawn",
    "This submission has been withdrawn by arXiv administrators due to inappropriate text overlap with external sources.",
    "This paper has been retracted.",
    "The manuscript was withdrawn by the authors.",
]
KEYS = [n.lower().replace("-", " ") for n in AUTHORS]
# Another real paper of the same title and authors ("Introduction", "Erratum": one author writes several)
ANOTHER = (
    "We revisit length generalisation in recurrent networks with gated state updates and prove that a "
    "bounded-precision recurrence cannot count beyond a fixed horizon, whatever its width. Our bounds are "
    "tight for linear recurrences and loose by a logarithmic factor for gated ones. We complement the theory "
    "with experiments on parity, counting and Dyck languages, where the predicted horizon matches the observed "
    "collapse of accuracy within a few tokens, and discuss what this means for state space models."
)


@pytest.mark.parametrize("notice", WITHDRAWALS)
@pytest.mark.parametrize("notice_first", [False, True])
def test_a_notice_under_the_same_title_and_authors_is_the_paper(notice, notice_first):
    a, b = (notice, ABSTRACT) if notice_first else (ABSTRACT, notice)
    for title_b in (TITLE, TITLE.upper(), TITLE.replace(":", " -")):  # the title folded as the resolver folds it
        row = scored(pair(a, b, title_b=title_b)).row(0, named=True)
        assert row["is_match"] and row["rule"] == "notice_abstract", row


@pytest.mark.parametrize("keys_b, title_b, abstract_b", [
    (["xiaoyi li"], TITLE, ABSTRACT),  # other people (one letter apart: two people, README)
    (KEYS[:2], TITLE, ABSTRACT),  # a shorter list: not the same authors
    (KEYS[::-1], TITLE, ABSTRACT),  # the same names in another order
    (["marius henry", "m rizvi martel", "michael hahn"], TITLE, ABSTRACT),  # initials agree: the same people
    (KEYS, TITLE + ": Part II", ABSTRACT),  # another title
    (KEYS, "Introduction", ABSTRACT),
    (KEYS, None, ABSTRACT),  # no title to agree on
])
def test_a_notice_merges_only_with_the_same_title_and_the_same_authors(keys_b, title_b, abstract_b):
    keys_a = ["xiaoyu li"] if keys_b == ["xiaoyi li"] else KEYS
    row = scored(pair(WITHDRAWALS[0], abstract_b, keys_a=keys_a, keys_b=keys_b, title_b=title_b)).row(0, named=True)
    same_people = keys_b[1] == "m rizvi martel" if len(keys_b) > 1 else False
    assert row["is_match"] == same_people and (row["rule"] == "notice_abstract") == same_people, row


@pytest.mark.parametrize("short", [
    "We present the proceedings of the Workshop on Learning Theory 2019.",
    "Lecture notes for a graduate course on recurrent networks.",
    # the words of a notice in a real abstract, and "no abstract": front matter of another volume
    "We examine the withdrawal of arms in delayed bandits.",
    "A deformation retraction of the complement is constructed explicitly.",
    "Arms withdrawn by the learner are never pulled again; we bound the regret.",
    "No abstract available.",
])
@pytest.mark.parametrize("other", [ABSTRACT, "Notes from a tutorial on kernel methods given at a summer school."])
def test_a_short_real_abstract_is_no_notice(short, other):
    # one editor's "Introduction" to two volumes, or a short abstract beside another paper of its title
    for title in (TITLE, "Introduction"):
        row = scored(pair(other, short, title_a=title, title_b=title)).row(0, named=True)
        assert not row["is_match"], row


def test_two_real_abstracts_under_one_title_and_authors_stay_what_they_were():
    """The rule reads a short abstract only: two long ones of one title are scored as before."""
    for title in (TITLE, "Introduction"):
        row = scored(pair(ABSTRACT, ANOTHER, title_a=title, title_b=title)).row(0, named=True)
        assert not row["is_match"] and row["rule"] == "below_threshold", row


def test_a_notice_and_its_paper_share_a_block_two_real_abstracts_do_not_get_one():
    papers = pl.DataFrame({
        "paper_key": [1, 2, 3, 4, 5],
        "title": [TITLE, TITLE.lower(), TITLE, TITLE, "Introduction"],
        "abstract": [ABSTRACT, WITHDRAWALS[0], ANOTHER, WITHDRAWALS[1], WITHDRAWALS[0]],
        "author_keys": [KEYS, KEYS, KEYS, ["nobody else"], KEYS],
    })
    keys = resolve.block_keys(papers)
    titled = keys.filter(pl.col("band").is_in([resolve.NOTICE_BAND, resolve.TITLE_BAND]))
    # one key each: the short abstracts' in NOTICE_BAND, the long ones' in TITLE_BAND
    assert sorted(titled.select("paper_key", "band").rows()) == [
        (1, resolve.TITLE_BAND), (2, resolve.NOTICE_BAND), (3, resolve.TITLE_BAND), (4, resolve.NOTICE_BAND),
        (5, resolve.NOTICE_BAND)]
    bucket = dict(titled.select("paper_key", "bucket").rows())
    assert bucket[1] == bucket[2] == bucket[3]  # same folded title and first author
    assert len({bucket[1], bucket[4], bucket[5]}) == 3
    # without titles (a caller that has none), no such keys
    assert resolve.block_keys(papers.drop("title"))["band"].max() < resolve.NOTICE_BAND


@given(st.sampled_from(WITHDRAWALS), st.lists(st.sampled_from(KEYS + ["ann lee", "bo chen"]), min_size=1, max_size=4,
                                            unique=True))
@settings(max_examples=60, deadline=None)
def test_a_notice_merges_exactly_when_the_lists_agree(notice, keys_b):
    row = scored(pair(ABSTRACT, notice, keys_a=KEYS, keys_b=keys_b)).row(0, named=True)
    assert row["is_match"] == (keys_b == KEYS), row


# ----------------------------------------------------------------------------- through the loader
def _papers(warehouse: Warehouse) -> list[tuple]:
    return warehouse.sql("SELECT paper_id, title, abstract, n_listings FROM dim_paper ORDER BY ALL")


@pytest.mark.parametrize("notice_day", [2, 1])
def test_a_withdrawn_relisting_is_one_paper_whichever_day_it_came(tmp_path, notice_day):
    real = [(TITLE, AUTHORS, ABSTRACT), ("Improving Signals", ["Nilotpal Kakati"], OTHER)]
    withdrawn = [(TITLE, AUTHORS, WITHDRAWALS[0]), ("Improving Signals", ["Nilotpal Kakati"], OTHER)]
    days = [real, withdrawn] if notice_day == 2 else [withdrawn, real]
    texts = [listing_text(days[0]), listing_text(days[1], day="Oct 27, 2026")]
    incremental, fresh = Warehouse(tmp_path / "inc.duckdb"), Warehouse(tmp_path / "fresh.duckdb")
    incremental.ingest(texts[:1])
    incremental.ingest(texts[1:])
    fresh.ingest(texts)
    papers = _papers(incremental)
    assert papers == _papers(fresh)  # ids too
    assert len(papers) == 2
    # the real abstract stays the paper's, whichever was listed last
    assert {(t, a, n) for _, t, a, n in papers} == {(TITLE, ABSTRACT, 2), ("Improving Signals", OTHER, 2)}
    rules = incremental.sql("SELECT rule, is_merge FROM paper_match WHERE rule = 'notice_abstract'")
    assert rules == [("notice_abstract", True)]
    assert incremental.sql("SELECT n_papers FROM dim_author WHERE name = 'Marius Henry'") == [(1,)]


def test_a_shorter_revision_listed_later_is_the_papers_abstract(tmp_path):
    """Only a notice loses to an older abstract: a revision under 25 words was ranked below the
    version before it, and the next merge turned stored papers back to their older texts."""
    title, names = "On the Rationality of Cubic Fourfolds Containing a Plane", ["Ann Lee", "Bo Chen"]
    old = ("We prove that every smooth cubic fourfold containing a plane and a second disjoint plane is rational, "
           "and we describe the birational maps explicitly in all cases.")
    new = ("We prove that every smooth cubic fourfold containing a plane and a second disjoint plane is rational, "
           "and describe the birational maps explicitly.")
    warehouse = Warehouse(tmp_path / "w.duckdb")
    warehouse.ingest([listing_text([(title, names, old)]), listing_text([(title, names, new)], day="Oct 27, 2026")])
    assert [a for _, _, a, _ in _papers(warehouse)] == [new]


def test_the_merge_reads_notices_with_the_resolvers_pattern():
    sql = (Path(resolve.__file__).parent.parent / "schemas" / "merge" / "20_papers.sql").read_text(encoding="utf-8")
    assert f"regexp_matches(lower(v.abstract), '{resolve.NOTICE_TEXT}')" in sql


def test_a_notice_that_fits_two_papers_of_one_title_joins_neither(tmp_path):
    """Two real papers of one title and authors, then a notice: which one was withdrawn is unknown."""
    both = [("Introduction", AUTHORS, ABSTRACT), ("Introduction", AUTHORS, ANOTHER)]
    notice = listing_text([("Introduction", AUTHORS, WITHDRAWALS[1])], day="Oct 27, 2026")
    for runs in ([[listing_text(both)], [notice]], [[listing_text(both), notice]]):  # incremental, fresh
        warehouse = Warehouse(tmp_path / f"w{len(runs)}.duckdb")
        for texts in runs:
            warehouse.ingest(texts)
        assert len(_papers(warehouse)) == 3
        assert not warehouse.sql("SELECT * FROM paper_match WHERE is_merge")
        # the notice met both, and was kept apart from both as ambiguous
        assert warehouse.sql("SELECT count(*) FROM paper_match WHERE rule = 'kept_apart_ambiguous'") == [(2,)]


def test_a_notice_beside_two_versions_of_its_paper_joins_them_fresh_or_incremental(tmp_path):
    """Its partners are one paper (a v1 and its revision, accepted as a pair): no ambiguity."""
    texts = [listing_text([(TITLE, AUTHORS, ABSTRACT)]),
             listing_text([(TITLE, AUTHORS, VARIANTS["v2_revision"]), (TITLE, AUTHORS, WITHDRAWALS[3])],
                          day="Oct 27, 2026")]
    incremental, fresh = Warehouse(tmp_path / "inc.duckdb"), Warehouse(tmp_path / "fresh.duckdb")
    incremental.ingest(texts[:1])
    incremental.ingest(texts[1:])
    fresh.ingest(texts)
    assert _papers(incremental) == _papers(fresh)
    assert [(t, a, n) for _, t, a, n in _papers(fresh)] == [(TITLE, VARIANTS["v2_revision"], 3)]


@pytest.mark.parametrize("two_runs", [False, True])
def test_one_short_text_under_one_title_with_other_declared_totals_is_two_documents(tmp_path, two_runs):
    """Hunt 50: two "Editorial"s of one editor, one sentence and the same three names shown, "and 2
    more" and "and 9 more", were one paper by the exact key (no decision recorded), its author
    count 12. The key holds the declared total, and the resolver keeps such a pair apart."""
    names = ["Maria Schmidt", "John Okafor", "Li Wei"]
    text = "Editorial for the special issue on machine learning."
    days = [listing_text([("Editorial", [*names[:2], f"{names[2]} and {more} more"], text)], day=day)
            for more, day in ((2, "Jan 5, 2026"), (9, "Jun 5, 2026"))]
    warehouse = Warehouse(tmp_path / "w.duckdb")
    for run in ([days[0]], [days[1]]) if two_runs else ([*days],):
        warehouse.ingest(run)
    counts = warehouse.sql("SELECT author_count, n_listings FROM dim_paper ORDER BY author_count")
    assert counts == [(5, 1), (12, 1)]


def test_one_short_text_under_one_title_with_one_declared_total_is_one_paper(tmp_path):
    names = ["Maria Schmidt", "John Okafor", "Li Wei and 2 more"]
    text = "Editorial for the special issue on machine learning."
    warehouse = Warehouse(tmp_path / "w.duckdb")
    warehouse.ingest([listing_text([("Editorial", names, text)], day=day) for day in ("Jan 5, 2026", "Jun 5, 2026")])
    assert warehouse.sql("SELECT author_count, n_listings FROM dim_paper") == [(5, 2)]
