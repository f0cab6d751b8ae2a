#!/usr/bin/env python3
"""Ratios of chosen `datasets` cells that hold on a noisy machine.

A full `cargo bench --bench datasets` run times one format after another, minutes
apart, so a burst of load on a shared machine can land on one side of a ratio. This
script times the cells of issue 13's targets (or those given) in rounds: each round
is one run of the bench binary over all of them, so the formats of a cell are timed
seconds apart, and the rounds repeat that. It prints, per cell and peer, the median
of wiremsg's and the peer's medians and the median and range of the per-round
ratios (wiremsg ÷ peer; below 1 is wiremsg faster).

    python3 benches/interleave.py [--rounds N] [--measurement-time S]
                                  [--set targets|readme|trusted] [CELL ...]

A CELL is `dataset/metric:peer[,peer]`, e.g. `log/access:rkyv`. Criterion's files go
to target/interleave, so the full run's estimates (what `bench_table` reads) stay
as they were.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# The cells of issue 13's target table (benches/README.md).
TARGETS = [
    "log/access:rkyv",
    "order/access:rkyv",
    "login/access:rkyv",
    "player/access:rkyv",
    "game/access:rkyv",
    "mesh/access:rkyv",
    "mesh/decode:rkyv,zerocopy",
    "tick/read:zerocopy",
    "tick/update:zerocopy",
] + [f"{d}/encode:rkyv" for d in ["login", "order", "tick", "log", "mesh", "player", "game"]]

# The cells of the README's highlights table.
DATASETS = ["login", "order", "tick", "log", "mesh", "feed", "events", "player", "game"]
SBE = {"tick", "feed"}
SPARSE = {"order", "log", "feed", "events", "player", "game"}
UPDATED = {"order", "tick", "log", "mesh", "feed", "events", "player", "game"}
HIGHLIGHTS = (
    [f"{d}/read:rkyv,flatbuffers" + (",sbe" if d in SBE else "") for d in DATASETS]
    + [f"{d}/read_some_unchecked:rkyv" for d in DATASETS if d in SPARSE]
    + [f"{d}/update_unchecked:rkyv" for d in DATASETS if d in UPDATED]
    + [f"{d}/encode:rkyv" for d in DATASETS]
    + [f"{d}/access:rkyv" for d in DATASETS]
)
# The cells of issue 31's targets (the trusted path, and validated access and read
# kept where they were): benches/README.md, "The trusted path".
TRUSTED_SETS = ["log", "order", "feed", "events", "player", "game"]
TRUSTED = (
    [f"{d}/{m}:rkyv" for d in TRUSTED_SETS
     for m in ["read_unchecked", "read_some_unchecked", "update_unchecked"]]
    + ["mesh/read_unchecked:rkyv", "mesh/update_unchecked:rkyv"]
    + [f"{d}/{m}:rkyv" for d in DATASETS for m in ["access", "read"]]
)
SETS = {"targets": TARGETS, "readme": HIGHLIGHTS, "trusted": TRUSTED}

UNITS = {"ps": 1e-6, "ns": 1e-3, "µs": 1.0, "us": 1.0, "ms": 1e3, "s": 1e6}


def bench_binary() -> str:
    """Builds the `datasets` bench and returns its executable."""
    out = subprocess.run(
        ["cargo", "bench", "-p", "wiremsg-benches", "--bench", "datasets", "--no-run",
         "--message-format=json"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("reason") == "compiler-artifact" and msg["target"]["name"] == "datasets" \
                and msg.get("executable"):
            return msg["executable"]
    sys.exit("no datasets bench executable in cargo's output")


def one_round(binary: str, cells: list, measurement: float) -> dict:
    """One run over every cell: {bench id: median µs}."""
    ids = [f"{cell}/{fmt}" for cell, peers in cells for fmt in ["wiremsg", *peers]]
    pattern = "^(" + "|".join(re.escape(i) for i in ids) + ")$"
    env = dict(os.environ, CRITERION_HOME=str(ROOT / "target" / "interleave"))
    out = subprocess.run(
        [binary, "--bench", pattern, "--warm-up-time", "0.3",
         "--measurement-time", str(measurement), "--noplot"],
        cwd=ROOT / "benches", env=env, check=True, capture_output=True, text=True,
    ).stdout
    medians, name = {}, None
    for line in out.splitlines():
        words = line.split()
        if words and words[0] in ids:
            name = words[0]
        if "time:" in words and name:
            at = words.index("time:")
            # time: [low median high], each a number and a unit.
            medians[name] = float(words[at + 3]) * UNITS[words[at + 4]]
    return medians


def show(us: float) -> str:
    for unit, scale in [("ms", 1e3), ("µs", 1.0), ("ns", 1e-3)]:
        if us >= scale or unit == "ns":
            return f"{us / scale:.3g} {unit}"
    return ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--measurement-time", type=float, default=1.0)
    parser.add_argument("--set", choices=SETS, default="targets",
                        help="the cells timed when none are given: issue 13's targets, "
                        "the README's highlights, or issue 31's (benches/README.md)")
    parser.add_argument("cells", nargs="*")
    args = parser.parse_args()
    cells = []
    for cell in args.cells or SETS[args.set]:
        name, _, peers = cell.partition(":")
        cells.append((name, peers.split(",") if peers else ["rkyv"]))

    binary = bench_binary()
    rounds = []
    for r in range(args.rounds):
        rounds.append(one_round(binary, cells, args.measurement_time))
        print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)

    print(f"{args.rounds} rounds, {args.measurement_time} s per format and cell\n")
    print("| cell | peer | wiremsg | peer | ratio, median of rounds | range |")
    print("|:--|:--|--:|--:|--:|--:|")
    for cell, peers in cells:
        ours = [m[f"{cell}/wiremsg"] for m in rounds if f"{cell}/wiremsg" in m]
        for peer in peers:
            pairs = [(m[f"{cell}/wiremsg"], m[f"{cell}/{peer}"]) for m in rounds
                     if f"{cell}/wiremsg" in m and f"{cell}/{peer}" in m]
            if not pairs:
                print(f"| `{cell}` | {peer} | no such bench id | | | |")
                continue
            ratios = [w / p for w, p in pairs]
            theirs = [p for _, p in pairs]
            print(f"| `{cell}` | {peer} | {show(statistics.median(ours))} | "
                  f"{show(statistics.median(theirs))} | {statistics.median(ratios):.2f} | "
                  f"{min(ratios):.2f}–{max(ratios):.2f} |")


if __name__ == "__main__":
    main()
