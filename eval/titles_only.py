"""A titles-only feed: `python -m eval.titles_only [--placeholder TEXT] [--papers N]`.

ICML 2025's 3,340 real papers (../shared/realdata: titles and author lists, no abstract) as a
listing and again as a search page, every abstract one placeholder ("No abstract available."):
one boilerplate text, so the resolver's blocks hold hundreds of papers each (common first
surnames) and the search parser must read the placeholder as an abstract, not as names. Loaded
by `digest ingest`; each listing is traced back to its paper by its file and first line.
Reports papers stored against the truth, papers split and merged, untitled papers (a search
record that met no listing) and quarantined spans. Another checkout: `PYTHONPATH=<checkout>`.

`--siblings`: each paper beside a sibling by the same authors, its title one word of four letters
or more replaced by a word of another title ("Efficient Training of ..." / "Efficient Inference
of ..."), as listings only: two papers each, which only their titles tell apart (hunt 51: 400
such pairs loaded as 405 papers for 798). `--close`: the other word spelled close ("Encoder" /
"Decoder"). `--typos`: each paper beside a revision with a typo in one title word (one paper).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import re
import tempfile
from pathlib import Path

import duckdb

from bench.corpus import default_realdata
from eval.inject import _listing_text, _search_text
from eval.run import cli_ingest
from rapidfuzz import fuzz

from transforms.resolve import TITLE_GATE, TITLE_LINKS, _stem


def records(n: int | None, placeholder: str) -> list[dict]:
    with (default_realdata() / "icml2025_titles_authors_papercopilot.json").open(encoding="utf-8") as f:
        rows = json.load(f)[:n]
    return [{"id": r["id"], "title": r["title"], "author_line": ", ".join(a.strip() for a in r["author"].split(",")),
             "abstract": placeholder, "category": "cs.LG", "listed_on": dt.date(2025, 7, 13)} for r in rows]


_WORD = re.compile(r"[A-Za-z]{4,}")
_KEPT = TITLE_LINKS | {"learning", "model", "models"}  # (a sibling of another field, not another linking word)


def with_siblings(recs: list[dict], seed: int, close: bool = False) -> list[dict]:
    """Each record and a sibling: the same authors, one word of its title replaced by another
    title's word (`--siblings`); `close`: by one spelled close to it ("Encoder" / "Decoder",
    `--close`), records with no such word in the pool left out."""
    rng = random.Random(seed)
    pool = sorted({w for r in recs for w in r["title"].split() if _WORD.fullmatch(w) and w.lower() not in _KEPT})
    out = []
    for r in recs:
        words = r["title"].split()
        choices = {i: [w for w in pool if w.lower() != words[i].lower() and (not close or _spelled_close(w, words[i]))]
                   for i, w in enumerate(words) if _WORD.fullmatch(w) and w.lower() not in _KEPT}
        at = [i for i, options in choices.items() if options]
        if not at:
            continue
        i = rng.choice(at)
        words[i] = rng.choice(choices[i])
        out += [r, {**r, "id": f"{r['id']}#sibling", "title": " ".join(words)}]
    return out


def _spelled_close(a: str, b: str) -> bool:
    """Another word spelled as close as a revision's spelling fix ("Encoder" / "Decoder"), not a
    form of it (a plural, "-ing": `_stem` opening the other)."""
    a, b = a.lower(), b.lower()
    return fuzz.ratio(a, b) >= TITLE_GATE * 100 and not (_stem(a).startswith(_stem(b)) or _stem(b).startswith(_stem(a)))


def with_typos(recs: list[dict], seed: int) -> list[dict]:
    """Each record and a revision of it: one word of four letters or more of its title with a
    typo (a letter dropped, doubled, replaced, or two swapped: "Lerning"), one paper (`--typos`)."""
    rng = random.Random(seed)
    out = []
    for r in recs:
        words = r["title"].split()
        at = [i for i, w in enumerate(words) if _WORD.fullmatch(w) and w.lower() not in _KEPT]
        if not at:
            continue
        i = rng.choice(at)
        w, k = words[i], rng.randrange(1, len(words[i]) - 1)  # (not the first letter: the word's case)
        words[i] = rng.choice([w[:k] + w[k + 1:], w[:k] + w[k] + w[k:], w[:k] + w[k + 1] + w[k] + w[k + 2:],
                               w[:k] + rng.choice("aeiourstln".replace(w[k], "")) + w[k + 1:]])
        out += [r, {**r, "title": " ".join(words)}]  # (one id: one paper)
    return out


def evaluate(recs: list[dict], work: Path, search_page: bool = True) -> dict:
    """`search_page`: the records on a search page too (untitled there: a paper and its sibling
    by the same authors, with one placeholder, are one search record that joins neither)."""
    listing, listing_spans = _listing_text(recs)
    (work / "list.txt").write_text(listing + "\n", encoding="utf-8")
    truth = {("list.txt", start): r["id"] for r, (start, _) in zip(recs, listing_spans)}
    if search_page:
        search, search_spans = _search_text([{**r, "category": None} for r in recs])
        (work / "search.txt").write_text(search + "\n", encoding="utf-8")
        truth |= {("search.txt", start): r["id"] for r, (start, _) in zip(recs, search_spans)}
    warehouse = work / "w.duckdb"
    cli_ingest([work / name for name in ("list.txt", "search.txt") if (work / name).exists()], warehouse)
    with duckdb.connect(str(warehouse), read_only=True) as con:
        rows = con.execute("SELECT s.path, l.line_start, l.paper_id FROM fact_listing l "
                           "JOIN dim_source_file s USING (source_file_id)").fetchall()
        untitled, quarantined = con.execute(
            "SELECT (SELECT count(*) FROM dim_paper WHERE title IS NULL), (SELECT count(*) FROM quarantine)").fetchone()
    papers_of: dict[str, set[int]] = {}
    truths_of: dict[int, set[str]] = {}
    for path, line, paper in rows:
        tid = truth[(Path(path).name, line)]
        papers_of.setdefault(tid, set()).add(paper)
        truths_of.setdefault(paper, set()).add(tid)
    return {"papers_true": len({r["id"] for r in recs}), "listings": len(rows), "papers_stored": len(truths_of),
            "split": sum(len(p) > 1 for p in papers_of.values()), "merged": sum(len(t) > 1 for t in truths_of.values()),
            "untitled": untitled, "quarantined_spans": quarantined}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--placeholder", default="No abstract available.")
    parser.add_argument("--papers", type=int, default=None, help="the first N papers only (default: all 3,340)")
    parser.add_argument("--siblings", action="store_true", help="each paper beside a one-word sibling (two papers)")
    parser.add_argument("--close", action="store_true", help="with --siblings: the other word spelled close")
    parser.add_argument("--typos", action="store_true", help="each paper beside a revision with a typo in its title (one paper)")
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    recs = records(args.papers, args.placeholder)
    with tempfile.TemporaryDirectory() as tmp:
        if args.siblings or args.typos:
            pairs = with_siblings(recs, args.seed, args.close) if args.siblings else with_typos(recs, args.seed)
            res = evaluate(pairs, Path(tmp), search_page=False)
        else:
            res = evaluate(recs, Path(tmp))
    print(f"titles-only ({args.placeholder!r}): " + ", ".join(f"{k} {v:,}" for k, v in res.items()))


if __name__ == "__main__":
    main()
