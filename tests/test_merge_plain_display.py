"""A paper listed once plainly and once in a compatibility or typographic spelling (full-width
"Ｌａｎｄｓｃａｐｅｒ", ligatures "Veriﬁable", U+2010 hyphens, curly apostrophes) shows the plain text:
title, abstract, author list and the persons' names, whichever listing is newer, fresh or
incremental in either order (hunt s52, finding 6). A revised title still wins, plain or not."""

from __future__ import annotations

import random

import pytest

from tests.conftest import SEED_FILES, assert_same_tables, data_tables, read_sql
from tests.support.cli import digest_cli


def fw(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else ("\u3000" if c == " " else c) for c in text)


def lig(text: str) -> str:
    return text.replace("ffi", "ﬃ").replace("fi", "ﬁ").replace("fl", "ﬂ").replace("ff", "ﬀ")


def typo(text: str) -> str:
    return text.replace("-", "\u2010").replace("'", "\u2019")


@pytest.fixture()
def cli(prefect_harness):
    with digest_cli() as run:
        yield run


def papers() -> list[tuple[str, str, str]]:
    rng = random.Random(11)
    vocab = sorted({w for f in SEED_FILES for w in f.read_text(encoding="utf-8").split() if w.isalpha()})
    titles = ["Landscaper: Understanding Loss Landscapes Through Topology",
              "Toward Scalable Verifiable Reward for Tool-Calling Agents",
              "Formally Verifying Sepsis Treatment Policies with COOL-MC",
              "GlobeDiff: State Diffusion for Partial Observability"]
    authors = ["Adam Trendowicz, Alban Grastien", "Yun-Shiuan Chuang, Chaitanya Kulkarni",
               "Dennis Gross, Helge Spieker", "Yiqin Yang, Ni Mu"]
    return [(t, a, " ".join(rng.choice(vocab) for _ in range(60)) + " It's efficient and fine-grained.")
            for t, a in zip(titles, authors)]


def variants(rows: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    (t0, a0, b0), (t1, a1, b1), (t2, a2, b2), (t3, a3, b3) = rows
    return [(fw(t0), ", ".join(fw(a) for a in a0.split(", ")), b0), (lig(t1), a1, lig(b1)),
            (typo(t2), a2, typo(b2)), (lig(t3), ", ".join(fw(a) for a in a3.split(", ")), lig(b3))]


def listing(records: list[tuple[str, str, str]], day: str) -> str:
    return "\n".join(f"#{i:02d}{day}\ncs.LG\n{title}\n{authors}\n{abstract}"
                     for i, (title, authors, abstract) in enumerate(records, 1)) + "\n"


def ingest(cli, warehouse, folder, files: dict[str, str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    result = cli("ingest", folder, "--warehouse", warehouse)
    assert result.exit_code == 0, result.output


def shown(warehouse) -> tuple[list, list]:
    paper_rows = read_sql(warehouse, "SELECT title, array_to_string(authors, ', ') AS authors, abstract FROM dim_paper "
                                     "ORDER BY title").rows()
    names = read_sql(warehouse, "SELECT name FROM dim_author ORDER BY name")["name"].to_list()
    return paper_rows, names


@pytest.mark.parametrize("variant_day", ["Oct 27, 2026", "Oct 25, 2026"])
def test_the_plain_spelling_is_shown_fresh_and_incremental_in_either_order(cli, tmp_path, variant_day):
    plain = papers()
    files = {"plain.txt": listing(plain, "Oct 26, 2026"), "variant.txt": listing(variants(plain), variant_day)}
    fresh = tmp_path / "fresh.duckdb"
    ingest(cli, fresh, tmp_path / "fresh", files)
    expected = (sorted(plain), sorted(a for _, authors, _ in plain for a in authors.split(", ")))
    assert shown(fresh) == expected
    tables = ("dim_paper", "paper_version", "dim_author", "bridge_paper_author", "author_name_variant")
    for order in (["plain.txt", "variant.txt"], ["variant.txt", "plain.txt"]):
        warehouse = tmp_path / f"{order[0]}.duckdb"
        for name in order:
            ingest(cli, warehouse, tmp_path / f"from-{order[0]}", {name: files[name]})
        assert shown(warehouse) == expected
        if (order[0] == "plain.txt") == (variant_day > "Oct 26, 2026"):
            # loaded in date order: the same warehouse (out of order, a paper keeps the id its
            # first-loaded key gave it: ids stay, by design)
            assert_same_tables(*({t: d[t] for t in tables} for d in (data_tables(fresh), data_tables(warehouse))))

def test_a_revised_title_still_wins_plain_or_not(cli, tmp_path):
    """A newer title that is not the older one written plainly is a revision: it is shown as
    listed (ligatures and all: no plain spelling of it exists), and a plain revision beats an
    older variant."""
    plain = papers()[1:2]
    title, authors, abstract = plain[0]
    revised = (lig(title) + " at Scale", authors, abstract)
    warehouse = tmp_path / "w.duckdb"
    ingest(cli, warehouse, tmp_path / "a", {"d1.txt": listing(plain, "Oct 26, 2026"),
                                            "d2.txt": listing([revised], "Oct 27, 2026")})
    assert read_sql(warehouse, "SELECT title FROM dim_paper")["title"].to_list() == [revised[0]]
    warehouse = tmp_path / "w2.duckdb"
    ingest(cli, warehouse, tmp_path / "b", {"d1.txt": listing(variants(papers())[1:2], "Oct 26, 2026"),
                                            "d2.txt": listing([(title + " at Scale", authors, abstract)], "Oct 27, 2026")})
    assert read_sql(warehouse, "SELECT title, abstract FROM dim_paper").rows() == [(title + " at Scale", abstract)]
