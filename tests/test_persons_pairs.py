"""transforms.persons: two pairs of namesakes (issue 13, eval.pairs_of_pairs).

Two Wei Wangs each write with a Yang Liu: A with B, C with D, four different people. Each person
already holds papers of their own, tied by their own co-authors, when a paper of C and D arrives:
"wei wang" on it fits C (a shared co-author) and A (through "yang liu", the only name A and C have
in common); "yang liu" on it fits D and B the same way. One common co-author name is what two
pairs of namesakes, or two lab-mates wearing one name, look like: it must not merge two persons
that are each established on their own papers."""

from __future__ import annotations

import polars as pl

from tests.test_persons import KNOWN, Corpus, person_of
from transforms.persons import PersonSettings, assign_persons


def two_pairs() -> Corpus:
    c = Corpus()
    c.paper(1, ["wei wang", "alice smith", "bob jones"], "cs.LG", 1, "contrastive graph pretraining")  # A
    c.paper(2, ["yang liu", "gina ross", "hank stone"], "cs.LG", 2, "federated optimisation under drift")  # B
    c.paper(3, ["wei wang", "yang liu", "alice smith", "gina ross"], "cs.LG", 3, "federated graph pretraining")  # A, B
    c.paper(4, ["wei wang", "carl ames", "dana hill"], "cs.LG", 4, "speech tokenizers")  # C
    c.paper(5, ["wei wang", "carl ames", "kate lee"], "cs.LG", 5, "spoken language models")  # C
    c.paper(6, ["yang liu", "ivy chen", "jack ford"], "cs.LG", 6, "diffusion policies for robots")  # D
    c.paper(7, ["yang liu", "ivy chen", "liam ross"], "cs.LG", 7, "robot imitation at scale")  # D
    c.paper(8, ["wei wang", "yang liu", "carl ames", "ivy chen"], "cs.LG", 8, "speech driven robot control")  # C, D
    return c


def test_two_pairs_of_namesakes_stay_four_people():
    m, p, c = two_pairs().frames()
    r = assign_persons(m, p, c, known_name_keys=KNOWN)
    a, cc = {person_of(r, i)[0] for i in (1, 3)}, {person_of(r, i)[0] for i in (4, 5, 8)}
    b, d = ({person_of(r, i, "yang liu")[0] for i in ids} for ids in ((2, 3), (6, 7, 8)))
    assert len(a) == len(cc) == len(b) == len(d) == 1  # each person whole
    assert a != cc and b != d  # and the two pairs apart
    assert r.aliases.is_empty()
    # the mention on paper 8 reached A (and B) above the merge bar: only the rule keeps them apart
    rec = r.assignments.filter((pl.col("paper_id") == 8) & (pl.col("name_key") == "wei wang")).row(0, named=True)
    s = PersonSettings()
    assert sorted(rec["candidate_scores"])[-2] >= s.split_threshold + s.merge_margin


def test_a_young_person_still_merges():
    # the same mention merges a person of one paper (not established on its own): as before
    c = two_pairs()
    m, p, cat = c.frames([1, 2, 3, 4, 6, 8])
    r = assign_persons(m, p, cat, known_name_keys=KNOWN)
    assert len({person_of(r, i)[0] for i in (1, 3, 4, 8)}) == 1 and not r.aliases.is_empty()
