"""The paper merge (schemas/merge/20_papers.sql) on a warehouse whose stored keys have no
paper_version row (loaded before versions were kept): the stored paper stands in for them, so a
paper touched again keeps what only its stored row knows."""

from __future__ import annotations

import duckdb
import pytest

from tests.support.cli import digest_cli

ABSTRACT = (
    "We study the sample complexity of learning halfspaces under Massart noise and show that a simple "
    "reweighting of the hinge loss achieves the optimal rate up to logarithmic factors. Our analysis relies "
    "on a new concentration inequality for sums of dependent indicator variables, which may be of independent "
    "interest. Experiments on synthetic and real data confirm the predicted rates."
)
TITLE = "Learning Halfspaces under Massart Noise"


@pytest.fixture()
def cli(prefect_harness):
    with digest_cli() as run:
        yield run


def test_a_paper_touched_again_keeps_the_title_only_its_stored_row_knows(cli, tmp_path):
    folder = tmp_path / "digests"
    folder.mkdir()
    warehouse = tmp_path / "w.duckdb"
    (folder / "listing.txt").write_text(f"#01Oct 26, 2026\ncs.LG\n{TITLE}\nAna Silva, Bo Chen\n{ABSTRACT}\n",
                                        encoding="utf-8")
    assert cli("ingest", folder, "--warehouse", warehouse).exit_code == 0
    with duckdb.connect(str(warehouse)) as con:  # as a warehouse from before paper_version
        con.execute("DELETE FROM paper_version")
    # the same paper on a search page: no title, another matcher key, joined to the stored paper
    (folder / "search.txt").write_text(f"论文检索\n\nAna Silva, Bo Chen\n\n{ABSTRACT}\n", encoding="utf-8")
    result = cli("ingest", folder, "--warehouse", warehouse)
    assert result.exit_code == 0, result.output
    with duckdb.connect(str(warehouse), read_only=True) as con:
        papers = con.execute("SELECT title, abstract, n_listings, authors FROM dim_paper").fetchall()
        mentions = con.execute("SELECT mention_key FROM author_mention ORDER BY author_position").fetchall()
    assert papers == [(TITLE, ABSTRACT, 2, ["Ana Silva", "Bo Chen"])]
    assert mentions == [("ana silva",), ("bo chen",)]
