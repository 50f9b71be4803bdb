"""transforms.dedupe: the boilerplate test stops at the 25th word and agrees with counting every word."""

from __future__ import annotations

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from transforms.dedupe import BOILERPLATE_WORDS, is_boilerplate

# letters, digits (Arabic-Indic), and a combining mark, which is no letter: it splits a word in two
WORD_CHARS = st.sampled_from(list("aZé9ßΩ中١") + ["\u0301"])
OTHER_CHARS = st.sampled_from(list(" -.,'\n\t(") + ["\u00a0", "\u200b", "$", "\\"])
WORD_COUNT = pl.col("v").str.count_matches(r"[\p{L}\p{N}]+")


def boilerplate(values: list[str | None]) -> list[bool | None]:
    return pl.DataFrame({"v": values}, schema={"v": pl.String}).select(is_boilerplate(pl.col("v")))["v"].to_list()


def by_counting(values: list[str | None]) -> list[bool | None]:
    return pl.DataFrame({"v": values}, schema={"v": pl.String}).select(WORD_COUNT < BOILERPLATE_WORDS)["v"].to_list()


def test_the_threshold_counts_words_not_characters():
    words = ["word"] * (BOILERPLATE_WORDS - 1)
    assert boilerplate([
        " ".join(words), " ".join(words + ["more"]), "x" * 500, "-".join(words + ["more"]),
        "  " + ",  ".join(words) + ".  ", None, "",
    ]) == [True, False, True, False, True, None, True]


@settings(max_examples=300)
@given(st.lists(st.text(st.one_of(WORD_CHARS, OTHER_CHARS), max_size=120) | st.none(), max_size=8),
       st.integers(BOILERPLATE_WORDS - 3, BOILERPLATE_WORDS + 3))
def test_it_agrees_with_counting_every_word(texts, n_words):
    around_threshold = " ".join(["w"] * n_words)
    values = texts + [around_threshold, around_threshold + "".join(t or "" for t in texts)]
    assert boilerplate(values) == by_counting(values)


def test_the_display_spelling_is_plain_and_accented():
    # full-width letters and typographic hyphens counted as accents: "Ｍｉｃｈａｅｌ Ｈａｈｎ" was the
    # name shown for a person three papers spell "Michael Hahn"
    from transforms.dedupe import author_variants
    from transforms.text import fold_key

    names = ["Michael Hahn", "Ｍｉｃｈａｅｌ Ｈａｈｎ", "Michael Rizvi–Martel", "Michael Rizvi-Martel", "Jean‐Luc Picard",
             "Jean-Luc Picard", "LEIF DÖRING", "Leif Doring", "Leif Döring"]
    listings = pl.DataFrame({"authors": [names]}).with_columns(author_keys=pl.col("authors").list.eval(fold_key(pl.element())))
    best = (author_variants(listings).sort("display_rank", descending=True)
            .group_by("name_key", maintain_order=True).first())
    assert sorted(best["name"]) == ["Jean-Luc Picard", "Leif Döring", "Michael Hahn", "Michael Rizvi-Martel"]


def _keyed(titles: list[str], abstract: str = "No abstract available.") -> list[int]:
    from transforms.dedupe import match_exact_abstract
    from transforms.text import fold_key

    listings = pl.DataFrame({"title": titles, "abstract": [abstract] * len(titles),
                             "author_keys": [["tianyuan zhou", "zhizheng fu"]] * len(titles),
                             "is_truncated": [False] * len(titles), "author_total": [2] * len(titles)})
    listings = listings.with_columns(abstract_key=fold_key(pl.col("abstract")))
    return match_exact_abstract(listings)["paper_key"].to_list()


def test_titles_only_siblings_apart_in_marks_the_fold_drops_have_other_keys():
    """"LoRA+: T" / "LoRA: T", "T in C++" / "T in C#", "p<2" / "p>2", "(1+λ)" / "(1,λ)" beside "No
    abstract available.": one folded title, one key, merged before the resolver saw them."""
    t = "Accelerating Skill Assessment in Chess"
    for a, b in [(f"LoRA+: {t}", f"LoRA: {t}"), (f"{t} in C++", f"{t} in C#"), (f"{t} for $p<2$", f"{t} for $p>2$"),
                 (f"The (1+λ) EA: {t}", f"The (1,λ) EA: {t}"), (f"{t} in C++", f"{t} in C")]:
        key_a, key_b = _keyed([a, b])
        assert key_a != key_b, (a, b)
    # one title written alike keeps one key; with a long abstract the key is as it was
    assert len(set(_keyed([f"LoRA+: {t}", f"LoRA+: {t}"]))) == 1
    long = " ".join(["word"] * 30)
    assert len(set(_keyed([f"LoRA+: {t}", f"LoRA: {t}"], long))) == 1


def test_keys_of_titles_without_marks_are_as_they_were():
    from transforms.ids import with_stable_ids
    from transforms.text import fold_key

    titles = ["Accelerating Skill Assessment in Chess: A Drift-Diffusion Elo", "Part II, (Revisited)"]
    listings = pl.DataFrame({"title": titles, "abstract_key": ["no abstract available"] * 2,
                             "_first_author": ["zhou"] * 2, "_all_authors": ["tianyuan zhou|zhizheng fu"] * 2})
    old = with_stable_ids(listings.with_columns(_title_key=fold_key(pl.col("title"))),
                          {"paper_key": ["abstract_key", "_title_key", "_first_author", "_all_authors"]})
    assert _keyed(titles) == old["paper_key"].to_list()
