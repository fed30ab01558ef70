#pragma once
// One result document written by hand, with every field of every struct set to a value of its
// own, and the same document built in C++. Each null convention appears once each way (wrong,
// median_ci, op, nccl, p2p). The JSON tests check the serialiser against this text, not against
// itself, so a field missing from both to_json and from_json fails.
#include <limits>

#include "model/result.hpp"

inline constexpr const char* kEveryFieldJson = R"({
  "schema": "fabricbench.result/1.6",
  "tool": {"version": "9.8.7", "git": "f00dcafe"},
  "command": ["fabricbench", "doctor", "--quick"],
  "started": "2026-01-02T03:04:05Z",
  "finished": "2026-01-02T03:09:10Z",
  "status": "failed",
  "failure": "rank 1 was killed",
  "host": {"hostname": "node-7", "driver": "12.9", "runtime": "12.8",
           "comm": {"name": "RCCL", "version": "2.21.5", "version_code": 22105, "path": "/opt/librccl.so"},
           "config": {
             "numa_balancing": {"value": "1", "source": "/proc/sys/kernel/numa_balancing", "note": ""},
             "kernel_cmdline": {"value": "ro iommu=pt", "source": "/proc/cmdline", "note": ""},
             "iommu_units": {"value": "dmar0", "source": "/sys/class/iommu", "note": ""},
             "shm_bytes": {"value": "67108864", "source": "/proc/mounts",
                            "note" : ""
}
, "xid_count" : {"value" : "", "source" : "/dev/kmsg", "note" : "kernel log not readable"},
                "xid_lines" : ["NVRM: Xid (PCI:0000:1b:00): 79, GPU has fallen off the bus."],
                              "bridges"
    : [ {
      "bus_id" : "0000:20:01.1",
      "acs_control" : {"value" : "0x001d", "source" : "/sys/bus/pci/devices/0000:20:01.1/config", "note" : ""}
    } ],
      "gpus" : [ {
        "bus_id" : "0000:2c:00.0",
        "iommu_group_type" : {"value" : "DMA-FQ", "source" : "iommu_group/type", "note" : ""},
        "persistence_mode" : {"value" : "disabled", "source" : "NVML pm", "note" : ""},
        "clocks_event_reasons" : {"value" : "0x0000000000000048", "source" : "NVML ce", "note" : ""},
        "sm_clock_max_mhz" : {"value" : "1980", "source" : "NVML mc", "note" : ""},
        "sm_clock_target_mhz" : {"value" : "1500", "source" : "NVML ac", "note" : ""},
        "ecc_uncorrected_volatile" : {"value" : "3", "source" : "NVML ecc", "note" : ""},
        "remapped_rows_pending" : {"value" : "1", "source" : "NVML rr", "note" : ""},
        "remapped_rows_failure" : {"value" : "0", "source" : "NVML rr", "note" : ""},
        "retired_pages_pending" : {"value" : "", "source" : "NVML rp", "note" : "NVML: Not Supported"}
      } ],
      "network": {"read": true,
                  "ports": [{"name": "mlx5_0:1", "kind": "RoCE", "netdev": "ens1f0", "rate_gbps": 200.0,
                             "state": "ACTIVE", "phys_state": "LinkUp", "up": true, "numa_node": 1,
                             "bus_id": "0000:2d:00.0", "pci_path": ["pci0000:20", "0000:20:01.1", "0000:2d:00.0"],
                             "gpus": [{"bus_id": "0000:2c:00.0", "path_class": "PIX"}],
                             "source": "/sys/class/infiniband/mlx5_0/ports/1"}],
                  "gdr_peer_module": {"value": "none", "source": "/sys/module", "note": ""},
                  "gdr_dma_buf": {"value": "", "source": "/proc/sys/kernel/osrelease", "note": "kernel release not readable"}}
}
}
,
  "env": {"NCCL_ALGO": "Ring", "NCCL_PROTO": "LL128"},
  "gpus": [{"index": 3, "rank": 4, "name": "GPU-A", "pci_bus_id": "0000:1B:00.0",
            "memory_bytes": 85899345920, "compute_capability": 89, "host": "node-8"}],
  "topology": {
    "gpus": [{"index": 5, "name": "GPU-B", "vendor": "amd", "bus_id": "0000:2c:00.0", "device_id": "0x74a1",
              "pci_path": ["pci0000:20", "0000:20:01.1", "0000:2c:00.0"], "numa_node": 6, "cpulist": "48-95",
              "pcie": {"speed_gts": 16.0, "max_speed_gts": 32.0, "width": 8, "max_width": 16, "gen": 4,
                       "max_gen": 5},
              "links": [{"index": 2, "active": true, "version": 4, "remote": "0000:3d:00.0",
                         "remote_type": "switch"}]}],
    "pairs": [{"a": 5, "b": 6, "connection": "NV12", "pcie_class": "PXB", "links": 12, "link_gbps": 25.0,
               "wire_gbps": 300.0, "limit": "12 NVLink4 links", "sm_ceiling_gbps": 250.5,
               "ce_ceiling_gbps": 270.25, "p2p": true, "p2p_detail": "NVML: OK"},
              {"a": 5, "b": 7, "connection": "SYS", "pcie_class": "SYS", "links": 0, "link_gbps": 0.0,
               "wire_gbps": 31.5, "limit": "PCIe Gen4 x16", "sm_ceiling_gbps": 0.0, "ce_ceiling_gbps": 0.0,
               "p2p": null, "p2p_detail": ""}],
    "numa_cpulists": {"0": "0-47", "1": "48-95"},
    "sources": ["sysfs", "NVML"],
    "missing": ["rocm-smi: not installed"]},
  "runs": [
    {"kind": "scale", "label": "worst", "collective": "reduce", "dtype": "bfloat16", "op": "max", "root": 1,
     "gpus": [2, 0], "launcher": "threads", "graph_launches": 7, "alloc": "runtime", "fill": "zeros",
     "forced": {"NCCL_ALGO": "Tree"}, "failure": "out of memory",
     "nccl_setup": {"transports": ["P2P/CUMEM", "SHM"], "coll_channels": 24, "p2p_channels": 32,
                    "nvls_channels": 16, "nvls_available": true, "network": "IBext_v8",
                    "nics": [{"net": "IB", "index": 0, "device": "mlx5_0", "port": 1, "link": "RoCE",
                              "sharp": true, "address": ""},
                             {"net": "Socket", "index": 1, "device": "eth1", "port": 0, "link": "",
                              "sharp": false, "address": "10.0.0.1<0>"}]},
     "points": [
       {"bytes": 2048, "count": 1024, "in_place": true,
        "time_us": {"min": 1.5, "median": 2.5, "mean": 3.5, "p99": 4.5, "max": 5.5, "median_ci": 0.125, "n": 9},
        "algbw_gbps": 11.25, "busbw_gbps": 22.5, "wrong": 3, "iters_per_batch": 40,
        "nccl": {"algo": "RING", "proto": "SIMPLE", "channels": 16},
        "sampling": {"warmup_ops": 37, "warmup_ms": 31.5, "target_ci": 0.02, "ci_met": true, "stop": "target",
                     "first_batch_us": 2.75, "last_batch_us": 2.25}},
       {"bytes": 4096, "count": 2048, "in_place": false,
        "time_us": {"min": 6.5, "median": 7.5, "mean": 8.5, "p99": 9.5, "max": 10.5, "median_ci": null, "n": 2},
        "algbw_gbps": 33.75, "busbw_gbps": 45.0, "wrong": null, "iters_per_batch": 41, "nccl": null}]},
    {"kind": "algos", "label": "", "collective": "all_gather", "dtype": "int8", "op": null, "root": 0,
     "gpus": [1], "launcher": "mpi", "graph_launches": 0, "alloc": "nccl", "forced": {}, "failure": "",
     "nccl_setup": {"transports": [], "coll_channels": 0, "p2p_channels": 0}, "points": []}],
  "p2p": [
    {"test": "sm_bidir", "src": 1, "dst": 2, "unit": "GB/s", "value": 700.5, "min": 690.25, "max": 710.75,
     "samples": 6, "bytes": 1048576, "wrong": 0, "wire_gbps": 900.0, "ceiling_gbps": 780.0,
     "note": "staged through host memory: no peer access"},
    {"test": "host_latency", "src": -1, "dst": 3, "unit": "ns", "value": 812.0, "min": 800.0, "max": 830.0,
     "samples": 4, "bytes": 2097152, "wrong": -1, "wire_gbps": 0.0, "ceiling_gbps": 0.0,
     "note": "pointer chase"}],
  "findings": [
    {"code": "TOPO_NO_P2P", "severity": "error", "evidence": "GPU5 - GPU7", "expected": "peer access",
     "hint": "check ACS"},
    {"code": "RESULT_NOISY", "severity": "warning", "evidence": "+-9%", "expected": "+-5%", "hint": "idle"}],
  "rules_version": "fabricbench.rules/0",
  "doctor": {"budget_s": 45.5, "cuts": [{"stage": "algorithms", "what": "1 GiB points", "why": "slow"}],
             "stages": [{"stage": "collectives", "estimate_s": -1.0, "took_s": 3.5},
                        {"stage": "algorithms", "estimate_s": 12.25, "took_s": 14.75}]},
  "expectations": {"file": "site.json", "rows": [
    {"gpu": "H200", "gpus": 8, "hosts": 2, "figure": "all_reduce", "min_bytes": 1024, "max_bytes": 4096,
     "algo": "NVLS", "value": 380.5, "kind": "acceptance", "tolerance": 0.25, "single_report": true,
     "source": "site", "date": "2026-11-20"},
    {"gpu": "MI300X", "gpus": 0, "hosts": 0, "figure": "host", "min_bytes": 0, "max_bytes": null, "algo": "",
     "value": 50.0, "kind": "typical", "source": "s2", "date": "2026-11-21"}]},
  "verdict": {"status": "CRITICAL", "action": "drain", "expectations": "site.json",
              "checks": [{"check": "topology", "status": "CRITICAL", "action": "drain", "codes": ["TOPO_NO_P2P"],
                          "evidence": "GPU5 - GPU7"},
                         {"check": "host", "status": "UNKNOWN", "action": "none", "codes": [],
                          "evidence": "not read"}]},
  "hosts": [
    {"name": "node-8", "ranks": [4, 5],
     "host": {"hostname": "node-8.cluster", "driver": "12.9", "runtime": "12.8",
              "comm": {"name": "NCCL", "version": "2.27.5", "version_code": 22705, "path": "/usr/lib/libnccl.so.2"},
              "config": null},
     "env": {"NCCL_IB_HCA": "mlx5_0"},
     "gpus": [{"index": 1, "rank": 5, "name": "GPU-C", "pci_bus_id": "0000:3D:00.0",
               "memory_bytes": 42949672960, "compute_capability": 90, "host": "node-8"}],
     "topology": {"gpus": [], "pairs": [], "numa_cpulists": {"2": "0-15"}, "sources": ["sysfs"],
                  "missing": ["NVML: not loaded"]},
     "net_plugin": "/opt/hpcx/lib/libnccl-net.so",
     "findings": [{"code": "HOST_MISMATCH_NCCL", "severity": "warning", "evidence": "2.27.5 here",
                   "expected": "one NCCL", "hint": "align"}],
     "verdict": {"status": "WARNING", "action": "investigate", "expectations": "built-in",
                 "checks": [{"check": "host_consistency", "status": "WARNING", "action": "investigate",
                             "codes": ["HOST_MISMATCH_NCCL"], "evidence": "2.27.5 here"}]}},
    {"name": "node-9", "ranks": [], "host": {"hostname": "", "driver": "", "runtime": "",
     "comm": {"name": "", "version": "", "version_code": 0, "path": ""}, "config": null},
     "env": {}, "gpus": [], "topology": null, "net_plugin": "", "findings": []}],
  "nodes": {"mode": "sampling", "collective": "all_gather", "bytes": 268435456, "rounds_planned": 6,
            "seconds_per_round": 2.5, "reference_gbps": 48.25, "reference_from": "the median of 12 pairs",
            "slow_below_gbps": 38.5,
            "pairs": [{"a": "node-8", "b": "node-9", "round": 2, "busbw_gbps": 12.75, "time_us": 830.5,
                       "failure": ""},
                      {"a": "node-9", "b": "node-7", "round": 3, "busbw_gbps": 0.0, "time_us": 0.0,
                       "failure": "rank 6 timed out"}],
            "named": ["node-9"], "exclude": "node-9", "spread": 0.0125,
            "hosts": [{"name": "node-9", "first_pairs": 6, "known_good_pairs": 4, "slow_pairs": 9,
                       "healthy_chance": 1.5e-12}],
            "cut": "stopped after round 6 of 10: the doctor's budget"},
  "source": {"tool": "nccl-tests", "version": "2.19.6", "file": "ar.txt", "converted": ["busbw recomputed"],
             "skipped": ["line 56: a damaged row"], "unknown": ["the topology: pass --topo FILE"],
             "env_sources": ["line 1: NCCL_P2P_DISABLE=1 on the command line"]}
})";

inline fb::Topology every_field_topology() {
  fb::Topology t;
  fb::TopoGpu g;
  g.index = 5;
  g.name = "GPU-B";
  g.vendor = "amd";
  g.bus_id = "0000:2c:00.0";
  g.device_id = "0x74a1";
  g.pci_path = {"pci0000:20", "0000:20:01.1", "0000:2c:00.0"};
  g.numa_node = 6;
  g.cpulist = "48-95";
  g.pcie = {16.0, 32.0, 8, 16, 4, 5};
  g.links = {{2, true, 4, "0000:3d:00.0", "switch"}};
  t.gpus = {g};
  fb::TopoPair nv;
  nv.a = 5;
  nv.b = 6;
  nv.connection = fb::Connection::nvlink(12);
  nv.pcie_class = "PXB";
  nv.links = 12;
  nv.link_gbps = 25.0;
  nv.wire_gbps = 300.0;
  nv.limit = "12 NVLink4 links";
  nv.sm_ceiling_gbps = 250.5;
  nv.ce_ceiling_gbps = 270.25;
  nv.p2p = true;
  nv.p2p_detail = "NVML: OK";
  fb::TopoPair sys;
  sys.a = 5;
  sys.b = 7;
  sys.connection = fb::Connection(fb::Connection::Kind::sys);
  sys.pcie_class = "SYS";
  sys.wire_gbps = 31.5;
  sys.limit = "PCIe Gen4 x16";
  t.pairs = {nv, sys};
  t.numa_cpulists = {{0, "0-47"}, {1, "48-95"}};
  t.sources = {"sysfs", "NVML"};
  t.missing = {"rocm-smi: not installed"};
  return t;
}

inline fb::HostFacts every_field_host_facts() {
  fb::HostFacts h;
  h.numa_balancing = {"1", "/proc/sys/kernel/numa_balancing", ""};
  h.kernel_cmdline = {"ro iommu=pt", "/proc/cmdline", ""};
  h.iommu_units = {"dmar0", "/sys/class/iommu", ""};
  h.shm_bytes = {"67108864", "/proc/mounts", ""};
  h.xid_count = {"", "/dev/kmsg", "kernel log not readable"};
  h.xid_lines = {"NVRM: Xid (PCI:0000:1b:00): 79, GPU has fallen off the bus."};
  h.bridges = {{"0000:20:01.1", {"0x001d", "/sys/bus/pci/devices/0000:20:01.1/config", ""}}};
  fb::GpuHostFacts g;
  g.bus_id = "0000:2c:00.0";
  g.iommu_group_type = {"DMA-FQ", "iommu_group/type", ""};
  g.persistence_mode = {"disabled", "NVML pm", ""};
  g.clocks_event_reasons = {"0x0000000000000048", "NVML ce", ""};
  g.sm_clock_max_mhz = {"1980", "NVML mc", ""};
  g.sm_clock_target_mhz = {"1500", "NVML ac", ""};
  g.ecc_uncorrected_volatile = {"3", "NVML ecc", ""};
  g.remapped_rows_pending = {"1", "NVML rr", ""};
  g.remapped_rows_failure = {"0", "NVML rr", ""};
  g.retired_pages_pending = {"", "NVML rp", "NVML: Not Supported"};
  h.gpus = {g};
  fb::NicPort p;
  p.name = "mlx5_0:1";
  p.kind = "RoCE";
  p.netdev = "ens1f0";
  p.rate_gbps = 200;
  p.state = "ACTIVE";
  p.phys_state = "LinkUp";
  p.up = true;
  p.numa_node = 1;
  p.bus_id = "0000:2d:00.0";
  p.pci_path = {"pci0000:20", "0000:20:01.1", "0000:2d:00.0"};
  p.gpus = {{"0000:2c:00.0", "PIX"}};
  p.source = "/sys/class/infiniband/mlx5_0/ports/1";
  h.network.read = true;
  h.network.ports = {p};
  h.network.gdr_peer_module = {"none", "/sys/module", ""};
  h.network.gdr_dma_buf = {"", "/proc/sys/kernel/osrelease", "kernel release not readable"};
  return h;
}

inline fb::Run every_field_scale_run() {
  fb::Run run;
  run.kind = fb::RunKind::scale;
  run.label = "worst";
  run.collective = "reduce";
  run.dtype = "bfloat16";
  run.op = "max";
  run.root = 1;
  run.gpus = {2, 0};
  run.launcher = "threads";
  run.graph_launches = 7;
  run.alloc = "runtime";
  run.fill = "zeros";
  run.forced = {{"NCCL_ALGO", "Tree"}};
  run.failure = "out of memory";
  run.nccl_transports = {"P2P/CUMEM", "SHM"};
  run.nccl_coll_channels = 24;
  run.nccl_p2p_channels = 32;
  run.nccl_nvls_channels = 16;
  run.nccl_nvls_available = true;
  run.nccl_network = "IBext_v8";
  run.nccl_nics = std::vector<fb::NcclNic>{{"IB", 0, "mlx5_0", 1, "RoCE", true, ""},
                                           {"Socket", 1, "eth1", 0, "", false, "10.0.0.1<0>"}};
  fb::Point checked;
  checked.bytes = 2048;
  checked.count = 1024;
  checked.in_place = true;
  checked.time_us = {1.5, 2.5, 3.5, 4.5, 5.5, 0.125, 9};
  checked.algbw_gbps = 11.25;
  checked.busbw_gbps = 22.5;
  checked.wrong = 3;
  checked.iters_per_batch = 40;
  checked.nccl_algo = "RING";
  checked.nccl_proto = "SIMPLE";
  checked.nccl_channels = 16;
  checked.sampling = fb::PointSampling{37, 31.5, 0.02, true, "target", 2.75, 2.25};
  fb::Point unchecked;
  unchecked.bytes = 4096;
  unchecked.count = 2048;
  unchecked.time_us = {6.5, 7.5, 8.5, 9.5, 10.5, std::numeric_limits<double>::infinity(), 2};
  unchecked.algbw_gbps = 33.75;
  unchecked.busbw_gbps = 45.0;
  unchecked.wrong = -1;
  unchecked.iters_per_batch = 41;
  run.points = {checked, unchecked};
  return run;
}

// Two host sections: one with every member set, one with each optional member unset (no topology,
// no verdict, no NET plugin).
inline std::vector<fb::HostSection> every_field_hosts() {
  fb::HostSection full;
  full.name = "node-8";
  full.ranks = {4, 5};
  full.host = {
      "node-8.cluster", "12.9", "12.8", {"NCCL", "2.27.5", 22705, "/usr/lib/libnccl.so.2"}, std::nullopt};
  full.env = {{"NCCL_IB_HCA", "mlx5_0"}};
  full.gpus = {{1, 5, "GPU-C", "0000:3D:00.0", 42949672960ULL, 90, "node-8"}};
  fb::Topology t;
  t.numa_cpulists = {{2, "0-15"}};
  t.sources = {"sysfs"};
  t.missing = {"NVML: not loaded"};
  full.topology = t;
  full.net_plugin = "/opt/hpcx/lib/libnccl-net.so";
  full.findings = {{"HOST_MISMATCH_NCCL", fb::Severity::warning, "2.27.5 here", "one NCCL", "align"}};
  full.verdict = fb::Verdict{fb::CheckStatus::warning,
                             fb::CheckAction::investigate,
                             "built-in",
                             {{"host_consistency",
                               fb::CheckStatus::warning,
                               fb::CheckAction::investigate,
                               {"HOST_MISMATCH_NCCL"},
                               "2.27.5 here"}}};
  fb::HostSection bare;
  bare.name = "node-9";
  return {full, bare};
}

inline fb::NodesInfo every_field_nodes() {
  fb::NodesInfo n;
  n.mode = "sampling";
  n.collective = "all_gather";
  n.bytes = 268435456;
  n.rounds_planned = 6;
  n.seconds_per_round = 2.5;
  n.reference_gbps = 48.25;
  n.reference_from = "the median of 12 pairs";
  n.slow_below_gbps = 38.5;
  n.pairs = {{"node-8", "node-9", 2, 12.75, 830.5, ""},
             {"node-9", "node-7", 3, 0.0, 0.0, "rank 6 timed out"}};
  n.named = {"node-9"};
  n.exclude = "node-9";
  n.spread = 0.0125;
  n.hosts = {{"node-9", 6, 4, 9, 1.5e-12}};
  n.cut = "stopped after round 6 of 10: the doctor's budget";
  return n;
}

inline fb::Result every_field_result() {
  fb::Result r;
  r.tool = {"9.8.7", "f00dcafe"};
  r.command = {"fabricbench", "doctor", "--quick"};
  r.started = "2026-01-02T03:04:05Z";
  r.finished = "2026-01-02T03:09:10Z";
  r.status = fb::RunStatus::failed;
  r.failure = "rank 1 was killed";
  r.host = {"node-7", "12.9", "12.8", {"RCCL", "2.21.5", 22105, "/opt/librccl.so"}, every_field_host_facts()};
  r.env = {{"NCCL_ALGO", "Ring"}, {"NCCL_PROTO", "LL128"}};
  r.gpus = {{3, 4, "GPU-A", "0000:1B:00.0", 85899345920ULL, 89, "node-8"}};
  r.topology = every_field_topology();
  fb::Run algos;
  algos.kind = fb::RunKind::algos;
  algos.collective = "all_gather";
  algos.dtype = "int8";
  algos.gpus = {1};
  algos.launcher = "mpi";
  algos.alloc = "nccl";
  r.runs = {every_field_scale_run(), algos};
  r.p2p = {{fb::P2pTest::sm_bidir, 1, 2, fb::P2pUnit::gbps, 700.5, 690.25, 710.75, 6, 1048576, 0, 900.0,
            780.0, "staged through host memory: no peer access"},
           {fb::P2pTest::host_latency, -1, 3, fb::P2pUnit::ns, 812.0, 800.0, 830.0, 4, 2097152, -1, 0.0, 0.0,
            "pointer chase"}};
  r.findings = {{"TOPO_NO_P2P", fb::Severity::error, "GPU5 - GPU7", "peer access", "check ACS"},
                {"RESULT_NOISY", fb::Severity::warning, "+-9%", "+-5%", "idle"}};
  r.rules_version = "fabricbench.rules/0";
  r.doctor = fb::DoctorInfo{45.5,
                            {{"algorithms", "1 GiB points", "slow"}},
                            {{"collectives", -1, 3.5}, {"algorithms", 12.25, 14.75}}};
  fb::ExpectationRow site{
      "H200", 8,    2,      "all_reduce", 1024, 4096, "NVLS", 380.5, fb::ExpectationKind::acceptance,
      0.25,   true, "site", "2026-11-20"};
  fb::ExpectationRow any_size{
      "MI300X", 0,     0,    "host",      0, fb::kAnyBytes, "", 50.0, fb::ExpectationKind::typical,
      -1,       false, "s2", "2026-11-21"};
  r.expectations = fb::ExpectationSet{"site.json", {site, any_size}};
  r.verdict = fb::Verdict{
      fb::CheckStatus::critical,
      fb::CheckAction::drain,
      "site.json",
      {{"topology", fb::CheckStatus::critical, fb::CheckAction::drain, {"TOPO_NO_P2P"}, "GPU5 - GPU7"},
       {"host", fb::CheckStatus::unknown, fb::CheckAction::none, {}, "not read"}}};
  r.hosts = every_field_hosts();
  r.nodes = every_field_nodes();
  r.source = fb::ImportSource{"nccl-tests",
                              "2.19.6",
                              "ar.txt",
                              {"busbw recomputed"},
                              {"line 56: a damaged row"},
                              {"the topology: pass --topo FILE"},
                              {"line 1: NCCL_P2P_DISABLE=1 on the command line"}};
  return r;
}
