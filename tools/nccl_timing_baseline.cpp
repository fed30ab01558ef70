// A methodology baseline, not part of fabricbench: times a collective the way nccl-tests does
// (a host timer around `iters` back-to-back launches, each on a shifted buffer offset, then a
// cudaStreamQuery spin; no CUDA graphs; the time averaged over ranks), so that fabricbench's
// figures can be compared with it on the same machine in the same run.
//   nccl_timing_baseline all_reduce|reduce_scatter|all_gather BYTES[,BYTES...] [ITERS=20] [REPEATS=50]
// Two modes, as nccl-tests has:
//   - alone: one process, one thread per GPU (nccl-tests -t N -g 1);
//   - under mpirun: one process per GPU (nccl-tests `mpirun -np N ... -g 1`); the rank comes
//     from OMPI_COMM_WORLD_RANK/SIZE and the NCCL id travels through a file in /tmp.
// Sizes share one communicator, as in an nccl-tests sweep. Each repeat is one nccl-tests
// measurement; per size the median, first, min and max are printed.
#include <fmt/format.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "comm/nccl_api_table.hpp"
#include "comm/nccl_library.hpp"
#include "gpu/gpu_api.hpp"

namespace {

struct Job {
  std::string coll;
  std::vector<std::size_t> sizes;
  std::size_t bytes = 0;  // the size being timed
  int iters = 20;
  int repeats = 50;
};

void check(bool ok, const std::string& what) {
  if (!ok) {
    fmt::print(stderr, "nccl_timing_baseline: {} failed\n", what);
    std::exit(1);
  }
}

// Per-batch times of one rank at one size, averaged over all ranks (nccl-tests' default
// -a 1), in us.
std::vector<double> time_size(const fb::NcclApi& api, const Job& job, ncclComm_t comm, cudaStream_t s,
                              int nranks) {
  const std::size_t total = std::max<std::size_t>(job.bytes / 4, static_cast<std::size_t>(nranks));
  const std::size_t per_rank = total / static_cast<std::size_t>(nranks);
  const std::size_t step = total * 4;
  // Each iteration on its own offset, as nccl-tests shifts within its max-size buffers (here
  // at most 1 GiB of them, so the largest sizes do not shift).
  const std::size_t steps = std::clamp<std::size_t>((std::size_t{1} << 30) / step, 1, job.iters);
  const std::size_t room = step * steps;
  char* in = nullptr;
  char* out = nullptr;
  double* t_dev = nullptr;
  check(cudaMalloc(&in, room) == cudaSuccess && cudaMalloc(&out, room) == cudaSuccess &&
            cudaMalloc(&t_dev, sizeof(double)) == cudaSuccess,
        "cudaMalloc");
  auto launch = [&](int iter) {
    const std::size_t shift = step * (static_cast<std::size_t>(iter) % steps);
    if (job.coll == "all_reduce")
      api.AllReduce(in + shift, out + shift, total, ncclFloat32, ncclSum, comm, s);
    else if (job.coll == "reduce_scatter")
      api.ReduceScatter(in + shift, out + shift, per_rank, ncclFloat32, ncclSum, comm, s);
    else
      api.AllGather(in + shift, out + shift, per_rank, ncclFloat32, comm, s);
  };
  auto complete = [&] {  // nccl-tests' completeColl: poll, yield while the GPU works
    cudaError_t e;
    while ((e = cudaStreamQuery(s)) == cudaErrorNotReady) sched_yield();
    check(e == cudaSuccess, "cudaStreamQuery");
  };
  for (int w = 0; w < 5; ++w) launch(w);
  complete();
  std::vector<double> avg;
  for (int k = 0; k < job.repeats; ++k) {
    double t = 0;  // also the barrier before each batch, as nccl-tests' Barrier()
    check(cudaMemcpy(t_dev, &t, sizeof t, cudaMemcpyHostToDevice) == cudaSuccess, "cudaMemcpy");
    api.AllReduce(t_dev, t_dev, 1, ncclFloat64, ncclSum, comm, s);
    complete();
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < job.iters; ++i) launch(i);
    complete();
    t = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / job.iters;
    check(cudaMemcpy(t_dev, &t, sizeof t, cudaMemcpyHostToDevice) == cudaSuccess, "cudaMemcpy");
    api.AllReduce(t_dev, t_dev, 1, ncclFloat64, ncclSum, comm, s);
    complete();
    check(cudaMemcpy(&t, t_dev, sizeof t, cudaMemcpyDeviceToHost) == cudaSuccess, "cudaMemcpy");
    avg.push_back(t / nranks);
  }
  check(cudaFree(in) == cudaSuccess && cudaFree(out) == cudaSuccess && cudaFree(t_dev) == cudaSuccess,
        "cudaFree");
  return avg;
}

// Every size's per-batch times on one rank.
std::vector<std::vector<double>> time_rank(const fb::NcclApi& api, Job job, const ncclUniqueId& id,
                                           int nranks, int rank, int device) {
  check(cudaSetDevice(device) == cudaSuccess, "cudaSetDevice");
  ncclComm_t comm = nullptr;
  check(api.CommInitRank(&comm, nranks, id, rank) == ncclSuccess, "ncclCommInitRank");
  cudaStream_t s = nullptr;
  check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking) == cudaSuccess, "cudaStreamCreate");
  std::vector<std::vector<double>> all;
  for (const auto bytes : job.sizes) {
    job.bytes = bytes;
    all.push_back(time_size(api, job, comm, s, nranks));
  }
  api.CommDestroy(comm);
  return all;
}

ncclUniqueId exchange_id_by_file(const fb::NcclApi& api, int rank) {
  const char* job = std::getenv("OMPI_MCA_ess_base_jobid");
  const std::string path = fmt::format("/tmp/nccl_timing_baseline.{}.{}", job ? job : "0", getuid());
  ncclUniqueId id{};
  if (rank == 0) {
    api.GetUniqueId(&id);
    const std::string tmp = path + ".tmp";
    std::ofstream(tmp, std::ios::binary).write(reinterpret_cast<const char*>(&id), sizeof id);
    std::filesystem::rename(tmp, path);
    return id;
  }
  for (int waited_ms = 0; !std::filesystem::exists(path); waited_ms += 10) {
    check(waited_ms < 60000, "waiting for rank 0's NCCL id in " + path);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  std::ifstream(path, std::ios::binary).read(reinterpret_cast<char*>(&id), sizeof id);
  return id;
}

void report(const Job& job, const char* mode, int nranks, std::vector<double> t) {  // job.bytes: this size
  const double first = t.front();
  std::sort(t.begin(), t.end());
  const double median = t[t.size() / 2];
  const std::size_t total = std::max<std::size_t>(job.bytes / 4, static_cast<std::size_t>(nranks));
  const std::size_t gathered = total / static_cast<std::size_t>(nranks) * static_cast<std::size_t>(nranks);
  const double size = static_cast<double>(job.coll == "all_reduce" ? total : gathered) * 4.0;
  const double factor = job.coll == "all_reduce" ? 2.0 * (nranks - 1) / nranks : (nranks - 1.0) / nranks;
  fmt::print(
      "baseline {} {} B, {} ranks ({}), host timer, {} x {} iters: median {:.2f} us (first {:.2f}, min "
      "{:.2f}, max {:.2f}), busbw {:.1f} GB/s (median)\n",
      job.coll, job.bytes, nranks, mode, job.repeats, job.iters, median, first, t.front(), t.back(),
      size / (median * 1e-6) / 1e9 * factor);
}

}  // namespace

// NOLINTNEXTLINE(bugprone-exception-escape): a baseline that fails may end in terminate
int main(int argc, char** argv) {
  if (argc < 3) {
    fmt::print(stderr, "usage: {} all_reduce|reduce_scatter|all_gather BYTES [ITERS] [REPEATS]\n", argv[0]);
    return 2;
  }
  Job job;
  job.coll = argv[1];
  for (const char* p = argv[2]; *p != '\0'; p += *p == ',' ? 1 : 0) {
    char* end = nullptr;
    job.sizes.push_back(std::strtoull(p, &end, 10));
    if (end == p || job.sizes.back() == 0) return 2;
    p = end;
  }
  job.iters = argc > 3 ? std::atoi(argv[3]) : 20;
  job.repeats = argc > 4 ? std::atoi(argv[4]) : 50;
  if ((job.coll != "all_reduce" && job.coll != "reduce_scatter" && job.coll != "all_gather") ||
      job.iters < 1 || job.repeats < 1)
    return 2;
  // Prints every size's line on the first rank.
  auto report_all = [&](const char* mode, int nranks, const std::vector<std::vector<double>>& t) {
    for (std::size_t i = 0; i < job.sizes.size(); ++i) {
      job.bytes = job.sizes[i];
      report(job, mode, nranks, t[i]);
    }
  };
  const auto lib = fb::NcclLibrary::load("");
  const auto& api = lib->api();

  if (const char* size = std::getenv("OMPI_COMM_WORLD_SIZE")) {
    const int nranks = std::atoi(size);
    const int rank = std::atoi(std::getenv("OMPI_COMM_WORLD_RANK"));
    const char* local = std::getenv("OMPI_COMM_WORLD_LOCAL_RANK");
    const ncclUniqueId id = exchange_id_by_file(api, rank);
    const auto t = time_rank(api, job, id, nranks, rank, local ? std::atoi(local) : rank);
    if (rank == 0) {
      std::filesystem::remove(fmt::format("/tmp/nccl_timing_baseline.{}.{}",
                                          std::getenv("OMPI_MCA_ess_base_jobid") ?: "0", getuid()));
      report_all("processes", nranks, t);
    }
    return 0;
  }
  int ngpu = 0;
  check(cudaGetDeviceCount(&ngpu) == cudaSuccess && ngpu > 0, "cudaGetDeviceCount");
  ncclUniqueId id{};
  api.GetUniqueId(&id);
  std::vector<std::vector<std::vector<double>>> times(static_cast<std::size_t>(ngpu));
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(ngpu));
  for (int r = 0; r < ngpu; ++r)
    threads.emplace_back(
        [&, r] { times[static_cast<std::size_t>(r)] = time_rank(api, job, id, ngpu, r, r); });
  for (auto& t : threads) t.join();
  report_all("threads", ngpu, times[0]);
  return 0;
}
