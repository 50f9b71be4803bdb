"""Build how often real author names use each non-ASCII letter (transforms/name_letters.csv):

    .venv/bin/python -m eval.name_letters

From the distinct author names of the real corpus in ../shared/realdata (arXiv listings, ICLR
2024, ICML 2025), NFC and lower-cased. `transforms.decode` weighs legacy readings with it: a
file's bytes that read "Yiğit" in Windows-1254 read "Yiðit" in Windows-1252, and real names
carry "ğ" far more often than "ð". The first line is the number of names.
"""

from __future__ import annotations

import unicodedata
from collections import Counter

from eval.namesakes import real_corpus
from transforms.decode import NAME_LETTERS_PATH


def build() -> tuple[Counter, int]:
    mentions, _papers, _cats = real_corpus()
    names = set(mentions["name"].to_list())
    letters: Counter = Counter()
    for name in names:
        letters.update(ch for ch in unicodedata.normalize("NFC", name).lower() if not ch.isascii() and ch.isalpha())
    return letters, len(names)


def main() -> None:
    letters, n_names = build()
    with NAME_LETTERS_PATH.open("w", encoding="utf-8") as f:
        f.write(f"# names: {n_names}\nletter,n\n")
        for letter, n in sorted(letters.items(), key=lambda kv: (-kv[1], kv[0])):
            f.write(f"{letter},{n}\n")
    print(f"{NAME_LETTERS_PATH}: {len(letters)} letters from {n_names} names")


if __name__ == "__main__":
    main()
