#pragma once
// JSON round-trip of the result document (nlohmann_json).
#include <nlohmann/json.hpp>
#include <string>

#include "model/result.hpp"

namespace fb {

// The plain structs map field by field.
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ToolInfo, version, git)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CommLibrary, name, version, version_code, path)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(GpuInfo, index, rank, name, pci_bus_id, memory_bytes, compute_capability,
                                   host)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(P2pMeasurement, test, src, dst, unit, value, min, max, samples, bytes,
                                   wrong, wire_gbps, ceiling_gbps, note)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(DoctorCut, stage, what, why)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(DoctorStageTime, stage, estimate_s, took_s)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(PointSampling, warmup_ops, warmup_ms, target_ci, ci_met, stop,
                                   first_batch_us, last_batch_us)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(IterationTimes, source, n, p50_us, p99_us, max_us, samples_us)
// env_sources (1.6) is absent from older documents: read as empty (the environment unknown).
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE_WITH_DEFAULT(ImportSource, tool, version, file, converted, skipped,
                                                unknown, env_sources)

// These keep a null convention each (wrong -1, an infinite median_ci, an empty op or NCCL
// choice: null) and accept documents written before some of their fields existed.
// config is absent from documents written before host facts were read.
// stages is absent from doctor documents written before stage times were kept.
// host is written where a finding is about one host of a job (1.5).
void to_json(nlohmann::json& j, const Finding& v);
void from_json(const nlohmann::json& j, Finding& v);
void to_json(nlohmann::json& j, const DoctorInfo& v);
void from_json(const nlohmann::json& j, DoctorInfo& v);
void to_json(nlohmann::json& j, const HostInfo& v);
void from_json(const nlohmann::json& j, HostInfo& v);
void to_json(nlohmann::json& j, const TimeStats& v);
void from_json(const nlohmann::json& j, TimeStats& v);
void to_json(nlohmann::json& j, const Point& v);
void from_json(const nlohmann::json& j, Point& v);
void to_json(nlohmann::json& j, const Run& v);
void from_json(const nlohmann::json& j, Run& v);
// A job's host sections and `nodes` (1.3); absent from documents of one host and before 1.3.
void to_json(nlohmann::json& j, const HostSection& v);
void from_json(const nlohmann::json& j, HostSection& v);
void to_json(nlohmann::json& j, const NodePair& v);
void from_json(const nlohmann::json& j, NodePair& v);
void to_json(nlohmann::json& j, const NodesInfo& v);
void from_json(const nlohmann::json& j, NodesInfo& v);
void to_json(nlohmann::json& j, const Result& v);
void from_json(const nlohmann::json& j, Result& v);

// Parses a result document; throws a usage error (bad input file) with the reason.
Result parse_result(const std::string& text);
// Reads and parses the result document at `path`; a missing, unreadable or malformed file is a
// usage error that names it.
Result load_result_file(const std::string& path);

}  // namespace fb
