"""Where a full load spends its time and memory, statement by statement, without Prefect.

    .venv/bin/python -m bench.profile /tmp/digest-bench/1000000 [--batch-bytes N] [--memory-limit 3GiB]
    .venv/bin/python -m bench.profile /tmp/digest-bench/10000-seed1 --onto W.duckdb   # a daily run onto W
    .venv/bin/python -m bench.profile /tmp/digest-bench/1000000-distinct --trace-persons   # the person step's RSS
    .venv/bin/python -m bench.profile /tmp/digest-bench/1000000-distinct --explain /tmp/explain   # operators

Parses the corpus in batches on --threads threads (default: as many as the flow parses at once; the flow's parse
task, called directly), stages
them, runs the merge with the resolver, checks and commits into a scratch warehouse, and
prints: parse+stage time, the merge's SQL statements over --min-seconds (with peak RSS so far,
and what DuckDB holds in memory and has spilled to disk when each ends), the Python time between
them (the resolver's blocking and scoring), and the commit. With --onto, the load goes onto a copy
of that warehouse: the incremental case. The memory limit defaults to the flow's for this corpus (a twelfth
of the machine's memory, more for a corpus that large: `flows.settings.run_memory_limit`): over it, DuckDB spills temp tables and operators to disk,
and the "spilled" column shows where.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import shutil
import tempfile
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psutil

from flows import extract, load, persons, resolve
from flows.ingest import parse_batch
from flows.settings import Settings, default_batches_in_flight, parse_slots, run_memory_limit

MB = 1024 * 1024


class PeakRss:
    """Largest RSS of this process, sampled every 50 ms (`window`: the largest since it was
    last reset, for one call)."""

    def __init__(self) -> None:
        self.peak, self.window, self._proc = 0, 0, psutil.Process()
        threading.Thread(target=self._sample, daemon=True).start()

    def now(self) -> int:
        return self._proc.memory_info().rss

    def _sample(self) -> None:
        while True:
            rss = self.now()
            self.peak, self.window = max(self.peak, rss), max(self.window, rss)
            time.sleep(0.05)


def trace_person_step(rss: PeakRss) -> None:
    """Print RSS before, after and at the peak of each call of the person step that reads or
    holds a frame (the common names' decisions, their evidence, each group): where the step's
    memory goes."""
    for name in ("_decide_common", "_with_evidence", "_group_evidence", "_write_group"):
        original = getattr(persons, name)

        def traced(*args, _original=original, _name=name, **kwargs):
            before, rss.window = rss.now(), 0
            result = _original(*args, **kwargs)
            print(f"  person step {_name:<15} RSS {before / MB:6,.0f} -> {rss.now() / MB:6,.0f} MB, "
                  f"peak {max(rss.window, before) / MB:6,.0f} MB")
            return result
        setattr(persons, name, traced)


class TimedConnection:
    """A DuckDB connection that times every execute/sql call. Each log entry: seconds, the
    statement, peak RSS so far, and DuckDB's memory in use and bytes spilled after it (read
    through a second connection: the caller may still fetch this one's result)."""

    def __init__(self, con, rss: PeakRss) -> None:
        self._con, self._rss, self.log = con, rss, []
        self._probe = con.cursor()
        self.explain: tuple[Path, float] | None = None  # (folder, min seconds): see explain_into
        self.n_explained = 0

    def explain_into(self, folder: Path, min_seconds: float) -> None:
        """From now on, each statement over `min_seconds` leaves DuckDB's own profile of it in
        `folder` (NNN.txt: the statement, then its operators over 0.04 s: time, rows, what they
        join or aggregate). The profiler runs for every statement meanwhile."""
        folder.mkdir(parents=True, exist_ok=True)
        self._con.execute("SET enable_profiling = 'no_output'")
        self._con.execute("SET profiling_mode = 'detailed'")
        self.explain = (folder, min_seconds)

    def _explained(self, seconds: float, query) -> None:
        folder, min_seconds = self.explain
        if seconds < min_seconds:
            return
        profile = json.loads(self._con.get_profiling_information(format="json"))
        if "operator" not in profile:  # a statement without a plan (SET, a transaction's end)
            return
        cpu = profile.get("query", {}).get("cpu_time", 0.0)
        spilled = profile.get("system", {}).get("total_bytes_spilled", 0)
        lines = [f"{seconds:.2f} s wall, {cpu:.2f} s CPU, {spilled / MB:,.0f} MB spilled", str(query).strip(), ""]

        def walk(node: dict, depth: int) -> None:
            if node.get("timing", 0) > 0.04:
                info = node.get("extra_info", {})
                what = info.get("Table") or info.get("Join Type") or info.get("Aggregates") or ""
                lines.append(f"{'  ' * depth}{node['name'][:24]:24s} {node['timing']:6.2f} s "
                             f"{node.get('intermediate_rows', 0):>12,} rows  {str(what)[:80]}")
            for child in node.get("children", []):
                walk(child, depth + 1)

        for node in profile["operator"]:
            walk(node, 0)
        (folder / f"{self.n_explained:03d}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
        self.n_explained += 1

    def _memory(self) -> tuple[int, int]:
        used, spilled = self._probe.execute(
            "SELECT sum(memory_usage_bytes), sum(temporary_storage_bytes) FROM duckdb_memory()").fetchall()[0]
        return used or 0, spilled or 0

    def close_probe(self) -> None:
        self._probe.close()

    def __getattr__(self, name):
        return getattr(self._con, name)

    def execute(self, query, *args, **kwargs):
        started, cpu = time.perf_counter(), time.process_time()
        result = self._con.execute(query, *args, **kwargs)
        seconds = time.perf_counter() - started
        self._log(seconds, time.process_time() - cpu, query)
        if self.explain:
            self._explained(seconds, query)
        return result

    def sql(self, query, *args, **kwargs):
        started, cpu = time.perf_counter(), time.process_time()
        result = self._con.sql(query, *args, **kwargs)
        self._log(time.perf_counter() - started, time.process_time() - cpu, query)
        return result

    def _log(self, seconds: float, cpu_seconds: float, query) -> None:
        """One entry; cpu_seconds is the whole process's (every thread: DuckDB's and any worker's)."""
        self.log.append((seconds, cpu_seconds, " ".join(str(query).split()), self._rss.peak, *self._memory()))


def print_statements(log: list[tuple], min_seconds: float, memory_limit: str) -> None:
    print(f"  {'seconds':>8}  {'cores':>5}  {'peak RSS':>9}  {'DuckDB':>9}  {'spilled':>9}  statement (memory limit {memory_limit})")
    for seconds, cpu_seconds, query, peak, used, spilled in log:
        if seconds >= min_seconds:
            print(f"  {seconds:6.2f} s  {cpu_seconds / seconds:5.2f}  {peak / MB:6,.0f} MB  {used / MB:6,.0f} MB  "
                  f"{spilled / MB:6,.0f} MB  {query[:100]}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus", type=Path, help="a bench.corpus folder (listing/ and search/)")
    ap.add_argument("--batch-bytes", type=int, default=16 * MB)
    ap.add_argument("--memory-limit", help="DuckDB's (default: the flow's for this corpus, flows.settings.run_memory_limit)")
    ap.add_argument("--min-seconds", type=float, default=0.3, help="statements shorter than this are not listed")
    ap.add_argument("--onto", type=Path, help="load onto a copy of this warehouse (the incremental case)")
    ap.add_argument("--threads", type=int,
                    help="parse threads (default: the batches the flow parses at once, flows.settings.parse_slots)")
    ap.add_argument("--trace-persons", action="store_true", help="RSS around each call of the person step")
    ap.add_argument("--keep", type=Path, help="keep the loaded warehouse at this path (to compare two loads)")
    ap.add_argument("--explain", type=Path, metavar="DIR",
                    help="DuckDB's operator profile of each merge statement over --min-seconds, into DIR")
    args = ap.parse_args(argv)
    _, found = extract.discover([args.corpus / "listing", args.corpus / "search"])
    found = extract.sized(found)  # packed files at the size of their text, as the flow plans them
    args.memory_limit = args.memory_limit or run_memory_limit(Settings(), sum(f.text_bytes for f in found))
    args.threads = args.threads or parse_slots(default_batches_in_flight(), args.batch_bytes)
    if args.keep and args.keep.exists():
        ap.error(f"--keep {args.keep}: the file exists; give a new path")
    rss = PeakRss()
    if args.trace_persons:
        trace_person_step(rss)
    with tempfile.TemporaryDirectory() as tmp:
        target = args.keep or Path(tmp) / "profile.duckdb"
        if args.onto:
            shutil.copyfile(args.onto, target)
            wal = args.onto.with_name(args.onto.name + ".wal")
            if wal.exists():  # not checkpointed yet
                shutil.copyfile(wal, target.with_name(target.name + ".wal"))
        con = load.connect(target)
        con.execute("SET python_scan_all_frames = true")  # write_frame's frame, seen through the wrapper
        timed = TimedConnection(con, rss)
        # A run id of its own, as the flow's: a run --onto a warehouse a --keep made is another run.
        run_id = f"profile-{uuid.uuid4()}"
        loader = load.RunLoader(timed, run_id, resolver=resolve.resolve_entities, memory_limit=args.memory_limit)
        loader.begin()
        started, cpu_started = time.perf_counter(), time.process_time()
        with ThreadPoolExecutor(args.threads) as pool:
            for batch in pool.map(parse_batch.fn, map(extract.FileBatch, extract.plan_batches(found, args.batch_bytes))):
                loader.stage(batch)
                batch.release()
        parsed = time.perf_counter()
        parse_cpu = time.process_time() - cpu_started
        print(f"parse + stage {parsed - started:6.1f} s   peak RSS {rss.peak / MB:,.0f} MB   "
              f"(CPU {parse_cpu:.1f} s, {parse_cpu / (parsed - started):.2f} cores)")
        timed.log.clear()
        if args.explain:
            timed.explain_into(args.explain, args.min_seconds)
        stats = loader.merge(dt.datetime.now(dt.timezone.utc))
        timed.explain = None
        merged = time.perf_counter()
        in_sql = sum(entry[0] for entry in timed.log)
        merge_cpu = sum(loader.step_cpu_seconds.values())
        print(f"merge         {merged - parsed:6.1f} s   peak RSS {rss.peak / MB:,.0f} MB   "
              f"(SQL {in_sql:.1f} s; Python and reads between: {merged - parsed - in_sql:.1f} s; "
              f"CPU {merge_cpu:.1f} s, {merge_cpu / (merged - parsed):.2f} cores)")
        print_statements(timed.log, args.min_seconds, args.memory_limit)
        print("steps         " + ", ".join(f"{name} {seconds:.1f} s" for name, seconds in loader.step_seconds.items()))
        print("steps' CPU    " + ", ".join(f"{name} {seconds:.1f} s ({seconds / max(loader.step_seconds[name], 1e-9):.2f} cores)"
                                           for name, seconds in loader.step_cpu_seconds.items()))
        fingerprinted = time.perf_counter()
        loader.con.execute(load.schema_sql("source_fingerprint.sql"))  # as the flow's dedupe task does
        print(f"fingerprints  {time.perf_counter() - fingerprinted:6.1f} s   (source_fingerprint.sql)")
        merged = time.perf_counter()
        loader.check()
        checked = time.perf_counter()
        print(f"checks        {checked - merged:6.1f} s   (over {loader.checked[0]})")
        load.record_run(timed, run_id, dt.datetime.now(dt.timezone.utc), "completed", len(found), stats,
                        checked=loader.checked)  # as the flow does: a run onto this one checks its own rows
        recorded = time.perf_counter()
        loader.commit()
        committed = time.perf_counter()
        con.execute("CHECKPOINT")
        print(f"commit        {time.perf_counter() - recorded:6.1f} s   peak RSS {rss.peak / MB:,.0f} MB   "
              f"(COMMIT {committed - recorded:.1f} s, CHECKPOINT {time.perf_counter() - committed:.1f} s; "
              f"row groups compacted: {', '.join(loader.compacting) or 'none'})")
        print(f"{stats.n_listings:,} listings, {stats.n_papers:,} papers, {stats.n_authors:,} authors")
        timed.close_probe()
        con.close()


if __name__ == "__main__":
    main()
