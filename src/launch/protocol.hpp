#pragma once
// Message types between the launcher and its workers (JSON over comm/channel.hpp).
//   launcher -> worker: start {plan, process, nprocs, env: the variables set for this plan's
//                       workers (already in their environment; in a job passed on to the
//                       other ranks)}; allgather replies {all}
//   worker -> launcher: allgather {d}; begin {label}; gpus {gpus: every rank's GpuInfo, in a
//                       job}; point {run, point}; event {event:
//                       core/events.hpp}; fatal {code, text}; done
namespace fb::msg {

inline constexpr const char* start = "start";
inline constexpr const char* allgather = "ag";
inline constexpr const char* begin = "begin";
inline constexpr const char* gpus = "gpus";
inline constexpr const char* point = "point";
inline constexpr const char* event = "event";
inline constexpr const char* fatal = "fatal";
inline constexpr const char* done = "done";

// Environment variable that turns a fabricbench process into a worker on this fd.
inline constexpr const char* worker_fd_env = "FABRICBENCH_WORKER_FD";

}  // namespace fb::msg
