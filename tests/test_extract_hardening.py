"""flows/extract.py without a flow: what discovery and reading do with links, special files,
size limits, archives and fingerprints (issue 14; the CLI runs are in test_hardening.py)."""

from __future__ import annotations

import gzip
import io
import lzma
import os
import tarfile
import threading
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flows import extract

LIMITS = extract.ReadLimits(max_file_bytes=1000)


def found_by_path(folder: Path, limits=LIMITS) -> dict[str, extract.FoundFile]:
    return {f.path: f for f in extract.discover([folder], limits=limits)[1]}


def test_an_outside_link_is_read_only_when_the_setting_allows_it(tmp_path):
    (tmp_path / "secret.txt").write_text("secret")
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "link.txt").symlink_to(tmp_path / "secret.txt")
    (inbox / "zero.txt").symlink_to("/dev/zero")
    refused = found_by_path(inbox)
    assert "outside the ingest root" in refused["inbox/link.txt"].skip_reason
    allowed = found_by_path(inbox, extract.ReadLimits(1000, follow_outside_root=True))
    assert allowed["inbox/link.txt"].skip_reason is None
    assert "a character device, not a regular file" in allowed["inbox/zero.txt"].skip_reason
    sources, _, skipped = extract.read_sources(list(allowed.values()), LIMITS)
    assert [s.data for s in sources] == [b"secret"] and skipped["path"].to_list() == ["inbox/zero.txt"]


def test_a_file_that_grows_past_the_limit_after_discovery_is_not_read_past_it(tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "a.txt").write_bytes(b"x" * 10)
    found = list(found_by_path(inbox).values())
    (inbox / "a.txt").write_bytes(b"x" * 5000)
    sources, _, skipped = extract.read_sources(found, LIMITS)
    assert not sources and "larger than the size limit of 1,000 bytes" in skipped["reason"][0]


class _StaleSize:
    """os.fstat as seen by a reader that lost a race with a writer: the size `grown_by` short."""

    def __init__(self, grown_by: int) -> None:
        self.grown_by, self.fstat = grown_by, os.fstat

    def __call__(self, fd: int):
        st = self.fstat(fd)
        fields = list(st)
        fields[6] = max(st.st_size - self.grown_by, 0)  # st_size
        return os.stat_result(fields)


def test_a_file_that_grows_while_it_is_opened_is_read_whole_or_refused(tmp_path, monkeypatch):
    """Reading asks for the size fstat gave, then for whatever came after it (bounded)."""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "a.txt").write_bytes(b"a" * 600)
    (inbox / "b.txt").write_bytes(b"b" * 1500)
    found = sorted(found_by_path(inbox, extract.ReadLimits(2000)).values(), key=lambda f: f.path)
    monkeypatch.setattr(extract.os, "fstat", _StaleSize(500))
    sources, _, skipped = extract.read_sources(found, LIMITS)
    assert [s.data for s in sources] == [b"a" * 600]
    assert skipped["path"].to_list() == ["inbox/b.txt"] and "larger than the size limit" in skipped["reason"][0]


def test_a_regular_file_that_reports_size_zero_is_read_whole(tmp_path, monkeypatch):
    """As /proc's files do: the size fstat gives is not a bound on what can be read."""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "a.txt").write_bytes(b"0123456789" * 50)
    found = list(found_by_path(inbox).values())
    monkeypatch.setattr(extract.os, "fstat", _StaleSize(10**9))
    sources, _, skipped = extract.read_sources(found, LIMITS)
    assert [s.data for s in sources] == [b"0123456789" * 50] and skipped.is_empty()


def test_a_fifo_swapped_in_after_discovery_is_never_opened(tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "a.txt").write_bytes(b"x")
    found = list(found_by_path(inbox).values())
    (inbox / "a.txt").unlink()
    os.mkfifo(inbox / "a.txt")
    sources, _, skipped = extract.read_sources(found, LIMITS)  # an open() would block forever
    assert not sources and "a FIFO" in skipped["reason"][0]


def test_a_socket_swapped_in_after_discovery_is_skipped_with_a_reason(tmp_path):
    """A socket is refused before it is opened (opening one fails: ENXIO on Linux, EOPNOTSUPP on
    macOS), with a reason, not as an I/O error to try again."""
    import socket

    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "a.txt").write_bytes(b"x")
    found = list(found_by_path(inbox).values())
    (inbox / "a.txt").unlink()
    with socket.socket(socket.AF_UNIX) as listening:
        listening.bind(str(inbox / "a.txt"))
        sources, _, skipped = extract.read_sources(found, LIMITS)
    assert not sources and skipped["reason"].to_list() == ["cannot be read: a socket, not a regular file"]


def test_one_parse_task_reads_its_files_at_a_time(tmp_path, monkeypatch):
    """Each file costs a few system calls, and each lets go of the GIL: with four parse tasks
    reading at once every call waited for it again (`bench.many_files reads`: 44,945 files in 4
    batches, 3.5-3.9 s one after the other, 8.8-9.5 s at once). Reads are one task at a time;
    what the batch holds is unchanged."""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    for i in range(24):
        (inbox / f"{i:02d}.txt").write_bytes(b"%d" % i * 10)
    found = sorted(found_by_path(inbox).values(), key=lambda f: f.path)
    batches = [found[i::4] for i in range(4)]
    readers, peak, guard, fstat = [0], [0], threading.Lock(), os.fstat

    def fstat_of_a_reader(fd):  # every read asks for the size of what it opened
        with guard:
            readers[0] += 1
            peak[0] = max(peak[0], readers[0])
        time.sleep(0.002)
        with guard:
            readers[0] -= 1
        return fstat(fd)

    monkeypatch.setattr(extract.os, "fstat", fstat_of_a_reader)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda batch: extract.read_sources(batch, LIMITS)[0], batches))
    assert peak[0] == 1
    assert [[s.data for s in sources] for sources in results] == [
        [(inbox / f.path.split("/")[-1]).read_bytes() for f in batch] for batch in batches]


@pytest.mark.skipif(not os.path.exists("/proc/kallsyms"), reason="no /proc/kallsyms")
def test_a_file_that_says_size_zero_and_comes_a_page_at_a_time_is_read_whole():
    """/proc's files say size 0 and answer a read of 1 MB with one page: a short read is not
    their end."""
    proc = extract.FoundFile("/proc/kallsyms", "kallsyms", 0, 0)
    sources, _, skipped = extract.read_sources([proc], extract.ReadLimits(1 << 30))
    with open("/proc/kallsyms", "rb") as handle:
        whole = handle.read()
    assert skipped.is_empty() and len(whole) > 8192 and sources[0].data == whole


def test_a_folder_tree_deeper_than_the_recursion_limit_is_walked(tmp_path):
    """The walk called itself for each folder: a tree ~500 folders deep failed the run with
    "maximum recursion depth exceeded"."""
    inbox = tmp_path / "inbox"
    deepest = inbox.joinpath(*["d"] * 600)
    deepest.mkdir(parents=True)
    (deepest / "x.txt").write_text("x")
    (inbox / "a.txt").write_text("a")
    found = found_by_path(inbox)
    assert sorted(found) == ["inbox/a.txt", "inbox/" + "d/" * 600 + "x.txt"]
    assert all(f.skip_reason is None for f in found.values())


def test_names_that_look_alike_once_escaped_stay_distinct(tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    Path(os.fsdecode(os.fsencode(inbox) + b"/caf\xe9.txt")).write_text("a")
    (inbox / "caf\\xe9.txt").write_text("b")
    (inbox / "café.txt").write_text("c")
    assert sorted(found_by_path(inbox)) == ["inbox/caf\\\\xe9.txt", "inbox/caf\\xe9.txt", "inbox/café.txt"]


def test_a_folder_named_like_an_archive_member_keeps_its_own_path(tmp_path):
    """A folder "a.zip!" beside the archive "a.zip": its file's path was the member's, "a.zip!/m.txt",
    and a later run took it for a new version of the member (the member's listings left the
    warehouse); in one run, two current versions of one path failed the run."""
    inbox = tmp_path / "in"
    (inbox / "a.zip!" / "sub!").mkdir(parents=True)
    with zipfile.ZipFile(inbox / "a.zip", "w") as archive:
        archive.writestr("m.txt", b"member")
    (inbox / "a.zip!" / "m.txt").write_text("folder")
    (inbox / "a.zip!" / "sub!" / "n.txt").write_text("deeper")
    sources, _, _ = extract.read_sources(list(found_by_path(inbox).values()), LIMITS)
    assert sorted((s.path, s.data) for s in sources) == [
        ("in/a.zip!/m.txt", b"member"), ("in/a.zip\\x21/m.txt", b"folder"), ("in/a.zip\\x21/sub\\x21/n.txt", b"deeper")]
    named = found_by_path(inbox / "a.zip!" / "m.txt")  # a file named on the command line
    assert list(named) == ["a.zip\\x21/m.txt"]


def test_an_archive_member_named_like_a_nested_archives_member_keeps_its_own_path(tmp_path):
    """Inside one zip, a folder "a.zip!" beside a nested "a.zip": the members' names were joined
    as they were, and both were "outer.zip!/a.zip!/m.txt"."""
    inner = io.BytesIO()
    with zipfile.ZipFile(inner, "w") as archive:
        archive.writestr("m.txt", b"nested")
    inbox = tmp_path / "in"
    inbox.mkdir()
    with zipfile.ZipFile(inbox / "outer.zip", "w") as archive:
        archive.writestr("a.zip", inner.getvalue())
        archive.writestr("a.zip!/m.txt", b"folder")
    sources, _, _ = extract.read_sources(list(found_by_path(inbox).values()), LIMITS)
    assert sorted((s.path, s.data) for s in sources) == [
        ("in/outer.zip!/a.zip!/m.txt", b"nested"), ("in/outer.zip!/a.zip\\x21/m.txt", b"folder")]


def test_archives_unpack_within_the_limit_in_all(tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    with zipfile.ZipFile(inbox / "two.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("a.txt", b"a" * 600)
        archive.writestr("b.txt", b"b" * 600)  # 1,200 bytes in all: over the limit
    with zipfile.ZipFile(inbox / "ok.zip", "w") as archive:
        archive.writestr("dir/", b"")
        archive.writestr("dir/a.txt", b"a" * 600)
    (inbox / "one.txt.gz").write_bytes(gzip.compress(b"z" * 900))
    sources, meta, skipped = extract.read_sources(list(found_by_path(inbox).values()), LIMITS)
    assert sorted(s.path for s in sources) == ["inbox/ok.zip!/dir/a.txt", "inbox/one.txt.gz!/one.txt"]
    assert skipped["path"].to_list() == ["inbox/two.zip"] and "unpacks to more" in skipped["reason"][0]
    assert meta["size_bytes"].sort().to_list() == [600, 900]


def _tar(members: dict[str, bytes]) -> bytes:
    packed = io.BytesIO()
    with tarfile.open(fileobj=packed, mode="w") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
        link = tarfile.TarInfo("./etc-link")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        archive.addfile(link)
    return packed.getvalue()


def test_tars_nested_archives_and_misnamed_packing_are_unpacked(tmp_path):
    """An archive of digests as people keep them: a .tgz made with `tar -C dir .` (members named
    ./x), a .tar.xz of .gz files, a zip of .gz files, a gzip file named .txt. Each text is read
    as a source of its own; hidden members and links are left out. All were one "binary file"
    quarantine row before."""
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    (inbox / "a.tgz").write_bytes(gzip.compress(_tar({"./day1.txt": b"one", "./.DS_Store": b"x"})))
    (inbox / "b.tar.xz").write_bytes(lzma.compress(_tar({"2026/day2.txt.gz": gzip.compress(b"two")})))
    with zipfile.ZipFile(inbox / "c.zip", "w") as archive:
        archive.writestr("day3.txt.gz", gzip.compress(b"three"))
        archive.writestr("__MACOSX/._day3.txt.gz", b"resource fork")
    (inbox / "d.txt").write_bytes(gzip.compress(b"four"))
    limits = extract.ReadLimits(max_file_bytes=100_000)  # a tar is written in records of 10 KiB
    sources, _, skipped = extract.read_sources(list(found_by_path(inbox, limits).values()), limits)
    assert {s.path: s.data for s in sources} == {
        "inbox/a.tgz!/a.tar!/day1.txt": b"one", "inbox/b.tar.xz!/b.tar!/2026/day2.txt.gz!/day2.txt": b"two",
        "inbox/c.zip!/day3.txt.gz!/day3.txt": b"three", "inbox/d.txt!/d.txt": b"four"}
    assert skipped.is_empty()


def test_nesting_is_bounded_and_unpacked_text_counts_against_the_limit_in_all(tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    deep = b"text"
    for _ in range(extract.MAX_NESTING + 1):
        deep = gzip.compress(deep)
    (inbox / "deep.gz").write_bytes(deep)
    with zipfile.ZipFile(inbox / "bomb.zip", "w") as archive:  # small packed, 1,200 bytes of text in all
        archive.writestr("a.txt.gz", gzip.compress(b"a" * 600))
        archive.writestr("b.txt.gz", gzip.compress(b"b" * 600))
    sources, _, skipped = extract.read_sources(list(found_by_path(inbox).values()), LIMITS)
    reasons = dict(skipped.iter_rows())
    assert not sources
    assert "nested more than" in reasons["inbox/deep.gz"]
    assert "unpacks to more than the size limit" in reasons["inbox/bomb.zip"]


def test_text_is_never_taken_for_an_archive_by_its_first_bytes(tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    text = (b"#01Oct 26, 2026\ncs.LG\n" + b"x" * 300)[:257] + b"ustard and BZh91AY&SY" + b"y" * 300
    (inbox / "plain.txt").write_bytes(text)
    (inbox / "BZh.txt").write_bytes(b"BZh9 is not bzip2 without its block magic")
    sources, _, skipped = extract.read_sources(list(found_by_path(inbox).values()), LIMITS)
    assert sorted(s.path for s in sources) == ["inbox/BZh.txt", "inbox/plain.txt"] and skipped.is_empty()


def test_a_truncated_zip_is_skipped_with_a_reason(tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        archive.writestr("a.txt", b"a" * 100)
    (inbox / "cut.zip").write_bytes(packed.getvalue()[:40])
    sources, _, skipped = extract.read_sources(list(found_by_path(inbox).values()), LIMITS)
    assert not sources and "corrupt or unsupported .zip archive" in skipped["reason"][0]


def test_unchanged_needs_the_whole_fingerprint_and_matches_archives_by_their_members():
    import duckdb

    found = [extract.FoundFile("/x/a.txt", "in/a.txt", 5, 10, 20, 30, location="/x/a.txt"),
             extract.FoundFile("/x/b.zip", "in/b.zip", 50, 10, 20, 31, location="/x/b.zip"),
             extract.FoundFile("/x/c.txt", "in/c.txt", 5, 10, 21, 32, location="/x/c.txt"),
             extract.FoundFile("/y/e.txt", "in/e.txt", 5, 10, 20, 34, location="/y/e.txt"),
             extract.FoundFile("/x/f.txt", "in/f.txt", 5, 10, 20, 35, location="/x/f.txt"),
             extract.FoundFile("/x/g.txt", "in/g.txt", 5, 10, 20, 36, location="/x/g.txt")]
    con = duckdb.connect()
    con.execute("CREATE TABLE dim_source_file (path VARCHAR, mtime_ns BIGINT, ctime_ns BIGINT, inode BIGINT, "
                "location VARCHAR, is_current BOOLEAN DEFAULT true)")
    con.execute("INSERT INTO dim_source_file BY POSITION VALUES ('in/a.txt', 10, 20, 30, '/x/a.txt', true), "
                "('in/b.zip!/m.txt', 10, 20, 31, '/x/b.zip!/m.txt', true), ('in/c.txt', 10, 20, 32, '/x/c.txt', true), "
                "('in/d.txt', NULL, 20, 33, '/x/d.txt', true), "
                "('in/e.txt', 10, 20, 34, '/x/e.txt', true), "  # moved since: read once, its location kept
                "('in/f.txt', 10, 20, 35, NULL, true), "  # from before locations: read once too
                # its plain version and its member both current (code before packings were compared): read once
                "('in/g.txt', 1, 2, 3, '/x/g.txt', true), ('in/g.txt!/g.txt', 10, 20, 36, '/x/g.txt!/g.txt', true)")
    assert extract.unchanged(found, extract.fingerprints(con)) == {"in/a.txt", "in/b.zip"}
    con.execute("UPDATE dim_source_file SET is_current = false WHERE path = 'in/g.txt'")  # as the merge leaves it now
    assert extract.unchanged(found, extract.fingerprints(con)) == {"in/a.txt", "in/b.zip", "in/g.txt"}
    old = duckdb.connect()
    old.execute("CREATE TABLE dim_source_file (path VARCHAR, mtime_ns BIGINT, ctime_ns BIGINT, inode BIGINT)")
    assert extract.fingerprints(old) == set()  # a warehouse from before the columns


NAME_BYTES = st.lists(st.sampled_from([b"a", b"Z", b"0", b".", b"-", b" ", b"\\", b"\xe9", b"\xc3\xa9", b"\xff", b"~"]),
                      min_size=1, max_size=6).map(b"".join).filter(lambda n: n not in (b".", b".."))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tree=st.lists(st.lists(NAME_BYTES, min_size=1, max_size=3), min_size=1, max_size=12))
def test_discovery_finds_what_a_plain_walk_finds(tmp_path_factory, tree):
    """Every regular file not hidden below the folder, once, by its escaped relative path, with
    its stat fingerprint; files and folders of any byte name (the walk works on strings and
    scandir entries, not Path objects: issue 15)."""
    inbox = os.fsencode(tmp_path_factory.mktemp("walk")) + b"/inbox"
    os.mkdir(inbox)
    for parts in tree:
        folder = os.path.join(inbox, *parts[:-1])
        target = os.path.join(folder, parts[-1])
        try:
            os.makedirs(folder, exist_ok=True)
            if not os.path.exists(target):
                with open(target, "wb") as handle:
                    handle.write(b"x" * len(parts))
        except (FileExistsError, NotADirectoryError):
            pass  # a name already used for a file (or a folder): the tree keeps the first
    expected = {}
    for folder, dirs, files in os.walk(inbox):
        dirs[:] = [d for d in dirs if not d.startswith(b".")]
        for name in files:
            if not name.startswith(b"."):
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, os.path.dirname(inbox))
                shown = os.fsdecode(rel).replace("\\", "\\\\").encode("utf-8", "surrogateescape").decode(
                    "utf-8", "backslashreplace")
                expected[shown] = (os.fsdecode(path), os.stat(path).st_size)
    found = found_by_path(Path(os.fsdecode(inbox)), extract.ReadLimits())
    assert {k: (f.abs_path, f.size_bytes) for k, f in found.items()} == expected
    assert all(f.skip_reason is None and f.inode and f.mtime_ns for f in found.values())


def test_bench_discovery_times_both_walks_and_checks_they_agree(tmp_path, capsys):
    """bench.discovery (the README's walk figures): this checkout's walk beside another copy's."""
    from bench import discovery as bench_discovery

    inbox = tmp_path / "inbox" / "sub"
    inbox.mkdir(parents=True)
    for name in ("a.txt", "b.txt", ".hidden"):
        (inbox / name).write_text(name)
    repo = Path(extract.__file__).resolve().parent.parent
    bench_discovery.main([str(tmp_path / "inbox"), "--old", str(repo), "--rounds", "1"])
    out = capsys.readouterr().out
    assert out.startswith("2 files;") and "new:" in out and "old:" in out


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(size=st.integers(0, 5000), limit=st.integers(0, 3000), hint=st.integers(0, 6000),
       kind=st.sampled_from(["plain", "gz", "bz2", "zip"]))
def test_reading_in_pieces_gives_what_one_read_of_the_limit_gave(size, limit, hint, kind):
    """`_read_at_most` (files, and gzip, bz2 and zip members) returns the bytes `read(limit + 1)`
    returned, whatever the size hint: too small, right, or too large (a zip may claim any size)."""
    import bz2

    data = bytes(range(256)) * (size // 256) + bytes(size % 256)

    def stream():
        if kind == "gz":
            return gzip.GzipFile(fileobj=io.BytesIO(gzip.compress(data)))
        if kind == "bz2":
            return bz2.BZ2File(io.BytesIO(bz2.compress(data)))
        if kind == "zip":
            packed = io.BytesIO()
            with zipfile.ZipFile(packed, "w") as archive:
                archive.writestr("a.txt", data)
            return zipfile.ZipFile(io.BytesIO(packed.getvalue())).open("a.txt")
        return io.BufferedReader(io.BytesIO(data))

    with stream() as whole, stream() as pieces:
        assert extract._read_at_most(pieces, limit, hint) == whole.read(limit + 1)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(size=st.integers(0, 5000), limit=st.integers(0, 3000), hint=st.integers(0, 6000))
def test_reading_a_file_to_its_end_gives_what_one_read_of_the_limit_gave(tmp_path, size, limit, hint):
    """`_read_to_end` returns a file's first limit + 1 bytes whatever size fstat claimed (too
    small: a file that grew; too large: one that shrank; 0: /proc)."""
    path = tmp_path / "f.txt"
    data = bytes(range(256)) * (size // 256) + bytes(size % 256)
    path.write_bytes(data)
    fd = os.open(path, os.O_RDONLY)
    try:
        assert extract._read_to_end(fd, limit, hint) == data[: limit + 1]
    finally:
        os.close(fd)


@given(text=st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="".join(
    map(chr, [*range(9), *range(11, 13), *range(14, 32)])))), name=st.sampled_from(["a.txt", "b", "c.html"]))
def test_no_text_is_taken_for_packed_bytes(text, name):
    """What is packed is told by the bytes first: text in any encoding that has no control
    characters (UTF-8, UTF-16 with its BOM, GB18030) never looks packed."""
    for encoding in ("utf-8", "utf-16", "gb18030"):
        assert extract._packing(name, text.encode(encoding)) == ""


def test_a_zip_of_many_members_unpacks_in_time_linear_in_them():
    """The budget left was summed again over every member unpacked so far: quadratic in the
    members (20,000 one-line files: 8.1 s; 100,000, as a scraper that saves each paper keeps
    them, minutes). A guard, not a benchmark: linear takes ~0.5 s here for 30,000."""
    import time

    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w") as archive:
        for i in range(30_000):
            archive.writestr(f"d/{i}.txt", b"#01Oct 26, 2026\n")
    started = time.perf_counter()
    members = extract._unpack("x.zip", packed.getvalue(), 1 << 30, depth=0)
    assert len(members) == 30_000 and time.perf_counter() - started < 10
