"""transforms.persons: which mentions of one name key are which person (issue 13)."""

from __future__ import annotations

import datetime as dt
import time

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from transforms.ids import with_stable_ids
from transforms.persons import PERSON_SCHEMA, PersonSettings, assign_persons, name_commonness, person_profiles

# A warehouse where "wei" is a frequent given name and "wang" a frequent surname, and most names
# are rare: "wei wang" is common (many expected wearers), "tongliang liu" is not.
KNOWN = pl.Series([f"wei w{i}" for i in range(150)] + [f"g{i} wang" for i in range(150)]
                  + [f"rare{i} person{i}" for i in range(3000)])


class Corpus:
    """Papers built one by one: authors (name keys), one category, a date, a title."""

    def __init__(self):
        self.m, self.p, self.c = [], [], []

    def paper(self, pid, authors, cat="cs.LG", day=1, title="a study of things"):
        self.m += [(pid, i + 1, a) for i, a in enumerate(authors)]
        date = None if day is None else dt.date(2026, 1, 1) + dt.timedelta(days=day)
        self.p.append((pid, title, None, date))
        if cat:
            self.c.append((pid, cat))
        return self

    def frames(self, pids=None):
        m = pl.DataFrame(self.m, schema={"paper_id": pl.Int64, "author_position": pl.Int32, "name_key": pl.String},
                         orient="row")
        p = pl.DataFrame(self.p, schema={"paper_id": pl.Int64, "title": pl.String, "abstract": pl.String,
                                         "first_listed_on": pl.Date}, orient="row")
        c = pl.DataFrame(self.c, schema={"paper_id": pl.Int64, "code": pl.String}, orient="row")
        if pids is not None:
            keep = pl.Series(pids, dtype=pl.Int64).implode()
            m, p, c = (f.filter(pl.col("paper_id").is_in(keep)) for f in (m, p, c))
        return m, p, c


def person_of(result, paper_id, name="wei wang"):
    a = result.assignments.filter((pl.col("paper_id") == paper_id) & (pl.col("name_key") == name))
    return a["person_id"].to_list()


def two_wei_wangs() -> Corpus:
    """Person A: machine learning with alice/carol; person B: PDEs with bob/dan."""
    c = Corpus()
    c.paper(1, ["wei wang", "alice smith"], "cs.LG", 1, "graph neural diffusion")
    c.paper(2, ["bob jones", "wei wang"], "math.AP", 2, "elliptic regularity estimates")
    c.paper(3, ["alice smith", "wei wang", "carol king"], "cs.LG", 3, "graph transformers")
    c.paper(4, ["wei wang", "dan brown", "bob jones"], "math.AP", 4, "parabolic regularity")
    c.paper(5, ["carol king", "wei wang"], "cs.LG", 5, "message passing")
    return c


def test_commonness_is_a_frequency():
    lam = dict(name_commonness(pl.concat([KNOWN, pl.Series(["wei wang", "tongliang liu"])]), reference_weight=0)
               .select("name_key", "lam").iter_rows())
    assert lam["wei wang"] > 100 and lam["tongliang liu"] < 0.1
    # doubling a warehouse with the same given-name and surname distribution (other keys: a
    # middle name) leaves commonness where it was
    doubled = pl.concat([KNOWN, KNOWN.str.replace(" ", " m "), pl.Series(["wei wang", "tongliang liu"])])
    lam2 = dict(name_commonness(doubled, reference_weight=0).select("name_key", "lam").iter_rows())
    assert abs(lam2["wei wang"] / lam["wei wang"] - 1) < 0.05
    smoothed = dict(name_commonness(pl.concat([KNOWN, pl.Series(["wei wang", "tongliang liu"])]))
                    .select("name_key", "lam").iter_rows())
    assert smoothed["wei wang"] > 10 and smoothed["tongliang liu"] < 1


def test_a_small_warehouse_does_not_make_every_name_common():
    """In 200 names every name is 1/200 by the warehouse's own counts, so every name looked common
    and a sample of five digests split "Julia Kempe" into three people. The reference
    frequencies decide while the warehouse is small: a rare name stays one person, a common one
    is still common."""
    keys = pl.Series([f"given{i} surname{i}" for i in range(200)] + ["julia kempe", "wei wang", "tat seng chua"])
    lam = dict(name_commonness(keys).select("name_key", "lam").iter_rows())
    assert lam["julia kempe"] < 1 and lam["tat seng chua"] < 1 and lam["wei wang"] > 1
    c = Corpus()
    c.paper(1, ["julia kempe", "alice smith"], "cs.LG", 1, "scaling laws")
    c.paper(2, ["bob jones", "julia kempe"], "quant-ph", 2, "quantum walks")
    m, p, cats = c.frames()
    r = assign_persons(m, p, cats, known_name_keys=keys)
    assert len(set(person_of(r, 1, "julia kempe") + person_of(r, 2, "julia kempe"))) == 1


def test_namesakes_split_each_whole():
    m, p, c = two_wei_wangs().frames()
    r = assign_persons(m, p, c, known_name_keys=KNOWN)
    a = {pid: person_of(r, pid)[0] for pid in range(1, 6)}
    assert a[1] == a[3] == a[5] and a[2] == a[4] and a[1] != a[2]
    # the first person of a name keeps today's author_id, stable_id(name_key)
    name_id = with_stable_ids(pl.DataFrame({"k": ["wei wang"]}), {"id": ["k"]})["id"][0]
    assert a[1] == name_id
    rec = r.assignments.filter((pl.col("paper_id") == 3) & (pl.col("name_key") == "wei wang")).row(0, named=True)
    assert rec["rule"] == "joined" and rec["coauthors_shared"] >= 1 and rec["category_level"] == "same"
    # a common name: only persons sharing a co-author can reach the threshold, only they are scored
    assert rec["n_persons"] == 2 and rec["n_candidates"] == 1 and len(rec["candidates"]) == len(rec["candidate_scores"]) == 1
    assert r.persons.filter(pl.col("name_key") == "wei wang").height == 2
    # a lower split threshold is less eager: the name stays one person
    lax = assign_persons(m, p, c, known_name_keys=KNOWN, settings=PersonSettings(split_threshold=-20))
    assert len(set(lax.assignments.filter(pl.col("name_key") == "wei wang")["person_id"])) == 1


def test_rare_name_kept_whole_whatever_the_context():
    c = Corpus()
    c.paper(1, ["tongliang liu", "alice smith"], "cs.LG", 1, "noisy labels")
    c.paper(2, ["bob jones", "tongliang liu"], "hep-th", 400 * 8, "string dualities")
    c.paper(3, ["tongliang liu"], "math.AP", None, "elliptic estimates")
    m, p, cat = c.frames()
    r = assign_persons(m, p, cat, known_name_keys=KNOWN)
    ids = set(r.assignments.filter(pl.col("name_key") == "tongliang liu")["person_id"])
    assert len(ids) == 1
    assert set(r.assignments.filter(pl.col("name_key") == "tongliang liu")["rule"]) == {"rare_name"}


def test_stable_ids_across_chunks_and_aliases():
    corpus = two_wei_wangs()
    corpus.paper(6, ["erin moss", "wei wang"], "cs.LG", 6, "graph pooling")  # a third person, later
    corpus.paper(7, ["wei wang", "alice smith"], "cs.LG", 7, "graph rewiring")
    m, p, c = corpus.frames()
    fresh = assign_persons(m, p, c, known_name_keys=KNOWN).assignments
    known, parts = KNOWN, []
    for chunk in ([1, 2], [3, 4, 5], [6, 7]):
        mm, pp, cc = corpus.frames(chunk)
        stored = None
        if parts:  # the warehouse's stored persons of these names, read back with their evidence
            old = pl.concat(parts).select("paper_id", "author_position", "name_key", "person_id")
            stored = person_profiles(old.join(mm.select("name_key").unique(), on="name_key", how="semi"), m, p, c)
        r = assign_persons(mm, pp, cc, stored=stored, known_name_keys=known)
        parts.append(r.assignments)
        known = pl.concat([known, mm["name_key"]])
    inc = pl.concat(parts)
    key = ["paper_id", "author_position"]
    assert fresh.sort(key)["person_id"].to_list() == inc.sort(key)["person_id"].to_list()
    # stored persons are never renumbered: the ids of the first chunk are still the persons' ids
    assert set(parts[0]["person_id"]) <= set(inc["person_id"])

    # later evidence shows two stored persons are one: an alias, the younger pointing at the elder
    c2 = Corpus()
    c2.paper(10, ["wei wang", "xena park"], "cs.LG", 1, "kernel methods")
    c2.paper(11, ["yuri tam", "wei wang"], "cs.LG", 2, "bandit feedback")
    m1, p1, k1 = c2.frames()
    first = assign_persons(m1, p1, k1, known_name_keys=KNOWN)
    a, b = person_of(first, 10)[0], person_of(first, 11)[0]
    assert a != b and first.aliases.is_empty()
    c2.paper(12, ["xena park", "wei wang", "yuri tam"], "cs.LG", 3, "kernel bandits")
    m2, p2, k2 = c2.frames([12])
    stored = person_profiles(first.assignments, m1, p1, k1)
    second = assign_persons(m2, p2, k2, stored=stored, known_name_keys=KNOWN)
    assert second.aliases.select("from_person_id", "to_person_id").rows() == [(b, a)]
    assert person_of(second, 12) == [a]
    assert second.persons.filter(pl.col("name_key") == "wei wang")["person_id"].to_list() == [a]


def test_no_chaining_through_rejected_pairs():
    # Two "wei wang"s on one author list are two people (cannot-link); a later paper with a
    # co-author of each joins one of them, and never merges them.
    c = Corpus()
    c.paper(1, ["wei wang", "xena park", "wei wang"], "cs.LG", 1)
    c.paper(2, ["xena park", "wei wang", "carl ames"], "cs.LG", 2)
    c.paper(3, ["carl ames", "wei wang"], "cs.LG", 3)
    m, p, cat = c.frames()
    r = assign_persons(m, p, cat, known_name_keys=KNOWN)
    on_one = person_of(r, 1)
    assert len(set(on_one)) == 2 and r.aliases.is_empty()
    # Persons in different arXiv archives with no co-author in common: a mention that fits both
    # (one co-author of each) joins one, the two stay apart.
    c = Corpus()
    c.paper(1, ["wei wang", "xena park"], "hep-th", 1, "string dualities")
    c.paper(2, ["wei wang", "yuri tam"], "cs.LG", 2, "graph learning")
    c.paper(3, ["xena park", "wei wang", "yuri tam"], "cs.LG", 3, "graph strings")
    m, p, cat = c.frames()
    r = assign_persons(m, p, cat, known_name_keys=KNOWN)
    assert person_of(r, 1) != person_of(r, 2) and r.aliases.is_empty()
    assert person_of(r, 3) in (person_of(r, 1), person_of(r, 2))


def test_bounded_cost_on_a_huge_single_name_block():
    n = 6000
    c = Corpus()
    for i in range(n):  # one very common name, mostly strangers: each with its own co-author
        c.paper(i, ["wei wang", f"co{i % 3000} author{i % 3000}"], f"cs.C{i % 7}", i % 300)
    m, p, cat = c.frames()
    s = PersonSettings()
    t = time.perf_counter()
    r = assign_persons(m, p, cat, known_name_keys=KNOWN, settings=s)
    took = time.perf_counter() - t
    a = r.assignments.filter(pl.col("name_key") == "wei wang")
    # every mention meets a bounded number of candidates, whatever the block's size
    assert a["n_candidates"].max() <= s.max_candidates + s.max_per_coauthor
    assert 2900 <= a["person_id"].n_unique() <= 3100  # one person per co-author, roughly
    assert took < 30, took


def test_person_profiles_hold_what_the_loop_saw():
    m, p, c = two_wei_wangs().frames()
    r = assign_persons(m, p, c, known_name_keys=KNOWN)
    assert r.assignments.height == m.height
    prof = person_profiles(r.assignments, m, p, c)
    assert dict(prof.schema) == PERSON_SCHEMA
    ww = prof.filter(pl.col("name_key") == "wei wang").sort("founded_key")
    assert ww["n_mentions"].to_list() == [3, 2] and ww["paper_ids"].to_list() == [[1, 3, 5], [2, 4]]
    assert sorted(ww["coauthors"][0]) == ["alice smith", "carol king"] and ww["categories"][1].to_list() == ["math.AP"]
    new = r.persons.filter(pl.col("is_new"))
    assert new.height == r.assignments["person_id"].n_unique()  # a fresh load: every person is new


NAMES = ["wei wang", "tongliang liu", "alice smith", "bob jones", "wei w3", "g7 wang", "rare1 person1"]


@settings(max_examples=40)
@given(st.lists(st.tuples(st.lists(st.sampled_from(NAMES), min_size=1, max_size=4, unique=True),
                          st.sampled_from(["cs.LG", "math.AP", "hep-th", None]),
                          st.one_of(st.none(), st.integers(0, 30))), min_size=1, max_size=25),
       st.randoms(use_true_random=False))
def test_row_order_does_not_matter(papers, rnd):
    c = Corpus()
    for i, (authors, cat, day) in enumerate(papers):
        c.paper(1000 + i * 7, authors, cat, day, title=f"topic {i % 3} words")
    m, p, cat = c.frames()
    base = assign_persons(m, p, cat, known_name_keys=KNOWN)
    order = list(range(m.height))
    rnd.shuffle(order)
    porder = list(range(p.height))
    rnd.shuffle(porder)
    shuffled = assign_persons(m[order], p[porder], cat.reverse(), known_name_keys=KNOWN.reverse())
    key = ["paper_id", "author_position"]
    assert base.assignments.sort(key).equals(shuffled.assignments.sort(key))
    assert base.persons.sort("person_id").equals(shuffled.persons.sort("person_id"))


def test_a_collaboration_list_reads_a_bounded_window_of_co_authors():
    """Three papers of a 400-name collaboration, every name common ("wei w{i}"): each mention
    reads at most MAX_COAUTHORS co-authors, the nearest on the list, so a person's stored
    co-authors grow by at most that per paper (not by the whole list: work and storage were
    quadratic in the list), and every name is still one person across the three papers."""
    from transforms.persons import MAX_COAUTHORS
    names = [f"wei w{i}" for i in range(400)]
    c = Corpus()
    for pid in (1, 2, 3):
        c.paper(pid, names, "hep-ex", pid, "measurement of a cross section")
    m, p, cat = c.frames()
    r = assign_persons(m, p, cat, known_name_keys=pl.Series(names * 3 + [f"rare{i} x{i}" for i in range(50)]))
    assert r.assignments.group_by("name_key").agg(pl.col("person_id").n_unique())["person_id"].max() == 1
    assert r.persons.height == 400
    assert r.persons["coauthors"].list.len().max() <= MAX_COAUTHORS
    assert r.assignments["coauthors_shared"].max() <= MAX_COAUTHORS


@settings(max_examples=40, deadline=None)
@given(lengths=st.lists(st.integers(1, 140), min_size=1, max_size=4), repeat=st.integers(0, 3))
def test_co_authors_are_the_window_of_nearest_names_on_lists_of_any_length(lengths, repeat):
    """`_coauthors` against a plain reading: the other keys of the paper, or on a list longer than
    MAX_COAUTHORS + 1 the keys of the MAX_COAUTHORS + 1 positions around the mention (shifted in
    at the list's ends), sorted, without repeats. The window is now found by a join on
    positions; a copy of the whole list per mention held n² keys (5 papers of 6,000 names: 4.0
    GB peak for the whole ingest, 0.9 GB now, the same warehouse)."""
    from transforms.persons import MAX_COAUTHORS, _coauthors
    rows = [{"paper_id": pid, "author_position": pos + 1, "name_key": f"n{pos % (n - repeat) if n > repeat else pos}"}
            for pid, n in enumerate(lengths) for pos in range(n)]
    got = _coauthors(pl.DataFrame(rows)).sort("paper_id", "author_position")["coauthors"].to_list()
    window = MAX_COAUTHORS + 1
    want = []
    for pid, n in enumerate(lengths):
        keys = [r["name_key"] for r in rows if r["paper_id"] == pid]
        for i, key in enumerate(keys):
            start = min(max(i - MAX_COAUTHORS // 2, 0), n - window) if n > window else 0
            near = keys[start:start + window] if n > window else keys
            want.append(sorted({k for k in near if k != key}))
    assert got == want


def test_names_decided_in_groups_give_the_persons_of_one_call():
    """The loader decides a large run's names in groups (flows/persons.py, bounded memory), each
    with every mention of its papers as co-authors and the commonness of all names: the same
    persons and decisions as one call over every mention."""
    c = two_wei_wangs()
    c.paper(6, ["yang liu", "alice smith", "wei wang"], "cs.LG", 6, "graph diffusion models")
    c.paper(7, ["yang liu", "bob jones"], "math.AP", 7, "elliptic estimates")
    m, p, cat = c.frames()
    lam = name_commonness(pl.concat([m["name_key"], KNOWN]))
    whole = assign_persons(m, p, cat, commonness=lam).assignments
    parts = []
    for group in (["wei wang", "bob jones"], ["alice smith", "carol king", "dan brown", "yang liu"]):
        mine = m.filter(pl.col("name_key").is_in(group))
        parts.append(assign_persons(mine, p, cat, commonness=lam, context_mentions=m).assignments)
    cols = ["paper_id", "author_position", "person_id", "rule", "score"]
    assert pl.concat(parts).select(cols).sort("paper_id", "author_position").equals(
        whole.select(cols).sort("paper_id", "author_position"))
