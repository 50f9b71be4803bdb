"""The small bench tools whose figures the README cites: bench.spy_frames (py-spy stacks to
seconds per function) and bench.compression's warehouse mode."""

from __future__ import annotations

import duckdb

from bench import compression, spy_frames

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
