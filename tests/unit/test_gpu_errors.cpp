// The one CUDA error path (gpu/cuda_check.hpp): which exit code a CUDA error maps to, that the
// check records file:line and the call, and what a failed allocation tells the user. Needs no
// GPU: the errors are given, not provoked (an out-of-memory needs a GPU to happen). The HIP build
// runs the same tests through the portability header, with HIP's names in the messages.
#include <gtest/gtest.h>

#include <functional>
#include <optional>
#include <string>

#include "core/error.hpp"
#include "gpu/cuda_check.hpp"
#include "gpu/vendor.hpp"

namespace {

constexpr std::size_t kGiB = std::size_t{1} << 30;

// The Error a check throws; fails the test when it throws none.
fb::Error thrown_by(const std::function<void()>& check) {
  try {
    check();
  } catch (const fb::Error& e) {
    return e;
  }
  ADD_FAILURE() << "no fb::Error thrown";
  return fb::Error(fb::ExitCode::ok, "");
}

const bool kHip = fb::gpu::build_vendor() == fb::gpu::Vendor::amd;
// The runtime's names of the errors these tests give.
const std::string kOutOfMemory = kHip ? "hipErrorOutOfMemory" : "cudaErrorMemoryAllocation";
const std::string kIllegalAddress = kHip ? "hipErrorIllegalAddress" : "cudaErrorIllegalAddress";
const std::string kInvalidValue = kHip ? "hipErrorInvalidValue" : "cudaErrorInvalidValue";

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST(CudaErrors, MissingResourcesAreEnvironmentOthersARunFailure) {
  EXPECT_EQ(fb::gpu::exit_code_for(cudaSuccess), fb::ExitCode::ok);
  EXPECT_EQ(fb::gpu::exit_code_for(cudaErrorMemoryAllocation), fb::ExitCode::environment);
  EXPECT_EQ(fb::gpu::exit_code_for(cudaErrorNoDevice), fb::ExitCode::environment);
  EXPECT_EQ(fb::gpu::exit_code_for(cudaErrorInsufficientDriver), fb::ExitCode::environment);
  EXPECT_EQ(fb::gpu::exit_code_for(cudaErrorNoKernelImageForDevice), fb::ExitCode::environment);
  EXPECT_EQ(fb::gpu::exit_code_for(cudaErrorIllegalAddress), fb::ExitCode::run_failed);
  EXPECT_EQ(fb::gpu::exit_code_for(cudaErrorLaunchFailure), fb::ExitCode::run_failed);
  EXPECT_EQ(fb::gpu::exit_code_for(cudaErrorInvalidValue), fb::ExitCode::run_failed);
}

TEST(CudaErrors, CheckRecordsFileLineAndTheCall) {
  EXPECT_NO_THROW(FB_CUDA(cudaSuccess));
  const int line = __LINE__ + 1;
  const auto e = thrown_by([] { FB_CUDA(cudaErrorIllegalAddress); });
  EXPECT_EQ(e.code(), fb::ExitCode::run_failed);
  const std::string runtime = kHip ? "HIP" : "CUDA";
  EXPECT_TRUE(contains(e.what(), runtime + " error 700 (" + kIllegalAddress + ")")) << e.what();
  EXPECT_TRUE(
      contains(e.where(), "test_gpu_errors.cpp:" + std::to_string(line) + ": cudaErrorIllegalAddress"))
      << e.where();
}

TEST(CudaErrors, OutOfMemorySaysHowMuchWasAskedAndIsFree) {
  const fb::gpu::MemInfo mem{12 * kGiB, 140 * kGiB};
  EXPECT_EQ(fb::gpu::allocation_failure_message(cudaErrorMemoryAllocation, 64 * kGiB, fb::gpu::Memory::device,
                                                1, mem),
            "could not allocate 64 GiB on GPU 1 (" + kOutOfMemory +
                "): 12 GiB of its 140 GiB is free; use a smaller -e/--maxbytes (run) or --size (p2p), or "
                "free the GPU");
  EXPECT_EQ(fb::gpu::allocation_failure_message(cudaErrorMemoryAllocation, 64 * kGiB, fb::gpu::Memory::device,
                                                0, std::nullopt),
            "could not allocate 64 GiB on GPU 0 (" + kOutOfMemory +
                "): its free memory could not be read; use a smaller -e/--maxbytes (run) or --size (p2p), or "
                "free the "
                "GPU");
  EXPECT_EQ(fb::gpu::allocation_failure_message(cudaErrorMemoryAllocation, 2 * kGiB,
                                                fb::gpu::Memory::pinned_host, 0, std::nullopt),
            "could not pin 2 GiB of host memory (" + kOutOfMemory + "); use a smaller --size");
}

// The path cudaMalloc's result takes in DeviceBuffer: out of memory is exit 3, any other
// failure keeps its own code.
TEST(CudaErrors, FailedAllocationIsAnEnvironmentError) {
  const auto oom = thrown_by([] { FB_CUDA_ALLOC(cudaErrorMemoryAllocation, kGiB, fb::gpu::Memory::device); });
  EXPECT_EQ(oom.code(), fb::ExitCode::environment);
  EXPECT_TRUE(contains(oom.what(), "could not allocate 1 GiB on GPU")) << oom.what();
  EXPECT_TRUE(contains(oom.what(), "use a smaller -e/--maxbytes")) << oom.what();
  EXPECT_TRUE(contains(oom.where(), "test_gpu_errors.cpp:")) << oom.where();

  const auto bad = thrown_by([] { FB_CUDA_ALLOC(cudaErrorInvalidValue, kGiB, fb::gpu::Memory::device); });
  EXPECT_EQ(bad.code(), fb::ExitCode::run_failed);
  EXPECT_TRUE(contains(bad.what(), kInvalidValue)) << bad.what();
}
