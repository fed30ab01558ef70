#!/usr/bin/env python3
"""Prints fabricbench's figures side by side with the reference (nccl-tests) figures.

usage: compare_reference.py REFERENCE.json LABEL=RESULT.json ...
Labels say which launch mode a result used: procs, threads, procs-graph, threads-graph; a
label starting with p2p compares a `fabricbench p2p` result with an nvbandwidth reference.
Bandwidth at >= 64 MiB must agree within 3%; small-size time within 10% (DESIGN.md).
Where the reference holds a range (busbw_gbps.two_modes: all_gather/reduce_scatter at 2-4 GiB run
in two speed modes, docs/metrics.md), a figure is checked against the range, and the single
figure is shown as info.
Exits 1 if any checked figure is outside its tolerance.
"""
import json
import sys

BW_TOL, TIME_TOL, BIG = 0.03, 0.10, 64 << 20


def points(doc):
    for run in doc["runs"]:
        for p in run["points"]:
            if not p["in_place"]:
                yield run["collective"], p


def main():
    ref = json.load(open(sys.argv[1]))
    results = {}
    for arg in sys.argv[2:]:
        label, path = arg.split("=", 1)
        results[label] = json.load(open(path))
    rows, failures = [], 0

    def row(kind, mode, coll, size, ours, theirs, tol, checked=True):
        nonlocal failures
        if isinstance(theirs, list):
            lo, hi = theirs
            dev = 0.0 if lo <= ours <= hi else (ours - (hi if ours > hi else lo)) / (hi if ours > hi else lo)
            ref_text = f"{lo}-{hi}"
        else:
            dev = (ours - theirs) / theirs
            ref_text = f"{theirs}"
        ok = abs(dev) <= tol
        verdict = ("ok" if ok else "OUT") if checked else "info"
        if checked and not ok:
            failures += 1
        rows.append((kind, mode, coll, size, f"{ours:.2f}", ref_text, f"{dev * 100:+.1f}%", verdict))

    if "gbps" in ref:  # nvbandwidth reference: one pair, host links
        for label, doc in results.items():
            for m in doc.get("p2p", []):
                test = m["test"]
                if test in ref["gbps"] and m["samples"] > 0 and (m["src"] == 0 or m["src"] == -1):
                    tol = ref["tolerance"][test]
                    limit = float(tol.split("%")[0].split()[-1].lstrip("-")) / 100
                    theirs = ref["gbps"][test]
                    if tol.startswith("at least"):
                        dev = (m["value"] - theirs) / theirs
                        ok = dev >= -limit
                        rows.append(("GB/s", label, test, f"{m['src']}->{m['dst']}", f"{m['value']:.1f}", f"{theirs}",
                                     f"{dev * 100:+.1f}%", "ok" if ok else "OUT"))
                        failures += 0 if ok else 1
                    else:
                        row("GB/s", label, test, f"{m['src']}->{m['dst']}", m["value"], theirs, limit)
                elif test in ref["ns"] and m["samples"] > 0 and m["dst"] in (0, 1) and m["src"] in (-1, 0, 1):
                    row("ns", label, test, f"{m['src']}->{m['dst']}", m["value"], ref["ns"][test], 0.15)
        return finish(rows, failures)

    bw = ref["busbw_gbps"]
    for label, doc in results.items():
        graph = label.endswith("-graph")
        for coll, p in points(doc):
            size = p["bytes"]
            key = str(size)
            modes = bw.get("two_modes", {}).get(coll, {})
            if not graph and key in modes:
                row("busbw GB/s", f"{label} vs modes", coll, size, p["busbw_gbps"], modes[key], BW_TOL, size >= BIG)
            if not graph:
                table = bw["single_process"].get(coll, {})
                if key in table:
                    row("busbw GB/s", f"{label} vs 1-proc", coll, size, p["busbw_gbps"], table[key], BW_TOL,
                        size >= BIG and key not in modes)
                two = bw["two_process"].get(coll, {})
                if label.startswith("procs") and key in two:
                    row("busbw GB/s", f"{label} vs 2-proc", coll, size, p["busbw_gbps"], two[key], BW_TOL, size >= BIG)
            if coll != "all_reduce" or size > 512 << 10:
                continue
            t = ref["all_reduce_time_us"]
            med = p["time_us"]["median"]
            if label.startswith("procs"):
                table = t["two_process_graph" if graph else "two_process"]
                if key in table:
                    row("time us", f"{label} vs 2-proc", coll, size, med, table[key], TIME_TOL)
            elif size <= 64 << 10:
                rng = t["single_process_graph_range_8B_64KiB" if graph else "single_process_range_8B_64KiB"]
                row("time us", f"{label} vs 1-proc", coll, size, med, rng, TIME_TOL)

    return finish(rows, failures)


def finish(rows, failures):
    header = ("metric", "mode", "test", "size/path", "fabricbench", "reference", "diff", "check")
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    for r in [header] + rows:
        print("  ".join(str(v).rjust(w) for v, w in zip(r, widths)))
    print(f"{failures} figure(s) outside tolerance")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
