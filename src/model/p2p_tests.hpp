#pragma once
// The p2p tests, one row each (nvbandwidth's Testcase registry): what moves the bytes, between
// which ends, who issues the copy, which ceiling applies and the unit. bench/p2p_bench.cpp
// measures by these rows, analyse/ and report/ read them; neither decides from the test's name.
#include <array>
#include <cstddef>
#include <string_view>

#include "core/enum_names.hpp"
#include "model/result_enums.hpp"

namespace fb {

enum class P2pTest {
  ce_read,
  ce_write,
  sm_read,
  sm_write,
  ce_bidir,
  sm_bidir,
  latency,
  h2d,
  d2h,
  h2d_all,
  d2h_all,
  host_latency,
  h2d_sm,
  d2h_sm,
  local_copy
};

enum class P2pCopier { copy_engine, sm };  // a DMA copy engine, or a kernel's loads and stores
enum class P2pPath { peer, host_to_gpu, gpu_to_host, local };  // local: within one GPU's memory
enum class P2pIssuer { destination, source };     // read: the destination pulls; write: the source pushes
enum class P2pCeiling { none, copy_engine, sm };  // which of the pair's ceilings (TopoPair) applies

struct P2pTestSpec {
  P2pTest id;
  std::string_view name;  // the JSON string
  P2pCopier copier;
  P2pPath path;
  P2pIssuer issuer;
  bool bidirectional;  // both directions at once; the figure is their sum
  bool every_gpu;      // every GPU's copy at once (shared uplinks show)
  P2pCeiling ceiling;
  P2pUnit unit;
  std::string_view title;  // the console's heading
};

inline constexpr std::array<P2pTestSpec, 15> kP2pTests{{
    {.id = P2pTest::ce_read,
     .name = "ce_read",
     .copier = P2pCopier::copy_engine,
     .path = P2pPath::peer,
     .issuer = P2pIssuer::destination,
     .bidirectional = false,
     .every_gpu = false,
     .ceiling = P2pCeiling::copy_engine,
     .unit = P2pUnit::gbps,
     .title = "copy engine, read: the destination's copy engine pulls (cudaMemcpyPeer on the destination)"},
    {.id = P2pTest::ce_write,
     .name = "ce_write",
     .copier = P2pCopier::copy_engine,
     .path = P2pPath::peer,
     .issuer = P2pIssuer::source,
     .bidirectional = false,
     .every_gpu = false,
     .ceiling = P2pCeiling::copy_engine,
     .unit = P2pUnit::gbps,
     .title = "copy engine, write: the source's copy engine pushes"},
    {.id = P2pTest::sm_read,
     .name = "sm_read",
     .copier = P2pCopier::sm,
     .path = P2pPath::peer,
     .issuer = P2pIssuer::destination,
     .bidirectional = false,
     .every_gpu = false,
     .ceiling = P2pCeiling::sm,
     .unit = P2pUnit::gbps,
     .title = "SM copy kernel on the destination, reading the source's memory"},
    {.id = P2pTest::sm_write,
     .name = "sm_write",
     .copier = P2pCopier::sm,
     .path = P2pPath::peer,
     .issuer = P2pIssuer::source,
     .bidirectional = false,
     .every_gpu = false,
     .ceiling = P2pCeiling::sm,
     .unit = P2pUnit::gbps,
     .title = "SM copy kernel on the source, writing the destination's memory"},
    {.id = P2pTest::ce_bidir,
     .name = "ce_bidir",
     .copier = P2pCopier::copy_engine,
     .path = P2pPath::peer,
     .issuer = P2pIssuer::destination,
     .bidirectional = true,
     .every_gpu = false,
     .ceiling = P2pCeiling::copy_engine,
     .unit = P2pUnit::gbps,
     .title = "copy engines, both directions at once (sum of the two)"},
    {.id = P2pTest::sm_bidir,
     .name = "sm_bidir",
     .copier = P2pCopier::sm,
     .path = P2pPath::peer,
     .issuer = P2pIssuer::destination,
     .bidirectional = true,
     .every_gpu = false,
     .ceiling = P2pCeiling::sm,
     .unit = P2pUnit::gbps,
     .title = "SM copy kernels, both directions at once (sum of the two)"},
    {.id = P2pTest::latency,
     .name = "latency",
     .copier = P2pCopier::sm,
     .path = P2pPath::peer,
     .issuer = P2pIssuer::destination,
     .bidirectional = false,
     .every_gpu = false,
     .ceiling = P2pCeiling::none,
     .unit = P2pUnit::ns,
     .title = "latency: one dependent load at a time from the source's memory (ns)"},
    {.id = P2pTest::h2d,
     .name = "h2d",
     .copier = P2pCopier::copy_engine,
     .path = P2pPath::host_to_gpu,
     .issuer = P2pIssuer::destination,
     .bidirectional = false,
     .every_gpu = false,
     .ceiling = P2pCeiling::none,
     .unit = P2pUnit::gbps,
     .title = "host -> GPU"},
    {.id = P2pTest::d2h,
     .name = "d2h",
     .copier = P2pCopier::copy_engine,
     .path = P2pPath::gpu_to_host,
     .issuer = P2pIssuer::source,
     .bidirectional = false,
     .every_gpu = false,
     .ceiling = P2pCeiling::none,
     .unit = P2pUnit::gbps,
     .title = "GPU -> host"},
    {.id = P2pTest::h2d_all,
     .name = "h2d_all",
     .copier = P2pCopier::copy_engine,
     .path = P2pPath::host_to_gpu,
     .issuer = P2pIssuer::destination,
     .bidirectional = false,
     .every_gpu = true,
     .ceiling = P2pCeiling::none,
     .unit = P2pUnit::gbps,
     .title = "host -> every GPU at once"},
    {.id = P2pTest::d2h_all,
     .name = "d2h_all",
     .copier = P2pCopier::copy_engine,
     .path = P2pPath::gpu_to_host,
     .issuer = P2pIssuer::source,
     .bidirectional = false,
     .every_gpu = true,
     .ceiling = P2pCeiling::none,
     .unit = P2pUnit::gbps,
     .title = "every GPU -> host at once"},
    {.id = P2pTest::host_latency,
     .name = "host_latency",
     .copier = P2pCopier::sm,
     .path = P2pPath::host_to_gpu,
     .issuer = P2pIssuer::destination,
     .bidirectional = false,
     .every_gpu = false,
     .ceiling = P2pCeiling::none,
     .unit = P2pUnit::ns,
     .title = "latency: one dependent load at a time from pinned host memory (ns)"},
    {.id = P2pTest::h2d_sm,
     .name = "h2d_sm",
     .copier = P2pCopier::sm,
     .path = P2pPath::host_to_gpu,
     .issuer = P2pIssuer::destination,
     .bidirectional = false,
     .every_gpu = false,
     .ceiling = P2pCeiling::none,
     .unit = P2pUnit::gbps,
     .title = "host -> GPU, SM copy kernel on the GPU reading pinned host memory"},
    {.id = P2pTest::d2h_sm,
     .name = "d2h_sm",
     .copier = P2pCopier::sm,
     .path = P2pPath::gpu_to_host,
     .issuer = P2pIssuer::source,
     .bidirectional = false,
     .every_gpu = false,
     .ceiling = P2pCeiling::none,
     .unit = P2pUnit::gbps,
     .title = "GPU -> host, SM copy kernel on the GPU writing pinned host memory"},
    {.id = P2pTest::local_copy,
     .name = "local_copy",
     .copier = P2pCopier::copy_engine,
     .path = P2pPath::local,
     .issuer = P2pIssuer::source,
     .bidirectional = false,
     .every_gpu = false,
     .ceiling = P2pCeiling::none,
     .unit = P2pUnit::gbps,
     .title =
         "device memory: a copy engine copies between two buffers of the GPU (bytes copied, each read and "
         "written once)"},
}};

template <>
struct EnumNames<P2pTest> {
  static constexpr std::string_view what = "p2p test";
  static constexpr const auto& table = kP2pTests;
};

// Rows are in enum order, so a test's row is found by its value.
constexpr bool p2p_rows_in_enum_order() {
  for (std::size_t i = 0; i < kP2pTests.size(); ++i)
    if (static_cast<std::size_t>(kP2pTests[i].id) != i) return false;
  return true;
}
static_assert(p2p_rows_in_enum_order(), "kP2pTests: one row per P2pTest, in enum order");

constexpr const P2pTestSpec& p2p_test_spec(P2pTest test) { return kP2pTests[static_cast<std::size_t>(test)]; }

// A copy over the GPU's host link (PCIe, or the C2C link of a Grace-Hopper), either way.
constexpr bool over_host_link(P2pTest test) {
  const auto path = p2p_test_spec(test).path;
  return path == P2pPath::host_to_gpu || path == P2pPath::gpu_to_host;
}

}  // namespace fb
