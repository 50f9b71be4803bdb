"""Operations (issue 7): the landing-folder lifecycle, run reports as Prefect artifacts, the
scheduled deployment as Prefect's API sees it, and the CLI around them."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from flows import load
from flows.cli import app
from flows.settings import Settings

SAMPLES = Path(__file__).resolve().parent.parent / "data" / "samples"


def _landing_with_samples(tmp_path: Path, extra: dict[str, bytes] | None = None) -> Path:
    landing = tmp_path / "landing"
    shutil.copytree(SAMPLES, landing)
    for name, data in (extra or {}).items():
        (landing / name).write_bytes(data)
    return landing


def test_landing_files_are_archived_after_the_load(prefect_harness, tmp_path):
    from flows.landing import ingest_landing

    landing = _landing_with_samples(tmp_path, {"notes.txt": b"not a digest\n"})
    originals = {p.name: p.read_bytes() for p in landing.iterdir()}
    result = ingest_landing(landing=landing, archive=tmp_path / "archive", warehouse=tmp_path / "w.duckdb")

    assert list(landing.iterdir()) == []
    archived = {Path(p).name: Path(p).read_bytes() for p in result["archived"]}
    assert archived == originals  # every file moved, bytes untouched, quarantined one included
    assert all("/archive/" in p and len(Path(p).relative_to(tmp_path / "archive").parts) == 4
               for p in result["archived"])  # archive/YYYY/MM/DD/name
    assert result["n_listings"] == 55 and result["n_quarantined"] == 1


@pytest.mark.parametrize("kind", ["missing", "a file"])
def test_a_landing_folder_that_is_not_there_fails_the_run_and_makes_nothing(prefect_harness, tmp_path, kind):
    # a typo or a share not mounted: the folder was created, and every run ended Completed
    from flows.landing import ingest_landing

    landing = tmp_path / "landng"
    if kind == "a file":
        landing.write_text("not a folder\n")
    with pytest.raises(FileNotFoundError, match="DIGEST_LANDING"):
        ingest_landing(landing=landing, archive=tmp_path / "archive", warehouse=tmp_path / "w.duckdb")
    assert sorted(p.name for p in tmp_path.iterdir()) == (["landng"] if kind == "a file" else [])


def test_serve_with_no_landing_folder_says_so_at_start(tmp_path, monkeypatch):
    monkeypatch.setenv("PREFECT_API_URL", "http://127.0.0.1:9/api")  # never reached
    monkeypatch.setenv("DIGEST_LANDING", str(tmp_path / "landng"))
    monkeypatch.setenv("DIGEST_ARCHIVE", str(tmp_path / "archive"))
    result = CliRunner().invoke(app, ["serve"])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "landng does not exist (DIGEST_LANDING)" in lines[0], lines
    assert not (tmp_path / "landng").exists()


def test_the_landing_flow_runs_on_the_task_runner_of_the_settings(prefect_harness, tmp_path, monkeypatch):
    # it called the in-process flow: DIGEST_TASK_RUNNER=dask on a worker was ignored, unsaid
    import flows.landing
    from flows.ingest import ingest

    asked = []
    monkeypatch.setattr(flows.landing, "configured_ingest", lambda settings: asked.append(settings.task_runner) or ingest)
    monkeypatch.setenv("DIGEST_TASK_RUNNER", "dask")
    landing = _landing_with_samples(tmp_path)
    flows.landing.ingest_landing(landing=landing, archive=tmp_path / "archive", warehouse=tmp_path / "w.duckdb")
    assert asked == ["dask"]


def test_landing_files_stay_when_the_load_fails(prefect_harness, tmp_path, monkeypatch):
    from flows.landing import ingest_landing

    def broken_check(self):
        raise load.WarehouseCheckError("injected: blocking check failed")

    monkeypatch.setattr(load.RunLoader, "check", broken_check)
    landing = _landing_with_samples(tmp_path)
    before = sorted(p.name for p in landing.iterdir())
    with pytest.raises(load.WarehouseCheckError):
        ingest_landing(landing=landing, archive=tmp_path / "archive", warehouse=tmp_path / "w.duckdb")

    assert sorted(p.name for p in landing.iterdir()) == before
    assert not (tmp_path / "archive").exists()
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        runs = con.execute("SELECT status, message FROM ingest_run").fetchall()
        assert con.execute("SELECT count(*) FROM fact_listing").fetchall() == [(0,)]
    assert runs == [("failed", "injected: blocking check failed")]


def test_run_publishes_artifacts_and_warns_on_quarantine(prefect_harness, tmp_path):
    from prefect.client.orchestration import get_client
    from prefect.client.schemas.filters import FlowRunFilter, FlowRunFilterId

    from flows.ingest import ingest

    folder = _landing_with_samples(tmp_path, {"broken.txt": b"#01Oct 26, 2026\ncs.LG\nCut off\n"})
    state = ingest(paths=[folder], warehouse=tmp_path / "w.duckdb", return_state=True)

    assert state.is_completed()
    assert "1 span of input was quarantined" in state.message
    flow_run_id = state.state_details.flow_run_id
    with get_client(sync_client=True) as client:
        artifacts = client.read_artifacts(flow_run_filter=FlowRunFilter(id=FlowRunFilterId(any_=[flow_run_id])))
    by_key = {a.key: a for a in artifacts}
    assert {"ingest-files", "ingest-summary", "ingest-progress"} <= set(by_key)
    table = json.loads(by_key["ingest-files"].data) if isinstance(by_key["ingest-files"].data, str) else by_key["ingest-files"].data
    rows = {row["path"]: row for row in table}
    assert rows[r"landing/broken\.txt"]["n_quarantined"] == 1  # paths are escaped Markdown (issue 14)
    assert sum(row["n_listings"] for row in table) == 55
    summary = by_key["ingest-summary"].data
    assert "listings loaded: 55" in summary and "**Warning:**" in summary
    assert "cs\\.LG" in summary  # category names are escaped Markdown
    assert float(by_key["ingest-progress"].data) == 100.0
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        stored = con.execute("SELECT report, status, message FROM ingest_run").fetchall()
    assert stored == [(summary, "completed", state.message)]


def test_scheduled_deployment_is_visible_through_the_api(prefect_harness, tmp_path):
    from prefect.client.orchestration import get_client

    from flows.landing import DEPLOYMENT, landing_deployment

    settings = Settings(schedule="15 7 * * 1-5", timezone="Europe/Paris", landing=tmp_path / "in",
                        archive=tmp_path / "out", warehouse=tmp_path / "w.duckdb")
    landing_deployment(settings).apply()
    with get_client(sync_client=True) as client:
        deployment = client.read_deployment_by_name(f"ingest-landing/{DEPLOYMENT}")
    [schedule] = deployment.schedules
    assert schedule.schedule.cron == "15 7 * * 1-5"
    assert schedule.schedule.timezone == "Europe/Paris"
    assert deployment.parameters["landing"] == str(tmp_path / "in")


@pytest.mark.parametrize("schedule", ["0 6 29 2 *", "@yearly", "0 6 * 2 1"])
def test_a_rare_but_real_schedule_is_taken(tmp_path, schedule):
    # the 29th of February fires once in four years
    from flows.landing import landing_deployment

    settings = Settings(schedule=schedule, landing=tmp_path / "in", archive=tmp_path / "out",
                        warehouse=tmp_path / "w.duckdb")
    assert landing_deployment(settings).schedules[0].schedule.cron == schedule


def test_status_and_config_speak_json(prefect_harness, tmp_path, monkeypatch):
    from flows.ingest import ingest

    ingest(paths=[SAMPLES], warehouse=tmp_path / "w.duckdb")
    runner = CliRunner()
    status = json.loads(runner.invoke(app, ["status", "-w", str(tmp_path / "w.duckdb"), "--json"]).output)
    assert (status["files"], status["listings"], status["papers"]) == (5, 55, 49)
    assert status["last_run"]["status"] == "completed"

    monkeypatch.setenv("DIGEST_BATCH_BYTES", "1234")
    config = json.loads(runner.invoke(app, ["config", "--json"]).output)
    assert config["batch_bytes"] == 1234 and config["schedule"]


def test_errors_are_one_line_with_documented_exit_codes(tmp_path):
    runner = CliRunner()
    missing = runner.invoke(app, ["status", "-w", str(tmp_path / "none.duckdb")])
    assert missing.exit_code == 2
    assert missing.output.strip().startswith("error: no warehouse at")
    assert len(missing.output.strip().splitlines()) == 1
    assert "Exit codes" in runner.invoke(app, ["--help"]).output


@pytest.mark.parametrize(("variable", "value", "says"), [
    ("DIGEST_BATCH_BYTES", "abc", "valid integer"),
    ("DIGEST_BATCH_BYTES", "-5", "greater than 0"),
    ("DIGEST_PERSON_SPLIT_THRESHOLD", "nan", "finite"),  # was taken: no score reaches NaN, every mention a new person
    ("DIGEST_MATCH_THRESHOLD", "2", "less than or equal to 1"),
    ("DIGEST_LOCK_TIMEOUT_S", "-1", "greater than or equal to 0"),
    ("DIGEST_TASK_RUNNER", "spark", "'threads' or 'dask'"),
    ("DIGEST_DUCKDB_MEMORY_LIMIT", "lots", "should match pattern"),  # was taken: the load failed in DuckDB's parser
    ("DIGEST_DUCKDB_MEMORY_LIMIT", "2000000000", "should match pattern"),  # no unit: the same
    ("DIGEST_TIMEZONE", "Mars/Base", "not an IANA time zone"),  # was taken: `digest serve` failed with a traceback
    ("DIGEST_DUCKDB_MEMORY_LIMIT", "0MB", "above zero"),  # was taken: the run failed, advising "e.g. 0MB"
    ("DIGEST_MATCH_THRESHOLD", "nan", "finite"),  # said "less than or equal to 1"
    # a variable left blank was the working folder: the ingest failed with "Is a directory"
    ("DIGEST_WAREHOUSE", "", "empty: name a path"),
    ("DIGEST_WAREHOUSE", "  ", "empty: name a path"),
    ("DIGEST_LANDING", "", "empty: name a path"),
])
def test_a_bad_setting_is_one_line_naming_it_before_any_command_runs(tmp_path, monkeypatch, variable, value, says):
    """A bad DIGEST_* value was pydantic's traceback (exit 1) from whichever command read it,
    or, for a NaN or a negative size, taken."""
    monkeypatch.setenv(variable, value)
    for command in (["status", "-w", str(tmp_path / "w.duckdb")], ["config"], ["ingest", str(tmp_path)]):
        result = CliRunner().invoke(app, command)
        assert result.exit_code == 2, result.output
        lines = result.output.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"error: bad setting: {variable}='{value}': ") and says in lines[0]


@pytest.mark.parametrize("named", ["", ".", "folder"])
def test_a_warehouse_that_is_a_folder_is_refused_in_one_line_before_the_run(tmp_path, monkeypatch, named):
    """`-w ""` (a blank variable in a script) is the working folder: the run started, left its lock
    beside the folder and failed late with DuckDB's "Is a directory"."""
    shutil.copytree(SAMPLES, tmp_path / "folder")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["ingest", str(tmp_path / "folder"), "-w", named])
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: the warehouse ") and "is a folder: name a file" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"]


@pytest.mark.parametrize(("schedule", "says"), [
    ("every day", 'Invalid cron string: "every day"'),
    ("61 * * * *", 'Invalid cron string: "61 * * * *"'),
    ("0 6 * * * H", 'Invalid cron string: "0 6 * * * H"'),
    # six fields: Prefect reads the first as seconds (one flow run a second, 66 processes in two minutes)
    ("* * * * * *", "a cron of five fields"),
    ("0 0 6 * * *", "a cron of five fields"),
    # a day no month has: the server's scheduler finds no date and the deployment never runs
    ("0 6 31 2 *", "a cron that never fires"),
    ("0 6 30 2 *", "a cron that never fires"),
    ("30 7 31 4,6,9,11 *", "a cron that never fires"),
    # cron would OR the days (any Monday in February), but Prefect's scheduler finds no date for it
    ("0 6 31 2 1", "a cron that never fires"),
])
def test_serve_with_a_bad_schedule_says_so_in_one_line(tmp_path, monkeypatch, schedule, says):
    # Prefect's check of the cron string ended `digest serve` with a traceback (exit 1)
    monkeypatch.setenv("PREFECT_API_URL", "http://127.0.0.1:9/api")  # never reached
    monkeypatch.setenv("DIGEST_SCHEDULE", schedule)
    (tmp_path / "landing").mkdir()
    monkeypatch.setenv("DIGEST_LANDING", str(tmp_path / "landing"))
    result = CliRunner().invoke(app, ["serve"])
    assert result.exit_code == 2, result.output
    assert result.output.strip().startswith(f"error: DIGEST_SCHEDULE={schedule!r}: {says}")


@pytest.mark.parametrize("encoding", ["utf-16", "latin-1"])
def test_a_dot_env_file_not_in_utf8_is_one_line(tmp_path, monkeypatch, encoding):
    # Notepad's "Unicode" (UTF-16) or a Latin-1 .env: a UnicodeDecodeError traceback from every command
    (tmp_path / ".env").write_text("DIGEST_WAREHOUSE=/tmp/café/w.duckdb\n", encoding=encoding)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["config"])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: bad setting: .env is not UTF-8 text"), lines


def test_serve_with_the_archive_inside_the_landing_folder_says_so_at_start(tmp_path, monkeypatch):
    # each scheduled run would ingest the archive and move it into itself, one level deeper
    monkeypatch.setenv("PREFECT_API_URL", "http://127.0.0.1:9/api")  # never reached
    monkeypatch.setenv("DIGEST_LANDING", str(tmp_path / "landing"))
    monkeypatch.setenv("DIGEST_ARCHIVE", str(tmp_path / "landing" / "archive"))
    result = CliRunner().invoke(app, ["serve"])
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "is inside the landing folder" in lines[0] and "DIGEST_ARCHIVE" in lines[0]


def test_batch_mb_must_be_positive(tmp_path):
    result = CliRunner().invoke(app, ["ingest", str(tmp_path), "--batch-mb", "-3"])
    assert result.exit_code == 2 and "--batch-mb" in result.output


def test_a_tilde_in_a_path_setting_or_flag_is_the_home_folder(tmp_path, monkeypatch):
    # "~/x.duckdb" in .env or DIGEST_WAREHOUSE made a folder named "~" in the working directory
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    for name in ("warehouse", "landing", "archive", "samples", "ingest_root"):
        monkeypatch.setenv(f"DIGEST_{name.upper()}", f"~/{name}")
    settings = Settings()
    assert [getattr(settings, name) for name in ("warehouse", "landing", "archive", "samples", "ingest_root")] == [
        tmp_path / "warehouse", tmp_path / "landing", tmp_path / "archive", tmp_path / "samples", tmp_path / "ingest_root"]
    with duckdb.connect(str(tmp_path / "w.duckdb")) as con:
        con.execute("CREATE TABLE t AS SELECT 1 AS x")
    result = CliRunner().invoke(app, ["query", "SELECT x FROM t", "--warehouse=~/w.duckdb", "-f", "csv"])
    assert result.exit_code == 0 and result.stdout == "x\n1\n", result.output
    assert not (tmp_path / "~").exists()


def test_serve_with_no_prefect_server_answering_says_so_in_one_line(tmp_path):
    # a 122-line traceback of two chained errors (httpx.ConnectError), exit 1
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{s.getsockname()[1]}/api"  # nothing listens there
    (tmp_path / "landing").mkdir()
    env = {**os.environ, "PREFECT_API_URL": url, "DIGEST_LANDING": str(tmp_path / "landing"),
           "DIGEST_ARCHIVE": str(tmp_path / "archive")}
    result = subprocess.run([str(Path(sys.executable).parent / "digest"), "serve"], env=env, cwd=SAMPLES.parent.parent,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 1, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: the Prefect server at PREFECT_API_URL={url} did not answer"), result.stderr


def test_a_prefect_server_gone_mid_run_costs_the_artifacts_not_the_load(prefect_harness, tmp_path, monkeypatch):
    """The server died after the commit: "ingest failed", exit 1, of a run that was published;
    before it, the progress bar's update failed the whole load (a hunt's find)."""
    import httpx

    import flows.ingest

    calls = []

    def refused(*args, **kwargs):
        calls.append(1)
        raise httpx.ConnectError("[Errno 111] Connection refused")

    for name in ("create_progress_artifact", "update_progress_artifact", "create_table_artifact"):
        monkeypatch.setattr(flows.ingest, name, refused)
    folder = tmp_path / "in"
    shutil.copytree(SAMPLES, folder)
    summary = flows.ingest.ingest(paths=[folder], warehouse=tmp_path / "w.duckdb")
    assert summary["n_listings"] > 0 and len(calls) == 1  # warned once, the later calls skipped
    with duckdb.connect(str(tmp_path / "w.duckdb"), read_only=True) as con:
        assert con.execute("SELECT status FROM ingest_run").fetchall() == [("completed",)]


def test_an_ingest_under_another_programs_write_session_says_what_holds_it(tmp_path):
    # a DuckDB shell or notebook with the warehouse open for writing: the run ended with DuckDB's
    # lock message, naming a PID but not what to do
    warehouse = tmp_path / "w.duckdb"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import duckdb, sys, time; c = duckdb.connect(sys.argv[1]); "
         "c.execute('CREATE TABLE t (x INT)'); print('held', flush=True); time.sleep(120)", str(warehouse)],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        result = CliRunner().invoke(app, ["ingest", str(SAMPLES), "--warehouse", str(warehouse)])
    finally:
        holder.kill()
        holder.wait()
    assert result.exit_code == 1, result.output
    assert "is open with write access in another program" in result.output and f"PID {holder.pid}" in result.output
