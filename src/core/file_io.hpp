#pragma once
// Whole-file reads and safe writes: every command reads its inputs and writes its outputs this
// way, so that a hostile input (a FIFO, a device, a huge file) or output path (a directory, a
// symlink, /dev/stdout, a full disk) is handled the same everywhere (docs/cli.md, "Files").
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace fb {

// The most an input document (result, NVML readout, rocm-smi text, NCCL log) may weigh.
inline constexpr std::uint64_t kMaxInputBytes = std::uint64_t{64} << 20;
// The most one sysfs attribute file may weigh (real ones are under a page).
inline constexpr std::uint64_t kMaxSysfsBytes = std::uint64_t{64} << 10;

// The whole file; only regular files are read (a FIFO or device could block forever or never
// end), at most `max_bytes` of them. Throws Error(usage) naming the file and the reason.
std::string read_file(const std::string& path, std::uint64_t max_bytes = kMaxInputBytes);

// As read_file, but nullopt when the file does not exist or cannot be opened or read (a sysfs
// attribute a driver does not provide); still throws on a non-regular or too large file.
std::optional<std::string> read_file_if_readable(const std::string& path, std::uint64_t max_bytes);

// Writes `text` to `path` so that a reader never sees half a document: a regular file (or a new
// one) through a temporary beside it and a rename, relative to its opened folder
// (core/safe_paths: no other user's link followed on the way, the umask's mode); a symlink's
// target the same way (the link stays) when the link and its target belong to the writer; a
// character device or FIFO (/dev/stdout, /dev/null, a pipe) written through. A directory, another
// user's link or a folder every user may write in (not sticky) is Error(usage); a failed write (a
// full disk) Error(run_failed).
void write_file_atomically(const std::string& path, const std::string& text);

// Throws Error(usage) when `output` names the same file as one of `inputs` (which would be lost).
void check_output_is_not_an_input(const std::string& output, const std::vector<std::string>& inputs);

// Flushes standard output; a failed write (a closed pipe, /dev/full) is Error(run_failed).
void flush_stdout();

}  // namespace fb
