"""The benchmark: the real `digest ingest` side by side with the floor and a plain-Python baseline.

    python -m bench.run --listings 100000 [--listings 1000000] [--shapes repeats,distinct] [--out bench/results/]
    python -m bench.run --report bench/results/            # reprint the tables of saved results

One Prefect server runs for the whole benchmark, as teams deploy it (``prefect server start``;
or the one PREFECT_API_URL names): the "running server" figures. For each corpus shape and size:

1. render the corpus (``bench.corpus``, ``--shape``) into ``<work>/<n>`` (``<n>-distinct`` for
   the distinct shape; reused when its summary.json has the same size, seed and shape);
   generation time is reported apart, it is not part of any pipeline;
2. **floor**: DuckDB's ``read_csv`` line scan of the same files (``bench.floor``), best of 3;
3. **baseline**: the plain-Python pipeline (``bench.baseline``), its counts checked;
4. **ours**: ``digest ingest <corpus>/listing <corpus>/search --warehouse W --json`` with the
   running server, then the same command again (no new files), ``digest ingest`` of one
   unchanged file (Prefect's fixed cost), and a run adding 1 % new files (a second corpus with
   another seed) to a copy of W; then the full run, the no-op and the one-file run again with
   Prefect's temporary server (no PREFECT_API_URL: each CLI run starts its own), into a second
   warehouse (``--temporary fixed``: only the no-op and one-file runs, on W; ``none``: neither);
   with ``--budget SIZE``, one more full run under ``DIGEST_DUCKDB_MEMORY_LIMIT=SIZE`` for the
   shapes of ``--budget-shapes`` (recorded, failure and DuckDB's message included, not fatal);
5. **write floor**: DuckDB writing W's finished tables from memory into a new file
   (``bench.write_floor``). With Prefect's fixed cost and the floor's scan, it bounds from below
   what a ``digest ingest`` run into these tables can take (``lower_bound``).

Every pipeline runs in a fresh process. Wall time is measured around the process; peak RSS is
the largest sum over the process tree (the CLI, and Prefect's temporary server when it starts
one), sampled every 50 ms, next to the largest single process (``wait4`` maxrss); the running
server's own peak during each run is reported beside it (``peak_rss_server_bytes``). Stage times come from the
summary's ``stage_seconds`` and from Prefect's own task-run records (start/end per task).
Results go to ``<out>/bench-<n>.json``; a Markdown table is printed.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import psutil

REPO_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_WORK = Path(tempfile.gettempdir()) / "digest-bench"
DEFAULT_OUT = REPO_ROOT / "bench" / "results"
POLL_SECONDS = 0.05
FLOOR_REPEATS = 3
INCREMENTAL_SHARE = 0.01
MB = 1_000_000
GIB = 1024**3

# Issue 15's targets (2 cores, a running Prefect server), checked at every size and reported.
TARGET_FLOOR_RATIO = 25.0  # repeats shape at 1M: ours within 25x the floor (wall)
TARGET_BASELINE_SPEEDUP = {  # (shape, at least 1M listings?) -> baseline wall / ours wall
    ("repeats", True): 2.5, ("repeats", False): 1.5, ("distinct", True): 1.0, ("distinct", False): 1.0}
TARGET_PEAK_RSS = 4 * GIB  # both shapes at 1M, default memory budget, process tree
TARGET_SCALING = 11.0  # 10x the data costs at most 11x the time
TARGET_NOOP_RUNNING_S = 3.0  # a run with no new files, with a running server (wall)
TARGET_NOOP_TEMPORARY_S = 6.0  # the same with Prefect's temporary server (wall)
# The lower bound's reference lines (issue 5's ratios), kept to compare rounds.
BOUND_FLOOR_RATIO = 8.0
BOUND_BASELINE_SPEEDUP = 5.0
SHAPES = ("repeats", "distinct")
# --bytecode cached: the children's .pyc files go to <work>/pycache (written on first import,
# read after), whatever PYTHONDONTWRITEBYTECODE says, and the shared .venv is left as it is.
BYTECODE_CACHE: Path | None = None
SERVER_START_TIMEOUT = 240.0


# ----------------------------------------------------------------------------- measuring a process
@dataclass
class Measured:
    cmd: list[str]
    wall_s: float
    returncode: int | None
    timed_out: bool
    peak_rss_tree: int  # bytes: the largest sum over the process and its descendants
    peak_rss_process: int  # bytes: the largest single process (polled RSS; wait4 maxrss if never polled)
    stdout: str
    stderr: str
    samples: int = 0
    cpu_s: float = 0.0  # user + system CPU of the process and the descendants it waited for
    json: dict | None = field(default=None)
    peak_rss_server: int | None = None  # bytes: the running Prefect server's tree, during the run

    def facts(self) -> dict:
        return {
            "wall_s": round(self.wall_s, 3),
            "cpu_s": round(self.cpu_s, 3),
            "peak_rss_tree_bytes": self.peak_rss_tree,
            "peak_rss_process_bytes": self.peak_rss_process,
            "peak_rss_server_bytes": self.peak_rss_server,
            "returncode": self.returncode,
            "timed_out": self.timed_out,
            "rss_samples": self.samples,
        }


def run_measured(cmd: list[str], timeout: float, env: dict | None = None,
                 server: psutil.Process | None = None) -> Measured:
    """Run `cmd` in its own process group; time it and sample the tree's RSS every 50 ms (and
    the tree of `server`, a running Prefect server, apart)."""
    env = child_env() if env is None else env
    # Written-back first: the harness's own writes (a corpus, a warehouse copied for the next run)
    # would otherwise be flushed inside the timed child, whose first fsync on ext4 waits for them.
    os.sync()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=out, stderr=err, env=env, cwd=REPO_ROOT, start_new_session=True)
        try:
            root = psutil.Process(proc.pid)
        except psutil.Error:  # already gone: wait4 below still reports its maxrss
            root = None
        peak_tree = peak_one = samples = peak_server = 0
        status = rusage = None
        timed_out = False
        while True:
            pid, status, rusage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            tree, one = _tree_rss(root)
            peak_tree, peak_one, samples = max(peak_tree, tree), max(peak_one, one), samples + 1
            if server is not None:
                peak_server = max(peak_server, _tree_rss(server)[0])
            if time.perf_counter() - started > timeout:
                timed_out = True
                status, rusage = _kill_group(proc.pid)
                break
            time.sleep(POLL_SECONDS)
        wall = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    if samples == 0:  # ended before the first sample: only the kernel's figure (KiB on Linux) is left.
        # Otherwise it is not used: a child spawned by this (large) process starts with the
        # parent's RSS as its ru_maxrss (vfork + exec), so a no-op read as 1.6-3.4 GiB.
        peak_one = rusage.ru_maxrss * 1024
    return Measured(cmd, wall, proc.returncode, timed_out, max(peak_tree, peak_one), peak_one,
                    stdout, stderr, samples, rusage.ru_utime + rusage.ru_stime, _last_json(stdout),
                    peak_server if server is not None else None)


def _tree_rss(root: psutil.Process | None) -> tuple[int, int]:
    total = largest = 0
    if root is None:
        return 0, 0
    try:
        procs = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0, 0
    for p in procs:
        try:
            rss = p.memory_info().rss
        except psutil.Error:
            continue
        total += rss
        largest = max(largest, rss)
    return total, largest


def _kill_group(pid: int) -> tuple[int, object]:
    """Stop the process group this harness started (only it: the group id is the child's pid);
    returns the child's wait status and resource usage."""
    os.killpg(pid, signal.SIGTERM)
    deadline = time.perf_counter() + 5.0
    while time.perf_counter() < deadline:
        reaped, status, rusage = os.wait4(pid, os.WNOHANG)
        if reaped:
            break
        time.sleep(0.1)
    else:
        os.killpg(pid, signal.SIGKILL)
        _, status, rusage = os.wait4(pid, 0)
    try:  # descendants that outlived the child (e.g. a server it started)
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    return status, rusage


def _last_json(stdout: str) -> dict | None:
    """The JSON object a child printed (the last top-level object in its output)."""
    start = stdout.rfind("\n{")
    start = start + 1 if start >= 0 else stdout.find("{")
    if start < 0:
        return None
    try:
        return json.loads(stdout[start:])
    except json.JSONDecodeError:
        return None


# ----------------------------------------------------------------------------- the pieces
def digest_cli() -> str:
    beside = Path(sys.executable).with_name("digest")
    return str(beside if beside.exists() else REPO_ROOT / ".venv" / "bin" / "digest")


def child_env() -> dict:
    """The environment of every child: ours, plus the Prefect API of an already running server
    when the harness itself runs under one (the test harness), so children use it."""
    env = dict(os.environ)
    if BYTECODE_CACHE:  # see --bytecode: children read and write .pyc files there
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(BYTECODE_CACHE)
    api_url = _prefect_settings().get("api_url")
    if api_url:
        env["PREFECT_API_URL"] = api_url
    return env


@dataclass
class Servers:
    """The running Prefect server of this benchmark (given, or started here) and the children's
    environments: `running` points at it, `temporary` lets each CLI run start its own."""
    api_url: str
    database_url: str | None  # the server's database (task-run records), when known
    source: str
    running: dict
    temporary: dict
    process: subprocess.Popen | None = None  # the server this run started
    watch: psutil.Process | None = None  # whose RSS is sampled beside each run
    start_s: float | None = None

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)  # its own session: the server and its workers
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


def start_servers(work: Path, timeout: float = SERVER_START_TIMEOUT) -> Servers:
    """Use the server PREFECT_API_URL (or the harness's settings) names, else start
    `prefect server start` (services on, as deployed) on a free port, with its own home and
    database under `work`, and wait until it answers."""
    base = child_env()
    temporary = {k: v for k, v in base.items() if k != "PREFECT_API_URL"}
    given = base.get("PREFECT_API_URL")
    if given:
        return Servers(given, _prefect_settings().get("database_url"), "given (PREFECT_API_URL)",
                       base, temporary)
    home = work / "prefect-server"
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir(parents=True)
    port = _free_port()
    database_url = f"sqlite+aiosqlite:///{home / 'prefect.db'}"
    env = {**temporary, "PREFECT_HOME": str(home), "PREFECT_SERVER_DATABASE_CONNECTION_URL": database_url,
           "PREFECT_SERVER_ANALYTICS_ENABLED": "false", "PREFECT_UI_ENABLED": "false"}
    prefect_cli = Path(sys.executable).with_name("prefect")
    started = time.perf_counter()
    with (home / "server.log").open("wb") as logf:
        process = subprocess.Popen([str(prefect_cli), "server", "start", "--host", "127.0.0.1", "--port", str(port)],
                                   stdout=logf, stderr=subprocess.STDOUT, env=env, cwd=home, start_new_session=True)
    api_url = f"http://127.0.0.1:{port}/api"
    servers = Servers(api_url, database_url, "started by bench.run (prefect server start)",
                      {**temporary, "PREFECT_API_URL": api_url}, temporary, process, psutil.Process(process.pid))
    if not _answers(api_url, process, timeout):
        servers.stop()
        tail = (home / "server.log").read_text(errors="replace")[-500:]
        raise RuntimeError(f"the Prefect server did not answer within {timeout:.0f} s: {tail.strip()}")
    servers.start_s = round(time.perf_counter() - started, 3)
    return servers


def _answers(api_url: str, process: subprocess.Popen, timeout: float) -> bool:
    import urllib.error
    import urllib.request

    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline and process.poll() is None:
        try:
            with urllib.request.urlopen(f"{api_url}/health", timeout=2) as r:
                if r.status == 200:
                    return True
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.25)
    return False


def _free_port() -> int:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _prefect_settings() -> dict:
    try:
        from prefect.settings import get_current_settings
    except ImportError:
        return {}
    settings = get_current_settings()
    url = settings.server.database.connection_url
    return {
        "api_url": settings.api.url,
        "database_url": url.get_secret_value() if url is not None else None,
    }


def corpus_name(n: int, shape: str = "repeats", seed: int = 0) -> str:
    """`<n>` (today's shape), `<n>-distinct`; `-seed<k>` for another seed."""
    return f"{n}" + ("" if shape == "repeats" else f"-{shape}") + ("" if seed == 0 else f"-seed{seed}")


def ensure_corpus(work: Path, n: int, seed: int, timeout: float, shape: str = "repeats") -> tuple[Path, dict, dict]:
    """(corpus dir, its summary, generation facts); rendered in a child process unless reusable."""
    out = work / corpus_name(n, shape, seed)
    summary_file, timing_file = out / "summary.json", out / "bench-generation.json"
    if summary_file.is_file():
        summary = json.loads(summary_file.read_text(encoding="utf-8"))
        if (summary.get("n_listings_requested") == n and summary.get("seed") == seed
                and summary.get("shape", "repeats") == shape
                and (out / "listing").is_dir() and (out / "search").is_dir()):
            # A corpus compressed after rendering (session 10 gzipped one to fit a 10M run on the
            # disk): the floor and the baseline read plain text. Not rendered again in its place:
            # a large one took 18 min to render and was compressed on purpose.
            if next(out.rglob("*.gz"), None) is not None:
                raise RuntimeError(f"corpus {out} holds gzipped files (compressed after it was rendered): "
                                   "move it aside or delete it, and bench.run renders it again")
            first = json.loads(timing_file.read_text(encoding="utf-8")) if timing_file.is_file() else {}
            return out, summary, {"reused": True, "wall_s": 0.0, "first_generation_wall_s": first.get("wall_s")}
    out.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "bench.corpus", str(out), "--listings", str(n), "--seed", str(seed), "--shape", shape]
    m = run_measured(cmd, timeout)
    if m.returncode != 0:
        raise RuntimeError(f"corpus generation failed: {m.stderr.strip()[-500:]}")
    summary = json.loads(summary_file.read_text(encoding="utf-8"))
    timing_file.write_text(json.dumps(m.facts()) + "\n", encoding="utf-8")  # beside listing/ and search/, never ingested
    return out, summary, {"reused": False, **m.facts()}


def corpus_dirs(corpus: Path) -> list[str]:
    return [str(corpus / "listing"), str(corpus / "search")]


def warm_cache(corpus: Path) -> float:
    """Read every file of the corpus once (and drop the bytes), so the run timed next starts with
    the files in the page cache whatever ran before it: this machine's kernel reclaims pages left
    unread for a few minutes (DAMON), and a 1M run then read its 1.5 GB from disk (the parse
    tasks' read 7.6 s at 1M repeats, 139.7 s at 1M distinct in one bench.run). Seconds taken."""
    started = time.perf_counter()
    for folder in corpus_dirs(corpus):
        for path in Path(folder).rglob("*"):
            if path.is_file():
                with path.open("rb") as f:
                    while f.read(1 << 22):
                        pass
    return round(time.perf_counter() - started, 2)


def run_floor(corpus: Path, timeout: float, repeats: int = FLOOR_REPEATS) -> dict:
    runs = []
    for _ in range(max(1, repeats)):
        m = run_measured([sys.executable, "-m", "bench.floor", *corpus_dirs(corpus)], timeout)
        if m.returncode != 0 or m.json is None:
            raise RuntimeError(f"floor failed: {m.stderr.strip()[-500:]}")
        runs.append(m)
    best = min(runs, key=lambda r: r.wall_s)
    return {**best.facts(), "all_wall_s": [round(r.wall_s, 3) for r in runs], "scan": best.json}


def run_write_floor(warehouse: Path, out: Path, timeout: float) -> dict:
    m = run_measured([sys.executable, "-m", "bench.write_floor", str(warehouse), str(out)], timeout)
    out.unlink(missing_ok=True)
    if m.returncode != 0 or m.json is None:
        raise RuntimeError(f"write floor failed: {m.stderr.strip()[-500:]}")
    return {**m.facts(), **m.json}


def run_baseline(corpus: Path, warehouse: Path, timeout: float, answer: dict) -> dict:
    m = run_measured([sys.executable, "-m", "bench.baseline", *corpus_dirs(corpus), "--warehouse", str(warehouse)],
                     timeout)
    warehouse.unlink(missing_ok=True)
    result = {**m.facts(), "timeout_s": timeout, "summary": m.json}
    if m.timed_out:
        result["note"] = f"cut off after {timeout:.0f} s"
        result["correct"] = None
        return result
    if m.returncode != 0 or m.json is None:
        raise RuntimeError(f"baseline failed: {m.stderr.strip()[-800:]}")
    result["correct"] = (m.json["n_papers"] == answer["n_papers"] and m.json["n_listings"] == answer["n_listings"])
    return result


def run_ours(digest: list[str], paths: list[str], warehouse: Path, timeout: float, env: dict,
             servers: Servers | None = None, strict: bool = True) -> dict:
    """One `digest ingest` run. `servers` given: the running server's task records and RSS are
    read. strict=False: a failed run is recorded (its last error line), not raised."""
    m = run_measured([*digest, "ingest", *paths, "--warehouse", str(warehouse), "--json"], timeout, env,
                     servers.watch if servers else None)
    failed = ("timed out after %.0f s" % timeout if m.timed_out else
              None if m.returncode == 0 and m.json is not None else f"exit {m.returncode}")
    if failed:
        error = next((ln for ln in reversed(m.stderr.strip().splitlines()) if ln.startswith("error:")),
                     m.stderr.strip()[-800:])
        if strict:
            raise RuntimeError(f"digest ingest {failed}: {error}")
        return {**m.facts(), "failed": failed, "error": error, "correct": False}
    summary = m.json
    return {
        **m.facts(),
        "summary": summary,
        "flow_seconds": summary.get("seconds"),
        "prefect_overhead_s": round(m.wall_s - summary.get("seconds", 0.0), 3),
        "tasks": prefect_task_times(summary.get("run_id"), servers.database_url if servers else None)
        if summary.get("flow_run", True) else None,
        "warehouse_counts": warehouse_counts(warehouse),
    }


def prefect_task_times(flow_run_id: str | None, database_url: str | None = None) -> dict | None:
    """Per-task start/end from the Prefect server's own records (its SQLite database)."""
    db = database_url or ""
    if not flow_run_id or not db.startswith("sqlite"):
        return None
    path = db.split(":///", 1)[-1]
    if not Path(path).is_file():
        return None
    import sqlite3

    rows = []
    for _ in range(20):  # task states reach the database as events: give them a moment
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10) as con:
            rows = con.execute(
                "SELECT name, start_time, end_time, state_type FROM task_run WHERE flow_run_id = ?",
                (flow_run_id,)).fetchall()
        if rows and all(r[2] for r in rows):
            break
        time.sleep(0.25)
    return summarise_tasks(rows)


def summarise_tasks(rows: list[tuple]) -> dict:
    """Durations per task name (prefix before the run suffix), plus the parse tasks' span."""
    parse = lambda s: dt.datetime.fromisoformat(s) if s else None  # noqa: E731
    by_name: dict[str, list[tuple[dt.datetime, dt.datetime]]] = {}
    for name, start, end, _ in rows:
        s, e = parse(start), parse(end)
        if s and e:
            by_name.setdefault(name.rsplit("-", 1)[0], []).append((s, e))
    out: dict = {"n_tasks": len(rows)}
    for name, spans in sorted(by_name.items()):
        out[name] = {
            "n": len(spans),
            "sum_s": round(sum((e - s).total_seconds() for s, e in spans), 3),
            "span_s": round((max(e for _, e in spans) - min(s for s, _ in spans)).total_seconds(), 3),
        }
    return out


def warehouse_counts(warehouse: Path) -> dict | None:
    """Row counts read back from the warehouse file (None when the run left no file)."""
    import duckdb

    if not warehouse.exists():
        return None
    with duckdb.connect(str(warehouse), read_only=True) as con:
        one = lambda sql: con.execute(sql).fetchall()[0][0]  # noqa: E731
        return {
            "n_listings": one("SELECT count(*) FROM fact_listing"),
            "n_papers": one("SELECT count(*) FROM dim_paper"),
            "n_authors": one("SELECT count(*) FROM dim_author"),
            "n_files": one("SELECT count(*) FROM dim_source_file"),
            "n_lines": one("SELECT coalesce(sum(n_lines), 0) FROM dim_source_file"),
            "n_quarantined": one("SELECT count(*) FROM quarantine"),
            "file_bytes": warehouse.stat().st_size,
        }


def warm_up(servers: Servers, timeout: float) -> None:
    """Import what the CLI, the flow and Prefect's temporary server import, once, so that the
    first measured run does not pay for compiling them (with --bytecode cached)."""
    run_measured([sys.executable, "-c", "import flows.cli, flows.ingest, prefect.server.api.server"], timeout,
                 servers.temporary)


def import_probe(timeout: float) -> dict:
    """Wall time of importing the flow's modules alone: the part of the fixed cost that is Python."""
    m = run_measured([sys.executable, "-P", "-c", "import flows.ingest"], timeout, child_env())
    return m.facts()


def incremental_answer(big: Path, small: Path) -> dict:
    """The known answer after ingesting `small` on top of `big`: union of truth papers; listings
    of the small corpus's files whose bytes are not already in the big one (same content = same
    file, by design). A paper is its truth id *and* its abstract: a synthetic paper ("<id>~k",
    epochs k >= 1) is drawn from the corpus's seed, so another seed's "<id>~1" is another paper
    (the +1 % corpus of the distinct shape reaches epoch 1; counting it as known under-counted by
    its 2,329 epoch-1 papers at 1M)."""
    import pyarrow.parquet as pq

    def truth(corpus: Path) -> set[tuple[str, str]]:
        t = pq.read_table(corpus / "papers.parquet", columns=["truth_id", "abstract"]).to_pydict()
        return set(zip(t["truth_id"], t["abstract"]))

    def files(corpus: Path) -> dict[str, int]:
        t = pq.read_table(corpus / "files.parquet", columns=["path", "n_records"]).to_pydict()
        return {p.rsplit("_", 1)[-1]: n for p, n in zip(t["path"], t["n_records"])}

    big_files, small_files = files(big), files(small)
    new_listings = sum(n for h, n in small_files.items() if h not in big_files)
    big_summary = json.loads((big / "summary.json").read_text(encoding="utf-8"))
    small_papers = truth(small)
    return {
        "n_papers": len(truth(big) | small_papers),
        "n_listings": big_summary["n_listings"] + new_listings,
        "n_new_papers": len(small_papers - truth(big)),
        "n_new_listings": new_listings,
    }


# ----------------------------------------------------------------------------- one size
def bench_size(n: int, args: argparse.Namespace, servers: Servers, shape: str = "repeats") -> dict:
    work = Path(args.work)
    tag = f"[{n:,} {shape}]"
    log(f"{tag} corpus")
    corpus, summary, generation = ensure_corpus(work, n, args.seed, args.timeout, shape)
    answer = {"n_listings": summary["n_listings"], "n_papers": summary["n_papers"]}
    runs = work / f"{corpus_name(n, shape)}-runs"
    shutil.rmtree(runs, ignore_errors=True)
    runs.mkdir(parents=True)
    load_before = os.getloadavg()
    running, temporary = servers.running, servers.temporary

    log(f"{tag} floor (best of {args.floor_repeats})")
    floor = run_floor(corpus, args.timeout, args.floor_repeats)
    log(f"{tag} baseline (timeout {args.baseline_timeout:.0f} s; files read first in {warm_cache(corpus)} s)")
    baseline = run_baseline(corpus, runs / "baseline.duckdb", args.baseline_timeout, answer)
    log(f"{tag} ours: full run (running server; files read first in {warm_cache(corpus)} s)")
    warehouse = runs / "ours.duckdb"
    digest = shlex.split(args.digest) if args.digest else checkout_cli(args.code) if args.code else [digest_cli()]
    ours = run_ours(digest, corpus_dirs(corpus), warehouse, args.timeout, running, servers)
    log(f"{tag} ours: no new files (running server)")
    noop = run_ours(digest, corpus_dirs(corpus), warehouse, args.timeout, running, servers)
    # Prefect's fixed cost: a run that finds one file, already ingested (an empty folder is an
    # error now: a run that finds nothing says so).
    log(f"{tag} ours: one unchanged file (running server)")
    # One file, recorded under the corpus root as in the full run (paths are relative to the
    # ingest root; given alone, a file's root would be its own folder, a new path to read).
    one_file = min(Path(corpus_dirs(corpus)[0]).rglob("*.txt"))
    # It runs the flow (which a run with nothing new skips): its cost is Prefect's fixed cost.
    one_root = {"DIGEST_INGEST_ROOT": str(corpus), "DIGEST_FLOW_RUN_WHEN_NOTHING_NEW": "true"}
    empty = run_ours(digest, [str(one_file)], warehouse, args.timeout, {**running, **one_root}, servers)
    imports = import_probe(args.timeout)
    log(f"{tag} write floor")
    write_floor = run_write_floor(warehouse, runs / "write_floor.duckdb", args.timeout)

    n_small = max(1, round(n * INCREMENTAL_SHARE))
    log(f"{tag} ours: +{n_small:,} listings (1%) on a copy of the warehouse (running server)")
    small, small_summary, small_generation = ensure_corpus(work, n_small, args.seed + 1, args.timeout, shape)
    warm_cache(small)
    inc_warehouse = runs / "incremental.duckdb"
    shutil.copyfile(warehouse, inc_warehouse)
    incremental = run_ours(digest, corpus_dirs(small), inc_warehouse, args.timeout, running, servers)
    inc_answer = incremental_answer(corpus, small)

    temp: dict = {"mode": args.temporary}
    if args.temporary != "none":
        target = warehouse
        if args.temporary == "full":
            log(f"{tag} ours: full run (temporary server; files read first in {warm_cache(corpus)} s)")
            target = runs / "ours-temporary.duckdb"
            temp["full"] = run_ours(digest, corpus_dirs(corpus), target, args.timeout, temporary)
            temp["full"]["correct"] = _counts_match(temp["full"]["warehouse_counts"], answer)
            temp["full"].update(rates(n, summary["bytes"], temp["full"]["wall_s"]))
        log(f"{tag} ours: no new files, one unchanged file (temporary server)")
        temp["noop"] = run_ours(digest, corpus_dirs(corpus), target, args.timeout, temporary)
        temp["empty"] = run_ours(digest, [str(one_file)], target, args.timeout, {**temporary, **one_root})
        if target != warehouse and not args.keep:
            target.unlink(missing_ok=True)

    budget = None
    if args.budget and shape in args.budget_shapes:
        log(f"{tag} ours: full run under DIGEST_DUCKDB_MEMORY_LIMIT={args.budget} (running server; files read "
            f"first in {warm_cache(corpus)} s)")
        target = runs / "ours-budget.duckdb"
        budget = run_ours(digest, corpus_dirs(corpus), target, args.timeout,
                          {**running, "DIGEST_DUCKDB_MEMORY_LIMIT": args.budget}, servers, strict=False)
        budget["memory_limit"] = args.budget
        if not budget.get("failed"):
            budget["correct"] = _counts_match(budget["warehouse_counts"], answer)
        if not args.keep:
            target.unlink(missing_ok=True)

    result = assemble(n, corpus, summary, generation, answer, floor, baseline, ours, noop, empty, imports,
                      incremental, inc_answer, small_summary, small_generation)
    result["shape"] = shape
    result["temporary_server"] = temp
    result["budget_run"] = budget
    result["prefect"]["server"] = {"source": servers.source, "api_url": servers.api_url,
                                   "start_s": servers.start_s}
    if temp.get("empty"):
        result["prefect"]["temporary_fixed_overhead_s"] = temp["empty"]["wall_s"]
    result["write_floor"] = write_floor
    result["lower_bound"] = lower_bound(result)
    result["machine"]["digest_command"] = digest
    result["machine"]["prefect_server"] = servers.source
    result["machine"]["loadavg_before"] = [round(x, 2) for x in load_before]
    result["machine"]["loadavg_after"] = [round(x, 2) for x in os.getloadavg()]
    if not args.keep:
        shutil.rmtree(runs, ignore_errors=True)
    if args.clean:
        shutil.rmtree(corpus, ignore_errors=True)
        shutil.rmtree(small, ignore_errors=True)
    return result


def _counts_match(got: dict | None, answer: dict) -> bool:
    return bool(got) and got["n_papers"] == answer["n_papers"] and got["n_listings"] == answer["n_listings"]


def assemble(n, corpus, summary, generation, answer, floor, baseline, ours, noop, empty, imports,
             incremental, inc_answer, small_summary, small_generation) -> dict:
    size_mb = summary["bytes"] / MB
    wall = ours["wall_s"]
    flow = ours["flow_seconds"]
    empty_flow = empty["flow_seconds"] or 0.0
    n_empty_tasks = (empty["tasks"] or {}).get("n_tasks") or 0
    task_time = sum(v["sum_s"] for k, v in (empty["tasks"] or {}).items() if isinstance(v, dict))
    got = ours["warehouse_counts"]
    inc_got = incremental["warehouse_counts"]
    baseline_wall = None if baseline["timed_out"] else baseline["wall_s"]
    return {
        "n_listings": n,
        "date": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "machine": machine_facts(),
        "corpus": {
            "path": str(corpus),
            "bytes": summary["bytes"],
            "n_files": summary["n_files"],
            "n_listings": summary["n_listings"],
            "n_papers": summary["n_papers"],
            "n_listing_files": summary["n_listing_files"],
            "n_search_files": summary["n_search_files"],
            "noise_files": summary["noise"]["files"],
            "seed": summary["seed"],
            "generation": generation,
        },
        "floor": {**floor, **rates(n, summary["bytes"], floor["wall_s"])},
        "baseline": {**baseline, **(rates(n, summary["bytes"], baseline_wall) if baseline_wall else {})},
        "ours": {
            **ours,
            **rates(n, summary["bytes"], wall),
            "flow_rates": rates(n, summary["bytes"], flow),
            "stages": stage_table(ours),
            "correct": _counts_match(got, answer),
            "lines_match_floor": got["n_lines"] == floor["scan"]["lines"],
        },
        "noop": {**noop, "extra_over_empty_s": round(noop["wall_s"] - empty["wall_s"], 3),
                 "correct": noop["summary"].get("n_files_new") == 0 and noop["warehouse_counts"]["n_listings"] == got["n_listings"]},
        "empty": empty,
        "prefect": {
            "fixed_overhead_s": empty["wall_s"],
            "empty_run_flow_seconds": empty_flow,
            "python_import_s": imports["wall_s"],
            "server_start_and_teardown_s": round(empty["wall_s"] - imports["wall_s"] - empty_flow, 3),
            "full_run_overhead_s": ours["prefect_overhead_s"],
            "per_task_s": round((empty_flow - task_time) / n_empty_tasks, 4) if n_empty_tasks else None,
            "full_run_tasks": (ours["tasks"] or {}).get("n_tasks"),
        },
        "incremental": {
            **incremental,
            "share": INCREMENTAL_SHARE,
            "corpus": {"bytes": small_summary["bytes"], "n_files": small_summary["n_files"],
                       "n_listings": small_summary["n_listings"], "seed": small_summary["seed"],
                       "generation": small_generation},
            "answer": inc_answer,
            "vs_full_wall": round(incremental["wall_s"] / wall, 4),
            "vs_full_flow": round(incremental["flow_seconds"] / flow, 4) if flow else None,
            "marginal_flow_s": round(incremental["flow_seconds"] - noop["flow_seconds"], 3),
            "correct": inc_got["n_papers"] == inc_answer["n_papers"] and inc_got["n_listings"] == inc_answer["n_listings"],
        },
        "answer": answer,
        "ratios": {
            "vs_floor_wall": round(wall / floor["wall_s"], 2),
            "vs_floor_flow": round(flow / floor["wall_s"], 2),
            "baseline_speedup_wall": round(baseline_wall / wall, 2) if baseline_wall else None,
            "baseline_speedup_flow": round(baseline_wall / flow, 2) if baseline_wall else None,
            "baseline_speedup_lower_bound": (round(baseline["timeout_s"] / wall, 2) if baseline["timed_out"] else None),
            "ours_mb_per_s": round(size_mb / wall, 2),
            # CPU seconds (user + system, whole process tree): less sensitive to a busy machine
            "vs_floor_cpu": round(ours["cpu_s"] / floor["cpu_s"], 2) if floor.get("cpu_s") else None,
            "baseline_speedup_cpu": (round(baseline["cpu_s"] / ours["cpu_s"], 2)
                                     if baseline_wall and ours.get("cpu_s") else None),
        },
    }


def lower_bound(r: dict) -> dict:
    """The least a run of `digest ingest` into these tables can take: Prefect's fixed cost (an
    empty run: no flow starts before it), then reading every line (the floor's scan) and writing
    the tables (the write floor), counted as if the two overlapped perfectly (`serial_wall_s`:
    one after the other); and what that leaves within the targets for parsing, cleaning and
    resolving."""
    fixed = r["prefect"]["fixed_overhead_s"]
    read, write = r["floor"]["scan"]["seconds"], r["write_floor"]["seconds"]
    wall = round(fixed + max(read, write), 3)
    base = None if r["baseline"]["timed_out"] else r["baseline"]["wall_s"]
    speedup = TARGET_BASELINE_SPEEDUP[(r.get("shape", "repeats"), r["n_listings"] >= 1_000_000)]
    return {
        "wall_s": wall,
        "serial_wall_s": round(fixed + read + write, 3),
        "vs_floor": round(wall / r["floor"]["wall_s"], 2),
        "left_within_8x_floor_s": round(BOUND_FLOOR_RATIO * r["floor"]["wall_s"] - wall, 3),
        "left_within_5x_baseline_s": round(base / BOUND_BASELINE_SPEEDUP - wall, 3) if base else None,
        "left_within_25x_floor_s": round(TARGET_FLOOR_RATIO * r["floor"]["wall_s"] - wall, 3),
        "left_within_baseline_target_s": round(base / speedup - wall, 3) if base else None,
    }


def rates(n: int, n_bytes: int, seconds: float | None) -> dict:
    if not seconds:
        return {}
    return {"listings_per_s": round(n / seconds), "mb_per_s": round(n_bytes / MB / seconds, 2)}


def stage_table(ours: dict) -> dict:
    """Where the flow's time went: Prefect's task records and the summary's own stage timings."""
    tasks = ours["tasks"] or {}
    span = lambda name: (tasks.get(name) or {}).get("span_s")  # noqa: E731
    known = {
        "discover": span("discover"),
        "parse_clean_tasks": span("parse-clean"),  # wall span of the parse tasks (they overlap)
        "dedupe": span("dedupe"),
        "validate": span("validate"),
        "load": span("load"),
    }
    accounted = sum(v for v in known.values() if v)
    return {
        **known,
        "parse_clean_task_sum_s": (tasks.get("parse-clean") or {}).get("sum_s"),
        "n_parse_tasks": (tasks.get("parse-clean") or {}).get("n"),
        "flow_other": round(ours["flow_seconds"] - accounted, 3) if tasks else None,
        "summary_stage_seconds": ours["summary"].get("stage_seconds", {}),
    }


def machine_facts() -> dict:
    import duckdb
    import polars
    import pyarrow

    try:
        import prefect

        prefect_version = prefect.__version__
    except ImportError:
        prefect_version = None
    return {
        "cpu_count": os.cpu_count(),
        "memory_total_bytes": psutil.virtual_memory().total,
        "platform": platform.platform(),
        "python": platform.python_version(),
        "polars": polars.__version__,
        "duckdb": duckdb.__version__,
        "pyarrow": pyarrow.__version__,
        "prefect": prefect_version,
        "git_commit": _git("rev-parse", "HEAD"),
        "git_dirty": bool(_git("status", "--porcelain")),
        "pythonpath": os.environ.get("PYTHONPATH"),
        "bytecode_cache": str(BYTECODE_CACHE) if BYTECODE_CACHE else "none (PYTHONDONTWRITEBYTECODE as set)"
        if os.environ.get("PYTHONDONTWRITEBYTECODE") else "default (__pycache__)",
    }


def _git(*args: str) -> str | None:
    try:
        return subprocess.run(["git", *args], cwd=REPO_ROOT, capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None


# ----------------------------------------------------------------------------- targets and tables
def result_name(n: int, shape: str = "repeats") -> str:
    return f"bench-{corpus_name(n, shape)}.json"


def add_scaling(results: dict[tuple[int, str], dict], out: Path) -> None:
    """time(10n)/time(n) per shape for consecutive sizes: from this run, else from a saved result."""
    for n, shape in sorted(results):
        small = n // 10
        other = results.get((small, shape))
        source = "this run"
        saved = out / result_name(small, shape)
        if other is None and saved.is_file():
            other = json.loads(saved.read_text(encoding="utf-8"))
            source = f"{saved} ({other.get('date')})"
        if other is None:
            continue
        results[(n, shape)]["scaling"] = {
            "vs_listings": small,
            "source": source,
            "wall_ratio": round(results[(n, shape)]["ours"]["wall_s"] / other["ours"]["wall_s"], 2),
            "flow_ratio": round(results[(n, shape)]["ours"]["flow_seconds"] / other["ours"]["flow_seconds"], 2),
        }


def targets(r: dict) -> dict:
    """Issue 15's targets, measured with the running server (the temporary server's no-op has its own)."""
    rt, ours, shape = r["ratios"], r["ours"], r.get("shape", "repeats")
    big = r["n_listings"] >= 1_000_000
    speedup = rt["baseline_speedup_wall"] or rt["baseline_speedup_lower_bound"]
    need = TARGET_BASELINE_SPEEDUP[(shape, big)]
    scaling = r.get("scaling")
    temp = r.get("temporary_server") or {}
    budget = r.get("budget_run")
    check = lambda value, limit, ok: {"value": value, "target": limit, "met": None if value is None else ok(value)}  # noqa: E731
    out = {}
    if shape == "repeats":
        out["within_25x_floor_wall"] = check(rt["vs_floor_wall"], TARGET_FLOOR_RATIO, lambda v: v <= TARGET_FLOOR_RATIO)
    out["faster_than_baseline_wall"] = check(speedup, need, (lambda v: v > need) if need == 1.0 else (lambda v: v >= need))
    out["peak_rss_under_4gib"] = check(ours["peak_rss_tree_bytes"], TARGET_PEAK_RSS, lambda v: v < TARGET_PEAK_RSS)
    if budget is not None:
        out["completes_under_budget"] = check(not budget.get("failed") and bool(budget.get("correct")),
                                              budget["memory_limit"], bool)
    out["10x_data_at_most_11x_time"] = check(scaling["wall_ratio"] if scaling else None, TARGET_SCALING,
                                             lambda v: v <= TARGET_SCALING)
    out["noop_running_server_within_3s"] = check(r["noop"]["wall_s"], TARGET_NOOP_RUNNING_S,
                                                 lambda v: v <= TARGET_NOOP_RUNNING_S)
    out["noop_temporary_server_within_6s"] = check((temp.get("noop") or {}).get("wall_s"), TARGET_NOOP_TEMPORARY_S,
                                                   lambda v: v <= TARGET_NOOP_TEMPORARY_S)
    exact = ours["correct"] and r["incremental"]["correct"] and (temp.get("full") or {}).get("correct", True)
    out["counts_exact"] = check(bool(exact), True, bool)
    return out


def gib(n_bytes: int | None) -> str:
    return "–" if n_bytes is None else f"{n_bytes / GIB:.2f} GiB"


def fmt(x, digits: int = 1) -> str:
    if x is None:
        return "–"
    return f"{x:,.{digits}f}" if isinstance(x, float) else f"{x:,}"


def summary_table(results: list[dict]) -> str:
    rows = [
        "| shape | listings | corpus | floor | baseline | ours: running server (flow) | ours: temporary server "
        "| ours ÷ floor | baseline ÷ ours | peak RSS | no-op: running / temporary | +1 % files | cores |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        b = r["baseline"]
        base = f"{b['wall_s']:.1f} s" if not b["timed_out"] else f"> {b['timeout_s']:.0f} s (cut off)"
        speed = r["ratios"]["baseline_speedup_wall"] or (f"> {r['ratios']['baseline_speedup_lower_bound']}")
        temp = r.get("temporary_server") or {}
        temp_full = f"{temp['full']['wall_s']:.1f} s" if temp.get("full") else "–"
        temp_noop = f"{temp['noop']['wall_s']:.1f} s" if temp.get("noop") else "–"
        rows.append(
            f"| {r.get('shape', 'repeats')} | {r['n_listings']:,} | {r['corpus']['bytes'] / MB:,.0f} MB, "
            f"{r['corpus']['n_files']:,} files, {r['answer']['n_papers']:,} papers "
            f"| {r['floor']['wall_s']:.2f} s | {base} | {r['ours']['wall_s']:.1f} s ({r['ours']['flow_seconds']:.1f} s) "
            f"| {temp_full} | {r['ratios']['vs_floor_wall']}× | {speed}× | {gib(r['ours']['peak_rss_tree_bytes'])} "
            f"| {r['noop']['wall_s']:.1f} s / {temp_noop} | {r['incremental']['wall_s']:.1f} s | {r['machine']['cpu_count']} |"
        )
    return "\n".join(rows)


def detail_table(r: dict) -> str:
    n, nb = r["n_listings"], r["corpus"]["bytes"]
    floor, base, ours = r["floor"], r["baseline"], r["ours"]
    noop, empty, inc = r["noop"], r["empty"], r["incremental"]

    def row(name, wall, rss, note="", cpu=None):
        rt = rates(n, nb, wall)
        return (f"| {name} | {fmt(wall, 2)} | {fmt(cpu, 1)} | {fmt(rt.get('listings_per_s'))} | {fmt(rt.get('mb_per_s'), 1)} "
                f"| {gib(rss)} | {fmt(round(wall / floor['wall_s'], 1) if wall else None)}× | {note} |")

    st = ours["stages"]
    stages = " · ".join(f"{k} {st[k]:.2f}" for k in ("discover", "parse_clean_tasks", "dedupe", "validate", "load",
                                                     "flow_other") if st.get(k) is not None)
    stages += f" (parse tasks: {st['n_parse_tasks']}, Σ {fmt(st['parse_clean_task_sum_s'], 2)} s)"
    if st["summary_stage_seconds"]:
        stages += "; summary stage_seconds: " + ", ".join(f"{k} {v:.2f}" for k, v in st["summary_stage_seconds"].items())
    base_note = "cut off" if base["timed_out"] else ("counts exact" if base["correct"] else "COUNTS WRONG")
    lines = [
        f"**{r.get('shape', 'repeats')} shape, {n:,} listings** ({nb / MB:,.0f} MB in {r['corpus']['n_files']:,} files; "
        f"{r['answer']['n_papers']:,} papers; {_generation(r['corpus']['generation'])})",
        "",
        "| run | wall s | CPU s | listings/s | MB/s | peak RSS | ÷ floor | note |",
        "|---|---:|---:|---:|---:|---:|---:|---|",
        row("floor: DuckDB read_csv line scan", floor["wall_s"], floor["peak_rss_tree_bytes"],
            f"best of {len(floor['all_wall_s'])}; {floor['scan']['lines']:,} lines", floor.get("cpu_s")),
        row("baseline: plain Python", None if base["timed_out"] else base["wall_s"], base["peak_rss_tree_bytes"], base_note,
            base.get("cpu_s")),
        row("ours: digest ingest (running server)", ours["wall_s"], ours["peak_rss_tree_bytes"],
            f"flow {ours['flow_seconds']:.1f} s; {'counts exact' if ours['correct'] else 'COUNTS WRONG'}", ours.get("cpu_s")),
        f"| ours: no new files | {noop['wall_s']:.2f} | {fmt(noop.get('cpu_s'))} | | | {gib(noop['peak_rss_tree_bytes'])} | | flow {noop['flow_seconds']:.2f} s; "
        f"{noop['extra_over_empty_s']:+.2f} s over an empty run |",
        f"| ours: +1 % new files ({inc['corpus']['n_listings']:,} listings) | {inc['wall_s']:.2f} | {fmt(inc.get('cpu_s'))} | | | "
        f"{gib(inc['peak_rss_tree_bytes'])} | | flow {inc['flow_seconds']:.2f} s = {inc['vs_full_flow']:.1%} of the full flow; "
        f"{'counts exact' if inc['correct'] else 'COUNTS WRONG'} |",
        f"| ours: one unchanged file (Prefect fixed cost) | {empty['wall_s']:.2f} | {fmt(empty.get('cpu_s'))} | | | {gib(empty['peak_rss_tree_bytes'])} | | "
        f"flow {empty['flow_seconds']:.2f} s; imports {r['prefect']['python_import_s']:.1f} s; "
        f"~{fmt(r['prefect']['per_task_s'], 3)} s per task |",
        *_temporary_rows(r, row),
        *_budget_rows(r, row),
        "",
        f"Running server: {r['prefect'].get('server', {}).get('source', '–')}; its own peak RSS during the full run "
        f"{gib(ours.get('peak_rss_server_bytes'))} (not in the process tree above).",
        f"Stages of the full run (s): {stages}.",
    ]
    if r.get("lower_bound"):
        lb, wf = r["lower_bound"], r["write_floor"]
        left_5x = lb["left_within_5x_baseline_s"]
        lines.append(
            f"Write floor: DuckDB writes the finished tables ({wf['n_rows']:,} rows, from memory) in {wf['seconds']:.2f} s. "
            f"Lower bound of a `digest ingest` run: Prefect's fixed cost {r['prefect']['fixed_overhead_s']:.2f} s + the "
            f"slower of reading ({floor['scan']['seconds']:.2f} s) and writing ({wf['seconds']:.2f} s) = {lb['wall_s']:.2f} s "
            f"= {lb['vs_floor']}× the floor; left for parsing, cleaning and resolving within 25× the floor: "
            f"{lb['left_within_25x_floor_s']:+.2f} s (8×: {lb['left_within_8x_floor_s']:+.2f} s), within the baseline "
            f"target: {'n/a' if lb['left_within_baseline_target_s'] is None else format(lb['left_within_baseline_target_s'], '+.2f')} s "
            f"(5× faster: {'n/a' if left_5x is None else format(left_5x, '+.2f')} s).")
    if r.get("targets"):
        met = lambda t: "met" if t["met"] else ("n/a" if t["met"] is None else "MISSED")  # noqa: E731
        lines.append("Targets: " + "; ".join(f"{k} {met(t)} ({_value(t['value'])})" for k, t in r["targets"].items()) + ".")
    return "\n".join(lines)


def _temporary_rows(r: dict, row) -> list[str]:
    temp = r.get("temporary_server") or {}
    rows = []
    if temp.get("full"):
        t = temp["full"]
        rows.append(row("ours: digest ingest (temporary server)", t["wall_s"], t["peak_rss_tree_bytes"],
                        f"flow {t['flow_seconds']:.1f} s; {'counts exact' if t['correct'] else 'COUNTS WRONG'}",
                        t.get("cpu_s")))
    for key, name in (("noop", "no new files"), ("empty", "one unchanged file")):
        if temp.get(key):
            t = temp[key]
            rows.append(f"| ours: {name} (temporary server) | {t['wall_s']:.2f} | {fmt(t.get('cpu_s'))} | | | "
                        f"{gib(t['peak_rss_tree_bytes'])} | | flow {t['flow_seconds']:.2f} s |")
    return rows


def _budget_rows(r: dict, row) -> list[str]:
    b = r.get("budget_run")
    if not b:
        return []
    name = f"ours: DIGEST_DUCKDB_MEMORY_LIMIT={b['memory_limit']} (running server)"
    if b.get("failed"):
        return [f"| {name} | {b['wall_s']:.2f} | {fmt(b.get('cpu_s'))} | | | {gib(b['peak_rss_tree_bytes'])} | | "
                f"FAILED ({b['failed']}): {b['error'][:300].replace('|', '/')} |"]
    return [row(name, b["wall_s"], b["peak_rss_tree_bytes"],
                f"flow {b['flow_seconds']:.1f} s; {'counts exact' if b['correct'] else 'COUNTS WRONG'}", b.get("cpu_s"))]


def _generation(g: dict) -> str:
    if not g.get("reused"):
        return f"generated in {g['wall_s']:.1f} s"
    first = g.get("first_generation_wall_s")
    return "corpus reused" + (f", generated in {first:.1f} s" if first else "")


def _value(v) -> str:
    if isinstance(v, bool) or v is None:
        return str(v)
    if isinstance(v, int) and v > 10_000_000:
        return gib(v)
    return f"{v}"


def log(message: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {message}", file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------- entry point
def checkout_cli(code: Path) -> list[str]:
    """The CLI of another checkout. Not `PYTHONPATH=DIR python -m flows.cli`: the runs start in
    this repo's folder, which `-m` puts before PYTHONPATH, so that ran this checkout's code (the
    session 33 "side by side" timed this code twice)."""
    folder = str(code.resolve())
    return [sys.executable, "-c", f"import sys; sys.path.insert(0, {folder!r}); sys.argv[0] = 'digest'; "
                                  "from flows.cli import app; app()"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.run", description=__doc__.split("\n\n")[0])
    ap.add_argument("--listings", type=int, action="append", help="corpus size (repeatable); default 100000")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where bench-<n>.json go")
    ap.add_argument("--work", type=Path, default=DEFAULT_WORK, help="corpora and warehouses (default /tmp/digest-bench)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--baseline-timeout", type=float, default=900.0, help="seconds before the baseline is cut off")
    ap.add_argument("--timeout", type=float, default=3600.0, help="seconds before any other step is cut off")
    ap.add_argument("--floor-repeats", type=int, default=FLOOR_REPEATS, help="floor runs (the best counts)")
    ap.add_argument("--keep", action="store_true", help="keep the warehouses of the runs")
    ap.add_argument("--clean", action="store_true", help="delete the corpora when done")
    ap.add_argument("--digest", default=None,
                    help="command that runs the CLI (default: the digest script beside this Python)")
    ap.add_argument("--code", type=Path, default=None,
                    help="run the CLI of another checkout (e.g. `git worktree add DIR REV`), its folder first on the path")
    ap.add_argument("--report", type=Path, default=None, help="only print the tables of saved results in this folder")
    ap.add_argument("--shapes", default="repeats",
                    help="corpus shapes, comma-separated: repeats (~1/3 distinct papers), distinct (~80 %%)")
    ap.add_argument("--temporary", choices=("full", "fixed", "none"), default="full",
                    help="runs with Prefect's temporary server too: full run, no-op and one-file run (full); "
                         "the no-op and one-file run only (fixed); none")
    ap.add_argument("--budget", default=None, metavar="SIZE",
                    help="one more full run with DIGEST_DUCKDB_MEMORY_LIMIT=SIZE (e.g. 2GB)")
    ap.add_argument("--bytecode", choices=("cached", "none"), default="cached",
                    help="cached: children keep .pyc files under <work>/pycache, as an installed tool does "
                         "(default); none: as the environment says (PYTHONDONTWRITEBYTECODE)")
    ap.add_argument("--budget-shapes", default="distinct", help="shapes that get the --budget run (comma-separated)")
    args = ap.parse_args(argv)
    shapes = [x.strip() for x in args.shapes.split(",") if x.strip()]
    args.budget_shapes = [x.strip() for x in args.budget_shapes.split(",") if x.strip()]
    unknown = set(shapes) - set(SHAPES)
    if unknown or not shapes:
        ap.error(f"unknown shapes {sorted(unknown)}; known: {', '.join(SHAPES)}")

    if args.report:
        saved = sorted((json.loads(p.read_text(encoding="utf-8")) for p in args.report.glob("bench-*.json")),
                       key=lambda r: (SHAPES.index(r.get("shape", "repeats")), r["n_listings"]))
        print_tables(saved)
        return 0

    global BYTECODE_CACHE
    BYTECODE_CACHE = Path(args.work) / "pycache" if args.bytecode == "cached" else None
    results: dict[tuple[int, str], dict] = {}
    servers = None
    try:
        log("Prefect server")
        servers = start_servers(Path(args.work))
        warm_up(servers, args.timeout)
        for shape in shapes:
            for n in sorted(set(args.listings or [100_000])):
                results[(n, shape)] = bench_size(n, args, servers, shape)
    except RuntimeError as err:  # a step failed (no real data, a crashed run): say which, no trace
        print(f"error: {err}", file=sys.stderr)
        return 2
    finally:
        if servers is not None:
            servers.stop()
    add_scaling(results, args.out)
    args.out.mkdir(parents=True, exist_ok=True)
    for (n, shape), r in results.items():
        r["targets"] = targets(r)
        (args.out / result_name(n, shape)).write_text(json.dumps(r, indent=2, ensure_ascii=False) + "\n",
                                                      encoding="utf-8")
    print_tables(list(results.values()))
    exact = all(r["ours"]["correct"] and r["incremental"]["correct"] and r["baseline"]["correct"] is not False
                for r in results.values())
    if not exact:
        print("error: a pipeline's counts differ from the known answer (see the JSON)", file=sys.stderr)
    return 0 if exact else 1


def print_tables(results: list[dict]) -> None:
    print(summary_table(results))
    for r in results:
        print()
        print(detail_table(r))


if __name__ == "__main__":
    sys.exit(main())
