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


# Tables without a primary key (schemas/warehouse.sql): a duplicate is a failed blocking check.
UNKEYED = {
    "fact_listing": "one fact_listing row per listing_id (the table has no key: schemas/warehouse.sql)",
    "dim_author": "one dim_author row per author_id",
    "author_name_variant": "one author_name_variant row per name_key and spelling",
    "bridge_paper_author": "one bridge_paper_author row per paper and position",
    "author_mention": "one author_mention row per paper and position",
    "author_person": "one author_person row per author_id",
}


@pytest.mark.parametrize("table", sorted(UNKEYED))
def test_a_duplicate_row_of_an_unkeyed_table_fails_its_check(seeds_warehouse, tmp_path, table):
    import shutil

    from flows.load import connect, run_checks

    warehouse = tmp_path / "w.duckdb"
    shutil.copyfile(seeds_warehouse[0], warehouse)
    with connect(warehouse) as con:
        assert run_checks(con)[UNKEYED[table]] == 0
        con.execute(f"INSERT INTO {table} SELECT * FROM {table} LIMIT 1")  # no key refuses it
        failed = {name: n for name, n in run_checks(con).items() if n}
    assert failed.get(UNKEYED[table]) == 1


def test_a_warehouse_created_with_the_keys_loads_again(cli, tmp_path):
    """Warehouses from before the keys were dropped keep them: a run onto one works the same."""
    folder = tmp_path / "digests"
    folder.mkdir()
    warehouse = tmp_path / "w.duckdb"
    with duckdb.connect(str(warehouse)) as con:  # tables as they were created before
        con.execute("CREATE TABLE dim_author (author_id BIGINT PRIMARY KEY, name VARCHAR NOT NULL, "
                    "name_key VARCHAR NOT NULL, n_papers INTEGER NOT NULL)")
        con.execute("CREATE TABLE author_name_variant (name_key VARCHAR NOT NULL, name VARCHAR NOT NULL, "
                    "display_rank INTEGER NOT NULL, PRIMARY KEY (name_key, name))")
        con.execute("CREATE TABLE bridge_paper_author (paper_id BIGINT NOT NULL, author_id BIGINT NOT NULL, "
                    "author_position INTEGER NOT NULL, PRIMARY KEY (paper_id, author_position))")
        con.execute("CREATE TABLE author_person (author_id BIGINT PRIMARY KEY, name_key VARCHAR NOT NULL, "
                    "founded_key VARCHAR, first_on DATE, last_on DATE, n_mentions BIGINT, paper_ids BIGINT[], "
                    "coauthors VARCHAR[], categories VARCHAR[], words VARCHAR[])")
    (folder / "a.txt").write_text(f"#01Oct 26, 2026\ncs.LG\n{TITLE}\nAna Silva, Bo Chen\n{ABSTRACT}\n", encoding="utf-8")
    assert cli("ingest", folder, "--warehouse", warehouse).exit_code == 0
    (folder / "b.txt").write_text(f"#01Oct 27, 2026\ncs.LG\n{TITLE}\nAna Silva, Bo Chen\n{ABSTRACT}\n", encoding="utf-8")
    result = cli("ingest", folder, "--warehouse", warehouse)
    assert result.exit_code == 0, result.output
    with duckdb.connect(str(warehouse), read_only=True) as con:
        assert con.execute("SELECT n_listings FROM dim_paper").fetchall() == [(2,)]
        assert con.execute("SELECT name, n_papers FROM dim_author ORDER BY name").fetchall() == [
            ("Ana Silva", 1), ("Bo Chen", 1)]
        assert con.execute("SELECT count(*) FROM author_name_variant").fetchall() == [(2,)]
