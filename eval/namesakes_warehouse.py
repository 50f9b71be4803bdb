"""The namesake evaluation through the warehouse: `python -m eval.namesakes_warehouse [--seed S]`.

`eval.namesakes` scores the person model on frames; this scores what a user gets. The same real
corpus and the same injected namesake groups (`eval.namesakes.inject_namesakes`) are rendered as
digest files: arXiv papers as daily listings (first listing date, first category, title, the
three names shown), ICLR 2024 papers as search pages (area, ten names shown). ICML 2025 records
hold a title and names only, which no digest format carries: they are left out before the
groups are drawn (`eval.namesakes` uses them as co-author evidence), so every group is tied by
co-authors on papers the warehouse sees. Renamed people are printed as their injected name
("Wei Wang"); everybody else as the corpus prints them. The files are loaded by `digest ingest`
(the real command line, in two runs: the dated listings in date order split 90 / 10, then the
search pages), and each mention's person is read from author_mention. Scores as in
`eval.namesakes` (pairwise and B-cubed over mentions, groups split exactly, multi-paper persons
whole; real people already wearing a common name left out). Mentions whose paper the warehouse
merged with another, or whose position moved, cannot be read back: they are counted and left out.
Results: eval/results/namesakes_warehouse_seed<S>.{json,md}; `--summary` prints a row per seed saved.
"""

from __future__ import annotations

import argparse
import json
import re
import tempfile
import time
import unicodedata
from pathlib import Path

import duckdb
import polars as pl

from eval.inject import _listing_text, _search_text
from eval.namesakes import HELDOUT_SEED, RESULTS, TARGETS, _value, inject_namesakes, real_corpus, score
from eval.run import cli_ingest

RECORDS_PER_FILE = 200
ICML_PREFIX = "site_"  # ICML 2025 records: a title and names only, which no digest format holds (not rendered)
FIRST_LOAD_SHARE = 0.9


def fold(text: str | None) -> str:
    """Text as a matching key: NFC, lower case, letters and digits only."""
    return re.sub(r"[\W_]+", "", unicodedata.normalize("NFC", text or "").lower())


def records(mentions: pl.DataFrame, papers: pl.DataFrame, cats: pl.DataFrame) -> list[dict]:
    """One digest record per paper, with its names as printed."""
    shown = mentions.with_columns(printed=pl.when("injected").then(pl.col("name_key").str.to_titlecase())
                                  .otherwise(pl.col("name"))).sort("tid", "author_position")
    names = dict(shown.group_by("tid", maintain_order=True).agg("printed").iter_rows())
    first_cat = dict(cats.sort("tid", "code").group_by("tid", maintain_order=True).agg(pl.col("code").first()).iter_rows())
    out = []
    for tid, title, abstract, listed_on in papers.select("tid", "title", "abstract", "first_listed_on").iter_rows():
        if tid not in names or not abstract or tid.startswith(ICML_PREFIX):
            continue
        fmt = "listing" if listed_on is not None and title else "search"
        out.append({"tid": tid, "format": fmt, "listed_on": listed_on, "category": first_cat.get(tid),
                    "title": title, "abstract": " ".join(abstract.split()),
                    "author_line": ", ".join(names[tid])})
    return out


def write_files(recs: list[dict], out: Path) -> tuple[list[Path], list[Path]]:
    """Listings by date (one file per day and category block), then search pages; returns the two
    loads: the first 90 % of listing days, then the rest with every search page."""
    listings = sorted((r for r in recs if r["format"] == "listing" and r["category"]),
                      key=lambda r: (r["listed_on"], r["tid"]))
    searches = [r for r in recs if r not in listings]
    for r in searches:
        r["format"] = "search"
    days = sorted({r["listed_on"] for r in listings})
    cut = days[int(len(days) * FIRST_LOAD_SHARE)] if days else None
    first, second = out / "load1", out / "load2"
    for day in days:
        chunk = [r for r in listings if r["listed_on"] == day]
        folder = first if day < cut else second
        for i in range(0, len(chunk), RECORDS_PER_FILE):
            path = folder / f"{day.isoformat()}_{i // RECORDS_PER_FILE:03d}_arxiv.txt"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(_listing_text(chunk[i:i + RECORDS_PER_FILE])[0] + "\n", encoding="utf-8")
    for i in range(0, len(searches), RECORDS_PER_FILE):
        path = second / f"search_{i // RECORDS_PER_FILE:04d}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_search_text(searches[i:i + RECORDS_PER_FILE])[0] + "\n", encoding="utf-8")
    return [first], [first, second]


def read_back(warehouse: Path, recs: list[dict], mentions: pl.DataFrame) -> tuple[pl.DataFrame, dict]:
    """(paper_id, author_position, person_id) of every mention the warehouse holds as rendered."""
    with duckdb.connect(str(warehouse), read_only=True) as con:
        stored = pl.from_arrow(con.sql("SELECT paper_id AS w_paper, abstract, author_keys FROM dim_paper").to_arrow_table())
        decided = pl.from_arrow(con.sql("SELECT paper_id AS w_paper, author_position, author_id AS person_id "
                                        "FROM author_mention").to_arrow_table())
    keys = pl.DataFrame({"tid": [r["tid"] for r in recs], "key": [fold(r["abstract"]) for r in recs]})
    stored = stored.with_columns(key=pl.col("abstract").map_elements(fold, return_dtype=pl.String))
    ambiguous = keys.filter(pl.len().over("key") > 1)["tid"]  # two papers, one text: merged by design
    tid_paper = keys.join(stored.select("key", "w_paper", "author_keys"), on="key").filter(~pl.col("tid").is_in(ambiguous.implode()))
    ids = mentions.select("tid", "paper_id").unique()
    pred = (mentions.select("tid", "paper_id", "author_position")
            .join(tid_paper.select("tid", "w_paper"), on="tid")
            .join(decided, on=["w_paper", "author_position"])
            .select("paper_id", "author_position", "person_id"))
    counts = {"mentions": mentions.height, "read_back": pred.height,
              "papers_rendered": len(recs), "papers_found": tid_paper["tid"].n_unique(),
              "papers_sharing_a_text": ambiguous.len(), "papers": ids.height}
    return pred, counts


def evaluate(seed: int, work: Path) -> dict:
    t0 = time.perf_counter()
    base, papers, cats = (f.filter(~pl.col("tid").str.starts_with(ICML_PREFIX)) for f in real_corpus())
    mentions, groups = inject_namesakes(base, cats, seed)  # groups tied by co-authors on rendered papers
    recs = records(mentions, papers, cats)
    loads = write_files(recs, work / "corpus")
    warehouse = work / "warehouse.duckdb"
    for paths in loads:
        cli_ingest(paths, warehouse)
    seconds = time.perf_counter() - t0
    pred, counts = read_back(warehouse, recs, mentions)
    readable = mentions.join(pred.select("paper_id", "author_position"), on=["paper_id", "author_position"], how="semi")
    result = {"corpus": {"seed": seed, "groups": len(groups), **counts}, "persons": score(readable, pred, groups),
              "seconds": round(seconds, 1)}
    result["targets"] = {k: {"target": v, "value": _value(result["persons"], k)} for k, v in TARGETS.items()}
    for t in result["targets"].values():
        t["met"] = t["value"] >= t["target"]
    return result


def markdown(res: dict) -> str:
    c, s = res["corpus"], res["persons"]
    lines = [f"### Namesakes through the warehouse, seed {c['seed']}: {c['papers_rendered']} papers rendered, "
             f"{c['read_back']}/{c['mentions']} mentions read back ({c['papers_sharing_a_text']} papers share a text "
             f"with another and are left out), {c['groups']} namesake groups", "",
             "| pairwise P | pairwise R | pairwise F1 | B³ P | B³ R | B³ F1 | groups split exactly | multi-paper persons whole |",
             "|---|---|---|---|---|---|---|---|",
             f"| {s['pairwise']['precision']:.4f} | {s['pairwise']['recall']:.4f} | {s['pairwise']['f1']:.4f} | "
             f"{s['bcubed']['precision']:.4f} | {s['bcubed']['recall']:.4f} | {s['bcubed']['f1']:.4f} | "
             f"{s['groups']['split_exactly']}/{s['groups']['n']} ({s['groups']['share']:.1%}) | "
             f"{s['multi_paper_persons']['whole']}/{s['multi_paper_persons']['n']} ({s['multi_paper_persons']['share']:.1%}) |",
             "", f"Left out of the scores (real people already wearing a common name): "
             f"{s['excluded_common_names']['mentions']} mentions of {s['excluded_common_names']['name_keys']} name keys.",
             "", wrong_line(s["wrong_merges"]),
             "", "| target | value | met |", "|---|---|---|"]
    lines += [f"| {k} ≥ {t['target']} | {t['value']:.4f} | {'yes' if t['met'] else 'NO'} |" for k, t in res["targets"].items()]
    return "\n".join(lines) + "\n"


def wrong_line(w: dict) -> str:
    return (f"Wrong pairs: {w['wrong_pairs']} in {w['clusters']} persons joining several real people; "
            f"{w['renamed_coauthor']} of them tied only by a co-author name that is itself injected "
            f"(two namesake groups whose members wrote together), {w['other']} otherwise.")


def summary() -> str:
    """One row per seed saved in eval/results (every seed run so far), worst precision first."""
    rows = [json.loads(f.read_text(encoding="utf-8")) for f in sorted(RESULTS.glob("namesakes_warehouse_seed*.json"))]
    lines = ["| seed | pairwise P | pairwise R | groups split exactly | multi-paper persons whole | wrong pairs "
             "(via an injected co-author) |", "|---|---|---|---|---|---|"]
    for r in sorted(rows, key=lambda r: r["persons"]["pairwise"]["precision"]):
        s, w = r["persons"], r["persons"].get("wrong_merges", {})
        lines.append(f"| {r['corpus']['seed']} | {s['pairwise']['precision']:.4f} | {s['pairwise']['recall']:.4f} | "
                     f"{s['groups']['split_exactly']}/{s['groups']['n']} ({s['groups']['share']:.1%}) | "
                     f"{s['multi_paper_persons']['share']:.1%} | {w.get('wrong_pairs', '–')} ({w.get('renamed_coauthor', '–')}) |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=HELDOUT_SEED)
    parser.add_argument("--work", type=Path, help="keep the corpus and warehouse here (default: a temporary folder)")
    parser.add_argument("--summary", action="store_true", help="print the saved results of every seed run, one row each")
    args = parser.parse_args(argv)
    if args.summary:
        print(summary())
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        work = args.work or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        res = evaluate(args.seed, work)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"namesakes_warehouse_seed{args.seed}.json").write_text(json.dumps(res, indent=2, default=str), encoding="utf-8")
    text = markdown(res)
    (RESULTS / f"namesakes_warehouse_seed{args.seed}.md").write_text(text, encoding="utf-8")
    print(text)
    return 0 if all(t["met"] for t in res["targets"].values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
