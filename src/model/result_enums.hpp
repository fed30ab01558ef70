#pragma once
// The closed vocabularies of the result document (docs/result-schema.md), each with its one
// table of JSON strings.
#include <array>

#include "core/enum_names.hpp"

namespace fb {

// What produced a run: `run`, `algos` (one forced NCCL setting) or `scale` (one GPU group).
enum class RunKind { collective, algos, scale };

enum class Severity { info, warning, error };

// refused (1.4): a job stopped at its preflight, before its first collective, because its hosts disagree
// on what NCCL needs alike on every rank (engine/job_preflight): nothing failed, nothing was measured.
enum class RunStatus { running, complete, failed, refused };

enum class P2pUnit { gbps, ns };

template <>
struct EnumNames<RunKind> {
  static constexpr std::string_view what = "run kind";
  static constexpr std::array<EnumName<RunKind>, 3> table{
      {{RunKind::collective, "collective"}, {RunKind::algos, "algos"}, {RunKind::scale, "scale"}}};
};

template <>
struct EnumNames<Severity> {
  static constexpr std::string_view what = "finding severity";
  static constexpr std::array<EnumName<Severity>, 3> table{
      {{Severity::info, "info"}, {Severity::warning, "warning"}, {Severity::error, "error"}}};
};

template <>
struct EnumNames<RunStatus> {
  static constexpr std::string_view what = "result status";
  static constexpr std::array<EnumName<RunStatus>, 4> table{{{RunStatus::running, "running"},
                                                             {RunStatus::complete, "complete"},
                                                             {RunStatus::failed, "failed"},
                                                             {RunStatus::refused, "refused"}}};
};

template <>
struct EnumNames<P2pUnit> {
  static constexpr std::string_view what = "p2p unit";
  static constexpr std::array<EnumName<P2pUnit>, 2> table{{{P2pUnit::gbps, "GB/s"}, {P2pUnit::ns, "ns"}}};
};

}  // namespace fb
