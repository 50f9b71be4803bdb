"""Issue 12, items 7, 8 and the text half of 10: bytes decoded correctly, through the real CLI.

One folder of hostile files, one `digest ingest` (module fixture), then `digest query` and
`digest audit` answer each case: legacy encodings (Latin-1, Windows-1252, Shift-JIS, GBK,
Windows-1251, KOI8-R, Mac Roman, a UTF-8 file with Windows-1252 lines or one stray byte), bytes
that read as nonsense in every encoding, NUL bytes (one inside a record, trailing padding, a
padding that cut the last record), UTF-16 without a BOM, real binaries, quoted-printable e-mail
bodies and HTML pages. Every file's records are unique (its name is in each title and
abstract), so a file's papers are its own.
"""

from __future__ import annotations

import codecs
import html
import json
import quopri
import zlib
from pathlib import Path

import pytest
from tests.support.cli import digest_cli, json_query

pytestmark = pytest.mark.usefixtures("prefect_harness")

FIRST_NAMES = ["Ann", "Bo", "Carl", "Dora", "Emil", "Fay", "Gus", "Hana", "Ivo", "Jun"]


def records(case: str, n: int, authors: dict[int, str] | None = None, titles: dict[int, str] | None = None):
    """n listing records of one case: (category, title, authors, abstract); record i (1-based)
    can be given its own authors line or title."""
    authors, titles = authors or {}, titles or {}
    out = []
    for i in range(1, n + 1):
        name = f"{FIRST_NAMES[i % 10]} {case.title().replace('_', '')}{i}"
        out.append(("cs.LG", titles.get(i, f"Study {i} of the {case} case"), authors.get(i, f"{name}, Zed Quinn"),
                    f"We look at question {i} of the {case} case and find an answer that holds up well."))
    return out


def listing(recs) -> str:
    return "\n".join(f"#{i:02d}Oct 26, 2026\n{c}\n{t}\n{a}\n{x}" for i, (c, t, a, x) in enumerate(recs, 1)) + "\n"


def search_page(case: str, authors: list[str]) -> str:
    blocks = [f"Machine Learning · Theory\n\n{a}\n\nWe study search record {i} of the {case} case: trees & graphs."
              for i, a in enumerate(authors, 1)]
    return "论文检索\n\n" + "\n\n".join(blocks) + "\n"


# ---------------------------------------------------------------------------- the corpus
# file name → (bytes, expected encoding, expected listings, expected quarantine reasons (regex
# per row, sorted by line), strings that must appear among its titles and author names)
CASES: dict[str, tuple[bytes, str, int, list[str], list[str]]] = {}


def case(name: str, raw: bytes, encoding: str, n_listings: int, reasons: list[str], shown: list[str]) -> None:
    CASES[name] = (raw, encoding, n_listings, reasons, shown)


# item 7: legacy encodings
case("latin1.txt", listing(records("latin1", 4, {1: "Jürgen Müller, François Lefèvre", 3: "Åsa Ström, Zoë Núñez"},
                                   {2: "Schrödinger Bridges for Señor Models"})).encode("latin-1"),
     "windows-1252", 4, [], ["Jürgen Müller", "François Lefèvre", "Åsa Ström", "Zoë Núñez", "Schrödinger Bridges"])
case("cp1252_quotes.txt", listing(records("quotes", 3, {2: "Sean O’Brien, Zoë Smith"},
                                          {1: "“Attention” Isn’t All — You Need…"})).encode("cp1252"),
     "windows-1252", 3, [], ["Sean O’Brien", "“Attention” Isn’t All — You Need…"])
case("latin1_symbols.txt", listing(records("symbols", 4, titles={
    1: "©IEEE Standards for Learning", 2: "¥Yen and £Pound Forecasting", 3: "§Section Models", 4: "Rates of 5°C"})
).encode("latin-1"), "windows-1252", 4, [], ["©IEEE Standards for Learning", "¥Yen and £Pound Forecasting",
                                             "§Section Models"])
case("shift_jis.txt", listing(records("sjis", 3, {1: "山田太郎, 佐藤花子", 3: "鈴木一郎, Ann Lee"})).encode("shift_jis"),
     "shift_jis", 3, [], ["山田太郎", "佐藤花子", "鈴木一郎"])
case("gbk_listing.txt", listing(records("gbk", 3, {1: "张三, 李四", 2: "王五, Ann Lee"})).encode("gbk"),
     "gb18030", 3, [], ["张三", "李四", "王五"])
case("gb18030_search.txt", search_page("gbsearch", ["张三, 李四", "Jürgen Müller, Ann Lee"]).encode("gb18030"),
     "gb18030", 2, [], ["张三", "Jürgen Müller"])
case("cp1251.txt", listing(records("cyrillic", 3, {1: "Иван Петров, Сергей Иванов"})).encode("cp1251"),
     "windows-1251", 3, [], ["Иван Петров", "Сергей Иванов"])
case("koi8r.txt", listing(records("koi", 3, {2: "Ольга Смирнова, Пётр Ильич"})).encode("koi8_r"),
     "koi8-r", 3, [], ["Ольга Смирнова", "Пётр Ильич"])
case("mac_roman.txt", listing(records("mac", 3, {1: "Jürgen Müller, François Lefèvre"})).encode("mac_roman"),
     "mac-roman", 3, [], ["Jürgen Müller", "François Lefèvre"])
case("cp1250.txt", listing(records("polish", 3, {1: "Łukasz Wójcik, Paweł Żak"})).encode("cp1250"),
     "windows-1250", 3, [], ["Łukasz Wójcik", "Paweł Żak"])
# A UTF-8 file that got one record pasted from a Windows-1252 file; one with a single stray 0x92.
_mixed = records("mixed", 3, {1: "Jürgen Müller, Zoë Smith"})
case("mixed_utf8_cp1252.txt", listing(_mixed[:1]).encode() + listing(
    records("mixed", 3, {2: "Anke Döring, Sean O’Brien"})[1:2]).replace("#01", "#02").encode("cp1252")
     + listing(_mixed[2:]).replace("#01", "#03").encode(),
     "utf-8+windows-1252", 3, [], ["Jürgen Müller", "Anke Döring", "Sean O’Brien"])
case("stray_0x92.txt", listing(records("stray", 3, {1: "Zoë Smith, Ann Lee"}, {2: "Why It Doesn’t Work"}))
     .encode().replace("’".encode(), b"\x92"), "utf-8+windows-1252", 3, [], ["Why It Doesn’t Work", "Zoë Smith"])
# Bytes that read as nonsense in every encoding: that record is quarantined, not loaded.
case("nonsense.txt", listing(records("nonsense", 3)).encode().replace(b"Dora Nonsense3", b"\xd0\x9f\x8f\xa0\x9d\xe4llo"),
     "unknown-8bit", 2, [r"^undecodable bytes in record$"], [])

# item 8: NUL bytes
_twenty = listing(records("nul", 20)).encode()
_rec11 = _twenty.index(b"#11")
case("nul_in_record_11.txt", _twenty[:_rec11 + 40] + b"\x00" + _twenty[_rec11 + 40:], "utf-8-lossy", 19,
     [r"^undecodable bytes in record$"], [])
case("nul_padding.txt", listing(records("padding", 20)).encode() + b"\x00" * 4096, "utf-8", 20,
     [r"^trailing NUL padding: 4096 bytes removed$"], [])
_cut = listing(records("cutpad", 20)).encode()
case("nul_padding_cut.txt", _cut[:-30] + b"\x00" * 2048, "utf-8-lossy", 19,
     [r"^trailing NUL padding: 2048 bytes removed$", r"^undecodable bytes in record$"], [])
case("utf16le_nobom.txt", listing(records("sixteen", 3, {1: "Jürgen Müller, 张三"})).encode("utf-16-le"),
     "utf-16-le", 3, [], ["Jürgen Müller", "张三"])
case("utf16be_nobom.txt", listing(records("sixteenbe", 3)).encode("utf-16-be"), "utf-16-be", 3, [], [])
case("utf16_padding.txt", codecs.BOM_UTF16_LE + listing(records("sixteenpad", 2)).encode("utf-16-le") + b"\x00" * 512,
     "utf-16", 2, [r"^trailing NUL padding: 512 bytes removed$"], [])
# Real binaries stay binary.
_png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x10\x00\x00\x00\x10\x08\x02" + zlib.compress(bytes(range(256)) * 8)
_pdf = (b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Length 300 /Filter /FlateDecode >>\nstream\n"
        + zlib.compress(listing(records("pdf", 2)).encode()) + b"\nendstream\nendobj\n%%EOF\n")
_elf = b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 8 + b"\x02\x00\x3e\x00\x01\x00\x00\x00" + bytes(range(256)) * 4
for _name, _raw in [("image.png", _png), ("paper.pdf", _pdf), ("a.out", _elf)]:
    case(_name, _raw, "binary", 0, [r"^binary file$"], [])

# item 10 (text half): quoted-printable e-mail bodies, HTML pages
_qp_text = listing(records("quoted", 3, {1: "Jürgen Müller, François Lefèvre"},
                                 {2: "A Very Long Title That an E-mail Client Would Surely Break Over Two Lines "
                                     "Because It Is Longer Than Seventy-Six Characters = Soft Break"}))
_headers = ("From: digest@example.org\nTo: you@example.org\nSubject: Your digest\nMIME-Version: 1.0\n"
            "Content-Type: text/plain; charset=\"{}\"\nContent-Transfer-Encoding: quoted-printable\n\n")
case("qp_mail.eml", (_headers.format("utf-8") + quopri.encodestring(_qp_text.encode()).decode()).encode(),
     "utf-8+quoted-printable", 3, [r"before the first record|preamble|header"], ["Jürgen Müller", "François Lefèvre",
                                                                                "Seventy-Six Characters = Soft Break"])
case("qp_latin1.eml", (_headers.format("iso-8859-1") + quopri.encodestring(
    listing(records("qplatin", 2, {2: "Zoë Núñez, Ann Lee"})).encode("latin-1")).decode()).encode(),
     "windows-1252+quoted-printable", 2, [r"before the first record|preamble|header"], ["Zoë Núñez"])
case("qp_bare.txt", quopri.encodestring(listing(records("qpbare", 3, {3: "Jürgen Müller, Anke Döring"})).encode()),
     "utf-8+quoted-printable", 3, [], ["Jürgen Müller", "Anke Döring"])


def _multipart() -> bytes:
    from email.message import EmailMessage

    text = listing(records("multipart", 3, {2: "Jürgen Müller, Zoë Núñez"}))
    m = EmailMessage()
    m["From"], m["Subject"] = "digest@example.org", "Your digest"
    m.set_content(text, cte="quoted-printable")
    m.add_alternative(f"<html><body><pre>{html.escape(text)}</pre></body></html>", subtype="html",
                      cte="quoted-printable")
    return bytes(m)


case("mime_multipart.eml", _multipart(), "utf-8+quoted-printable+multipart", 3,
     [r"before the first record|preamble|header"], ["Jürgen Müller", "Zoë Núñez"])
_html_text = listing(records("html", 3, {1: "Jürgen Müller, Ann O’Neil"}, {2: "Graphs & Trees: \"Quoted\" if a<b"}))
case("page_pre.html", ("<!DOCTYPE html>\n<html><head><title>Digest</title><style>pre {color: red}</style></head>\n"
                       f"<body><h1>Today</h1>\n<pre>\n{html.escape(_html_text)}</pre>\n</body></html>\n").encode(),
     "utf-8+html", 3, [r"before the first record|preamble|header|outside"], ["Graphs & Trees: \"Quoted\" if a<b",
                                                                         "Jürgen Müller", "Ann O’Neil"])
_search = search_page("htmlsearch", ["Jürgen Müller, Ann Lee", "张三, Bo Chen"])
case("page_p.htm", ("<html><body>\n" + "".join(f"<p>{html.escape(block)}</p>\n" for block in _search.strip().split("\n\n"))
                    + "</body></html>\n").encode(), "utf-8+html", 2, [], ["Jürgen Müller", "张三", "trees & graphs"])
case("page_br.html", ("<html><body>\n" + "".join(f"{html.escape(line)}<br>\n" for line in _html_text.split("\n"))
                      + "</body></html>\n").encode("cp1252", errors="xmlcharrefreplace"),
     "windows-1252+html", 3, [], ["Graphs & Trees: \"Quoted\" if a<b", "Jürgen Müller", "Ann O’Neil"])
case("page_no_digest.html", b"<html><body><p>Nothing to see &amp; nothing to load.</p></body></html>\n",
     "utf-8+html", 0, [r"^unknown format \(an HTML page\)$"], [])


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("encodings") / "in"
    folder.mkdir()
    for name, (raw, *_rest) in CASES.items():
        (folder / name).write_bytes(raw)
    return folder


@pytest.fixture(scope="module")
def cli():
    with digest_cli() as run:
        yield run


@pytest.fixture(scope="module")
def warehouse(cli, corpus, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("encodings_wh") / "w.duckdb"
    result = cli("ingest", corpus, "--warehouse", path)
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture(scope="module")
def query(cli, warehouse):
    return json_query(cli, warehouse)


@pytest.fixture(scope="module")
def files(query) -> dict[str, dict]:
    rows = query("SELECT path, encoding, n_listings, n_quarantined FROM dim_source_file")
    return {Path(r["path"]).name: r for r in rows}


@pytest.fixture(scope="module")
def shown(query) -> dict[str, set[str]]:
    """Per file: every title, abstract and author name its listings show."""
    rows = query("""
        SELECT f.path, p.title AS text FROM fact_listing l JOIN dim_paper p USING (paper_id)
        JOIN dim_source_file f USING (source_file_id) WHERE p.title IS NOT NULL
        UNION ALL
        SELECT f.path, p.abstract FROM fact_listing l JOIN dim_paper p USING (paper_id)
        JOIN dim_source_file f USING (source_file_id)
        UNION ALL
        SELECT f.path, a.name FROM fact_listing l JOIN bridge_paper_author b USING (paper_id)
        JOIN dim_author a USING (author_id) JOIN dim_source_file f USING (source_file_id)""")
    out: dict[str, set[str]] = {}
    for r in rows:
        out.setdefault(Path(r["path"]).name, set()).add(r["text"])
    return out


def test_every_line_is_accounted_for(cli, warehouse):
    result = cli("audit", "--warehouse", warehouse, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert {r["status"] for r in report} == {"ok"}, [r for r in report if r["status"] != "ok"]
    assert {Path(r["path"]).name for r in report} == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_file_decodes_to_its_encoding_and_loads_its_records(files, name):
    _raw, encoding, n_listings, _reasons, _shown = CASES[name]
    got = files[name]
    assert (got["encoding"], got["n_listings"]) == (encoding, n_listings)


@pytest.mark.parametrize("name", sorted(CASES))
def test_each_file_quarantines_only_what_is_damaged(query, name):
    reasons = CASES[name][3]
    rows = query(f"SELECT line_start, line_end, reason FROM quarantine WHERE path LIKE '%/{name}' "
                 "ORDER BY line_start, reason DESC")
    assert len(rows) == len(reasons), rows
    import re

    for row, pattern in zip(rows, reasons):
        assert re.search(pattern, row["reason"]), (row, pattern)


@pytest.mark.parametrize("name", sorted(n for n, c in CASES.items() if c[4]))
def test_names_and_titles_survive(shown, name):
    got = shown.get(name, set())
    for text in CASES[name][4]:
        assert any(text in s for s in got), (text, sorted(got))


def test_no_mojibake_or_encoded_text_is_loaded(shown):
    bad = ["\ufffd", "=C3", "=FC", "=\n", "&amp;", "&lt;", "&quot;", "<br", "<pre", "Ã", "㊣", "\x00"]
    loaded = {(name, s) for name, texts in shown.items() for s in texts}
    assert not [(name, s) for name, s in loaded if any(b in s for b in bad)]


def test_the_damaged_record_is_the_one_quarantined(query):
    """The NUL is inside record 11 (lines 51–55): only that span is quarantined."""
    rows = query("SELECT line_start, line_end, raw_text FROM quarantine WHERE path LIKE '%/nul_in_record_11.txt'")
    assert [(r["line_start"], r["line_end"]) for r in rows] == [(51, 55)]
    assert rows[0]["raw_text"].startswith("#11Oct 26, 2026")
    positions = query("SELECT list(position ORDER BY position) AS p FROM fact_listing l "
                      "JOIN dim_source_file f USING (source_file_id) WHERE f.path LIKE '%/nul_in_record_11.txt'")
    assert len(positions[0]["p"]) == 19
