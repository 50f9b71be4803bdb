"""Build how often real digests use each non-ASCII letter, for `transforms.decode`:

    .venv/bin/python -m eval.name_letters

- transforms/name_letters.csv: the letters of the distinct author names of the real corpus in
  ../shared/realdata (arXiv listings, ICLR 2024, ICML 2025), NFC and lower-cased. A file's bytes
  that read "Yiğit" in Windows-1254 read "Yiðit" in Windows-1252, and real names carry "ğ" far
  more often than "ð".
- transforms/lone_letters.csv: the letters that stand alone (no letter beside them) in the same
  papers' titles and abstracts, as written (case kept). Alone, a letter is a symbol, not a
  name's: nearly always Greek ("$α$-tilted", "($σ$)", "Δ"). The bytes of Windows-1253's "α" read
  "á" in Windows-1252, which names carry far more often than "α".
The first line of each is the number of names or texts counted.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from pathlib import Path

from eval.namesakes import real_corpus
from transforms.decode import LONE_LETTERS_PATH, NAME_LETTER_SIDES_PATH, NAME_LETTERS_PATH, side_class


def name_letters(names: set[str]) -> Counter:
    return Counter(ch for name in names for ch in unicodedata.normalize("NFC", name).lower()
                   if not ch.isascii() and ch.isalpha())


def letter_sides(names: set[str]) -> Counter:
    """(letter, before, after) of each non-ASCII letter of the names: what stands beside it
    (`transforms.decode.side_class`)."""
    sides: Counter = Counter()
    for name in names:
        name = f" {unicodedata.normalize('NFC', name).lower()} "
        sides.update((ch, side_class(before), side_class(after)) for before, ch, after in zip(name, name[1:], name[2:])
                     if not ch.isascii() and ch.isalpha())
    return sides


def lone_letters(texts: list[str]) -> Counter:
    letters: Counter = Counter()
    for text in texts:
        text = f" {unicodedata.normalize('NFC', text)} "
        letters.update(ch for before, ch, after in zip(text, text[1:], text[2:])
                       if not ch.isascii() and ch.isalpha() and not before.isalpha() and not after.isalpha())
    return letters


def write(path: Path, counted: str, n: int, letters: Counter) -> None:
    with path.open("w", encoding="utf-8") as f:
        f.write(f"# {counted}: {n}\nletter,n\n")
        for letter, k in sorted(letters.items(), key=lambda kv: (-kv[1], kv[0])):
            f.write(f"{letter},{k}\n")
    print(f"{path}: {len(letters)} letters from {n} {counted}")


def main() -> None:
    mentions, papers, _cats = real_corpus()
    names = set(mentions["name"].to_list())
    texts = [t for col in ("title", "abstract") for t in papers[col].drop_nulls().to_list()]
    write(NAME_LETTERS_PATH, "names", len(names), name_letters(names))
    write(LONE_LETTERS_PATH, "texts", len(texts), lone_letters(texts))
    sides = letter_sides(names)
    with NAME_LETTER_SIDES_PATH.open("w", encoding="utf-8") as f:
        f.write(f"# names: {len(names)}\nletter,before,after,n\n")
        f.writelines(f"{letter},{before},{after},{k}\n" for (letter, before, after), k in sorted(sides.items()))
    print(f"{NAME_LETTER_SIDES_PATH}: {len(sides)} letters and sides from {len(names)} names")


if __name__ == "__main__":
    main()
