#!/usr/bin/env python3
"""Instructions per operation: the `datasets` cells counted under valgrind's
callgrind, which gives the same count on a loaded machine as on an idle one.

    python3 benches/instructions.py [--set trusted] [CELL ...]

A CELL is `dataset/metric:peer,peer` as for `interleave.py` (`game/read_unchecked:rkyv`).
For each format, the bench binary runs the cell for a moment under callgrind,
collecting only inside that format's `Codec` method of the metric
(`<impl Codec<..> for formats::rkyv::Rkyv>::read_unchecked`); the count is that
method's inclusive instructions over its calls. It sees no cache miss and no stall,
so it does not replace the times: where the ratio of instructions and the ratio of
times agree, the gap is code; where the instructions are at or below the peer's and
the time is not, it is memory (layout) or the machine. Needs valgrind
(`apt-get install valgrind`); a few seconds per format and cell.
"""

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from interleave import ROOT, SETS, bench_binary  # noqa: E402

# Each format's `Codec` type, as `formats::<module>::<Type>`.
TYPES = {
    "wiremsg": "wiremsg::Wiremsg", "rkyv": "rkyv::Rkyv", "flatbuffers": "flatbuffers::FlatBuffers",
    "capnp": "capnp::Capnp", "sbe": "sbe::Sbe", "zerocopy": "zerocopy::Zerocopy",
}


def per_call(out_file: str, pattern: re.Pattern) -> tuple:
    """(calls, inclusive instructions) of the functions matching `pattern` in a
    callgrind output file: the `calls=` lines and the cost line after each."""
    names, calls, cost = {}, 0, 0
    callee, counting = None, False
    for line in open(out_file, encoding="utf-8", errors="replace"):
        m = re.match(r"(c?fn)=\((\d+)\)(?: (.*))?", line)
        if m:
            kind, ident, name = m.groups()
            if name:
                names[ident] = name
            if kind == "cfn":
                callee = ident
            continue
        m = re.match(r"calls=(\d+)", line)
        if m:
            counting = callee is not None and bool(pattern.search(names.get(callee, "")))
            if counting:
                calls += int(m.group(1))
            continue
        if counting:
            parts = line.split()
            if len(parts) >= 2:
                cost += int(parts[1])
            counting = False
    return calls, cost


def count(binary: str, cell: str, fmt: str) -> float:
    """Instructions per call of `fmt`'s method for `cell`, or NaN if not found."""
    dataset, metric = cell.split("/")
    method = rf"datasets::{dataset}::<impl .*for wiremsg_benches::formats::{TYPES[fmt]}>::{metric}$"
    toggle = f"wiremsg_benches::datasets::{dataset}::<impl*formats::{TYPES[fmt]}>::{metric}"
    with tempfile.TemporaryDirectory() as tmp:
        out = f"{tmp}/callgrind.out"
        subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
             f"--toggle-collect={toggle}", binary, "--bench", "--profile-time", "1",
             f"^{cell}/{fmt}$"],
            cwd=ROOT / "benches", check=True, capture_output=True,
        )
        calls, cost = per_call(out, re.compile(method))
    return cost / calls if calls else float("nan")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", choices=SETS, default="trusted")
    parser.add_argument("cells", nargs="*")
    args = parser.parse_args()
    binary = bench_binary()
    print("| cell | peer | wiremsg instructions | peer instructions | ratio |")
    print("|:--|:--|--:|--:|--:|")
    for spec in args.cells or SETS[args.set]:
        cell, colon, peers = spec.partition(":")
        ours = count(binary, cell, "wiremsg")
        for peer in peers.split(",") if peers else ["rkyv"]:
            theirs = count(binary, cell, peer)
            print(f"| `{cell}` | {peer} | {ours:,.0f} | {theirs:,.0f} | {ours / theirs:.2f} |",
                  flush=True)


if __name__ == "__main__":
    main()
