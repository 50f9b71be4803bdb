"""A run's parameters do not grow with the number of files: Prefect's server refuses a flow run
whose parameters take more than 512 KiB as JSON (422 Unprocessable Entity). `digest ingest`
with ~8,000 files named one by one (a shell glob) failed there, and so did every scheduled
landing run once ~3,600 files waited in landing (the landing flow passes two entries per file):
the backlog never cleared. A fatal error's line is bounded too: that 422 printed every path,
1-7 MB on "one line"."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from uuid import UUID

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.support.cli import digest_cli

SEED = Path(__file__).resolve().parent.parent / "data" / "samples" / "000_2fe0bc6f923800c6.txt"
PREFECT_LIMIT = 524_288  # bytes of a flow run's parameters as JSON (Prefect's server)


def _records() -> list[list[str]]:
    """The seed's records, five lines each: rank and date, category, title, authors, abstract."""
    lines = SEED.read_text(encoding="utf-8").splitlines()
    return [lines[i:i + 5] for i in range(0, len(lines), 5)]


def one_listing_files(folder: Path, n: int) -> list[Path]:
    """n digests of one listing each, as a scraper saving one file per day writes them: real
    records, one day apart (each file is its own content)."""
    folder.mkdir(parents=True, exist_ok=True)
    records, first_day = _records(), dt.date(2004, 1, 1)
    paths = []
    for i in range(n):
        _, *rest = records[i % len(records)]
        day = first_day + dt.timedelta(days=i)
        path = folder / f"{day:%Y-%m-%d}.txt"
        path.write_text("\n".join([f"#01{day:%b} {day.day}, {day.year}", *rest]) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def _parameters(run_id: str) -> dict:
    """The flow run's parameters as Prefect's server holds them (what its UI shows)."""
    from prefect.client.orchestration import get_client

    with get_client(sync_client=True) as client:
        return client.read_flow_run(UUID(run_id)).parameters


def _json_size(value) -> int:
    return len(json.dumps(value, default=str).encode("utf-8"))


def test_any_number_of_files_named_one_by_one_loads(prefect_harness, tmp_path):
    """`digest ingest digests/*.txt` over 8,000 files: their paths alone are past Prefect's limit."""
    named = one_listing_files(tmp_path / "digests", 8_000)
    assert _json_size({"paths": named}) > PREFECT_LIMIT  # what the run was given before
    warehouse = tmp_path / "w.duckdb"
    with digest_cli() as digest:
        result = digest("ingest", *named, "--warehouse", warehouse, "--json")
    assert result.exit_code == 0, result.output[:2000]
    summary = json.loads(result.stdout)
    assert summary["files_seen"] == summary["n_files_new"] == 8_000
    assert summary["n_listings"] == 8_000
    shown = _parameters(summary["run_id"])
    assert shown["paths"] == {"count": 8_000, "first": [str(p) for p in named[:10]]}
    assert shown["warehouse"] == str(warehouse)
    assert _json_size(shown) < 10_000


def test_a_landing_folder_of_many_files_is_cleared_in_one_run(prefect_harness, tmp_path):
    """3,000 files in landing: the landing flow's names and places for them were ~290 bytes each."""
    from flows.landing import ingest_landing

    landing, archive, warehouse = tmp_path / "landing", tmp_path / "archive", tmp_path / "w.duckdb"
    landed = one_listing_files(landing, 3_000)
    summary = ingest_landing(landing=landing, archive=archive, warehouse=warehouse)
    assert len(summary["archived"]) == 3_000
    assert not any(landing.iterdir())
    assert summary["n_files_new"] == summary["n_listings"] == 3_000
    shown = _parameters(summary["run_id"])
    assert shown["paths"] == [str(landing)]
    assert shown["recorded_as"]["count"] == shown["located_as"]["count"] == 3_000
    first_landed = str(landed[0])
    assert shown["recorded_as"]["first"][first_landed].startswith("archive/")
    assert shown["located_as"]["first"][first_landed].startswith(str(archive))
    assert _json_size(shown) < 10_000


def test_the_dask_flow_sends_its_parameters_as_the_default_one(monkeypatch):
    """`ingest.with_options(task_runner=...)` (DIGEST_TASK_RUNNER=dask) made a plain Prefect
    flow again: its parameters went whole, through FastAPI."""
    pytest.importorskip("prefect_dask")
    from flows.ingest import configured_ingest, ingest
    from flows.settings import Settings

    monkeypatch.setenv("DIGEST_TASK_RUNNER", "dask")
    monkeypatch.setenv("DIGEST_DASK_ADDRESS", "")
    dask_flow = configured_ingest(Settings())
    assert dask_flow is not ingest
    parameters = {"paths": [Path(f"/d/{i}.txt") for i in range(50_000)], "warehouse": Path("w.duckdb")}
    assert dask_flow.serialize_parameters(parameters) == ingest.serialize_parameters(parameters)
    assert _json_size(dask_flow.serialize_parameters(parameters)) < 10_000


names = st.text(st.characters(blacklist_categories=["Cs"]), min_size=1, max_size=300)


@given(paths=st.lists(names, max_size=30), n_copies=st.sampled_from([1, 2, 500]),
       places=st.dictionaries(names, names, max_size=30))
def test_the_parameters_sent_are_bounded_whatever_the_count(paths, n_copies, places):
    """Lists and dicts of any length are sent as their count and first items; short ones whole,
    as before."""
    from flows.fixed_cost import SHOWN, LeanFlow

    def fn(paths, warehouse, recorded_as=None):
        return None

    many = [Path(p) for p in paths] * n_copies
    sent = LeanFlow(fn=fn, name="lean").serialize_parameters(
        {"paths": many, "warehouse": Path("w.duckdb"), "recorded_as": places})
    assert _json_size(sent) < 3 * SHOWN * 2 * (6 * 300 + 10) + 1_000  # items at most 300 characters, \uXXXX each
    if len(many) <= SHOWN:
        assert sent["paths"] == [str(p) for p in many]
    else:
        assert sent["paths"] == {"count": len(many), "first": [str(p) for p in many[:SHOWN]]}
    if len(places) <= SHOWN:
        assert sent["recorded_as"] == places
    else:
        assert sent["recorded_as"] == {"count": len(places), "first": dict(list(places.items())[:SHOWN])}
    assert sent["warehouse"] == "w.duckdb"


def test_many_missing_paths_are_named_in_a_short_line(prefect_harness, tmp_path):
    """A glob over a folder that moved: each of its 20,000 paths was in the message."""
    missing = [tmp_path / "gone" / f"{i:05d}.txt" for i in range(20_000)]
    with digest_cli() as digest:
        result = digest("ingest", *missing, "--warehouse", tmp_path / "w.duckdb")
    assert result.exit_code == 1
    (line,) = result.stderr.splitlines()
    assert len(line) < 1_000
    assert str(missing[0]) in line and "and 19,997 more" in line


@given(message=st.text(min_size=0, max_size=50_000))
def test_a_fatal_error_is_one_bounded_line(message):
    """Whatever an error says (a server's whole response body, a traceback's text), the line
    printed is one line of bounded length that begins as the message does."""
    from flows.analytics_cli import MAX_LINE, one_line, visible

    line = one_line(message)
    assert "\n" not in line and len(line) <= MAX_LINE
    shown = visible(message)
    if len(shown) <= MAX_LINE:
        assert line == shown
    else:  # its beginning (what failed), and its end (what to do, in our own messages)
        head, _, tail = line.partition(" characters left out] … ")
        head = head.rpartition(" … [")[0]
        assert shown.startswith(head) and shown.endswith(tail)
        assert len(head) >= MAX_LINE // 2 and len(tail) >= MAX_LINE // 5


def test_many_named_symlinks_are_looked_at_in_linear_time(tmp_path):
    """`digest ingest links/*.txt` over a folder of links: each link's target was compared with
    every path named, 4,000 links took 57 s to find (21,000: about half an hour, twice a run)."""
    import time

    from flows import extract

    real, links = tmp_path / "real", tmp_path / "links"
    files = one_listing_files(real, 5_000)
    links.mkdir()
    for f in files:
        (links / f.name).symlink_to(f)
    named = sorted(links.iterdir())
    started = time.perf_counter()
    _, found = extract.discover(named, tmp_path)
    assert time.perf_counter() - started < 10
    assert len(found) == 5_000 and not any(f.skip_reason for f in found)
    # a link in a named folder to outside what was named is still refused; one to inside, followed
    (links / "out.txt").symlink_to(SEED)
    (real / "in.txt").symlink_to(files[0])
    _, found = extract.discover([links, real], tmp_path)
    reasons = {Path(f.abs_path).name: f.skip_reason for f in found if f.skip_reason}
    assert list(reasons) == ["out.txt"] and "outside the ingest root" in reasons["out.txt"]
