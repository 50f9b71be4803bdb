"""Build the reference name-part frequencies of `transforms.persons` (transforms/name_parts.csv):

    .venv/bin/python -m eval.name_reference

Given names (first word) and surnames (last word) of the distinct two-or-more-word name keys
of the real corpus in ../shared/realdata (arXiv cs listings, ICLR 2024, ICML 2025), with how
many keys carry each; parts carried by fewer than MIN_KEYS keys are left out (they count as
unseen). The first line is the number of keys. A prior only: a warehouse's own counts take over
as it grows (`transforms.persons.REFERENCE_WEIGHT`).
"""

from __future__ import annotations

import polars as pl

from eval.namesakes import real_corpus
from transforms.persons import REFERENCE_PATH, name_parts

MIN_KEYS = 2


def build() -> pl.DataFrame:
    mentions, _papers, _cats = real_corpus()
    keys = mentions.select(name_key=pl.col("truth")).unique().filter(pl.col("name_key").str.contains(" "))
    given, surname = name_parts(pl.col("name_key"))
    keys = keys.with_columns(given=given, surname=surname)
    parts = pl.concat([keys.group_by(part="given").len().with_columns(kind=pl.lit("given")),
                       keys.group_by(part="surname").len().with_columns(kind=pl.lit("surname"))])
    parts = parts.filter(pl.col("len") >= MIN_KEYS).select("kind", "part", n="len").sort("kind", "n", "part",
                                                                                        descending=[False, True, False])
    return parts, keys.height


def main() -> None:
    parts, n_keys = build()
    with REFERENCE_PATH.open("w", encoding="utf-8") as f:
        f.write(f"# name keys: {n_keys}\n")
        parts.write_csv(f)
    print(f"{REFERENCE_PATH}: {parts.height} parts from {n_keys} name keys")


if __name__ == "__main__":
    main()
