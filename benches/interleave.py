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
                                  [--set targets|readme|trusted|lazy] [CELL ...]

A CELL is `dataset/metric:peer[,peer]`, e.g. `log/access:rkyv`; `dataset/metric:` (no
peer) times wiremsg alone, `dataset/metric` rkyv beside it. Criterion's files go to
target/interleave, so the full run's estimates (what `bench_table` reads) stay as
they were.

`--set lazy` (issue 32, on-demand validation) prints instead one row of medians per
data set, then its targets as ratios of the same round's medians: `access_lazy`
against 100 ns (the feed's per message: it has no root), `read_some_lazy` ÷
`read_some_unchecked` against 2, `read_lazy` ÷ (`access` + `read_unchecked`) against
1.5, all wiremsg's, and `read_some_lazy` ÷ rkyv's and capnp's `read_some`; then
wiremsg's on-demand reads against capnp's, whose checked reads are on demand too
(`access_lazy` ÷ capnp `access`, `read_some_lazy` ÷ capnp `read_some`, `read_lazy` ÷
capnp `read`), on the data sets with capnp (all but the feed).
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
# The data sets with a capnp codec (the feed, a framed stream, has none).
CAPNP = {"login", "order", "tick", "log", "mesh", "events", "player", "game"}
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
# The cells of issue 32's targets (on-demand validation, wiremsg alone), with what
# they are measured against: wiremsg's trusted reads and validated access, rkyv's
# validated access and sparse read (its on-demand peer is its validated path), and
# capnp's access, sparse and full read (validated on demand, as wiremsg's `_lazy`).
LAZY = [
    f"{d}/{m}:"
    for d in DATASETS
    for m in ["access_lazy", "read_some_lazy", "read_lazy", "read_some_unchecked",
              "read_unchecked"]
    if "some" not in m or d in SPARSE
] + [f"{d}/access:rkyv" + (",capnp" if d in CAPNP else "") for d in DATASETS] \
  + [f"{d}/read_some:rkyv" + (",capnp" if d in CAPNP else "") for d in DATASETS
     if d in SPARSE] \
  + [f"{d}/read:capnp" for d in DATASETS if d in CAPNP]
SETS = {"targets": TARGETS, "readme": HIGHLIGHTS, "trusted": TRUSTED, "lazy": LAZY}

# Messages per `access_lazy` where the data set has no root (the feed: every
# message's on-demand view), for its target, which is per message.
ROOTLESS = {"feed": 100_000}
# The columns of `--set lazy`'s table: (format, metric), in order.
LAZY_COLUMNS = [("wiremsg", m) for m in ["access_lazy", "read_some_lazy", "read_lazy",
                                         "read_some_unchecked", "read_unchecked", "access",
                                         "read_some"]] \
    + [("rkyv", "access"), ("rkyv", "read_some"), ("capnp", "access"), ("capnp", "read_some"),
       ("capnp", "read")]

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


def spread(values: list) -> str:
    """The median of per-round values and their range: `1.23 (1.10–1.40)`."""
    if not values:
        return "n/a"
    return f"{statistics.median(values):.2f} ({min(values):.2f}–{max(values):.2f})"


def show_lazy(rounds: list):
    """`--set lazy`'s tables: the medians, then issue 32's targets per data set."""
    def per_round(dataset: str, *ids: str) -> list:
        """Each round's medians of `dataset/<id>` for every id, where it has all."""
        keys = [f"{dataset}/{i}" for i in ids]
        return [[m[k] for k in keys] for m in rounds if all(k in m for k in keys)]

    print("| dataset | " + " | ".join(f"{fmt} `{metric}`" for fmt, metric in LAZY_COLUMNS)
          + " |")
    print("|:--|" + "--:|" * len(LAZY_COLUMNS))
    for d in DATASETS:
        cells = []
        for fmt, metric in LAZY_COLUMNS:
            got = per_round(d, f"{metric}/{fmt}")
            cells.append(show(statistics.median([v for (v,) in got])) if got else "n/a")
        print(f"| {d} | " + " | ".join(cells) + " |")

    print("\nTargets (issue 32), ratios of one round's medians: median (range) over "
          "the rounds.\n")
    print("| dataset | `access_lazy` (≤ 100 ns) | `read_some_lazy` ÷ `read_some_unchecked` "
          "(≤ 2) | `read_lazy` ÷ (`access` + `read_unchecked`) (≤ 1.5) | "
          "`read_some_lazy` ÷ rkyv `read_some` | `read_some_lazy` ÷ capnp `read_some` |")
    print("|:--|--:|--:|--:|--:|--:|")
    for d in DATASETS:
        access = [a / ROOTLESS.get(d, 1) for (a,) in per_round(d, "access_lazy/wiremsg")]
        access_cell = "n/a"
        if access:
            median_ns = statistics.median(access) * 1e3
            access_cell = f"{show(statistics.median(access))}" \
                          f"{' per message' if d in ROOTLESS else ''} " \
                          f"({'met' if median_ns <= 100 else 'missed'})"
        some = [s / u for s, u in per_round(d, "read_some_lazy/wiremsg",
                                            "read_some_unchecked/wiremsg")]
        read = [r / (a + u) for r, a, u in per_round(d, "read_lazy/wiremsg", "access/wiremsg",
                                                     "read_unchecked/wiremsg")]
        some_rkyv = [s / r for s, r in per_round(d, "read_some_lazy/wiremsg",
                                                 "read_some/rkyv")]
        some_capnp = [s / c for s, c in per_round(d, "read_some_lazy/wiremsg",
                                                  "read_some/capnp")]
        print(f"| {d} | {access_cell} | {spread(some)} | {spread(read)} | "
              f"{spread(some_rkyv)} | {spread(some_capnp)} |")

    print("\nOn demand against capnp (whose checked reads are on demand too): wiremsg "
          "÷ capnp, ratios of one round's medians: median (range) over the rounds.\n")
    print("| dataset | `access_lazy` ÷ capnp `access` | `read_some_lazy` ÷ capnp "
          "`read_some` | `read_lazy` ÷ capnp `read` |")
    print("|:--|--:|--:|--:|")
    for d in DATASETS:
        if d not in CAPNP:
            continue
        cells = [
            spread([w / c for w, c in per_round(d, f"{ours}/wiremsg", f"{theirs}/capnp")])
            for ours, theirs in [("access_lazy", "access"), ("read_some_lazy", "read_some"),
                                 ("read_lazy", "read")]
        ]
        print(f"| {d} | " + " | ".join(cells) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--measurement-time", type=float, default=1.0)
    parser.add_argument("--set", choices=SETS, default="targets",
                        help="the cells timed when none are given: issue 13's targets, "
                        "the README's highlights, issue 31's (benches/README.md), or "
                        "issue 32's (on-demand validation)")
    parser.add_argument("cells", nargs="*")
    args = parser.parse_args()
    cells = []
    for cell in args.cells or SETS[args.set]:
        name, colon, peers = cell.partition(":")
        cells.append((name, peers.split(",") if peers else [] if colon else ["rkyv"]))
    # The lazy set's own tables (its `access:rkyv` cells time wiremsg's `access` too).
    lazy = args.set == "lazy" and not args.cells

    binary = bench_binary()
    rounds = []
    for r in range(args.rounds):
        rounds.append(one_round(binary, cells, args.measurement_time))
        print(f"round {r + 1} of {args.rounds} done", file=sys.stderr)

    print(f"{args.rounds} rounds, {args.measurement_time} s per format and cell\n")
    if lazy:
        show_lazy(rounds)
        return
    print("| cell | peer | wiremsg | peer | ratio, median of rounds | range |")
    print("|:--|:--|--:|--:|--:|--:|")
    for cell, peers in cells:
        ours = [m[f"{cell}/wiremsg"] for m in rounds if f"{cell}/wiremsg" in m]
        if not peers:
            print(f"| `{cell}` | | {show(statistics.median(ours)) if ours else 'no such bench id'}"
                  " | | | |")
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
