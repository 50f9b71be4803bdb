"""Render realistic digest corpora from real paper metadata, with the known answer beside them.

The corpus is built from the real records in ``realdata/`` (see its ``SOURCES.md``) and written in
the two digest formats of ``GUIDE.md`` §1 (examples in ``seeds/``):

* **listing** files (arXiv papers, plus some ICLR papers as ``cs.LG``), five lines per paper::

      #01Oct 26, 2026
      cs.LG
      <title>
      A, B, C and 3 more
      <abstract>

* **search** files (ICLR 2024 papers, plus some arXiv papers without a category line)::

      论文检索

      Deep Learning · Large Language Models

      A, B, ..., J 等

      <abstract>

Files end without a final newline, like the seeds.

Output of :func:`render_corpus` (``out_dir``)::

    listing/eNNN/NNNNN_<blake2b-8 of the bytes>.txt     listing files, one folder per epoch
    search/eNNN/NNNNN_<hash>.txt                         search files
    answer.parquet   one row per rendered listing: path, position, truth_id, format
                     (+ line_start, line_end, listed_on, category: the expected lineage/values)
    papers.parquet   one row per truth paper: truth_id, title, n_listings, author_total, authors
                     (+ abstract, source, alias_ids, is_synthetic)
    files.parquet    one row per file: path, format, encoding, crlf, n_records, bytes
    summary.json     counts, noise manifest, real-data quirk counts

Truth identity
--------------
A paper's truth id is its source id (arXiv id without version, ICLR uid).  The pipeline under test
matches listings by their *abstract key* (:func:`abstract_key`: drop U+200B, NBSP → space, NFKC,
casefold, non-alphanumeric runs → one space, strip) together with their titles and authors, so
records whose abstract keys and titles coincide are merged into one truth paper (the first id wins;
the others are kept in ``alias_ids`` and still rendered with their own title/authors); the same
abstract under another title is another paper.

Real-data quirks found and how they are handled (counts are recomputed on every load and reported
in ``summary.json["realdata"]``; the numbers below are those of the shipped snapshot):

* dwdengwei: 1,939 records, 1,258 unique ids.  The bot re-lists the same paper on consecutive days
  (06-27 → 06-28) and even several times in one day (322 ids repeat within a day).  Every record is
  one listing event (same paper re-listed); text never differs between repeats; 2 ids change their
  ``categories[0]`` between repeats (each event keeps its own listing category).
* daydayarxiv: ids carry a version (``2602.03285v1``): stripped.  No repeats.  108 abstracts hold
  hard line breaks: joined with a space.
* Kaggle snapshot: titles/abstracts are hard-wrapped with indentation: whitespace runs collapsed.
  Author strings use TeX accents (``Bal\\'azs``) and embed affiliations, so names come from
  ``authors_parsed`` (already decoded: "Balázs"), rendered as ``first last [suffix]`` (e.g.
  "Neal J. Evans II", "The BABAR Collaboration").  Listing date = first version's ``created``.
  **0704.0026 and 0704.0112 share one abstract** (parts II and III of a series, different titles):
  two truth papers, told apart by their titles only, so both are rendered in the listing format
  only (an untitled search record of that abstract would fit either) — the only cross-id
  abstract collision in all sources.
* ICLR 2024 (airas): 2,382 records, 2,287 ids.  21 abstracts are empty/null: skipped (before
  de-duplication, so an id whose first record is empty uses its non-empty one).  95 ids occur twice:
  30 are exact copies and 55 differ only in ``topic`` (oral/spotlight second event, often topic null)
  → rendered twice with the first text and each event's own topic; 1 differs in abstract wording (a
  revision) → the first text is kept for both events; 9 are *different papers under one uid* (the uids are md5 of small integers,
  e.g. md5("9"), that collide across event types): 5 of them have one empty abstract (resolved by the
  skip), the other 4 second papers are dropped (keep the first, as specified).
  One author name contains a comma ("Ryan, S Shin"), which would split in a ", "-joined line:
  commas inside names are replaced by spaces everywhere (rendered and truth).
* ICML 2025 (no abstracts) and the OpenReview tsv are not used.
* Listing dates are rendered ``%b %d, %Y`` with a zero-padded day ("Feb 04, 2026"); the seeds only
  show "Oct 26, 2026", so they do not settle whether real digests pad the day.

Scaling (``n_listings`` given): the corpus is made of *epochs*.  Epoch 0 uses the real papers,
epoch k ≥ 1 uses synthetic variants ``<id>~<k>`` of them: a few seeded word swaps in abstract and
title (every synthetic abstract key is checked unique) and author names re-drawn per epoch from the
real first-name × last-name pools (a consistent mapping inside the epoch, so co-author structure is
kept; 10 % of names stay real, making some authors prolific across epochs).  Dates shift by 28 days
per epoch (weekdays kept).  Unique papers ≈ n_listings / 3 (``shape="repeats"``, the default) or
≈ 0.8 n_listings (``shape="distinct"``: a group archiving many categories; ~2.4× the epochs, so
~2.4× the distinct author names); the remaining listings are natural re-listings plus heavy-tailed
extra repeats (next days, other search files, the same search file).
``n_listings`` is honoured exactly unless it is so small that natural re-listings exceed it.

``shape="revisions"``: an archive of many near-identical versions of each paper.  Each paper (real
ones, then the synthetic epochs; a seeded sample of them where an epoch is not full) is listed as a
group of versions, listing format only: the group's size is heavy-tailed (Pareto α 1.2, median 4, at
most 300; the last group is cut so that ``n_listings`` is exact), every version keeps the paper's
title and author list, and each version after the first has the first one's abstract with 2–6 words
swapped (every key unique).  Version 1 is listed on the paper's day and category, the others up to a
week later, as re-listings are.  The truth paper is the group (one truth id, one papers.parquet row;
the pipeline should merge revisions), so ``n_papers`` is the number of groups and
``summary["revisions"]`` adds the groups of more versions than the resolver's block
(``flows.resolve.MAX_BLOCK``) and the largest.  The two real papers sharing an abstract (told apart
by title only) are left out of this shape.
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import hashlib
import json
import math
import os
import random
import re
import shutil
import statistics
import sys
import time
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

import pyarrow as pa
import pyarrow.parquet as pq

REPO_ROOT = Path(__file__).resolve().parents[1]

# ----------------------------------------------------------------------------- knobs
LISTING_MAX_PER_FILE = 200
LISTING_MIN_OWN_FILE = 25  # a (day, category) with fewer listings goes into the day's mixed file
SEARCH_BLOCKS = (20, 100)  # blocks per search file (uniform)
CROSS_FORMAT = 0.10  # share of arXiv papers also in search files / ICLR papers also in listings
NATURAL_EXTRA = 0.05  # n_listings=None: extra repeats as a share of the natural events
LISTINGS_PER_PAPER = 3  # n_listings given, shape "repeats": unique papers ≈ n_listings / 3
# Corpus shapes (n_listings given): listings per unique paper. "repeats" is a group following a
# few categories (every paper re-listed, ~1/3 of the listings distinct papers); "distinct" a group
# archiving many categories (~80 % of the listings distinct papers, so ~2.4x the papers and
# distinct author names of "repeats" at the same size: more epochs of synthetic papers, each
# with its own re-drawn names).
# "revisions" (None: no fixed ratio) lists each paper as a group of near-identical versions.
SHAPES: dict[str, float | None] = {"repeats": float(LISTINGS_PER_PAPER), "distinct": 1.25, "revisions": None}
REVISIONS_ALPHA, REVISIONS_SCALE, REVISIONS_MAX = 1.2, 2.0, 300  # versions: round(2 x Pareto(1.2)), median 4
REVISION_SWAPS = (2, 6)  # word swaps from the first version's abstract, per version
RELIST_GAP_DAYS = (0, 1, 1, 1, 2, 2, 3, 4, 5, 7)  # a re-listing or later version: days after the first
EPOCH_SHIFT_DAYS = 28
KEEP_REAL_AUTHOR = 0.10  # synthetic epochs: share of names kept real
FILE_NOISE = ("utf8_bom", "utf16", "gb18030", "crlf")
RECORD_NOISE = ("caps_author", "nfd", "nbsp", "zwsp", "trailing_blanks")
NOISE_KINDS = FILE_NOISE + RECORD_NOISE

MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
SEARCH_HEADER = "论文检索"
PARTICLES = {"van", "von", "der", "den", "de", "del", "della", "di", "da", "dos", "du", "la", "le", "ter", "bin"}

_NON_ALNUM = re.compile(r"[\W_]+")
_LINE_BREAKS = re.compile(r"\s*[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]\s*")
_ALNUM_PAIR = re.compile(r"[A-Za-z0-9](?=[A-Za-z0-9])")


def abstract_key(text: str) -> str:
    """The pipeline's paper identity: drop U+200B, NBSP→space, NFKC, casefold, non-alnum→' ', strip."""
    text = text.replace("\u200b", "").replace("\xa0", " ")
    return _NON_ALNUM.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()


def _key_digest(text: str) -> bytes:
    return hashlib.blake2b(abstract_key(text).encode(), digest_size=16).digest()


def _one_line(s: str | None) -> str:
    """Join hard line breaks with one space (other spacing kept as in the source)."""
    return _LINE_BREAKS.sub(" ", s or "").strip()


def _collapse(s: str | None) -> str:
    return " ".join((s or "").split())


def _name(s: str) -> str:
    return _collapse(s.replace(",", " "))


def default_realdata() -> Path:
    env = os.environ.get("DIGEST_REALDATA")
    return Path(env) if env else REPO_ROOT.parent / "shared" / "realdata"


# ----------------------------------------------------------------------------- real data
@dataclass(frozen=True, slots=True)
class Text:
    title: str
    authors: tuple[str, ...]
    abstract: str


@dataclass(slots=True)
class Paper:
    tid: str
    source: str  # 'arxiv' | 'iclr'
    text: Text
    # natural events: (format, date | None, category line | None, text)
    events: list[tuple[str, dt.date | None, str | None, Text]]
    aliases: list[str]
    # Another paper has the same abstract (a series' parts II and III): only its title tells
    # them apart, so it is rendered in the listing format only (a search page shows no title).
    shares_abstract: bool = False


@dataclass(slots=True)
class RealData:
    papers: list[Paper]
    days: list[dt.date]  # arXiv digest days (used for ICLR papers shown in listing files)
    first_names: list[str]
    last_names: list[str]
    stats: dict


def _split_name(name: str) -> tuple[str, str] | None:
    toks = name.split()
    if len(toks) < 2:
        return None
    i = len(toks) - 1
    while i > 1 and toks[i - 1].lower() in PARTICLES:
        i -= 1
    return " ".join(toks[:i]), " ".join(toks[i:])


def _read_jsonl(path: Path) -> list[dict]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _kaggle_date(created: str) -> dt.date:
    return dt.datetime.strptime(created, "%a, %d %b %Y %H:%M:%S %Z").date()


@functools.lru_cache(maxsize=4)
def load_realdata(realdata: Path) -> RealData:
    realdata = Path(realdata)
    files = {
        "daydayarxiv": realdata / "arxiv_daydayarxiv_csAI_listings.jsonl",
        "dwdengwei": realdata / "arxiv_daily_listings_dwdengwei.jsonl",
        "kaggle": realdata / "arxiv_kaggle_oai_snapshot_first200.jsonl",
        "iclr": realdata / "iclr2024_virtualsite_topics_airas.json",
    }
    if not realdata.is_dir():
        raise FileNotFoundError(
            f"real paper metadata not found at {realdata} (set DIGEST_REALDATA or pass realdata=)"
        )
    for p in files.values():
        if not p.is_file():
            raise FileNotFoundError(f"real paper metadata file missing: {p}")

    stats: Counter = Counter()
    by_id: dict[str, Paper] = {}
    order: list[Paper] = []
    by_key: dict[bytes, Paper] = {}
    days: set[dt.date] = set()

    def add(source: str, rid: str, text: Text, event: tuple) -> None:
        stats[f"records_{source}"] += 1
        paper = by_id.get(rid)
        if paper is not None:  # same id again: a re-listing; keep the first text
            stats["same_id_repeats"] += 1
            if paper.text != text and rid not in paper.aliases:
                differs = [f for f in ("title", "authors", "abstract") if getattr(paper.text, f) != getattr(text, f)]
                if "title" in differs and "abstract" in differs:
                    # a different paper under the same id (ICLR uid collision): keep the first, drop this
                    stats["same_id_different_paper_dropped"] += 1
                    return
                stats["same_id_text_differs_kept_first"] += 1
            fmt, date, cat, _ = event
            if rid in paper.aliases:  # an alias re-listed keeps its own text
                paper.events.append(event)
            else:
                paper.events.append((fmt, date, cat, paper.text))
            return
        kd = _key_digest(text.abstract)
        canon = by_key.get(kd)
        if canon is not None and abstract_key(canon.text.title) == abstract_key(text.title):
            stats["abstract_key_merges"] += 1  # another id of the same paper: merge into the first
            canon.aliases.append(rid)
            canon.events.append(event)
            by_id[rid] = canon
            return
        paper = Paper(rid, "iclr" if source == "iclr" else "arxiv", text, [event], [])
        if canon is not None:  # the same abstract under another title: a distinct paper
            stats["shared_abstract_other_title"] += 1
            canon.shares_abstract = paper.shares_abstract = True
        by_id[rid] = paper
        by_key.setdefault(kd, paper)
        order.append(paper)

    for r in _read_jsonl(files["daydayarxiv"]):
        rid = re.sub(r"v\d+$", "", r["arxiv_id"].strip())
        text = Text(_collapse(r["title"]), tuple(_name(a) for a in r["authors"] if a.strip()), _one_line(r["abstract"]))
        date = dt.date.fromisoformat(r["digest_date"])
        days.add(date)
        add("daydayarxiv", rid, text, ("listing", date, r["digest_category"], text))
    for r in _read_jsonl(files["dwdengwei"]):
        text = Text(_collapse(r["title"]), tuple(_name(a) for a in r["authors"] if a.strip()), _one_line(r["summary"]))
        date = dt.date.fromisoformat(r["digest_date"])
        days.add(date)
        add("dwdengwei", r["id"].strip(), text, ("listing", date, r["categories"][0], text))
    for r in _read_jsonl(files["kaggle"]):
        names = tuple(
            n for n in (_name(" ".join(x for x in (a[1], a[0], *a[2:3]) if x)) for a in r["authors_parsed"]) if n
        )
        text = Text(_collapse(r["title"]), names, _collapse(r["abstract"]))
        date = _kaggle_date(r["versions"][0]["created"])
        add("kaggle", r["id"].strip(), text, ("listing", date, r["categories"].split()[0], text))
    with files["iclr"].open(encoding="utf-8") as f:
        iclr = json.load(f)
    for r in iclr:
        abstract = _one_line(r.get("abstract"))
        if not abstract:
            stats["iclr_empty_abstract_skipped"] += 1
            continue
        topic = r.get("topic")
        cat = " · ".join(p.strip() for p in topic.split("->")) if topic else None
        text = Text(_collapse(r["title"]), tuple(_name(a) for a in r["authors"] if a.strip()), abstract)
        add("iclr", r["id"].strip(), text, ("search", None, cat, text))

    firsts: set[str] = set()
    lasts: set[str] = set()
    for p in order:
        for a in p.text.authors:
            fl = _split_name(a)
            if fl:
                firsts.add(fl[0])
                lasts.add(fl[1])
    stats["papers_arxiv"] = sum(p.source == "arxiv" for p in order)
    stats["papers_iclr"] = sum(p.source == "iclr" for p in order)
    stats["natural_events"] = sum(len(p.events) for p in order)
    stats["real_authors"] = len({a for p in order for a in p.text.authors})
    return RealData(order, sorted(days), sorted(firsts), sorted(lasts), dict(sorted(stats.items())))


# ----------------------------------------------------------------------------- synthetic papers
def _swap_words(rng: random.Random, text: str, n_swaps: int) -> str:
    words = text.split(" ")
    n = len(words)
    if n < 2:
        return text
    for _ in range(n_swaps):
        i, j = rng.randrange(n), rng.randrange(n)
        words[i], words[j] = words[j], words[i]
    return " ".join(words)


class _Synth:
    """Makes the synthetic variant k of real papers; keeps every abstract key unique."""

    def __init__(self, real: RealData, seed: int, keys: set[bytes]):
        self.real = real
        self.seed = seed
        self.keys = keys
        self.names: dict[str, str] = {}
        self.k = -1

    def start_epoch(self, k: int) -> None:
        self.k = k
        self.names = {}

    def name(self, real_name: str, first: bool = False) -> str:
        """A re-drawn name; 10 % stay real, but never a first author: a word-swapped abstract
        under the same first author is what a v2 revision looks like, not a different paper."""
        got = self.names.get(real_name)
        if got is None or (first and got == real_name):
            h = int.from_bytes(
                hashlib.blake2b(f"{self.seed}|{self.k}|{real_name}".encode(), digest_size=8).digest(), "big"
            )
            if (h & 0xFFFF) < KEEP_REAL_AUTHOR * 0x10000 and not first:
                got = real_name
            else:
                f, l = self.real.first_names, self.real.last_names
                got = f"{f[(h >> 16) % len(f)]} {l[(h >> 40) % len(l)]}"
            self.names[real_name] = got
        return got

    def text(self, rng: random.Random, base: Text) -> Text:
        abstract = base.abstract
        for attempt in range(12):
            cand = _swap_words(rng, abstract, 3 + attempt)
            kd = _key_digest(cand)
            if kd not in self.keys:
                self.keys.add(kd)
                abstract = cand
                break
        else:  # degenerate abstract (e.g. one repeated word): make it unique explicitly
            abstract = f"{abstract} ({self.k})"
            self.keys.add(_key_digest(abstract))
        title = _swap_words(rng, base.title, 1) if base.title.count(" ") >= 3 else base.title
        return Text(title, tuple(self.name(a, first=i == 0) for i, a in enumerate(base.authors)), abstract)

    def revision(self, rng: random.Random, first: Text) -> Text:
        """Another version of a paper: its title and authors, its first abstract with a few words
        swapped (from the first version, not the previous one: 300 versions do not drift apart)."""
        for _ in range(12):
            cand = _swap_words(rng, first.abstract, rng.randint(*REVISION_SWAPS))
            kd = _key_digest(cand)
            if kd not in self.keys:
                self.keys.add(kd)
                return Text(first.title, first.authors, cand)
        n = 1  # too few distinct orders of the words (a very short abstract): number the version
        while _key_digest(cand := f"{first.abstract} (revision {n})") in self.keys:
            n += 1
        self.keys.add(_key_digest(cand))
        return Text(first.title, first.authors, cand)


# ----------------------------------------------------------------------------- noise
def _noise_probs(noise: float | Mapping[str, float]) -> dict[str, float]:
    if isinstance(noise, Mapping):
        unknown = set(noise) - set(NOISE_KINDS)
        if unknown:
            raise ValueError(f"unknown noise kinds {sorted(unknown)}; known: {NOISE_KINDS}")
        return {k: float(noise.get(k, 0.0)) for k in NOISE_KINDS}
    return {k: float(noise) for k in NOISE_KINDS}


class _Noise:
    def __init__(self, probs: dict[str, float]):
        self.p = probs
        self.counts: Counter = Counter({k: 0 for k in NOISE_KINDS})
        self.rng = random.Random(0)
        self.any_record = any(probs[k] > 0 for k in RECORD_NOISE)

    def record(self, shown: list[str], title: str | None, abstract: str):
        """Label-preserving noise on one record.  Returns (shown, title, abstract, trailing?)."""
        rng, p, c = self.rng, self.p, self.counts
        if rng.random() < p["caps_author"] and shown:
            i = rng.randrange(len(shown))
            up = shown[i].upper()
            if up != shown[i]:
                shown = shown.copy()
                shown[i] = up
                c["caps_author"] += 1
        if rng.random() < p["nfd"]:
            nfd = [unicodedata.normalize("NFD", s) for s in shown]
            a2 = unicodedata.normalize("NFD", abstract)
            t2 = unicodedata.normalize("NFD", title) if title is not None else None
            if nfd != shown or a2 != abstract or t2 != title:
                shown, abstract, title = nfd, a2, t2
                c["nfd"] += 1
        if rng.random() < p["nbsp"]:  # one to three ASCII spaces of the abstract become NBSP
            changed = False
            for _ in range(rng.randint(1, 3)):
                i = abstract.find(" ", rng.randrange(len(abstract)))
                if i < 0:
                    i = abstract.find(" ")
                if i >= 0:
                    abstract = abstract[:i] + "\xa0" + abstract[i + 1 :]
                    changed = True
            c["nbsp"] += changed
        if rng.random() < p["zwsp"]:  # U+200B between two ASCII alphanumerics (abstract, maybe a name)
            m = _ALNUM_PAIR.search(abstract, rng.randrange(len(abstract))) or _ALNUM_PAIR.search(abstract)
            if m:
                abstract = abstract[: m.end()] + "\u200b" + abstract[m.end() :]
            if shown and rng.random() < 0.5:
                i = rng.randrange(len(shown))
                m = _ALNUM_PAIR.search(shown[i])
                if m:
                    shown = shown.copy()
                    shown[i] = shown[i][: m.end()] + "\u200b" + shown[i][m.end() :]
            c["zwsp"] += 1
        trailing = rng.random() < p["trailing_blanks"]
        c["trailing_blanks"] += trailing
        return shown, title, abstract, trailing

    def trail(self, lines: list[str]) -> list[str]:
        rng = self.rng
        return [ln + " " * rng.randint(1, 3) if ln and rng.random() < 0.5 else ln for ln in lines]

    def file(self, fmt: str) -> tuple[str, bool]:
        rng, p = self.rng, self.p
        r = rng.random()
        enc = "utf-8"
        if r < p["utf8_bom"]:
            enc = "utf-8-sig"
        elif r < p["utf8_bom"] + p["utf16"]:
            enc = "utf-16"
        elif fmt == "search" and r < p["utf8_bom"] + p["utf16"] + p["gb18030"]:
            enc = "gb18030"
        crlf = rng.random() < p["crlf"]
        key = {"utf-8-sig": "utf8_bom", "utf-16": "utf16", "gb18030": "gb18030"}.get(enc)
        if key:
            self.counts[key] += 1
        self.counts["crlf"] += crlf
        return enc, crlf


def _encode(text: str, enc: str, crlf: bool) -> bytes:
    if crlf:
        text = text.replace("\n", "\r\n")
    if enc == "utf-16":
        return b"\xff\xfe" + text.encode("utf-16-le")
    return text.encode(enc)


def _date_str(d: dt.date) -> str:
    return f"{MONTHS[d.month - 1]} {d.day:02d}, {d.year}"


# ----------------------------------------------------------------------------- rendering
# an event of an epoch: (format, date | None, category | None, Text, truth id)
Event = tuple


class _Writer:
    def __init__(self, out_dir: Path, noise: _Noise):
        self.out = out_dir
        self.noise = noise
        self.ans = {k: [] for k in ("path", "position", "truth_id", "format", "line_start", "line_end", "listed_on", "category")}
        self.files = {k: [] for k in ("path", "format", "encoding", "crlf", "n_records", "bytes")}
        self.n_files = Counter()
        self.bytes = 0

    def _write(self, fmt: str, folder: str, idx: int, text: str, events: list[Event], spans: list[tuple[int, int]]):
        enc, crlf = self.noise.file(fmt)
        data = _encode(text, enc, crlf)
        h = hashlib.blake2b(data, digest_size=8).hexdigest()
        rel = f"{fmt}/{folder}/{idx:05d}_{h}.txt"
        path = self.out / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        self.bytes += len(data)
        self.n_files[fmt] += 1
        a = self.ans
        n = len(events)
        a["path"].extend([rel] * n)
        a["position"].extend(range(1, n + 1))
        a["truth_id"].extend(ev[4] for ev in events)
        a["format"].extend([fmt] * n)
        a["line_start"].extend(s for s, _ in spans)
        a["line_end"].extend(e for _, e in spans)
        a["listed_on"].extend(ev[1] for ev in events)
        a["category"].extend(ev[2] for ev in events)
        f = self.files
        for k, v in (("path", rel), ("format", fmt), ("encoding", enc), ("crlf", crlf), ("n_records", n), ("bytes", len(data))):
            f[k].append(v)

    def listing_file(self, folder: str, idx: int, events: list[Event]) -> None:
        noise = self.noise
        parts = []
        for i, (_, date, cat, t, _) in enumerate(events, 1):
            names = t.authors
            shown = list(names[:3])
            title, abstract, trailing = t.title, t.abstract, False
            if noise.any_record:
                shown, title, abstract, trailing = noise.record(shown, title, abstract)
            more = f" and {len(names) - 3} more" if len(names) > 3 else ""
            lines = [f"#{i:02d}{_date_str(date)}", cat, title, ", ".join(shown) + more, abstract]
            if trailing:
                lines = noise.trail(lines)
            parts.append("\n".join(lines))
        spans = [(5 * i + 1, 5 * i + 5) for i in range(len(events))]
        self._write("listing", folder, idx, "\n".join(parts), events, spans)

    def search_file(self, folder: str, idx: int, events: list[Event]) -> None:
        noise = self.noise
        paras = [SEARCH_HEADER]
        spans = []
        line = 3  # header, blank, then the first paragraph
        for _, _, cat, t, _ in events:
            names = t.authors
            shown = list(names[:10])
            abstract, trailing = t.abstract, False
            if noise.any_record:
                shown, _, abstract, trailing = noise.record(shown, None, abstract)
            block = [cat] if cat else []
            block += [", ".join(shown) + (" 等" if len(names) > 10 else ""), abstract]
            if trailing:
                block = noise.trail(block)
            paras.extend(block)
            end = line + 2 * (len(block) - 1)
            spans.append((line, end))
            line = end + 2
        self._write("search", folder, idx, "\n\n".join(paras), events, spans)

    def answer_table(self) -> pa.Table:
        a = self.ans
        t = pa.table(a, schema=ANSWER_SCHEMA)
        for v in a.values():
            v.clear()
        return t


ANSWER_SCHEMA = pa.schema(
    [
        ("path", pa.string()),
        ("position", pa.int32()),
        ("truth_id", pa.string()),
        ("format", pa.string()),
        ("line_start", pa.int32()),
        ("line_end", pa.int32()),
        ("listed_on", pa.date32()),
        ("category", pa.string()),
    ]
)

PAPERS_SCHEMA = pa.schema(
    [
        ("truth_id", pa.string()),
        ("title", pa.string()),
        ("n_listings", pa.int32()),
        ("author_total", pa.int32()),
        ("authors", pa.list_(pa.string())),
        ("abstract", pa.string()),
        ("source", pa.string()),
        ("alias_ids", pa.list_(pa.string())),
        ("is_synthetic", pa.bool_()),
    ]
)


def _epoch_events(
    rng: random.Random, papers: list[tuple[str, Paper, Text | None]], k: int, days: list[dt.date], target: int | None
) -> list[Event]:
    """All listing events of one epoch.  papers: (truth id, real paper, synthetic text or None)."""
    shift = dt.timedelta(days=EPOCH_SHIFT_DAYS * k)
    edays = [d + shift for d in days]
    events: list[Event] = []
    home: dict[str, tuple[dt.date, str]] = {}
    for tid, p, syn in papers:
        for fmt, date, cat, text in p.events:
            events.append((fmt, date + shift if date else None, cat, syn or text, tid))
        if p.source == "arxiv":
            _, d0, c0, _ = p.events[0]
            home[tid] = (d0 + shift, c0)
        if rng.random() < CROSS_FORMAT and not p.shares_abstract:
            text = syn or p.text
            if p.source == "arxiv":
                events.append(("search", None, None, text, tid))
            else:
                d = rng.choice(edays)
                home[tid] = (d, "cs.LG")
                events.append(("listing", d, "cs.LG", text, tid))
    n_extra = round(NATURAL_EXTRA * len(events)) if target is None else max(0, target - len(events))
    if n_extra and papers:
        weights = [min(rng.paretovariate(2.5), 15.0) for _ in papers]  # heavy tail, capped
        for tid, p, syn in rng.choices(papers, weights=weights, k=n_extra):
            text = syn or p.text
            if not p.shares_abstract and rng.random() < (0.2 if p.source == "arxiv" else 0.85):
                # a repeat in search format (ICLR papers keep their first category line); 30 % of
                # them go into the same search file as the paper's first search block
                fmt = "search+same" if rng.random() < 0.3 else "search"
                events.append((fmt, None, p.events[0][2] if p.source == "iclr" else None, text, tid))
            else:  # re-listed on the same or one of the next days, in the same listing category
                d, c = home.get(tid) or (rng.choice(edays), "cs.LG")
                home.setdefault(tid, (d, c))
                d = d + dt.timedelta(days=rng.choice(RELIST_GAP_DAYS))
                events.append(("listing", d, c, text, tid))
    return events


def _revision_plan(rng: random.Random, base: list[int], n_listings: int | None) -> list[tuple]:
    """Epochs of the revisions shape: (k, papers, each one's number of versions).  Groups are
    drawn until n_listings versions (the last one cut to fit); every real paper once if None."""
    if n_listings is None:
        return [(0, base, [_group_size(rng) for _ in base])]
    sizes, total = [], 0
    while total < n_listings:
        sizes.append(min(_group_size(rng), n_listings - total))
        total += sizes[-1]
    plan = []
    for k, s in enumerate(range(0, len(sizes), len(base))):
        epoch_sizes = sizes[s : s + len(base)]
        plan.append((k, sorted(rng.sample(base, len(epoch_sizes))), epoch_sizes))
    return plan


def _group_size(rng: random.Random) -> int:
    return min(REVISIONS_MAX, round(REVISIONS_SCALE * rng.paretovariate(REVISIONS_ALPHA)))


def _revision_events(
    rng: random.Random, synth: _Synth, papers: list[tuple[str, Paper, Text | None]], sizes: list[int], k: int,
    days: list[dt.date],
) -> list[Event]:
    """Each paper's versions, listing format, in the paper's category: the first on its day (an
    ICLR paper: a random digest day, cs.LG), the others on that day or one of the next seven, as
    re-listings are (so files hold as many listings as in the other shapes)."""
    shift = dt.timedelta(days=EPOCH_SHIFT_DAYS * k)
    events: list[Event] = []
    for (tid, p, syn), n_versions in zip(papers, sizes):
        first = syn or p.text
        if p.source == "arxiv":
            _, day, cat, _ = p.events[0]
            day += shift
        else:
            day, cat = rng.choice(days) + shift, "cs.LG"
        events.append(("listing", day, cat, first, tid))
        for _ in range(n_versions - 1):
            later = day + dt.timedelta(days=rng.choice(RELIST_GAP_DAYS))
            events.append(("listing", later, cat, synth.revision(rng, first), tid))
    return events


def _render_epoch(w: _Writer, rng: random.Random, k: int, events: list[Event]) -> None:
    folder = f"e{k:03d}"
    # listing files: one per (day, category) with enough listings, else one mixed file per day
    by_day: dict[dt.date, dict[str, list[Event]]] = defaultdict(lambda: defaultdict(list))
    search: list[Event] = []
    same_file: list[Event] = []
    for ev in events:
        if ev[0] == "listing":
            by_day[ev[1]][ev[2]].append(ev)
        elif ev[0] == "search":
            search.append(ev)
        else:
            same_file.append(("search",) + ev[1:])
    idx = 0
    for day in sorted(by_day):
        cats = by_day[day]
        groups, mixed = [], []
        for cat in sorted(cats):
            (groups.append(cats[cat]) if len(cats[cat]) >= LISTING_MIN_OWN_FILE else mixed.extend(cats[cat]))
        if mixed:
            groups.append(mixed)
        for g in groups:
            rng.shuffle(g)
            n_chunks = math.ceil(len(g) / LISTING_MAX_PER_FILE)
            size = math.ceil(len(g) / n_chunks)
            for s in range(0, len(g), size):
                idx += 1
                w.listing_file(folder, idx, g[s : s + size])
    # search files: shuffled, 20..100 blocks each; some repeats land in the file of the first copy
    rng.shuffle(search)
    chunks: list[list[Event]] = []
    where: dict[str, int] = {}
    s = 0
    while s < len(search):
        n = rng.randint(*SEARCH_BLOCKS)
        chunk = search[s : s + n]
        for ev in chunk:
            where.setdefault(ev[4], len(chunks))
        chunks.append(chunk)
        s += n
    for ev in same_file:
        if not chunks:
            chunks.append([])
        ci = where.get(ev[4])
        chunks[ci if ci is not None else rng.randrange(len(chunks))].append(ev)
    for i, chunk in enumerate(chunks, 1):
        rng.shuffle(chunk)
        w.search_file(folder, i, chunk)


def _ratio_plan(rng: random.Random, n_real: int, n_listings: int | None, per_paper: float) -> list[tuple]:
    """Epochs of the repeats and distinct shapes: (k, papers, cumulative listings target)."""
    if n_listings is None:
        return [(0, list(range(n_real)), None)]
    unique = max(1, round(n_listings / per_paper))
    full, rem = divmod(unique, n_real)
    sizes = [(k, None) for k in range(full)] + ([(full, rem)] if rem else [])
    plan, cum = [], 0
    for k, size in sizes:
        sel = list(range(n_real)) if size is None else sorted(rng.sample(range(n_real), size))
        cum += len(sel)
        # cumulative: an epoch whose natural listings exceed its share (the distinct shape has
        # ~1.24 natural listings per paper against 1.25) is made up for by the next ones
        plan.append((k, sel, round(n_listings * cum / unique)))
    return plan


def _clear_out(out_dir: Path) -> None:
    owned = [out_dir / n for n in ("listing", "search")]
    if any(d.is_dir() and any(d.iterdir()) for d in owned):
        if not (out_dir / "summary.json").is_file():
            raise FileExistsError(f"{out_dir} holds listing/ or search/ files that are not a rendered corpus")
        for d in owned:
            shutil.rmtree(d, ignore_errors=True)


def render_corpus(
    out_dir: Path,
    n_listings: int | None = None,
    seed: int = 0,
    noise: float | Mapping[str, float] = 0.05,
    realdata: Path | None = None,
    shape: str = "repeats",
) -> dict:
    """Render a corpus into ``out_dir`` and return its summary (also written to summary.json).

    n_listings=None: every real record at least once, with its natural repetition (a few thousand
    listings).  Otherwise about ``n_listings`` listings (exact unless very small), ≈ n/3 unique
    papers (``shape="repeats"``) or ≈ 0.8 n (``shape="distinct"``), synthetic variants beyond the
    real ones; ``shape="revisions"``: exactly n listings, groups of near-identical versions of each
    paper (module docstring).  ``noise``: one probability for every noise
    kind, or a mapping kind → probability (kinds: ``NOISE_KINDS``).  Deterministic for a seed.
    """
    if n_listings is not None and n_listings < 1:
        raise ValueError("n_listings must be >= 1")
    if shape not in SHAPES:
        raise ValueError(f"unknown corpus shape {shape!r}; known: {', '.join(SHAPES)}")
    real = load_realdata(Path(realdata) if realdata is not None else default_realdata())
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    _clear_out(out_dir)
    for fmt in ("listing", "search"):  # both, even empty: bench.run and bench.profile read the two
        (out_dir / fmt).mkdir(exist_ok=True)
    probs = _noise_probs(noise)

    papers = real.papers
    master = random.Random(f"{seed}:plan")
    # plan: (epoch, indices of its papers, quota): quota is the cumulative listings target (None:
    # natural) or, for revisions, each paper's number of versions
    if shape == "revisions":
        plan = _revision_plan(master, [i for i, p in enumerate(papers) if not p.shares_abstract], n_listings)
    else:
        plan = _ratio_plan(master, len(papers), n_listings, SHAPES[shape])

    keys = {_key_digest(p.text.abstract) for p in papers}
    synth = _Synth(real, seed, keys)
    w = _Writer(out_dir, _Noise(probs))
    authors_seen: set[str] = set()
    n_papers = n_rendered = 0
    ans_writer = pq.ParquetWriter(out_dir / "answer.parquet", ANSWER_SCHEMA, compression="zstd")
    pap_writer = pq.ParquetWriter(out_dir / "papers.parquet", PAPERS_SCHEMA, compression="zstd")
    try:
        for k, sel, quota in plan:
            rng = random.Random(f"{seed}:epoch:{k}")
            w.noise.rng = random.Random(f"{seed}:noise:{k}")
            synth.start_epoch(k)
            chosen = []
            for i in sel:
                p = papers[i]
                if k == 0:
                    chosen.append((p.tid, p, None))
                else:
                    chosen.append((f"{p.tid}~{k}", p, synth.text(rng, p.text)))
            if shape == "revisions":
                events = _revision_events(rng, synth, chosen, quota, k, real.days)
            else:
                target = None if quota is None else max(0, quota - n_rendered)
                events = _epoch_events(rng, chosen, k, real.days, target)
            _render_epoch(w, rng, k, events)
            ans = w.answer_table()
            n_rendered += ans.num_rows
            ans_writer.write_table(ans)
            n_list = Counter(ans.column("truth_id").to_pylist())
            in_listing = {
                t for t, f in zip(ans.column("truth_id").to_pylist(), ans.column("format").to_pylist()) if f == "listing"
            }
            cols = {name: [] for name in PAPERS_SCHEMA.names}
            for tid, p, syn in chosen:
                t = syn or p.text
                authors_seen.update(t.authors)
                cols["truth_id"].append(tid)
                cols["title"].append(t.title if tid in in_listing else None)
                cols["n_listings"].append(n_list[tid])
                cols["author_total"].append(len(t.authors))
                cols["authors"].append(list(t.authors))
                cols["abstract"].append(t.abstract)
                cols["source"].append(p.source)
                # revisions render only the paper's own text: its aliases are not listed
                aliases = [] if shape == "revisions" else p.aliases
                cols["alias_ids"].append([f"{a}~{k}" for a in aliases] if k else list(aliases))
                cols["is_synthetic"].append(k > 0)
            n_papers += len(chosen)
            pap_writer.write_table(pa.table(cols, schema=PAPERS_SCHEMA))
    finally:
        ans_writer.close()
        pap_writer.close()
    pq.write_table(pa.table(w.files), out_dir / "files.parquet", compression="zstd")

    counts = w.noise.counts
    summary = {
        "n_files": sum(w.n_files.values()),
        "n_listings": sum(w.files["n_records"]),
        "n_papers": n_papers,
        "n_listing_files": w.n_files["listing"],
        "n_search_files": w.n_files["search"],
        "n_listing_records": sum(n for n, f in zip(w.files["n_records"], w.files["format"]) if f == "listing"),
        "n_search_records": sum(n for n, f in zip(w.files["n_records"], w.files["format"]) if f == "search"),
        "n_authors": len(authors_seen),
        "n_epochs": len(plan),
        "bytes": w.bytes,
        "seed": seed,
        "shape": shape,
        "listings_per_paper": round(sum(w.files["n_records"]) / max(n_papers, 1), 3),
        "n_listings_requested": n_listings,
        **({"revisions": _group_counts([v for _, _, sizes in plan for v in sizes])} if shape == "revisions" else {}),
        "noise": {
            "probabilities": probs,
            "files": {k: counts[k] for k in FILE_NOISE},
            "records": {k: counts[k] for k in RECORD_NOISE},
        },
        "realdata": real.stats,
    }
    (out_dir / "summary.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return summary


def _group_counts(sizes: list[int]) -> dict:
    """The revisions shape's groups: truth papers if revisions merge, and those over the
    resolver's block (paired by text-order neighbours only). Imported here: the resolver's
    imports (DuckDB, the person model) are not the generator's."""
    from flows.resolve import MAX_BLOCK

    return {
        "n_groups": len(sizes),
        f"n_groups_over_{MAX_BLOCK}": sum(v > MAX_BLOCK for v in sizes),
        "largest_group": max(sizes),
        "median_group": statistics.median(sizes),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.corpus", description=__doc__.split("\n\n")[0])
    ap.add_argument("out_dir", type=Path)
    ap.add_argument("--listings", type=int, default=None, help="number of listings (default: all real records)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--noise", type=float, default=0.05, help="probability of each noise kind")
    ap.add_argument("--realdata", type=Path, default=None)
    ap.add_argument("--shape", choices=sorted(SHAPES), default="repeats",
                    help="repeats: ~1/3 of the listings distinct papers (default); distinct: ~80 %%; "
                         "revisions: each paper as a group of near-identical versions (median 4, up to 300)")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    try:
        summary = render_corpus(args.out_dir, args.listings, args.seed, args.noise, args.realdata, args.shape)
    except (FileNotFoundError, FileExistsError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    summary["elapsed_s"] = round(time.perf_counter() - t0, 2)
    print(json.dumps(summary, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
