#!/usr/bin/env python3
"""Opens fabricbench's HTML report in headless Chromium and checks that every chart is drawn.

usage: html_check.py FABRICBENCH RESULT.json
Renders the report, dumps the DOM Chromium built and takes a screenshot, then checks: one busbw
chart per collective run with a drawn series and its ceiling line, the pair heatmap with a cell
per GPU pair, the scaling chart when the result has scale runs, the findings, and a screenshot
that is not blank. Exit 0 when all hold.
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib
from html.parser import HTMLParser


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    sys.exit("FAIL: no Chromium found (scripts/test.sh installs Debian's chromium)")


def run_chromium(browser, args):
    base = [browser, "--headless=new", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            "--user-data-dir=" + tempfile.mkdtemp()]
    return subprocess.run(base + args, capture_output=True, text=True, timeout=120)


class Dom(HTMLParser):
    def __init__(self):
        super().__init__()
        self.charts = {}      # data-chart -> counts of drawn elements
        self.current = None
        self.findings = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg" and "data-chart" in a:
            self.current = a["data-chart"]
            self.charts[self.current] = {"series": 0, "ceiling": 0, "cells": 0}
        elif self.current and tag == "path" and a.get("class") == "series" and len(a.get("d", "")) > 3:
            self.charts[self.current]["series"] += 1
        elif self.current and tag == "line" and a.get("class") == "ceiling":
            self.charts[self.current]["ceiling"] += 1
        elif self.current and tag == "rect" and a.get("class") == "cell":
            self.charts[self.current]["cells"] += 1
        elif tag == "div" and a.get("class") == "finding":
            self.findings += 1

    def handle_endtag(self, tag):
        if tag == "svg":
            self.current = None


def png_pixels(path):
    """Decodes an 8-bit RGB/RGBA PNG (what Chromium writes) into rows of pixels."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width, height, ctype = 8, b"", 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), f"unexpected PNG format {depth} {ctype}"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    bpp = 3 if ctype == 2 else 4
    raw, stride, prev, rows, i = zlib.decompress(idat), width * bpp, None, [], 0
    for _ in range(height):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x] if prev else 0
            c = prev[x - bpp] if prev and x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return rows, bpp


def main():
    fabricbench, result_path = sys.argv[1], sys.argv[2]
    result = json.load(open(result_path))
    out = tempfile.mkdtemp()
    html = os.path.join(out, "report.html")
    subprocess.run([fabricbench, "report", result_path, "-o", html], check=True)
    browser = chromium()
    dom_run = run_chromium(browser, ["--dump-dom", "file://" + html])
    dom = Dom()
    dom.feed(dom_run.stdout)
    shot = os.path.join(out, "shot.png")
    run_chromium(browser, ["--screenshot=" + shot, "--window-size=1200,3200", "file://" + html])
    problems = []
    collectives = [r for r in result["runs"] if r["kind"] == "collective" and r["points"]]
    for run in collectives:
        chart = dom.charts.get("busbw-" + run["collective"])
        if not chart or chart["series"] < 1:
            problems.append(f"busbw chart of {run['collective']} not drawn")
        elif result.get("topology") and chart["ceiling"] < 1:
            problems.append(f"busbw chart of {run['collective']} has no ceiling line")
    gpus = {m["src"] for m in result.get("p2p", []) if m["src"] >= 0}
    if len(gpus) > 1 and dom.charts.get("pairs", {}).get("cells", 0) != len(gpus) ** 2:
        problems.append(f"pair heatmap should have {len(gpus) ** 2} cells: {dom.charts.get('pairs')}")
    if any(r["kind"] == "scale" for r in result["runs"]) and dom.charts.get("scaling", {}).get("series", 0) < 1:
        problems.append("scaling chart not drawn")
    if dom.findings != len(result["findings"]):
        problems.append(f"{dom.findings} findings shown of {len(result['findings'])}")
    if not os.path.exists(shot):
        problems.append("no screenshot: " + dom_run.stderr[-500:])
    else:
        rows, bpp = png_pixels(shot)
        colours, ink = set(), 0
        for row in rows[::4]:
            for x in range(0, len(row), bpp * 4):
                px = row[x:x + 3]
                colours.add(px)
                ink += px != b"\xff\xff\xff"
        total = len(rows[::4]) * (len(rows[0]) // (bpp * 4))
        print(f"screenshot: {len(rows)} rows, {len(colours)} colours sampled, {ink / total:.1%} not white")
        if len(colours) < 20 or ink / total < 0.02:
            problems.append("the screenshot looks blank")
    print(f"charts in the DOM: {json.dumps(dom.charts)}; findings shown: {dom.findings}")
    for p in problems:
        print("FAIL:", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
