"""Persons within a name: which mentions of one name key are which person (issue 13).

Pure: Polars frames in, Polars frames out, no I/O. `assign_persons` takes the author mentions of
a batch of papers (with the evidence those papers carry) and the persons already stored for the
same name keys, and returns, for every mention, a person id and the decision record behind it.

Evidence a digest carries, strongest first: the co-authors shown (other name keys on the paper),
categories (arXiv codes, conference areas), the words of the title and abstract, dates, and how
common the name is. Commonness is the expected number of *other* people wearing the name,
``lam = n_given * n_surname / N`` over the distinct name keys known (the warehouse's and the
batch's): how many keys share the first token, how many the last token, out of all keys. A
collision on "wei wang" is likely (lam ~ 1 in a 30k-name warehouse, ~20 at 400k), on
"tongliang liu" it is not (lam ~ 0.01).

The model (Fellegi–Sunter style log-odds, weights fixed and chosen on the tuning corpus of
`eval.namesakes`, seed 11):

* **Rare names stay one person** (lam < `rare_lambda` per 100k names, at most one stored person): every
  mention joins that person, whatever its context. This is the bulk of mentions and is one
  vectorised Polars pass.
* **Common names split on evidence.** Per name key, mentions are taken in a canonical order
  (first listing date, nulls last, then paper id, then position). Each is scored against the
  persons of its name so far: ``prior + co-authors + categories + words + dates`` where
  prior = -log(lam) (clipped), every shared co-author adds `W_COAUTHOR` minus log(1 + lam of
  that co-author's own name) (a shared "yang liu" tells less than a shared "tongliang liu"), no
  shared co-author costs `W_NO_COAUTHOR`, a shared category / only a shared parent / nothing
  shared within one taxonomy adds `W_CAT_SAME` / `W_CAT_PARENT` / `W_CAT_NONE`, shared content
  words add up to `W_WORDS_CAP`, and listings years apart cost `W_YEARS`. The mention joins the
  best candidate if its score reaches `split_threshold` (the setting that tunes how eagerly
  names are split: higher splits more), else it founds a new person.
* **Cannot-link, no chaining through rejected pairs.** A person that already holds the
  mention's paper (the same name twice on one author list) is never a candidate. When a
  mention also reaches the threshold (plus `merge_margin`) with a second person, the two are
  merged (an alias, the younger person pointing at the elder) only if they share no paper and
  their own person-to-person score is not a rejection (>= `reject_below`): two persons kept
  apart on evidence are never joined through a third mention.
* **Bounded cost.** A mention is scored against the persons of its name that share one of its
  co-authors (an inverted index, at most `max_per_coauthor` most recent per co-author) plus the
  `max_candidates` largest: at most ~40 candidates whatever the name's size, so the work is
  linear in mentions. Only mentions of common names (a few per cent) go through the Python loop.

Ids never move. The first person of a name key keeps ``stable_id(name_key)`` — today's
author_id, so rare names and the first person of every name keep their ids when this model is
introduced; every further person is ``stable_id(name_key ␟ paper_id ␟ author_position)`` of its
founding mention (`transforms.ids`, the warehouse's one id definition). A new mention joins an
existing person or founds one; stored persons are never renumbered; when a mention shows two
stored persons are one, `aliases` says so (from → to) and the elder (earlier founding key) wins.

Fresh vs incremental: a batch is processed in the same canonical order a fresh load uses, and
stored persons carry their whole evidence (`PERSON_SCHEMA`), so feeding the files in date order,
in any number of chunks, gives the persons a fresh load gives, except when (a) a later chunk
holds mentions that sort *before* stored ones (older dates, or undated search records whose
paper is later listed), or (b) a name's commonness crosses `rare_lambda` between chunks (lam
grows as the warehouse grows), so an early chunk kept a name whole that a fresh load splits.
`eval.namesakes` measures how often this happens.

Library choice. splink 5.0 (Fellegi–Sunter, term-frequency adjustments, DuckDB backend) was
evaluated first: it installs offline and runs on DuckDB 2.0.1. It was not adopted: (1) it
compares record *pairs* inside a block, so blocking on the name key is quadratic in a name's
mentions (1M synthetic mentions, 12M pairs: `predict` alone 10.2 s, above the ~6 s budget of
the whole author step; the largest block, 3,025 mentions, is 4.6M pairs by itself); (2) its
clustering is connected components at a threshold, which chains strangers through rejected
pairs, the failure the issue forbids; (3) it has no notion of stored persons with stable ids:
an incremental load would re-cluster and renumber. What was kept from it is the model form:
additive log-odds per comparison level, with a name-frequency (term-frequency) prior.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from dataclasses import dataclass, field

import polars as pl

from transforms.ids import with_stable_ids

SEP = "\x1f"

# ----------------------------------------------------------------------------- settings
@dataclass(frozen=True)
class PersonSettings:
    """How eagerly names are split. `split_threshold` is the main knob (log-odds a mention
    needs to join an existing person; higher = more persons)."""

    split_threshold: float = 0.0
    rare_lambda: float = 1.0  # names with fewer expected namesakes (per 100k names) stay one person
    merge_margin: float = 1.0  # a second person merges only when the mention also fits it this well
    reject_below: float = -2.0  # two persons whose categories/dates disagree this much never merge
    max_candidates: int = 16  # largest persons of the name always scored
    max_per_coauthor: int = 16  # most recent persons per shared co-author scored
    weights: dict = field(default_factory=lambda: dict(WEIGHTS))


WEIGHTS = {
    "prior_common": -3.0, "prior_slope": 0.5, "prior_min": -5.0,
    "coauthor": 6.0, "coauthor_min": 1.5, "coauthor_cap": 10.0, "no_coauthor": -1.0,
    "cat_same": 1.5, "cat_parent": 0.5, "cat_none": -2.0, "area_none": -0.5,
    "word": 0.3, "words_cap": 1.5, "no_words": -0.5, "min_words": 8,
    "years": -1.0, "years_apart": 6,
}

REF_NAMES = 100_000  # lam is "other wearers among 100k distinct names"
ONE_WORD_LAMBDA = 10.0
MAX_WORDS = 40  # content words kept per paper (first seen, title first)
MAX_PROFILE_WORDS = 600  # content words kept per person
_WORD = r"[a-z][a-z\-]{4,}"
STOPWORDS = frozenset("""
about above across after again against algorithm algorithms allow allows along already also although always among
analysis another approach approaches based because become been before being below benchmark benchmarks better
between both cannot could data dataset datasets demonstrate demonstrates different during each effective efficient
either enable enables every existing experiments first framework from further given have however improve improved
improves including information into large learning level method methods model models more most much multiple
network networks novel other over paper performance problem problems propose proposed provide provides recent
results same several should show shows significant significantly since some state still such system systems task
tasks than that their them then there these they this those three through thus under using various very well were
what when where whether which while within without work would achieve achieves address approach across art based
common complex critical current design existing however highly however important key known leading learn learned
make makes making many need needs only order other present presents remains required research set setting
simple single specific study studies their training trained while world wide """.split())

PERSON_SCHEMA = {
    "person_id": pl.Int64, "name_key": pl.String, "founded_key": pl.String, "first_on": pl.Date,
    "last_on": pl.Date, "n_mentions": pl.Int64, "paper_ids": pl.List(pl.Int64), "coauthors": pl.List(pl.String),
    "categories": pl.List(pl.String), "words": pl.List(pl.String),
}
ASSIGNMENT_SCHEMA = {
    "paper_id": pl.Int64, "author_position": pl.Int32, "name_key": pl.String, "person_id": pl.Int64,
    "rule": pl.String, "score": pl.Float64, "name_lambda": pl.Float64, "prior": pl.Float64,
    "n_candidates": pl.Int32, "candidates": pl.List(pl.Int64), "candidate_scores": pl.List(pl.Float64),
    "coauthors_shared": pl.Int32, "category_level": pl.String, "words_shared": pl.Int32, "years_apart": pl.Int32,
}
ALIAS_SCHEMA = {"from_person_id": pl.Int64, "to_person_id": pl.Int64, "name_key": pl.String,
                "paper_id": pl.Int64, "author_position": pl.Int32, "score": pl.Float64, "rule": pl.String}


@dataclass(frozen=True)
class PersonsResult:
    assignments: pl.DataFrame  # one row per input mention: person_id (after aliases) + the decision record
    persons: pl.DataFrame  # every person touched, with its evidence (PERSON_SCHEMA): upsert by person_id
    aliases: pl.DataFrame  # stored or new persons found to be another person (ALIAS_SCHEMA)


def empty_persons() -> pl.DataFrame:
    return pl.DataFrame(schema=PERSON_SCHEMA)


# ----------------------------------------------------------------------------- name commonness
def name_parts(keys: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    toks = keys.str.split(" ")
    return toks.list.first(), toks.list.last()


def name_commonness(keys: pl.Series) -> pl.DataFrame:
    """lam per distinct name key: the expected number of other people wearing it in a population
    of REF_NAMES distinct names, from given-name and surname frequencies over the distinct keys
    given (n_given / N * n_surname / N * REF_NAMES). A frequency, not a count: it does not grow as
    the warehouse grows, so a name is common or rare the same way in a first chunk and in the
    whole corpus. A one-word name says little about who it is: common."""
    k = pl.DataFrame({"name_key": keys}).unique().with_columns(
        given=name_parts(pl.col("name_key"))[0], surname=name_parts(pl.col("name_key"))[1],
        n_tokens=pl.col("name_key").str.count_matches(" ") + 1)
    n = max(k.filter(pl.col("n_tokens") >= 2).height, 1)
    k = k.with_columns(n_given=pl.len().over("given"), n_surname=pl.len().over("surname"))
    return k.select("name_key", "given", "surname", lam=pl.when(pl.col("n_tokens") >= 2)
                    .then(pl.col("n_given").cast(pl.Float64) * pl.col("n_surname") / n / n * REF_NAMES)
                    .otherwise(pl.lit(ONE_WORD_LAMBDA)))


# ----------------------------------------------------------------------------- evidence
def _taxonomy_of(code: str) -> str:
    return "arxiv" if re.fullmatch(r"[a-z\-]+(\.[A-Za-z\-]+)?", code) else "conference"


def _parent_of(code: str) -> str:
    return code.split(" · ")[0] if " · " in code else code.split(".")[0]


def _paper_words(papers: pl.DataFrame) -> pl.DataFrame:
    text = pl.concat_str([pl.col("title").fill_null(""), pl.col("abstract").fill_null("")], separator=" ")
    return papers.select(
        "paper_id",
        words=text.str.to_lowercase().str.extract_all(_WORD)
        .list.eval(pl.element().filter(~pl.element().is_in(list(STOPWORDS)))).list.unique(maintain_order=True)
        .list.head(MAX_WORDS))


def mention_evidence(mentions: pl.DataFrame, papers: pl.DataFrame, paper_categories: pl.DataFrame,
                     with_words: pl.Series | None = None) -> pl.DataFrame:
    """One row per mention: its co-author keys, the paper's category codes, content words (only
    for papers listed in `with_words`, None = all) and date, in the canonical order."""
    keys = mentions.group_by("paper_id").agg(paper_keys=pl.col("name_key").unique())
    cats = paper_categories.group_by("paper_id").agg(categories=pl.col("code").unique().sort())
    p = papers.select("paper_id", "title", "abstract", pl.col("first_listed_on").alias("listed_on"))
    if with_words is not None:
        p = p.filter(pl.col("paper_id").is_in(with_words.implode()))
    words = _paper_words(p)
    ev = (mentions.select("paper_id", "author_position", "name_key")
          .join(keys, on="paper_id", how="left")
          .join(cats, on="paper_id", how="left")
          .join(papers.select("paper_id", pl.col("first_listed_on").alias("listed_on")), on="paper_id", how="left")
          .join(words, on="paper_id", how="left")
          .with_columns(coauthors=pl.col("paper_keys").list.set_difference(pl.concat_list(pl.col("name_key")))
                        .list.sort(),
                        categories=pl.col("categories").fill_null(pl.lit([], pl.List(pl.String))),
                        words=pl.col("words").fill_null(pl.lit([], pl.List(pl.String))))
          .drop("paper_keys"))
    return ev.sort(["listed_on", "paper_id", "author_position"], nulls_last=True)


def _founded_key_expr() -> pl.Expr:
    """`_founded_key` of the columns listed_on, paper_id, author_position, vectorised."""
    return pl.concat_str([pl.col("listed_on").cast(pl.String).fill_null("9999-12-31"),
                          pl.col("paper_id").cast(pl.String).str.zfill(19),
                          pl.col("author_position").cast(pl.String).str.zfill(5)], separator="|")


def _founded_key(listed_on, paper_id: int, position: int) -> str:
    d = listed_on.isoformat() if listed_on is not None else "9999-12-31"
    return f"{d}|{paper_id:019d}|{position:05d}"


# ----------------------------------------------------------------------------- the common-name loop
class _Person:
    __slots__ = ("pid", "founded", "first_on", "last_on", "n", "papers", "coauthors", "cats", "parents", "words",
                 "touched", "stored", "coauthors_set", "words_set")

    def __init__(self, pid, founded, first_on, last_on, n, papers, coauthors, cats, words, stored):
        self.pid, self.founded, self.first_on, self.last_on, self.n = pid, founded, first_on, last_on, n
        self.papers, self.coauthors, self.cats = set(papers), list(coauthors), set(cats)
        self.parents = {(_taxonomy_of(c), _parent_of(c)) for c in self.cats}
        self.words = list(words)
        self.touched, self.stored = not stored, stored

    def add(self, paper_id, listed_on, coauthors, cats, words):
        self.papers.add(paper_id)
        seen = set(self.coauthors)
        self.coauthors += [c for c in coauthors if c not in seen]
        new = set(cats) - self.cats
        self.cats |= new
        self.parents |= {(_taxonomy_of(c), _parent_of(c)) for c in new}
        if len(self.words) < MAX_PROFILE_WORDS:
            ws = set(self.words)
            self.words += [w for w in words if w not in ws][: MAX_PROFILE_WORDS - len(self.words)]
        if listed_on is not None:
            self.first_on = listed_on if self.first_on is None else min(self.first_on, listed_on)
            self.last_on = listed_on if self.last_on is None else max(self.last_on, listed_on)
        self.n += 1
        self.touched = True

    def absorb(self, other: "_Person"):
        self.papers |= other.papers
        seen = set(self.coauthors)
        self.coauthors += [c for c in other.coauthors if c not in seen]
        self.cats |= other.cats
        self.parents |= other.parents
        ws = set(self.words)
        self.words += [w for w in other.words if w not in ws][: max(0, MAX_PROFILE_WORDS - len(self.words))]
        for d in (other.first_on, other.last_on):
            if d is not None:
                self.first_on = d if self.first_on is None else min(self.first_on, d)
                self.last_on = d if self.last_on is None else max(self.last_on, d)
        self.n += other.n
        self.touched = True


class _Scorer:
    def __init__(self, settings: PersonSettings, lam_of):
        self.s, self.w, self.lam_of = settings, settings.weights, lam_of

    def prior(self, lam: float) -> float:
        """Log-odds that a mention of a common name is a given person of that name before any
        evidence: low, and lower the more common the name."""
        w = self.w
        excess = math.log(max(lam, 1e-9) / self.s.rare_lambda)
        return max(w["prior_min"], w["prior_common"] - w["prior_slope"] * max(0.0, excess))

    def contradicts(self, q: _Person, p: _Person) -> bool:
        """Two persons kept apart on evidence: no co-author in common and their categories and
        dates disagree by at least `reject_below` (papers in different arXiv archives only)."""
        if q.coauthors_set & p.coauthors_set:
            return False
        _, _, level, _, years = self.features((), q.cats, q.parents, (), q.first_on, p)
        conflict = {"different": self.w["cat_none"], "other_area": self.w["area_none"]}.get(level, 0.0)
        if years is not None and years >= self.w["years_apart"]:
            conflict += self.w["years"]
        return conflict <= self.s.reject_below

    def features(self, coauthors, cats, parents, words, listed_on, p: _Person):
        w = self.w
        shared = [c for c in coauthors if c in p.coauthors_set] if coauthors else []
        if shared:
            co = min(w["coauthor_cap"], sum(max(w["coauthor_min"], w["coauthor"] - math.log1p(self.lam_of(c)))
                                            for c in shared))
        else:
            co = w["no_coauthor"] if coauthors and p.coauthors else 0.0
        level, cat = "none_known", 0.0
        if cats and p.cats:
            if cats & p.cats:
                level, cat = "same", w["cat_same"]
            else:
                taxes = {t for t, _ in parents} & {t for t, _ in p.parents}
                if parents & p.parents:
                    level, cat = "parent", w["cat_parent"]
                elif "arxiv" in taxes:
                    level, cat = "different", w["cat_none"]
                elif taxes:
                    level, cat = "other_area", w["area_none"]
        n_words = 0
        if words and p.words:
            pw = p.words_set
            n_words = sum(1 for x in words if x in pw)
        if n_words:
            wd = min(w["words_cap"], w["word"] * n_words)
        else:
            wd = w["no_words"] if len(words) >= w["min_words"] and len(p.words) >= w["min_words"] else 0.0
        years = None
        if listed_on is not None and p.first_on is not None:
            lo, hi = p.first_on, p.last_on
            years = max(0, (lo - listed_on).days, (listed_on - hi).days) // 365
        yr = w["years"] if years is not None and years >= w["years_apart"] else 0.0
        return co + cat + wd + yr, len(shared), level, n_words, years


def _assign_common(ev: pl.DataFrame, stored: pl.DataFrame, lam: dict, lam_of, settings: PersonSettings):
    """The per-name loop over mentions of common names (canonical order), bounded candidates."""
    scorer = _Scorer(settings, lam_of)
    persons_by_name: dict[str, list[_Person]] = defaultdict(list)
    for r in stored.iter_rows(named=True):
        persons_by_name[r["name_key"]].append(_Person(
            r["person_id"], r["founded_key"], r["first_on"], r["last_on"], r["n_mentions"], r["paper_ids"] or [],
            r["coauthors"] or [], r["categories"] or [], r["words"] or [], stored=True))
    records, aliases = [], []
    alias_of: dict[int, int] = {}
    new_founders: list[tuple[int, str, int, int]] = []  # (row, name_key, paper_id, position) needing an id
    cols = ev.select("paper_id", "author_position", "name_key", "listed_on", "coauthors", "categories", "words")
    for block in cols.sort(["name_key", "listed_on", "paper_id", "author_position"], nulls_last=True).partition_by(
            "name_key", maintain_order=True):
        name_key = block["name_key"][0]
        persons = persons_by_name[name_key]
        for p in persons:
            p.coauthors_set = set(p.coauthors)
            p.words_set = set(p.words)
        index: dict[str, list[_Person]] = defaultdict(list)
        for p in persons:
            for c in p.coauthors:
                index[c].append(p)
        lam_n = lam[name_key]
        prior = scorer.prior(lam_n)
        for paper_id, pos, _, listed_on, coauthors, cats, words in block.iter_rows():
            cats_s = set(cats)
            parents = {(_taxonomy_of(c), _parent_of(c)) for c in cats_s}
            live = [p for p in persons if p.pid not in alias_of]
            if len(live) <= settings.max_candidates:
                cands = live
            else:
                seen: dict[int, _Person] = {}
                for p in sorted(live, key=lambda q: (-q.n, q.founded))[: settings.max_candidates]:
                    seen[p.pid] = p
                for c in coauthors:
                    for p in index.get(c, ())[-settings.max_per_coauthor:]:
                        if p.pid not in alias_of:
                            seen[p.pid] = p
                cands = list(seen.values())
            cands = [p for p in cands if paper_id not in p.papers]  # cannot-link: same paper
            scored = []
            for p in cands:
                total, n_co, level, n_w, years = scorer.features(coauthors, cats_s, parents, words, listed_on, p)
                scored.append((prior + total, p.founded, p, n_co, level, n_w, years))
            scored.sort(key=lambda t: (-t[0], t[1]))
            rule, best = "new_person", None
            if scored and scored[0][0] >= settings.split_threshold:
                best = scored[0]
                rule = "joined"
                target = best[2]
                for sc, _, q, *_ in scored[1:]:
                    if sc < settings.split_threshold + settings.merge_margin or q.pid in alias_of:
                        continue
                    if target.papers & q.papers:
                        continue
                    if scorer.contradicts(q, target):
                        continue
                    elder, younger = (target, q) if target.founded <= q.founded else (q, target)
                    elder.absorb(younger)
                    elder.coauthors_set = set(elder.coauthors)
                    elder.words_set = set(elder.words)
                    for c in younger.coauthors:
                        index[c].append(elder)
                    alias_of[younger.pid] = elder.pid
                    aliases.append((younger.pid, elder.pid, name_key, paper_id, pos, sc, "merged_by_mention"))
                    target = elder
                    rule = "joined_merged"
                target.add(paper_id, listed_on, coauthors, cats, words)
                target.coauthors_set.update(coauthors)
                target.words_set = set(target.words)
                for c in coauthors:
                    if not index[c] or index[c][-1] is not target:
                        index[c].append(target)
                pid = target.pid
            else:
                p = _Person(None, _founded_key(listed_on, paper_id, pos), listed_on, listed_on, 0, [], [], [], [],
                            stored=False)
                p.pid = ("new", len(new_founders))
                first_of_name = not persons
                new_founders.append((len(records), name_key, paper_id, pos, first_of_name))
                p.add(paper_id, listed_on, coauthors, cats, words)
                p.coauthors_set, p.words_set = set(p.coauthors), set(p.words)
                persons.append(p)
                for c in coauthors:
                    index[c].append(p)
                pid = p.pid
            top = scored[: 8]
            ref = best or (scored[0] if scored else None)
            records.append({
                "paper_id": paper_id, "author_position": pos, "name_key": name_key, "person_id": pid, "rule": rule,
                "score": ref[0] if ref else None, "name_lambda": lam_n, "prior": prior,
                "n_candidates": len(scored), "candidates": [t[2].pid for t in top], "candidate_scores": [t[0] for t in top],
                "coauthors_shared": ref[3] if ref else None, "category_level": ref[4] if ref else None,
                "words_shared": ref[5] if ref else None, "years_apart": ref[6] if ref else None,
            })
    return records, aliases, alias_of, new_founders, persons_by_name


def _resolve(pid, alias_of):
    while pid in alias_of:
        pid = alias_of[pid]
    return pid


# ----------------------------------------------------------------------------- entry point
def assign_persons(
    mentions: pl.DataFrame,
    papers: pl.DataFrame,
    paper_categories: pl.DataFrame,
    stored: pl.DataFrame | None = None,
    known_name_keys: pl.Series | None = None,
    settings: PersonSettings = PersonSettings(),
) -> PersonsResult:
    """Assign every mention of `mentions` to a person.

    mentions: paper_id (Int64), author_position (Int32), name_key (String, after alias
        resolution: the key of today's dim_author row) — every shown author of every paper of the
        batch (co-authors are read from here).
    papers: paper_id, title, abstract, first_listed_on (Date, null for search-only papers).
    paper_categories: paper_id, code (dim_category.code of bridge_paper_category).
    stored: the stored persons (PERSON_SCHEMA) of every name key in `mentions` (all of them,
        aliased ones excluded); None or empty for a fresh load.
    known_name_keys: every distinct name key of the warehouse before this batch (name
        commonness); the batch's and stored keys are added.
    """
    stored = empty_persons() if stored is None else stored.select(list(PERSON_SCHEMA)).cast(PERSON_SCHEMA)
    mentions = mentions.select(pl.col("paper_id").cast(pl.Int64), pl.col("author_position").cast(pl.Int32),
                               pl.col("name_key").cast(pl.String))
    keys = [mentions["name_key"], stored["name_key"]]
    if known_name_keys is not None:
        keys.append(known_name_keys.cast(pl.String))
    common_tbl = name_commonness(pl.concat(keys).unique())
    lam = dict(common_tbl.select("name_key", "lam").iter_rows())
    g_count = dict(common_tbl.group_by("given").len().iter_rows())
    s_count = dict(common_tbl.group_by("surname").len().iter_rows())
    n_keys = max(common_tbl.height, 1)

    def lam_of(key: str) -> float:
        v = lam.get(key)
        if v is None:
            toks = key.split(" ")
            v = (g_count.get(toks[0], 1) * s_count.get(toks[-1], 1) / n_keys) if len(toks) >= 2 else 1.0
            lam[key] = v
        return v

    batch_keys = mentions.select("name_key").unique().join(common_tbl.select("name_key", "lam"), on="name_key")
    n_stored = stored.group_by("name_key").agg(n_stored=pl.len())
    batch_keys = batch_keys.join(n_stored, on="name_key", how="left").with_columns(pl.col("n_stored").fill_null(0))
    rare_keys = batch_keys.filter((pl.col("lam") < settings.rare_lambda) & (pl.col("n_stored") <= 1))["name_key"]
    is_rare = pl.col("name_key").is_in(rare_keys.implode())
    common_papers = mentions.filter(~is_rare)["paper_id"].unique()
    ev = mention_evidence(mentions, papers, paper_categories, with_words=common_papers)

    # rare names: one person each, vectorised
    rare = ev.filter(is_rare)
    rare_first = rare.group_by("name_key", maintain_order=True).first()  # canonical order: the founder
    rare_person = (rare_first.select("name_key", "listed_on", "paper_id", "author_position")
                   .join(stored.select("name_key", "person_id"), on="name_key", how="left"))
    rare_person = with_stable_ids(rare_person, {"new_id": ["name_key"]}).with_columns(
        person_id=pl.coalesce("person_id", "new_id"))
    rare_out = rare.join(rare_person.select("name_key", "person_id"), on="name_key").join(
        batch_keys.select("name_key", "lam"), on="name_key")
    rare_assign = rare_out.select(
        "paper_id", "author_position", "name_key", "person_id", rule=pl.lit("rare_name"), score=pl.lit(None, pl.Float64),
        name_lambda="lam", prior=pl.lit(None, pl.Float64), n_candidates=pl.lit(None, pl.Int32),
        candidates=pl.lit(None, pl.List(pl.Int64)), candidate_scores=pl.lit(None, pl.List(pl.Float64)),
        coauthors_shared=pl.lit(None, pl.Int32), category_level=pl.lit(None, pl.String),
        words_shared=pl.lit(None, pl.Int32), years_apart=pl.lit(None, pl.Int32))
    founders = rare_person.select("name_key", "person_id", "listed_on", "paper_id", "author_position")
    rare_new = (rare_out.group_by("person_id").agg(
        pl.col("name_key").first(), first_on=pl.col("listed_on").min(), last_on=pl.col("listed_on").max(),
        n_mentions=pl.len().cast(pl.Int64), paper_ids=pl.col("paper_id").unique(maintain_order=True),
        coauthors=pl.col("coauthors").list.explode(keep_nulls=False, empty_as_null=False).unique(maintain_order=True),
        categories=pl.col("categories").list.explode(keep_nulls=False, empty_as_null=False).unique(maintain_order=True),
        words=pl.col("words").list.explode(keep_nulls=False, empty_as_null=False).unique(maintain_order=True).head(MAX_PROFILE_WORDS))
        .join(founders.select("person_id", "listed_on", "paper_id", "author_position"), on="person_id")
        .with_columns(founded_key=_founded_key_expr())
        .drop("listed_on", "paper_id", "author_position"))
    rare_persons = _merge_profiles(stored.join(rare_new.select("person_id"), on="person_id", how="semi"), rare_new)

    # common names: the bounded per-name loop
    common_ev = ev.filter(~is_rare)
    common_stored = stored.join(common_ev.select("name_key").unique(), on="name_key", how="semi")
    records, aliases, alias_of, new_founders, persons_by_name = _assign_common(
        common_ev, common_stored, lam, lam_of, settings)
    # ids for new persons: stable_id(name_key) for the first person of a name, else of the founding mention
    ids = {}
    if new_founders:
        nf = pl.DataFrame(new_founders, schema=["row", "name_key", "paper_id", "author_position", "first"], orient="row")
        nf = with_stable_ids(nf, {"id_name": ["name_key"], "id_mention": ["name_key", "paper_id", "author_position"]})
        for i, (row, first, a, b) in enumerate(nf.select("row", "first", "id_name", "id_mention").iter_rows()):
            ids[("new", i)] = a if first else b
    fix = lambda pid: ids.get(pid, pid) if isinstance(pid, tuple) else pid  # noqa: E731
    alias_of = {fix(k): fix(v) for k, v in alias_of.items()}
    for r in records:
        r["person_id"] = _resolve(fix(r["person_id"]), alias_of)
        r["candidates"] = [fix(c) for c in r["candidates"]]
    common_assign = pl.DataFrame(records, schema=ASSIGNMENT_SCHEMA) if records else pl.DataFrame(schema=ASSIGNMENT_SCHEMA)
    prof = []
    for plist in persons_by_name.values():
        for p in plist:
            pid = fix(p.pid)
            if p.touched and pid not in alias_of:
                prof.append({"person_id": pid, "name_key": None, "founded_key": p.founded, "first_on": p.first_on,
                             "last_on": p.last_on, "n_mentions": p.n, "paper_ids": sorted(p.papers),
                             "coauthors": p.coauthors, "categories": sorted(p.cats), "words": p.words})
    name_of = {fix(p.pid): k for k, plist in persons_by_name.items() for p in plist}
    for r in prof:
        r["name_key"] = name_of[r["person_id"]]
    common_persons = pl.DataFrame(prof, schema=PERSON_SCHEMA) if prof else empty_persons()
    alias_df = (pl.DataFrame([(fix(a), _resolve(fix(b), alias_of), *rest) for a, b, *rest in aliases],
                             schema=ALIAS_SCHEMA, orient="row") if aliases else pl.DataFrame(schema=ALIAS_SCHEMA))

    assignments = pl.concat([rare_assign.cast(ASSIGNMENT_SCHEMA), common_assign]).sort("paper_id", "author_position")
    persons = pl.concat([rare_persons.select(list(PERSON_SCHEMA)).cast(PERSON_SCHEMA), common_persons]).sort("person_id")
    return PersonsResult(assignments, persons, alias_df)


def _merge_profiles(old: pl.DataFrame, new: pl.DataFrame) -> pl.DataFrame:
    """Stored profile + this batch's evidence of the same person (rare names), vectorised."""
    both = pl.concat([old.select(list(PERSON_SCHEMA)).cast(PERSON_SCHEMA).with_columns(_o=pl.lit(0)),
                      new.select(list(PERSON_SCHEMA)).cast(PERSON_SCHEMA).with_columns(_o=pl.lit(1))]).sort("_o")
    return both.group_by("person_id").agg(
        pl.col("name_key").first(), pl.col("founded_key").min(), pl.col("first_on").min(), pl.col("last_on").max(),
        pl.col("n_mentions").sum(), pl.col("paper_ids").list.explode(keep_nulls=False, empty_as_null=False).unique(maintain_order=True),
        pl.col("coauthors").list.explode(keep_nulls=False, empty_as_null=False).unique(maintain_order=True),
        pl.col("categories").list.explode(keep_nulls=False, empty_as_null=False).unique(maintain_order=True),
        pl.col("words").list.explode(keep_nulls=False, empty_as_null=False).unique(maintain_order=True).head(MAX_PROFILE_WORDS))
