"""Issue 12, items 4, 5, 6, 9: fields read correctly, through the real CLI.

One folder of hostile files, one `digest ingest` (module fixture), then `digest query` and
`digest audit` answer each case: hard-wrapped digests (unwrapped when certain, quarantined
otherwise, never a shifted field), author lists in the forms people write them, categories in
any case and cross-listed, month names and impossible dates, digests after a preamble.
"""

from __future__ import annotations

import random
import textwrap
from pathlib import Path

import pytest

from conftest import LISTING_SEEDS, SEARCH_SEEDS, parse_text
from tests.support.cli import digest_cli, json_query

pytestmark = pytest.mark.usefixtures("prefect_harness")


def wrap(text: str, width: int, hyphens: bool = True) -> str:
    """Hard-wrap every line as an e-mail client (or textwrap) does."""
    out = []
    for line in text.split("\n"):
        out.extend(textwrap.wrap(line, width=width, break_on_hyphens=hyphens, break_long_words=False) or [""])
    return "\n".join(out)


def listing(records: list[tuple[str, str, str, str]], day: str = "Oct 26, 2026", start: int = 1) -> str:
    """(category line, title, authors, abstract) → a listing file."""
    return "\n".join(f"#{i:02d}{day}\n{c}\n{t}\n{a}\n{x}" for i, (c, t, a, x) in enumerate(records, start)) + "\n"


WORDS = ("graph kernel sparse prior bandit policy spectral manifold causal robust token reward diffusion "
         "quantile federated privacy tensor ranking retrieval contrastive symbolic operator lattice").split()


def abstract(n: int) -> str:
    """A distinct abstract per n (near-duplicate abstracts would rightly merge papers)."""
    rng = random.Random(n)
    words = " ".join(rng.sample(WORDS, 12))
    return (f"We study {words} in setting {n}, with a method that is new, and we show that it works well on "
            f"the benchmarks we tried, which makes a sentence long enough to wrap across lines.")


LONG_CONTEXT = ("Scaling Laws for Retrieval Augmented Language Models in the Long Context Regime", "Ann Lee, Bo Chen",
                abstract(1))
LONG_AUTHORS = ("Sparse Codes", "Xinpeng Lv, Yunxin Mao, Renzhe Xu, Chunyuan Zheng, Haoxuan Li, Yikai Chen, "
                "Jinxuan Yang, Wanrong Huang and 2 more", abstract(2))
HYPHENS = ("Multi-Layer Transformers for Long-Horizon Reinforcement-Learning Agents in Open-Ended Worlds",
           "Michael Rizvi-Martel, Carola-Bibiane Schönlieb", abstract(3))
# Lower-case names fail the names test; with a two-line title the split is not certain.
AMBIGUOUS = ("A Study Of Something Rather Long That Needs Two Lines When It Is Wrapped Here",
             "danah boyd, bell hooks, bo li", abstract(4))

AUTHOR_CASES = {  # title → (authors line, names, author_count, complete)
    "Authors and": ("Ann Anderson and Alexandra Ferrand", ["Ann Anderson", "Alexandra Ferrand"], 2, True),
    "Authors ampersand": ("Ann Lee & Bo Chen", ["Ann Lee", "Bo Chen"], 2, True),
    "Authors oxford": ("Ann Lee, Bo Chen, and Carl Dee", ["Ann Lee", "Bo Chen", "Carl Dee"], 3, True),
    "Authors others": ("Ann Lee, Bo Chen and others", ["Ann Lee", "Bo Chen"], None, False),
    "Authors et al": ("Ann Lee et al.", ["Ann Lee"], None, False),
    "Authors ideographic": ("张三、李四、王五", ["张三", "李四", "王五"], 3, True),
    "Authors last first": ("Smith, John", ["John Smith"], 1, True),
    "Authors marks": ("Ann Smith1,2, Bo Jones2*, Carl Dee¹†", ["Ann Smith", "Bo Jones", "Carl Dee"], 3, True),
    "Authors superscript marks": ("Ann Smith$^{1,2}$, Bo Jones$^{\\dagger}$, Carl Dee<sup>3,4</sup>",
                                  ["Ann Smith", "Bo Jones", "Carl Dee"], 3, True),
    "Authors ellipsis": ("Ann Lee, Bo Chen, Carl Dee, …", ["Ann Lee", "Bo Chen", "Carl Dee"], None, False),
    "Authors dots": ("Ann Lee, Bo Chen...", ["Ann Lee", "Bo Chen"], None, False),
    "Authors und": ("Hans Müller und Anna Schmidt", ["Hans Müller", "Anna Schmidt"], 2, True),
    "Authors and more": ("Ann Lee, Bo Chen, Carl Dee and 3 more", ["Ann Lee", "Bo Chen", "Carl Dee"], 6, False),
}

CATEGORY_CASES = [  # (header date, category line, title, expected primary, expected all codes, listed_on)
    ("Oct 26, 2026", "cs.lg", "Category lower", "cs.LG", ["cs.LG"], "2026-10-26"),
    ("Sept 3, 2026", "cs.LG; stat.ML", "Category cross semicolon", "cs.LG", ["cs.LG", "stat.ML"], "2026-09-03"),
    ("Sept. 4, 2026", "CS.LG stat.ml", "Category cross space", "cs.LG", ["cs.LG", "stat.ML"], "2026-09-04"),
    ("SEPTEMBER 5, 2026", "stat.ML, math.IT", "Category cross comma alias", "stat.ML", ["cs.IT", "stat.ML"],
     "2026-09-05"),
    ("sep 6, 2026", "math.PR;math.ST;stat.TH", "Category three", "math.PR", ["math.PR", "math.ST"], "2026-09-06"),
    ("dec. 31, 1999", "hep-th", "Category hyphen archive", "hep-th", ["hep-th"], "1999-12-31"),
]
IMPOSSIBLE = ["Oct 26, 9999", "Oct 26, 2206", "Jan 1, 1850", "Smarch 3, 2026"]

EMAIL_HEADER = "\n".join(
    [f"X-Header-{i}: value {i}" for i in range(1, 50)] + ["From: bot@example.org", "To: you@example.org",
                                                           "Subject: your digest", "Date: Mon, 26 Oct 2026",
                                                           "", "Hello, here is today's digest:"])


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("fields") / "in"
    folder.mkdir()
    seed_listing = LISTING_SEEDS[0].read_text(encoding="utf-8")
    seed_search = SEARCH_SEEDS[1].read_text(encoding="utf-8")
    (folder / "seed_listing.txt").write_text(seed_listing, encoding="utf-8")
    (folder / "seed_search.txt").write_text(seed_search, encoding="utf-8")
    # item 4: the same digests hard-wrapped (72 and 60 columns, hyphen breaks or not)
    (folder / "seed_listing_wrapped72.txt").write_text(wrap(seed_listing, 72), encoding="utf-8")
    (folder / "seed_listing_wrapped60.txt").write_text(wrap(seed_listing, 60, hyphens=False), encoding="utf-8")
    (folder / "seed_search_wrapped72.txt").write_text(wrap(seed_search, 72), encoding="utf-8")
    records = [("cs.CL", *LONG_CONTEXT), ("cs.LG", *LONG_AUTHORS), ("cs.LG", *HYPHENS), ("cs.LG", *AMBIGUOUS)]
    (folder / "wrapped.txt").write_text(wrap(listing(records), 72), encoding="utf-8")
    # blank lines inside records
    lines = LISTING_SEEDS[1].read_text(encoding="utf-8").split("\n")
    lines = lines[:7] + [""] + lines[7:18] + ["", " "] + lines[18:]  # record 2: before authors; record 4: before abstract
    (folder / "blank_inside.txt").write_text("\n".join(lines), encoding="utf-8")
    # item 5
    records = [("cs.LG", title, line, abstract(100 + i)) for i, (title, (line, *_)) in enumerate(AUTHOR_CASES.items())]
    (folder / "authors.txt").write_text(listing(records), encoding="utf-8")
    # item 6: one file per date (the header date), then the impossible ones
    text = "".join(listing([(c, t, "Ann Lee", abstract(200 + i))], day=d, start=i + 1)
                   for i, (d, c, t, *_) in enumerate(CATEGORY_CASES))
    text += "".join(listing([("cs.LG", f"Impossible {d}", "Ann Lee", abstract(300 + i))], day=d, start=20 + i)
                    for i, d in enumerate(IMPOSSIBLE))
    (folder / "categories.txt").write_text(text, encoding="utf-8")
    # item 9: after an e-mail header of 55 lines, after one "Subject:" line
    (folder / "mail_listing.txt").write_text(EMAIL_HEADER + "\n" + LISTING_SEEDS[2].read_text(encoding="utf-8"),
                                             encoding="utf-8")
    (folder / "subject_search.txt").write_text("Subject: 论文检索 for you\n" + SEARCH_SEEDS[0].read_text(encoding="utf-8"),
                                               encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def cli():
    with digest_cli() as run:
        yield run


@pytest.fixture(scope="module")
def warehouse(cli, corpus, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("fields_wh") / "w.duckdb"
    result = cli("ingest", corpus, "--warehouse", path)
    assert result.exit_code == 0, result.output
    return path


@pytest.fixture(scope="module")
def query(cli, warehouse):
    return json_query(cli, warehouse)


def per_file(query) -> dict[str, tuple[int, int]]:
    rows = query("SELECT path, n_listings, n_quarantined FROM dim_source_file")
    return {Path(r["path"]).name: (r["n_listings"], r["n_quarantined"]) for r in rows}


def papers(query, file_name: str) -> list[dict]:
    return query(f"""
        SELECT l.position, p.title, p.abstract,
               (SELECT list(a.name ORDER BY b.author_position) FROM bridge_paper_author b
                JOIN dim_author a USING (author_id) WHERE b.paper_id = p.paper_id) AS authors,
               p.author_count, p.is_author_list_complete, p.n_listings
        FROM fact_listing l JOIN dim_paper p USING (paper_id) JOIN dim_source_file f USING (source_file_id)
        WHERE f.path LIKE '%/{file_name}' ORDER BY l.position""")


def quarantine(query, file_name: str) -> list[dict]:
    return query(f"SELECT line_start, line_end, reason FROM quarantine WHERE path LIKE '%/{file_name}' "
                 "ORDER BY line_start")


def test_every_line_is_accounted_for(cli, warehouse):
    result = cli("audit", "--warehouse", warehouse)
    assert result.exit_code == 0, result.output


# ---------------------------------------------------------------------------- item 4: hard wraps
@pytest.mark.parametrize("name", ["seed_listing_wrapped72.txt", "seed_listing_wrapped60.txt"])
def test_wrapped_listing_gives_the_same_papers_as_the_unwrapped_file(query, name):
    assert per_file(query)[name] == (5, 0)
    wrapped, plain = papers(query, name), papers(query, "seed_listing.txt")
    assert wrapped == plain  # same paper rows: fields unwrapped exactly, deduplicated with the original
    assert all(p["n_listings"] >= 3 for p in plain)  # the original and two wrapped copies (at least)


def test_wrapped_search_page_gives_the_same_papers(query):
    assert per_file(query)["seed_search_wrapped72.txt"] == (20, 0)
    assert papers(query, "seed_search_wrapped72.txt") == papers(query, "seed_search.txt")


def test_wrapped_records_unwrap_titles_authors_and_hyphens(query):
    rows = papers(query, "wrapped.txt")
    assert [(r["title"], r["authors"], r["abstract"]) for r in rows] == [
        (LONG_CONTEXT[0], ["Ann Lee", "Bo Chen"], LONG_CONTEXT[2]),
        (LONG_AUTHORS[0], LONG_AUTHORS[1].removesuffix(" and 2 more").split(", "), LONG_AUTHORS[2]),
        (HYPHENS[0], ["Michael Rizvi-Martel", "Carola-Bibiane Schönlieb"], HYPHENS[2]),
    ]
    names = {r["name"] for r in query("SELECT name FROM dim_author")}
    assert not any("Regime" in n or "Long Context" in n for n in names)  # the shifted author


def test_wrapped_record_that_cannot_be_split_is_quarantined_whole(query):
    (row,) = quarantine(query, "wrapped.txt")
    assert row["reason"] == "hard-wrapped record: fields cannot be told apart"
    assert not query("SELECT * FROM dim_author WHERE name ILIKE '%boyd%' OR name ILIKE '%hooks%'")


def test_blank_lines_inside_records_are_skipped(query):
    assert per_file(query)["blank_inside.txt"] == (5, 0)
    expected, _ = parse_text(LISTING_SEEDS[1].read_text(encoding="utf-8"))
    assert [r["title"] for r in papers(query, "blank_inside.txt")] == expected["title"].to_list()


# ---------------------------------------------------------------------------- item 5: author lists
def test_author_list_forms(query):
    rows = {r["title"]: r for r in papers(query, "authors.txt")}
    assert len(rows) == len(AUTHOR_CASES)
    for title, (_, names, count, complete) in AUTHOR_CASES.items():
        row = rows[title]
        assert row["authors"] == names, title
        assert (row["author_count"], row["is_author_list_complete"]) == (count, complete), title


# ---------------------------------------------------------------------------- item 6: categories, dates
def test_categories_any_case_and_cross_listed(query):
    rows = query("""
        SELECT p.title, c.code AS primary_code, l.listed_on::VARCHAR AS listed_on,
               (SELECT list(c2.code ORDER BY c2.code) FROM bridge_paper_category b JOIN dim_category c2
                USING (category_id) WHERE b.paper_id = p.paper_id) AS codes
        FROM fact_listing l JOIN dim_paper p USING (paper_id) JOIN dim_category c USING (category_id)
        JOIN dim_source_file f USING (source_file_id) WHERE f.path LIKE '%/categories.txt' ORDER BY l.position""")
    got = [(r["title"], r["primary_code"], r["codes"], r["listed_on"]) for r in rows]
    expected = [(t, p, codes, day) for _, _, t, p, codes, day in CATEGORY_CASES]
    # "math.PR;math.ST;stat.TH": stat.TH is an alias of math.ST, bridged once
    assert got == expected


def test_impossible_dates_are_quarantined_and_dim_date_stays_small(query):
    reasons = [r["reason"] for r in quarantine(query, "categories.txt")]
    assert reasons == [f"impossible listing date: {d}" for d in IMPOSSIBLE]
    (span,) = query("SELECT count(*) AS n, min(date)::VARCHAR AS lo, max(date)::VARCHAR AS hi FROM dim_date")
    assert (span["lo"], span["hi"]) == ("1999-12-31", "2026-10-26")
    assert span["n"] < 10_000


# ---------------------------------------------------------------------------- item 9: preambles
def test_listing_after_a_55_line_email_header(query):
    assert per_file(query)["mail_listing.txt"] == (5, 1)
    (row,) = quarantine(query, "mail_listing.txt")
    assert (row["line_start"], row["line_end"]) == (1, 55)
    assert row["reason"] == "text before the first record header"
    assert query("SELECT format FROM dim_source_file WHERE path LIKE '%/mail_listing.txt'") == [{"format": "listing"}]


def test_search_page_after_a_subject_line(query):
    assert per_file(query)["subject_search.txt"] == (20, 1)
    (row,) = quarantine(query, "subject_search.txt")
    assert (row["line_start"], row["line_end"]) == (1, 1)
    assert row["reason"].startswith("text before the first record header")
