"""bench.corpus: rendered digest corpora match their known answer.

The files are parsed here independently of the renderer (BOM sniffing, '#NN' headers, search blocks
walked with the ICLR topic vocabulary read straight from realdata) and compared with answer.parquet
and papers.parquet.
"""

from __future__ import annotations

import json
import re
import time
import unicodedata
from collections import defaultdict
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bench import corpus
from bench.corpus import abstract_key, default_realdata, render_corpus

REALDATA = default_realdata()
pytestmark = pytest.mark.skipif(
    not (REALDATA / "iclr2024_virtualsite_topics_airas.json").is_file(),
    reason=f"real paper metadata not found at {REALDATA} (set DIGEST_REALDATA to ../shared/realdata)",
)

HEADER = re.compile(r"^#(\d{2,})((?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{2}, \d{4}) *$")
HEADERS_IN_TEXT = re.compile(r"(?m)^#\d{2,}[A-Z][a-z]{2} \d{2}, \d{4} *$")
MORE = re.compile(r" and (\d+) more$")


def decode(data: bytes) -> str:
    if data.startswith(b"\xff\xfe"):
        text = data[2:].decode("utf-16-le")
    elif data.startswith(b"\xef\xbb\xbf"):
        text = data[3:].decode("utf-8")
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("gb18030")
    return text.replace("\r\n", "\n")


def topic_lines() -> set[str]:
    recs = json.loads((REALDATA / "iclr2024_virtualsite_topics_airas.json").read_text(encoding="utf-8"))
    return {r["topic"].replace("->", " · ") for r in recs if r.get("topic")}


def parse_corpus(out: Path) -> dict[str, list[dict]]:
    """path -> records as read from the files: format, abstract, authors line, title, line_start."""
    topics = topic_lines()
    parsed: dict[str, list[dict]] = {}
    for f in sorted(out.rglob("*.txt")):
        rel = f.relative_to(out).as_posix()
        text = decode(f.read_bytes())
        assert not text.endswith("\n"), f"{rel} ends with a newline (seeds do not)"
        recs = []
        if text.startswith("#"):
            lines = text.split("\n")
            assert len(lines) % 5 == 0, rel
            n_headers = len(HEADERS_IN_TEXT.findall(text))
            for i in range(0, len(lines), 5):
                m = HEADER.match(lines[i])
                assert m, (rel, lines[i])
                assert int(m.group(1)) == i // 5 + 1, f"{rel}: rank {m.group(1)} at record {i // 5 + 1}"
                cat = lines[i + 1].rstrip()
                assert re.fullmatch(r"[a-z-]+(\.[A-Za-z-]+)?", cat), (rel, cat)
                recs.append(
                    dict(format="listing", title=lines[i + 2].rstrip(), authors=lines[i + 3].rstrip(),
                         abstract=lines[i + 4].rstrip(), line_start=i + 1, date=m.group(2), category=cat)
                )
            assert n_headers == len(recs), rel
        else:
            assert text.startswith(corpus.SEARCH_HEADER + "\n\n"), rel
            paras = text.split("\n\n")[1:]
            line = 3
            i = 0
            while i < len(paras):
                start = line
                cat = None
                if paras[i].rstrip() in topics or paras[i].rstrip() in {t.split(" · ")[0] for t in topics}:
                    cat = paras[i].rstrip()
                    i += 1
                    line += 2
                assert i + 1 < len(paras), f"{rel}: block without abstract"
                assert "\n" not in paras[i] and "\n" not in paras[i + 1]
                recs.append(dict(format="search", title=None, authors=paras[i].rstrip(),
                                 abstract=paras[i + 1].rstrip(), line_start=start, category=cat))
                i += 2
                line += 4
        parsed[rel] = recs
    return parsed


def check_corpus(out: Path, summary: dict) -> None:
    answer = pl.read_parquet(out / "answer.parquet").sort("path", "position")
    papers = pl.read_parquet(out / "papers.parquet")
    parsed = parse_corpus(out)

    # answer rows == records actually in the files
    n_files_records = sum(len(v) for v in parsed.values())
    assert answer.height == n_files_records == summary["n_listings"]
    assert set(answer["path"].unique()) == set(parsed)
    assert len(parsed) == summary["n_files"]
    assert summary["n_listing_files"] == sum(p.startswith("listing/") for p in parsed)
    assert summary["bytes"] == sum((out / p).stat().st_size for p in parsed)

    # every truth id is a paper; one row per paper; n_listings adds up
    assert papers["truth_id"].is_unique().all()
    assert papers.height == summary["n_papers"]
    assert set(answer["truth_id"].unique()) <= set(papers["truth_id"])
    counts = answer.group_by("truth_id").len()
    joined = papers.join(counts, on="truth_id", how="left")
    assert (joined["n_listings"] == joined["len"].fill_null(0)).all()
    assert (papers["n_listings"] >= 1).all()
    assert (papers["author_total"] == papers["authors"].list.len()).all()

    # titles are null exactly for papers never rendered in listing format
    in_listing = set(answer.filter(pl.col("format") == "listing")["truth_id"])
    for tid, title in zip(papers["truth_id"], papers["title"]):
        assert (title is None) == (tid not in in_listing), tid

    # each record is the truth paper (abstract key survives the noise), with the right author line
    info = {r["truth_id"]: r for r in papers.select("truth_id", "abstract", "author_total").iter_rows(named=True)}
    truth_keys: dict[str, str] = {}
    by_path = defaultdict(list)
    for row in answer.iter_rows(named=True):
        by_path[row["path"]].append(row)
    n_more = 0
    for path, rows in by_path.items():
        recs = parsed[path]
        assert [r["position"] for r in rows] == list(range(1, len(recs) + 1))
        for row, rec in zip(rows, recs):
            assert row["format"] == rec["format"]
            assert row["line_start"] == rec["line_start"]
            tid = row["truth_id"]
            key = truth_keys.get(tid) or truth_keys.setdefault(tid, abstract_key(info[tid]["abstract"]))
            if summary["shape"] == "revisions":  # a version: the first one's words, a few swapped
                assert sorted(abstract_key(rec["abstract"]).split()) == sorted(key.split()), (path, row["position"])
            else:
                assert abstract_key(rec["abstract"]) == key, (path, row["position"])
            total = info[tid]["author_total"]
            shown = rec["authors"]
            if rec["format"] == "listing":
                m = MORE.search(shown)
                if total > 3:
                    assert m and int(m.group(1)) == total - 3, (path, shown, total)
                    shown = shown[: m.start()]
                    n_more += 1
                else:
                    assert m is None, (path, shown)
                assert len(shown.split(", ")) == min(total, 3), (path, shown)
                assert row["category"] == rec["category"]
            else:
                if total > 10:
                    assert shown.endswith(" 等"), (path, shown)
                    shown = shown[:-2]
                else:
                    assert not shown.endswith(" 等")
                assert len(shown.split(", ")) == min(total, 10), (path, shown)
                assert row["category"] == rec["category"]
    assert n_more > 0


@pytest.fixture(scope="module")
def default_corpus(tmp_path_factory):
    out = tmp_path_factory.mktemp("default")
    return out, render_corpus(out)


def test_default_corpus_matches_answer(default_corpus):
    out, summary = default_corpus
    check_corpus(out, summary)
    papers = pl.read_parquet(out / "papers.parquet")
    answer = pl.read_parquet(out / "answer.parquet")
    assert summary["n_listings"] > 5000 and summary["n_papers"] > 5000
    # every real record is there: all dwdengwei/daydayarxiv/kaggle ids and the ICLR ids with abstracts
    assert summary["realdata"]["papers_arxiv"] == 3400 and summary["realdata"]["papers_iclr"] == 2271
    assert papers.filter(pl.col("is_synthetic")).height == 0
    # the abstract collision in the Kaggle sample (parts II and III, other titles) is two papers,
    # both shown with their titles only
    series = papers.filter(pl.col("truth_id").is_in(["0704.0026", "0704.0112"]))
    assert series.height == 2 and series["title"].n_unique() == 2
    formats = answer.filter(pl.col("truth_id").is_in(["0704.0026", "0704.0112"]))["format"].unique().to_list()
    assert formats == ["listing"]
    # cross-format: papers in both formats; repetition inside one file and across files
    both = answer.group_by("truth_id").agg(pl.col("format").n_unique().alias("n")).filter(pl.col("n") == 2)
    assert both.height > 300
    assert answer.group_by("path", "truth_id").len().filter(pl.col("len") > 1).height > 0
    counts = summary["noise"]
    assert all(v > 0 for v in counts["records"].values())
    assert sum(counts["files"].values()) > 0


def test_heavy_noise_is_label_preserving(tmp_path):
    noise = {"utf8_bom": 0.25, "utf16": 0.25, "gb18030": 0.25, "crlf": 0.5,
             "caps_author": 1.0, "nfd": 1.0, "nbsp": 1.0, "zwsp": 1.0, "trailing_blanks": 1.0}
    summary = render_corpus(tmp_path, n_listings=3000, seed=7, noise=noise)
    check_corpus(tmp_path, summary)
    files = pl.read_parquet(tmp_path / "files.parquet")
    assert set(files["encoding"]) == {"utf-8", "utf-8-sig", "utf-16", "gb18030"}
    assert files.filter(pl.col("encoding") == "gb18030")["format"].unique().to_list() == ["search"]


def test_same_seed_same_bytes(tmp_path):
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    render_corpus(a, n_listings=3000, seed=3)
    render_corpus(b, n_listings=3000, seed=3)
    render_corpus(c, n_listings=3000, seed=4)

    def tree(root: Path) -> dict[str, bytes]:
        return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}

    ta, tb = tree(a), tree(b)
    assert ta.keys() == tb.keys()
    for k in ta:
        assert ta[k] == tb[k], k
    assert tree(c) != ta


def test_n_listings_honoured_and_fast(tmp_path):
    t0 = time.perf_counter()
    summary = render_corpus(tmp_path, n_listings=20_000, seed=1)
    elapsed = time.perf_counter() - t0
    assert abs(summary["n_listings"] - 20_000) <= 1_000
    assert pl.read_parquet(tmp_path / "answer.parquet").height == summary["n_listings"]
    assert elapsed < 15, f"20k listings took {elapsed:.1f}s"
    papers = pl.read_parquet(tmp_path / "papers.parquet")
    # beyond the real papers: synthetic ones with unique ids and unique abstract keys
    assert papers.filter(pl.col("is_synthetic")).height > 0
    assert papers["truth_id"].is_unique().all()
    keyed = papers.with_columns(key=pl.col("abstract").map_elements(abstract_key, return_dtype=pl.String),
                                title_key=pl.col("title").map_elements(abstract_key, return_dtype=pl.String))
    assert keyed.select("key", "title_key").is_unique().all()
    assert 2.5 < summary["n_listings"] / summary["n_papers"] < 3.5


def test_rerender_replaces_old_corpus(tmp_path):
    render_corpus(tmp_path, n_listings=2000, seed=1)
    summary = render_corpus(tmp_path, n_listings=500, seed=2)
    assert len(list(tmp_path.rglob("*.txt"))) == summary["n_files"]


def test_missing_realdata_is_a_clear_error(tmp_path):
    missing = tmp_path / "no-such-dir"
    with pytest.raises(FileNotFoundError, match=re.escape(str(missing))):
        render_corpus(tmp_path / "out", realdata=missing)


def test_cli_prints_summary(tmp_path, capsys):
    assert corpus.main([str(tmp_path), "--listings", "400", "--seed", "2", "--noise", "0"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["n_listings"] == 400
    assert sum(summary["noise"]["files"].values()) == 0 and sum(summary["noise"]["records"].values()) == 0


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Zl", "Zp", "Cc")),
                     min_size=1, max_size=12), min_size=1, max_size=30),
    st.integers(0, 2**32),
)
def test_record_noise_keeps_abstract_key(words, seed):
    abstract = " ".join(words) + " Zeta-9 Déjà vu"
    noise = corpus._Noise({k: 1.0 for k in corpus.NOISE_KINDS})
    noise.rng.seed(seed)
    names = ["Leif Döring", "van der Berg"]
    shown, title, noisy, _ = noise.record(names, "A Title", abstract)
    assert abstract_key(noisy) == abstract_key(abstract)
    assert len(shown) == len(names)
    assert [unicodedata.normalize("NFKC", s.replace("\u200b", "")).casefold() for s in shown] == [
        unicodedata.normalize("NFKC", s).casefold() for s in names
    ]


# ----------------------------------------------------------------------------- shape "revisions"
def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def revisions_corpus(tmp_path_factory):
    out = tmp_path_factory.mktemp("revisions")
    return out, render_corpus(out, n_listings=2500, seed=5, noise=0, shape="revisions")


def test_revisions_shape_lists_each_paper_as_its_versions(revisions_corpus):
    """Each truth paper is a group of versions: exactly the listings asked for, all in the listing
    format, every version's abstract its own key (the first one's words, a few swapped), the
    title and author line the same in every version; the summary counts the groups."""
    out, summary = revisions_corpus
    check_corpus(out, summary)
    assert summary["n_listings"] == summary["n_listing_records"] == 2500 and summary["n_search_files"] == 0
    # no search files, but the folder all the same: bench.run and bench.profile read listing/ and search/
    assert (out / "search").is_dir() and not any((out / "search").iterdir())
    records = [(path, pos, rec) for path, recs in parse_corpus(out).items() for pos, rec in enumerate(recs, 1)]
    assert len({abstract_key(rec["abstract"]) for _, _, rec in records}) == 2500

    answer = pl.read_parquet(out / "answer.parquet")
    group_of = {(p, pos): t for p, pos, t in answer.select("path", "position", "truth_id").iter_rows()}
    shown = defaultdict(set)
    for path, pos, rec in records:
        shown[group_of[path, pos]].add((rec["title"], rec["authors"], rec["category"]))
    assert all(len(v) == 1 for v in shown.values())

    sizes = pl.read_parquet(out / "papers.parquet")["n_listings"]
    assert summary["n_papers"] == sizes.len() and sizes.sum() == 2500
    assert summary["revisions"] == {"n_groups": sizes.len(), "n_groups_over_64": (sizes > 64).sum(),
                                    "largest_group": sizes.max(), "median_group": sizes.median()}
    assert sizes.max() <= corpus.REVISIONS_MAX and (sizes == 1).sum() <= 1  # only the cut group may be 1
    assert sizes.max() > 64  # the heavy tail reaches past the resolver's block at this size


def test_revisions_shape_is_exact_and_deterministic(tmp_path, revisions_corpus):
    out, summary = revisions_corpus
    again = render_corpus(tmp_path / "again", n_listings=2500, seed=5, noise=0, shape="revisions")
    assert _tree(tmp_path / "again") == _tree(out) and again == summary
    assert render_corpus(tmp_path / "other", n_listings=2500, seed=6, noise=0, shape="revisions") != summary
    for n in (1, 2, 7, 301):
        got = render_corpus(tmp_path / f"n{n}", n_listings=n, seed=1, shape="revisions")
        assert got["n_listings"] == pl.read_parquet(tmp_path / f"n{n}" / "answer.parquet").height == n


def test_revisions_noise_keeps_every_version_its_group(tmp_path):
    """Record and file noise on the versions is label-preserving, as in the other shapes."""
    noise = {"utf8_bom": 0.2, "utf16": 0.2, "crlf": 0.3, "caps_author": 0.5, "nfd": 0.5, "nbsp": 0.5,
             "zwsp": 0.5, "trailing_blanks": 0.5}
    summary = render_corpus(tmp_path, n_listings=1500, seed=2, noise=noise, shape="revisions")
    check_corpus(tmp_path, summary)
    assert all(v > 0 for k, v in summary["noise"]["records"].items())
    keys = {abstract_key(r["abstract"]) for recs in parse_corpus(tmp_path).values() for r in recs}
    assert len(keys) == 1500


def test_revisions_plan_spans_epochs_exactly():
    """More versions than one epoch's papers give: the next epochs take their own samples, and
    the listings add up exactly."""
    rng = __import__("random").Random(3)
    base = list(range(0, 40, 2))  # 20 papers (indices into realdata, with gaps)
    plan = corpus._revision_plan(rng, base, 1000)
    assert sum(sum(sizes) for _, _, sizes in plan) == 1000 and len(plan) > 2
    assert [k for k, _, _ in plan] == list(range(len(plan)))
    for _, sel, sizes in plan:
        assert len(sel) == len(sizes) == len(set(sel)) and set(sel) <= set(base)
    assert all(len(sel) == 20 for _, sel, _ in plan[:-1])


def test_revision_group_sizes_are_heavy_tailed():
    rng = __import__("random").Random(0)
    sizes = sorted(corpus._group_size(rng) for _ in range(20_000))
    assert sizes[0] == 2 and sizes[len(sizes) // 2] == 4 and sizes[-1] == corpus.REVISIONS_MAX
    assert 0.01 < sum(v > 64 for v in sizes) / len(sizes) < 0.025  # 32.25^-1.2 = 1.55 %


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["data", "Data", "model", "the", "a-b", "—", "42", "x"]), min_size=1, max_size=12),
       st.integers(0, 2**32))
def test_revisions_of_any_abstract_are_distinct_keys(words, seed):
    """Even an abstract of a few repeated words gets as many distinct versions as asked for,
    title and authors kept (too few orders of its words: the version is numbered)."""
    import random

    first = corpus.Text("A Title", ("Ann Bee", "Cy Dee"), " ".join(words))
    synth = corpus._Synth(None, 0, {corpus._key_digest(first.abstract)})
    rng = random.Random(seed)
    versions = [synth.revision(rng, first) for _ in range(30)]
    assert len({abstract_key(v.abstract) for v in versions} | {abstract_key(first.abstract)}) == 31
    assert all((v.title, v.authors) == (first.title, first.authors) for v in versions)


def test_revisions_load_as_their_papers_by_the_answer_check(revisions_corpus, tmp_path):
    """The revisions shape loaded with `digest ingest`, checked by `python -m bench.answer_check`:
    every listing found, no paper holds two true papers' versions (versions edited apart are
    split: 691 papers for 364, README Known limitations)."""
    from bench.answer_check import check
    from support.cli import passing_cli

    out, _ = revisions_corpus
    warehouse = tmp_path / "w.duckdb"
    with passing_cli() as digest:
        digest("ingest", out, "--warehouse", warehouse)
    found = check(out, warehouse)
    assert found["listings_not_found"] == 0 and found["papers_holding_two_true_papers"] == 0
    assert found["true_papers"] <= found["papers"] == found["true_papers"] + found["papers_split_off"], found


@pytest.mark.parametrize("stored_as, corpus_name", [("latest", "rev"), ("listing", "listing")],
                         ids=["symlinked corpus", "corpus named listing"])
def test_answer_check_finds_listings_whatever_the_folder_was_named(tmp_path, stored_as, corpus_name):
    """Review 48: the warehouse stores paths under the folder as the user named it (a symlink
    `latest -> rev`; a corpus folder named like one of its own subfolders): none was matched, and
    the check said 0 merged, 0 split."""
    import duckdb

    from bench.answer_check import check

    real = tmp_path / corpus_name
    real.mkdir()
    corpus = real
    if stored_as != corpus_name:
        corpus = tmp_path / stored_as
        corpus.symlink_to(real)
    pl.DataFrame({"path": ["listing/e000/a.txt", "listing/e000/a.txt"], "line_start": [1, 6],
                  "truth_id": ["t1", "t2"]}).write_parquet(real / "answer.parquet")
    warehouse = tmp_path / "w.duckdb"
    with duckdb.connect(str(warehouse)) as con:  # the ingest's tables, as much of them as the check reads
        con.execute("CREATE TABLE dim_source_file AS SELECT 1 AS source_file_id, ? AS path", [f"{stored_as}/listing/e000/a.txt"])
        con.execute("CREATE TABLE fact_listing AS SELECT * FROM (VALUES (1, 1, 100), (1, 6, 100)) t(source_file_id, line_start, paper_id)")
        con.execute("CREATE TABLE dim_paper AS SELECT 100 AS paper_id")
    found = check(corpus, warehouse)
    assert found["listings_not_found"] == 0 and found["papers_holding_two_true_papers"] == 1
