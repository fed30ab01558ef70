#!/usr/bin/env python3
"""deploy/kubernetes's manifests, checked without a cluster.

  check_manifests.py DEPLOY_DIR

- Kubernetes' own kinds (Job, Service, DaemonSet, PersistentVolumeClaim) against the Kubernetes
  schemas that PyPI's kubernetes-validate bundles (offline), strict: an unknown field fails, as
  `kubectl apply --validate=strict` would; for the oldest and newest versions it checks here.
- The operators' kinds (PyTorchJob kubeflow.org/v1, MPIJob kubeflow.org/v2beta1) against the CRD
  schemas vendored in DEPLOY_DIR/crds (their README says source and version), with python's
  jsonschema; an object that lists its properties takes no other (the API server's strict field
  validation), and each replica's pod template also against Kubernetes' PodTemplate schema.
- What fabricbench needs to agree within a manifest: --nnodes and the Indexed Job's completions,
  --rendezvous and pod 0's DNS name, nprocPerNode and -np against the GPUs per pod, /dev/shm.
- What keeps a job closed (docs/security.md): every pod of a job that meets over fabricbench's TCP
  rendezvous reads FABRICBENCH_JOB_SECRET from a Secret of job-secrets.yaml; every job has a
  NetworkPolicy that admits its own pods only; every replica runs the same command line (a rank
  takes its paths from its own); a job's --prometheus names one file per host (%h); the prolog's
  results folder is not one every user may write in (/tmp, /var/tmp).
- Copies of the manifests with one typo'd field each, which every check above must refuse: a check
  that cannot fail is no check.
"""
import copy
import glob
import os
import subprocess
import sys

import jsonschema
import kubernetes_validate
import yaml

KUBERNETES_VERSIONS = ["1.30.0", "1.37.0"]
GPU = "nvidia.com/gpu"


def load_crds(deploy):
    """{(apiVersion, kind): closed JSON schema} from every CRD in deploy/crds."""
    schemas = {}
    for path in sorted(glob.glob(os.path.join(deploy, "crds", "*.yaml"))):
        for crd in yaml.safe_load_all(open(path)):
            if not crd:
                continue
            group, kind = crd["spec"]["group"], crd["spec"]["names"]["kind"]
            for version in crd["spec"]["versions"]:
                schema = close_objects(copy.deepcopy(version["schema"]["openAPIV3Schema"]))
                schemas[(f"{group}/{version['name']}", kind)] = schema
    return schemas


def close_objects(node):
    """An object schema with properties and no other rule takes no unknown field."""
    if isinstance(node, dict):
        if ("properties" in node and "additionalProperties" not in node
                and not node.get("x-kubernetes-preserve-unknown-fields")):
            node["additionalProperties"] = False
        for value in node.values():
            close_objects(value)
    elif isinstance(node, list):
        for value in node:
            close_objects(value)
    return node


def replica_templates(doc):
    """(replica type, pod template) of an operator's job."""
    specs = doc["spec"].get("pytorchReplicaSpecs") or doc["spec"].get("mpiReplicaSpecs") or {}
    return [(name, spec.get("template", {})) for name, spec in specs.items()]


def kubernetes_errors(doc, where):
    errors = []
    for version in KUBERNETES_VERSIONS:
        try:
            kubernetes_validate.validate(doc, version, strict=True)
        except kubernetes_validate.ValidationError as e:
            errors.append(f"{where}: Kubernetes {version}: {'.'.join(map(str, e.path))}: {e.message}")
        except kubernetes_validate.SchemaNotFoundError as e:
            errors.append(f"{where}: Kubernetes {version}: no schema: {e}")
    return errors


def document_errors(doc, where, crds):
    key = (doc.get("apiVersion"), doc.get("kind"))
    if key not in crds:
        return kubernetes_errors(doc, where)
    errors = [f"{where}: CRD {key[1]} {key[0]}: {'.'.join(map(str, e.path))}: {e.message}"
              for e in jsonschema.Draft7Validator(crds[key]).iter_errors(doc)]
    for name, template in replica_templates(doc):
        pod_template = {"apiVersion": "v1", "kind": "PodTemplate",
                        "metadata": {"name": f"{doc['metadata']['name']}-{name.lower()}"}, "template": template}
        errors += kubernetes_errors(pod_template, f"{where} {name}'s template")
    return errors


def pod_specs(doc):
    if doc["kind"] in ("Job", "DaemonSet"):
        return [doc["spec"]["template"]["spec"]]
    if doc["kind"] in ("PyTorchJob", "MPIJob"):
        return [t["spec"] for _, t in replica_templates(doc)]
    return []


def flag(command, name):
    return command[command.index(name) + 1] if name in command else None


def gpus_of(spec):
    return int(spec["containers"][0].get("resources", {}).get("limits", {}).get(GPU, 0))


def fabricbench_errors(docs, where):
    """What fabricbench needs to agree within one file."""
    errors = []
    services = {d["metadata"]["name"]: d for d in docs if d["kind"] == "Service"}
    for doc in docs:
        for spec in pod_specs(doc):
            if gpus_of(spec) == 0 and doc["kind"] != "DaemonSet":
                continue
            mounts = {m.get("mountPath"): m.get("name") for m in spec["containers"][0].get("volumeMounts", [])}
            volumes = {v["name"]: v for v in spec.get("volumes", [])}
            shm = volumes.get(mounts.get("/dev/shm"), {}).get("emptyDir", {})
            if shm.get("medium") != "Memory" or not shm.get("sizeLimit", "").endswith("Gi"):
                errors.append(f"{where}: {doc['kind']}: /dev/shm is no memory-backed emptyDir of GiBs")
        if doc["kind"] == "Job":
            spec = doc["spec"]
            pod = spec["template"]["spec"]
            command = pod["containers"][0]["command"]
            host = f"{doc['metadata']['name']}-0.{pod.get('subdomain')}"
            checks = [
                (spec.get("completionMode") == "Indexed", "completionMode is not Indexed"),
                (spec["completions"] == spec["parallelism"] == int(flag(command, "--nnodes")),
                 "completions, parallelism and --nnodes differ"),
                (int(flag(command, "--nproc-per-node")) == gpus_of(pod), "--nproc-per-node is not the GPUs per pod"),
                ((flag(command, "--rendezvous") or "").rsplit(":", 1)[0] == host, f"--rendezvous is not pod 0 ({host})"),
                (services.get(pod.get("subdomain"), {}).get("spec", {}).get("clusterIP") == "None",
                 "no headless Service named as the pods' subdomain"),
                (services.get(pod.get("subdomain"), {}).get("spec", {}).get("selector", {}).get("job-name")
                 == doc["metadata"]["name"], "the Service does not select the Job's pods"),
            ]
            errors += [f"{where}: {why}" for ok, why in checks if not ok]
        if doc["kind"] == "PyTorchJob":
            for name, template in replica_templates(doc):
                if doc["spec"].get("nprocPerNode") != str(gpus_of(template["spec"])):
                    errors.append(f"{where}: {name}: nprocPerNode is not the GPUs per pod")
        if doc["kind"] == "MPIJob":
            specs = doc["spec"]["mpiReplicaSpecs"]
            command = specs["Launcher"]["template"]["spec"]["containers"][0]["command"]
            slots = doc["spec"]["slotsPerWorker"]
            if slots != gpus_of(specs["Worker"]["template"]["spec"]):
                errors.append(f"{where}: slotsPerWorker is not the GPUs per Worker")
            if int(flag(command, "-np")) != slots * specs["Worker"]["replicas"]:
                errors.append(f"{where}: -np is not slotsPerWorker x the Workers")
    return errors


def pod_labels(doc):
    """The labels every pod of a job carries: a Job's job-name (Kubernetes sets it), else the templates'."""
    if doc["kind"] == "Job":
        return [{"job-name": doc["metadata"]["name"]}]
    return [t.get("metadata", {}).get("labels", {}) for _, t in replica_templates(doc)]


def admits_only(policy, labels):
    """Whether a NetworkPolicy selects pods with `labels` and lets in only pods with them."""
    spec = policy["spec"]
    selected = spec.get("podSelector", {}).get("matchLabels", {})
    if not selected or any(labels.get(k) != v for k, v in selected.items()) or "Ingress" not in spec.get(
            "policyTypes", []):
        return False
    for rule in spec.get("ingress", []):
        sources = rule.get("from")
        if not sources:
            return False  # a rule without `from` admits every source
        for source in sources:
            if set(source) != {"podSelector"} or source["podSelector"].get("matchLabels") != selected:
                return False
    return True


def secret_ref(container):
    for env in container.get("env", []):
        if env.get("name") == "FABRICBENCH_JOB_SECRET":
            return env.get("valueFrom", {}).get("secretKeyRef")
    return None


def security_errors(docs, where, secrets):
    """What keeps a job closed (docs/security.md)."""
    errors = []
    policies = [d for d in docs if d["kind"] == "NetworkPolicy"]
    for doc in docs:
        if doc["kind"] not in ("Job", "PyTorchJob", "MPIJob"):
            if doc["kind"] == "DaemonSet":
                script = " ".join(doc["spec"]["template"]["spec"]["containers"][0]["command"])
                out = script.split("--out", 1)[1].split()[0] if "--out" in script else ""
                if not out.startswith("/var/lib/"):
                    errors.append(f"{where}: the prolog's --out {out!r} is not a folder of root's (/var/lib/...)")
            continue
        name = doc["metadata"]["name"]
        for labels in pod_labels(doc):
            if not any(admits_only(p, labels) for p in policies):
                errors.append(f"{where}: {doc['kind']} {name}: no NetworkPolicy admits only the job's own pods {labels}")
        tcp = doc["kind"] != "MPIJob"  # the MPIJob's ranks meet through MPI
        commands = []
        for spec in pod_specs(doc):
            container = spec["containers"][0]
            command = container.get("command", [])
            if "fabricbench" in command:
                commands.append(command)
            if tcp:
                ref = secret_ref(container)
                if not ref or ref.get("key") not in secrets.get(ref.get("name"), {}):
                    errors.append(f"{where}: {doc['kind']} {name}: a pod without FABRICBENCH_JOB_SECRET from a "
                                  f"Secret of job-secrets.yaml")
            prom = flag(command, "--prometheus")
            if prom and "%h" not in prom:
                errors.append(f"{where}: {doc['kind']} {name}: --prometheus {prom} is one file for every host (%h)")
        if any(c != commands[0] for c in commands):
            errors.append(f"{where}: {doc['kind']} {name}: the replicas run different command lines")
    return errors


def manifest_errors(files, crds):
    errors = []
    secrets = {d["metadata"]["name"]: d.get("stringData", d.get("data", {}))
               for docs in files.values() for d in docs if d["kind"] == "Secret"}
    for path, docs in files.items():
        for i, doc in enumerate(docs):
            errors += document_errors(doc, f"{os.path.basename(path)}[{i}] {doc.get('kind')}", crds)
        try:
            errors += fabricbench_errors(docs, os.path.basename(path))
            errors += security_errors(docs, os.path.basename(path), secrets)
        except (KeyError, ValueError, TypeError, StopIteration, IndexError) as e:
            errors.append(f"{os.path.basename(path)}: fabricbench's settings unreadable: {e!r}")
    return errors


def typo(files, name, mutate):
    """A copy of the manifests with file `name` changed by `mutate` (with the Secrets it refers to)."""
    broken = copy.deepcopy(files)
    path = next(p for p in broken if os.path.basename(p) == name)
    mutate(broken[path])
    secrets = next(p for p in broken if os.path.basename(p) == "job-secrets.yaml")
    return {path: broken[path], secrets: broken[secrets]}


def rename(obj, old, new):
    obj[new] = obj.pop(old)


def main():
    deploy = sys.argv[1]
    crds = load_crds(deploy)
    paths = sorted(glob.glob(os.path.join(deploy, "*.yaml")))
    files = {p: [d for d in yaml.safe_load_all(open(p)) if d] for p in paths}
    failures = 0
    errors = manifest_errors(files, crds)
    for e in errors:
        print(f"FAIL: {e}")
    failures += len(errors)
    print(f"{len(paths)} manifests, {sum(map(len, files.values()))} objects: {len(errors)} errors "
          f"(Kubernetes {', '.join(KUBERNETES_VERSIONS)}, CRDs {', '.join(k for _, k in crds)})")

    # The command-line tool too, as a user runs it: the Kubernetes kinds pass, a typo fails.
    native = [p for p in paths if not any((d["apiVersion"], d["kind"]) in crds for d in files[p])]
    run = subprocess.run(["kubernetes-validate", "--strict", "--quiet", "-k", KUBERNETES_VERSIONS[0], *native],
                         capture_output=True, text=True)
    if run.returncode != 0:
        print(f"FAIL: kubernetes-validate exit {run.returncode}: {run.stdout}{run.stderr}")
        failures += 1

    pod = lambda docs, kind: next(d for d in docs if d["kind"] == kind)["spec"]["template"]["spec"]
    worker = lambda docs, kind, key: next(d for d in docs if d["kind"] == kind)["spec"][key]["Worker"]
    typos = {
        "Job: spec.template.spec.subdomian": typo(files, "indexed-job-doctor.yaml",
                                                  lambda d: rename(pod(d, "Job"), "subdomain", "subdomian")),
        "DaemonSet: a container's volumeMount": typo(files, "daemonset-prolog.yaml", lambda d: rename(
            pod(d, "DaemonSet")["containers"][0]["volumeMounts"][0], "mountPath", "mountpath")),
        "PyTorchJob: spec.nprocsPerNode": typo(files, "pytorchjob-doctor.yaml",
                                               lambda d: rename(d[0]["spec"], "nprocPerNode", "nprocsPerNode")),
        "PyTorchJob: a Worker's resources.limts": typo(files, "pytorchjob-doctor.yaml", lambda d: rename(
            worker(d, "PyTorchJob", "pytorchReplicaSpecs")["template"]["spec"]["containers"][0]["resources"],
            "limits", "limts")),
        "MPIJob: spec.mpiReplicaSpecs.Worker.replica": typo(files, "mpijob-doctor.yaml", lambda d: rename(
            worker(d, "MPIJob", "mpiReplicaSpecs"), "replicas", "replica")),
        "Job: completions 3 against --nnodes 4": typo(files, "indexed-job-nodes.yaml", lambda d: next(
            x for x in d if x["kind"] == "Job")["spec"].update(completions=3)),
        "MPIJob: spec.slotPerWorker": typo(files, "mpijob-nodes.yaml",
                                           lambda d: rename(d[0]["spec"], "slotsPerWorker", "slotPerWorker")),
        "Job: no FABRICBENCH_JOB_SECRET": typo(files, "indexed-job-doctor.yaml",
                                               lambda d: pod(d, "Job")["containers"][0].pop("env")),
        "PyTorchJob: a Worker whose secret names no Secret": typo(files, "pytorchjob-nodes.yaml", lambda d: worker(
            d, "PyTorchJob", "pytorchReplicaSpecs")["template"]["spec"]["containers"][0]["env"][0]["valueFrom"][
            "secretKeyRef"].update(name="fabricbench-other-secret")),
        "NetworkPolicy: a rule that admits every source": typo(files, "indexed-job-nodes.yaml", lambda d: next(
            x for x in d if x["kind"] == "NetworkPolicy")["spec"]["ingress"][0].pop("from")),
        "NetworkPolicy: another namespace let in": typo(files, "mpijob-doctor.yaml", lambda d: next(
            x for x in d if x["kind"] == "NetworkPolicy")["spec"]["ingress"][0]["from"].append(
            {"namespaceSelector": {}})),
        "PyTorchJob: a Worker with its own command line": typo(files, "pytorchjob-doctor.yaml", lambda d: worker(
            d, "PyTorchJob", "pytorchReplicaSpecs")["template"]["spec"]["containers"][0].update(
            command=["fabricbench", "doctor", "--quick"])),
        "Job: one --prometheus file for every host": typo(files, "indexed-job-doctor.yaml", lambda d: pod(
            d, "Job")["containers"][0]["command"].__setitem__(-1, "/results/fabricbench.prom")),
        "DaemonSet: --out under /var/tmp": typo(files, "daemonset-prolog.yaml", lambda d: pod(
            d, "DaemonSet")["containers"][0]["command"].__setitem__(
            2, "fabricbench doctor --prolog --out /var/tmp/fabricbench-doctor --prometheus /textfile/x.prom")),
    }
    for what, broken in typos.items():
        found = manifest_errors(broken, crds)
        if found:
            print(f"refused as it must be: {what}: {found[0]}")
        else:
            print(f"FAIL: a manifest with a typo passed: {what}")
            failures += 1
    with open(os.path.join(os.environ.get("TMPDIR", "/tmp"), f"fb-typo-{os.getpid()}.yaml"), "w") as out:
        yaml.safe_dump_all(next(iter(typos["Job: spec.template.spec.subdomian"].values())), out)
    run = subprocess.run(["kubernetes-validate", "--strict", "--quiet", "-k", KUBERNETES_VERSIONS[0], out.name],
                         capture_output=True, text=True)
    os.unlink(out.name)
    if run.returncode == 0 or "subdomian" not in run.stdout + run.stderr:
        print(f"FAIL: kubernetes-validate passed a typo'd Job: {run.stdout}{run.stderr}")
        failures += 1
    else:
        print(f"refused as it must be by kubernetes-validate itself: {(run.stdout + run.stderr).strip()}")
    print("all manifest checks passed" if failures == 0 else f"{failures} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
