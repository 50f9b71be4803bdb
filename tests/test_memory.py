"""Memory follows the batch, not the corpus: nothing of a staged batch stays behind."""

from __future__ import annotations

import hashlib
from pathlib import Path

import polars as pl
import psutil
import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import SAMPLES

MB = 1024 * 1024


def _in_a_child(script: str) -> str:
    """`script` run by a Python process of its own, from the repo (a peak measured there is the
    script's alone); its stdout."""
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).resolve().parents[1]).stdout


def test_staged_batches_are_released(run_ingest, tmp_path, monkeypatch):
    """Prefect keeps every task's return value until the flow ends: the flow empties each parsed
    batch once it is staged (bug: at 1M listings +550 MB of batches were still held at the merge)."""
    from flows import load
    from transforms.pipeline import BatchResult

    held = {}
    merge, init = load.RunLoader.merge, BatchResult.__init__
    made = []  # every batch the parse tasks return, held here whatever Prefect keeps

    def recording_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        made.append(self)

    def counting_merge(self, ingested_at):
        held.update(n=len(made), rows=sum(b.listings.height + b.papers.height + b.files.height for b in made))
        return merge(self, ingested_at)

    monkeypatch.setattr(BatchResult, "__init__", recording_init)
    monkeypatch.setattr(load.RunLoader, "merge", counting_merge)
    monkeypatch.setenv("DIGEST_BATCH_BYTES", "8192")  # the seeds in several batches
    summary = run_ingest([SAMPLES], tmp_path / "w.duckdb")
    assert summary["n_listings"] == 55
    assert held["n"] >= 2
    assert held["rows"] == 0


def test_staging_in_the_open_transaction_keeps_no_copy(tmp_path):
    """Staging runs inside the load's one transaction. `register` there kept every batch's Arrow
    data until commit (RSS grew by all that was staged); `write_frame` lets DuckDB spill it."""
    from flows.load import connect, write_frame

    con = connect(tmp_path / "w.duckdb")
    con.execute("SET memory_limit = '64MB'")
    con.execute("BEGIN TRANSACTION")
    frame = pl.DataFrame({"text": [hashlib.sha256(str(i).encode()).hexdigest() * 16 for i in range(20_000)]})
    batch_bytes, n_batches = frame.estimated_size(), 12  # ~20 MB a batch
    write_frame(con, "CREATE TEMP TABLE staged AS SELECT * FROM frame", frame)
    before = psutil.Process().memory_info().rss
    for _ in range(n_batches):
        write_frame(con, "INSERT INTO staged SELECT * FROM frame", frame)
    growth = psutil.Process().memory_info().rss - before
    assert con.execute("SELECT count(*) FROM staged").fetchall()[0][0] == 20_000 * (n_batches + 1)
    assert growth < 0.5 * n_batches * batch_bytes, f"RSS grew {growth / MB:.0f} MB for {n_batches * batch_bytes / MB:.0f} MB staged"
    con.execute("ROLLBACK")


def test_a_column_kept_from_a_read_frees_the_rest_of_its_read():
    """The resolver keeps the key columns of each chunk of pairs it reads. Taken from Arrow in
    place, a number column kept its whole batch alive, the chunk's abstracts too: RSS grew by every
    chunk read (one template abstract under 16k titles peaked at 4.45 GiB; 2.69 GiB copied)."""
    import duckdb

    from flows.sql import read_frame

    con = duckdb.connect()
    con.execute("CREATE TABLE pairs AS SELECT i AS paper_key, [i, 1] AS keys, {'k': i} AS pair, i % 2 = 0 AS flag, "
                "repeat('an abstract ', 800) || i AS abstract FROM range(40_000) r(i)")
    kept, chunk_bytes = [], 0
    before = psutil.Process().memory_info().rss
    for start in range(0, 40_000, 1_000):
        chunk = read_frame(con, f"SELECT * FROM pairs WHERE paper_key >= {start} AND paper_key < {start + 1_000}")
        chunk_bytes += chunk.estimated_size()
        kept.append(chunk.drop("abstract"))
    growth = psutil.Process().memory_info().rss - before
    assert sum(k.height for k in kept) == 40_000 and kept[3]["pair"][0] == {"k": 3_000}
    assert growth < 0.5 * chunk_bytes, f"RSS grew {growth / MB:.0f} MB for {chunk_bytes / MB:.0f} MB read"


def test_a_memory_budget_too_small_names_the_setting_and_a_size(prefect_harness, tmp_path, monkeypatch):
    """The default budget follows the machine; a budget set too small fails with one line that
    names the setting and a size to try, and publishes nothing (bug: DuckDB's own message only)."""
    import duckdb
    from typer.testing import CliRunner

    from flows import settings as settings_module
    from flows.cli import app
    from flows.settings import Settings

    budgets = {}
    for gib in (4, 64):  # the default follows the machine, not one corpus
        monkeypatch.setattr(settings_module, "physical_memory", lambda gib=gib: gib << 30)
        budgets[gib] = Settings().duckdb_memory_limit
        duckdb.connect().execute("SET memory_limit = ?", [budgets[gib]])  # a size DuckDB reads
    assert budgets[4] != budgets[64] and "600MB" not in budgets.values()
    monkeypatch.undo()
    monkeypatch.setenv("DIGEST_DUCKDB_MEMORY_LIMIT", "1MB")
    monkeypatch.setenv("PREFECT_LOGGING_LEVEL", "WARNING")
    warehouse = tmp_path / "w.duckdb"
    result = CliRunner().invoke(app, ["ingest", str(SAMPLES), "--warehouse", str(warehouse)])
    assert result.exit_code == 1
    (line,) = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert "DIGEST_DUCKDB_MEMORY_LIMIT=1MB" in line and "e.g. 2MB" in line


def test_a_failed_statement_says_which_one_and_the_budget_message_keeps_it(tmp_path, monkeypatch):
    """A 10M-listing load failed for memory after 20 minutes saying only "out of memory": the
    error now names the merge step, the SQL file and the statement, and the budget message keeps
    them."""
    import duckdb
    import pytest

    from flows import ingest
    from flows.load import connect
    from flows.sql import run_sql_file

    con = connect(tmp_path / "w.duckdb")  # no warehouse schema: the script's first statement fails
    with pytest.raises(duckdb.Error) as failed:
        run_sql_file(con, "merge/20_papers.sql", {"run_id": "r", "ingested_at": None})
    (note,) = failed.value.__notes__
    assert note.startswith("in schemas/merge/20_papers.sql, statement 1: INSERT INTO fact_listing BY NAME")
    err = duckdb.OutOfMemoryException("Out of Memory Error: failed to pin block of size 256.0 KiB")
    err.add_note("in schemas/merge/20_papers.sql, statement 9: INSERT INTO dim_paper")
    err.add_note("in the merge's merge_papers step")
    message = ingest._out_of_memory_message(err, "2GB")
    assert "DIGEST_DUCKDB_MEMORY_LIMIT=2GB" in message and "e.g. 4GB" in message
    assert message.endswith("statement 9: INSERT INTO dim_paper; in the merge's merge_papers step)")


def test_the_default_budget_grows_with_the_run_within_a_third_of_the_machine(monkeypatch):
    """A 10M-listing load (15.5 GB) failed for memory at the machine's default budget (a twelfth
    of 24 GiB) after 20 minutes: unless DIGEST_DUCKDB_MEMORY_LIMIT is set, a large run's budget is
    a share of its input, never more than a third of the machine; a 1M run's stays the default."""
    import duckdb

    from flows import settings as settings_module
    from flows.settings import Settings, default_memory_limit, run_memory_limit

    monkeypatch.setattr(settings_module, "physical_memory", lambda: 24 << 30)
    monkeypatch.delenv("DIGEST_DUCKDB_MEMORY_LIMIT", raising=False)
    settings = Settings(_env_file=None)
    mib = lambda size: int(size.removesuffix("MiB"))  # noqa: E731
    assert run_memory_limit(settings, 1_550_000_000) == default_memory_limit() == "2048MiB"
    assert mib(run_memory_limit(settings, 15_500_000_000)) == int(15_500_000_000 * 0.4) >> 20  # ~5.8 GiB
    assert run_memory_limit(settings, 10**12) == "8192MiB"  # a third of the machine
    for size in ("2048MiB", "8192MiB"):
        duckdb.connect().execute("SET memory_limit = ?", [size])  # sizes DuckDB reads
    monkeypatch.setenv("DIGEST_DUCKDB_MEMORY_LIMIT", "1GB")
    assert run_memory_limit(Settings(_env_file=None), 10**12) == "1GB"  # the setting wins


def test_id_keys_are_matched_by_a_join_not_a_statement_that_grows_with_the_run(tmp_path):
    """The resolver looked up which id keys stored papers hold with every new paper's id key
    spelled out in one `IN (...)` list: at 800k new papers (distinct shape, 1M listings) DuckDB's
    parser took 2.2 GB outside the memory limit (peak RSS 2.6 -> 4.8 GB under a 2 GB budget) and
    14 s. Every statement it sends is now small whatever the run's size, with the same answer."""
    from flows import resolve
    from flows.sql import connect

    con = connect(tmp_path / "w.duckdb")
    con.execute("CREATE TABLE paper_key_map (paper_key BIGINT, paper_id BIGINT)")
    con.execute("CREATE TEMP TABLE stg AS SELECT i::BIGINT AS paper_key, 'abstract number ' || i AS abstract, "
                "['author ' || i] AS author_keys FROM range(3000) t(i)")
    con.execute("CREATE TEMP VIEW new_papers AS SELECT * FROM stg")
    con.execute("CREATE TEMP TABLE stg_listings AS SELECT paper_key, DATE '2026-10-26' AS listed_on FROM stg")
    id_of = dict(con.execute("SELECT paper_key, stable_id(concat_ws(chr(31), lower(abstract), "
                             "list_last(string_split(author_keys[1], ' ')))) FROM stg").fetchall())
    stored = {id_of[k] for k in (5, 77, 2999)}
    con.executemany("INSERT INTO paper_key_map VALUES (?, ?)", [(-i, p) for i, p in enumerate(stored, 1)])

    sent = []

    class Recording:
        def execute(self, sql, *args):
            sent.append(sql)
            return con.execute(sql, *args)

        def sql(self, sql, *args):
            sent.append(sql)
            return con.sql(sql, *args)

    id_keys, taken = resolve._id_keys(Recording())
    assert dict(id_keys.select("paper_key", "id_key").iter_rows()) == id_of and set(taken) == stored
    assert max(len(sql) for sql in sent) < 2000, "a statement grows with the number of new papers"


def test_the_common_names_are_decided_beside_half_of_duckdbs_budget(run_ingest, tmp_path, monkeypatch):
    """The common names' frames are held in Python: DuckDB gives back half its budget while their
    groups are decided and gets the whole budget back after (bug: the frames sat on top of a full
    budget, the 1M distinct load peaked at 3.6 GiB with a 2 GiB budget). Frames larger than a
    sixteenth of the budget are forced here by a huge cost per mention."""
    from flows import load, persons

    limits = []
    write_group = persons._write_group

    def watched(con, *args, **kwargs):
        limits.append(con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0])
        return write_group(con, *args, **kwargs)

    monkeypatch.setattr(persons, "_write_group", watched)
    monkeypatch.setattr(persons, "BYTES_PER_MENTION", 10**9)
    merge_authors = load.RunLoader._merge_authors
    monkeypatch.setattr(load.RunLoader, "_merge_authors", lambda self, params: (
        limits.append(self.con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0]),
        merge_authors(self, params)))
    monkeypatch.setenv("DIGEST_DUCKDB_MEMORY_LIMIT", "800MiB")
    summary = run_ingest([SAMPLES], tmp_path / "w.duckdb")
    assert summary["n_authors"] > 0
    assert limits == ["400.0 MiB", "800.0 MiB"]


def test_small_frames_keep_duckdbs_whole_budget(tmp_path):
    """Cutting the budget makes DuckDB spill what it holds (2.7 s at 1M listings): frames no larger
    than a sixteenth of the budget leave it whole, and without a budget nothing is cut."""
    from flows import load, persons

    con = load.connect(tmp_path / "w.duckdb")
    con.execute("SET memory_limit = '800MiB'")

    def limit_within(budget, n_bytes):
        with persons.beside_python(con, budget, n_bytes):
            return con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0]

    sixteenth = 800 * 2**20 // 16
    assert limit_within("800MiB", sixteenth) == "800.0 MiB"
    assert limit_within("800MiB", sixteenth + 1) == "400.0 MiB"
    assert limit_within(None, 10**12) == "800.0 MiB"
    assert con.execute("SELECT current_setting('memory_limit')").fetchall()[0][0] == "800.0 MiB"


def test_a_spill_folder_at_its_cap_fails_the_run_with_its_own_error(tmp_path):
    """Cutting DuckDB's budget for the person step makes it spill; with the spill folder at its
    cap (90 % of the disk's free space by default) that SET fails and aborts the transaction.
    Bug: the loader caught it and ran the step, and a 10M-listing run failed with "Current
    transaction is aborted" only. Now the SET's own error ends the run, read as a full disk."""
    import duckdb
    import pytest

    from flows import ingest, load, persons

    con = load.connect(tmp_path / "w.duckdb")
    con.execute("SET temp_directory = ?", [str(tmp_path / "spill")])
    con.execute("SET max_temp_directory_size = '1MB'")
    loader = load.RunLoader(con, "run", memory_limit="200MB")
    loader.begin()
    con.execute("CREATE TEMP TABLE held AS SELECT range AS i, md5(range::VARCHAR) || md5((range + 1)::VARCHAR) AS s "
                "FROM range(1500000)")  # ~117 MB in memory: half the budget cannot hold it
    with pytest.raises(duckdb.OutOfMemoryException, match="max_temp_directory_size") as failed:
        with persons.beside_python(con, "200MB", n_bytes=10**12):
            con.execute("SELECT count(*) FROM held")
    message = ingest._failure_message(failed.value, tmp_path / "w.duckdb", [], "2GB")
    assert message.startswith("No space left on device") and "max_temp_directory_size" in message
    assert "DIGEST_DUCKDB_MEMORY_LIMIT" not in message
    loader.rollback()


def test_a_step_that_aborts_the_transaction_fails_the_run_with_its_own_error(run_ingest, tmp_path, monkeypatch):
    """Every statement after a failed one answers "Current transaction is aborted"; the budget's
    restore after the common names' groups is one (the cut forced by a huge cost per mention). The
    run reports (and records) the step's own error."""
    import pytest

    from flows import persons

    def broken_step(con, *args, **kwargs):
        con.execute("SELECT error('the person step broke here')")

    monkeypatch.setattr(persons, "_write_group", broken_step)
    monkeypatch.setattr(persons, "BYTES_PER_MENTION", 10**9)
    warehouse = tmp_path / "w.duckdb"
    with pytest.raises(Exception, match="the person step broke here") as failed:
        run_ingest([SAMPLES], warehouse)
    assert "aborted" not in str(failed.value)
    import duckdb

    with duckdb.connect(str(warehouse), read_only=True) as con:
        assert con.execute("SELECT status, message FROM ingest_run").fetchall() == [
            ("failed", "Invalid Input Error: the person step broke here")]


def test_threads_and_term_batches_follow_the_cpus_this_process_may_use(monkeypatch):
    """Worker threads are the CPUs of the process's affinity (two at least: one computes while
    the connection reads and writes), and the papers extracted at once stay the same however many
    threads share them, so memory does not grow with the core count."""
    import os

    from flows import sql, terms

    for cpus, threads in [(1, 2), (2, 2), (8, 8), (64, 64)]:
        monkeypatch.setattr(os, "sched_getaffinity", lambda pid, n=cpus: set(range(n)), raising=False)
        assert sql.compute_threads() == threads
        assert terms.batch_papers(threads) * threads <= terms.PAPERS_IN_FLIGHT
    assert terms.batch_papers(2) == 50_000  # what the 2-core machine measured


def test_parse_tasks_in_flight_follow_the_cpus_unless_set(monkeypatch):
    """One parse task per usable CPU and two more (a task holds the GIL while it reads and
    decodes; the flow's thread stages): 4 on the 2-core machine it was measured on. The setting
    still wins."""
    import os

    from flows.settings import Settings

    for cpus, in_flight in [(1, 4), (2, 4), (8, 10)]:
        monkeypatch.setattr(os, "sched_getaffinity", lambda pid, n=cpus: set(range(n)), raising=False)
        assert Settings().max_batches_in_flight == in_flight
    monkeypatch.setenv("DIGEST_MAX_BATCHES_IN_FLIGHT", "1")
    assert Settings().max_batches_in_flight == 1


def test_a_large_file_is_parsed_alone_and_counts_as_its_batch_sizes(monkeypatch):
    """Parsing holds memory in proportion to its input. Bug: a batch counted as one whatever its
    size, so four 116 MB listing files were parsed at once and a 1M-listing load of such files
    peaked at 6.0 GB (2.98 GB as files of ~100 KB). Now a batch counts as the batch sizes it
    holds: at most `in_flight` of them are parsed or waiting, and a file larger than all of them
    is parsed alone."""
    from types import SimpleNamespace

    import flows.ingest as ingest
    from flows.extract import FoundFile, ReadLimits

    size = 1000
    in_flight, now, peak, alone = 4, [0], [0], []

    class Parse:  # parse_batch: a task whose result is taken when the flow stages it
        @staticmethod
        def submit(batch, limits):
            batch = batch.files
            slots = ingest.batch_slots(batch, size)
            if slots > in_flight:
                alone.append(now[0] == 0)
            now[0] += slots
            peak[0] = max(peak[0], now[0])

            def result():
                now[0] -= slots
                return SimpleNamespace(files=SimpleNamespace(height=len(batch)), timings={}, release=lambda: None,
                                       read_by=None)
            return SimpleNamespace(result=result)

    monkeypatch.setattr(ingest, "parse_batch", Parse)
    monkeypatch.setattr(ingest, "create_progress_artifact", lambda **kw: None)
    monkeypatch.setattr(ingest, "update_progress_artifact", lambda *a, **kw: None)
    staged = []
    loader = SimpleNamespace(stage=staged.append)

    def files(*sizes):
        return [FoundFile(f"/f{i}", f"f{i}", n, 0) for i, n in enumerate(sizes)]

    batches = [files(1200), files(600, 500), files(7000), files(1100), files(2500), files(900), files(1000)]
    assert [ingest.batch_slots(b, size) for b in batches] == [1, 1, 7, 1, 2, 1, 1]
    ingest._stage_batches(lambda: loader, batches, in_flight, ReadLimits(), {}, size)
    assert len(staged) == len(batches)
    assert alone == [True]  # the 7-size file waited for the others and had the parse to itself
    assert peak[0] == 7  # ... and otherwise never more than 4 sizes at once:
    batches.remove(batches[2])
    peak[0] = 0
    ingest._stage_batches(lambda: loader, batches, in_flight, ReadLimits(), {}, size)
    assert peak[0] == in_flight


def test_parse_tasks_in_flight_are_bounded_by_memory_too(monkeypatch):
    """Many cores and little memory, or larger batches: no more batch sizes are parsed at once
    than a share of memory the size of DuckDB's default budget holds (PARSE_BYTES_PER_INPUT_BYTE
    per byte of the run's batch size), not one per core (64 cores, 8 GiB: 3, not 66). The bound
    was first put on the default count with the default batch size: DIGEST_BATCH_BYTES=64MiB
    still parsed 4 at once here."""
    from flows import settings

    mib = 1 << 20
    for memory, batch, in_flight, slots in [(8 << 30, 16 * mib, 66, 3), (2 << 30, 16 * mib, 66, 2),
                                            (24 << 30, 16 * mib, 4, 4), (24 << 30, 64 * mib, 4, 2),
                                            (24 << 30, 1 << 30, 4, 1), (512 << 30, 16 * mib, 66, 66)]:
        monkeypatch.setattr(settings, "physical_memory", lambda m=memory: m)
        assert settings.parse_slots(in_flight, batch) == slots, (memory, batch)


def test_packed_files_are_batched_and_weighed_by_their_text(tmp_path):
    """A .gz counted at its size on disk (a third of its text) was batched and weighed as if it
    held a third of it; `extract.sized` reads a .gz's own size, a .zip's member sizes, and takes a
    .bz2 at BZ2_TEXT_RATIO; a plain file, a corrupt archive or a skipped one stays at its size."""
    import bz2
    import gzip
    import zipfile

    from flows import extract
    from flows.ingest import batch_slots

    text = (sorted(SAMPLES.glob("*.txt"))[0].read_bytes() + b"\n") * 40
    (tmp_path / "a.txt.gz").write_bytes(gzip.compress(text))
    (tmp_path / "b.txt.bz2").write_bytes(bz2.compress(text))
    with zipfile.ZipFile(tmp_path / "c.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("x.txt", text)
        archive.writestr("y.txt", text[:1000])
    (tmp_path / "d.txt").write_bytes(text)
    (tmp_path / "e.zip").write_bytes(b"not a zip archive")
    (tmp_path / "f.tgz").write_bytes(gzip.compress(text))  # its gzip size field: the tar's size
    with zipfile.ZipFile(tmp_path / "g.zip", "w") as archive:  # a zip of .gz files: their text, not their bytes
        archive.writestr("x.txt.gz", gzip.compress(text))
    (tmp_path / "h.txt.xz").write_bytes(b"x" * 100)
    _, found = extract.discover([tmp_path])
    sizes = {f.path.rsplit("/", 1)[-1]: (f.size_bytes, f.text_bytes) for f in extract.sized(found)}
    assert sizes["a.txt.gz"][1] == len(text) > 2 * sizes["a.txt.gz"][0]
    assert sizes["b.txt.bz2"][1] == extract.BZ2_TEXT_RATIO * sizes["b.txt.bz2"][0]
    assert sizes["c.zip"][1] == len(text) + 1000
    assert sizes["d.txt"] == (len(text), len(text))
    assert sizes["e.zip"] == (17, 17)  # corrupt: reading it says so
    assert sizes["f.tgz"][1] == len(text) and sizes["h.txt.xz"][1] == extract.BZ2_TEXT_RATIO * 100
    assert sizes["g.zip"][1] == extract.BZ2_TEXT_RATIO * len(gzip.compress(text))
    gz = next(f for f in extract.sized(found) if f.path.endswith("a.txt.gz"))
    assert batch_slots([gz], len(text) // 3) == 3 and extract.plan_batches([gz, gz], len(text)) == [[gz], [gz]]


def test_the_largest_file_read_by_default_is_one_whose_parse_fits_in_half_of_memory(monkeypatch):
    """max_file_bytes was a sixteenth of memory, set without a measure of what parsing holds. Now
    the largest file read is one whose parse fits in half of memory (PARSE_BYTES_PER_INPUT_BYTE
    times its size), between 256 MiB and 2 GiB; a larger one is skipped with a reason that names
    the setting and what to do."""
    from flows import extract, settings

    for memory, limit in [(24 << 30, 1024 << 20), (4 << 30, 256 << 20), (256 << 30, 2 << 30)]:
        monkeypatch.setattr(settings, "physical_memory", lambda m=memory: m)
        assert abs(settings.Settings().max_file_bytes - limit) < 1 << 20
        assert settings.Settings().max_file_bytes * settings.PARSE_BYTES_PER_INPUT_BYTE <= max(memory // 2, 4 << 30)
    reason = extract._too_large(extract.ReadLimits(max_file_bytes=1000))
    assert "DIGEST_MAX_FILE_BYTES" in reason and "split the file" in reason


# What `process_batch` held at its peak, each file alone in a fresh process (`python -m
# bench.big_files shapes`, then `... memory`; hunt 45's corpora for ordinary digests): (shape,
# bytes a line, peak bytes of memory a line), the larger of its runs at 1M and 4M lines (3-117 MB
# for ordinary digests).
PARSE_PEAKS = [
    ("line ends alone, then a record", 1.0, 201),
    ("CRLF line ends alone, then a record", 2.0, 205),
    ("one letter a line (no format)", 2.0, 345),
    ("a record, then one-letter lines", 2.0, 520),
    ("a search page's block, then one-letter lines", 1.5, 528),
    ("records of one-word fields", 8.6, 419),
    ("search blocks of one-word fields", 3.6, 526),
    ("record headers alone, each quarantined", 16.0, 798),
    ("ordinary listing files, 29-117 MB", 306, 7.6 * 306),
    ("ordinary listing files, 3.7 MB", 306, 10.2 * 306),
    ("ordinary search pages, 13-52 MB", 252, 8.6 * 252),
    ("ordinary search pages, 1.7-3.3 MB", 252, 10.3 * 252),
]


def test_the_parse_estimate_covers_what_each_shape_of_file_held():
    """Hunt 45: the memory guards charged a file PARSE_BYTES_PER_INPUT_BYTE (12) per byte, but
    what parsing holds grows with lines: a file of line ends held ~155-200 bytes a byte (a 32 MB
    one peaked at 5.1 GB). The estimate charges bytes and lines, and covers every measured shape;
    an ordinary digest is still charged no more than the 12 a byte batches are planned by."""
    from flows.settings import PARSE_BYTES_PER_INPUT_BYTE, parse_cost

    for shape, bytes_a_line, peak_a_line in PARSE_PEAKS:
        per_line = parse_cost(bytes_a_line, 1)
        assert per_line >= 1.04 * peak_a_line, shape
        if bytes_a_line < 20:
            assert per_line >= 1.15 * peak_a_line, shape  # the hostile shapes with a margin
            assert PARSE_BYTES_PER_INPUT_BYTE * bytes_a_line < peak_a_line / 3, shape  # what the size said
        else:
            assert per_line <= PARSE_BYTES_PER_INPUT_BYTE * bytes_a_line, shape


def test_a_file_of_line_ends_holds_no_more_than_its_estimate():
    """The hunt's shape measured here, in a child process of its own: 1.5M line ends before one
    record held ~280 MB, 12 a byte allowed 18 MB; the estimate by its lines allows more than it held."""
    script = (
        "import threading, time, psutil\n"
        "from pathlib import Path\n"
        "from transforms.pipeline import SourceFile, process_batch\n"
        "seed = sorted(Path('data/samples').glob('*.txt'))[0].read_bytes()\n"
        "process_batch([SourceFile(0, 'warm-up.txt', seed)])\n"
        "data = b'\\n' * 1_500_000 + b'\\n'.join(seed.split(b'\\n')[:5]) + b'\\n'\n"
        "proc, peak = psutil.Process(), [0]\n"
        "def sample():\n"
        "    while True:\n"
        "        peak[0] = max(peak[0], proc.memory_info().rss)\n"
        "        time.sleep(0.002)\n"
        "before = peak[0] = proc.memory_info().rss\n"
        "threading.Thread(target=sample, daemon=True).start()\n"
        "result = process_batch([SourceFile(1, 'blank.txt', data)])\n"
        "time.sleep(0.01)\n"
        "assert result.listings['line_start'].to_list() == [1_500_001]\n"
        "print(len(data), result.files['n_lines'][0], peak[0] - before)\n")
    out = _in_a_child(script)
    from flows.settings import PARSE_BYTES_PER_INPUT_BYTE, parse_cost

    n_bytes, n_lines, grew = map(int, out.split())
    assert grew > 5 * PARSE_BYTES_PER_INPUT_BYTE * n_bytes, f"+{grew / MB:.0f} MB"
    assert parse_cost(n_bytes, n_lines) > 1.5 * grew, f"+{grew / MB:.0f} MB for {n_lines:,} lines"


def _lines_then_record(n_lines: int, line: bytes = b"\n") -> bytes:
    record = b"\n".join(sorted(SAMPLES.glob("*.txt"))[0].read_bytes().split(b"\n")[:5]) + b"\n"
    return line * n_lines + record


def test_a_file_heavier_by_its_lines_than_max_file_bytes_is_skipped_naming_the_setting(run_ingest, tmp_path, monkeypatch):
    """A file of 300,000 line ends and one record is 0.3 MB, well under max_file_bytes (2 MB here),
    and was parsed whatever its lines: the guard let in a file of a few hundred MB of them, which
    ran out of memory before any limit applied. It weighs as much as a 20 MB digest now: skipped
    with the reason and the setting to raise, beside the digests that load; with the limit raised,
    the next run reads it (a skipped file keeps no fingerprint)."""
    import duckdb

    folder = tmp_path / "digests"
    folder.mkdir()
    seeds = sorted(SAMPLES.glob("*.txt"))[:2]
    for seed in seeds:
        (folder / seed.name).write_bytes(seed.read_bytes())
    (folder / "blank.txt").write_bytes(_lines_then_record(300_000))
    warehouse = tmp_path / "w.duckdb"
    monkeypatch.setenv("DIGEST_MAX_FILE_BYTES", "2000000")
    summary = run_ingest([folder], warehouse)
    assert "1 file could not be read: digests/blank.txt (cannot be read: its 300,005 lines need as much memory" \
        in summary["warning"], summary["warning"]
    with duckdb.connect(str(warehouse), read_only=True) as con:
        (reason,), = con.execute("SELECT reason FROM skipped_file WHERE path = 'digests/blank.txt'").fetchall()
        files = {p for (p,) in con.execute("SELECT path FROM dim_source_file").fetchall()}
    assert "DIGEST_MAX_FILE_BYTES" in reason and "split the file, or raise the limit" in reason
    assert files == {f"digests/{seed.name}" for seed in seeds}
    monkeypatch.setenv("DIGEST_MAX_FILE_BYTES", "50000000")
    summary = run_ingest([folder], warehouse)
    assert summary["n_files_new"] == 1 and not summary["warning"], summary
    with duckdb.connect(str(warehouse), read_only=True) as con:
        starts = con.execute("SELECT line_start FROM fact_listing JOIN dim_source_file USING (source_file_id) "
                             "WHERE path = 'digests/blank.txt'").fetchall()
    assert starts == [(300_001,)]


@pytest.mark.parametrize("one_batch", [False, True])
def test_files_heavy_by_their_lines_are_parsed_one_at_a_time(run_ingest, tmp_path, monkeypatch, one_batch):
    """Batches are planned by size before a file is read: four files of 400,000 line ends (0.4 MB
    each, ~300 MB by their lines) were parsed at once, as four batches in flight or as one batch
    of four (four 8 MB files of line ends made one batch and peaked at 3.9 GB). Where memory holds
    one of them (a 512 MiB share, this machine's at 4 GiB) they are parsed one at a time now,
    and every record loads."""
    import threading
    import time

    import duckdb

    from flows import settings
    from transforms import pipeline

    folder = tmp_path / "digests"
    folder.mkdir()
    data = _lines_then_record(400_000)
    for i in range(4):
        (folder / f"blank{i}.txt").write_bytes(b"\n" * i + data)  # not copies of one another
    monkeypatch.setattr(settings, "physical_memory", lambda: 4 << 30)
    assert settings.parse_memory_budget() < 2 * settings.parse_cost(len(data), 400_000)
    if not one_batch:
        monkeypatch.setenv("DIGEST_BATCH_BYTES", str(len(data)))  # a file a batch, each one batch size
        assert settings.parse_slots(4, len(data)) == 4
    monkeypatch.setenv("DIGEST_MAX_BATCHES_IN_FLIGHT", "4")
    lock, now, most, files_at_once = threading.Lock(), [0], [0], []

    def counted(parse):
        def run(files, *args, **kwargs):
            with lock:
                now[0] += 1
                most[0] = max(most[0], now[0])
                files_at_once.append(len(files))
            time.sleep(0.3)  # long enough for the others to start
            try:
                return parse(files, *args, **kwargs)
            finally:
                with lock:
                    now[0] -= 1
        return run

    for name in ("process_batch", "process_decoded"):  # what a parse task calls, before and after
        if hasattr(pipeline, name):
            monkeypatch.setattr(pipeline, name, counted(getattr(pipeline, name)))
    summary = run_ingest([folder], tmp_path / "w.duckdb")
    assert summary["n_listings"] == 4, summary
    assert most[0] == 1 and files_at_once == [1, 1, 1, 1]
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        starts = con.execute("SELECT line_start FROM fact_listing ORDER BY 1").fetchall()
    assert starts == [(400_001 + i,) for i in range(4)]


def test_a_batch_parsed_in_groups_gives_what_it_gives_parsed_whole(monkeypatch):
    """A batch heavier than the room is parsed a group at a time (`parse_within_memory`): the
    listings, quarantined spans, files and papers are those of the whole batch parsed at once."""
    from flows import parse_memory, settings
    from transforms.pipeline import SourceFile, process_batch

    monkeypatch.setattr(settings, "physical_memory", lambda: 4 << 30)
    seeds = [p.read_bytes() for p in sorted(SAMPLES.glob("*.txt"))]
    datas = [seeds[0], _lines_then_record(400_000), seeds[3], _lines_then_record(350_000, b"x\n"), seeds[1] + seeds[4]]
    sources = [SourceFile(i + 1, f"f{i}.txt", data) for i, data in enumerate(datas)]
    sizes = []

    class Recorded(parse_memory.Room):
        def _take(self, need):
            sizes.append(need)
            super()._take(need)

    grouped = parse_memory.parse_within_memory(sources, 1 << 30, Recorded())
    whole = process_batch(sources)
    assert len([n for n in sizes if n]) >= 2 and max(sizes) <= settings.parse_memory_budget()
    for name, key in [("files", ["source_file_id"]), ("listings", ["source_file_id", "position"]),
                      ("quarantine", ["source_file_id", "line_start"]), ("papers", ["paper_key"]),
                      ("authors", None), ("categories", ["category_id"])]:
        a, b = getattr(grouped, name), getattr(whole, name)
        if name == "files":
            a, b = a.drop("file_idx"), b.drop("file_idx")
        if name in ("listings", "quarantine") and "file_idx" in a.columns:
            a, b = a.drop("file_idx"), b.drop("file_idx")
        a, b = a.unique(), b.unique()
        key = key or a.columns
        assert a.sort(key).equals(b.select(a.columns).sort(key)), name
    assert grouped.skipped.is_empty()


def test_an_unwrapped_body_is_weighed_by_the_lines_it_decodes_to():
    """An e-mail body in base64 or an HTML page hides its lines from the bytes (5,270 line ends
    in the base64 of 300,000 lines, one in a page of 100,000 <br>): each is weighed by the lines
    of its decoded text, skipped when max_file_bytes does not allow them, parsed when it does."""
    import base64

    from flows.parse_memory import parse_within_memory
    from transforms.pipeline import SourceFile

    record = _lines_then_record(0)
    mail = (b"From: a@example.org\nSubject: digest\nMIME-Version: 1.0\nContent-Type: text/plain; charset=utf-8\n"
            b"Content-Transfer-Encoding: base64\n\n" + base64.encodebytes(b"\n" * 300_000 + record))
    page = b"<html><body>" + b"a<br>" * 100_000 + b"</body></html>\n"
    sources = [SourceFile(1, "mail.eml", mail), SourceFile(2, "page.html", page)]
    result = parse_within_memory(sources, max_file_bytes=2_000_000)
    reasons = dict(result.skipped.iter_rows())
    assert reasons.keys() == {"mail.eml", "page.html"}
    assert "its 300,011 lines need as much memory" in reasons["mail.eml"] and "DIGEST_MAX_FILE_BYTES" in reasons["mail.eml"]
    assert "its 100,000 lines" in reasons["page.html"]
    result = parse_within_memory(sources, max_file_bytes=50_000_000)
    assert result.skipped.is_empty() and result.listings["source_file_id"].to_list() == [1]


def test_a_parse_waits_for_room_unless_it_is_alone():
    """`Room`: parses whose estimates fit together run together; a heavier one waits until the
    others are done and then runs alone, however heavy."""
    import threading

    from flows import parse_memory, settings

    budget = settings.parse_memory_budget()
    room = parse_memory.Room()
    together = threading.Barrier(3, timeout=10)

    def light():
        with room.taken(budget // 4):
            together.wait()  # three at once, or the barrier breaks

    threads = [threading.Thread(target=light) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not together.broken and room.held == 0

    order: list[str] = []
    first_in, let_go = threading.Event(), threading.Event()

    def first():
        with room.taken(budget // 2) as share:
            first_in.set()
            let_go.wait(10)
            share.resize(budget // 4)  # less: given back at once
            order.append("first done")

    def heavy():
        first_in.wait(10)
        with room.taken(3 * budget):
            order.append(f"heavy alone: {room.held == 3 * budget}")

    threads = [threading.Thread(target=first), threading.Thread(target=heavy)]
    for t in threads:
        t.start()
    first_in.wait(10)
    threading.Event().wait(0.2)
    assert order == []  # the heavy one waits
    let_go.set()
    for t in threads:
        t.join()
    assert order == ["first done", "heavy alone: True"] and room.held == 0


_PLAIN_TEXT = st.text(st.sampled_from(list("abcxyz019 \t.,éü中文\u00a0")), max_size=12)


@given(st.lists(st.tuples(_PLAIN_TEXT, st.sampled_from(["\n", "\r\n", "\r"])), max_size=30),
       st.booleans(), st.sampled_from(["utf-8", "utf-8-sig", "utf-16", "utf-16-le", "gb18030", "cp1252"]))
def test_lines_counted_in_the_bytes_are_never_fewer_than_those_parsed(lines, last_ended, encoding):
    """What a parse task weighs a plain text by (`most_lines` of its bytes) is never less than
    the lines the batch is cut into (`line_count` of the decoded text, the frame's rows): whatever
    the line ends (LF, CRLF, classic Mac CR, mixed) and encoding (UTF-16's line ends are two bytes)."""
    from flows.parse_memory import most_lines
    from transforms.pipeline import SourceFile, _decode, decode_files, line_count

    text = "".join(line + end for line, end in lines)
    if not last_ended and lines:
        text = text.removesuffix(lines[-1][1])
    try:
        data = text.encode(encoding)
    except UnicodeEncodeError:
        data = text.encode("utf-8")
    decoded = decode_files([SourceFile(1, "x.txt", data)])
    n_lines = line_count(decoded[0].decoded)
    assert most_lines(data) >= n_lines
    files, frame, _ = _decode(decoded)
    assert n_lines == frame.height == files["n_lines"][0] or files["encoding"][0] == "binary"


def test_decoding_a_large_file_holds_its_text_a_few_times_not_a_dozen():
    """A 116 MB listing file held +1.5 GB while it was decoded and cut into lines (a copy of its
    text without the last newline, a strip(), the Python strings kept to the end, and Polars'
    split of the whole text at ~4x the file). The text is now held once in Python and once in the
    frame, and lines are cut by str.split. This file of 23 MB: +303 MB before, +65 MB after."""
    import threading
    import time

    from transforms.pipeline import SourceFile, _decode, decode_files

    seed = sorted(SAMPLES.glob("*.txt"))[0].read_text(encoding="utf-8")
    text = (seed.rstrip("\n") + "\n") * (24_000_000 // len(seed)) + "Ω\n"  # one character past U+00FF: 2 bytes each
    data = text.encode("utf-8")
    del text
    _decode(decode_files([SourceFile(0, "warm-up.txt", seed.encode())]))
    process, peak, done = psutil.Process(), [0], threading.Event()

    def sample():
        while not done.is_set():
            peak[0] = max(peak[0], process.memory_info().rss)
            time.sleep(0.002)

    before = peak[0] = process.memory_info().rss
    sampler = threading.Thread(target=sample)
    sampler.start()
    files, lines, _ = _decode(decode_files([SourceFile(1, "big.txt", data)]))
    done.set()
    sampler.join()
    assert files["n_lines"][0] == lines.height == data.count(b"\n")
    grew = peak[0] - before
    assert grew < 6 * len(data), f"decoding {len(data) / MB:.0f} MB held +{grew / MB:.0f} MB"


def _growth_in_a_child(setup: str, measured: str) -> int:
    """How much the peak RSS of a Python process of its own grew (bytes) while it ran `measured`,
    after `setup` (both Python source, run from the repo)."""
    script = (f"import resource\n{setup}\nbefore = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
              f"{measured}\nprint((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024)\n")
    return int(_in_a_child(script).strip().splitlines()[-1])


def test_co_authors_of_a_long_list_take_memory_linear_in_it():
    """One paper of 6,000 names (the longest authors line a record may hold): the co-author
    windows took 1,245 MiB, a copy of the whole list on every mention's row (n² keys; five such
    papers in one run peaked at 4.0 GB), now ~125 MiB. Measured in a child process of its own."""
    grew = _growth_in_a_child(
        "import polars as pl\n"
        "from transforms.persons import _coauthors\n"
        "m = pl.DataFrame({'paper_id': [1] * 6000, 'author_position': list(range(1, 6001)),\n"
        "                  'name_key': [f'author{i} person' for i in range(6000)]})",
        "assert _coauthors(m)['coauthors'].list.len().max() == 50")
    assert grew < 400 * MB, f"{grew // MB} MiB"


def test_co_authors_are_built_for_the_mentions_decided_only():
    """Hunt 41: a year of collaboration papers (2,300-2,900 names each) peaked at 8.4 GB on 7.6 MB
    of input: the person step built co-author windows for every mention of the papers of its common
    names, then kept those of the common names. Now the windows are those of the decided mentions
    (the rest are read as co-authors only), the same as before for them. In a child process."""
    grew = _growth_in_a_child(
        "import polars as pl\n"
        "from transforms.persons import _coauthors\n"
        "n, names = 40, 3000\n"
        "m = pl.DataFrame({'paper_id': [p for p in range(n) for _ in range(names)],\n"
        "                  'author_position': [i for _ in range(n) for i in range(1, names + 1)],\n"
        "                  'name_key': [f'author{i} person' for _ in range(n) for i in range(names)]})\n"
        "decided = m.filter(pl.col('author_position') % 500 == 7)",
        "got = _coauthors(m, decided)\n"
        "every = _coauthors(m.filter(pl.col('paper_id') < 2))\n"
        "want = every.join(decided, on=['paper_id', 'author_position', 'name_key'], how='semi')\n"
        "key = ['paper_id', 'author_position']\n"
        "assert got.filter(pl.col('paper_id') < 2).sort(key).equals(want.sort(key))\n"
        "assert got.height == decided.height")
    assert grew < 150 * MB, f"{grew // MB} MiB"


def test_clustering_many_revisions_of_each_paper_holds_no_python_object_per_pair():
    """Hunt 46: a paper listed as 2-300 revisions accepts ~20 pairs per listing (2.1M at 100k
    listings); the clustering loop kept a dict entry, sets and tuples per pair (407 bytes a pair
    here, outside DuckDB's memory limit) and now numbers the nodes and keeps arrays (~93). 1M
    pairs: 1,282 papers of 40 versions each, every two versions of a paper accepted; in a child
    process of its own."""
    n_pairs = 1_282 * 780
    grew = _growth_in_a_child(
        "import numpy as np, polars as pl\n"
        "from transforms.resolve import cluster_papers\n"
        "i, j = np.triu_indices(40, 1)\n"
        "papers = np.arange(1_282)[:, None] * 1000\n"
        "a, b = (papers + i).ravel(), (papers + j).ravel()\n"
        "edges = pl.DataFrame({'paper_key': a, 'other': b, 'other_is_paper': np.zeros(a.size, bool),\n"
        "                      'score': np.resize([0.82, 0.9, 0.95, 0.99], a.size)})",
        "mapping, skipped = cluster_papers(edges)\n"
        "assert len(set(mapping.values())) == 1_282 and not any(skipped.values())")
    assert grew < 150 * n_pairs, f"{grew // n_pairs} bytes a pair"


def test_candidate_pairs_are_scored_without_a_copy_of_their_texts():
    """Issue 15: the resolver copied every candidate pair's two abstracts, titles and author lists
    into a temp table to read it in chunks (4.2 GB of spill at 100k listings of many revisions
    each, ~21 pairs a listing). 120 papers of 21 versions each (3 KB abstracts), every two versions
    a pair: the pairs' texts are 150 MB, scored from a stream within 128 MB of DuckDB memory and no
    spill folder (the copy ran out of memory there)."""
    import duckdb

    from flows import resolve

    con = duckdb.connect()
    con.execute("SET temp_directory = ''")  # nothing can be spilled
    con.execute("CREATE TEMP TABLE stg_fullest AS SELECT range AS paper_key, 'A study of group ' || (range // 21) AS title, "
                "(SELECT string_agg(md5((range // 21) || '-' || i), ' ') FROM range(90) t(i)) AS abstract, "
                "['ann lee', 'bo chen', 'cy park'] AS author_keys, 3 AS author_count FROM range(2520)")
    con.execute("CREATE TEMP TABLE candidates AS SELECT a.paper_key, b.paper_key AS other, false AS other_is_paper, "
                "b.paper_key AS other_key FROM stg_fullest a JOIN stg_fullest b "
                "ON a.paper_key // 21 = b.paper_key // 21 AND a.paper_key < b.paper_key")
    con.execute("CREATE TEMP TABLE resigned_keys (paper_key BIGINT)")
    con.execute("CREATE TEMP TABLE dim_paper AS SELECT paper_key AS paper_id, * EXCLUDE (paper_key) FROM stg_fullest LIMIT 0")
    assert con.execute("SELECT sum(2 * strlen(abstract)) FROM candidates JOIN stg_fullest USING (paper_key)"
                       ).fetchall()[0][0] > 145e6
    con.execute("SET memory_limit = '128MB'")
    resolve._score_candidates(con, 0.8)
    assert con.execute("SELECT count(*), count(*) FILTER (WHERE is_match) FROM scored_pairs").fetchall() == [(25_200, 25_200)]
