"""A CJK file holding little CJK: an et-al ending as its only Japanese or Chinese ("ほか", "外 2 名",
"等 5 人"), or Western names written in GBK beside one of its punctuation marks ("—", "×", "·").
Each was read in a single-byte code page and its mojibake loaded as names ("Dongdong Chen ‚Ù‚©",
"Pierre-Andr®¶ Maugis", "Rodolš€"), or every record was quarantined (unknown-8bit). Single-byte
files with few non-ASCII characters must stay what they are (hunt 45, F2, F3, L2)."""

from __future__ import annotations

import pytest

from transforms.decode import _word_is_nonsense


# ---------------------------------------------------------------------------- the word rule
@pytest.mark.parametrize("word", ["‚Ù‚©", "–¼", "°™", "°§", "¡ª", "¡°", "¡¤", "10¡Á10", "Lee¡¢Bo", "model¡¯s"])
def test_words_of_signs_that_cjk_bytes_make_are_nonsense(word):
    """What Shift-JIS "ほか", "名" and GBK's "—", "·", "“", "×", "、", "’" read as in Windows-1252
    and Mac Roman."""
    assert _word_is_nonsense(word)


@pytest.mark.parametrize("word", ["—", "–––", "…”", "’’", "“—”", "§§", "Lee†‡", "Lee¹²", "«\u00a0Oui\u00a0»", "½",
                                  "(±2)", "50°C", "nº", "Mª", "µm", "©IEEE", "“½”", "3½”", "“£5”", "¿Qué?", "¡Hola!", "„Wort“"])
def test_signs_western_text_writes_are_not_nonsense(word):
    assert not _word_is_nonsense(word)
