"""Fuzz: `process_batch` never raises and accounts for every input line, whatever the bytes.

Inputs are random bytes, digest-like token soup, and real digests (the seeds and a rendered
corpus) broken the ways real files break (tests/support/mutations.py): lines deleted,
duplicated, swapped and moved, truncation at any byte, re-encoding (UTF-16 with and without
BOM, GB18030, Latin-1, CP1252, UTF-32), stray BOMs, CRLF and lone CR, NUL bytes, very long
lines. Each example is a batch of several files, so thousands of files run in about a minute.

For every file of a batch, checked from the outside (tests/support/accounting.py):
n_lines == n_separator_lines + Σ listing spans + Σ quarantine spans (line_start ≥ 1), every span
inside 1..n_lines and no two overlapping; every quarantine row has a reason; papers and authors
come only from loaded listings.

The example counts below are the full amount; `make test` runs a quarter of them
(DIGEST_FUZZ_SCALE=0.25, the same derandomized draws every run) and `make hunt` the full amount
with fresh random draws (DIGEST_FUZZ_SCALE=1; e.g. 10 for a longer hunt before a release). Every
mutation kind, encoding, newline style and byte edit is also tried on its own below, so a small
scale leaves none to chance.
"""

from __future__ import annotations

import os
import random
import re

import polars as pl
import pytest
from hypothesis import HealthCheck, event, example, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

from conftest import SEED_FILES
from support.accounting import accounting_problems
from support.mutations import BYTE_KINDS, ENCODINGS, NEWLINES, TEXT_KINDS, mutate
from transforms.decode import decode_bytes
from transforms.pipeline import BatchResult, SourceFile, process_batch

SCALE = float(os.environ.get("DIGEST_FUZZ_SCALE", "0.25"))


def fuzz_settings(n: int):
    # derandomize as the profile says (conftest): fixed draws in `make test`, fresh in `make hunt`
    return settings(max_examples=max(1, int(n * SCALE)), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.large_base_example])


def base_texts() -> list[str]:
    """Decoded text of the seeds and of a small rendered corpus (both formats, all encodings)."""
    global _BASE
    if _BASE is None:
        texts = [decode_bytes(p.read_bytes()).text for p in SEED_FILES]
        texts += [decode_bytes(data).text for data in _rendered_files()]
        _BASE = texts
    return _BASE


_BASE: list[str] | None = None


def _rendered_files() -> list[bytes]:
    """Files of a small bench.corpus rendering (with its encoding/noise mix), or none when the
    real data is absent (the seeds still cover both formats)."""
    import tempfile
    from pathlib import Path

    from bench.corpus import default_realdata, render_corpus

    try:
        if not (default_realdata() / "iclr2024_virtualsite_topics_airas.json").is_file():
            return []
    except Exception:  # noqa: BLE001 - no real data configured: seeds only
        return []
    with tempfile.TemporaryDirectory(prefix="fuzz_corpus_") as out:
        render_corpus(Path(out), 400, seed=11, noise=0.15)
        files = sorted(Path(out).rglob("*.txt"))
        rng = random.Random(11)  # a fixed sample keeps generation cheap
        return [p.read_bytes() for p in rng.sample(files, min(24, len(files)))]


def run_batch(blobs: list[bytes]) -> BatchResult:
    sources = [SourceFile(1000 + i, f"fuzz/{i:02d}.txt", data) for i, data in enumerate(blobs)]
    return process_batch(sources)


def assert_accounted(blobs: list[bytes], result: BatchResult) -> None:
    if currently_in_test_context():  # shown by --hypothesis-show-statistics: what reached the parsers
        event("some listings loaded" if result.listings.height else "no listing loaded")
        event("some spans quarantined" if result.quarantine.height else "nothing quarantined")
    assert result.files.height == len(blobs), "a file of the batch has no files row"
    assert set(result.files["source_file_id"]) == {1000 + i for i in range(len(blobs))}
    problems = accounting_problems(result.files, result.listings, result.quarantine)
    assert not problems, problems
    # Dimensions are built from loaded listings only: nothing quarantined can reach them.
    listed_keys = set(result.listings["paper_key"])
    assert set(result.papers["paper_key"]) <= listed_keys
    author_keys = set(result.listings.select(pl.col("author_keys").explode())["author_keys"].drop_nulls())
    assert set(result.authors["name_key"]) <= author_keys


# ---------------------------------------------------------------------------- strategies
POSITION = st.integers(0, 2**20)  # read modulo the line count or byte length
TEXT_EDITS = st.lists(st.tuples(st.sampled_from(TEXT_KINDS), POSITION, st.integers(0, 2**16)), max_size=4)
BYTE_EDITS = st.lists(st.tuples(st.sampled_from(BYTE_KINDS), POSITION, st.integers(0, 2**16)), max_size=2)


@st.composite
def mutated_digest(draw) -> bytes:
    texts = base_texts()
    text = texts[draw(st.integers(0, len(texts) - 1))]
    return mutate(text, draw(TEXT_EDITS), draw(st.sampled_from(ENCODINGS)), draw(st.sampled_from(NEWLINES)),
                  draw(BYTE_EDITS))


# Digest-shaped text from a grammar: records built slot by slot from values a parser has
# opinions about (good and bad headers, category lines, names lines, prose), and about one
# record in three broken (a slot dropped, replaced by any token, or a token inserted).
HEADERS = ["#01Oct 26, 2026", "#02Oct 26, 2026", "#7Oct 26, 2026", "#03Feb 30, 2026", "#04Foo 01, 2020",
           "#05Jan 01, 1900", "#99999999999999999999Jan 01, 2020", "#06 Sept. 3, 2026", "#07Oct 26,2026"]
CATEGORIES = ["cs.LG", "math-ph", "quant-ph", "hep-th", "math.IT", "CS.LG", "cs.lg", "cs. LG", "cs.LG cs.AI",
              "Deep Learning · Attention Mechanisms", "Social Aspects", "Theory · ", " · "]
TITLES = ["On Things", "Title: $N$-body \\textbf{x} *y*", "A" * 2100, "\u200b", "Ünïcödé Títle"]
AUTHORS = ["A. Author, B. Author, C. Author", "A, B, C and 3 more", "and 2 more", "Wei Zhang, Li Na 等", "等",
           "Steve Hanneke", "REMI MUNOS, Rémi Munos", "X, , Y", "Jane Doe et al."]
ABSTRACTS = ["We study a problem and prove a bound that is tight.", "Short.", "https://x.org/a?b=c $x$",
             "We show that " * 50, "'; DROP TABLE fact_listing; --", "<script>alert(1)</script> text."]
NOISE = ["", " ", "\t", "\u200b", "\ufeff", "\ufffd", "\xa0", "\r", "\x0c", "\x0b", "\u2028", "\x85", "\x1c",
         "论文检索", "?", ",", "等"]  # no NUL: one makes the whole file binary (random bytes cover that)
ANY_TOKEN = st.sampled_from(HEADERS + CATEGORIES + TITLES + AUTHORS + ABSTRACTS + NOISE)


@st.composite
def broken(draw, block: list[str]) -> list[str]:
    if draw(st.integers(0, 2)):
        return block
    i = draw(st.integers(0, len(block) - 1))
    op = draw(st.sampled_from(["drop", "replace", "insert"]))
    if op == "drop":
        return block[:i] + block[i + 1:]
    token = draw(ANY_TOKEN)
    return block[:i] + [token] + block[i + (op == "replace"):]


@st.composite
def listing_text(draw) -> str:
    lines = []
    for _ in range(draw(st.integers(0, 10))):
        slots = [HEADERS, CATEGORIES, TITLES, AUTHORS, ABSTRACTS]
        lines += draw(broken([draw(st.sampled_from(pool)) for pool in slots]))
    return "\n".join(lines)


@st.composite
def search_text(draw) -> str:
    paras = ["论文检索"]
    for _ in range(draw(st.integers(0, 10))):
        block = ([draw(st.sampled_from(CATEGORIES))] if draw(st.booleans()) else []) + [
            draw(st.sampled_from(AUTHORS)), draw(st.sampled_from(ABSTRACTS))]
        paras += draw(broken(block))
    return "\n\n".join(paras)


soup_file = st.tuples(st.one_of(listing_text(), search_text()),
                      st.sampled_from(["utf-8", "utf-16", "gb18030", "utf-8-sig"])).map(
    lambda t: t[0].encode(t[1], "replace"))


# ---------------------------------------------------------------------------- properties
@fuzz_settings(300)
@given(st.lists(st.binary(max_size=3000), min_size=2, max_size=8))
@example([b""])
@example([b"\x00"])
@example([b"\n\n\n"])
@example([b"\xff\xfe"])  # a UTF-16 BOM and nothing else
@example([b"\xef\xbb\xbf"])  # a UTF-8 BOM and nothing else
@example([b"\r\r\r"])
def test_random_bytes_never_crash_and_every_line_is_accounted(blobs):
    assert_accounted(blobs, run_batch(blobs))


@fuzz_settings(100)
@given(st.lists(soup_file, min_size=2, max_size=8))
def test_digest_like_token_soup_is_accounted(blobs):
    assert_accounted(blobs, run_batch(blobs))


@fuzz_settings(175)
@given(st.lists(mutated_digest(), min_size=3, max_size=8))
def test_mutated_real_digests_never_crash_and_every_line_is_accounted(blobs):
    assert_accounted(blobs, run_batch(blobs))


@fuzz_settings(25)
@given(st.lists(mutated_digest(), min_size=2, max_size=5))
def test_a_file_gets_the_same_outcome_alone_or_in_a_batch(blobs):
    """Batching is an implementation detail: a broken neighbour never changes what a file loads
    or quarantines."""
    together = run_batch(blobs)
    for i, data in enumerate(blobs):
        alone = run_batch([data])
        fid = 1000 + i
        mine = together.listings.filter(pl.col("source_file_id") == fid)
        assert sorted(mine.select("line_start", "line_end", "paper_key").rows()) == sorted(
            alone.listings.select("line_start", "line_end", "paper_key").rows())
        kept = together.quarantine.filter(pl.col("source_file_id") == fid)
        cols = ["line_start", "line_end", "reason"]
        assert sorted(kept.select(cols).rows()) == sorted(alone.quarantine.select(cols).rows())


def test_unmutated_bases_load_with_nothing_quarantined():
    """The fuzz bases are good digests: unbroken, every record loads (so the properties above
    are exercised on real records, not on files that were unparseable to begin with)."""
    blobs = [text.encode("utf-8") for text in base_texts()]
    result = run_batch(blobs)
    assert_accounted(blobs, result)
    assert result.quarantine.height == 0, result.quarantine.select("path", "reason").head(5)
    assert result.listings.height >= 5 * len(SEED_FILES)


# Text from Latin-script mail exports and web pages, in a legacy single-byte code page.
LATIN_WORDS = ["Müller", "Schrödinger", "Gödel", "Erdős", "café", "naïve", "Zürich", "São Paulo", "Ångström",
               "résumé", "François", "Ñandú", "“quoted”", "€100", "½", "ÿ", "Ü", "ß", "±3 °C"]
latin_fragment = st.tuples(st.lists(st.sampled_from(LATIN_WORDS), min_size=1, max_size=4).map(" ".join),
                           st.sampled_from(["latin-1", "cp1252"])).map(lambda t: t[0].encode(t[1], "replace"))
CJK = re.compile(r"[\u3000-\u9fff\uac00-\ud7af\uf900-\ufaff]")


@fuzz_settings(300)
@given(st.integers(0, 10**6), st.lists(st.tuples(st.integers(0, 10**7), latin_fragment), min_size=1, max_size=6))
def test_legacy_code_page_bytes_in_a_latin_digest_never_decode_as_chinese(which, fragments):
    """A Latin-1 or CP1252 byte in a UTF-8 digest is undecodable text to quarantine, not a
    reason to read the whole file as GB18030 (which turns "Müller" into "M黮ler")."""
    latin = [t for t in base_texts() if not CJK.search(t)]
    data = latin[which % len(latin)].encode("utf-8")
    for at, fragment in fragments:
        at %= len(data) + 1
        data = data[:at] + fragment + data[at:]
    decoded = decode_bytes(data)
    assert decoded.encoding != "gb18030" and not CJK.search(decoded.text), decoded.encoding


@pytest.mark.parametrize("kind", TEXT_KINDS)
def test_each_text_mutation_alone_is_accounted(kind):
    """Every mutation kind at a few places in every base, so none goes untried by chance."""
    texts = base_texts()
    blobs = [mutate(texts[i % len(texts)], [(kind, a, b)], "utf-8", "\n", [])
             for i, (a, b) in enumerate([(0, 0), (3, 7), (11, 2), (29, 13), (2**16, 5), (57, 31)])]
    assert_accounted(blobs, run_batch(blobs))


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_each_encoding_with_each_newline_is_accounted(encoding):
    """Every encoding with every newline style, on a few bases, so none goes untried by chance."""
    texts = base_texts()
    blobs = [mutate(texts[i * 5 % len(texts)], [], encoding, newline, []) for i, newline in enumerate(NEWLINES)]
    assert_accounted(blobs, run_batch(blobs))


@pytest.mark.parametrize("kind", BYTE_KINDS)
def test_each_byte_edit_alone_is_accounted(kind):
    """Every byte edit at a few places, in UTF-8 and UTF-16 files, so none goes untried by chance."""
    texts = base_texts()
    places = [(0, 0), (3, 7), (101, 2), (2**16, 5), (2**20 - 1, 31)]
    blobs = [mutate(texts[i % len(texts)], [], ("utf-8", "utf-16-le-bom")[i % 2], "\n", [(kind, a, b)])
             for i, (a, b) in enumerate(places)]
    assert_accounted(blobs, run_batch(blobs))
