"""CPU seconds of each stage of `transforms.pipeline.process_batch` over a corpus, on one thread,
for checkouts side by side: what a change to parsing or cleaning costs, without a flow's noise.

    .venv/bin/python bench/batch_stages.py /tmp/digest-bench/100000 --code before=DIR --code after=.
    .venv/bin/python bench/batch_stages.py /tmp/digest-bench/10000 --code-page cp1252 --code before=DIR --code after=.

Each checkout runs in a fresh process (`PYTHONPATH` set to it), rounds interleaved; each round
reads the corpus once, then parses it in batches of `--batch-files` files, three times, and keeps
each stage's best. Prints each round's stages and every checkout's medians, and whether all
produced the same listings, papers and quarantine counts.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

def stages(corpus: Path, batch_files: int, code_page: str | None = None) -> dict:
    """This process's checkout: best seconds of each stage over three passes, and the counts.
    `code_page`: each file rewritten in that legacy code page first (what it cannot write as
    "?"), so the decode stage reads legacy files."""
    from collections import Counter

    import transforms
    from transforms.pipeline import SourceFile, process_batch

    print(f"transforms from {Path(transforms.__file__).parent.parent}", file=sys.stderr)

    files = sorted(p for p in corpus.rglob("*") if p.is_file() and p.suffix in {".txt", ".gz", ".zip"})
    datas = [p.read_bytes() for p in files]
    if code_page:
        datas = [_in_code_page(d, code_page) for d in datas]
    sources = [SourceFile(i, str(i), d) for i, d in enumerate(datas)]
    best: dict[str, float] = {}
    for _ in range(3):
        seconds, counts, encodings = Counter(), Counter(), Counter()
        for at in range(0, len(sources), batch_files):
            result = process_batch(sources[at:at + batch_files])
            seconds.update(result.timings)
            counts.update(listings=result.listings.height, papers=result.papers.height,
                          quarantined=result.quarantine.height)
            encodings.update(result.files["encoding"].to_list())
        best = {k: min(best.get(k, float("inf")), v) for k, v in seconds.items()}
    return {"seconds": best, "total": sum(best.values()), "counts": {**counts, "encodings": dict(sorted(encodings.items()))}}


def _in_code_page(data: bytes, code_page: str) -> bytes:
    """A corpus file's text written in `code_page`, "?" for what it cannot write."""
    from transforms.decode import decode_bytes

    return decode_bytes(data).text.encode(code_page, errors="replace")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--code", action="append", required=True, help="label=DIR of a checkout")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--batch-files", type=int, default=130)
    ap.add_argument("--code-page", help="rewrite each file in this legacy code page first (e.g. cp1252)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(stages(args.corpus, args.batch_files, args.code_page)))
        return
    codes = dict(c.split("=", 1) for c in args.code)
    runs: dict[str, list[dict]] = {label: [] for label in codes}
    for r in range(args.rounds):
        for label, code in codes.items():
            env = {**os.environ, "PYTHONPATH": str(Path(code).resolve())}
            # This file run as a script: its folder, not the current one or this checkout, is first
            # on sys.path, so `transforms` comes from PYTHONPATH (with `-m`, the cwd would win).
            out = subprocess.run([sys.executable, str(Path(__file__).resolve()), str(args.corpus), "--code", "x=.",
                                  "--batch-files", str(args.batch_files), "--child",
                                  *(["--code-page", args.code_page] if args.code_page else [])],
                                 env=env, cwd=Path(code).resolve(), check=True, capture_output=True, text=True).stdout
            run = json.loads(out.strip().splitlines()[-1])
            runs[label].append(run)
            shown = ", ".join(f"{k} {v:.3f}" for k, v in run["seconds"].items())
            print(f"round {r + 1} {label:>8}: total {run['total']:.3f} s ({shown})", flush=True)
    for label, rs in runs.items():
        keys = rs[0]["seconds"]
        medians = {k: statistics.median(r["seconds"][k] for r in rs) for k in keys}
        shown = ", ".join(f"{k} {v:.3f}" for k, v in medians.items())
        print(f"median {label:>8}: total {statistics.median(r['total'] for r in rs):.3f} s ({shown}); counts {rs[0]['counts']}")
    print("same counts:", len({json.dumps(r["counts"], sort_keys=True) for rs in runs.values() for r in rs}) == 1)


if __name__ == "__main__":
    main()
