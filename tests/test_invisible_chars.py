"""Characters that render as nothing (Unicode's format characters: bidi marks and isolates from
right-to-left editors, zero-width spaces and joiners, soft hyphens, invisible operators) are
dropped wherever they sit: a file sprinkled with them loads as the clean file does, with the same
names, titles and abstracts, and no invisible character reaches the warehouse."""

from __future__ import annotations

import sys
import unicodedata

import polars as pl
from conftest import LISTING_SEEDS, SEARCH_SEEDS
from hypothesis import given, settings
from hypothesis import strategies as st

from transforms.pipeline import SourceFile, process_batch
from transforms import text
from transforms.text import clean_text, fold_key

# Format characters that print (Arabic number signs and the other prepended concatenation marks).
VISIBLE_FORMAT = {0x600, 0x601, 0x602, 0x603, 0x604, 0x605, 0x6DD, 0x70F, 0x890, 0x891, 0x8E2, 0x110BD, 0x110CD}
INVISIBLE = [chr(c) for c in range(sys.maxunicode + 1)
             if unicodedata.category(chr(c)) == "Cf" and c not in VISIBLE_FORMAT]


def test_format_detection_pads_with_every_invisible_character():
    assert set(INVISIBLE) <= set(text.INVISIBLE)


def test_every_invisible_format_character_is_dropped_from_text_and_keys():
    names = pl.Series(["Wei" + ch + " Wa" + ch + "ng" + ch for ch in INVISIBLE]).to_frame("t")
    assert set(names.select(clean_text(pl.col("t")))["t"]) == {"Wei Wang"}
    assert set(names.select(fold_key(pl.col("t")))["t"]) == {"wei wang"}


def loaded(text: str) -> list[tuple]:
    result = process_batch([SourceFile(1, "f.txt", text.encode("utf-8"))])
    assert result.quarantine.is_empty(), result.quarantine.to_dicts()
    rows = result.listings.sort("position").join(
        result.papers.select("paper_key", "title", "abstract"), on="paper_key", how="left", maintain_order="left")
    return rows.select("title", "abstract", "authors").rows()


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(LISTING_SEEDS + SEARCH_SEEDS), st.data())
def test_a_file_sprinkled_with_invisible_characters_loads_as_the_clean_one(path, data):
    clean = path.read_text("utf-8")
    lines = clean.split("\n")
    for _ in range(data.draw(st.integers(1, 30), label="n")):
        i = data.draw(st.integers(0, len(lines) - 1), label="line")
        line = lines[i]
        # header and marker lines only at their edges (detection reads them as written), other
        # lines anywhere, inside words too
        opener = line.startswith("#") or line == "论文检索"
        at = data.draw(st.sampled_from([0, len(line)]) if opener else st.integers(0, len(line)), label="at")
        lines[i] = line[:at] + data.draw(st.sampled_from(INVISIBLE), label="char") + line[at:]
    assert loaded("\n".join(lines)) == loaded(clean)
