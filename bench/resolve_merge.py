"""`bench.profile` with the resolver's steps timed: wall and CPU seconds of each call.

    .venv/bin/python -m bench.resolve_merge /tmp/digest-bench/100000-distinct [bench.profile options]

Runs `python -m bench.profile` as is, with `flows.resolve.resolve_entities` and its blocking
(`_insert_block_keys`) and scoring (`_score_candidates`) steps wrapped: each call prints its wall
time and the CPU time of the whole process over it (every thread, DuckDB's too). On a shared
machine the CPU seconds move less than the wall seconds when another process competes for the
cores. To time another checkout, run this file with that checkout first on PYTHONPATH:
`PYTHONPATH=/path/to/worktree python /path/to/this/file.py CORPUS`.
"""

from __future__ import annotations

import functools
import sys
import time

from bench import profile
from flows import resolve

STEPS = ("resolve_entities", "_insert_block_keys", "_score_candidates")


def timed(name: str, fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            print(f"{name:20} {time.perf_counter() - wall:7.2f} s wall {time.process_time() - cpu:7.2f} s CPU",
                  file=sys.stderr, flush=True)
    return wrapper


if __name__ == "__main__":
    for step in STEPS:  # module attributes: looked up at each call, by bench.profile and the resolver
        setattr(resolve, step, timed(step, getattr(resolve, step)))
    sys.exit(profile.main())
