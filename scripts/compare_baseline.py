#!/usr/bin/env python3
"""Same-run check: fabricbench's small all_reduce times against the nccl-tests-style timer.

usage: compare_baseline.py BASELINE.txt RESULT.json [RESULT.json ...]
BASELINE.txt holds the lines tools/nccl_timing_baseline printed (each line one round), or the
output of runs of nccl-tests' all_reduce_perf (its out-of-place time; each run one round, the
median of its -N cycles), one or more rounds of the same sizes; each RESULT.json is one `fabricbench run all_reduce` round taken alternately with
them on the same GPUs in the same launch mode. Without CUDA graphs these sizes are bound by
the host's launch rate, which on a VM moves between rounds, so each tool's figure per size is
the median over its rounds (and the fastest round is shown beside it). DESIGN.md's bar: within
10%. Exits 1 if a size is outside it, 2 if the inputs do not match.
"""
import json
import re
import statistics
import sys

TOL = 0.10
LINE = re.compile(r"^baseline all_reduce (\d+) B, .*?: median ([0-9.]+) us")
# all_reduce_perf: size count type redop root, then the out-of-place time (us), algbw, busbw, #wrong
NCCL_TESTS_LINE = re.compile(r"^\s+(\d+)\s+\d+\s+\w+\s+\w+\s+-?\d+\s+([0-9.]+)\s")
NCCL_TESTS_START = re.compile(r"^# nThread ")


def baseline_rounds(path):
    """Per size, one time per round (us)."""
    rounds, cycles = {}, {}

    def end_nccl_tests_run():
        for size, times in cycles.items():
            rounds.setdefault(size, []).append(statistics.median(times))
        cycles.clear()

    for line in open(path):
        if NCCL_TESTS_START.match(line):
            end_nccl_tests_run()
        elif m := LINE.match(line):
            rounds.setdefault(int(m.group(1)), []).append(float(m.group(2)))
        elif m := NCCL_TESTS_LINE.match(line):
            cycles.setdefault(int(m.group(1)), []).append(float(m.group(2)))
    end_nccl_tests_run()
    return rounds


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    theirs, ours = baseline_rounds(sys.argv[1]), {}
    for path in sys.argv[2:]:
        for run in json.load(open(path))["runs"]:
            for p in run["points"]:
                if run["collective"] == "all_reduce" and not p["in_place"]:
                    ours.setdefault(p["bytes"], []).append(p["time_us"]["median"])
    sizes = sorted(set(theirs) & set(ours))
    if not sizes:
        print("no size measured by both tools")
        return 2
    print(f"{'size(B)':>9} {'rounds':>6} {'fabricbench(us)':>16} {'baseline(us)':>13} {'diff':>7}  "
          f"{'fastest: fb':>11} {'baseline':>9}  check")
    failures = 0
    for size in sizes:
        a, b = statistics.median(ours[size]), statistics.median(theirs[size])
        dev = (a - b) / b
        ok = abs(dev) <= TOL
        failures += 0 if ok else 1
        print(f"{size:>9} {min(len(ours[size]), len(theirs[size])):>6} {a:>16.2f} {b:>13.2f} {dev * 100:>+6.1f}%  "
              f"{min(ours[size]):>11.2f} {min(theirs[size]):>9.2f}  {'ok' if ok else 'OUT'}")
    print(f"{failures} size(s) outside {TOL:.0%}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
