"""A person's display name (dim_author.name) is a spelling its own mentions show, never one only a
namesake wrote (a hunt's find: two persons named Yuan Wang both showed "YuAn Wang", one of them
only ever written "Yuan Wang"; four Yifan Zhangs showed "YiFan Zhang"), the same fresh or
incremental. A word in one case only ("YU LI", "Di ZHANG": a form's or a profile's noise, not a
spelling) takes its case from its name's best spelling of the same letters."""

from __future__ import annotations

import re
from pathlib import Path

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.test_persons_places import assert_every_place_kept
from tests.test_persons_warehouse import _listing, fresh_load, write

# Real records (titles, categories and author lists of ../shared/realdata's arXiv listings and ICML
# 2025; the abstracts are made up): two different Yuan Wangs, two Yifan Zhangs, and two Yu Lis one
# of whom a page wrote in capitals.
YUAN_WANG_VISION = ("cs.CV", "Monte Carlo Energy Aggregation for Mobile 3D Gaussian Splatting",
                    ["Xiaobiao Du", "YuAn Wang", "Hao Li", "Bosheng Wang", "Xun Sun", "Xin Yu"],
                    "We render Gaussian splats on phones by aggregating their energy with Monte Carlo sampling, "
                    "which halves the memory of tile-based rasterisation at the same image quality.")
YUAN_WANG_MEDICINE = ("cs.CE", "AtomiMed: Hierarchical Atomic Fact-Checking for Universal Clinical-Aware Medical "
                      "Report Evaluation",
                      ["Yuan Wang", "Wanxing Chang", "Songtao Jiang", "Shujian Gao", "Xiaotian Zhang", "Ruifeng Yuan",
                       "Weiwei Cao", "Bowen Shi", "Ling Zhang", "Zuozhu Liu", "Jianpeng Zhang"],
                      "We check medical reports fact by fact: a report is split into atomic claims, each claim is "
                      "verified against the patient record, and the verdicts are rolled up by section.")
YIFAN_ZHANG_EDITING = ("cs.CV", "MCIE: Multimodal LLM-Driven Complex Instruction Image Editing with Spatial Guidance",
                       ["Xuehai Bai", "Xiaoling Gu", "Akide Liu", "Hangjie Yuan", "YiFan Zhang", "Jack Ma"],
                       "A multimodal language model turns a complex editing instruction into regions and steps, and a "
                       "diffusion editor follows them one region at a time.")
YIFAN_ZHANG_XAI = ("cs.HC", "Comparables XAI: Faithful Example-based AI Explanations with Counterfactual Trace "
                   "Adjustments", ["Yifan Zhang", "Tianle Ren", "Fei Wang", "Brian Y Lim"],
                   "Explaining a prediction by comparable examples misleads when the examples differ in other "
                   "features; we adjust each example along a counterfactual trace before showing it.")
YU_LI_CAPITALS = ("cs.SE", "Function-to-Style Guidance of LLMs for Code Translation",
                  ["Longhui Zhang", "Bin Wang", "Jiahao Wang", "Xiaofeng Zhao", "Min Zhang", "Hao yang",
                   "Meishan Zhang", "YU LI", "Jing Li", "Jun Yu"],
                  "Language models translate code more faithfully when they first match each function's behaviour "
                  "and only then its style.")
YU_LI_MIXED = ("cs.LG", "Fishers for Free? Approximating the Fisher Information Matrix by Recycling the Squared "
               "Gradient Accumulator", ["Yu Li", "Felix Dangel", "Derek Tam", "Colin Raffel"],
               "The squared gradient accumulator that adaptive optimisers keep approximates the diagonal Fisher "
               "information well enough for model merging and pruning.")

# An ICLR 2024 list that writes surnames in capitals, as OpenReview profiles do (and shows "Kun Xu"
# twice), and an arXiv paper of another Di Zhang.
DI_ZHANG_CAPITALS = ("cs.CV", "Unified Language-Vision Pretraining in LLM with Dynamic Discrete Visual Tokenization",
                     ["Yang Jin", "Kun Xu", "Kun Xu", "Liwei Chen", "Chao Liao", "Jianchao Tan", "Quzhe Huang",
                      "Bin CHEN", "Chengru Song", "dai meng", "Di ZHANG", "Wenwu Ou", "Kun Gai", "Yadong MU"],
                     "A visual tokenizer turns an image into a variable number of discrete tokens, so a language "
                     "model reads and writes images as it does text.")
DI_ZHANG_MIXED = ("cs.RO", "Learning Native Continuation for Action Chunking Flow Policies",
                  ["Yufeng Liu", "Hang Yu", "Juntu Zhao", "Bocheng Li", "Di Zhang", "Mingzhu Li", "Wenxuan Wu",
                   "Yingdong Hu", "Junyuan Xie", "Junliang Guo", "Dequan Wang", "Yang Gao"],
                  "Flow policies that predict chunks of actions stutter between chunks; we train them to continue "
                  "the previous chunk natively and remove the stutter on three robot arms.")


def displays(warehouse: Path, name_key: str) -> dict[tuple, str]:
    """Per person of a name: its papers' titles -> its display name."""
    with duckdb.connect(str(warehouse), read_only=True) as con:
        rows = con.execute("SELECT list(p.title ORDER BY p.title), a.name FROM dim_author a "
                           "JOIN bridge_paper_author b USING (author_id) JOIN dim_paper p USING (paper_id) "
                           "WHERE a.name_key = ? GROUP BY a.author_id, a.name", [name_key]).fetchall()
    return {tuple(titles): name for titles, name in rows}


DAYS = {"2026-06-30.txt": _listing("Jun 30, 2026", [YUAN_WANG_VISION, YIFAN_ZHANG_EDITING, YU_LI_CAPITALS,
                                                    DI_ZHANG_CAPITALS]),
        "2026-07-01.txt": _listing("Jul 01, 2026", [YUAN_WANG_MEDICINE, YIFAN_ZHANG_XAI, YU_LI_MIXED, DI_ZHANG_MIXED])}


@pytest.fixture(scope="module")
def fresh_days(run_ingest, tmp_path_factory) -> Path:
    """DAYS in one run into a fresh warehouse: what either order of loading them must give."""
    return fresh_load(run_ingest, tmp_path_factory.mktemp("fresh_days"), DAYS)


@pytest.mark.parametrize("order", [list(DAYS), list(reversed(DAYS))], ids=["in date order", "newest first"])
def test_each_person_shows_a_spelling_of_its_own(run_ingest, fresh_days, tmp_path, order):
    for name in order:  # one file a run
        write(tmp_path / "land", name, DAYS[name])
        run_ingest([tmp_path / "land"], tmp_path / "incremental.duckdb")
    for warehouse in (tmp_path / "incremental.duckdb", fresh_days):
        assert displays(warehouse, "yuan wang") == {(YUAN_WANG_VISION[1],): "YuAn Wang",
                                                    (YUAN_WANG_MEDICINE[1],): "Yuan Wang"}
        assert displays(warehouse, "yifan zhang") == {(YIFAN_ZHANG_EDITING[1],): "YiFan Zhang",
                                                      (YIFAN_ZHANG_XAI[1],): "Yifan Zhang"}
        # a word in capitals is noise: the letters are the person's own, the case its name's
        assert displays(warehouse, "yu li") == {(YU_LI_CAPITALS[1],): "Yu Li", (YU_LI_MIXED[1],): "Yu Li"}
        assert displays(warehouse, "di zhang") == {(DI_ZHANG_CAPITALS[1],): "Di Zhang",
                                                   (DI_ZHANG_MIXED[1],): "Di Zhang"}
    assert_every_place_kept(tmp_path / "incremental.duckdb")


def test_a_spelling_corrected_in_an_edited_file_is_the_persons_name(run_ingest, tmp_path):
    """A person's display follows what its papers' lists show now: an edited file that corrects
    "YuAn Wang" to "Yuan Wang" renames the person (the old spelling stayed: it was the name's best
    spelling ever seen)."""
    write(tmp_path / "land", "day.txt", _listing("Jun 30, 2026", [YUAN_WANG_VISION]))
    run_ingest([tmp_path / "land"], tmp_path / "w.duckdb")
    assert displays(tmp_path / "w.duckdb", "yuan wang") == {(YUAN_WANG_VISION[1],): "YuAn Wang"}
    names = [n.replace("YuAn", "Yuan") for n in YUAN_WANG_VISION[2]]
    write(tmp_path / "land", "day.txt", _listing("Jun 30, 2026", [(*YUAN_WANG_VISION[:2], names, YUAN_WANG_VISION[3])]))
    run_ingest([tmp_path / "land"], tmp_path / "w.duckdb")
    run_ingest([tmp_path / "land"], tmp_path / "fresh.duckdb")
    assert displays(tmp_path / "w.duckdb", "yuan wang") == displays(tmp_path / "fresh.duckdb", "yuan wang") == {
        (YUAN_WANG_VISION[1],): "Yuan Wang"}


# ----------------------------------------------------------------------------- the rule, on tables
CASES = ["Yuan Wang", "YuAn Wang", "YUAN WANG", "yuan wang", "Yuan WANG", "yuan Wang"]


def _rank(name: str) -> int:
    """transforms.dedupe.author_variants' rank of a plain, unaccented spelling (case only)."""
    return (0 if name == name.upper() else 1 if name == name.lower() else 2) * 1000 + 500


@pytest.fixture(scope="module")
def empty_warehouse():
    """An in-memory warehouse with its schema, created once (~0.1 s); each example below works in
    a transaction it rolls back, so each starts from the empty tables."""
    from flows.load import ensure_schema
    from flows.sql import connect

    con = connect(Path(":memory:"))
    ensure_schema(con)
    yield con
    con.close()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.sampled_from(CASES), min_size=1, max_size=3), min_size=1, max_size=3))
def test_a_display_name_is_never_a_namesakes_capitals(empty_warehouse, persons_spellings):
    """Persons of one name, each on papers of its own spelled its own ways: each shows one of its
    own spellings, or, when its best has a word in one case only, the name's best spelling of the
    same letters; never capitals inside a word that it never wrote ("YuAn")."""
    con = empty_warehouse
    con.execute("BEGIN TRANSACTION")
    try:
        _check_display_names(con, persons_spellings)
    finally:
        con.execute("ROLLBACK")


def _check_display_names(con, persons_spellings: list[list[str]]) -> None:
    from flows.sql import run_sql_file

    rows, paper = [], 0
    for person, spellings in enumerate(persons_spellings, 1):
        for name in spellings:
            paper += 1
            rows.append((person, paper, name))
    for person in range(1, len(persons_spellings) + 1):
        con.execute("INSERT INTO author_person (author_id, name_key) VALUES (?, 'yuan wang')", [person])
    for person, paper, name in rows:
        con.execute("INSERT INTO author_mention (paper_id, author_position, mention_key, name_key, author_id, decided_id, "
                    "rule) VALUES (?, 1, 'yuan wang', 'yuan wang', ?, ?, 'joined')", [paper, person, person])
        con.execute("INSERT INTO paper_version VALUES (?, 't', 'a', [?], ['yuan wang'], NULL, true)", [paper, name])
        con.execute("INSERT INTO fact_listing (listing_id, paper_id, source_file_id, position, line_start, line_end, "
                    "format, paper_key, n_authors_shown, is_truncated) VALUES (?, ?, 1, 1, 1, 5, 'listing', ?, 1, false)",
                    [paper, paper, paper])
    for name in {name for _, _, name in rows}:
        con.execute("INSERT INTO author_name_variant VALUES ('yuan wang', ?, ?)", [name, _rank(name)])
    for table in ("touched", "moved_papers"):
        con.execute(f"CREATE TEMP TABLE {table} AS SELECT DISTINCT paper_id FROM author_mention")
    con.execute("CREATE TEMP TABLE stg_authors AS SELECT name_key FROM author_name_variant")
    run_sql_file(con, "merge/30_authors.sql", {"run_id": "r"})
    shown = dict(con.execute("SELECT author_id, name FROM dim_author").fetchall())
    every = {name for _, _, name in rows}
    caseless = re.compile(r"(^|[\s\-])([A-Z]{2,}|[a-z]+)($|[\s\-])")
    for person, spellings in enumerate(persons_spellings, 1):
        if shown[person] in spellings:
            continue
        assert shown[person] in every and any(caseless.search(s) for s in spellings), (person, shown[person], spellings)
        assert not re.search("[a-z][A-Z]", shown[person]), (person, shown[person], spellings)


def test_a_warehouse_an_older_release_named_gets_its_names_back(run_ingest, tmp_path):
    """What the previous release wrote: every person of a name under the name's best spelling
    (both Yuan Wangs "YuAn Wang"), no is_repeat column. The next run, whatever its files, names
    each person of a name worn by several again: the warehouse is then what a fresh load gives."""
    from tests.test_persons_places import LATER

    for name, text in DAYS.items():
        write(tmp_path / "land", name, text)
    run_ingest([tmp_path / "land"], tmp_path / "old.duckdb")
    with duckdb.connect(str(tmp_path / "old.duckdb")) as con:
        con.execute("UPDATE dim_author SET name = 'YuAn Wang' WHERE name_key = 'yuan wang'; "
                    "UPDATE dim_author SET name = 'YiFan Zhang' WHERE name_key = 'yifan zhang'; "
                    "ALTER TABLE author_person DROP COLUMN is_repeat")
    write(tmp_path / "land", "later.txt", LATER)  # names none of theirs
    run_ingest([tmp_path / "land"], tmp_path / "old.duckdb")
    run_ingest([tmp_path / "land"], tmp_path / "fresh.duckdb")
    names = []
    for warehouse in ("old.duckdb", "fresh.duckdb"):
        with duckdb.connect(str(tmp_path / warehouse), read_only=True) as con:
            names.append(con.execute("SELECT author_id, name, n_papers FROM dim_author ORDER BY ALL").fetchall())
    assert names[0] == names[1]
    assert displays(tmp_path / "old.duckdb", "yuan wang") == {(YUAN_WANG_VISION[1],): "YuAn Wang",
                                                              (YUAN_WANG_MEDICINE[1],): "Yuan Wang"}
