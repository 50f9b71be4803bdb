"""The person model on a collaboration's long author lists:
`python -m bench.persons_long_lists [N_NAMES] [--papers P] [--common F]`.

P papers (default 3), each listing the same N_NAMES (default 3,000) names: by default all common
(frequent given names and surnames of transforms/name_parts.csv), so every mention goes through
the evidence loop; `--common 0.05` makes that share common and the rest rare (invented), as a
collaboration's list is, whose rare names are decided without the loop but read as co-authors.
Prints the seconds per stage of `assign_persons`, the decisions and the peak memory the call
added. A mention reads at most MAX_COAUTHORS co-authors, so time and memory grow with the list,
not with its square. Two checkouts side by side: run it from another folder with
`PYTHONPATH=<checkout>` (`cd /tmp && PYTHONPATH=<checkout> python -m bench.persons_long_lists 6000`).
"""

from __future__ import annotations

import argparse
import datetime as dt
import resource
import sys
import time

import polars as pl

from transforms.persons import assign_persons, reference_shares


def frames(n_names: int, n_papers: int = 3, common: float = 1.0) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    given, surname = reference_shares()
    n_common = round(n_names * common)
    top = lambda f: f.sort("share", descending=True)["part"].head(int(n_common ** 0.5) + 1).to_list()  # noqa: E731
    names = [f"{g} {s}" for g in top(given) for s in top(surname)][:n_common]
    names += [f"qzx{i} vrblk{i}" for i in range(n_names - len(names))]  # rare: no one else wears them
    mentions = pl.DataFrame([(paper, i + 1, n) for paper in range(n_papers) for i, n in enumerate(names)],
                            schema={"paper_id": pl.Int64, "author_position": pl.Int32, "name_key": pl.String}, orient="row")
    ids = list(range(n_papers))
    papers = pl.DataFrame({"paper_id": ids, "title": ["Measurement of a cross section"] * n_papers,
                           "abstract": ["We measure it."] * n_papers,
                           "first_listed_on": [dt.date(2027, 1, 1) + dt.timedelta(days=p) for p in ids]})
    return mentions, papers, pl.DataFrame({"paper_id": ids, "code": ["hep-ex"] * n_papers})


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("n_names", nargs="?", type=int, default=3000)
    parser.add_argument("--papers", type=int, default=3)
    parser.add_argument("--common", type=float, default=1.0, help="share of the names that are common")
    args = parser.parse_args(argv)
    n_names = args.n_names
    mentions, papers, categories = frames(n_names, args.papers, args.common)
    timings: dict[str, float] = {}
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    result = assign_persons(mentions, papers, categories, timings=timings)
    added_mib = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before) // 1024
    print(f"{args.papers} papers x {n_names} names ({args.common:.0%} common): {time.perf_counter() - started:.2f} s, peak +{added_mib} MiB",
          {k: round(v, 2) for k, v in timings.items() if not k.endswith("_cpu")},
          dict(result.assignments["rule"].value_counts().iter_rows()), f"{result.persons.height} persons")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
