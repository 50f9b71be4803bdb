"""Two close spellings: two English words, or one word and a typo (transforms.words)."""

import pytest
from hypothesis import given, strategies as st

from transforms import words
from transforms.words import other_english_word


@pytest.mark.parametrize("a,b", [
    ("encoder", "decoder"), ("maximization", "minimization"), ("online", "offline"), ("content", "context"),
    ("gradient", "subgradient"), ("code", "decode"), ("regularized", "unregularized"), ("database", "dataset"),
])
def test_two_words(a, b):
    assert other_english_word(a, b) and other_english_word(b, a)


@pytest.mark.parametrize("a,b", [
    ("lerning", "learning"), ("transfomer", "transformer"), ("langauge", "language"),  # typos
    ("network", "networks"), ("extraction", "extractive"), ("ranking", "rank"),  # forms of one word
    ("optimisation", "optimization"), ("modelling", "modeling"), ("behaviour", "behavior"),  # British spelling
    ("centre", "center"), ("analyse", "analyze"), ("defence", "defense"), ("catalogue", "catalog"),
    ("vae", "gan"), ("data", "ata"),  # too short to tell
])
def test_one_word(a, b):
    assert not other_english_word(a, b) and not other_english_word(b, a)


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=0, max_size=14),
       st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=0, max_size=14))
def test_symmetric_and_never_a_word_and_itself(a, b):
    assert other_english_word(a, b) == other_english_word(b, a)
    assert not other_english_word(a, a)


@pytest.mark.parametrize("a,b,same", [
    ("summarization", "summarisation", True), ("summarizing", "summarising", True), ("colour", "color", True),
    ("modelling", "modeling", True), ("optimization", "optimisation", True),
    ("summarization", "optimisation", False), ("encoder", "decoder", False), ("online", "offline", False),
])
def test_one_word_reads_british_spelling_as_american(a, b, same):
    assert words.one_word(a, b) is same
