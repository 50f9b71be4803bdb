"""Legacy code pages on real author names: `python -m eval.legacy_encodings [--seed S]`.

Another checkout's decoder on the same files: `cd /tmp && PYTHONPATH=<checkout> python
<this repo>/eval/legacy_encodings.py` (run as a script, `eval` and `transforms` come from it).

Listing files of k real non-ASCII author names (k = 1 … 20; ../shared/realdata), written in one
legacy single-byte code page, and each name alone in one, are decoded by
`transforms.decode.decode_bytes`. Each file comes
out exact, loud (a line kept only its ASCII, so its record is quarantined) or silently wrong
(another code page's letters: mojibake that loads). Western code pages (Windows-1252,
ISO-8859-15, Mac Roman) get every name they can write; the others only the names a
Windows-1252 writer could not write ("Çağrı", "Łukasz"): the files that need the page. No name
of the corpus is in Cyrillic or Greek. Held out: the letter frequencies `decode` weighs readings with
(transforms/name_letters.csv, name_letter_sides.csv) are rebuilt here from the other half of the names (by a hash of
the name), so no tested name's letters were counted.

Then CJK code pages with little CJK in them (`CJK_FEW`): the real names GBK writes with accents,
one of GBK's punctuation marks ("—", "×", "·") in an abstract and a Chinese et-al ending ("等 5 人")
on a names line; in Shift-JIS, ASCII names, a mark and a Japanese ending ("ほか", "外 2 名").
"""

from __future__ import annotations

import argparse
import math
import random
import unicodedata
import zlib
from collections import Counter

from eval.name_letters import letter_sides, lone_letters, name_letters
from eval.namesakes import real_corpus
from transforms import decode

CODE_PAGES = ["cp1252", "iso8859_15", "mac_roman", "cp1250", "iso8859_2", "cp1254", "cp1257"]
TEXT_CODE_PAGES = CODE_PAGES + ["cp1253", "iso8859_7"]  # abstracts write Greek symbols
WESTERN = {"cp1252", "iso8859_15", "mac_roman"}  # their writers write every name they can
SIZES = [1, 2, 3, 5, 10, 20]
FILES_PER_SIZE = 25


def _held_out(texts: set[str]) -> tuple[list[str], list[str]]:
    """(train, test) halves of the texts, by a hash of each."""
    train = sorted(t for t in texts if zlib.crc32(t.encode()) % 2 == 0)
    return train, sorted(t for t in texts if zlib.crc32(t.encode()) % 2 == 1)


def _smoothed(letters: Counter) -> tuple[dict[str, float], float]:
    total = sum(letters.values()) + len(letters) + 1
    return {ch: math.log((k + 1) / total) for ch, k in letters.items()}, math.log(1 / total)


def held_out_texts() -> list[str]:
    """The test half of the real titles and abstracts holding a non-ASCII letter; `decode`'s
    lone-letter table is set from the other half."""
    papers = real_corpus()[1]
    texts = {unicodedata.normalize("NFC", " ".join(t.split())) for col in ("title", "abstract")
             for t in papers[col].drop_nulls().to_list()}
    train, test = _held_out(texts)
    decode._read_letter_counts = _counts_with(decode.LONE_LETTERS_PATH, lone_letters(train))
    decode._lone_letter_log_p.cache_clear()
    return [t for t in test if any(not ch.isascii() and ch.isalpha() for ch in t)]


def _counts_with(path, counts: Counter):
    """`decode._read_letter_counts`, answering `counts` for `path`."""
    read = decode._read_letter_counts
    return lambda p: dict(counts) if p == path else read(p)


def held_out_names() -> list[str]:
    """The test half of the real names; `decode`'s letter table is set from the other half."""
    names = {unicodedata.normalize("NFC", n) for n in real_corpus()[0]["name"].to_list()}
    train, test = _held_out(names)
    table = _smoothed(name_letters(set(train)))
    decode._name_letter_log_p = lambda: table
    sides = decode.side_tables(dict(letter_sides(set(train))))
    decode._side_counts = lambda: sides
    return [n for n in test if not n.isascii()]


def pool(names: list[str], code_page: str) -> list[str]:
    def fits(name: str, page: str) -> bool:
        try:
            name.encode(page)
            return True
        except UnicodeEncodeError:
            return False
    return [n for n in names if fits(n, code_page) and (code_page in WESTERN or not fits(n, "cp1252"))]


def listing(names: list[str], abstracts: list[str] | None = None) -> str:
    abstracts = abstracts or [f"We study problem {i} in depth." for i in range(1, len(names) + 1)]
    return "".join(f"#{i:02d}Oct 26, 2026\ncs.LG\nA study of problem {i}\n{n}, Ann Lee\n{a}\n"
                   for i, (n, a) in enumerate(zip(names, abstracts), 1))


def outcome(names: list[str], abstracts: list[str] | None, page: str) -> str:
    text = listing(names, abstracts)
    got = decode.decode_bytes(text.encode(page)).text
    return "exact" if got == text else "loud" if decode.REPLACEMENT in got else "silent"


def run(seed: int) -> dict[str, tuple[Counter, Counter]]:
    """code page -> (files of 1-20 random names, each name alone in a file)."""
    return _outcomes(random.Random(seed), held_out_names(), CODE_PAGES, lambda names: (names, None))


def run_texts(seed: int) -> dict[str, tuple[Counter, Counter]]:
    """code page -> (files of 1-20 random real abstracts, each alone), under one name."""
    return _outcomes(random.Random(seed), held_out_texts(), TEXT_CODE_PAGES,
                     lambda texts: (["Ann Lee"] * len(texts), texts))


def _outcomes(rng: random.Random, items: list[str], pages: list[str], as_file) -> dict[str, tuple[Counter, Counter]]:
    """code page -> (files of 1-20 random items that need it, each item alone): `as_file` makes
    an item list the names and abstracts of a listing."""
    outcomes = {}
    for page in pages:
        candidates = pool(items, page)
        mixed = Counter(outcome(*as_file(rng.sample(candidates, min(k, len(candidates)))), page)
                        for k in SIZES for _ in range(FILES_PER_SIZE if candidates else 0))
        outcomes[page] = (mixed, Counter(outcome(*as_file([item]), page) for item in candidates))
    return outcomes


# CJK code pages whose files hold little CJK (hunt 45, F2, F3, L2): marks of the code page that
# Western text writes, in an abstract, and an et-al ending on a names line, their only CJK text.
CJK_FEW = {"gbk": (["—", "×", "·", "’", "“", "…"], ["等", "等 5 人", "等人"]),
           "cp932": (["×", "’", "“"], ["ほか", "外 2 名", "他 3 名"])}


def run_cjk(seed: int) -> dict[str, tuple[Counter, Counter]]:
    """code page -> (files of 1-20 random names, each name alone), each file with a mark and an
    ending (`CJK_FEW`); GBK writes accented names, Shift-JIS none (its names are ASCII)."""
    rng = random.Random(seed)
    names = sorted({unicodedata.normalize("NFC", n) for n in real_corpus()[0]["name"].to_list()})
    outcomes = {}
    for page, (marks, endings) in CJK_FEW.items():
        candidates = [n for n in names if n.isascii() == (page == "cp932") and _writes(page, n)]

        def one(picked: list[str]) -> str:
            abstracts = [f"We study problem {i} in depth." for i in range(1, len(picked) + 1)]
            at = rng.randrange(len(picked))
            abstracts[at] = abstracts[at].replace(" in ", f" {rng.choice(marks)} ", 1)
            text = listing(picked, abstracts)
            line = f"{rng.choice(picked)}, Ann Lee\n"
            text = text.replace(line, f"{line[:-1]} {rng.choice(endings)}\n", 1)
            got = decode.decode_bytes(text.encode(page)).text
            return "exact" if got == text else "loud" if decode.REPLACEMENT in got else "silent"

        mixed = Counter(one(rng.sample(candidates, k)) for k in SIZES for _ in range(FILES_PER_SIZE))
        outcomes[page] = (mixed, Counter(one([n]) for n in candidates[:500]))
    return outcomes


def _writes(page: str, text: str) -> bool:
    try:
        text.encode(page)
        return True
    except UnicodeEncodeError:
        return False


def print_table(what: str, outcomes: dict[str, tuple[Counter, Counter]]) -> None:
    print(f"| code page | {what} | 1-20 {what}: exact / loud / silently wrong | one alone: exact / loud / silently wrong |")
    print("|---|---:|---|---|")
    for page, (mixed, alone) in outcomes.items():
        shown = [" / ".join(str(c[k]) for k in ("exact", "loud", "silent")) for c in (mixed, alone)]
        print(f"| {page} | {sum(alone.values())} | {shown[0]} | {shown[1]} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--windows-1252-factor", type=float, default=None,
                        help="decode's bar for a reading to beat Windows-1252 (default: its own)")
    args = parser.parse_args()
    if args.windows_1252_factor is not None:
        decode._WINDOWS_1252_FACTOR = args.windows_1252_factor
    print(f"seed {args.seed}: files of 1-20 held-out real names ({FILES_PER_SIZE} per size), and each name alone\n")
    print_table("names", run(args.seed))
    print(f"\nfiles of 1-20 held-out real abstracts and titles with a non-ASCII letter, and each alone\n")
    print_table("texts", run_texts(args.seed))
    print("\nfiles of 1-20 real names in a CJK code page whose only CJK text is an et-al ending, with a mark"
          " of the code page in an abstract, and each name alone\n")
    print_table("names", run_cjk(args.seed))


if __name__ == "__main__":
    main()
