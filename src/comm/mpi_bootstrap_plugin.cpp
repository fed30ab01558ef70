// libfabricbench_mpi.so: the Bootstrap of MPI_COMM_WORLD (see mpi_plugin_api.hpp).
#include <mpi.h>

#include <cstdio>
#include <numeric>

#include "comm/mpi_plugin_api.hpp"

namespace {

class MpiBootstrap final : public fb::Bootstrap {
 public:
  MpiBootstrap() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
  }
  [[nodiscard]] int rank() const override { return rank_; }
  [[nodiscard]] int size() const override { return size_; }

  std::vector<std::string> allgather(const std::string& mine) override {
    // Lengths first, then the bytes: values may differ in length from rank to rank.
    int len = static_cast<int>(mine.size());
    std::vector<int> lens(static_cast<std::size_t>(size_));
    MPI_Allgather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, MPI_COMM_WORLD);
    std::vector<int> offsets(lens.size(), 0);
    std::exclusive_scan(lens.begin(), lens.end(), offsets.begin(), 0);
    std::string all(static_cast<std::size_t>(offsets.back() + lens.back()), '\0');
    MPI_Allgatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), offsets.data(), MPI_CHAR,
                   MPI_COMM_WORLD);
    std::vector<std::string> out;
    out.reserve(lens.size());
    for (std::size_t r = 0; r < lens.size(); ++r)
      out.push_back(all.substr(static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(lens[r])));
    return out;
  }

 private:
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace

extern "C" {

int fabricbench_mpi_plugin_version() { return FABRICBENCH_MPI_PLUGIN_VERSION; }

fb::Bootstrap* fabricbench_mpi_start(char* why) {
  int provided = 0;
  // SERIALIZED: on rank 0 the in-process worker thread makes the calls during a run and the
  // main thread after it, never both at once.
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided) != MPI_SUCCESS) {
    std::snprintf(why, 256, "MPI_Init_thread failed");
    return nullptr;
  }
  if (provided < MPI_THREAD_SERIALIZED) {
    std::snprintf(why, 256, "the MPI library offers thread level %d, fabricbench needs MPI_THREAD_SERIALIZED",
                  provided);
    return nullptr;
  }
  static MpiBootstrap world;
  return &world;
}

void fabricbench_mpi_abort(int code) { MPI_Abort(MPI_COMM_WORLD, code); }

void fabricbench_mpi_finish() { MPI_Finalize(); }
}
