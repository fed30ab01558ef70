#!/usr/bin/env python3
"""Summarises scripts/startup-bench.sh's folder: each launcher's start-up against nccl-tests'.

usage: startup_bench_report.py DIR [--target-ms MS] [--max-ratio R] LAUNCHER [LAUNCHER ...]
DIR holds walls_<name>.txt (one wall in ms per line, in run order) for each launcher and, where
nccl-tests was timed, for nccl_tests; and run_<launcher>_<i>.json, each run's result document, whose
"startup" steps are stamped in ms since the process began. Prints each launcher's walls and median
(against --target-ms), its ratio to nccl-tests' median (against --max-ratio) and the median of each
step. Exits 2 when an input is missing or unreadable, else 0: a benchmark, not a test.
"""
import argparse
import json
import os
import statistics
import sys

NCCL_TESTS = "nccl_tests"


def walls(folder, name):
    with open(os.path.join(folder, f"walls_{name}.txt")) as f:
        return [int(line) for line in f if line.strip()]


def steps_of(folder, launcher, walls_ms):
    """({step: [ms of each run]}, steps in order, [ms from the last stamp to the process's exit])."""
    steps, order, rest = {}, [], []
    for i, wall in enumerate(walls_ms, 1):
        with open(os.path.join(folder, f"run_{launcher}_{i}.json")) as f:
            phases = json.load(f).get("startup", [])
        if phases:
            # The clock starts at the binary's static initialisation, so this also holds the exec.
            rest.append(wall - phases[-1]["at_ms"])
        for a, b in zip(phases, phases[1:] + [None]):
            name = "measuring" if a["phase"].startswith("measuring, from") else a["phase"]
            if name not in steps:
                steps[name] = []
                order.append(name)
            if b:
                steps[name].append(b["at_ms"] - a["at_ms"])
    return steps, order, rest


def report(folder, launchers, target, max_ratio):
    theirs = None
    if os.path.exists(os.path.join(folder, f"walls_{NCCL_TESTS}.txt")):
        nt = walls(folder, NCCL_TESTS)
        theirs = statistics.median(nt)
        print(f"nccl-tests all_reduce_perf -b 8 -e 8 -n 1 -w 0 -g 1, {len(nt)} runs")
        print(f"  wall ms: {', '.join(str(w) for w in nt)}")
        print(f"  median {theirs:.0f} ms")
    for launcher in launchers:
        ours = walls(folder, launcher)
        median = statistics.median(ours)
        print(f"start-up of one 8 B all_reduce on 1 GPU, launcher {launcher}, {len(ours)} runs")
        print(f"  wall ms: {', '.join(str(w) for w in ours)}")
        print(f"  median {median:.0f} ms (target {target:.0f} ms: {'met' if median <= target else 'NOT met'})")
        if theirs:
            ratio = median / theirs
            print(f"  {ratio:.2f} x nccl-tests' median (at most {max_ratio:.2f}: "
                  f"{'met' if ratio <= max_ratio else 'NOT met'})")
        steps, order, rest = steps_of(folder, launcher, ours)
        print("  steps, median ms of each (until the next step began):")
        for name in (n for n in order if steps[n]):
            print(f"    {statistics.median(steps[name]):8.1f}  {name}")
        if rest:
            print(f"    {statistics.median(rest):8.1f}  from '{order[-1]}' to the process's exit "
                  "(and its exec before main)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("folder")
    ap.add_argument("launchers", nargs="+")
    ap.add_argument("--target-ms", type=float, default=500)
    ap.add_argument("--max-ratio", type=float, default=0.6)
    args = ap.parse_args()
    try:
        report(args.folder, args.launchers, args.target_ms, args.max_ratio)
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"error: unreadable input: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
