"""Corpora of many distinct papers that share one abstract, for the resolver's worst shapes:

    python -m bench.shared_abstracts OUT --shape boilerplate|placeholder|template --papers 16000

- boilerplate: one real abstract of 100+ words under every paper (a series, a mailing's template);
- placeholder: "No abstract available." under every paper (titles-only pages);
- template: one real abstract and title with one word changed, one first author (generated papers).

Titles and author lists are real (the arXiv files of ../shared/realdata, 3,200 distinct papers);
past them, a title is the first half of one real title and the second half of another, by a
third paper's people. Listing format, 500 listings a file, one day a file;
every listing is a distinct paper (`answer.json` says how many). OUT gets listing/ and an empty
search/, as `bench.corpus` writes them, so `bench.settings_ab` and `bench.profile` read it.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
from pathlib import Path

from bench.corpus import default_realdata

PER_FILE = 500
PLACEHOLDER = "No abstract available."
ARXIV_FILES = ("arxiv_daily_listings_dwdengwei.jsonl", "arxiv_daydayarxiv_csAI_listings.jsonl")


def real_papers(realdata: Path) -> list[dict]:
    """Distinct real papers (title, authors, abstract), in file order."""
    seen, papers = set(), []
    for name in ARXIV_FILES:
        for line in (realdata / name).read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            title = " ".join(rec["title"].split())
            if title not in seen and rec.get("authors"):
                seen.add(title)
                papers.append({"title": title, "authors": rec["authors"],
                               "abstract": " ".join((rec.get("summary") or rec.get("abstract") or "").split())})
    return papers


def records(shape: str, n: int, real: list[dict]) -> list[tuple[str, str, str]]:
    """(title, authors line, abstract) of n distinct papers of the shape."""
    base = next(p for p in real if len(p["abstract"].split()) >= 100)
    out = []
    for i in range(n):
        other_at = (i // len(real) + i * 7) % len(real)
        other_at = (other_at + 1) % len(real) if other_at == i % len(real) else other_at  # (two titles)
        paper, other = real[i % len(real)], real[other_at]
        if i >= len(real):  # past the real papers: the first half of one title, the second half of another,
            # by a third paper's people (two halves of one title by the same people may be one paper)
            head, tail = paper["title"].split(), other["title"].split()
            people = real[(i * 13 + i // len(real) * 5 + 1) % len(real)]["authors"]
            paper = {"title": " ".join(head[: (len(head) + 1) // 2] + tail[len(tail) // 2:]), "authors": people}
        title, names = paper["title"], paper["authors"][:3]
        line = ", ".join(names) + (f" and {len(paper['authors']) - 3} more" if len(paper["authors"]) > 3 else "")
        if shape == "boilerplate":
            out.append((title, line, base["abstract"]))
        elif shape == "placeholder":
            out.append((title, line, PLACEHOLDER))
        else:  # one template, one word changed in title and abstract, one first author
            words, heading = base["abstract"].split(), base["title"].split()
            words[40], heading[min(3, len(heading) - 1)] = f"{words[40]}{i}", f"{heading[min(3, len(heading) - 1)]}{i}"
            out.append((" ".join(heading), f"{base['authors'][0]}, {names[-1]}", " ".join(words)))
    return out


def write(out: Path, recs: list[tuple[str, str, str]]) -> None:
    (out / "listing").mkdir(parents=True, exist_ok=True)
    (out / "search").mkdir(exist_ok=True)
    start = dt.date(2026, 1, 1)
    for k in range(0, len(recs), PER_FILE):
        day = start + dt.timedelta(days=k // PER_FILE)
        text = "\n".join(f"#{j:02d}{day.strftime('%b %d, %Y')}\ncs.LG\n{t}\n{a}\n{x}"
                         for j, (t, a, x) in enumerate(recs[k:k + PER_FILE], 1))
        (out / "listing" / f"{day.isoformat()}.txt").write_text(text + "\n", encoding="utf-8")
    (out / "answer.json").write_text(json.dumps({"listings": len(recs), "papers": len(recs)}), encoding="utf-8")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--shape", choices=("boilerplate", "placeholder", "template"), required=True)
    ap.add_argument("--papers", type=int, default=16_000)
    ap.add_argument("--realdata", type=Path, default=None)
    args = ap.parse_args(argv)
    write(args.out, records(args.shape, args.papers, real_papers(args.realdata or default_realdata())))
    print(json.dumps({"out": str(args.out), "shape": args.shape, "papers": args.papers}))


if __name__ == "__main__":
    main()
