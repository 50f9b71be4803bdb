"""The analytics test corpus, ingested by the real flow once per test session.

`data/samples` plus the hand-written digests of `tests/data/marts`, shaped so every mart has
rows worth checking: re-listings across days, weeks, a month and a year boundary (2026-W53
holds Dec 31 and Jan 1); a paper seen in both formats, so it has an arXiv category and a
conference area; recurring co-authors and name spellings (DAN ALISTARH); an arXiv alias
(math.IT → cs.IT); incomplete author lists of both kinds ("and 2 more", "等"); and in run 2 a
cut-off record, an impossible date, an abstract without authors and a file of no known format.

Run 1 ingests samples/ and run1/; run 2 ingests the same folder with run2/ added, as a daily
job would (unchanged files skipped). Warehouses are cached here, not in a fixture, so every
test module shares them without a conftest entry.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "data" / "samples"
CORPUS = REPO / "tests" / "data" / "marts"
RUNS = ("run1", "run2")

_built: dict[str, Path] = {}


def _add(corpus: Path, run: str) -> None:
    shutil.copytree(CORPUS / run, corpus / run)


def _new_corpus(root: Path) -> Path:
    corpus = root / "corpus"
    shutil.copytree(SAMPLES, corpus / "samples")
    return corpus


def incremental_warehouse(run_ingest: Callable, tmp_path_factory) -> Path:
    """Two runs: samples + run1, then run2 added to the same folder."""
    if "incremental" not in _built:
        root = tmp_path_factory.mktemp("marts_incremental")
        corpus, warehouse = _new_corpus(root), root / "warehouse.duckdb"
        _add(corpus, "run1")
        run_ingest([corpus], warehouse)
        _add(corpus, "run2")
        run_ingest([corpus], warehouse)
        _built["incremental"] = warehouse
    return _built["incremental"]


def fresh_warehouse(run_ingest: Callable, tmp_path_factory) -> Path:
    """The same final folder loaded in one run."""
    if "fresh" not in _built:
        root = tmp_path_factory.mktemp("marts_fresh")
        corpus, warehouse = _new_corpus(root), root / "warehouse.duckdb"
        for run in RUNS:
            _add(corpus, run)
        run_ingest([corpus], warehouse)
        _built["fresh"] = warehouse
    return _built["fresh"]
