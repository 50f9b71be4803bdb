"""The baseline: what a reasonable person writes first, in plain Python.

Read every file, decode it (UTF-8 with or without BOM, UTF-16, else GB18030), walk its lines
in a loop parsing both digest formats, dedupe papers with a dict keyed by the normalised
abstract (and the title, when one abstract comes with two titles), keep authors and categories
in dicts, then build the warehouse tables (dim_paper,
fact_listing, dim_author, bridge_paper_author, dim_category, bridge_paper_category,
dim_source_file) as Arrow tables and write them into a DuckDB file.

It is correct (the harness checks its paper and listing counts against the known answer) but
not tuned: everything is held in memory until the end, one record at a time. It is the
reference the real pipeline's speed-up is measured against.

    python -m bench.baseline DIR [DIR ...] --warehouse FILE.duckdb     # prints one JSON object
"""

from __future__ import annotations

import argparse
import codecs
import datetime as dt
import json
import re
import sys
import time
import unicodedata
from pathlib import Path

import duckdb
import pyarrow as pa

REPO_ROOT = Path(__file__).resolve().parents[1]
TAXONOMY = REPO_ROOT / "data" / "taxonomy" / "arxiv_taxonomy.json"

SEARCH_MARKER = "论文检索"
AREA_SEPARATOR = " · "
HEADER = re.compile(r"^#(\d{2,})\s*([A-Za-z]{3,9})\.?\s+(\d{1,2}),\s*(\d{4})$")
MONTHS = {m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"), 1)}
AND_MORE = re.compile(r"\s*,?\s*and\s+(\d+)\s+(?:more|others)\s*$", re.IGNORECASE)
ET_AL = re.compile(r"\s*,?\s*(?:等|et\s+al\.?)\s*$", re.IGNORECASE)
ZERO_WIDTH = re.compile("[\u200b\u200c\u200d\u2060\ufeff\u00ad]")
ODD_SPACES = re.compile("[\u00a0\u2000-\u200a\u202f\u205f\u3000\t]")
SPACES = re.compile(" {2,}")
NON_ALNUM = re.compile(r"[\W_]+")
COMBINING = re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")
NAME_SEPARATORS = re.compile(r"\s*[,，;；]\s*")
# A prose paragraph (an abstract) has a run of 10+ words without a comma, or sentence
# punctuation; a names line may hold long names ("Hasan Md Tusfiqur Alam ...", 8 words).
LONG_CLAUSE = re.compile(r"[^,]*?(?:\S+\s+){9,}\S+")
SENTENCE_PUNCT = re.compile(r"[:;?!$=\[\]{}<>/\\|@#%^&*+~]|\b[a-z]{3,}\.(?:\s|$)")  # ... or "word." ends a sentence
FOLD = str.maketrans({"ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "æ": "ae", "œ": "oe", "ß": "ss", "ı": "i"})


# ----------------------------------------------------------------------------- text helpers
def clean(text: str) -> str:
    if text.isascii():
        return SPACES.sub(" ", text.replace("\t", " ")).strip()
    text = unicodedata.normalize("NFC", text)
    text = ZERO_WIDTH.sub("", text)
    text = ODD_SPACES.sub(" ", text)
    return SPACES.sub(" ", text).strip()


def fold(text: str) -> str:
    """Matching key: no accents, case, punctuation or spacing."""
    if not text.isascii():  # most text is ASCII: skip the Unicode work
        text = COMBINING.sub("", unicodedata.normalize("NFKD", text)).lower().translate(FOLD)
    return NON_ALNUM.sub(" ", text.lower()).strip()


def decode(raw: bytes) -> tuple[str, str]:
    if raw.startswith(codecs.BOM_UTF8):
        text, encoding = raw[3:].decode("utf-8", errors="replace"), "utf-8-sig"
    elif raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text, encoding = raw.decode("utf-16", errors="replace"), "utf-16"
    else:
        try:
            text, encoding = raw.decode("utf-8"), "utf-8"
        except UnicodeDecodeError:
            text, encoding = raw.decode("gb18030", errors="replace"), "gb18030"
    return text.replace("\r\n", "\n").replace("\r", "\n"), encoding


def split_authors(line: str, fmt: str) -> tuple[list[str], int | None, bool]:
    """(names, declared total or None when unknown, truncated?)."""
    more = AND_MORE.search(line)
    et_al = ET_AL.search(line)
    if more:
        line = line[: more.start()]
    elif et_al:
        line = line[: et_al.start()]
    names = [n.strip() for n in NAME_SEPARATORS.split(line)]
    names = [n for n in names if any(ch.isalnum() for ch in n)]
    if et_al and not more:
        return names, None, True
    return names, len(names) + (int(more.group(1)) if more else 0), bool(more)


def is_prose(paragraph: str) -> bool:
    if AREA_SEPARATOR in paragraph:
        return False
    if paragraph.endswith("等"):  # "A, B, …, J 等": only a names line ends so
        return False
    body = paragraph
    return bool(SENTENCE_PUNCT.search(body)) or any(LONG_CLAUSE.fullmatch(item) for item in body.split(","))


# ----------------------------------------------------------------------------- parsing
def parse_listing(lines: list[str]):
    """Yield (position, line_start, line_end, rank, date, category, title, authors, abstract)."""
    records, current = [], None
    for no, line in enumerate(lines, 1):
        text = clean(line)
        m = HEADER.match(text)
        if m:
            current = [no, no, m, []]
            records.append(current)
        elif current is not None and text:
            current[3].append(text)
            current[1] = no
    for position, (start, end, m, fields) in enumerate(records, 1):
        if len(fields) < 4:
            yield None, (start, end, f"record has {len(fields) + 1} of 5 lines")
            continue
        month = MONTHS.get(m.group(2)[:3].lower())
        try:
            date = dt.date(int(m.group(4)), month, int(m.group(3))) if month else None
        except ValueError:
            date = None
        if date is None:
            yield None, (start, end, "impossible listing date")
            continue
        abstract = " ".join(fields[3:])
        yield (position, start, end, int(m.group(1)), date, fields[0], fields[1], fields[2], abstract), None


def parse_search(lines: list[str]):
    """Paragraphs are separated by blank lines; an abstract (prose) closes a record."""
    paragraphs, current = [], None
    seen_marker = False
    for no, line in enumerate(lines, 1):
        text = clean(line)
        if not text:
            current = None
            continue
        if not seen_marker:
            seen_marker = True
            if text == SEARCH_MARKER:
                continue
        if current is None:
            current = [no, no, [text]]
            paragraphs.append(current)
        else:
            current[1] = no
            current[2].append(text)
    position, pending = 0, []
    for start, end, texts in paragraphs:
        text = " ".join(texts)
        if not is_prose(text):
            pending.append((start, text))
            continue
        position += 1
        if not pending:
            yield None, (start, end, "abstract without an authors line")
            continue
        category = pending[-2][1] if len(pending) >= 2 else None
        yield (position, pending[0][0], end, None, None, category, None, pending[-1][1], text), None
        pending = []
    if pending:
        yield None, (pending[0][0], len(lines), "record cut off at end of file: no abstract")


# ----------------------------------------------------------------------------- the run
def load_taxonomy() -> tuple[dict, dict]:
    raw = json.loads(TAXONOMY.read_text(encoding="utf-8"))
    aliases = dict(raw["category_aliases"]) | dict(raw["archives_subsumed"])
    archives = raw["archives"]
    known = {}
    for code, cat in raw["categories"].items():
        archive = archives.get(cat["in_archive"], {})
        known[code] = (cat["full_name"], cat["in_archive"], archive.get("full_name"))
    return known, aliases


def run(roots: list[Path], warehouse: Path) -> dict:
    started = time.perf_counter()
    known, aliases = load_taxonomy()
    files = []
    for root in roots:
        files += [p for p in sorted(root.rglob("*")) if p.is_file() and not p.name.startswith(".")]

    source_files, listings, quarantine = [], [], []
    papers: dict[str, dict] = {}  # abstract key -> paper
    authors: dict[str, dict] = {}  # name key -> author
    categories: dict[tuple[str, str], int] = {}  # (taxonomy, listed code) -> category_id

    for file_id, path in enumerate(files, 1):
        text, encoding = decode(path.read_bytes())
        lines = text.split("\n")
        first = next((clean(line).lstrip("\ufeff") for line in lines if clean(line)), "")
        fmt = "search" if first == SEARCH_MARKER else "listing"
        parser = parse_search if fmt == "search" else parse_listing
        n_listings = 0
        for record, bad in parser(lines):
            if bad:
                quarantine.append((file_id, str(path), *bad))
                continue
            position, start, end, rank, date, category, title, authors_line, abstract = record
            names, total, truncated = split_authors(authors_line, fmt)
            key = fold(abstract)
            if not names or not key:
                quarantine.append((file_id, str(path), start, end, "no author names or empty abstract"))
                continue
            paper = papers.get(key)
            if paper is not None and title and paper["title"] and fold(title) != fold(paper["title"]):
                key += "\x1f" + fold(title)  # the same abstract under another title: another paper
                paper = papers.get(key)
            if paper is None:
                paper = papers[key] = {
                    "paper_id": len(papers) + 1, "title": None, "abstract": abstract, "authors": names,
                    "author_count": total, "complete": not truncated, "first": date, "last": date,
                    "n_listings": 0, "categories": set(),
                }
            paper["n_listings"] += 1
            if title and (paper["title"] is None or len(title) > len(paper["title"])):
                paper["title"] = title
            if len(names) > len(paper["authors"]):
                paper["authors"] = names
            if total is not None and (paper["author_count"] is None or total > paper["author_count"]):
                paper["author_count"] = total
            paper["complete"] = paper["complete"] or not truncated
            if date is not None:
                paper["first"] = date if paper["first"] is None else min(paper["first"], date)
                paper["last"] = date if paper["last"] is None else max(paper["last"], date)
            category_id = None
            if category:
                taxonomy = "arxiv" if fmt == "listing" else "conference"
                category_id = categories.setdefault((taxonomy, category), len(categories) + 1)
                paper["categories"].add(category_id)
            listings.append((len(listings) + 1, paper["paper_id"], file_id, position, rank, date,
                             category_id, start, end))
            n_listings += 1
        source_files.append((file_id, str(path), fmt, encoding, path.stat().st_size, len(lines), n_listings))
    parsed = time.perf_counter()

    # Authors from each paper's final (fullest) list, as the warehouse keeps them.
    bridge = []
    for paper in papers.values():
        seen = set()
        for position, name in enumerate(paper["authors"], 1):
            name_key = fold(name)
            if not name_key or name_key in seen:
                continue
            seen.add(name_key)
            author = authors.get(name_key)
            if author is None:
                author = authors[name_key] = {"author_id": len(authors) + 1, "name": name, "n_papers": 0}
            elif author["name"].isupper() and not name.isupper():
                author["name"] = name  # mixed case beats CAPITALS
            author["n_papers"] += 1
            bridge.append((paper["paper_id"], author["author_id"], position))
    tables = build_tables(source_files, listings, papers, authors, bridge, categories, quarantine, known, aliases)
    built = time.perf_counter()

    warehouse.unlink(missing_ok=True)
    con = duckdb.connect(str(warehouse))
    for name, table in tables.items():
        con.register("arrow_table", table)
        con.execute(f"CREATE TABLE {name} AS SELECT * FROM arrow_table")
        con.unregister("arrow_table")
    counts = {name: con.execute(f"SELECT count(*) FROM {name}").fetchall()[0][0] for name in tables}
    con.close()
    loaded = time.perf_counter()
    return {
        "seconds": round(loaded - started, 3),
        "stage_seconds": {
            "read_parse_dedupe": round(parsed - started, 3),
            "build_tables": round(built - parsed, 3),
            "load": round(loaded - built, 3),
        },
        "n_files": len(files),
        "n_listings": counts["fact_listing"],
        "n_papers": counts["dim_paper"],
        "n_authors": counts["dim_author"],
        "n_categories": counts["dim_category"],
        "n_quarantined": counts["quarantine"],
        "table_rows": counts,
    }


def build_tables(source_files, listings, papers, authors, bridge, categories, quarantine, known, aliases) -> dict:
    def columns(rows, names):
        return {name: [row[i] for row in rows] for i, name in enumerate(names)}

    paper_rows = [
        (p["paper_id"], p["title"], p["abstract"], len(p["authors"]), p["author_count"],
         p["complete"] or p["author_count"] == len(p["authors"]), p["first"], p["last"], p["n_listings"])
        for p in papers.values()
    ]
    category_rows = []
    for (taxonomy, listed), category_id in categories.items():
        if taxonomy == "arxiv":
            code = aliases.get(listed, listed)
            name, parent_code, parent_name = known.get(code, (None, code.split(".")[0], None))
        else:
            code, parts = listed, listed.split(AREA_SEPARATOR)
            name, parent_code = parts[-1], (parts[0] if len(parts) > 1 else None)
            parent_name = parent_code
        category_rows.append((category_id, code, name, parent_code, parent_name, taxonomy))
    paper_categories = [(p["paper_id"], c) for p in papers.values() for c in sorted(p["categories"])]
    author_rows = [(a["author_id"], a["name"], key, a["n_papers"]) for key, a in authors.items()]
    return {
        "dim_source_file": pa.table(columns(source_files, ["source_file_id", "path", "format", "encoding",
                                                           "size_bytes", "n_lines", "n_listings"])),
        "fact_listing": pa.table(columns(listings, ["listing_id", "paper_id", "source_file_id", "position", "rank",
                                                    "listed_on", "category_id", "line_start", "line_end"])),
        "dim_paper": pa.table(columns(paper_rows, ["paper_id", "title", "abstract", "n_authors_shown", "author_count",
                                                   "is_author_list_complete", "first_listed_on", "last_listed_on",
                                                   "n_listings"])),
        "dim_author": pa.table(columns(author_rows, ["author_id", "name", "name_key", "n_papers"])),
        "bridge_paper_author": pa.table(columns(bridge, ["paper_id", "author_id", "author_position"])),
        "dim_category": pa.table(columns(category_rows, ["category_id", "code", "name", "parent_code", "parent_name",
                                                         "taxonomy"])),
        "bridge_paper_category": pa.table(columns(paper_categories, ["paper_id", "category_id"])),
        "quarantine": pa.table(columns(quarantine, ["source_file_id", "path", "line_start", "line_end", "reason"]),
                               schema=pa.schema([("source_file_id", pa.int64()), ("path", pa.string()),
                                                 ("line_start", pa.int64()), ("line_end", pa.int64()),
                                                 ("reason", pa.string())])),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.baseline", description=__doc__.split("\n\n")[0])
    ap.add_argument("roots", nargs="+", type=Path)
    ap.add_argument("--warehouse", type=Path, required=True)
    args = ap.parse_args(argv)
    print(json.dumps(run(args.roots, args.warehouse)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
