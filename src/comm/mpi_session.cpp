#include "comm/mpi_session.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "comm/mpi_plugin_api.hpp"
#include "core/environment.hpp"

namespace fb {
namespace {

std::string plugin_path() {
  if (const char* p = std::getenv("FABRICBENCH_MPI_PLUGIN")) return p;
  std::error_code ec;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  return (ec ? std::filesystem::path(".") : self.parent_path()) / "libfabricbench_mpi.so";
}

template <typename F>
F symbol(void* lib, const char* name, const std::string& path) {
  void* s = ::dlsym(lib, name);
  if (s == nullptr) throw Error(ExitCode::environment, fmt::format("{} has no symbol {}", path, name));
  return reinterpret_cast<F>(s);  // NOLINT(cppcoreguidelines-pro-type-reinterpret-cast): dlsym's contract
}

}  // namespace

MpiSession& MpiSession::start() {
  if (auto* running = dynamic_cast<MpiSession*>(JobSession::current())) return *running;
  const std::string path = plugin_path();
  // RTLD_GLOBAL: Open MPI loads its own components with dlopen and needs libmpi's symbols.
  void* lib = ::dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (lib == nullptr)
    throw Error(ExitCode::environment,
                fmt::format("started by an MPI launcher, but the MPI plugin could not be loaded ({}); build "
                            "fabricbench where MPI's headers are installed (Debian: libopenmpi-dev) or set "
                            "FABRICBENCH_MPI_PLUGIN",
                            ::dlerror()));
  using VersionFn = int (*)();
  using StartFn = Bootstrap* (*)(char*);
  const int version = symbol<VersionFn>(lib, "fabricbench_mpi_plugin_version", path)();
  if (version != FABRICBENCH_MPI_PLUGIN_VERSION)
    throw Error(ExitCode::environment, fmt::format("{} is plugin version {}, this fabricbench needs {}", path,
                                                   version, FABRICBENCH_MPI_PLUGIN_VERSION));
  std::array<char, 256> why{};
  Bootstrap* world = symbol<StartFn>(lib, "fabricbench_mpi_start", path)(why.data());
  if (world == nullptr) throw Error(ExitCode::environment, fmt::format("MPI start-up: {}", why.data()));
  try {
    check_mpi_world(process_env, world->rank(), world->size());
  } catch (const Error&) {
    symbol<void (*)()>(lib, "fabricbench_mpi_finish", path)();  // each process is a job of its own
    throw;
  }
  auto* s = new MpiSession();  // lives until the process ends, as MPI does
  if (const auto found = detect_job_launcher(process_env);
      launcher_row(found).wiring == RankWiring::mpi_plugin)
    s->launcher_ = found;
  s->plugin_ = lib;
  s->world_ = world;
  s->abort_ = symbol<void (*)(int)>(lib, "fabricbench_mpi_abort", path);
  s->finish_ = symbol<void (*)()>(lib, "fabricbench_mpi_finish", path);
  s->set_world(world->rank(), world->allgather(job_host_name()), {});
  JobSession::install(s);
  return *s;
}

void MpiSession::abort(ExitCode code, const std::string& /*why*/) {
  std::fflush(nullptr);
  abort_(static_cast<int>(code));
  std::_Exit(static_cast<int>(code));  // MPI_Abort does not return; in case it does
}

void MpiSession::finish() {
  if (finish_ != nullptr) finish_();
  finish_ = nullptr;
}

}  // namespace fb
