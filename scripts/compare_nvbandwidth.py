#!/usr/bin/env python3
"""fabricbench p2p against nvbandwidth on one GPU, from the same call (scripts/one-gpu-check.sh).

usage: compare_nvbandwidth.py [--per-round [--host-band F] [--need N]] --nvbandwidth NVB.json [NVB.json ...]
                              --fabricbench P2P.json [P2P.json ...]

Each tool's figure is the median over its rounds (the rounds alternate between the tools, so
both see the same drift of the host). Host links each way, by copy engine and by SM copy, must
agree within 2%; the GPU's memory copy within 3%; host latency within 5%. Prints one row per
figure and exits 1 when one is outside its band, 2 on unreadable input.

--per-round: the k-th fabricbench document against the k-th nvbandwidth one instead (same count),
one row per round with each host link's deviation (! outside --host-band, default 0.01 = 1%), and
~ where nvbandwidth itself moved more than the band from its own median over the rounds (the round
says more of the host than of fabricbench). Then, per host link, in how many rounds it was within
the band; each must be within it in at least --need rounds (default: all of them).
"""
import argparse
import json
import statistics
import sys

# nvbandwidth test -> (fabricbench test, unit, tolerance)
PAIRS = {
    "host_to_device_memcpy_ce": ("h2d", "GB/s", 0.02),
    "device_to_host_memcpy_ce": ("d2h", "GB/s", 0.02),
    "host_to_device_memcpy_sm": ("h2d_sm", "GB/s", 0.02),
    "device_to_host_memcpy_sm": ("d2h_sm", "GB/s", 0.02),
    "device_local_copy": ("local_copy", "GB/s", 0.03),
    "host_device_latency_sm": ("host_latency", "ns", 0.05),
}


def nvbandwidth_figures(path):
    """GPU0's figure of each test in one nvbandwidth -j output."""
    doc = json.load(open(path))
    out = {}
    for case in doc["nvbandwidth"]["testcases"]:
        matrix = case.get("bandwidth_matrix")
        if case.get("status") != "Passed" or not matrix:
            continue
        values = [float(v) for v in matrix[0] if v != "N/A"]
        if values:
            out[case["name"]] = values[0]
    return out


def fabricbench_figures(path):
    """GPU0's figure of each per-GPU test in one fabricbench p2p --json document."""
    doc = json.load(open(path))
    out = {}
    wanted = {fb for fb, _, _ in PAIRS.values()}
    for m in doc.get("p2p", []):
        gpu = m["dst"] if m["src"] < 0 else m["src"]
        if m["test"] in wanted and m["samples"] > 0 and gpu == 0:
            out.setdefault(m["test"], m["value"])
    return out


def medians(rounds):
    keys = set().union(*rounds) if rounds else set()
    return {k: statistics.median(r[k] for r in rounds if k in r) for k in keys}


HOST_LINKS = ["host_to_device_memcpy_ce", "device_to_host_memcpy_ce", "host_to_device_memcpy_sm",
              "device_to_host_memcpy_sm"]


def per_round(nvb_paths, fb_paths, band, need=None):
    """One row per round: each host link's fabricbench / nvbandwidth figures and their deviation."""
    if len(nvb_paths) != len(fb_paths):
        print("error: --per-round needs as many fabricbench documents as nvbandwidth ones", file=sys.stderr)
        return 2
    try:
        rounds = [(nvbandwidth_figures(n), fabricbench_figures(f)) for n, f in zip(nvb_paths, fb_paths)]
    except (OSError, ValueError, KeyError) as e:
        print(f"error: unreadable input: {e}", file=sys.stderr)
        return 2
    need = len(rounds) if need is None else need
    theirs_median = medians([theirs for theirs, _ in rounds])
    names = [PAIRS[n][0] for n in HOST_LINKS]
    print("round  " + "  ".join(f"{n + ' fb/nvb GB/s':>24} {'dev':>8}" for n in names))
    within = {nvb: 0 for nvb in HOST_LINKS}
    moved = {nvb: [] for nvb in HOST_LINKS}
    for k, (theirs, ours) in enumerate(rounds, 1):
        cells = []
        for nvb in HOST_LINKS:
            fb = PAIRS[nvb][0]
            if nvb not in theirs or fb not in ours:
                cells.append(f"{'missing':>24} {'-':>8}")
                continue
            dev = (ours[fb] - theirs[nvb]) / theirs[nvb]
            own = (theirs[nvb] - theirs_median[nvb]) / theirs_median[nvb]
            within[nvb] += 1 if abs(dev) <= band else 0
            if abs(own) > band:
                moved[nvb].append(f"{k} ({own * 100:+.2f}%)")
            mark = ("" if abs(dev) <= band else "!") + ("~" if abs(own) > band else "")
            cells.append(f"{ours[fb]:>11.2f} / {theirs[nvb]:>10.2f} {dev * 100:>+6.2f}%{mark:<2}")
        print(f"{k:>5}  " + " ".join(cells))
    short = 0
    for nvb in HOST_LINKS:
        ok = within[nvb] >= need
        short += 0 if ok else 1
        note = f"; nvbandwidth itself moved beyond {band:.0%} of its median in round {', '.join(moved[nvb])}" \
            if moved[nvb] else ""
        print(f"{PAIRS[nvb][0]:<7} within {band:.0%} of nvbandwidth in {within[nvb]} of {len(rounds)} rounds "
              f"(at least {need}: {'ok' if ok else 'NOT met'}){note}")
    print(f"host links in {len(rounds)} rounds: "
          f"{'every one within' if short == 0 else f'{short} not within'} {band:.0%} of nvbandwidth's "
          f"in at least {need} rounds")
    return 1 if short else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--nvbandwidth", nargs="+", required=True)
    ap.add_argument("--fabricbench", nargs="+", required=True)
    ap.add_argument("--per-round", action="store_true")
    ap.add_argument("--host-band", type=float, default=0.01)
    ap.add_argument("--need", type=int, default=None)
    args = ap.parse_args()
    if args.per_round:
        return per_round(args.nvbandwidth, args.fabricbench, args.host_band, args.need)
    try:
        theirs = medians([nvbandwidth_figures(p) for p in args.nvbandwidth])
        ours = medians([fabricbench_figures(p) for p in args.fabricbench])
    except (OSError, ValueError, KeyError) as e:
        print(f"error: unreadable input: {e}", file=sys.stderr)
        return 2
    failures = 0
    print(f"{'figure':<14} {'unit':<5} {'nvbandwidth':>12} {'fabricbench':>12} {'deviation':>10}  band   verdict")
    for nvb, (fb, unit, tol) in PAIRS.items():
        if nvb not in theirs or fb not in ours:
            print(f"{fb:<14} {unit:<5} {theirs.get(nvb, float('nan')):>12.2f} {ours.get(fb, float('nan')):>12.2f}"
                  f" {'-':>10}  {tol:.0%}    MISSING")
            failures += 1
            continue
        dev = (ours[fb] - theirs[nvb]) / theirs[nvb]
        ok = abs(dev) <= tol
        failures += 0 if ok else 1
        print(f"{fb:<14} {unit:<5} {theirs[nvb]:>12.2f} {ours[fb]:>12.2f} {dev * 100:>+9.2f}%  {tol:.0%}    "
              f"{'ok' if ok else 'OUT'}")
    print(f"rounds: {len(args.nvbandwidth)} nvbandwidth, {len(args.fabricbench)} fabricbench; "
          f"{'all within their bands' if failures == 0 else f'{failures} outside'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
