"""Naming new papers: the loop (`transforms.resolve.name_new_papers`) against the frames
(`transforms.resolve.paper_ids`) on synthetic keys, side by side, with the ids compared.

    .venv/bin/python -m bench.paper_ids [--keys 800000] [--clustered 40000] [--seed 1]

Keys and id keys are random 62-bit numbers (as the warehouse's hashes); `--clustered` keys are
paired into two-key clusters (each named by its lower key), the rest are papers of their own, as
in a 1M-listing load of the distinct shape (800k new keys). Prints the seconds of each, including
the frame the loop's dict becomes (the flow inserts a frame)."""

from __future__ import annotations

import argparse
import random
import time

import polars as pl

from transforms import resolve


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--keys", type=int, default=800_000)
    ap.add_argument("--clustered", type=int, default=40_000, help="keys in two-key clusters")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    rnd = random.Random(args.seed)
    keys = [rnd.getrandbits(62) for _ in range(args.keys)]
    id_keys = {k: rnd.getrandbits(62) for k in keys}
    clustered = {}
    for a, b in zip(keys[0:args.clustered:2], keys[1:args.clustered:2]):
        clustered[a] = clustered[b] = min(a, b)

    started = time.perf_counter()
    mapping = resolve.name_new_papers({k: clustered.get(k, k) for k in keys}, id_keys, set())
    by_loop = pl.DataFrame({"paper_key": list(mapping), "paper_id": list(mapping.values())})
    loop_s = time.perf_counter() - started
    frame = pl.DataFrame({"paper_key": keys, "id_key": [id_keys[k] for k in keys]})
    started = time.perf_counter()
    by_frames = resolve.paper_ids(frame, pl.Series("paper_id", [], pl.Int64), clustered)
    frames_s = time.perf_counter() - started
    same = by_frames.sort("paper_key").equals(by_loop.sort("paper_key"))
    print(f"{args.keys:,} new keys ({args.clustered:,} in clusters): loop {loop_s:.2f} s, "
          f"frames {frames_s:.2f} s ({frames_s / loop_s:.2f}x); same ids: {same}")


if __name__ == "__main__":
    main()
