"""A UTF-8 line with a few bytes that are not UTF-8 (a pasted Windows-1252 "’", a file cut inside
its last character) stays UTF-8: read as a whole in a legacy code page, every other non-ASCII
character of the line was garbled ("$τ$" as "$Ο„$", "360°" as "360Β°") and loaded silently."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from transforms.decode import REPLACEMENT, decode_bytes
from transforms.pipeline import SourceFile, process_batch


def listing(abstract: str, authors: str = "Ann Lee, Bo Chen") -> str:
    return "\n".join(["#01Oct 26, 2026", "cs.LG", "A Title", authors, abstract]) + "\n"


def test_a_stray_quote_beside_greek_letters_keeps_them():
    text = listing("We prove that $τ$ and $Δ$ bound the model’s error at 360° for Sprawiedliwość.")
    decoded = decode_bytes(text.encode().replace("’".encode(), b"\x92"))
    assert decoded.text == text and decoded.n_bad_bytes == 0
    assert decoded.encoding == "utf-8+windows-1252"


def test_stray_quotes_in_an_author_line_keep_its_names():
    text = listing("Plain.", "Thomas Ågotnes, Maja Matarić, Kevin O’Neil")
    decoded = decode_bytes(text.encode().replace("’".encode(), b"\x92"))
    assert decoded.text == text


def test_greek_math_glued_to_latin_letters_stays_utf8():
    text = listing("The gap “ΔBe” of (Cφ) grows.")
    decoded = decode_bytes(text.encode().replace("“".encode(), b"\x93").replace("”".encode(), b"\x94"))
    assert decoded.text == text


def test_a_file_cut_inside_its_last_character_quarantines_that_record_only():
    text = listing("Energy $Δ$ of a $β$-graph") + listing("The $ΔE$ cost is below ε")
    raw = text.encode()[:-2]  # "ε" is CE B5: the cut leaves CE
    decoded = decode_bytes(raw)
    assert decoded.text == text[:-2] + REPLACEMENT and decoded.n_bad_bytes == 1
    result = process_batch([SourceFile(1, "cut.txt", raw)])
    assert result.listings.height == 1 and result.quarantine.height == 1
    assert "ΔE" in result.quarantine["raw_text"][0]


def test_a_windows_1253_file_is_still_read_as_greek():
    text = listing("Η μέθοδος “βελτιώνει” το σφάλμα.", "Γιώργος Παπαδόπουλος")
    decoded = decode_bytes(text.encode("cp1253"))
    assert (decoded.encoding, decoded.text) == ("windows-1253", text)


ACCENTED = "éüøåçńśćłž"  # small: "aÅ" changes case inside a word, nonsense
SIGNS = ["$τ$", "$Δ$", "$α_i$", "360°", "±2", "€5", "2×3", "–", "…", "(μ)", "ΔBe"]
# a Latin word with at most one accented letter: three in a row of mixed languages ("ååü") is
# nonsense in any encoding
latin_word = st.builds(lambda a, c, b: a + c + b, st.text("abcdefgh", min_size=1, max_size=5),
                       st.sampled_from(ACCENTED) | st.just(""), st.text("ijklmnop", max_size=5))
words = st.lists(st.sampled_from(["Zoë", "Łódź", "Sprawiedliwość", "Ågotnes", "Δx", "model"])
                 | st.sampled_from(SIGNS) | latin_word, min_size=2, max_size=20)


@settings(max_examples=150, deadline=None)
@given(words, st.sampled_from(["’", "“", "”"]), st.integers(min_value=0))
def test_one_stray_cp1252_quote_never_garbles_the_line(parts, quote, at):
    """Any UTF-8 text with non-ASCII letters and signs plus one inserted 0x92/0x93/0x94 byte
    (between words or inside one) decodes with the original characters intact (the byte read as
    its quote), or is marked U+FFFD."""
    line = " ".join(parts)
    if line.isascii():
        line += " $α$"
    at %= len(line) + 1
    text = listing(line[:at] + quote + line[at:])
    decoded = decode_bytes(text.encode().replace(quote.encode(), quote.encode("cp1252")))
    if REPLACEMENT in decoded.text:
        assert set(decoded.text) - {REPLACEMENT} <= set(text)  # marked, not garbled
    else:
        assert decoded.text == text
