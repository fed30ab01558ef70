// A methodology baseline, not part of fabricbench: times all_reduce the way nccl-tests does
// (a host timer around `iters` back-to-back launches and one stream synchronisation, one
// thread per GPU, no CUDA graphs), so that fabricbench's device-event timing can be compared
// with it on the same machine in the same run.
//   nccl_timing_baseline BYTES [ITERS=20] [REPEATS=50]
#include <cuda_runtime.h>
#include <fmt/format.h>

#include <algorithm>
#include <barrier>
#include <chrono>
#include <cstdlib>
#include <thread>
#include <vector>

#include "comm/nccl_library.hpp"

int main(int argc, char** argv) {
  if (argc < 2) {
    fmt::print(stderr, "usage: {} BYTES [ITERS] [REPEATS]\n", argv[0]);
    return 2;
  }
  const std::size_t bytes = std::strtoull(argv[1], nullptr, 10);
  const int iters = argc > 2 ? std::atoi(argv[2]) : 20;
  const int repeats = argc > 3 ? std::atoi(argv[3]) : 50;
  const auto lib = fb::NcclLibrary::load("");
  const auto& api = lib->api();
  int ngpu = 0;
  cudaGetDeviceCount(&ngpu);
  ncclUniqueId id{};
  api.GetUniqueId(&id);
  std::barrier sync(ngpu);
  std::vector<std::vector<double>> times(static_cast<std::size_t>(ngpu));
  std::vector<std::thread> threads;
  for (int r = 0; r < ngpu; ++r) {
    threads.emplace_back([&, r] {
      cudaSetDevice(r);
      ncclComm_t comm = nullptr;
      api.CommInitRank(&comm, ngpu, id, r);
      cudaStream_t s = nullptr;
      cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
      void* buf = nullptr;
      cudaMalloc(&buf, std::max<std::size_t>(bytes, 4));
      const std::size_t count = std::max<std::size_t>(bytes / 4, 1);
      for (int w = 0; w < 5; ++w) api.AllReduce(buf, buf, count, ncclFloat32, ncclSum, comm, s);
      cudaStreamSynchronize(s);
      for (int k = 0; k < repeats; ++k) {
        sync.arrive_and_wait();
        const auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < iters; ++i) api.AllReduce(buf, buf, count, ncclFloat32, ncclSum, comm, s);
        cudaStreamSynchronize(s);
        const auto t1 = std::chrono::steady_clock::now();
        times[static_cast<std::size_t>(r)].push_back(
            std::chrono::duration<double, std::micro>(t1 - t0).count() / iters);
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
  fmt::print(
      "baseline all_reduce {} B, {} GPUs, host timer: median {:.2f} us, mean {:.2f} us, min {:.2f} us\n",
      bytes, ngpu, per_batch[per_batch.size() / 2], mean, per_batch.front());
  return 0;
}
