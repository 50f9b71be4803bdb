"""Persons within a name: which mentions of one name key are which person (issue 13).

Pure: Polars frames in, Polars frames out, no I/O. `assign_persons` takes the author mentions of
a batch of papers (with the evidence those papers carry) and the stored persons of the same name
keys, and returns, for every mention, a person id and the decision record behind it (rule,
candidates scored, their scores, the features of the best one), the persons touched, and the
aliases found.

Evidence a digest carries, strongest first: the co-authors shown (the other name keys on the
paper), categories (arXiv codes, conference areas), the first content words of title and
abstract, listing dates, and how common the name is. **Commonness** `lam` is the expected number
of other people wearing the name among 100,000 distinct names: ``n_given / N * n_surname / N *
1e5`` over the distinct name keys known (warehouse + batch; given = first word, surname = last
word). A frequency, so it does not grow with the warehouse: "wei wang" ~9, "yang hu" ~1.4,
"tongliang liu" ~0.08 on the real corpus of ../shared/realdata (26k two-word keys).

The model (Fellegi–Sunter style additive log-odds; weights in `WEIGHTS`, chosen on the tuning
corpus of `eval.namesakes`, seed 11; the held-out seed 29 was not used for tuning):

* **Rare names stay one person** (lam < `rare_lambda` = 1 and at most one stored person): every
  mention joins the name's person, whatever its context. ~88–92 % of real mentions; one vectorised
  Polars pass, no evidence read. Except a later place of the name on one list ("Jiachen Guo, ...,
  Jiachen Guo"): a person holds one place of a list, so that place is a person of its own, as the
  cannot-link below makes it for a common name (`_assign_rare`).
* **Common names split on evidence.** Per name key, mentions are taken in a canonical order
  (first listing date, undated last, then paper id, then position) and scored against the
  persons of the name so far: ``prior + co-authors + categories + words + years``. prior =
  `prior_common` (-3) minus `prior_slope` * log(lam / rare_lambda): low, lower for commoner names.
  Each shared co-author adds `coauthor` (6) minus log(1 + lam of the co-author's own name): a
  shared "yang liu" tells less than a shared "tongliang liu"; no shared co-author costs 1. Same
  category +1.5, same archive/area only +0.5, other arXiv archive -2, other conference area
  -0.5 (a code's taxonomy and parent as dim_category holds them: `_category_keys`); shared
  content words +0.3 each up to 1.2; listings >= 6 years apart -1. The mention joins the best
  person if the score reaches `split_threshold` (default -1; the setting that tunes how eagerly
  names are split: higher = more persons), else it founds a new person. With
  these weights a mention of a common name joins a person without a shared co-author only when
  one of the two shows no co-author at all (a solo paper) and category and >= 2 content words
  agree (-3 + 1.5 + 0.6); otherwise a shared co-author is needed, and categories, words and
  years decide between persons that share co-authors and keep apart the ones that do not.
* **Cannot-link; no chaining through rejected pairs.** A person that already holds the
  mention's paper (the name twice on one author list) is never a candidate. When a mention also
  reaches the threshold (+ `merge_margin`) with a second person, the two persons are merged (an
  alias: the younger points at the elder) unless they share a paper or contradict each other
  (`contradicts`: no co-author in common and papers in other arXiv archives, or years apart,
  adding up to <= `reject_below`). So A–C and B–C links never join A and B when A and B were
  kept apart on evidence. Nor does a mention merge two persons that each already hold
  `merge_established` (2) papers when it shares only one co-author with the second: A (with B)
  and C (with D), two pairs renamed "Wei Wang" and "Yang Liu", or two lab-mates of one professor
  wearing one name, each established on their own papers, look exactly like that (namesake
  corpora, six seeds: worst-seed precision 0.9831 -> 0.9861 through the warehouse, 0.9934 ->
  0.99495 on frames; recall 1.0 -> 0.9986 on some seeds; `eval.pairs_of_pairs`).
* **Bounded cost.** A mention is scored only against persons of its name that share one of its
  co-authors (an inverted index, the `max_per_coauthor` most recent per co-author), plus the
  `max_candidates` most recent persons when evidence other than co-authors could reach the
  threshold. Work per mention is bounded whatever the size of the name; the loop runs only for
  mentions of common names (~8–12 % of real mentions). At 1M mentions the whole call costs
  2.6–4.4 CPU seconds (13–18 s wall on the shared, overloaded 2-core machine it was measured on;
  `python -m eval.namesakes --throughput 1000000`); a +1 % load 0.35–0.8 CPU seconds.

Ids never move. The first person of a name key gets ``stable_id(name_key)`` — today's
author_id, so rare names and the first person of every name keep their ids when this model is
introduced; every further person is ``stable_id(name_key ␟ paper_id ␟ author_position)`` of its
founding mention (`transforms.ids`, the warehouse's one id definition). A new mention joins an
existing person or founds one; stored persons are never renumbered; when a mention shows two
persons are one, `aliases` says so (from → to) and the elder (earlier `founded_key`) survives.

Fresh vs incremental. A batch is processed in the canonical order a fresh load uses, and stored
persons come back with the evidence the loop had gathered (`persons` rows of earlier batches, or
`person_profiles` from the stored mentions), so loading the files in date order, in any number
of chunks, gives the persons a fresh load gives, except (a) when a name is rare by the
statistics of the load that first sees it and common by those of the whole corpus, or the
other way round: commonness is estimated from the names known so far (in `eval.namesakes`, 35
of 26k name keys with three equal chunks, 25–28 with 90/5/5 loads; ~0.1–0.2 % of mentions);
(b) when a later load holds mentions that sort before stored ones (older dates, undated search
records) — they are decided after the stored ones, not before.

Library choice. splink 5.0.0 (Fellegi–Sunter with term-frequency adjustments, DuckDB backend)
was evaluated first: it installs offline here and runs on DuckDB 2.0.1 (no pin on old duckdb).
It was not adopted: (1) it scores record *pairs* inside a block, so blocking on the name key is
quadratic in a name's mentions: on 1M synthetic mentions (12M pairs, largest block 3,025
mentions = 4.6M pairs) `predict` alone took 10.2 s with fixed parameters, before any training,
above the ~6 s budget of the whole author step; (2) its clustering is connected components at a
threshold, which chains strangers through rejected pairs, the failure the issue forbids; (3) it
has no stored persons with stable ids: an incremental load re-clusters, and cluster ids move.
What is kept from it is the model's form: additive log-odds per comparison level, with a
name-frequency (term-frequency) prior.
"""

from __future__ import annotations

import gc
import math
import time
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import polars as pl

from transforms.ids import with_stable_ids

SEP = "\x1f"

# ----------------------------------------------------------------------------- settings
@dataclass(frozen=True)
class PersonSettings:
    """How eagerly names are split. `split_threshold` is the main knob (log-odds a mention
    needs to join an existing person; higher = more persons)."""

    split_threshold: float = -1.0  # eval.namesakes, tuning seed 11: -3 0.970 P / 182 groups, -1 best, +3 0.972 R
    rare_lambda: float = 1.0  # names with fewer expected namesakes (per 100k names) stay one person
    merge_margin: float = 1.0  # a second person merges only when the mention also fits it this well
    reject_below: float = -2.0  # two persons whose categories/dates disagree this much never merge
    # two persons that each hold this many papers merge only when the mention shares >= 2 co-authors
    # with the second one (one shared name is what two pairs of namesakes, or two lab-mates wearing
    # one name, look like: eval.pairs_of_pairs); 0 = no such rule
    merge_established: int = 2
    max_candidates: int = 4  # most recent persons also scored without a shared co-author (when that could reach the threshold)
    max_per_coauthor: int = 16  # most recent persons per shared co-author scored
    weights: dict = field(default_factory=lambda: dict(WEIGHTS))


WEIGHTS = {
    "prior_common": -3.0, "prior_slope": 0.5, "prior_min": -5.0,
    "coauthor": 6.0, "coauthor_slope": 1.0, "coauthor_min": 1.5, "coauthor_cap": 10.0, "no_coauthor": -1.0,
    "cat_same": 1.5, "cat_parent": 0.5, "cat_none": -2.0, "area_none": -0.5,
    "word": 0.3, "words_cap": 1.2, "no_words": -0.5, "min_words": 8,
    "years": -1.0, "years_apart": 6,
}

REF_NAMES = 100_000  # lam is "other wearers among 100k distinct names"
ONE_WORD_LAMBDA = 10.0
MAX_WORDS = 24  # content words kept per paper (first seen, title first)
WORDS_FROM = 500  # characters of the abstract read for them
MAX_PROFILE_WORDS = 600  # content words kept per person
# co-authors read per mention: on a collaboration's list of thousands, every mention would read every
# other name (work and stored evidence quadratic in the list); the nearest by position tell as much
MAX_COAUTHORS = 50
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
    "n_persons": pl.Int32, "n_candidates": pl.Int32, "candidates": pl.List(pl.Int64), "candidate_scores": pl.List(pl.Float64),
    "coauthors_shared": pl.Int32, "category_level": pl.String, "words_shared": pl.Int32, "years_apart": pl.Int32,
}
ALIAS_SCHEMA = {"from_person_id": pl.Int64, "to_person_id": pl.Int64, "name_key": pl.String,
                "paper_id": pl.Int64, "author_position": pl.Int32, "score": pl.Float64, "rule": pl.String}


# is_new: founded by this batch; first_of_name (new persons only, else null): the name's first person;
# is_repeat: a rare name's later place on one list (`_assign_rare`): outside the model, never a candidate
PERSONS_SCHEMA = {**PERSON_SCHEMA, "is_new": pl.Boolean, "first_of_name": pl.Boolean, "is_repeat": pl.Boolean}


@dataclass(frozen=True)
class PersonsResult:
    assignments: pl.DataFrame  # one row per input mention: person_id (after aliases) + the decision record
    # every person the batch touched (PERSONS_SCHEMA): is_new rows are dim_author rows to add; the
    # evidence columns are filled for persons of common names (store them: the next batch's
    # `stored`) and null for persons of rare names (never read unless the name turns common)
    persons: pl.DataFrame
    aliases: pl.DataFrame  # stored or new persons found to be another person (ALIAS_SCHEMA)


def empty_persons() -> pl.DataFrame:
    return pl.DataFrame(schema=PERSON_SCHEMA)


# ----------------------------------------------------------------------------- name commonness
GIVEN_RE, SURNAME_RE = r"^(\S+)", r"(\S+)$"  # the SQL macros given_name / surname_of (flows.sql) use these too


def name_parts(keys: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """(given name, surname) of a name key: its first and its last word."""
    return keys.str.extract(GIVEN_RE), keys.str.extract(SURNAME_RE)


def name_commonness(keys: pl.Series, reference_weight: float | None = None) -> pl.DataFrame:
    """lam per distinct name key: the expected number of other people wearing it in a population
    of REF_NAMES distinct names, from given-name and surname frequencies (f_given * f_surname *
    REF_NAMES). A frequency, not a count: it does not grow as the warehouse grows, so a name is
    common or rare the same way in a first chunk and in the whole corpus. A one-word name says
    little about who it is: common.

    Frequencies are the distinct keys given, smoothed toward the reference frequencies of
    transforms/name_parts.csv (`eval.name_reference`), which count as `reference_weight`
    keys: f = (n_part + W * ref_share) / (N + W). A small warehouse cannot tell a rare name from a
    common one by its own counts (in 200 names every name is 1/200): the reference decides
    there, and the warehouse's own counts take over as it grows."""
    k = pl.DataFrame({"name_key": keys}).unique().with_columns(
        given=name_parts(pl.col("name_key"))[0], surname=name_parts(pl.col("name_key"))[1],
        n_tokens=pl.col("name_key").str.count_matches(" ") + 1)
    n = k.filter(pl.col("n_tokens") >= 2).height
    k = (k.join(k.group_by("given").agg(n_given=pl.len()), on="given")
         .join(k.group_by("surname").agg(n_surname=pl.len()), on="surname"))
    return commonness_from_counts(k, n, reference_weight)


def commonness_from_counts(counts: pl.DataFrame, n_keys: int, reference_weight: float | None = None) -> pl.DataFrame:
    """`name_commonness` from counts a warehouse computes itself (without shipping every key):
    counts = name_key, given, surname, n_tokens, n_given and n_surname (distinct keys of the
    population carrying that given name / surname), n_keys = distinct keys of two words or more."""
    w = REFERENCE_WEIGHT if reference_weight is None else reference_weight
    given_ref, surname_ref = reference_shares()
    k = (counts.join(given_ref, left_on="given", right_on="part", how="left")
         .join(surname_ref, left_on="surname", right_on="part", how="left", suffix="_surname"))
    # times the reciprocal, as Polars divides a column of two rows or more by a scalar (a frame of
    # one row was divided plainly: another last bit); the warehouse's name_commonness does the same
    per_key = 1.0 / max(n_keys + w, 1)
    f_given = (pl.col("n_given") + w * pl.col("share").fill_null(0.0)) * per_key
    f_surname = (pl.col("n_surname") + w * pl.col("share_surname").fill_null(0.0)) * per_key
    return k.select("name_key", "given", "surname", lam=pl.when(pl.col("n_tokens") >= 2)
                    .then(f_given * f_surname * REF_NAMES).otherwise(pl.lit(ONE_WORD_LAMBDA)))


REFERENCE_PATH = Path(__file__).with_name("name_parts.csv")
REFERENCE_WEIGHT = 5_000.0  # the reference counts as this many name keys beside the warehouse's own


@cache
def _reference_counts() -> tuple[pl.DataFrame, int]:
    """transforms/name_parts.csv: (kind, part, n) rows and how many name keys it counted."""
    with REFERENCE_PATH.open(encoding="utf-8") as f:
        n_keys = int(f.readline().rsplit(":", 1)[1])
        return pl.read_csv(f, schema={"kind": pl.String, "part": pl.String, "n": pl.Int64}), n_keys


@cache
def reference_shares() -> tuple[pl.DataFrame, pl.DataFrame]:
    """(given, surname) frames of part, share: the share of the reference's name keys carrying it."""
    parts, n_keys = _reference_counts()
    parts = parts.with_columns(share=pl.col("n") / n_keys)
    return tuple(parts.filter(pl.col("kind") == kind).select("part", "share") for kind in ("given", "surname"))


@cache
def reference_name_parts(kind: str, min_count: int = 1) -> pl.Series:
    """Given names or surnames (`kind`, folded) that at least `min_count` real authors of the
    reference wear, imploded for `is_in`."""
    parts, _ = _reference_counts()
    return parts.filter((pl.col("kind") == kind) & (pl.col("n") >= min_count))["part"].implode()


@cache
def reference_surname_odds() -> tuple[pl.Series, pl.Series]:
    """(parts, odds): each reference part (folded) and how much more often real authors wear it as
    a surname than as a given name, (n as surname + 1) / (n as given + 1); a part it has never
    seen is even (1)."""
    parts, _ = _reference_counts()
    counts = parts.pivot("kind", index="part", values="n").fill_null(0)
    return counts["part"], ((counts["surname"] + 1) / (counts["given"] + 1)).alias("odds")


# ----------------------------------------------------------------------------- evidence
CATEGORY_INFO_SCHEMA = {"code": pl.String, "parent_code": pl.String, "taxonomy": pl.String}


def category_info_of(codes: pl.Series) -> pl.DataFrame:
    """dim_category's (code, parent_code, taxonomy) of codes whose row is not at hand, keyed by the
    code given, as the loader decides them for a code of unknown format
    (`transforms.categories.resolve_categories` of a search page's line): a code of the arXiv
    taxonomy is arXiv's, anything else a conference area ("meta-learning" too)."""
    # (imported here: transforms.categories imports the search format, which imports this module)
    from transforms.categories import CONFERENCE, resolve_categories

    codes = codes.cast(pl.String).drop_nulls().unique()
    rows = resolve_categories(codes, pl.repeat(CONFERENCE, codes.len(), dtype=pl.String, eager=True))
    return rows.select(code="listed_code", parent_code="parent_code", taxonomy="taxonomy")


def _category_keys(codes: pl.Series, category_info: pl.DataFrame | None) -> dict[str, frozenset]:
    """code -> the (taxonomy, parent) pairs the model compares, from dim_category's rows
    (`category_info`; codes it lacks: `category_info_of`). A code the warehouse holds in both
    taxonomies has both pairs. A one-level area (parent_code null: "Social Aspects",
    "meta-learning") is its own parent: it and its sub-areas ("Social Aspects · Fairness") share
    the area (category_level 'parent', as an arXiv category and the others of its archive), and
    two one-level areas share nothing ('other_area')."""
    info = (pl.DataFrame(schema=CATEGORY_INFO_SCHEMA) if category_info is None
            else category_info.select(list(CATEGORY_INFO_SCHEMA)).cast(CATEGORY_INFO_SCHEMA))
    codes = codes.cast(pl.String).drop_nulls().unique()
    info = info.filter(pl.col("code").is_in(codes.implode()))  # the flow passes all of dim_category, per group
    missing = codes.filter(~codes.is_in(info["code"].implode()))
    if missing.len():
        info = pl.concat([info, category_info_of(missing)])
    keys: dict[str, set] = defaultdict(set)
    for code, parent, taxonomy in info.unique().iter_rows():
        keys[code].add((taxonomy, parent if parent is not None else code))
    return {code: frozenset(pairs) for code, pairs in keys.items()}


def _paper_words(papers: pl.DataFrame) -> pl.DataFrame:
    """The first MAX_WORDS content words of the title and the abstract's opening (WORDS_FROM
    characters: enough for them, and the regex cost stays bounded per paper)."""
    text = pl.concat_str([pl.col("title").fill_null(""), pl.col("abstract").fill_null("").str.slice(0, WORDS_FROM)],
                         separator=" ")
    return papers.select(
        "paper_id",
        words=text.str.to_lowercase().str.extract_all(_WORD)
        .list.eval(pl.element().filter(~pl.element().is_in(list(STOPWORDS)))).list.unique(maintain_order=True)
        .list.head(MAX_WORDS))


def mention_evidence(mentions: pl.DataFrame, papers: pl.DataFrame, paper_categories: pl.DataFrame,
                     with_words: bool = True, decided: pl.DataFrame | None = None) -> pl.DataFrame:
    """One row per mention (of `decided` only, when given: the rest are co-authors): its co-author
    keys (the other keys on the paper; on a list longer than MAX_COAUTHORS + 1, the MAX_COAUTHORS
    nearest by position), the paper's category codes, content words (title, then abstract) and
    first listing date."""
    cats = paper_categories.group_by("paper_id").agg(categories=pl.col("code").unique().sort())
    ev = (_coauthors(mentions, decided)
          .join(cats, on="paper_id", how="left")
          .join(papers.select("paper_id", listed_on=pl.col("first_listed_on")), on="paper_id", how="left")
          .with_columns(categories=pl.col("categories").fill_null(pl.lit([], pl.List(pl.String)))))
    if with_words:
        words = _paper_words(papers.join(mentions.select("paper_id").unique(), on="paper_id", how="semi"))
        ev = ev.join(words, on="paper_id", how="left").with_columns(
            words=pl.col("words").fill_null(pl.lit([], pl.List(pl.String))))
    return ev


def _coauthors(mentions: pl.DataFrame, decided: pl.DataFrame | None = None) -> pl.DataFrame:
    """mentions (those of `decided` only, when given) + coauthors: the other keys of the paper,
    sorted; on a long list, those of the window of MAX_COAUTHORS + 1 positions around the mention
    (at the list's ends, the first or last ones). Built exploded (one row per mention and key):
    sorting a million small lists (`list.sort`) costs seconds, the exploded rows a tenth of one.
    Windows are built for the decided mentions only: built for every mention of a year of
    collaboration papers (3,000 names each) and then narrowed, they held 30M rows (8.4 GB)."""
    window = MAX_COAUTHORS + 1
    m = mentions.with_row_index("row")
    mention = ["paper_id", "author_position", "name_key"]
    wanted = m if decided is None else m.join(decided.select(mention).unique(), on=mention, how="semi")
    n_keys = m.group_by("paper_id").agg(n_keys=pl.len())
    is_long = pl.col("paper_id").is_in(n_keys.filter(pl.col("n_keys") > window)["paper_id"].implode())
    short = m.filter(~is_long)
    pairs = [wanted.filter(~is_long).join(short.group_by("paper_id").agg(key=pl.col("name_key").unique().sort()), on="paper_id")
             .select("row", "name_key", "key").explode("key")]  # sorted within each mention
    lists = m.filter(is_long).sort("paper_id", "author_position")
    if lists.height:
        # The keys at the window's positions, found by a join on (paper, position): a copy of the
        # whole list on every mention's row held n² keys (6,000 names on one paper: 1.2 GB).
        lists = lists.with_columns(index=pl.int_range(pl.len(), dtype=pl.Int64).over("paper_id"),
                                   n_keys=pl.len().over("paper_id").cast(pl.Int64))
        start = (pl.col("index") - MAX_COAUTHORS // 2).clip(0, pl.col("n_keys") - window)
        near = (lists.join(wanted.select("row"), on="row", how="semi")
                .select("row", "name_key", "paper_id", index=pl.int_ranges(start, start + window, dtype=pl.Int64))
                .explode("index").join(lists.select("paper_id", "index", key="name_key"), on=["paper_id", "index"]))
        pairs.append(near.select("row", "name_key", "key").unique(["row", "key"]).sort("row", "key"))
    coauthors = (pl.concat(pairs).filter(pl.col("key") != pl.col("name_key"))
                 .group_by("row", maintain_order=True).agg(coauthors="key"))
    return (wanted.join(coauthors, on="row", how="left", maintain_order="left").drop("row")
            .with_columns(pl.col("coauthors").fill_null(pl.lit([], pl.List(pl.String)))))


def _founded_key_expr() -> pl.Expr:
    """`_founded_key` of the columns listed_on, paper_id, author_position, vectorised."""
    return pl.concat_str([pl.col("listed_on").cast(pl.String).fill_null("9999-12-31"),
                          pl.col("paper_id").cast(pl.String).str.zfill(19),
                          pl.col("author_position").cast(pl.String).str.zfill(5)], separator="|")


def _founded_key(listed_on, paper_id: int, position: int) -> str:
    d = listed_on.isoformat() if listed_on is not None else "9999-12-31"
    return f"{d}|{paper_id:019d}|{position:05d}"


CANONICAL = ["listed_on", "paper_id", "author_position"]  # nulls last: undated (search-only) papers after dated ones


# ----------------------------------------------------------------------------- the common-name loop
class _Person:
    __slots__ = ("pid", "name_key", "founded", "first_on", "last_on", "n", "papers", "coauthors", "co_set", "cats",
                 "parents", "taxes", "words", "w_set", "touched", "absorbed_by")

    def __init__(self, pid, name_key, founded, first_on, last_on, n, papers, coauthors, cats, parents, words, touched):
        self.pid, self.name_key, self.founded, self.first_on, self.last_on, self.n = (
            pid, name_key, founded, first_on, last_on, n)
        self.papers, self.coauthors, self.co_set = set(papers), list(coauthors), set(coauthors)
        self.cats, self.parents, self.taxes = set(), set(), set()
        self._add_cats(cats, parents)
        self.words, self.w_set = list(words), set(words)
        self.touched = touched

    def _add_cats(self, cats, parents):
        """cats: codes; parents: their (taxonomy, parent) pairs (`_category_keys`)."""
        self.cats.update(cats)
        self.parents.update(parents)
        self.taxes.update(t for t, _ in parents)

    def _add_dates(self, d):
        if d is not None:
            self.first_on = d if self.first_on is None or d < self.first_on else self.first_on
            self.last_on = d if self.last_on is None or d > self.last_on else self.last_on

    def _add_lists(self, coauthors, words):
        for c in coauthors:
            if c not in self.co_set:
                self.co_set.add(c)
                self.coauthors.append(c)
        room = MAX_PROFILE_WORDS - len(self.words)
        if room > 0:
            for w in words:
                if w not in self.w_set:
                    self.w_set.add(w)
                    self.words.append(w)
                    room -= 1
                    if not room:
                        break

    def add(self, paper_id, listed_on, coauthors, cats, parents, words):
        self.papers.add(paper_id)
        self._add_lists(coauthors, words)
        self._add_cats(cats, parents)
        self._add_dates(listed_on)
        self.n += 1
        self.touched = True

    def absorb(self, other: "_Person"):
        self.papers |= other.papers
        self._add_lists(other.coauthors, other.words)
        self._add_cats(other.cats, other.parents)
        self._add_dates(other.first_on)
        self._add_dates(other.last_on)
        self.n += other.n
        self.touched = True


class _Scorer:
    def __init__(self, settings: PersonSettings, lam_of):
        self.s, self.w, self.lam_of = settings, settings.weights, lam_of
        self._co_weight: dict[str, float] = {}

    def prior(self, lam: float) -> float:
        """Log-odds that a mention of a common name is a given person of that name before any
        evidence: low, and lower the more common the name."""
        w = self.w
        excess = math.log(max(lam, 1e-9) / self.s.rare_lambda)
        return max(w["prior_min"], w["prior_common"] - w["prior_slope"] * max(0.0, excess))

    def co_weight(self, key: str) -> float:
        v = self._co_weight.get(key)
        if v is None:
            v = self._co_weight[key] = max(
                self.w["coauthor_min"], self.w["coauthor"] - self.w["coauthor_slope"] * math.log1p(self.lam_of(key)))
        return v

    def contradicts(self, q: _Person, p: _Person) -> bool:
        """Two persons kept apart on evidence: no co-author in common and their categories and
        dates disagree by at least `reject_below` (papers in different arXiv archives only)."""
        if q.co_set & p.co_set:
            return False
        _, _, level, _, years = self.features((), q.cats, q.parents, q.taxes, (), q.first_on, p)
        conflict = {"different": self.w["cat_none"], "other_area": self.w["area_none"]}.get(level, 0.0)
        if years is not None and years >= self.w["years_apart"]:
            conflict += self.w["years"]
        return conflict <= self.s.reject_below

    def features(self, coauthors, cats, parents, taxes, words, listed_on, p: _Person):
        w = self.w
        co, n_shared = 0.0, 0
        if coauthors:
            pc = p.co_set
            for c in coauthors:
                if c in pc:
                    n_shared += 1
                    co += self.co_weight(c)
            if n_shared:
                co = min(w["coauthor_cap"], co)
            elif p.coauthors:
                co = w["no_coauthor"]
        level, cat = "none_known", 0.0
        if cats and p.cats:
            if not cats.isdisjoint(p.cats):
                level, cat = "same", w["cat_same"]
            elif not parents.isdisjoint(p.parents):
                level, cat = "parent", w["cat_parent"]
            elif "arxiv" in taxes and "arxiv" in p.taxes:
                level, cat = "different", w["cat_none"]
            elif not taxes.isdisjoint(p.taxes):
                level, cat = "other_area", w["area_none"]
        n_words = 0
        if words and p.words:
            pw = p.w_set
            n_words = sum(1 for x in words if x in pw)
        if n_words:
            wd = min(w["words_cap"], w["word"] * n_words)
        else:
            wd = w["no_words"] if len(words) >= w["min_words"] and len(p.words) >= w["min_words"] else 0.0
        years = None
        if listed_on is not None and p.first_on is not None:
            years = max(0, (p.first_on - listed_on).days, (listed_on - p.last_on).days) // 365
        yr = w["years"] if years is not None and years >= w["years_apart"] else 0.0
        return co + cat + wd + yr, n_shared, level, n_words, years


def _assign_common(ev: pl.DataFrame, stored: pl.DataFrame, lam: dict, lam_of, settings: PersonSettings,
                   category_keys: dict[str, frozenset]):
    """The per-name loop over mentions of common names, in canonical order, bounded candidates.
    category_keys: code -> (taxonomy, parent) pairs of every code of `ev` and `stored`.
    Returns (decision columns, aliases, alias_of, founders, persons by name)."""
    scorer = _Scorer(settings, lam_of)
    w = settings.weights

    def parents_of(cats) -> set:
        return {pair for c in cats for pair in category_keys[c]}

    persons_by_name: dict[str, list[_Person]] = defaultdict(list)
    for r in stored.sort("name_key", "founded_key").iter_rows(named=True):
        cats = r["categories"] or []
        persons_by_name[r["name_key"]].append(_Person(
            r["person_id"], r["name_key"], r["founded_key"], r["first_on"], r["last_on"], r["n_mentions"] or 0,
            r["paper_ids"] or [], r["coauthors"] or [], cats, parents_of(cats), r["words"] or [], touched=False))
    out = {k: [] for k in ASSIGNMENT_SCHEMA}
    aliases: list[tuple] = []
    alias_of: dict = {}
    founders: list[tuple] = []  # (name_key, paper_id, position, first of its name)
    rows = ev.sort(["name_key", *CANONICAL], nulls_last=True).select(
        "name_key", "paper_id", "author_position", "listed_on", "coauthors", "categories", "words").rows()
    current, persons, index, prior, lam_n, open_field, n_merged = None, [], {}, 0.0, 0.0, True, 0
    for name_key, paper_id, pos, listed_on, coauthors, cats, words in rows:
        if name_key != current:
            current, persons, n_merged = name_key, persons_by_name[name_key], 0
            index = defaultdict(list)
            for p in persons:
                for c in p.coauthors:
                    index[c].append(p)
            lam_n = lam[name_key]
            prior = scorer.prior(lam_n)
            # can a person without a shared co-author reach the threshold? if not, only persons
            # sharing a co-author are scored (an inverted index): bounded work per mention
            open_field = prior + w["cat_same"] + w["words_cap"] >= settings.split_threshold
        cats_s = set(cats)
        infos = parents_of(cats_s)
        taxes = {t for t, _ in infos}
        seen: dict = {}
        if open_field:
            for p in persons[-settings.max_candidates:]:
                if p.pid not in alias_of:
                    seen[p.pid] = p
        for c in coauthors:
            for p in index.get(c, ())[-settings.max_per_coauthor:]:
                q = p
                while q.pid in alias_of:  # an absorbed person's index entries lead to its elder
                    q = q.absorbed_by
                seen[q.pid] = q
        scored = []
        for p in seen.values():
            if paper_id in p.papers:  # cannot-link: the same name twice on one author list
                continue
            total, n_co, level, n_w, years = scorer.features(coauthors, cats_s, infos, taxes, words, listed_on, p)
            scored.append((prior + total, p.founded, p, n_co, level, n_w, years))
        scored.sort(key=lambda t: (-t[0], t[1]))
        best = scored[0] if scored and scored[0][0] >= settings.split_threshold else None
        if best is not None:
            rule, target = "joined", best[2]
            for sc, _, q, n_co, *_ in scored[1:]:
                if sc < settings.split_threshold + settings.merge_margin or q.pid in alias_of:
                    continue
                if target.papers & q.papers or scorer.contradicts(q, target):
                    continue
                if n_co < 2 and settings.merge_established and min(len(target.papers), len(q.papers)) >= settings.merge_established:
                    continue  # two established persons, one shared co-author name: kept apart
                elder, younger = (target, q) if target.founded <= q.founded else (q, target)
                elder.absorb(younger)
                younger.absorbed_by = elder
                alias_of[younger.pid] = elder.pid
                n_merged += 1
                aliases.append((younger.pid, elder.pid, name_key, paper_id, pos, sc, "merged_by_mention"))
                target, rule = elder, "joined_merged"
        else:
            rule = "new_person"
            target = _Person(("new", len(founders)), name_key, _founded_key(listed_on, paper_id, pos), None, None, 0,
                             [], [], [], (), [], touched=True)
            founders.append((name_key, paper_id, pos, not persons))
            persons.append(target)
        fresh = [c for c in coauthors if c not in target.co_set]
        target.add(paper_id, listed_on, coauthors, cats, infos, words)
        for c in fresh:
            index[c].append(target)
        ref = best or (scored[0] if scored else None)
        top = scored[:8]
        for k, v in (("paper_id", paper_id), ("author_position", pos), ("name_key", name_key), ("person_id", target.pid),
                     ("rule", rule), ("score", ref[0] if ref else None), ("name_lambda", lam_n), ("prior", prior),
                     ("n_persons", len(persons) - n_merged), ("n_candidates", len(scored)), ("candidates", [t[2].pid for t in top]),
                     ("candidate_scores", [t[0] for t in top]), ("coauthors_shared", ref[3] if ref else None),
                     ("category_level", ref[4] if ref else None), ("words_shared", ref[5] if ref else None),
                     ("years_apart", ref[6] if ref else None)):
            out[k].append(v)
    return out, aliases, alias_of, founders, persons_by_name


def _resolve(pid, alias_of):
    while pid in alias_of:
        pid = alias_of[pid]
    return pid


def _frame(cols: dict, schema: dict) -> pl.DataFrame:
    """A frame from Python columns; a list column is built from its flat values and row numbers
    (Polars builds a Series per cell from nested Python lists, far slower)."""
    n = len(next(iter(cols.values())))
    data = {}
    for name, dtype in schema.items():
        values = cols[name]
        if isinstance(dtype, pl.List):
            rows = pl.Series("i", [i for i, v in enumerate(values) for _ in v], dtype=pl.Int64)
            flat = pl.Series("v", [x for v in values for x in v], dtype=dtype.inner)
            lists = pl.DataFrame({"i": rows, "v": flat}).group_by("i").agg("v")
            data[name] = (pl.DataFrame({"i": pl.int_range(n, eager=True, dtype=pl.Int64)})
                          .join(lists, on="i", how="left", maintain_order="left")["v"]
                          .fill_null(pl.lit([], dtype)).cast(dtype))
        else:
            data[name] = pl.Series(name, values, dtype=dtype)
    return pl.DataFrame(data, schema=schema)


# ----------------------------------------------------------------------------- entry points
def assign_persons(
    mentions: pl.DataFrame,
    papers: pl.DataFrame,
    paper_categories: pl.DataFrame,
    stored: pl.DataFrame | None = None,
    known_name_keys: pl.Series | None = None,
    settings: PersonSettings = PersonSettings(),
    timings: dict[str, float] | None = None,
    context_mentions: pl.DataFrame | None = None,
    commonness: pl.DataFrame | None = None,
    n_two_word_keys: int | None = None,
    category_info: pl.DataFrame | None = None,
) -> PersonsResult:
    """Assign every mention of `mentions` to a person.

    mentions: paper_id (Int64), author_position (Int32), name_key (String, after alias
        resolution: the key of today's dim_author row) — every shown author of every paper of the
        batch (co-authors are read from here).
    papers: paper_id, title, abstract, first_listed_on (Date, null for search-only papers).
    paper_categories: paper_id, code (dim_category.code of bridge_paper_category).
    stored: the stored persons of the batch's name keys (one row per live person, aliased ones
        excluded; None or empty for a fresh load): person_id, name_key, founded_key for every
        one, and for the persons of common names (`name_classes`) their evidence (PERSON_SCHEMA):
        the `persons` rows an earlier batch returned, or `person_profiles` over their stored
        mentions when they have none (a name that was rare).
    known_name_keys: every distinct name key of the warehouse before this batch (name
        commonness); the batch's and stored keys are added.
    timings: if given, filled with seconds per stage.
    context_mentions: the mentions of the batch's papers decided earlier (same columns): read as
        co-authors, not assigned (a paper listed again with a longer author list).
    commonness: lam of every name key of the mentions, context mentions and stored persons
        (name_key, given, surname, lam: `commonness_from_counts`), when the caller computed it
        from counts it holds; then known_name_keys is not read.
    n_two_word_keys: the N of a commonness computed on demand (`two_word_keys` of `commonness`),
        when the caller counted it over more names than `commonness` holds (the loader: every
        name its run has read).
    category_info: code, parent_code, taxonomy: dim_category's rows, which say what a code's
        taxonomy and parent are (category_level same / parent / different / other_area); it
        should hold the codes of `paper_categories` and of the stored persons' categories. A
        code it lacks is read by the loader's rule for a code alone (`category_info_of`).
    """
    clock = [time.perf_counter(), time.process_time()]

    def lap(stage: str) -> None:  # wall and CPU seconds per stage (CPU: a busy machine inflates wall)
        now = [time.perf_counter(), time.process_time()]
        if timings is not None:
            timings[stage] = timings.get(stage, 0.0) + now[0] - clock[0]
            timings[stage + "_cpu"] = timings.get(stage + "_cpu", 0.0) + now[1] - clock[1]
        clock[:] = now

    stored = empty_persons() if stored is None else _without_repeats(stored).select(
        *(pl.col(c) if c in stored.columns else pl.lit(None).alias(c) for c in PERSON_SCHEMA)).cast(PERSON_SCHEMA)
    mentions = mentions.select(pl.col("paper_id").cast(pl.Int64), pl.col("author_position").cast(pl.Int32),
                               pl.col("name_key").cast(pl.String))
    papers = papers.select(pl.col("paper_id").cast(pl.Int64), pl.col("title").cast(pl.String),
                           pl.col("abstract").cast(pl.String), pl.col("first_listed_on").cast(pl.Date))
    paper_categories = paper_categories.select(pl.col("paper_id").cast(pl.Int64), pl.col("code").cast(pl.String))
    common_tbl = (commonness.select("name_key", "given", "surname", "lam") if commonness is not None
                  else _commonness_of(mentions["name_key"], stored["name_key"], known_name_keys))
    n_keys = n_two_word_keys if n_two_word_keys is not None else two_word_keys(common_tbl)
    rare_keys = _classes(mentions["name_key"], stored, common_tbl, settings).filter("is_rare")
    is_rare = pl.col("name_key").is_in(rare_keys["name_key"].implode())
    rare_m, common_m = mentions.filter(is_rare), mentions.filter(~is_rare)
    lap("commonness")

    # ---- rare names: one person each, vectorised
    rare_assign, rare_persons = _assign_rare(rare_m, papers, stored, rare_keys)
    lap("rare")

    # ---- common names: the bounded per-name loop
    common_papers = common_m.select("paper_id").unique()
    every_mention = mentions if context_mentions is None else pl.concat(
        [mentions, context_mentions.select(mentions.columns).cast(mentions.schema)]).unique()
    ev = mention_evidence(every_mention.join(common_papers, on="paper_id", how="semi"),
                          papers.join(common_papers, on="paper_id", how="semi"),
                          paper_categories.join(common_papers, on="paper_id", how="semi"), decided=common_m)
    # the common names' lam and, when the caller gave the table, their co-authors' (else on demand);
    # a dict of only the keys read: the caller's table may hold more names than this group reads
    needed = common_m.select("name_key")
    if commonness is not None:
        needed = pl.concat([needed, ev.select(name_key=pl.col("coauthors").explode())])
    lam = dict(common_tbl.join(needed.unique(), on="name_key", how="semi").select("name_key", "lam").iter_rows())
    tokens = common_tbl.select("name_key", "given", "surname")
    counts: list[dict] = []

    def lam_of(key: str) -> float:  # commonness of a co-author's name, on demand (as name_commonness)
        v = lam.get(key)
        if v is None:
            if not counts:
                two = tokens.filter(pl.col("name_key").str.contains(" "))
                counts.append(dict(two.group_by("given").len().iter_rows()))
                counts.append(dict(two.group_by("surname").len().iter_rows()))
                counts.extend(dict(ref.iter_rows()) for ref in reference_shares())
            t = key.split(" ")
            if len(t) < 2:
                v = ONE_WORD_LAMBDA
            else:
                w, n = REFERENCE_WEIGHT, n_keys
                v = ((counts[0].get(t[0], 1) + w * counts[2].get(t[0], 0.0)) / (n + w)
                     * (counts[1].get(t[-1], 1) + w * counts[3].get(t[-1], 0.0)) / (n + w) * REF_NAMES)
            lam[key] = v
        return v

    common_stored = stored.join(common_m.select("name_key").unique(), on="name_key", how="semi")
    category_keys = _category_keys(pl.concat([ev["categories"].explode(), common_stored["categories"].explode()]),
                                   category_info)
    lap("evidence")
    gc_was = gc.isenabled()
    gc.disable()  # the loop allocates many small objects and frees none: collections only cost time
    try:
        cols, aliases, alias_of, founders, persons_by_name = _assign_common(ev, common_stored, lam, lam_of, settings,
                                                                            category_keys)
    finally:
        if gc_was:
            gc.enable()
    lap("loop")
    ids: dict = {}
    if founders:
        nf = pl.DataFrame(founders, schema=["name_key", "paper_id", "author_position", "first"], orient="row")
        nf = with_stable_ids(nf, {"id_name": ["name_key"], "id_mention": ["name_key", "paper_id", "author_position"]})
        ids = {("new", i): (a if first else b) for i, (first, a, b) in
               enumerate(nf.select("first", "id_name", "id_mention").iter_rows())}

    def fix(pid):
        return ids[pid] if isinstance(pid, tuple) else pid

    alias_of = {fix(k): fix(v) for k, v in alias_of.items()}
    cols["person_id"] = [_resolve(fix(p), alias_of) for p in cols["person_id"]]
    cols["candidates"] = [[fix(c) for c in cs] for cs in cols["candidates"]]
    common_assign = _frame(cols, ASSIGNMENT_SCHEMA)
    touched = [p for plist in persons_by_name.values() for p in plist if p.touched and fix(p.pid) not in alias_of]
    common_persons = _frame({
        "person_id": [fix(p.pid) for p in touched], "name_key": [p.name_key for p in touched],
        "founded_key": [p.founded for p in touched], "first_on": [p.first_on for p in touched],
        "last_on": [p.last_on for p in touched], "n_mentions": [p.n for p in touched],
        "paper_ids": [sorted(p.papers) for p in touched], "coauthors": [p.coauthors for p in touched],
        "categories": [sorted(p.cats) for p in touched], "words": [p.words for p in touched],
        "is_new": [isinstance(p.pid, tuple) for p in touched],
        "first_of_name": [founders[p.pid[1]][3] if isinstance(p.pid, tuple) else None for p in touched],
        "is_repeat": [False] * len(touched)}, PERSONS_SCHEMA)
    alias_df = pl.DataFrame([(fix(a), _resolve(fix(b), alias_of), *rest) for a, b, *rest in aliases],
                            schema=ALIAS_SCHEMA, orient="row")
    assignments = pl.concat([rare_assign, common_assign])  # row order carries no meaning (sorting 1M rows costs)
    persons = pl.concat([rare_persons, common_persons])
    lap("frames")
    return PersonsResult(assignments, persons, alias_df)


def _commonness_of(batch_keys: pl.Series, stored_keys: pl.Series, known: pl.Series | None) -> pl.DataFrame:
    keys = [batch_keys.cast(pl.String), stored_keys.cast(pl.String)]
    if known is not None:
        keys.append(known.cast(pl.String))
    return name_commonness(pl.concat(keys))


def _without_repeats(stored: pl.DataFrame) -> pl.DataFrame:
    """Stored persons without a rare name's repeat persons (`is_repeat`, when the frame says): each
    holds one later place of one list, so is no candidate and does not make its name worn by two."""
    return stored.filter(~pl.col("is_repeat").fill_null(False)) if "is_repeat" in stored.columns else stored


def _classes(batch_keys: pl.Series, stored: pl.DataFrame, common_tbl: pl.DataFrame, settings: PersonSettings):
    return (batch_keys.unique().to_frame("name_key").join(common_tbl.select("name_key", "lam"), on="name_key")
            .join(stored.group_by("name_key").agg(n_stored=pl.len()), on="name_key", how="left")
            .with_columns(pl.col("n_stored").fill_null(0).cast(pl.Int64))
            .with_columns(is_rare=(pl.col("lam") < settings.rare_lambda) & (pl.col("n_stored") <= 1)))


def two_word_keys(commonness: pl.DataFrame) -> int:
    """The N of a name's on-demand commonness: the table's keys of two words or more (at least 1)."""
    return max(commonness.filter(pl.col("name_key").str.contains(" ", literal=True)).height, 1)


def name_classes(batch_keys: pl.Series, stored: pl.DataFrame, known_name_keys: pl.Series | None = None,
                 settings: PersonSettings = PersonSettings(), commonness: pl.DataFrame | None = None) -> pl.DataFrame:
    """Which name keys of a batch are rare (one person, no evidence read) and which are common
    (their stored persons' evidence is needed): name_key, lam, n_stored, is_rare. `stored` needs
    only person_id and name_key (dim_author's rows of these keys). `eval.namesakes` calls this first,
    then reads the evidence of the common keys' persons only; the loader decides the same rule in
    the warehouse (schemas/resolve/person_classes.sql)."""
    stored = _without_repeats(stored)
    tbl = commonness if commonness is not None else _commonness_of(batch_keys, stored["name_key"], known_name_keys)
    return _classes(batch_keys, stored.select("person_id", "name_key"), tbl, settings)


def _assign_rare(rare_m, papers, stored, rare_keys):
    """Rare names: every mention joins the name's one stored person, or founds stable_id(name_key);
    but a person holds one place of a list, so a later place of the name on the same list is a
    person of its own (rule repeat_name, is_repeat), with the id of a person its mention founded
    (stable_id(name_key, paper_id, author_position), as the common-name loop founds a namesake
    that its cannot-link keeps off the paper). schemas/resolve/person_rare.sql decides the same."""
    person = (rare_keys.select("name_key", "lam").join(stored.select("name_key", "person_id", old_key="founded_key"),
                                                       on="name_key", how="left"))
    person = with_stable_ids(person, {"new_id": ["name_key"]}).select(
        "name_key", "lam", "old_key", is_new=pl.col("person_id").is_null(), person_id=pl.coalesce("person_id", "new_id"))
    is_repeat = pl.col("author_position") > pl.col("author_position").min().over("paper_id", "name_key")
    m = with_stable_ids(rare_m.with_columns(is_repeat=is_repeat), {"repeat_id": ["name_key", "paper_id", "author_position"]})
    m = m.join(person, on="name_key").with_columns(
        person_id=pl.when("is_repeat").then("repeat_id").otherwise("person_id"),
        is_new=pl.col("is_new") | pl.col("is_repeat"), old_key=pl.when(~pl.col("is_repeat")).then("old_key"))
    assign = m.select(
        "paper_id", "author_position", "name_key", "person_id",
        rule=pl.when("is_repeat").then(pl.lit("repeat_name")).otherwise(pl.lit("rare_name")), score=pl.lit(None, pl.Float64),
        name_lambda="lam", prior=pl.lit(None, pl.Float64), n_persons=pl.lit(None, pl.Int32),
        n_candidates=pl.lit(None, pl.Int32), candidates=pl.lit(None, pl.List(pl.Int64)),
        candidate_scores=pl.lit(None, pl.List(pl.Float64)), coauthors_shared=pl.lit(None, pl.Int32),
        category_level=pl.lit(None, pl.String), words_shared=pl.lit(None, pl.Int32),
        years_apart=pl.lit(None, pl.Int32)).cast(ASSIGNMENT_SCHEMA)
    dated = m.select("person_id", "name_key", "is_new", "is_repeat", "old_key", "paper_id", "author_position").join(
        papers.select("paper_id", listed_on=pl.col("first_listed_on")), on="paper_id", how="left")
    founders = dated.sort(CANONICAL, nulls_last=True).unique("person_id", keep="first")  # canonical order's first
    persons = founders.with_columns(founded_key=pl.coalesce("old_key", _founded_key_expr()),
                                    first_of_name=pl.when("is_new").then(~pl.col("is_repeat"))).select(
        *(pl.col(c) if c in ("person_id", "name_key", "founded_key", "is_new", "first_of_name", "is_repeat")
          else pl.lit(None, t).alias(c) for c, t in PERSONS_SCHEMA.items()))
    return assign, persons.cast(PERSONS_SCHEMA)


def person_profiles(assigned: pl.DataFrame, mentions: pl.DataFrame, papers: pl.DataFrame,
                    paper_categories: pl.DataFrame) -> pl.DataFrame:
    """The evidence of stored persons (PERSON_SCHEMA), vectorised, from what the warehouse holds:
    `assigned` = the stored mentions of the persons wanted (paper_id, author_position, name_key,
    person_id after aliases), `mentions` = every mention of their papers (paper_id,
    author_position, name_key: the co-authors), papers and categories as for `assign_persons`.
    The same evidence the assignment loop accumulates, so a batch scored against these profiles
    decides as a fresh load would."""
    assigned = assigned.select(pl.col("paper_id").cast(pl.Int64), pl.col("author_position").cast(pl.Int32),
                               pl.col("name_key").cast(pl.String), pl.col("person_id").cast(pl.Int64))
    ps = assigned.select("paper_id").unique()
    ev = mention_evidence(mentions.select(pl.col("paper_id").cast(pl.Int64), pl.col("author_position").cast(pl.Int32),
                                          pl.col("name_key").cast(pl.String)).join(ps, on="paper_id", how="semi"),
                          papers.select(pl.col("paper_id").cast(pl.Int64), "title", "abstract",
                                        pl.col("first_listed_on").cast(pl.Date)).join(ps, on="paper_id", how="semi"),
                          paper_categories.select(pl.col("paper_id").cast(pl.Int64), "code").join(ps, on="paper_id", how="semi"),
                          decided=assigned)
    ev = assigned.join(ev, on=["paper_id", "author_position", "name_key"], how="left").sort(
        ["person_id", *CANONICAL], nulls_last=True)
    out = ev.group_by("person_id", maintain_order=True).agg(
        pl.col("name_key").first(), founded_key=_founded_key_expr().first(),
        first_on=pl.col("listed_on").min(), last_on=pl.col("listed_on").max(), n_mentions=pl.len().cast(pl.Int64),
        paper_ids=pl.col("paper_id").unique().sort(),
        coauthors=pl.col("coauthors").explode(keep_nulls=False, empty_as_null=False).unique(maintain_order=True),
        categories=pl.col("categories").explode(keep_nulls=False, empty_as_null=False).unique().sort(),
        words=pl.col("words").explode(keep_nulls=False, empty_as_null=False).unique(maintain_order=True)
        .head(MAX_PROFILE_WORDS))
    return out.select(list(PERSON_SCHEMA)).cast(PERSON_SCHEMA)
