#!/usr/bin/env python3
"""Validates result documents against docs/result.schema.json with the `jsonschema` package.

usage: check_result_schema.py FABRICBENCH REPO_DIR
Checked: every result document under tests/ (every JSON object there with a "schema" member; every
file of tests/fixtures/results and tests/fixtures/baseline must be one), the result parser's fuzz
seeds, the hand-written document of the unit tests (tests/unit/every_field_result.hpp), and what this
build writes: `topo --json` on each topology and host fixture tree, `project --json` on a saved run.
Then broken copies of a fixture (another major, a missing required member, a string for a number,
...) and of the hand-written document (its host sections and `nodes`, 1.3) must each be rejected at
the JSON path expected, so that the schema is known not to accept anything. A violation prints the
file and the JSON path; exit 0 when all hold.
"""
import copy
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

try:
    import jsonschema
    from jsonschema import Draft202012Validator  # jsonschema 4 or later
except ImportError:
    sys.exit("FAIL: python's jsonschema 4 or later is missing (scripts/deps.sh test: pip install 'jsonschema>=4')")

failures = []


def fail(message):
    failures.append(message)
    print("FAIL: " + message)


def all_errors(errors):
    """Errors with those inside oneOf/anyOf branches, so that the deepest JSON path is there."""
    for e in errors:
        yield e
        yield from all_errors(e.context)


def violations(validator, doc):
    """(JSON path, message) of each error, the most relevant first."""
    errors = sorted(validator.iter_errors(doc), key=jsonschema.exceptions.relevance)
    return [(e.json_path, e.message) for e in errors]


def check_valid(validator, name, doc):
    found = violations(validator, doc)
    for path, message in found[:10]:
        fail(f"{name}: {path}: {message[:300]}")
    if len(found) > 10:
        fail(f"{name}: {len(found) - 10} more violations")
    return not found


def source_documents(repo):
    """(name, document) of every result document kept in the sources."""
    docs, kept = [], set()
    # os.walk, not glob's "**": that follows symlinked folders, and a sysfs tree's links (a NIC's
    # `device`) point back to their ancestors.
    found = [os.path.join(d, n) for d, _, names in os.walk(os.path.join(repo, "tests")) for n in names]
    for path in sorted(p for p in found if p.endswith(".json")):
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        if isinstance(doc, dict) and "schema" in doc:
            docs.append((os.path.relpath(path, repo), doc))
            kept.add(path)
    for folder in ("results", "baseline"):
        for path in sorted(glob.glob(os.path.join(repo, "tests", "fixtures", folder, "*.json"))):
            if path not in kept:
                fail(f"{os.path.relpath(path, repo)}: not a result document (no \"schema\" member)")
    for path in sorted(glob.glob(os.path.join(repo, "fuzz", "corpus", "fuzz_result_document", "*.json"))):
        with open(path, encoding="utf-8") as f:
            docs.append((os.path.relpath(path, repo), json.load(f)))
    header = os.path.join(repo, "tests", "unit", "every_field_result.hpp")
    with open(header, encoding="utf-8") as f:
        text = re.search(r'kEveryFieldJson = R"\((.*?)\)";', f.read(), re.S)
    if not text:
        fail(f"{header}: kEveryFieldJson not found")
    else:
        docs.append(("tests/unit/every_field_result.hpp (kEveryFieldJson)", json.loads(text.group(1))))
    return docs


def written_documents(fabricbench, repo, out):
    """(name, document) of what this build writes where no GPU is needed."""
    runs = []
    for tree in sorted(glob.glob(os.path.join(repo, "tests", "fixtures", "topo", "*", "sys"))):
        tree = os.path.dirname(tree)
        args = ["topo", "--no-runtime", "--sysfs-root", tree]
        for flag, name in (("--nvml-file", "nvml.json"), ("--rocm-smi-file", "rocm-smi-showtopo.txt")):
            if os.path.exists(os.path.join(tree, name)):
                args += [flag, os.path.join(tree, name)]
        runs.append(args)
    for tree in sorted(glob.glob(os.path.join(repo, "tests", "fixtures", "host", "pcie-switch", "*"))):
        runs.append(["topo", "--no-runtime", "--sysfs-root", tree])
    saved = os.path.join(repo, "tests", "fixtures", "results", "h200x2-run-6coll-1M-4G-procs.json")
    runs.append(["project", saved, "--model", "llama-3-70b", "--batch", "64", "--tp", "1,2",
                 "--gemm-tflops", "700", "--hbm-gbps", "4000"])
    docs = []
    for i, args in enumerate(runs):
        path = os.path.join(out, f"written-{i}.json")
        shown = "fabricbench " + " ".join(os.path.relpath(a, repo) if a.startswith(repo) else a for a in args)
        done = subprocess.run([fabricbench] + args + ["--json", path], capture_output=True, text=True, check=False)
        if done.returncode not in (0, 1) or not os.path.exists(path):  # 1: an error-level finding
            fail(f"{shown} --json: exit {done.returncode}, no document: {done.stderr[-500:]}")
            continue
        with open(path, encoding="utf-8") as f:
            docs.append((shown + " --json", json.load(f)))
    docs += judged_documents(fabricbench, repo, out)
    return docs


def judged_documents(fabricbench, repo, out):
    """`report --analyse -o x.json`: the verdict contract, and a site's rows (--expectations)."""
    site = os.path.join(out, "site.json")
    with open(site, "w", encoding="utf-8") as f:
        json.dump({"schema": "fabricbench.expectations/1",
                   "rows": [{"gpu": "H200", "gpus": 2, "figure": "all_reduce", "min_bytes": 1073741824,
                             "value": 330, "tolerance": 0.05, "source": "site", "date": "2026-11-20"}]}, f)
    docs = []
    for i, (name, extra) in enumerate((("h200x2-doctor-quick", []), ("h200x1-doctor", []),
                                       ("h200x2-run-6coll-1M-4G-procs", ["--expectations", site]))):
        saved = os.path.join(repo, "tests", "fixtures", "results", name + ".json")
        path = os.path.join(out, f"judged-{i}.json")
        args = ["report", saved, "--analyse", "-o", path] + extra
        done = subprocess.run([fabricbench] + args, capture_output=True, text=True, check=False)
        shown = "fabricbench " + " ".join(os.path.relpath(a, repo) if a.startswith(repo) else a for a in args)
        if done.returncode not in (0, 1) or not os.path.exists(path):
            fail(f"{shown}: exit {done.returncode}, no document: {done.stderr[-500:]}")
            continue
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        if "verdict" not in doc or (extra and "expectations" not in doc):
            fail(f"{shown}: the judged document lacks its verdict or expectations")
        docs.append((shown, doc))
    return docs


def this_builds_version(repo):
    header = os.path.join(repo, "src", "model", "result_version.hpp")
    with open(header, encoding="utf-8") as f:
        found = re.search(r'kResultSchema = "([^"]+)"', f.read())
    if not found:
        sys.exit(f"FAIL: {header}: kResultSchema not found")
    return found.group(1)


def set_at(doc, path, value):
    *parents, last = path
    for key in parents:
        doc = doc[key]
    if value is DELETE:
        del doc[last]
    else:
        doc[last] = value


DELETE = object()
# (what is broken, where, the new value, the JSON path the schema must report)
BROKEN = [
    ("another major", ["schema"], "fabricbench.result/2.0", "$.schema"),
    ("a later minor than this schema describes", ["schema"], "fabricbench.result/1.7", "$.schema"),
    ("a malformed version", ["schema"], "fabricbench.result/1.x", "$.schema"),
    ("no version", ["schema"], DELETE, "$"),
    ("a missing required member", ["status"], DELETE, "$"),
    ("a point without busbw", ["runs", 0, "points", 0, "busbw_gbps"], DELETE, "$.runs[0].points[0]"),
    ("a string where a number must be", ["runs", 0, "points", 0, "busbw_gbps"], "331.7",
     "$.runs[0].points[0].busbw_gbps"),
    ("a fraction where a whole number must be", ["runs", 0, "points", 0, "bytes"], 1.5,
     "$.runs[0].points[0].bytes"),
    ("a GPU index out of range", ["runs", 0, "gpus", 0], 4096, "$.runs[0].gpus[0]"),
    ("an unknown status", ["status"], "done", "$.status"),
    ("an unknown severity", ["findings", 0, "severity"], "fatal", "$.findings[0].severity"),
    ("an unknown p2p test", ["p2p", 0, "test"], "ce_sideways", "$.p2p[0].test"),
    ("an unknown connection", ["topology", "pairs", 0, "connection"], "NV0", "$.topology.pairs[0].connection"),
    ("a member no version has", ["statuss"], "complete", "$"),
    ("a misspelt point member", ["runs", 0, "points", 0, "busbw_gpbs"], 1.0, "$.runs[0].points[0]"),
    ("a null where the reader needs an object", ["host", "comm"], None, "$.host.comm"),
    ("a NUMA node that is not a number", ["topology", "numa_cpulists", "x"], "0-3", "$.topology.numa_cpulists"),
]

# The same on the hand-written document of the unit tests, which has every member of 1.3: the host
# sections (`hosts`) and `nodes`.
BROKEN_1_3 = [
    ("a host section without its name", ["hosts", 0, "name"], DELETE, "$.hosts[0]"),
    ("a host section without its host", ["hosts", 0, "host"], DELETE, "$.hosts[0]"),
    ("a member a host section does not have", ["hosts", 0, "hostname"], "node-1", "$.hosts[0]"),
    ("a rank out of range", ["hosts", 0, "ranks", 0], 4096, "$.hosts[0].ranks[0]"),
    ("a number where the NET plugin's path must be", ["hosts", 0, "net_plugin"], 1, "$.hosts[0].net_plugin"),
    ("an unknown severity in a host's findings", ["hosts", 0, "findings", 0, "severity"], "fatal",
     "$.hosts[0].findings[0].severity"),
    ("a GPU without its index in a host section", ["hosts", 0, "gpus", 0, "index"], DELETE, "$.hosts[0].gpus[0]"),
    ("a fraction where nodes' bytes must be whole", ["nodes", "bytes"], 1.5, "$.nodes.bytes"),
    ("a misspelt nodes member", ["nodes", "referenc_gbps"], 48.0, "$.nodes"),
    ("a string where a pair's round must be", ["nodes", "pairs", 0, "round"], "1", "$.nodes.pairs[0].round"),
    ("a number where a pair's host must be", ["nodes", "pairs", 0, "a"], 3, "$.nodes.pairs[0].a"),
    ("a string where the named hosts' list must be", ["nodes", "named"], "node03", "$.nodes.named"),
]


def check_broken(validator, name, doc, cases):
    for what, path, value, where in cases:
        broken = copy.deepcopy(doc)
        set_at(broken, path, value)
        found = list(all_errors(validator.iter_errors(broken)))
        if not found:
            fail(f"{name} with {what} ({'.'.join(map(str, path))}): accepted, should be rejected")
        elif where not in (e.json_path for e in found):
            fail(f"{name} with {what}: rejected at {[e.json_path for e in found]}, expected at {where}")
        else:
            print(f"ok: {name} with {what}: rejected at {where}")


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: check_result_schema.py FABRICBENCH REPO_DIR")
    fabricbench, repo = sys.argv[1], os.path.abspath(sys.argv[2])
    schema_path = os.path.join(repo, "docs", "result.schema.json")
    with open(schema_path, encoding="utf-8") as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)  # the schema itself is a valid 2020-12 schema
    validator = Draft202012Validator(schema)
    version = this_builds_version(repo)
    if version not in schema["properties"]["schema"]["enum"]:
        fail(f"{schema_path}: does not describe {version}, the version this build writes")

    kept = source_documents(repo)
    with tempfile.TemporaryDirectory() as out:
        written = written_documents(fabricbench, repo, out)
    for name, doc in kept + written:
        if check_valid(validator, name, doc):
            print(f"ok: {name} ({doc.get('schema')})")
    for name, doc in written:
        if doc.get("schema") != version:
            fail(f"{name}: says {doc.get('schema')!r}; this build writes {version!r}")
    if len(written) < 10:
        fail(f"only {len(written)} documents written by this build were checked")

    fixture = os.path.join(repo, "tests", "fixtures", "results", "h200x2-doctor-quick.json")
    with open(fixture, encoding="utf-8") as f:
        doc = json.load(f)
    check_broken(validator, os.path.relpath(fixture, repo), doc, BROKEN)
    for accepted in ("fabricbench.result/1.0", "fabricbench.result/1.1", "fabricbench.result/1.2",
                     "fabricbench.result/1.3", "fabricbench.result/1.4", "fabricbench.result/1.5",
                     "fabricbench.result/1.6"):
        check_valid(validator, f"{os.path.relpath(fixture, repo)} as {accepted}", dict(doc, schema=accepted))
    every_field = dict(kept).get("tests/unit/every_field_result.hpp (kEveryFieldJson)", {})
    if not every_field.get("hosts") or "nodes" not in every_field:
        fail("tests/unit/every_field_result.hpp: kEveryFieldJson lacks hosts or nodes (1.3)")
    else:
        check_broken(validator, "kEveryFieldJson", every_field, BROKEN_1_3)

    if failures:
        sys.exit(f"{len(failures)} schema check(s) failed (schema: {schema_path})")
    print(f"all {len(kept)} saved and {len(written)} written result documents match {schema_path}")


if __name__ == "__main__":
    main()
