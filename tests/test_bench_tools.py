"""The small bench tools whose figures the README cites: bench.spy_frames (py-spy stacks to
seconds per function), bench.compression's warehouse mode, the side-by-side runners
(bench.side_by_side, bench.author_step, bench.settings_ab), bench.wrapped's counts and
bench.big_files' shapes of short lines."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb

import polars as pl

from bench import author_step, big_files, compression, settings_ab, side_by_side, spy_frames, wrapped
from tests.conftest import SAMPLES

REPO = Path(__file__).resolve().parents[1]

RAW = """\
<module> (profile.py:10);main (profile.py:20);resolve_near_duplicates (flows/resolve.py:40) 7
<module> (profile.py:10);main (profile.py:20);merge_papers (flows/load.py:90) 3
_bootstrap (threading.py:1);block_keys (transforms/resolve.py:290);minhash_signatures (transforms/resolve.py:250) 5
"""


def test_spy_frames_counts_each_function_once_per_stack():
    inclusive, own, total = spy_frames.tally(RAW.splitlines())
    assert total == 15
    assert inclusive["main (profile.py)"] == 10 and inclusive["block_keys (resolve.py)"] == 5
    assert own["resolve_near_duplicates (resolve.py)"] == 7 and own["minhash_signatures (resolve.py)"] == 5
    inclusive, _, total = spy_frames.tally(RAW.splitlines(), within="block_keys")
    assert total == 5 and "main (profile.py)" not in inclusive


def test_wrapped_counts_records_unlike_the_unwrapped_ones_not_records_after_a_quarantined_one(tmp_path, capsys,
                                                                                          monkeypatch):
    # compared by position, the two records after a quarantined one counted as shifted
    (tmp_path / "search").mkdir()
    (tmp_path / "search" / "p.txt").write_text("论文检索\n\na page\n", encoding="utf-8")
    fields = {"category_raw": ["Area", "Area", "Area"], "authors_raw": ["A", "B", "C"], "abstract": ["a", "b", "c"]}
    whole = pl.DataFrame({"position": [1, 2, 3], **fields})
    cut = pl.DataFrame({"position": [1, 2], **{k: [v[1], "X" if k == "abstract" else v[2]] for k, v in fields.items()}})

    def parse(text, fmt="listing"):
        return (cut, pl.DataFrame({"reason": ["cut"]})) if text == "wrapped" else (whole, pl.DataFrame())

    monkeypatch.setattr(wrapped, "parse", parse)
    monkeypatch.setattr(wrapped, "wrap", lambda text, width: "wrapped")
    wrapped.main([str(tmp_path), "--widths", "72"])
    out = capsys.readouterr().out
    assert "search: 3 wrapped records: 2 loaded, 1 of them" in out and "1 quarantine rows" in out


def test_compression_reads_a_warehouse_tables_text_columns(tmp_path, capsys):
    path = tmp_path / "w.duckdb"
    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE dim_author (author_id BIGINT, name VARCHAR, name_key VARCHAR, n_papers INTEGER)")
        con.execute("INSERT INTO dim_author SELECT i, 'Ann Lee ' || i, 'ann lee ' || i, 1 FROM range(1000) t(i)")
    frame = compression._table_strings(path, "dim_author", "name_key", 0)
    assert frame.columns == ["name_key"] and frame.height == 1000
    compression.main([str(path), "--table", "dim_author", "--rows", "10"])
    out = capsys.readouterr().out
    assert "10 rows of name, name_key" in out and "uncompressed" in out and "zstd" in out


def test_side_by_side_interleaves_checkouts_and_prints_medians(capsys, tmp_path):
    order = []

    def run(code):
        order.append(code.name)
        return {"wall": float(len(order))}

    codes = side_by_side.checkouts([f"a={tmp_path / 'a'}", f"b={tmp_path / 'b'}"])
    runs = side_by_side.interleaved(codes, 3, run, ("wall",))
    assert order == ["a", "b"] * 3  # rounds interleaved, not one checkout after the other
    assert [r["wall"] for r in runs["b"]] == [2.0, 4.0, 6.0]
    medians = capsys.readouterr().out.split("median\n")[1].splitlines()
    assert medians[0].split() == ["a", "3.00"] and medians[1].split() == ["b", "4.00"]
    assert side_by_side.checkouts(None) == {"here": Path(".")}


def test_author_step_runs_the_step_twice_alike_and_leaves_no_copy(seeds_warehouse, tmp_path, capsys):
    warehouse = tmp_path / "w.duckdb"
    shutil.copyfile(seeds_warehouse[0], warehouse)
    author_step.main([str(warehouse), "--code", f"one={REPO}", "--code", f"two={REPO}", "--rounds", "1"])
    out = capsys.readouterr().out
    assert "tables written: the same in every run" in out
    assert [line.split()[0] for line in out.split("median\n")[1].splitlines()[:2]] == ["one", "two"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.duckdb"]  # the emptied copy is gone
    with duckdb.connect(str(warehouse), read_only=True) as con:  # never written
        assert con.execute("SELECT count(*) FROM author_mention").fetchall()[0][0] > 0


def test_settings_ab_runs_each_setting_in_turn_and_leaves_no_warehouse(prefect_harness, tmp_path, capsys, monkeypatch):
    from prefect.settings import PREFECT_API_URL

    monkeypatch.setenv("PREFECT_API_URL", PREFECT_API_URL.value())  # the children use the tests' server
    settings_ab.main([str(SAMPLES), "--setting", "one=DIGEST_MAX_BATCHES_IN_FLIGHT=1",
                      "--setting", "four=DIGEST_MAX_BATCHES_IN_FLIGHT=4", "--rounds", "1", "--scratch", str(tmp_path)])
    out = capsys.readouterr().out
    runs = out.split("median\n")[0].splitlines()[1:]
    assert [line.split()[0] for line in runs] == ["one", "four"]
    assert all(float(line.split()[2]) > 0 for line in runs)  # the flow's seconds, from its summary
    assert list(tmp_path.iterdir()) == []  # each run's warehouse removed


def test_big_files_shapes_are_the_lines_and_records_they_are_named_for(tmp_path, capsys):
    """The shapes flows.settings.parse_cost is measured on: each file holds about the lines asked
    for, and parses to what its name says (a record after the line ends, quarantined headers)."""
    from transforms.pipeline import SourceFile, process_batch

    big_files.shapes(tmp_path, 1000)
    parsed = {path.name.removesuffix("_1000.txt"): process_batch([SourceFile(1, path.name, path.read_bytes())])
              for path in sorted(tmp_path.glob("*.txt"))}
    assert {name: r.files["n_lines"][0] for name, r in parsed.items()} == {
        "crlf_line_ends": 1005, "headers_alone": 1000, "letters": 1000, "line_ends": 1005,
        "one_word_blocks": 1002, "one_word_records": 1000, "page_then_letters": 1007, "record_then_letters": 1005}
    listings = {name: r.listings.height for name, r in parsed.items()}
    assert listings == {"crlf_line_ends": 1, "headers_alone": 0, "letters": 0, "line_ends": 1,
                        "one_word_blocks": 249,  # of 250: the last reads as cut off at the file's end
                        "one_word_records": 200, "page_then_letters": 1, "record_then_letters": 1}
    assert parsed["line_ends"].listings["line_start"].to_list() == [1001]
    assert parsed["headers_alone"].quarantine.height == 1000
