"""The compiled signatures (transforms/signatures.py) are the numpy path's values, exactly: the
block keys are stored, and a warehouse signed by either path must match papers signed by the
other. Every kind of text the numpy path folds is drawn here: ASCII with punctuation and
capitals, letters and digits of other scripts, accents (composed and not), invisible and odd
spaces, LaTeX and Unicode math, texts of no, one or two words, and words too long for the
compiled hash (which go the numpy way)."""

from __future__ import annotations

import sys

import numpy as np
import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from flows import resolve as flows_resolve
from tests.test_resolve import (
    ABSTRACT,
    AUTHORS,
    OTHER,
    TITLE,
    VARIANTS,
    Warehouse,
    listing_text,
    search_text,
)
from transforms import resolve, signatures

PIECES = ["Graph", "NEURAL", "net-work", "x_i", "R^2", "e.g.,", "(GNNs)", "3D", "v2", "α", "\\alpha", "\\le",
          "\\left(", "\\mathbb{R}", "$O(n)$", "≤", "Ω", "Straße", "Ærø", "Łódź", "é", "e\u0301", "İstanbul",
          "٣٤", "Ⅻ", "½", "東京大学", "ﬁne", "\u200b", "\u00a0", "\t", "--", "...", "'s", "ΣΑΣ", "ǅ", "\x1f"]
WORD = st.one_of(st.sampled_from(PIECES), st.text(alphabet="abcXYZ09", min_size=1, max_size=12),
                 st.text(max_size=6))
TEXT = st.one_of(st.lists(WORD, max_size=40).map(" ".join), st.lists(WORD, max_size=6).map("".join))


def _keys(abstracts: list[str], compiled: bool) -> pl.DataFrame:
    papers = pl.DataFrame({"paper_key": list(range(len(abstracts))), "abstract": abstracts,
                           "author_keys": [["ann lee"], ["bo chen"]] * (len(abstracts) // 2) + [["ann lee"]] * (len(abstracts) % 2)},
                          schema={"paper_key": pl.Int64, "abstract": pl.String, "author_keys": pl.List(pl.String)})
    return resolve.block_keys(papers, compiled=compiled)


@settings(max_examples=300, deadline=None)
@given(st.lists(TEXT, min_size=1, max_size=12))
def test_compiled_block_keys_are_the_numpy_paths(abstracts):
    assert _keys(abstracts, compiled=True).equals(_keys(abstracts, compiled=False))


def test_compiled_block_keys_on_real_abstracts_and_their_variants():
    abstracts = [ABSTRACT, OTHER, *VARIANTS.values(), "", "one", "two words", ABSTRACT.upper(), " ".join([ABSTRACT] * 5)]
    assert _keys(abstracts, compiled=True).equals(_keys(abstracts, compiled=False))


@given(st.lists(st.text(alphabet="aéB1", min_size=signatures.MAX_WORD_BYTES - 2, max_size=signatures.MAX_WORD_BYTES + 40),
                min_size=1, max_size=4).map(" ".join))
def test_words_too_long_for_the_compiled_hash_go_the_numpy_way(long_words):
    abstracts = [long_words, ABSTRACT + " " + long_words, ABSTRACT]
    assert _keys(abstracts, compiled=True).equals(_keys(abstracts, compiled=False))


@settings(max_examples=500)
@given(st.binary(max_size=signatures.MAX_WORD_BYTES))
def test_compiled_hash_is_xxh3_of_every_short_input(data):
    """Every length from 0 to MAX_WORD_BYTES takes one of XXH3's short paths (0, 1-3, 4-8, 9-16,
    17-128 bytes); compared with polars-hash's XXH3 (`stable_hash64`) of the same bytes."""
    text = data.decode("latin-1")  # one character per byte value: its UTF-8 is what is hashed
    raw = np.frombuffer(text.encode(), dtype=np.uint8)
    if len(raw) > signatures.MAX_WORD_BYTES:
        return
    expected = resolve.stable_hash64(pl.Series([text])).to_numpy()[0]
    assert signatures.xxh3_64(raw, len(raw), signatures._SECRET64, signatures._SECRET32) == expected


def test_every_length_of_xxh3s_short_paths():
    for n in range(signatures.MAX_WORD_BYTES + 1):
        text = "".join(chr(97 + (i * 7 + n) % 26) for i in range(n))
        raw = np.frombuffer(text.encode(), dtype=np.uint8)
        assert signatures.xxh3_64(raw, n, signatures._SECRET64, signatures._SECRET32) == \
            resolve.stable_hash64(pl.Series([text])).to_numpy()[0], n


def test_a_load_signs_papers_the_same_either_way(tmp_path, monkeypatch):
    """The flow's choice (COMPILED_MIN_PAPERS) changes no stored block key, and the variants are
    matched the same: a first load, then a run with near-duplicates of it."""
    runs = [[listing_text([(TITLE, AUTHORS, ABSTRACT), ("Improving Signals", ["Nilotpal Kakati"], OTHER)])],
            [search_text([(AUTHORS, VARIANTS["cut_short"]), (AUTHORS, VARIANTS["latex_unicode"])])]]
    tables = {}
    for name, threshold in (("numpy", 10**9), ("compiled", 0)):
        monkeypatch.setattr(flows_resolve, "COMPILED_MIN_PAPERS", threshold)
        warehouse = Warehouse(tmp_path / f"{name}.duckdb")
        for texts in runs:
            warehouse.ingest(texts)
        tables[name] = (warehouse.sql("SELECT paper_key, band, bucket FROM paper_signature ORDER BY ALL"),
                        warehouse.sql("SELECT paper_key, paper_id FROM paper_key_map ORDER BY ALL"))
    assert tables["numpy"][0] and tables["numpy"] == tables["compiled"]
    assert len({paper_id for _, paper_id in tables["compiled"][1]}) == 2  # the variants joined their paper


def test_without_the_compiled_code_the_numpy_path_signs(monkeypatch):
    """numba missing, or unable to cache its code (a read-only install with no writable home):
    the run signs with the numpy path rather than failing."""
    import transforms
    abstracts = [ABSTRACT, OTHER]
    expected = _keys(abstracts, compiled=False)
    monkeypatch.setitem(sys.modules, "transforms.signatures", None)  # its import raises ImportError
    monkeypatch.delattr(transforms, "signatures", raising=False)
    numpy_path, calls = resolve._signatures, []
    monkeypatch.setattr(resolve, "_signatures", lambda abstracts: calls.append(len(abstracts)) or numpy_path(abstracts))
    assert _keys(abstracts, compiled=True).equals(expected)
    assert calls == [2]
