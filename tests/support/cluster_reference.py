"""The paper clustering loop as the resolver ran it up to session 46 (Python sets and dicts per
node and per accepted pair), kept as the oracle of `transforms.resolve._cluster_in_order`: the
numbered version must decide every pair the same way (tests/test_resolve.py). Two changes: a
pair's outcome is keyed with other_is_paper too, and ties of the order are broken by it."""

from __future__ import annotations

import polars as pl

from transforms.resolve import (AMBIGUITY_MARGIN, DISTINCT_RULES, KEPT_APART_AMBIGUOUS, KEPT_APART_EXISTING,
                                KEPT_APART_REJECTED)


def _cluster_in_order(edges: pl.DataFrame, rejected: pl.DataFrame | None
                      ) -> tuple[dict[int, int], dict[tuple[int, int, bool], str | None]]:
    """`transforms.resolve.cluster_papers` of any edges, strongest first (see there)."""
    members: dict[tuple[bool, int], set[tuple[bool, int]]] = {}
    root_of: dict[tuple[bool, int], tuple[bool, int]] = {}
    apart: dict[tuple[bool, int], set[tuple[bool, int]]] = {}
    for key, other, is_paper in ([] if rejected is None else
                                 rejected.select("paper_key", "other", "other_is_paper").iter_rows()):
        a, b = (False, key), (bool(is_paper), other)
        apart.setdefault(a, set()).add(b)
        apart.setdefault(b, set()).add(a)

    def root(x):
        if x not in root_of:
            root_of[x], members[x] = x, {x}
        return root_of[x]

    outcome: dict[tuple[int, int, bool], str | None] = {}
    ambiguous = _ambiguous_nodes(edges, rejected)
    ordered = edges.sort(["score", "paper_key", "other", "other_is_paper"], descending=[True, False, False, False])
    for key, other, is_paper in ordered.select("paper_key", "other", "other_is_paper").iter_rows():
        if {(False, key), (bool(is_paper), other)} & ambiguous:
            outcome[(key, other, bool(is_paper))] = KEPT_APART_AMBIGUOUS
            continue
        ra, rb = root((False, key)), root((bool(is_paper), other))
        if ra == rb:
            outcome[(key, other, bool(is_paper))] = None
            continue
        small, large = sorted((ra, rb), key=lambda r: len(members[r]))
        if _paper_of(members[ra]) is not None and _paper_of(members[rb]) is not None:
            outcome[(key, other, bool(is_paper))] = KEPT_APART_EXISTING
        elif any(apart.get(m, set()) & members[large] for m in members[small]):
            outcome[(key, other, bool(is_paper))] = KEPT_APART_REJECTED
        else:
            members[large] |= members.pop(small)
            for m in members[large]:
                root_of[m] = large
            outcome[(key, other, bool(is_paper))] = None
    mapping = {}
    for is_paper, k in root_of:
        if not is_paper:
            cluster = members[root((False, k))]
            paper = _paper_of(cluster)
            mapping[k] = paper if paper is not None else min(n for is_p, n in cluster if not is_p)
    return mapping, outcome


def _ambiguous_nodes(edges: pl.DataFrame, rejected: pl.DataFrame | None) -> set[tuple[bool, int]]:
    """Nodes accepted with two nodes that are surely distinct papers (rejected for their titles
    or authors, or two stored papers), each scoring within AMBIGUITY_MARGIN of the node's best.
    One clearly best ("Part I"'s own abstract, untitled, beside "Part II" sharing most of it) is
    no ambiguity: such a key joined neither and was a paper of its own. Stored papers count as
    distinct: a key that fits two equally chained them (an untitled "Part II" joined "Part I"
    through a third key that fit both)."""
    distinct = set()
    if rejected is not None and not rejected.is_empty() and "rule" in rejected.columns:
        distinct = {frozenset({(False, k), (bool(p), o)}) for k, o, p in rejected.filter(
            pl.col("rule").is_in(DISTINCT_RULES)).select("paper_key", "other", "other_is_paper").iter_rows()}
    neighbours: dict[tuple[bool, int], list[tuple[float, tuple[bool, int]]]] = {}
    for key, other, is_paper, score in edges.select("paper_key", "other", "other_is_paper", "score").iter_rows():
        a, b = (False, key), (bool(is_paper), other)
        neighbours.setdefault(a, []).append((score, b))
        neighbours.setdefault(b, []).append((score, a))

    def surely_distinct(x: tuple[bool, int], y: tuple[bool, int]) -> bool:
        return (x[0] and y[0]) or frozenset({x, y}) in distinct

    ambiguous = set()
    for node, near in neighbours.items():
        if len(near) > 1:
            best = max(score for score, _ in near)
            # an exact copy of one paper is no closer call with another (1.0 beside 0.97: it is the first)
            close = [other for score, other in near if score >= (best if best >= 1.0 else best - AMBIGUITY_MARGIN)]
            if any(surely_distinct(x, y) for i, x in enumerate(close) for y in close[i + 1:]):
                ambiguous.add(node)
    return ambiguous


def _paper_of(cluster: set[tuple[bool, int]]) -> int | None:
    """The existing paper of a cluster (at most one), or None."""
    return next((n for is_paper, n in cluster if is_paper), None)
