#!/usr/bin/env python3
"""Renders fabricbench's HTML pages in Debian's Chromium (playwright, one browser for all pages) and
checks what a reader sees.

usage: html_browser_test.py FABRICBENCH FIXTURES_DIR OUT_DIR
For each result document (real 2 x H200 and one-H200 results and the synthetic ones: 8-GPU
NVSwitch, MI300X, PCIe, 16 GPUs, one GPU, a failed run), `report --baseline`, and `compare -o diff.html`, at 1280 and
800 px: the banner's outcome, every chart's series, the heatmap's cells, the machine's GPUs, no text
over other text, nothing cut off, every point where its value puts it on the axes. Screenshots of
each land in OUT_DIR. A document with 1000 GPU ids must give a bounded page. Exit 0 when all hold.
To take one screenshot (the README's): html_browser_test.py --shot REPORT.html OUT.png [WIDTH]
"""
import copy
import json
import os
import subprocess
import sys
import tempfile

try:
    from playwright.sync_api import sync_playwright
except ImportError:
    sys.exit("FAIL: python's playwright is missing (scripts/test.sh installs it: pip install playwright)")

HERE = os.path.dirname(os.path.abspath(__file__))
CHROMIUM = "/usr/bin/chromium"
WIDTHS = (1280, 800)
MAX_PAGE_BYTES = 2 << 20  # the page of a document with 1000 GPU ids (issue 18: was 157 MB)

# name -> (fixture, expected outcome)
# The outcome is this build's rules' (report judges what it shows): the doctor's saved warnings are
# info now, the synthetic scale runs name GPUs the document lacks (GPU_LOST), the synthetic 8-GPU
# curves sit below their expectations, the PCIe box's missing peer access is across sockets (info).
# The headline is the verdict (issue 49): a document whose host configuration was not read is
# "incomplete" (its host check UNKNOWN) however healthy its figures; the 2 x H200 on TCP sockets are
# far below any datacenter network of the class (SIGNATURE_SOCKETS).
PAGES = {
    "h200x2-combined": ("h200x2-combined.json", "incomplete"),
    "h200x2-doctor-quick": ("h200x2-doctor-quick.json", "incomplete"),
    "synthetic-scale": ("synthetic-scale.json", "errors"),
    "nvswitch8": ("synthetic-nvswitch8.json", "warnings"),
    "mi300x8": ("synthetic-mi300x8.json", "errors"),
    "pcie8": ("synthetic-pcie8.json", "incomplete"),
    "16gpu-pairs": ("synthetic-16gpu-pairs.json", "incomplete"),
    "1gpu": ("synthetic-1gpu.json", "incomplete"),
    "h200x1-doctor": ("h200x1-doctor.json", "healthy"),
    "failed": ("synthetic-failed.json", "failed"),
    "2host-socket": ("synthetic-2host-socket.json", "errors"),
    "prolog-slow8": ("synthetic-prolog-slow8.json", "errors"),
}


def drawn_collectives(doc):
    return [r for r in doc["runs"] if r["kind"] == "collective" and r["points"] and len(r["gpus"]) > 1]


def judged_findings(path):
    """How many findings this build's rules give the document: what its page must list."""
    out = subprocess.run([FABRICBENCH, "report", path, "--analyse"], capture_output=True, text=True).stdout
    return sum(1 for line in out.splitlines() if line.startswith("  ["))


def expect_report(doc, seen, baseline=None, findings=None):
    """What the page of `doc` must show, against what the browser measured."""
    problems, charts = [], seen["charts"]
    collectives = drawn_collectives(doc)
    if collectives:
        busbw = charts.get("busbw", {})
        want = len(collectives) + (len(drawn_collectives(baseline)) if baseline else 0)
        if busbw.get("series") != want:
            problems.append(f"busbw chart has {busbw.get('series')} series, want {want}")
        if baseline and busbw.get("dashed") != len(drawn_collectives(baseline)):
            problems.append(f"busbw chart has {busbw.get('dashed')} dashed baseline series")
        across_hosts = len({g.get("host") for g in doc.get("gpus", []) if g.get("host")}) >= 2
        if not across_hosts and doc.get("topology") and doc["topology"]["pairs"] and \
                doc["topology"]["pairs"][0].get("sm_ceiling_gbps"):
            if busbw.get("ceiling", 0) < 1:
                problems.append("busbw chart lacks its ceiling line")
        # The chart's expectation marks are the table's expectations (one expected figure).
        if any(row["expected"] for row in seen["headline_rows"]) and busbw.get("expected", 0) < 1:
            problems.append("the table has expectations the busbw chart does not mark")
    elif "busbw" in charts:
        problems.append("a busbw chart drawn with no interconnect measured")
    if any(r["kind"] == "collective" for r in doc["runs"]) and not collectives and not seen["one_gpu_note"]:
        problems.append("one GPU but no note saying there is no interconnect")
    pairs = {(m["src"], m["dst"]) for m in doc.get("p2p", []) if m["test"] == "ce_read" and m["src"] >= 0}
    gpus = {g for p in pairs for g in p}
    if len(gpus) > 1:
        heat = charts.get("pairs", {})
        if heat.get("cells") != len(gpus) ** 2 or heat.get("cellvalues") != len(gpus) ** 2:
            problems.append(f"heatmap: {heat.get('cells')} cells, {heat.get('cellvalues')} values, want {len(gpus) ** 2}")
    scale_runs = [r for r in doc["runs"] if r["kind"] == "scale" and r["points"]]
    want = len({r.get("label") for r in scale_runs})
    if scale_runs and charts.get("scaling", {}).get("series") != want:
        problems.append(f"scaling chart has {charts.get('scaling', {}).get('series')} series, want {want}")
    # Algorithm sweeps: every configuration drawn; past 8 split into charts of at most 8 (NCCL's
    # choice repeated on each for reference).
    algos_runs = [r for r in doc["runs"] if r["kind"] == "algos" and r["points"]]
    algos = {k: v for k, v in charts.items() if k == "algos" or k.startswith("algos-")}
    forced = sum(v["series"] - v["dashed"] for v in algos.values())
    if algos_runs and forced != len([r for r in algos_runs if r.get("forced")]):
        problems.append(f"algos charts draw {forced} forced configurations of {len(algos_runs)} runs")
    if any(v["series"] > 8 for v in algos.values()):
        problems.append(f"an algos chart with more than 8 series: {[v['series'] for v in algos.values()]}")
    topo = doc.get("topology")
    hosts = {g.get("host") for g in doc.get("gpus", []) if g.get("host")}
    if len(hosts) >= 2:  # a job across hosts: its hosts drawn, not rank 0's topology
        if seen["host_cards"] != len(hosts):
            problems.append(f"the page draws {seen['host_cards']} hosts of {len(hosts)}")
    elif topo and topo["gpus"] and charts.get("topology", {}).get("gpus") != len(topo["gpus"]):
        problems.append(f"the machine drawing shows {charts.get('topology', {}).get('gpus')} GPUs of {len(topo['gpus'])}")
    if seen["verdict_status"] is None:
        problems.append("the page does not open with the verdict")
    problems += expect_gpu_local(doc, seen)
    problems += expect_every_figure(doc, seen)
    problems += expect_banner_agrees(seen)
    want_findings = len(doc["findings"]) if findings is None else findings
    if seen["findings"] != want_findings:
        problems.append(f"{seen['findings']} findings shown of {want_findings}")
    return problems


def expect_every_figure(doc, seen):
    """Every measured figure is on the page: each collective's largest size in the headline table,
    each copy between two GPUs in the heatmap (copy-engine reads) or the pair table."""
    problems = []
    rows = {r["collective"]: r for r in seen["headline_rows"]}
    for run in doc["runs"]:
        if run["kind"] != "collective" or not run["points"]:
            continue
        largest = max(run["points"], key=lambda p: p["bytes"])
        row = rows.get(run["collective"])
        if row is None or abs(row["busbw"] - round(largest["busbw_gbps"], 1)) > 0.051:
            problems.append(f"headline table lacks {run['collective']} {largest['busbw_gbps']:.1f} GB/s")
    cells = {(s, d): v for s, d, v in seen["cells"]}
    pair_rows = {(t, where.replace("<->", "->")): v for t, where, v in seen["pair_rows"]}
    for m in doc.get("p2p", []):
        if m["src"] < 0 or m["dst"] < 0 or m["src"] == m["dst"] or m["samples"] == 0:
            continue
        where = f"GPU{m['src']} -> GPU{m['dst']}"
        if m["test"] == "ce_read" and (m["src"], m["dst"]) in cells:
            continue
        if abs(pair_rows.get((m["test"], where), -1) - round(m["value"], 1)) > 0.051:
            problems.append(f"{m['test']} {where} ({m['value']:.1f}) is not on the page")
    return problems[:10]


def expect_banner_agrees(seen):
    """The banner against the findings shown: its outcome is their worst severity, and a figure below
    its expectation's floor never sits under a healthy banner."""
    if seen["outcome"] in ("failed", "running", None):
        return []
    sev = seen["severities"]
    # Without a warning the verdict decides: UNKNOWN (a check could not run) is "incomplete".
    quiet = "incomplete" if seen["verdict_status"] == "UNKNOWN" else "healthy"
    want = "errors" if "error" in sev else "warnings" if "warning" in sev else quiet
    if want == "healthy" and seen["outcome"] == "unmeasured":
        want = "unmeasured"  # nothing was held against a bound: never "healthy"
    below = [r for r in seen["headline_rows"] if r["floor"] is not None and r["busbw"] < r["floor"]]
    problems = [] if seen["outcome"] == want else [f"banner says {seen['outcome']}, the findings {want}"]
    if below and seen["outcome"] == "healthy":
        problems.append(f"healthy banner over {below[0]['collective']} below its expectation")
    if not seen["rules"]:
        problems.append("the banner does not say which rules judged the page")
    return problems


PER_GPU = ("h2d", "d2h", "h2d_sm", "d2h_sm", "h2d_all", "d2h_all", "local_copy", "host_latency")


def expect_gpu_local(doc, seen):
    """Every figure of a GPU on its own is in the table with its unit; each one with an expectation
    has its bar, at its measured value and as long as its share of the expectation says."""
    problems = []
    want = {}
    for m in doc.get("p2p", []):
        if m["test"] in PER_GPU and m["samples"] > 0:
            gpu = m["dst"] if m["src"] < 0 else m["src"]
            want.setdefault(f"{m['test']} GPU{gpu}", m)
    rows = {r[0]: r for r in seen["gpu_rows"]}
    bars = {b["figure"]: b for b in seen["charts"].get("gpu-local", {}).get("bars", [])}
    for name, m in want.items():
        row = rows.get(name)
        unit = "ns" if m["unit"] == "ns" else "GB/s"
        if row is None or row[1] != f"{m['value']:.1f} {unit}":
            problems.append(f"gpu-local: {name} {m['value']:.1f} {unit} not in the table (row {row})")
            continue
        if row[2] != "-" and name not in bars:
            problems.append(f"gpu-local: {name} has an expectation ({row[2]}) but no bar")
    widths = [b["width"] / min(b["measured"] / b["expected"] if "latency" not in f else b["expected"] / b["measured"], 1.25)
              for f, b in bars.items() if b["measured"] > 0]
    if widths and max(widths) - min(widths) > 2:  # px: every bar on the same scale
        problems.append(f"gpu-local: bars not drawn to one scale ({min(widths):.1f}-{max(widths):.1f} px per share)")
    if len(doc["gpus"]) == 1 and want and not seen["one_gpu_next"]:
        problems.append("one GPU: no line saying how to measure an interconnect")
    return problems


def render(fabricbench, args, html):
    subprocess.run([fabricbench] + args + ["-o", html], check=False, stdout=subprocess.DEVNULL)
    if not os.path.exists(html):
        raise RuntimeError(f"fabricbench {' '.join(args)} wrote no page")


def check_page(browser, html, out_dir, name, expect):
    """Opens `html` at each width; returns the problems found."""
    problems = []
    script = open(os.path.join(HERE, "page_checks.js")).read()
    for width in WIDTHS:
        page = browser.new_page(viewport={"width": width, "height": 900})
        page.goto("file://" + os.path.abspath(html))
        seen = page.evaluate(script, width)
        page.screenshot(path=os.path.join(out_dir, f"{name}-{width}.png"), full_page=True)
        page.close()
        found = seen["problems"][:20] + expect(seen)
        problems += [f"{name} @{width}px: {p}" for p in found]
        if width == WIDTHS[0]:
            print(f"{name}: outcome {seen['outcome']}, charts {json.dumps(seen['charts'])}")
    return problems


def bounded_page(fabricbench, work):
    """1000 GPU ids in the pair measurements: the page stays small and says it summarised."""
    doc = json.load(open(os.path.join(FIXTURES, "h200x2-combined.json")))
    base = next(m for m in doc["p2p"] if m["test"] == "ce_read")
    doc["p2p"] = [dict(base, src=i, dst=(i * 7 + 1) % 1000) for i in range(1000)]
    path = os.path.join(work, "huge.json")
    json.dump(doc, open(path, "w"))
    html = os.path.join(work, "huge.html")
    render(fabricbench, ["report", path], html)
    size = os.path.getsize(html)
    text = open(html).read()
    print(f"1000 GPU ids: a page of {size} bytes")
    problems = [] if size < MAX_PAGE_BYTES else [f"1000 GPU ids make a page of {size} bytes"]
    return problems + ([] if "summarised" in text else ["1000 GPU ids: no summary instead of the matrix"])


def regressed_copy(path, work):
    """A copy of `path` whose all_reduce lost 30% at every size."""
    doc = json.load(open(path))
    for r in doc["runs"]:
        if r["collective"] == "all_reduce":
            for p in r["points"]:
                p["busbw_gbps"] *= 0.7
                p["algbw_gbps"] *= 0.7
                p["time_us"] = {k: (v / 0.7 if k not in ("n", "median_ci") else v) for k, v in p["time_us"].items()}
    out = os.path.join(work, "regressed.json")
    json.dump(doc, open(out, "w"))
    return out


def main():
    global FIXTURES, FABRICBENCH
    if sys.argv[1] == "--shot":
        width = int(sys.argv[4]) if len(sys.argv) > 4 else 1280
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM)
            page = browser.new_page(viewport={"width": width, "height": 900})
            page.goto("file://" + os.path.abspath(sys.argv[2]))
            page.screenshot(path=sys.argv[3], full_page=True)
            browser.close()
        return 0
    fabricbench, FIXTURES, out_dir = sys.argv[1], sys.argv[2], sys.argv[3]
    FABRICBENCH = fabricbench
    os.makedirs(out_dir, exist_ok=True)
    work = tempfile.mkdtemp()
    problems = bounded_page(fabricbench, work)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        for name, (fixture, outcome) in PAGES.items():
            path = os.path.join(FIXTURES, fixture)
            doc = json.load(open(path))
            html = os.path.join(out_dir, name + ".html")
            render(fabricbench, ["report", path], html)

            def expect(seen, doc=doc, outcome=outcome, findings=judged_findings(path)):
                got = [] if seen["outcome"] == outcome else [f"banner says {seen['outcome']}, want {outcome}"]
                return got + expect_report(doc, seen, findings=findings)

            problems += check_page(browser, html, out_dir, name, expect)
        # report --baseline: the other run dashed on the same axes.
        base_path = os.path.join(FIXTURES, "h200x2-run-6coll-1M-4G-procs.json")
        new_path = os.path.join(FIXTURES, "h200x2-combined.json")
        html = os.path.join(out_dir, "baseline.html")
        render(fabricbench, ["report", new_path, "--baseline", base_path], html)
        new_findings = judged_findings(new_path)
        problems += check_page(browser, html, out_dir, "baseline",
                               lambda seen: expect_report(json.load(open(new_path)), seen, json.load(open(base_path)),
                                                          new_findings))
        # compare -o diff.html: both runs, the regressions ringed.
        html = os.path.join(out_dir, "compare.html")
        render(fabricbench, ["compare", base_path, regressed_copy(base_path, work)], html)

        def expect_compare(seen):
            busbw = seen["charts"].get("busbw", {})
            got = [] if seen["outcome"] == "regression" else [f"compare banner says {seen['outcome']}"]
            if not any("all_reduce" in r for r in seen["regressions_named"]):
                got.append(f"the banner does not name the regressions: {seen['regressions_named']}")
            if busbw.get("series") != 12 or busbw.get("dashed") != 6:
                got.append(f"compare chart: {busbw.get('series')} series, {busbw.get('dashed')} dashed, want 12, 6")
            if not busbw.get("regressions"):
                got.append("compare chart marks no regression")
            return got

        problems += check_page(browser, html, out_dir, "compare", expect_compare)
        browser.close()
    for line in problems:
        print("FAIL:", line)
    print(f"screenshots in {out_dir}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
