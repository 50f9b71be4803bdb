"""Legacy single-byte code pages whose readings are all letters in another code page too: told
apart by whether each name part holds the letters of one language (transforms/decode.py,
`_language_log_p`), besides how often real names use each letter."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from transforms.decode import decode_bytes


def digest(authors: list[str]) -> str:
    return "".join(f"#{i:02d}Oct 26, 2026\ncs.LG\nA Study of Problem {i}\n{a}\nWe study problem {i} and solve it well.\n"
                   for i, a in enumerate(authors, 1))


@pytest.mark.parametrize("authors", [["Guðrún Sigurðardóttir, Þórður Ægisson"], ["Guðrún Sigurðardóttir"],
                                     ["Þórður Ægisson, Ann Lee", "Sigríður Þorsteinsdóttir"]])
def test_icelandic_in_windows_1252_is_not_read_as_turkish(authors):
    """Before: Windows-1254 ("Guğrún", "Şórğur") won, as real names hold more ğ and ş than ð
    and þ; those readings put Turkish letters beside Icelandic ú, ó and Æ, no one's name."""
    text = digest(authors)
    decoded = decode_bytes(text.encode("cp1252"))
    assert (decoded.encoding, decoded.text, decoded.n_bad_bytes) == ("windows-1252", text, 0)


@pytest.mark.parametrize("authors", [["Šarūnas Kęstutis, Jānis Bērziņš"], ["Jānis Bērziņš", "Rūta Meilutytė"],
                                     ["Kęstutis Šimkus, Ann Lee"]])
def test_baltic_windows_1257_is_read_as_windows_1257(authors):
    """Before: read as Windows-1252 ("Ðarûnas Kæstutis, Jânis Bçrziòð"), whose letters of one
    word no language writes together."""
    text = digest(authors)
    decoded = decode_bytes(text.encode("cp1257"))
    assert (decoded.encoding, decoded.text, decoded.n_bad_bytes) == ("windows-1257", text, 0)


def test_a_czech_name_alone_in_windows_1250():
    """Before: "Antonín Dvoøák": a word only Faroese writes, against Czech "Dvořák"."""
    text = digest(["Antonín Dvořák"])
    assert decode_bytes(text.encode("cp1250")).text == text


def test_a_windows_1250_line_in_a_utf8_file():
    """Before: the stray line read as Windows-1252, "Antonín Dvoøák, Jiøí Matas": ø beside á
    and í is only Faroese."""
    text = digest(["Zoë Müller", "Antonín Dvořák, Jiří Matas", "Ana Núñez"])
    lines = text.split("\n")
    raw = b"\n".join(line.encode("cp1250" if "Dvořák" in line else "utf-8") for line in lines)
    decoded = decode_bytes(raw)
    assert (decoded.encoding, decoded.text, decoded.n_bad_bytes) == ("utf-8+windows-1250", text, 0)


# Real names of each language, three or more written as a listing through its code page. Not
# Windows-1257: Baltic names whose letters read as one language's in Windows-1252 too ("Līga
# Ozoliņa": "Lîga Ozoliòa") outweigh a mixed word, as real names use ī, ņ, ē less than î, ò, ë.
LANGUAGES = {
    "cp1250": ["Antonín Dvořák", "Jiří Matas", "Tomáš Mikolov", "Łukasz Kaiser", "Paweł Dąbrowski",
               "Ondřej Čertík", "Ľubomír Šťastný", "Miloš Forman", "Bartłomiej Żak", "Zdeněk Kalal"],
    "cp1254": ["Çağlar Gülçehre", "Özgür Şimşek", "Ayşe Kaya", "Işıl Güler", "Gökhan Yıldız", "Şükrü Öztürk"],
    "cp1252": ["Guðrún Sigurðardóttir", "Þórður Ægisson", "Søren Hauberg", "José García", "Jürgen Müller",
               "François Chollet", "Bjørn Østman", "Håvard Rue", "Anna Ólafsdóttir", "Zoë Brontë"],
}


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(sorted(LANGUAGES)).flatmap(
    lambda cp: st.tuples(st.just(cp), st.lists(st.sampled_from(LANGUAGES[cp]), min_size=3, max_size=6, unique=True))))
def test_real_names_of_a_language_come_back_through_its_code_page(case):
    codec, names = case
    text = digest([", ".join(names[i:i + 2]) for i in range(0, len(names), 2)])
    label = {"cp1250": "windows-1250", "cp1254": "windows-1254", "cp1252": "windows-1252"}[codec]
    decoded = decode_bytes(text.encode(codec))
    assert (decoded.encoding, decoded.text) == (label, text)


# Signs Western abstracts glue to words; "µ", "ª", "º", "ƒ" and "ˆ" are letters to Unicode.
WESTERN_SIGNS = ["50 µm", "12 µs", "the nº of cases", "the 1ª edition", "±3 %", "37 °C", "½ of them", "3×3 grids",
                 "£20", "©IEEE", "“quoted”", "1.5 µg/mL", "the ƒ-divergence", "xˆ estimates"]


@pytest.mark.parametrize("authors,sign", [(["François Lefèvre, Jürgen Müller", "René Dupré, Bo Chen"], "50 µm"),
                                          (["José García, Inés López"], "the nº of households"),
                                          (["Ann Lee"], "the ƒ-divergence"), (["Ann Lee"], "xˆ estimates")])
def test_a_micro_or_ordinal_sign_keeps_a_windows_1252_file_western(authors, sign):
    """Before: "50 µm" read as nonsense (the micro sign, a letter of its own "script") and as no
    language's letter, so the file was read as Latin-2 ("50 ľm", "Lefčvre"); "nº" made it
    Windows-1250 ("nş"); "ƒ-divergence" made it Mac Roman ("É-divergence"), "xˆ" Windows-1251."""
    text = digest(authors).replace("solve it well", f"solve it well at {sign}", 1)
    decoded = decode_bytes(text.encode("cp1252"))
    assert (decoded.encoding, decoded.text, decoded.n_bad_bytes) == ("windows-1252", text, 0)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(LANGUAGES["cp1252"]), min_size=1, max_size=4, unique=True),
       st.lists(st.sampled_from(WESTERN_SIGNS), min_size=1, max_size=3))
def test_western_names_and_signs_come_back_through_windows_1252(names, signs):
    text = digest([", ".join(names[i:i + 2]) for i in range(0, len(names), 2)])
    text = text.replace("solve it well.", "solve it well, " + ", ".join(signs) + ".")
    decoded = decode_bytes(text.encode("cp1252"))
    assert (decoded.encoding, decoded.text) == ("windows-1252", text)


@pytest.mark.parametrize(("page", "authors"), [
    ("cp1250", ["Marko Petrović"]),  # was "Petroviæ"
    ("cp1250", ["Dragan Nikolić, Ann Lee", "Piotr Kamiński"]),  # was "Nikoliæ", "Kamiñski"
    ("cp1250", ["Agnieszka Wiśniewska, Marko Petrović"]),  # read right before too: two such names
    ("iso8859_2", ["Marko Petrović"]),  # was "Petroviæ"; Windows-1250 reads these bytes alike
    ("cp1257", ["Jonas Kazlauskas, Rūta Petrauskienė", "Marko Petrović"]),  # was "Rûta Petrauskienë", "Petroviã"
])
def test_a_letter_where_its_language_never_writes_it_is_another_code_pages(page, authors):
    """Before: read as Windows-1252, whose letters are real names' too (æ, ñ, ë), though not
    where they stand here: Danish æ ends no word after an i, Spanish ñ stands between vowels.
    The letters' sides in real names (transforms/name_letter_sides.csv) tell them apart."""
    text = digest(authors)
    decoded = decode_bytes(text.encode(page))
    assert (decoded.text, decoded.n_bad_bytes) == (text, 0)
    assert decoded.encoding != "windows-1252"


@pytest.mark.parametrize("authors", [["José Muñoz"], ["Íñigo Peña, Ana Núñez"], ["Kari Sæther"], ["Bjørn Dæhlen"],
                                     ["Søren Højsgaard"], ["François Lefèvre"], ["Zoë Müller"]])
def test_western_names_where_their_languages_write_them_stay_windows_1252(authors):
    text = digest(authors)
    decoded = decode_bytes(text.encode("cp1252"))
    assert (decoded.encoding, decoded.text) == ("windows-1252", text)


@pytest.mark.parametrize("page", ["cp1253", "iso8859_7"])
def test_a_greek_letter_alone_in_math_is_read_in_a_greek_code_page(page):
    """Before: the seed listing whose only non-ASCII letter is the λ of "TD($λ$)" read as
    Windows-1252 "TD($ë$)": chardet, given the word "TD($λ$)", liked Windows-1252, as it reads no
    language in one lone byte; the lone byte now goes to the letter tables only, where an "ë"
    alone between dollars is far rarer than a Greek letter."""
    text = digest(["Ann Lee"]).replace("solve it well", "solve it well with TD($λ$) updates", 1)
    decoded = decode_bytes(text.encode(page))
    assert (decoded.text, decoded.n_bad_bytes) == (text, 0)


@pytest.mark.parametrize("authors", [["Auður Ava Ólafsdóttir"], ["Þorvaldur Gylfason"], ["Heiðar Helguson, Ann Lee"]])
def test_a_letter_the_sides_table_never_saw_says_nothing_by_its_sides(authors):
    """Review of session 51: real names hold no Icelandic ð or þ, so their sides were the average
    letter's, while Turkish ğ stands between vowels in most names that hold it: "Auður" in
    Windows-1252 read as Windows-1254 "Auğur", "Þorvaldur" as "Şorvaldur". A letter the sides
    table has not seen is weighed by its own frequency only."""
    text = digest(authors)
    decoded = decode_bytes(text.encode("cp1252"))
    assert (decoded.encoding, decoded.text) == ("windows-1252", text)
