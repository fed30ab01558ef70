// fabricbench declares the few ROCm SMI types and functions it calls itself
// (src/topo/rocm_smi_api.hpp); where the real header is installed (Debian: librocm-smi-dev),
// this file checks them against it at compile time, and the test says which case ran.
#include <gtest/gtest.h>

#include <cstddef>
#include <type_traits>

#include "topo/rocm_smi_api.hpp"

#if __has_include(<rocm_smi/rocm_smi.h>)
#include <rocm_smi/rocm_smi.h>
#define FB_HAVE_ROCM_SMI_H 1

namespace {

// Two function types match when they return and take values of the same sizes, pointer for
// pointer (our enums and status type stand for theirs, which C++ names differently).
template <typename A, typename B>
struct same_shape : std::false_type {};
template <typename RA, typename... PA, typename RB, typename... PB>
struct same_shape<RA (*)(PA...), RB (*)(PB...)>
    : std::bool_constant<sizeof...(PA) == sizeof...(PB) && sizeof(RA) == sizeof(RB) &&
                         ((sizeof(PA) == sizeof(PB) &&
                           std::is_pointer_v<PA> == std::is_pointer_v<PB>)&&...)> {};

#define FB_SAME_SHAPE(field, symbol)                                                    \
  static_assert(same_shape<decltype(fb::rsmi::Api::field), decltype(&::symbol)>::value, \
                #symbol " does not match rocm_smi_api.hpp")

FB_SAME_SHAPE(init, rsmi_init);
FB_SAME_SHAPE(shut_down, rsmi_shut_down);
FB_SAME_SHAPE(status_string, rsmi_status_string);
FB_SAME_SHAPE(num_monitor_devices, rsmi_num_monitor_devices);
FB_SAME_SHAPE(dev_pci_id_get, rsmi_dev_pci_id_get);
FB_SAME_SHAPE(dev_name_get, rsmi_dev_name_get);
FB_SAME_SHAPE(dev_pci_bandwidth_get, rsmi_dev_pci_bandwidth_get);
FB_SAME_SHAPE(topo_get_numa_node_number, rsmi_topo_get_numa_node_number);
FB_SAME_SHAPE(topo_get_link_weight, rsmi_topo_get_link_weight);
FB_SAME_SHAPE(topo_get_link_type, rsmi_topo_get_link_type);
FB_SAME_SHAPE(minmax_bandwidth_get, rsmi_minmax_bandwidth_get);
FB_SAME_SHAPE(is_p2p_accessible, rsmi_is_P2P_accessible);

static_assert(sizeof(rsmi_status_t) == sizeof(fb::rsmi::Status));
static_assert(RSMI_STATUS_SUCCESS == fb::rsmi::kSuccess);
static_assert(sizeof(RSMI_IO_LINK_TYPE) == sizeof(fb::rsmi::IoLinkType));
static_assert(RSMI_IOLINK_TYPE_PCIEXPRESS == static_cast<int>(fb::rsmi::IoLinkType::pcie));
static_assert(RSMI_IOLINK_TYPE_XGMI == static_cast<int>(fb::rsmi::IoLinkType::xgmi));
static_assert(RSMI_MAX_NUM_FREQUENCIES == fb::rsmi::kMaxFrequencies);
static_assert(sizeof(rsmi_frequencies_t) == sizeof(fb::rsmi::Frequencies));
static_assert(offsetof(rsmi_frequencies_t, current) == offsetof(fb::rsmi::Frequencies, current));
static_assert(offsetof(rsmi_frequencies_t, frequency) == offsetof(fb::rsmi::Frequencies, frequency));
static_assert(sizeof(rsmi_pcie_bandwidth_t) == sizeof(fb::rsmi::PcieBandwidth));
static_assert(offsetof(rsmi_pcie_bandwidth_t, lanes) == offsetof(fb::rsmi::PcieBandwidth, lanes));

}  // namespace
#endif

TEST(RocmSmiHeader, DeclarationsMatchTheRealHeaderWhereInstalled) {
#ifdef FB_HAVE_ROCM_SMI_H
  SUCCEED() << "checked against <rocm_smi/rocm_smi.h> at compile time";
#else
  GTEST_SKIP() << "rocm_smi/rocm_smi.h not installed (apt-get install librocm-smi-dev)";
#endif
}
