"""Injected variants: what real digests do to one paper and one person, with the answer kept.

`inject_variants(corpus_dir, seed)` reads a corpus rendered by `bench.corpus.render_corpus`
(answer.parquet, papers.parquet) and writes extra digest files under `corpus_dir/variants/`
(plain UTF-8, both formats), then returns their answer rows. Every injected record is either

* a **variant of a known paper** (its truth id): `v2_revision` (words replaced, a clause
  inserted, a phrase deleted), `typo` (letters swapped, dropped, doubled), `latex_unicode`
  (``$\\alpha$`` ↔ ``α``), `trailing_sentence`, `cut_short`, or `exact` (the same abstract),
  rendered in either format (a listing gives a search-only paper its title), with author names
  written another way: `upper`, `lower`, `no_accents`, `nfd`, `hyphen_space`, `extra_spaces`,
  `last_first` ("Munos, Rémi; Valko, Michal"), `initials` ("R. Munos"), or unchanged; or
* a **twin**: a distinct paper by the same authors on the same template (the first and last
  sentences of the original, the body of another paper, the title partly changed): a new
  truth id that must stay apart.

Deterministic for a seed. The truth of an author mention is the name as rendered originally.
"""

from __future__ import annotations

import datetime as dt
import random
import re
import unicodedata
from collections import defaultdict
from pathlib import Path

import polars as pl

from bench.corpus import default_realdata, load_realdata

PAPER_KINDS = ("v2_revision", "typo", "latex_unicode", "trailing_sentence", "cut_short", "exact", "combined")
EDITS = ("v2_revision", "typo", "latex_unicode", "trailing_sentence", "cut_short")
NAME_KINDS = ("upper", "lower", "no_accents", "nfd", "hyphen_space", "extra_spaces", "last_first", "initials", "none")
SHARE_VARIANTS = 0.25  # of truth papers get one injected variant listing
SHARE_TWINS = 0.04  # of truth papers get a twin
RECORDS_PER_FILE = 60

TRAILING = (
    "Code is available at https://github.com/{u}/{r}.",
    "Accepted at the International Conference on Learning Representations (ICLR 2025).",
    "Our implementation and data are publicly released to facilitate future research.",
    "This version corrects an error in the proof of the main theorem.",
    "Project page: https://{u}.github.io/{r}.",
    "Extended version of the conference paper, with additional experiments and proofs.",
)
# LaTeX → Unicode, as digest bots render math (a subset: what the abstracts use most).
LATEX_TO_UNICODE = {
    r"\alpha": "α", r"\beta": "β", r"\gamma": "γ", r"\delta": "δ", r"\epsilon": "ε", r"\varepsilon": "ε",
    r"\theta": "θ", r"\lambda": "λ", r"\mu": "μ", r"\pi": "π", r"\sigma": "σ", r"\tau": "τ", r"\phi": "φ",
    r"\omega": "ω", r"\Omega": "Ω", r"\Delta": "Δ", r"\ell": "ℓ", r"\leq": "≤", r"\le": "≤", r"\geq": "≥",
    r"\ge": "≥", r"\times": "×", r"\infty": "∞", r"\in": "∈", r"\to": "→", r"\pm": "±", r"\cdot": "·",
    r"\approx": "≈", r"\sim": "∼", r"\neq": "≠", r"\sqrt": "√", r"\sum": "∑", r"\nabla": "∇", r"\partial": "∂",
}
SUPERSCRIPT = str.maketrans("0123456789+-n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻ⁿ")
SUBSCRIPT = str.maketrans("0123456789ijk", "₀₁₂₃₄₅₆₇₈₉ᵢⱼₖ")
STYLE = re.compile(r"\\(?:mathrm|mathbf|mathcal|mathbb|mathit|textbf|textit|text|emph|operatorname|boldsymbol)\s*")


def latex_to_unicode(text: str) -> str:
    """Render the $...$ spans of an abstract the way listing bots show math."""
    def render(m: re.Match) -> str:
        s = STYLE.sub("", m.group(1))
        for latex in sorted(LATEX_TO_UNICODE, key=len, reverse=True):
            s = re.sub(re.escape(latex) + r"(?![A-Za-z])", LATEX_TO_UNICODE[latex], s)
        s = re.sub(r"\^\{([0-9+\-n]+)\}|\^([0-9+\-n])", lambda g: (g.group(1) or g.group(2)).translate(SUPERSCRIPT), s)
        s = re.sub(r"_\{([0-9ijk]+)\}|_([0-9ijk])", lambda g: (g.group(1) or g.group(2)).translate(SUBSCRIPT), s)
        return s.replace("{", "").replace("}", "").replace("\\", "")
    return re.sub(r"\$([^$]+)\$", render, text)


def unicode_to_latex(text: str) -> str:
    """The other way: Greek letters and symbols written as inline LaTeX."""
    back = {v: k for k, v in LATEX_TO_UNICODE.items() if k not in (r"\le", r"\ge", r"\varepsilon")}
    return "".join(f"${back[c]}$" if c in back else c for c in text)


# ----------------------------------------------------------------------------- text edits
def _words(rng: random.Random, pool: list[str], n: int) -> list[str]:
    return [w for w in (rng.choice(pool) for _ in range(n)) if w]


def v2_revision(rng: random.Random, text: str, pool: list[str]) -> str:
    words = text.split(" ")
    for _ in range(rng.randint(1, 4)):  # words replaced
        words[rng.randrange(len(words))] = rng.choice(pool)
    if rng.random() < 0.6:  # a clause inserted at a sentence end
        ends = [i for i, w in enumerate(words) if w.endswith(".")] or [len(words) - 1]
        i = rng.choice(ends)
        clause = " ".join(_words(rng, pool, rng.randint(4, 9))).capitalize() + "."
        words.insert(i + 1, clause)
    if rng.random() < 0.5 and len(words) > 30:  # a phrase deleted
        i = rng.randrange(len(words) - 5)
        del words[i:i + rng.randint(2, 4)]
    text = " ".join(words)
    sentences = _sentences(text)
    if rng.random() < 0.3 and len(sentences) >= 6:  # one inner sentence reworded: a third of its words
        i = rng.randrange(1, len(sentences) - 1)
        sw = sentences[i].split(" ")
        for j in rng.sample(range(len(sw)), len(sw) // 3):
            sw[j] = rng.choice(pool)
        sentences[i] = " ".join(sw)
        text = " ".join(sentences)
    return text


def typo(rng: random.Random, text: str) -> str:
    words = text.split(" ")
    long_words = [i for i, w in enumerate(words) if len(w) >= 5 and w.isalpha()]
    for i in rng.sample(long_words, min(len(long_words), rng.randint(1, 3))):
        w, j = words[i], rng.randrange(1, len(words[i]) - 2)
        op = rng.choice(("swap", "drop", "double"))
        words[i] = (w[:j] + w[j + 1] + w[j] + w[j + 2:] if op == "swap" else
                    w[:j] + w[j + 1:] if op == "drop" else w[:j] + w[j] + w[j:])
    return " ".join(words)


def trailing_sentence(rng: random.Random, text: str) -> str:
    tail = rng.choice(TRAILING).format(u=rng.choice(("ml-lab", "deepgroup", "ai4sci")), r=rng.choice(("code", "release", "repo")))
    return f"{text.rstrip()} {tail}"


def cut_short(rng: random.Random, text: str) -> str:
    words = text.split(" ")
    keep = max(25, int(len(words) * rng.uniform(0.35, 0.85)))
    return " ".join(words[:keep]) + rng.choice(("", "...", " …"))


def latex_unicode(text: str) -> str | None:
    if "$" in text:
        out = latex_to_unicode(text)
    else:
        out = unicode_to_latex(text)
    return out if out != text else None


# ----------------------------------------------------------------------------- names
def strip_accents(s: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", s) if not unicodedata.combining(c))


def name_variant(kind: str, name: str) -> str:
    parts = name.split(" ")
    if kind == "upper":
        return name.upper()
    if kind == "lower":
        return name.lower()
    if kind == "no_accents":
        return strip_accents(name)
    if kind == "nfd":
        return unicodedata.normalize("NFD", name)
    if kind == "hyphen_space":
        return name.replace("-", " ") if "-" in name else name.replace(" ", "-", 1) if len(parts) == 2 else name
    if kind == "extra_spaces":
        return "  ".join(parts)
    if kind == "initials" and len(parts) >= 2 and parts[0][:1].isalpha() and len(parts[0]) > 2:
        return " ".join([parts[0][0] + "."] + parts[1:])
    return name


def author_line(rng: random.Random, names: list[str], fmt: str, kind: str) -> str:
    limit = 3 if fmt == "listing" else 10
    shown = list(names[:limit])
    if kind == "last_first":
        cut = [(" ".join(n.split(" ")[:-1]), n.split(" ")[-1]) for n in shown]
        line = "; ".join(f"{last}, {first}" if first else last for first, last in cut)
    else:
        if kind != "none":  # one or two of the shown names written another way
            for i in rng.sample(range(len(shown)), min(len(shown), rng.randint(1, 2))):
                shown[i] = name_variant(kind, shown[i])
        line = ", ".join(shown)
    if len(names) > limit:
        line += f" and {len(names) - limit} more" if fmt == "listing" else " 等"
    return line


# ----------------------------------------------------------------------------- injection
def _titles(tids: list[str]) -> dict[str, str]:
    """Titles of every truth paper (search-only papers have none in papers.parquet)."""
    real = load_realdata(default_realdata())
    titles = {}
    for p in real.papers:
        titles[p.tid] = p.text.title
    return {t: titles.get(t.split("~")[0]) for t in tids}


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+", text) if s]


def inject_variants(corpus_dir: Path, seed: int) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Write corpus_dir/variants/{listing,search}/*.txt; return (answer rows, twin papers)."""
    corpus_dir = Path(corpus_dir)
    rng = random.Random(f"inject:{seed}")
    papers = pl.read_parquet(corpus_dir / "papers.parquet")
    answer = pl.read_parquet(corpus_dir / "answer.parquet")
    home = answer.filter(pl.col("format") == "listing").group_by("truth_id").agg(
        pl.col("listed_on").first(), pl.col("category").first())
    home = {t: (d, c) for t, d, c in home.iter_rows()}
    days = sorted(d for d in answer["listed_on"].unique() if d is not None) or [dt.date(2026, 2, 4)]
    rows = papers.select("truth_id", "abstract", "authors", "title").to_dicts()
    titles = _titles([r["truth_id"] for r in rows])
    pool = [w for r in rng.sample(rows, min(400, len(rows))) for w in r["abstract"].split(" ") if w.isalpha() and len(w) > 3]
    with_math = [r for r in rows if "$" in r["abstract"] or any(c in r["abstract"] for c in "αβγδθλμσω≤≥")]

    records: list[dict] = []  # fmt, truth_id, kind, name_kind, title, authors line, abstract, date, category
    for r in rng.sample(rows, round(SHARE_VARIANTS * len(rows))):
        kind = rng.choice(PAPER_KINDS)
        edits = rng.sample(EDITS, 2) if kind == "combined" else [] if kind == "exact" else [kind]
        if "latex_unicode" in edits:
            r = rng.choice(with_math) if with_math else r
            edits.remove("latex_unicode")
            edits.insert(0, "latex_unicode")  # before edits that would cut the math out
        abstract = r["abstract"]
        for edit in edits:
            abstract = abstract and {
                "v2_revision": lambda t: v2_revision(rng, t, pool),
                "typo": lambda t: typo(rng, t),
                "latex_unicode": latex_unicode,
                "trailing_sentence": lambda t: trailing_sentence(rng, t),
                "cut_short": lambda t: cut_short(rng, t),
            }[edit](abstract)
        if abstract is None or len(abstract.split(" ")) < 25:
            continue
        records.append(_record(rng, r, titles, home, days, kind, abstract))
    twins = []
    by_source = list(rows)
    for r in rng.sample(rows, round(SHARE_TWINS * len(rows))):
        other = rng.choice(by_source)
        a, b = _sentences(r["abstract"]), _sentences(other["abstract"])
        if len(a) < 4 or len(b) < 4 or other["truth_id"] == r["truth_id"]:
            continue
        if rng.random() < 0.5:  # the template: first and last sentences kept, another paper's body
            abstract = " ".join([a[0], *b[1:-1], a[-1]])
        else:  # a sibling: every other sentence from another paper
            abstract = " ".join(x if i % 2 == 0 else b[min(i, len(b) - 1)] for i, x in enumerate(a))
        title = titles.get(r["truth_id"]) or ""
        t_words, o_words = title.split(" "), (titles.get(other["truth_id"]) or "x y").split(" ")
        k = max(1, len(t_words) // 2)
        twin_title = " ".join(t_words[:k] + o_words[len(o_words) // 2:])
        tid = f"{r['truth_id']}#twin"
        twin = {"truth_id": tid, "abstract": abstract, "authors": r["authors"], "title": twin_title}
        titles[tid] = twin_title
        twins.append({"truth_id": tid, "twin_of": r["truth_id"], "title": twin_title, "abstract": abstract,
                      "authors": list(r["authors"]), "author_total": len(r["authors"])})
        records.append(_record(rng, twin, titles, home, days, "twin", abstract))
    return _write(corpus_dir / "variants", rng, records), pl.DataFrame(
        twins, schema={"truth_id": pl.String, "twin_of": pl.String, "title": pl.String, "abstract": pl.String,
                       "authors": pl.List(pl.String), "author_total": pl.Int64})


def _record(rng, r, titles, home, days, kind, abstract) -> dict:
    fmt = rng.choice(("listing", "search"))
    date, cat = home.get(r["truth_id"].removesuffix("#twin")) or (rng.choice(days), "cs.LG")
    name_kind = rng.choice(NAME_KINDS)
    if name_kind == "last_first" and fmt == "search":  # search pages separate names by commas only
        name_kind = "none"
    return {
        "format": fmt, "truth_id": r["truth_id"], "kind": kind, "name_kind": name_kind,
        "title": titles.get(r["truth_id"]) or "Untitled", "authors": list(r["authors"]),
        "author_line": author_line(rng, list(r["authors"]), fmt, name_kind), "abstract": abstract,
        "listed_on": (date or rng.choice(days)) + dt.timedelta(days=rng.choice((0, 1, 2))),
        "category": cat if fmt == "listing" and cat and "·" not in cat else ("cs.LG" if fmt == "listing" else None),
    }


def _write(out: Path, rng: random.Random, records: list[dict]) -> pl.DataFrame:
    rng.shuffle(records)
    by_fmt: dict[str, list[dict]] = defaultdict(list)
    for rec in records:
        by_fmt[rec["format"]].append(rec)
    answer = []
    for fmt, recs in by_fmt.items():
        for f, start in enumerate(range(0, len(recs), RECORDS_PER_FILE), 1):
            chunk = recs[start:start + RECORDS_PER_FILE]
            rel = f"variants/{fmt}/{f:05d}.txt"
            text, spans = (_listing_text if fmt == "listing" else _search_text)(chunk)
            path = out.parent / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            for pos, (rec, (lo, hi)) in enumerate(zip(chunk, spans), 1):
                answer.append({"path": rel, "position": pos, "truth_id": rec["truth_id"], "format": fmt,
                               "line_start": lo, "line_end": hi,
                               "listed_on": rec["listed_on"] if fmt == "listing" else None,
                               "category": rec["category"], "kind": rec["kind"], "name_kind": rec["name_kind"],
                               "author_line": rec["author_line"]})
    return pl.DataFrame(answer, infer_schema_length=None)


def _listing_text(recs: list[dict]) -> tuple[str, list[tuple[int, int]]]:
    parts = []
    for i, r in enumerate(recs, 1):
        d = r["listed_on"]
        parts.append("\n".join([f"#{i:02d}{d.strftime('%b')} {d.day:02d}, {d.year}", r["category"], r["title"],
                                r["author_line"], r["abstract"]]))
    return "\n".join(parts), [(5 * i + 1, 5 * i + 5) for i in range(len(recs))]


def _search_text(recs: list[dict]) -> tuple[str, list[tuple[int, int]]]:
    paras, spans, line = ["论文检索"], [], 3
    for r in recs:
        block = [r["category"]] if r["category"] else []
        block += [r["author_line"], r["abstract"]]
        paras.extend(block)
        end = line + 2 * (len(block) - 1)
        spans.append((line, end))
        line = end + 2
    return "\n\n".join(paras), spans
