"""The person step of the load: every new author mention gets a person (issue 13).

Runs inside the load's transaction between merge/20_papers.sql and merge/30_authors.sql. A
rare name is one person whatever its context (but a person holds one place of a list: a later
place of the name on one list is a person of its own), so its mentions (~90 % of a run's) are decided in
the warehouse (schemas/resolve/person_rare.sql, the rule of `transforms.persons._assign_rare`).
The common names are decided by `transforms.persons.assign_persons` (pure); this module moves
their mentions and evidence out of the warehouse, the decisions, persons and person aliases back
in. Stored decisions stand, except where a fresh load of all the files would decide
otherwise (`_reopen_names`): the paper's list changed at that position or the shown key now
stands for another name (then the mention is new again), or the name's canonical order or its
rare/common class changed (then all its mentions are decided again, in that order).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import duckdb
import polars as pl

from flows.sql import insert_frame, memory_limit_bytes, on_threads, read_frame, run_sql_file, write_frame
from transforms.persons import (PERSON_SCHEMA, WORDS_FROM, PersonSettings, PersonsResult, assign_persons, name_parts,
                                person_profiles, reference_shares)

EVIDENCE = [c for c in PERSON_SCHEMA if c not in ("person_id", "name_key", "founded_key")]
# Mentions decided and written at a time follow DuckDB's budget: the group's frames sit beside it
# (two groups' at most: one deciding while the next is read, see _decide_common).
# A group costs Python ~1.2 KB per mention at its peak (`bench.profile --trace-persons`: +250 MB for
# groups of 200k at 1M distinct, +100 MB for 77k at 100k), and a group may take an eighth of DuckDB's
# limit while the groups are decided, which is half the budget when the frames are large
# (`beside_python`): a 2 GiB budget -> ~105k mentions.
BYTES_PER_MENTION = 1_200
# DuckDB's share of its budget while the common names' frames are in Python (`beside_python`).
DUCKDB_SHARE_BESIDE_PYTHON = 0.5
MIN_CHUNK_MENTIONS = 10_000
STORED_COLUMNS = [c for c in PERSON_SCHEMA if c != "person_id"]  # what the model reads of a stored person


def decide_persons(con: duckdb.DuckDBPyConnection, run_id: str, settings: PersonSettings = PersonSettings(),
                   timings: dict[str, float] | None = None, budget: str | None = None) -> int:
    """Assign a person to every new mention of this run's papers; returns how many were decided.
    `timings`, if given, gets the seconds of each phase (persons.<phase>), and those of the
    groups' phases added up (persons.group.<phase>). `budget`: DuckDB's memory limit as the run
    set it, cut while large frames are in Python (`beside_python`); None: never cut."""
    lap = _Laps(timings, "persons.")
    run_sql_file(con, "resolve/person_mentions.sql")
    run_sql_file(con, "resolve/person_marks.sql")
    n_new = con.execute("SELECT count(*) FROM new_mentions").fetchall()[0][0]
    lap("mentions")
    run_sql_file(con, "resolve/person_names.sql")  # batch_keys: the new mentions' names
    n_keys = con.execute("SELECT n FROM n_name_keys").fetchall()[0][0]
    _reference_shares(con)
    # How common the run's names are and which are rare, decided in the warehouse: of a run's
    # names only the common ones (~10 %) cross into Python, with their mentions (below).
    run_sql_file(con, "resolve/person_name_stats.sql", {"n_keys": n_keys}, keys="batch_keys")
    run_sql_file(con, "resolve/person_classes.sql", {"rare_lambda": settings.rare_lambda})  # name_lam: batch_keys
    lap("name_stats")
    n_reopened = _reopen_names(con, n_new, n_keys, settings)
    n_decided = n_new + n_reopened
    if not n_decided:
        return 0
    if _any(con, "taken_back_keys"):  # names taken back have no stored person now: classed again
        _add_commonness(con, "taken_back_keys", n_keys)  # name_lam: batch_keys and taken_back_keys
        run_sql_file(con, "resolve/person_classes.sql", {"rare_lambda": settings.rare_lambda})
    lap("reopen")
    # Common names, decided on evidence in Python: their mentions only (~10 % of a run's)
    new = read_frame(con, "SELECT paper_id, author_position, name_key, mention_key FROM new_mentions "
                          "SEMI JOIN (SELECT name_key FROM name_class WHERE NOT is_rare) USING (name_key)")
    if not new.is_empty():
        # How common every name the model reads is (the names on the common names' papers), counted
        # before the rare names' persons are written: their names are counted as the run's new
        # names until then, and would be counted twice after.
        write_frame(con, "CREATE OR REPLACE TEMP TABLE decide_papers AS SELECT DISTINCT paper_id FROM frame", new)
        con.execute("CREATE OR REPLACE TEMP TABLE model_keys AS "
                    "SELECT name_key FROM author_mention SEMI JOIN decide_papers USING (paper_id) "
                    "UNION SELECT name_key FROM new_mentions SEMI JOIN decide_papers USING (paper_id)")
        _add_commonness(con, "model_keys", n_keys)
    run_sql_file(con, "resolve/person_rare.sql", {"run_id": run_id})
    lap("rare")
    if not new.is_empty():
        _decide_common(con, run_id, new, settings, budget, lap, _Laps(timings, "persons.group."))
    return n_decided


def _any(con: duckdb.DuckDBPyConnection, table: str) -> bool:
    """Whether `table` holds a row (without counting them)."""
    return con.execute(f"SELECT EXISTS (SELECT 1 FROM {table})").fetchall()[0][0]


def _decide_common(con: duckdb.DuckDBPyConnection, run_id: str, new: pl.DataFrame, settings: PersonSettings,
                   budget: str | None, lap: _Laps, group_lap: _Laps) -> None:
    """Decide the mentions of common names (`new`, on the papers of decide_papers) on evidence,
    group by group."""
    stored = read_frame(con, f"SELECT author_id AS person_id, {', '.join(STORED_COLUMNS)} FROM author_person "
                             "SEMI JOIN (SELECT name_key FROM name_class WHERE NOT is_rare) USING (name_key)")
    stored = _with_evidence(con, stored, new)
    lap("evidence")
    # the other names on these papers (decided earlier, or rare names decided above: co-authors,
    # read as evidence only)
    context = read_frame(con, "SELECT paper_id, author_position, name_key FROM author_mention "
                              "SEMI JOIN decide_papers USING (paper_id)")
    co_authors = pl.concat([context, new.select(context.columns).cast(context.schema)])
    lam = read_frame(con, "SELECT name_key, given, surname, lam FROM name_lam SEMI JOIN model_keys USING (name_key)")
    # read from dim_paper once: each group reading its papers there scanned every abstract of the
    # table again (20 s of the step at 1M distinct listings, 21 groups; py-spy)
    con.execute(f"CREATE OR REPLACE TEMP TABLE person_papers AS {_papers_sql('decide_papers')}")
    # the N of a name's commonness computed on demand: the names the step has read (name_lam)
    n_two_word = con.execute("SELECT greatest(count(*), 1) FROM name_lam WHERE contains(name_key, ' ')").fetchall()[0][0]
    category_info = _category_info(con)
    lap("read")
    held = sum(f.estimated_size() for f in (new, stored, co_authors, lam, category_info))

    def decide(group: _Group) -> tuple[_Group, PersonsResult]:
        return group, assign_persons(group.part.drop("mention_key"), group.papers, group.categories,
                                     group.stored, settings=settings, context_mentions=group.context,
                                     commonness=lam, n_two_word_keys=n_two_word, category_info=category_info)

    def groups():  # sized by the budget in force when the groups are read (cut or not)
        return (_group_evidence(con, part, co_authors, stored, group_lap) for part in _name_chunks(new, chunk_mentions(con)))

    # A group is decided on a worker thread while this one, which alone uses the connection, writes
    # the group before and reads the evidence of the next: the inserts and reads release the GIL.
    # One worker: one group is decided at a time (assign_persons switches the process's gc off and
    # on), and at most two groups' frames are held, the one deciding and the one read ahead; a
    # SIGTERM waits for the group deciding (~0.5 s at 1M listings) before the run ends.
    with beside_python(con, budget, held + min(new.height, chunk_mentions(con)) * BYTES_PER_MENTION):
        for group, result in on_threads(decide, groups(), threads=1, ahead=2):
            group_lap("model")  # the wait for the worker: what the writes and reads did not cover
            _write_group(con, run_id, group, result, group_lap)
            del group, result  # freed before the next group's evidence is read
    lap("decide_write")


@contextmanager
def beside_python(con: duckdb.DuckDBPyConnection, budget: str | None, n_bytes: int) -> Iterator[None]:
    """DuckDB's limit cut to DUCKDB_SHARE_BESIDE_PYTHON of `budget` (the run's setting) while
    frames of about n_bytes are held in Python: DuckDB spills or drops what it cached and gives
    the memory back, so the frames fit beside it instead of on top of the full budget. Only when
    they are larger than a sixteenth of the budget: the cut itself spills (~1 GB, 2.7 s at 1M
    listings), and frames that small (those of both bench shapes: a few MB) had room beside it."""
    if not budget or n_bytes <= memory_limit_bytes(con) / 16:
        yield
        return
    # Inside the load's transaction a SET that fails (it could not spill what it had to give
    # back: the spill folder at its cap) aborts the transaction like any statement, so there is
    # no falling back to the full budget: the run fails, with the SET's error (sql.first_error).
    con.execute("SET memory_limit = ?", [f"{int(memory_limit_bytes(con) * DUCKDB_SHARE_BESIDE_PYTHON)}B"])
    try:
        yield
    finally:
        con.execute("SET memory_limit = ?", [budget])


def _reference_shares(con: duckdb.DuckDBPyConnection) -> None:
    """ref_given and ref_surname (part, share): transforms/name_parts.csv, which commonness reads."""
    given_ref, surname_ref = reference_shares()
    write_frame(con, "CREATE OR REPLACE TEMP TABLE ref_given AS SELECT * FROM frame", given_ref)
    write_frame(con, "CREATE OR REPLACE TEMP TABLE ref_surname AS SELECT * FROM frame", surname_ref)


def _add_commonness(con: duckdb.DuckDBPyConnection, keys_table: str, n_keys: int) -> None:
    """name_lam gains the commonness of the keys of `keys_table` it lacks, counted as the run's
    first were (person_name_stats.sql: before any person of this run is written)."""
    # none is new: the run's new names are batch_keys', all in name_lam by now
    con.execute("CREATE OR REPLACE TEMP TABLE other_keys AS SELECT name_key, given_name(name_key) AS given, "
                "surname_of(name_key) AS surname, n_words(name_key) AS n_tokens, false AS is_new, "
                f"NULL::HUGEINT AS first_rank FROM (SELECT DISTINCT name_key FROM {keys_table} ANTI JOIN name_lam USING (name_key))")
    if _any(con, "other_keys"):
        run_sql_file(con, "resolve/person_name_stats.sql", {"n_keys": n_keys}, keys="other_keys")


class _Laps:
    """Seconds since the previous call, added to `timings[prefix + phase]` (when given)."""

    def __init__(self, timings: dict[str, float] | None, prefix: str) -> None:
        self.timings, self.prefix, self.last = timings, prefix, time.perf_counter()

    def __call__(self, phase: str) -> None:
        now = time.perf_counter()
        if self.timings is not None:
            key = self.prefix + phase
            self.timings[key] = self.timings.get(key, 0.0) + now - self.last
        self.last = now


def chunk_mentions(con: duckdb.DuckDBPyConnection) -> int:
    """How many mentions a group holds: an eighth of DuckDB's memory limit, at BYTES_PER_MENTION."""
    return max(MIN_CHUNK_MENTIONS, int(memory_limit_bytes(con) / 8 / BYTES_PER_MENTION))


def _name_chunks(new: pl.DataFrame, size: int) -> Iterator[pl.DataFrame]:
    """The run's mentions in groups of about `size`, every mention of a name in one group. Names
    are decided independently (their commonness is computed for all first), so deciding them
    group by group gives the same persons, and the frames in memory beside DuckDB's budget follow
    the group, not the run. The rows of each group are found once (filtering every mention for
    each group cost ~0.1 s a group at 1M distinct listings, 29 groups), and only the group's rows
    are copied out."""
    n_chunks = -(-new.height // size)
    if n_chunks <= 1:
        yield new
        return
    rows = (new.select(chunk=pl.col("name_key").hash(seed=0) % n_chunks).with_row_index("row")
            .group_by("chunk").agg("row"))
    for group_rows in rows["row"]:
        yield new[group_rows]


@dataclass
class _Group:
    """A group of common names to decide: its mentions (`part`), their stored persons, and the
    evidence read for them."""
    part: pl.DataFrame
    stored: pl.DataFrame
    papers: pl.DataFrame
    context: pl.DataFrame
    categories: pl.DataFrame


def _group_evidence(con: duckdb.DuckDBPyConnection, part: pl.DataFrame, co_authors: pl.DataFrame,
                    stored: pl.DataFrame, lap: _Laps) -> _Group:
    """The evidence of a group's mentions. co_authors: every mention of the run's papers, decided
    or not; lap: the groups' seconds per phase."""
    lap("start")  # the loop's own work between groups
    write_frame(con, "CREATE OR REPLACE TEMP TABLE chunk_papers AS SELECT DISTINCT paper_id FROM frame", part)
    papers = read_frame(con, _papers_sql("chunk_papers", source="person_papers"))
    group = _Group(part, stored.filter(pl.col("name_key").is_in(part["name_key"].unique().implode())), papers,
                   co_authors.join(papers.select("paper_id"), on="paper_id", how="semi"), _categories(con, "chunk_papers"))
    lap("evidence")
    return group


def _write_group(con: duckdb.DuckDBPyConnection, run_id: str, group: _Group, result: PersonsResult, lap: _Laps) -> None:
    """Write a group's decisions, persons and person aliases."""
    decisions = result.assignments.join(group.part.select("paper_id", "author_position", "mention_key"),
                                        on=["paper_id", "author_position"])
    insert_frame(con, "author_mention", decisions.rename({"person_id": "author_id"}).with_columns(
        decided_id=pl.col("author_id"), run_id=pl.lit(run_id)))
    lap("write_mentions")
    lams = decisions.group_by("name_key").agg(pl.col("name_lambda").first())
    given, surname = name_parts(pl.col("name_key"))
    persons = (result.persons.rename({"person_id": "author_id"})
               .join(lams, on="name_key", how="left").with_columns(given=given, surname=surname))
    _write_persons(con, persons)
    # the other persons of the names decided now: how common their name was when last decided (a
    # name with no stored person has only new ones)
    others = lams.filter(pl.col("name_key").is_in(group.stored["name_key"].implode()))
    if not others.is_empty():
        write_frame(con, "UPDATE author_person SET name_lambda = l.name_lambda FROM frame l WHERE author_person.name_key "
                         "= l.name_key AND author_person.name_lambda IS DISTINCT FROM l.name_lambda", others)
    _apply_person_aliases(con, result.aliases.with_columns(run_id=pl.lit(run_id)))
    lap("write_persons")


def _write_persons(con: duckdb.DuckDBPyConnection, persons: pl.DataFrame) -> None:
    """Persons already stored (`is_new` false: a reopened name's, one that gained a mention) are
    updated, a stored mark staying; the others are inserted. An update and an insert, not an
    upsert: author_person has no key (schemas/warehouse.sql), and most persons of a run are new.
    The update reads only the stored ones: each group's update joined every person of the table
    (29 groups at 1M distinct listings, none of them stored)."""
    stored = persons.filter(~pl.col("is_new")).drop("is_new")
    if not stored.is_empty():
        update = ", ".join(f"{c} = f.{c}" for c in ["founded_key", *EVIDENCE, "name_lambda"])
        write_frame(con, f"UPDATE author_person SET {update} FROM frame f WHERE author_person.author_id = f.author_id",
                    stored)
    insert_frame(con, "author_person", persons.drop("is_new"), conflict="ANTI JOIN author_person USING (author_id)")


def _reopen_names(con: duckdb.DuckDBPyConnection, n_new: int, n_keys: int, settings: PersonSettings) -> int:
    """Names whose stored decisions a fresh load of everything would not have made: a common name
    with a mention decided as rare (before persons existed, by a small early load, or while the
    name's statistics dipped under the line), a common name this
    run mentions earlier in the canonical order than a stored mention (older files loaded later),
    a name decided on evidence on a paper whose first listing date the run moved (either way) or
    whose words or categories it changed, a name several persons wear that is rare now. A person
    that ends so is forwarded after the author rows (resolve/person_forward.sql). Their stored mentions are taken back into new_mentions,
    to be decided again with the new ones in the order a fresh load uses (their keys:
    taken_back_keys). Reads the batch's classes (name_class); returns how many mentions were."""
    if not _has_decisions(con):  # a first load: nothing stored to take back, nor to flip
        return 0
    if n_new:  # stored names this batch does not mention whose class today's statistics turned
        run_sql_file(con, "resolve/person_flips.sql", {"rare_lambda": settings.rare_lambda, "n_keys": n_keys})
    else:  # without new mentions only a re-ordered name may reopen
        con.execute("CREATE OR REPLACE TEMP TABLE flipped_names (name_key VARCHAR, decided_rare BOOLEAN, lam DOUBLE)")
    con.execute("CREATE OR REPLACE TEMP TABLE common_keys AS SELECT name_key FROM name_class WHERE NOT is_rare "
                "UNION ALL SELECT name_key FROM flipped_names WHERE decided_rare")
    con.execute("CREATE OR REPLACE TEMP TABLE rare_again_keys AS SELECT name_key FROM name_class "
                "WHERE lam < $rare_lambda AND n_stored > 1 UNION ALL SELECT name_key FROM flipped_names WHERE NOT decided_rare",
                {"rare_lambda": settings.rare_lambda})
    run_sql_file(con, "resolve/person_reopen.sql")
    con.execute("INSERT INTO new_mentions BY NAME SELECT * FROM reopened_mentions")
    return con.execute("SELECT count(*) FROM reopened_mentions").fetchall()[0][0]


def _has_decisions(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether any mention or person was stored before this run's (a warehouse from before
    persons has its mentions by now: resolve/person_mentions.sql)."""
    return _any(con, "author_mention") or _any(con, "author_person")


def _with_evidence(con: duckdb.DuckDBPyConnection, stored: pl.DataFrame, new: pl.DataFrame) -> pl.DataFrame:
    """Stored persons of common names need their evidence; those without it (a name that was
    rare, a person that lost a mention or whose paper's list grew) get it from their stored
    mentions, with every name now on their papers (this run's new ones too) as co-authors."""
    missing = stored.filter(pl.col("paper_ids").is_null())
    if missing.is_empty():
        return stored
    write_frame(con, "CREATE OR REPLACE TEMP TABLE profile_persons AS SELECT person_id AS author_id FROM frame",
                missing)
    con.execute("CREATE OR REPLACE TEMP TABLE profile_papers AS SELECT DISTINCT paper_id FROM author_mention "
                "SEMI JOIN profile_persons USING (author_id)")
    assigned = read_frame(con, "SELECT paper_id, author_position, name_key, author_id AS person_id FROM author_mention "
                               "SEMI JOIN profile_persons USING (author_id)")
    mentions = pl.concat([read_frame(con, "SELECT paper_id, author_position, name_key FROM author_mention "
                                          "SEMI JOIN profile_papers USING (paper_id)"),
                          new.select("paper_id", "author_position", "name_key")])
    papers = _papers(con, "profile_papers")
    profiles = person_profiles(assigned, mentions, papers, _categories(con, "profile_papers"))
    founded = missing.select("person_id", old_key="founded_key")
    profiles = profiles.join(founded, on="person_id").with_columns(
        founded_key=pl.coalesce("old_key", "founded_key")).drop("old_key")  # a stored founding stays
    return pl.concat([stored.join(missing, on="person_id", how="anti"), profiles.select(stored.columns)
                      .cast(stored.schema)])


def _papers(con: duckdb.DuckDBPyConnection, papers_table: str) -> pl.DataFrame:
    return read_frame(con, _papers_sql(papers_table))


def _papers_sql(papers_table: str, source: str = "dim_paper") -> str:
    """The evidence of the papers of `papers_table`: the model reads the abstract's opening only
    (WORDS_FROM characters), so only that crosses into Python."""
    return (f"SELECT paper_id, title, left(abstract, {WORDS_FROM}) AS abstract, first_listed_on "
            f"FROM {source} SEMI JOIN {papers_table} USING (paper_id)")


def _category_info(con: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """What the model compares of a category (code, parent_code, taxonomy), as the load decided it
    (`transforms.categories`): for the codes of the batch's papers and of the stored persons'
    evidence (author_person.categories, which may hold codes of papers outside this run). The
    whole dimension: it is small (arXiv's 185 categories and the conference areas loaded)."""
    return read_frame(con, "SELECT code, parent_code, taxonomy FROM dim_category")


def _categories(con: duckdb.DuckDBPyConnection, papers_table: str) -> pl.DataFrame:
    return read_frame(con, f"SELECT b.paper_id, c.code FROM bridge_paper_category b JOIN dim_category c USING (category_id) "
                           f"SEMI JOIN (SELECT DISTINCT paper_id FROM {papers_table}) USING (paper_id)")


def _apply_person_aliases(con: duckdb.DuckDBPyConnection, aliases: pl.DataFrame) -> None:
    """Persons a mention showed to be one: the younger id points at the elder (person_alias), its
    mentions follow, and the papers of those mentions get their bridge rows again."""
    if aliases.is_empty():
        return
    write_frame(con, "CREATE OR REPLACE TEMP TABLE new_person_aliases AS SELECT * FROM frame",
                aliases.rename({"from_person_id": "from_author_id", "to_person_id": "to_author_id"}))
    run_sql_file(con, "resolve/person_aliases.sql")
