// A methodology baseline, not part of fabricbench: times a collective the way nccl-tests does
// (a host timer around `iters` back-to-back launches and one stream synchronisation, one
// thread per GPU, no CUDA graphs, time averaged over ranks), so that fabricbench's figures can
// be compared with it on the same machine in the same run.
//   nccl_timing_baseline all_reduce|reduce_scatter|all_gather BYTES [ITERS=20] [REPEATS=50]
#include <cuda_runtime.h>
#include <fmt/format.h>

#include <algorithm>
#include <barrier>
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "comm/nccl_library.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    fmt::print(stderr, "usage: {} all_reduce|reduce_scatter|all_gather BYTES [ITERS] [REPEATS]\n", argv[0]);
    return 2;
  }
  const std::string coll = argv[1];
  const std::size_t bytes = std::strtoull(argv[2], nullptr, 10);
  const int iters = argc > 3 ? std::atoi(argv[3]) : 20;
  const int repeats = argc > 4 ? std::atoi(argv[4]) : 50;
  if (coll != "all_reduce" && coll != "reduce_scatter" && coll != "all_gather") return 2;
  const auto lib = fb::NcclLibrary::load("");
  const auto& api = lib->api();
  int ngpu = 0;
  cudaGetDeviceCount(&ngpu);
  ncclUniqueId id{};
  api.GetUniqueId(&id);
  std::barrier sync(ngpu);
  std::vector<std::vector<double>> times(static_cast<std::size_t>(ngpu));
  const std::size_t total = std::max<std::size_t>(bytes / 4, static_cast<std::size_t>(ngpu));
  const std::size_t per_rank = total / static_cast<std::size_t>(ngpu);
  std::vector<std::thread> threads;
  for (int r = 0; r < ngpu; ++r) {
    threads.emplace_back([&, r] {
      cudaSetDevice(r);
      ncclComm_t comm = nullptr;
      api.CommInitRank(&comm, ngpu, id, r);
      cudaStream_t s = nullptr;
      cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
      void* in = nullptr;
      void* out = nullptr;
      cudaMalloc(&in, total * 4);
      cudaMalloc(&out, total * 4);
      auto launch = [&] {
        if (coll == "all_reduce") api.AllReduce(in, out, total, ncclFloat32, ncclSum, comm, s);
        else if (coll == "reduce_scatter") api.ReduceScatter(in, out, per_rank, ncclFloat32, ncclSum, comm, s);
        else api.AllGather(in, out, per_rank, ncclFloat32, comm, s);
      };
      for (int w = 0; w < 5; ++w) launch();
      cudaStreamSynchronize(s);
      for (int k = 0; k < repeats; ++k) {
        sync.arrive_and_wait();
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < iters; ++i) launch();
        cudaStreamSynchronize(s);
        const auto t1 = std::chrono::steady_clock::now();
        times[static_cast<std::size_t>(r)].push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / iters);
      }
      api.CommDestroy(comm);
    });
  }
  for (auto& t : threads) t.join();
  std::vector<double> per_batch;  // nccl-tests averages over ranks
  for (int k = 0; k < repeats; ++k) {
    double sum = 0;
    for (int r = 0; r < ngpu; ++r) sum += times[static_cast<std::size_t>(r)][static_cast<std::size_t>(k)];
    per_batch.push_back(sum / ngpu);
  }
  std::sort(per_batch.begin(), per_batch.end());
  double mean = 0;
  for (double v : per_batch) mean += v;
  mean /= static_cast<double>(per_batch.size());
  const double median = per_batch[per_batch.size() / 2];
  const double size = coll == "all_reduce" ? total * 4.0 : per_rank * ngpu * 4.0;
  const double factor = coll == "all_reduce" ? 2.0 * (ngpu - 1) / ngpu : (ngpu - 1.0) / ngpu;
  fmt::print("baseline {} {} B, {} GPUs, host timer: median {:.2f} us, mean {:.2f} us, min {:.2f} us, busbw "
             "{:.1f} GB/s (median)\n",
             coll, bytes, ngpu, median, mean, per_batch.front(), size / (median * 1e-6) / 1e9 * factor);
  return 0;
}
