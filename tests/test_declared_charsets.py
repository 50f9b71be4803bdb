"""What e-mails and pages declare of their charset, read as mail clients and browsers read it.

Found by a hostile hunt (session 45): Outlook's "charset=iso-8859-1" over Windows-1252 bytes loaded
“ ” ’ as invisible C1 controls; a base64 body under a wrong label lost its records to U+FFFD; a
saved mailbox ("From " line first) was one "unknown format" span; a Shift-JIS page saved by a
browser (its CJK written as character references) was lost whole, its <meta charset> unread."""

from __future__ import annotations

import base64
import html
import quopri
from email.message import EmailMessage

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from transforms.decode import REPLACEMENT, decode_bytes

# Real names and abstracts' punctuation that Windows-1252 holds in 0x80-0x9F (C1 in Latin-1).
WINDOWS_PUNCTUATION = "“”‘’–—…€™•"


def listing(authors: list[str], abstracts: list[str]) -> str:
    return "".join(f"#{i:02d}Feb 10, 2026\ncs.CL\nA Study of Problem {i}\n{a}\n{b}\n"
                   for i, (a, b) in enumerate(zip(authors, abstracts), 1))


OUTLOOK_TEXT = listing(["Jürgen Müller, Pierre-André Maugis", "Anke Döring, Ann Lee"],
                       ["“Code” is public; it’s MIT-licensed – see the repo…", "We cost €5 per query™ • twice."])
HEADERS = ("From: digest@example.org\nSubject: Today\nMIME-Version: 1.0\n"
           "Content-Type: text/plain; charset={}\nContent-Transfer-Encoding: quoted-printable\n\n")


def no_c1(text: str) -> bool:
    return not any("\x80" <= ch <= "\x9f" for ch in text)


@pytest.mark.parametrize("label", ["iso-8859-1", "ISO-8859-1", '"latin1"', "us-ascii", "windows-1252"])  # us-ascii: detected
def test_windows_bytes_under_a_western_label_in_a_quoted_printable_body(label):
    raw = (HEADERS.format(label) + quopri.encodestring(OUTLOOK_TEXT.encode("cp1252")).decode()).encode()
    decoded = decode_bytes(raw)
    assert decoded.text.endswith(OUTLOOK_TEXT) and no_c1(decoded.text)
    assert decoded.encoding == "windows-1252+quoted-printable"


@pytest.mark.parametrize("cte", ["base64", "quoted-printable"])
def test_windows_bytes_under_latin1_in_a_multipart_message(cte):
    m = EmailMessage()
    m["From"], m["Subject"] = "bot@example.org", "Digest"
    m.set_content(OUTLOOK_TEXT.encode("cp1252"), maintype="text", subtype="plain", cte=cte,
                  params={"charset": "iso-8859-1"})
    m.add_alternative("<html><body>see the text part</body></html>", subtype="html")
    decoded = decode_bytes(bytes(m))
    assert decoded.text.split("\n\n", 1)[1] == OUTLOOK_TEXT
    assert decoded.encoding == f"windows-1252+{cte}+multipart"


def test_utf8_bytes_under_a_western_label_are_utf8():
    raw = (HEADERS.format("iso-8859-1") + quopri.encodestring(OUTLOOK_TEXT.encode()).decode()).encode()
    decoded = decode_bytes(raw)
    assert decoded.text.endswith(OUTLOOK_TEXT) and decoded.encoding == "utf-8+quoted-printable"


SEARCH_PAGE = ("论文检索\n\n[Deep Learning · Graph Neural Networks]\nEmanuele Rodolà, Luca Cosmo, 张伟 等\n"
               "On a 10×10 grid we study graphs — random and real.\n\n"
               "[Social Aspects]\nPierre-André Maugis\nWe ask who is counted.\n")


@pytest.mark.parametrize("text,codec", [(OUTLOOK_TEXT, "cp1252"), (SEARCH_PAGE, "gb18030")])
def test_a_base64_body_under_a_wrong_label_is_read_by_detection(text, codec):
    m = EmailMessage()
    m["From"] = "bot@example.org"
    m.set_content(text.encode(codec), maintype="text", subtype="plain", cte="base64", params={"charset": "utf-8"})
    decoded = decode_bytes(bytes(m))
    assert REPLACEMENT not in decoded.text and decoded.n_bad_bytes == 0
    assert decoded.text.split("\n\n", 1)[1] == text


@pytest.mark.parametrize("label", ["gb2312", "GBK"])
def test_a_chinese_label_reads_gbk_and_gb18030_bytes(label):
    """Chinese mailers label GBK "gb2312"; "·" and "×" are outside GB2312's Western rows."""
    raw = (HEADERS.format(label) + quopri.encodestring(SEARCH_PAGE.encode("gb18030")).decode()).encode()
    decoded = decode_bytes(raw)
    assert decoded.text.endswith(SEARCH_PAGE) and decoded.encoding == "gb18030+quoted-printable"


def mbox_message(sender: str, text: str, charset: str = "utf-8") -> str:
    body = base64.encodebytes(text.encode(charset)).decode()
    return (f"From {sender} Thu Feb  5 06:00:00 2026\nFrom: Digest <{sender}>\nSubject: new listings\n"
            f"MIME-Version: 1.0\nContent-Type: text/plain; charset=\"{charset}\"\n"
            f"Content-Transfer-Encoding: base64\n\n{body}\n")


def header_lines(message: str) -> str:
    return message.split("\n\n", 1)[0] + "\n\n"


def test_a_saved_mailbox_of_one_message():
    message = mbox_message("bot@example.org", OUTLOOK_TEXT)
    decoded = decode_bytes(message.encode())
    assert decoded.text == header_lines(message) + OUTLOOK_TEXT
    assert decoded.encoding == "utf-8+base64"


def test_a_saved_mailbox_of_several_messages_keeps_each_in_file_order():
    texts = [OUTLOOK_TEXT, SEARCH_PAGE, listing(["Zoë Núñez"], ["Plain words."])]
    messages = [mbox_message(f"bot{i}@example.org", t, c) for i, (t, c) in
                enumerate(zip(texts, ["utf-8", "gb18030", "iso-8859-1"]))]
    decoded = decode_bytes("".join(messages).encode())
    assert decoded.text == "".join(header_lines(m) + t.rstrip("\n") + "\n\n" for m, t in zip(messages, texts)).rstrip("\n") + "\n"
    assert decoded.encoding == "utf-8+base64+mbox" and decoded.n_bad_bytes == 0


def browser_saved_page(text: str, codec: str) -> bytes:
    """A page as a browser saves it in a legacy code page: what the code page lacks is written
    as numeric character references."""
    body = html.escape(text, quote=False).encode(codec, errors="xmlcharrefreplace")
    return (f'<html><head><meta http-equiv="Content-Type" content="text/html; charset={codec}">'
            "</head><body><pre>\n").encode("ascii") + body + b"</pre></body></html>\n"


@pytest.mark.parametrize("codec,label", [("shift_jis", "shift_jis"), ("gbk", "gb18030"), ("euc-kr", "cp949")])
def test_a_saved_page_is_read_with_its_meta_charset(codec, label):
    """The marker and accents come as references; only "等" (and "·", "×", "—") are the code page's bytes."""
    decoded = decode_bytes(browser_saved_page(SEARCH_PAGE, codec))
    assert decoded.text.strip("\n") == SEARCH_PAGE.strip("\n")
    assert decoded.encoding == f"{label}+html"


def test_a_meta_charset_the_bytes_do_not_hold_leaves_detection_to_decide():
    page = browser_saved_page(OUTLOOK_TEXT, "cp1252").replace(b"charset=cp1252", b"charset=utf-8")
    decoded = decode_bytes(page)
    assert decoded.text.strip("\n") == OUTLOOK_TEXT.strip("\n") and decoded.encoding == "windows-1252+html"


def test_a_utf8_page_keeps_utf8_whatever_its_meta_says():
    page = browser_saved_page(SEARCH_PAGE, "utf-8").replace(b"charset=utf-8", b"charset=iso-8859-1")
    decoded = decode_bytes(page)
    assert decoded.text.strip("\n") == SEARCH_PAGE.strip("\n") and decoded.encoding == "utf-8+html"


@given(st.lists(st.sampled_from(["Jürgen Müller", "Anke Döring", "Zoë Núñez", "Ann Lee", "Sébastien Bubeck"]),
                min_size=1, max_size=4),
       st.text(alphabet="abc XYZ.,;" + WINDOWS_PUNCTUATION + "éüñ", min_size=1, max_size=60),
       st.sampled_from(["iso-8859-1", "us-ascii", "windows-1252"]),
       st.sampled_from(["base64", "quoted-printable"]))
@example(["Ann Lee"], "é", "us-ascii", "base64")
@example(["Ann Lee"], "é––", "iso-8859-1", "base64")  # valid UTF-8 by accident: "陖"  # the full suite's draw: a lone letter, read as in any file
def test_any_windows_text_under_a_western_label_reads_as_written(names, abstract, label, cte):
    text = listing([", ".join(names)], [abstract.strip() or "x"])
    m = EmailMessage()
    m["From"] = "bot@example.org"
    m.set_content(text.encode("cp1252"), maintype="text", subtype="plain", cte=cte, params={"charset": label})
    decoded = decode_bytes(bytes(m))
    body = decoded.text.split("\n\n", 1)[1]
    assert no_c1(decoded.text)
    # "us-ascii" claims nothing of 8-bit bytes: they are read as the same bytes without a label
    # (a lone "é" is weighed as a symbol, Greek "ι", as in any file: README, Encodings).
    assert body == (decode_bytes(text.encode("cp1252")).text if label == "us-ascii" else text)


def test_chinese_bytes_under_us_ascii_are_read_by_detection():
    """"us-ascii" is a mailer's default, not a claim: bytes it does not hold are detected (as
    Windows-1252 they would read as "ÂÛÎÄ¼ìË÷")."""
    raw = (HEADERS.format("us-ascii") + quopri.encodestring(SEARCH_PAGE.encode("gb18030")).decode()).encode()
    decoded = decode_bytes(raw)
    assert decoded.text.endswith(SEARCH_PAGE) and decoded.encoding == "gb18030+quoted-printable"


def test_a_chinese_page_under_a_templates_western_meta_keeps_its_chinese_reading():
    text = SEARCH_PAGE + "\n[Deep Learning · Attention]\n王芳、李娜、张伟\n我们研究了大规模语言模型的数据与方法。\n"
    page = browser_saved_page(text, "gb18030").replace(b"charset=gb18030", b"charset=iso-8859-1")
    decoded = decode_bytes(page)
    assert decoded.text.strip("\n") == text.strip("\n") and decoded.encoding == "gb18030+html"


def test_a_single_byte_page_under_a_templates_other_single_byte_meta_keeps_its_reading():
    """The review: a Windows-1251 page with a template's "iso-8859-1" meta loaded "Èâàí Ïåòðîâ"."""
    text = listing(["Иван Петров, Анна Смирнова"], ["Мы изучаем устойчивость нейронных сетей."])
    page = browser_saved_page(text, "cp1251").replace(b"charset=cp1251", b"charset=iso-8859-1")
    decoded = decode_bytes(page)
    assert decoded.text.strip("\n") == text.strip("\n") and decoded.encoding == "windows-1251+html"


def test_a_quoted_printable_html_part_keeps_its_declared_charset_over_its_meta():
    html_text = browser_saved_page(OUTLOOK_TEXT, "cp1252").replace(b"charset=cp1252", b"charset=iso-8859-2")
    raw = (HEADERS.replace("text/plain", "text/html").format("windows-1252") + quopri.encodestring(html_text).decode()).encode()
    decoded = decode_bytes(raw)
    assert decoded.text.endswith(OUTLOOK_TEXT.rstrip("\n") + "\n") or decoded.text.rstrip("\n").endswith(OUTLOOK_TEXT.rstrip("\n"))


def test_a_mailbox_keeps_each_message_s_own_blank_lines():
    """Plain 8-bit messages: line numbers are the file's (one blank line was forced between them)."""
    first = "From a@example.org Thu Feb  5 06:00:00 2026\nFrom: a@example.org\nSubject: one\n\n" + OUTLOOK_TEXT + "\n\n\n"
    second = "From b@example.org Thu Feb  5 07:00:00 2026\nFrom: b@example.org\nSubject: two\n\n" + OUTLOOK_TEXT
    text = first + second
    decoded = decode_bytes(text.encode())
    assert decoded.text == text


def test_a_from_line_in_a_body_before_a_url_does_not_split_the_message():
    """An unescaped "From " line in a plain body (mbox writers escape it as ">From "; some do not)."""
    body = OUTLOOK_TEXT.replace("see the repo…", "see the repo…\nFrom here on the code is at\nhttps://example.org/x")
    first = "From a@example.org Thu Feb  5 06:00:00 2026\nFrom: a@example.org\nSubject: one\n\n" + body + "\n"
    second = "From b@example.org Thu Feb  5 07:00:00 2026\nFrom: b@example.org\nSubject: two\n\n" + OUTLOOK_TEXT
    decoded = decode_bytes((first + second).encode())
    assert decoded.text == first + second and decoded.encoding == "utf-8+mbox"


def test_utf8_bytes_under_any_single_byte_label_are_utf8():
    for label in ("iso-8859-15", "windows-1250", "koi8-r"):
        raw = (HEADERS.format(label) + quopri.encodestring(OUTLOOK_TEXT.encode()).decode()).encode()
        decoded = decode_bytes(raw)
        assert decoded.text.endswith(OUTLOOK_TEXT) and decoded.encoding == "utf-8+quoted-printable", label


@pytest.mark.parametrize("abstract", ["Die Straße… ist lang.", "é––", "We cite Müller–Schön—Å° here."])
def test_windows_text_valid_as_utf8_by_accident_keeps_its_label(abstract):
    text = listing(["Jürgen Müller"], [abstract])
    raw = (HEADERS.format("iso-8859-1") + quopri.encodestring(text.encode("cp1252")).decode()).encode()
    decoded = decode_bytes(raw)
    assert decoded.text.endswith(text) and decoded.encoding == "windows-1252+quoted-printable"


@pytest.mark.parametrize("codec,label", [("shift_jis", "shift_jis"), ("euc-kr", "cp949")])
def test_an_xhtml_page_is_read_with_its_xml_declaration(codec, label):
    """The kind of the <meta> case: an XHTML page declares its encoding in its XML declaration."""
    body = html.escape(SEARCH_PAGE, quote=False).encode(codec, errors="xmlcharrefreplace")
    page = (f'<?xml version="1.0" encoding="{codec}"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><body><pre>\n'
            ).encode("ascii") + body + b"</pre></body></html>\n"
    decoded = decode_bytes(page)
    assert decoded.text.strip("\n") == SEARCH_PAGE.strip("\n") and decoded.encoding == f"{label}+html"


# Big5 bytes that happen to be valid UTF-8 and read as letters so: "羅羅" (Lolo, an old name of the
# Yi people) is "ùù".
BIG5_VALID_AS_UTF8 = listing(["Ann Lee, Bo Chen"], ["We date manuscripts of the Lolo (羅羅) script of the Yi people."])


@pytest.mark.parametrize("label", ["big5", "cp950", "big5-hkscs", "ms950"])
def test_any_cjk_label_keeps_its_reading_of_bytes_valid_as_utf8_by_accident(label):
    """Every CJK codec is multi-byte to the charset rules, by what its decoder is rather than by
    a list: "cp950" (Windows Big5) was not on the list, so read as a single-byte label, and a Big5
    word valid as UTF-8 loaded as "Lolo (ùù)"."""
    raw = (HEADERS.format(label) + quopri.encodestring(BIG5_VALID_AS_UTF8.encode("cp950")).decode()).encode()
    decoded = decode_bytes(raw)
    assert decoded.text.endswith(BIG5_VALID_AS_UTF8), decoded.text[-80:]
