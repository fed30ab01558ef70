#pragma once
// A small, fully specified result document shared by the JSON and reporter tests.
#include <limits>

#include "model/result.hpp"

inline fb::Result sample_result() {
  fb::Result r;
  r.tool = {"0.1.0", "abc123"};
  r.command = {"fabricbench", "run", "all_reduce", "--sizes", "1M,1G"};
  r.started = "2026-11-29T18:00:00Z";
  r.finished = "2026-11-29T18:00:05Z";
  r.status = fb::RunStatus::complete;
  r.host = {"gpu-host", "13.0", "13.0", {"NCCL", "2.28.3", 22803, "/usr/lib/libnccl.so.2.28.3"}};
  r.env = {{"NCCL_NVLS_ENABLE", "0"}};
  r.gpus = {{0, 0, "NVIDIA H200", "0000:18:00.0", 150754820096ULL, 90, "gpu-host"},
            {1, 1, "NVIDIA H200", "0000:2A:00.0", 150754820096ULL, 90, "gpu-host"}};
  fb::Run run;
  run.collective = "all_reduce";
  run.dtype = "float";
  run.op = "sum";
  run.gpus = {0, 1};
  run.launcher = "processes";
  fb::Point small;
  small.bytes = 1048576;
  small.count = 262144;
  small.time_us = {25.0, 25.7, 26.0, 31.5, 32.0, 0.004, 12};
  small.algbw_gbps = 40.80;
  small.busbw_gbps = 40.80;
  small.wrong = 0;
  small.iters_per_batch = 20;
  fb::Point big = small;
  small.iterations = fb::IterationTimes{"events", 5, 25.8, 51.0, 51.0, {25.6, 25.5, 38.2, 25.8, 51.0}};
  big.bytes = 1073741824;
  big.count = 268435456;
  big.in_place = true;
  big.time_us = {3230.0, 3237.43, 3238.0, 3242.7, 3243.0, std::numeric_limits<double>::infinity(), 5};
  big.algbw_gbps = 331.67;
  big.busbw_gbps = 331.67;
  big.wrong = -1;
  run.points = {small, big};
  r.runs = {run};
  fb::P2pMeasurement copy;
  copy.test = fb::P2pTest::ce_read;
  copy.src = 0;
  copy.dst = 1;
  copy.unit = fb::P2pUnit::gbps;
  copy.value = 394.2;
  copy.min = 393.9;
  copy.max = 394.6;
  copy.samples = 5;
  copy.bytes = 536870912;
  copy.wrong = 0;
  copy.wire_gbps = 450;
  copy.ceiling_gbps = 396;
  r.p2p = {copy};
  r.findings = {{"NCCL_OVERRIDE", fb::Severity::warning, "NCCL_PROTO=LL", "no override", "unset NCCL_PROTO"}};
  return r;
}
