#include "topo/rocm_smi_library.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <array>
#include <memory>

#include "core/error.hpp"
#include "topo/link_rates.hpp"

namespace fb {
namespace {

// More devices than any machine has: the library's answer is not believed.
constexpr std::uint32_t kMaxDevices = 4096;

template <typename Fn>
bool bind(void* lib, Fn& fn, const char* symbol) {
  fn = reinterpret_cast<Fn>(::dlsym(lib, symbol));
  return fn != nullptr;
}

// The first symbol missing from `lib`, or "" when all are there.
std::string bind_all(void* lib, rsmi::Api& api) {
  const std::array<std::pair<bool, const char*>, 12> bound{{
      {bind(lib, api.init, "rsmi_init"), "rsmi_init"},
      {bind(lib, api.shut_down, "rsmi_shut_down"), "rsmi_shut_down"},
      {bind(lib, api.status_string, "rsmi_status_string"), "rsmi_status_string"},
      {bind(lib, api.num_monitor_devices, "rsmi_num_monitor_devices"), "rsmi_num_monitor_devices"},
      {bind(lib, api.dev_pci_id_get, "rsmi_dev_pci_id_get"), "rsmi_dev_pci_id_get"},
      {bind(lib, api.dev_name_get, "rsmi_dev_name_get"), "rsmi_dev_name_get"},
      {bind(lib, api.dev_pci_bandwidth_get, "rsmi_dev_pci_bandwidth_get"), "rsmi_dev_pci_bandwidth_get"},
      {bind(lib, api.topo_get_numa_node_number, "rsmi_topo_get_numa_node_number"),
       "rsmi_topo_get_numa_node_number"},
      {bind(lib, api.topo_get_link_weight, "rsmi_topo_get_link_weight"), "rsmi_topo_get_link_weight"},
      {bind(lib, api.topo_get_link_type, "rsmi_topo_get_link_type"), "rsmi_topo_get_link_type"},
      {bind(lib, api.minmax_bandwidth_get, "rsmi_minmax_bandwidth_get"), "rsmi_minmax_bandwidth_get"},
      {bind(lib, api.is_p2p_accessible, "rsmi_is_P2P_accessible"), "rsmi_is_P2P_accessible"},
  }};
  for (const auto& [ok, name] : bound)
    if (!ok) return name;
  return "";
}

std::string status_text(const rsmi::Api& api, rsmi::Status s) {
  const char* text = nullptr;
  if (api.status_string != nullptr && api.status_string(s, &text) == rsmi::kSuccess && text != nullptr)
    return text;
  return fmt::format("status {}", s);
}

// The current PCIe rate and width: the entry `current` of the supported list.
void read_pcie(const rsmi::Api& api, std::uint32_t dev, RocmSmiTopo& t) {
  rsmi::PcieBandwidth bw{};
  int gen = 0;
  int width = 0;
  if (api.dev_pci_bandwidth_get(dev, &bw) == rsmi::kSuccess &&
      bw.transfer_rate.current < rsmi::kMaxFrequencies &&
      bw.transfer_rate.current < bw.transfer_rate.num_supported) {
    const auto i = bw.transfer_rate.current;
    gen = pcie_gen_from_gts(static_cast<double>(bw.transfer_rate.frequency[i]) / 1e9);
    width = static_cast<int>(bw.lanes[i]);
  }
  t.pcie_gen.push_back(gen);
  t.pcie_width.push_back(width);
}

void read_device(const rsmi::Api& api, std::uint32_t dev, RocmSmiTopo& t) {
  std::uint64_t bdfid = 0;
  t.bus_ids.push_back(api.dev_pci_id_get(dev, &bdfid) == rsmi::kSuccess ? bdfid_to_bus_id(bdfid) : "");
  std::array<char, 256> name{};
  t.names.emplace_back(api.dev_name_get(dev, name.data(), name.size() - 1) == rsmi::kSuccess ? name.data()
                                                                                             : "");
  std::uint32_t node = 0;
  t.numa_node.push_back(api.topo_get_numa_node_number(dev, &node) == rsmi::kSuccess ? static_cast<int>(node)
                                                                                    : -1);
  read_pcie(api, dev, t);
}

std::string link_type_text(rsmi::IoLinkType type) {
  switch (type) {
    case rsmi::IoLinkType::xgmi:
      return "XGMI";
    case rsmi::IoLinkType::pcie:
      return "PCIE";
    default:
      return "?";
  }
}

void read_pair(const rsmi::Api& api, std::uint32_t a, std::uint32_t b, RocmSmiTopo& t) {
  std::uint64_t hops = 0;
  auto type = rsmi::IoLinkType::undefined;
  const bool typed = api.topo_get_link_type(a, b, &hops, &type) == rsmi::kSuccess;
  t.link_type[a][b] = typed ? link_type_text(type) : "?";
  t.hops[a][b] = typed ? static_cast<int>(hops) : -1;
  std::uint64_t weight = 0;
  t.weight[a][b] = api.topo_get_link_weight(a, b, &weight) == rsmi::kSuccess ? static_cast<int>(weight) : -1;
  std::uint64_t lo = 0;
  std::uint64_t hi = 0;
  if (typed && type == rsmi::IoLinkType::xgmi && api.minmax_bandwidth_get(a, b, &lo, &hi) == rsmi::kSuccess) {
    t.xgmi_min_mbps[a][b] = static_cast<double>(lo);
    t.xgmi_max_mbps[a][b] = static_cast<double>(hi);
  }
  bool p2p = false;
  t.p2p[a][b] = api.is_p2p_accessible(a, b, &p2p) == rsmi::kSuccess ? (p2p ? 1 : 0) : -1;
}

template <typename T>
std::vector<std::vector<T>> square(std::size_t n, const T& fill) {
  return std::vector<std::vector<T>>(n, std::vector<T>(n, fill));
}

}  // namespace

std::string bdfid_to_bus_id(std::uint64_t bdfid) {
  return fmt::format("{:04x}:{:02x}:{:02x}.{:x}", (bdfid >> 32) & 0xffffffffU, (bdfid >> 8) & 0xffU,
                     (bdfid >> 3) & 0x1fU, bdfid & 0x7U);
}

RocmSmiTopo read_rocm_smi_api(const rsmi::Api& api) {
  std::uint32_t count = 0;
  const auto s = api.num_monitor_devices(&count);
  if (s != rsmi::kSuccess)
    ::fb::raise(ExitCode::environment, fmt::format("ROCm SMI: device count: {}", status_text(api, s)),
                __FILE__, __LINE__, nullptr);
  if (count > kMaxDevices)
    ::fb::raise(ExitCode::environment, fmt::format("ROCm SMI: {} devices is not believable", count), __FILE__,
                __LINE__, nullptr);
  RocmSmiTopo t;
  t.n = static_cast<int>(count);
  t.numa_node.clear();
  for (std::uint32_t d = 0; d < count; ++d) read_device(api, d, t);
  t.link_type = square<std::string>(count, "0");
  t.hops = square(count, 0);
  t.weight = square(count, 0);
  t.xgmi_min_mbps = square(count, -1.0);
  t.xgmi_max_mbps = square(count, -1.0);
  t.p2p = square(count, -1);
  for (std::uint32_t a = 0; a < count; ++a)
    for (std::uint32_t b = 0; b < count; ++b)
      if (a != b) read_pair(api, a, b, t);
  return t;
}

std::optional<RocmSmiTopo> read_rocm_smi_library(const std::string& library, std::string& why) {
  const std::array<const char*, 3> defaults{"librocm_smi64.so.1", "librocm_smi64.so",
                                            "/opt/rocm/lib/librocm_smi64.so.1"};
  void* lib = nullptr;
  std::string path = library;
  if (!library.empty()) {
    lib = ::dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  } else {
    for (const char* p : defaults) {
      lib = ::dlopen(p, RTLD_NOW | RTLD_LOCAL);
      if (lib == nullptr) continue;
      path = p;
      break;
    }
  }
  if (lib == nullptr) {
    why = "ROCm SMI library (librocm_smi64): not found";
    return std::nullopt;
  }
  // The handle stays open: the library keeps threads and state past rsmi_shut_down on some versions.
  rsmi::Api api{};
  if (const auto missing = bind_all(lib, api); !missing.empty()) {
    why = fmt::format("ROCm SMI library ({}): no symbol {}", path, missing);
    return std::nullopt;
  }
  if (const auto s = api.init(0); s != rsmi::kSuccess) {
    why = fmt::format("ROCm SMI library ({}): rsmi_init: {}", path, status_text(api, s));
    return std::nullopt;
  }
  std::unique_ptr<const rsmi::Api, void (*)(const rsmi::Api*)> shut(
      &api, [](const rsmi::Api* a) { a->shut_down(); });
  try {
    auto t = read_rocm_smi_api(api);
    t.source = fmt::format("ROCm SMI library ({})", path);
    return t;
  } catch (const Error& e) {
    why = e.what();
    return std::nullopt;
  }
}

}  // namespace fb
