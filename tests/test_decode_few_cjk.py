"""A CJK file holding little CJK: an et-al ending as its only Japanese or Chinese ("ほか", "外 2 名",
"等 5 人"), or Western names written in GBK beside one of its punctuation marks ("—", "×", "·").
Each was read in a single-byte code page and its mojibake loaded as names ("Dongdong Chen ‚Ù‚©",
"Pierre-Andr®¶ Maugis", "Rodolš€"), or every record was quarantined (unknown-8bit). Single-byte
files with few non-ASCII characters must stay what they are (hunt 45, F2, F3, L2)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from transforms.decode import _looks_like_cjk_bytes, _word_is_nonsense, decode_bytes


def digest(authors: list[str], abstracts: list[str] | None = None, titles: list[str] | None = None) -> str:
    """A listing digest, one record per authors line."""
    abstracts = abstracts or [f"We study problem {i} and solve it well." for i in range(1, len(authors) + 1)]
    titles = titles or [f"A Study of Problem {i}" for i in range(1, len(authors) + 1)]
    return "".join(f"#{i:02d}Oct 26, 2026\ncs.LG\n{t}\n{a}\n{b}\n"
                   for i, (a, b, t) in enumerate(zip(authors, abstracts, titles), 1))


def assert_reads_back(text: str, codec: str, label: str) -> None:
    for newline in ("\n", "\r\n"):
        decoded = decode_bytes(text.replace("\n", newline).encode(codec))
        assert (decoded.encoding, decoded.text, decoded.n_bad_bytes) == (label, text, 0)


# Real names with diacritics that GBK writes (../shared/realdata, arxiv_daydayarxiv_csAI_listings).
GBK_NAMES = ["Pierre-André Maugis", "Emanuele Rodolà", "Jonas Kübler", "Rémi Munos", "Krzysztof Wróbel",
             "Allan Raventós", "José Hernández-Orallo", "Adrià Garriga-Alonso", "Niels Mündler",
             "Blaise Agüera y Arcas", "Vilém Zouhar", "Maciej Szymański", "Balázs Kulcsár", "Frank Noé",
             "Hal Daumé", "Takao Inoué", "Philomène Chagniot", "Pedro Reynolds-Cuéllar"]
# GBK's punctuation (row A1) that Western text writes: the report's five, and more of the row.
GBK_MARKS = ["—", "×", "·", "’", "“", "”", "‘", "…", "±", "°"]
# The et-al endings the parser reads (tests/test_clean.py, UNSAID_ENDINGS and COUNTED_ENDINGS).
JAPANESE_ENDINGS = ["ほか", "外 1 名", "外 2 名", "他 3 名", "他", "ほか 3 名", "等", "等 5 名"]
CHINESE_ENDINGS = ["等", "等 5 人", "等人", "他", "外 2 人"]


@pytest.mark.parametrize("ending", JAPANESE_ENDINGS)
def test_a_shift_jis_listing_whose_only_japanese_is_an_et_al_ending(ending):
    """Before: read as Windows-1252, "ほか" loaded as "Dongdong Chen ‚Ù‚©" (a person), "外 1 名" as
    "David Chanin ŠO 1 –¼", each list complete with the wrong total."""
    assert_reads_back(digest(["Ziru Chen, Dongdong Chen " + ending, "Ann Lee"]), "cp932", "shift_jis")


def test_the_reports_shift_jis_listing_with_two_endings():
    """rp/f2/sjis.txt: two real records, "ほか" and "外 1 名" its only Japanese."""
    text = digest(["Ziru Chen, Dongdong Chen ほか", "David Chanin 外 1 名"])
    assert_reads_back(text, "cp932", "shift_jis")


@pytest.mark.parametrize("ending", CHINESE_ENDINGS)
@pytest.mark.parametrize("names", ["Ann Lee, Bo Chen", "Krzysztof Wróbel, Allan Raventós, Pierre-André Maugis"])
def test_a_gbk_listing_whose_only_chinese_is_an_et_al_ending(names, ending):
    """gen2.py k: "等 5 人" and "等" with accented names in GBK: unknown-8bit, every record quarantined."""
    assert_reads_back(digest([f"{names} {ending}", "Ann Lee"]), "gbk", "gb18030")


def test_a_korean_et_al_ending_in_euc_kr():
    assert_reads_back(digest(["Ann Lee, Bo Chen 외 2 명", "Ann Lee"]), "euc_kr", "euc-kr")


@pytest.mark.parametrize("mark", GBK_MARKS)
@pytest.mark.parametrize("where", ["abstract", "title"])
def test_western_names_in_gbk_with_one_punctuation_mark(mark, where):
    """rp/f3, rp/f3b, rp/l2: "—" read as Mac Roman ("Pierre-Andr®¶ Maugis", "°™"), "×" as
    ISO-8859-15 ("Emanuele Rodolš€"), "’" as unknown-8bit (every record quarantined)."""
    sentence = f"On a 10{mark}10 grid." if mark == "×" else f"We study graphs {mark} random and real."
    authors = ["Gecia Bravo-Hermsdorff, Pierre-André Maugis", "Emanuele Rodolà, Luca Cosmo"]
    if where == "abstract":
        text = digest(authors, abstracts=[sentence, "We study problem 2."])
    else:
        text = digest(authors, titles=[sentence, "A Study of Problem 2"])
    assert_reads_back(text, "gbk", "gb18030")


def test_an_area_line_of_a_gbk_page_with_middle_dots():
    """gen2.py q: an area "Deep Learning · Graph Neural Networks" read as Mac Roman "°§"."""
    text = digest(["Emanuele Rodolà, Pierre-André Maugis"]).replace("cs.LG", "Deep Learning · Graph Neural Networks")
    assert_reads_back(text, "gbk", "gb18030")


@given(st.lists(st.sampled_from(GBK_NAMES), min_size=1, max_size=4),
       st.lists(st.sampled_from(GBK_MARKS), min_size=1, max_size=3),
       st.sampled_from(["", *CHINESE_ENDINGS]))
def test_any_gbk_listing_of_accented_names_with_punctuation_reads_back(names, marks, ending):
    abstracts = [f"Word {mark} word." for mark in marks]
    authors = [", ".join(names) + (" " + ending if ending else "")] + ["Ann Lee"] * (len(abstracts) - 1)
    assert_reads_back(digest(authors, abstracts=abstracts), "gbk", "gb18030")


@pytest.mark.parametrize("text,codec,label", [
    (digest(["Ziru Chen, Dongdong Chen ほか"], ["We rank 第 1 位 here."]), "cp932", "shift_jis"),
    (digest(["Pierre-André Maugis, Ann Lee"], ["We rank 第 1 名 here."]), "gbk", "gb18030"),
    (digest(["Bo Chen 외 2 명", "Kim 서울 대학교 외 3 명"]), "euc_kr", "euc-kr"),
])
def test_a_cjk_reading_without_nonsense_wins_over_single_byte_ones_with_some(text, codec, label):
    """Lone CJK characters besides an ending or a Western name: no runs of CJK characters to
    count on, but every single-byte reading holds nonsense ("µÚ 1 Ãû", "‚Ù‚©"), the CJK one none.
    The Korean file reads as common hanzi in GB18030 too ("辑匡 措切背"): its ending tells."""
    assert_reads_back(text, codec, label)


# ---------------------------------------------------------------------------- what must not change
@pytest.mark.parametrize("text,codec,label", [
    (digest(["Sean O’Brien"]), "cp1252", "windows-1252"),  # its only non-ASCII byte: one 0x92
    (digest(["Audun Jøsang, Pål Halvorsen", "Ann Lee"]), "latin-1", "windows-1252"),
    (digest(["Jørgen Berg"]), "latin-1", "windows-1252"),
    (digest(["Pål Nilsen"]), "latin-1", "windows-1252"),
    (digest(["Ann Lee"], ["Costs £5 — about ¥7 “here”, at 25 °C (±2) §3 †‡ ½”."]), "cp1252", "windows-1252"),
    (digest(["Łukasz Kaiser, Jarosław Drożdż", "Maciej Szymański"]), "cp1250", "windows-1250"),
    # Latin-1 whose bytes are valid Shift-JIS too (hunt 45, corpus d): "Nicol疽" in Shift-JIS
    (digest(["Nicolás Villagrán, Eduardo C. Garrido-Merchán", "Sékou-Oumar Kaba, Cengiz Öztireli",
             "Dæhli Álva"]), "latin-1", "windows-1252"),
])
def test_single_byte_files_with_few_non_ascii_letters_stay_so(text, codec, label):
    assert_reads_back(text, codec, label)


# ---------------------------------------------------------------------------- the word rule
@pytest.mark.parametrize("word", ["‚Ù‚©", "–¼", "°™", "°§", "¡ª", "¡°", "¡¤", "10¡Á10", "Lee¡¢Bo", "model¡¯s"])
def test_words_of_signs_that_cjk_bytes_make_look_like_cjk_bytes(word):
    """What Shift-JIS "ほか", "名" and GBK's "—", "·", "“", "×", "、", "’" read as in Windows-1252
    and Mac Roman: weighed against a CJK reading of the same bytes, not nonsense on their own."""
    assert _looks_like_cjk_bytes(f"see {word} here")


@pytest.mark.parametrize("word", ["—", "–––", "…”", "’’", "“—”", "§§", "Lee†‡", "Lee¹²", "«\u00a0Oui\u00a0»", "½",
                                  "(±2)", "50°C", "nº", "Mª", "µm", "©IEEE", "“½”", "3½”", "“£5”", "¿Qué?", "¡Hola!", "„Wort“"])
def test_signs_western_text_writes_are_not_nonsense(word):
    assert not _word_is_nonsense(word)


# The review (session 45): as nonsense on their own, Western sign words made another code page win.
WESTERN_SIGN_ABSTRACTS = ["We estimate the head pose with an accuracy of ±5° in azimuth.", "Ratios ±½ were used.",
                          "We trade the €/£ pair.", "Doses of ½–¾ a tablet.", "Ratios ¼–½ and ½–¾ of José's café.",
                          "Signal at 10¡ and values 1¿2.", "Drift of ~5°±1° per hour."]


@pytest.mark.parametrize("abstract", WESTERN_SIGN_ABSTRACTS)
@pytest.mark.parametrize("codec", ["cp1252", "latin-1"])
def test_western_sign_words_keep_their_code_page(abstract, codec):
    text = f"#01Oct 26, 2026\ncs.LG\nPose estimation in the wild\nJosé Núñez, Zoë Müller\n{abstract}\n"
    try:
        raw = text.encode(codec)
    except UnicodeEncodeError:
        pytest.skip(f"{codec} cannot write it")
    decoded = decode_bytes(raw)
    assert (decoded.text, decoded.encoding) == (text, "windows-1252")


def test_a_utf8_file_with_one_windows_line_keeps_its_utf8_sign_words():
    utf8 = ("#01Oct 26, 2026\ncs.LG\nA title\nJosé Núñez, Bo Chen\nWe estimate pose within ±5° of truth.\n"
            "#02Oct 26, 2026\ncs.LG\nAnother title\nAnn Lee\n")
    decoded = decode_bytes(utf8.encode() + "We study the café.\n".encode("cp1252"))
    assert (decoded.text, decoded.encoding) == (utf8 + "We study the café.\n", "utf-8+windows-1252")


# Chinese names written in GBK in a listing, read in a code page of a script without case: the
# case rules that make CJK bytes nonsense in Latin or Cyrillic ("ÀîÄÈ") see nothing in Thai or
# Hebrew, so "李娜, 吴婷" loaded as the Thai "ภ๎ฤศ, ฮโๆร" (hunt 50). Thai spelled so is no one's:
# a leading vowel before no consonant, a following vowel opening a word, Pali's yamakkan.
@pytest.mark.parametrize("names", ["李娜, 吴婷, Amir Reza Hashemi", "任凯睿, 肖钰帆, Ann Lee",
                                   "余璐钰, 叶超, Ann Lee", "谢婕, 许子, Bo Chen"])
def test_chinese_names_in_a_gbk_listing_are_not_read_as_thai(names):
    text = digest(["Yuanzhe Wang, Alexandre M. Tartakovsky", names, "Ann Lee"])
    decoded = decode_bytes(text.encode("gbk"))
    assert decoded.encoding != "windows-874"
    assert decoded.text == text or "\ufffd" in decoded.text  # read, or its record quarantined: never Thai


@pytest.mark.parametrize("word", ["ภ๎ฤศ", "ฮโๆร", "าฆพฒ", "เ่ก", "ก๏", "โา"])
def test_thai_no_one_writes_is_nonsense(word):
    assert _word_is_nonsense(word)


@pytest.mark.parametrize("word", ["สมชาย", "ใจดี", "สุดา", "รักไทย", "วิชัย", "ศรีสุข", "เก่ง", "ไม้", "น้ำ",
                                  "กี่", "มากๆ", "ฯลฯ", "แก้ว", "โชติ", "ปัญญา",
                                  "ๆ", "เเละ", "น้ํา", "ฤๅษี", "กรุงเทพฯ", "๒๕๖๗"])  # the review's: "ต่าง ๆ", "เเ" typed for "แ"
def test_thai_as_it_is_written_reads_as_words(word):
    assert not _word_is_nonsense(word)


def test_a_thai_abstract_with_its_repetition_mark_apart_reads_back():
    """The review of session 50: "ต่าง ๆ" (the Royal Institute writes ๆ apart) made the Windows-874
    file binary when ๆ could not open a word."""
    text = digest(["สมชาย ใจดี, Ann Lee", "สุดา แก้วมณี, Bo Chen"],
                  ["เราศึกษาวิธีการต่าง ๆ สำหรับการเรียนรู้ของเครื่อง และทดลองกับข้อมูลจริง", "We do it."])
    decoded = decode_bytes(text.encode("cp874"))
    assert (decoded.encoding, decoded.text) == ("windows-874", text)


def test_a_utf8_thai_abstract_beside_a_windows_1252_line_keeps_both():
    """The same review: the valid UTF-8 Thai line read as nonsense, so the file was utf-8-lossy."""
    text = digest(["สมชาย ใจดี, Ann Lee", "สุดา แก้วมณี, Bo Chen"],
                  ["เราศึกษาวิธีการต่าง ๆ สำหรับการเรียนรู้ของเครื่อง และทดลองกับข้อมูลจริง", "We study the café."])
    raw = b"\n".join(line.encode("cp1252" if "café" in line else "utf-8") for line in text.split("\n"))
    decoded = decode_bytes(raw)
    assert (decoded.encoding, decoded.text) == ("utf-8+windows-1252", text)
