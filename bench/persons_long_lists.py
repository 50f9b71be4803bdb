"""The person model on a collaboration's long author lists: `python -m bench.persons_long_lists [N_NAMES]`.

Three papers, each listing the same N_NAMES (default 3,000) common names (frequent given names
and surnames of transforms/name_parts.csv): every name is common, so every mention goes through
the evidence loop. Prints the seconds per stage of `assign_persons`, the decisions and the peak
memory the call added. A mention reads at most MAX_COAUTHORS co-authors, so time and memory grow
with the list, not with its square. Two checkouts side by side: run it from another folder with
`PYTHONPATH=<checkout>` (`cd /tmp && PYTHONPATH=<checkout> python -m bench.persons_long_lists 6000`).
"""

from __future__ import annotations

import datetime as dt
import resource
import sys
import time

import polars as pl

from transforms.persons import assign_persons, reference_shares


def frames(n_names: int) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    given, surname = reference_shares()
    top = lambda f: f.sort("share", descending=True)["part"].head(int(n_names ** 0.5) + 1).to_list()  # noqa: E731
    names = [f"{g} {s}" for g in top(given) for s in top(surname)][:n_names]
    mentions = pl.DataFrame([(paper, i + 1, n) for paper in range(3) for i, n in enumerate(names)],
                            schema={"paper_id": pl.Int64, "author_position": pl.Int32, "name_key": pl.String}, orient="row")
    papers = pl.DataFrame({"paper_id": [0, 1, 2], "title": ["Measurement of a cross section"] * 3,
                           "abstract": ["We measure it."] * 3, "first_listed_on": [dt.date(2027, 1, d) for d in (1, 2, 3)]})
    return mentions, papers, pl.DataFrame({"paper_id": [0, 1, 2], "code": ["hep-ex"] * 3})


def main(argv: list[str] | None = None) -> int:
    n_names = int((argv or sys.argv[1:] or ["3000"])[0])
    mentions, papers, categories = frames(n_names)
    timings: dict[str, float] = {}
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    result = assign_persons(mentions, papers, categories, timings=timings)
    added_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before) // 1024
    print(f"3 papers x {n_names} common names: {time.perf_counter() - started:.2f} s, peak +{added_mib} MiB",
          {k: round(v, 2) for k, v in timings.items() if not k.endswith("_cpu")},
          dict(result.assignments["rule"].value_counts().iter_rows()), f"{result.persons.height} persons")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
