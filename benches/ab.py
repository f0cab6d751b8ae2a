#!/usr/bin/env python3
"""Old against new: wiremsg's cells timed by two builds of the `datasets` bench in
alternating rounds, so that load on a shared machine lands on both alike.

    python3 benches/ab.py OLD_BINARY NEW_BINARY [--rounds N] [--measurement-time S]
                          [CELL ...]

Build each with `cargo bench -p wiremsg-benches --bench datasets --no-run` in a
checkout of each commit (a shared CARGO_TARGET_DIR keeps the dependencies built
once). A CELL is `dataset/metric` (wiremsg's row); the default is every dataset's
access, read, read_unchecked, update_unchecked, encode and decode. Prints per cell
the median of each build's medians and the median and range of the per-round
ratios (new ÷ old; below 1 is faster).
"""

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from interleave import DATASETS, one_round, show  # noqa: E402

METRICS = ["access", "read", "read_unchecked", "update_unchecked", "encode", "decode"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--measurement-time", type=float, default=0.5)
    parser.add_argument("cells", nargs="*")
    args = parser.parse_intermixed_args()
    cells = args.cells or [f"{d}/{m}" for d in DATASETS for m in METRICS]
    times = {cell: {"old": [], "new": []} for cell in cells}
    for r in range(args.rounds):
        for side in (["old", "new"] if r % 2 == 0 else ["new", "old"]):
            binary = args.old if side == "old" else args.new
            medians = one_round(binary, [(cell, []) for cell in cells], args.measurement_time)
            for cell in cells:
                us = medians.get(f"{cell}/wiremsg")
                if us is not None:
                    times[cell][side].append(us)
        print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)
    print("| cell | old | new | new ÷ old (range) |")
    print("|---|---:|---:|---:|")
    for cell in cells:
        old, new = times[cell]["old"], times[cell]["new"]
        if not old or not new:
            continue
        ratios = [n / o for o, n in zip(old, new)]
        print(f"| {cell} | {show(statistics.median(old))} | {show(statistics.median(new))} "
              f"| {statistics.median(ratios):.2f} ({min(ratios):.2f}–{max(ratios):.2f}) |")


if __name__ == "__main__":
    main()
