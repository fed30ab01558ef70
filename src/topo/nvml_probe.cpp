#include "topo/nvml_probe.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <array>
#include <vector>

#include "topo/sysfs_probe.hpp"

namespace fb {
namespace {

// The few NVML declarations needed, from NVML's public C API (nvml.h is not part of every
// CUDA toolkit install, and the library is loaded at run time anyway).
using nvmlReturn_t = int;
using nvmlDevice_t = struct nvmlDevice_st*;
constexpr nvmlReturn_t kNvmlSuccess = 0;
constexpr unsigned kNvmlMaxLinks = 18;  // NVML_NVLINK_MAX_LINKS
struct nvmlPciInfo_t {
  char busIdLegacy[16];
  unsigned domain;
  unsigned bus;
  unsigned device;
  unsigned pciDeviceId;
  unsigned pciSubSystemId;
  char busId[32];
};
enum nvmlEnableState_t { kDisabled = 0, kEnabled = 1 };
enum nvmlP2PCaps_t { kP2PRead = 0 };
constexpr int kLinkTypeGpu = 0;     // NVML_NVLINK_DEVICE_TYPE_GPU
constexpr int kLinkTypeSwitch = 2;  // NVML_NVLINK_DEVICE_TYPE_SWITCH

struct Nvml {
  nvmlReturn_t (*Init)();
  nvmlReturn_t (*Shutdown)();
  const char* (*ErrorString)(nvmlReturn_t);
  nvmlReturn_t (*SystemGetDriverVersion)(char*, unsigned);
  nvmlReturn_t (*DeviceGetCount)(unsigned*);
  nvmlReturn_t (*DeviceGetHandleByIndex)(unsigned, nvmlDevice_t*);
  nvmlReturn_t (*DeviceGetPciInfo)(nvmlDevice_t, nvmlPciInfo_t*);
  nvmlReturn_t (*DeviceGetName)(nvmlDevice_t, char*, unsigned);
  nvmlReturn_t (*DeviceGetNvLinkState)(nvmlDevice_t, unsigned, nvmlEnableState_t*);
  nvmlReturn_t (*DeviceGetNvLinkVersion)(nvmlDevice_t, unsigned, unsigned*);
  nvmlReturn_t (*DeviceGetNvLinkRemotePciInfo)(nvmlDevice_t, unsigned, nvmlPciInfo_t*);
  nvmlReturn_t (*DeviceGetNvLinkRemoteDeviceType)(nvmlDevice_t, unsigned, int*);  // optional
  nvmlReturn_t (*DeviceGetP2PStatus)(nvmlDevice_t, nvmlDevice_t, nvmlP2PCaps_t, int*);
};

template <typename Fn>
bool bind(void* lib, Fn& fn, const char* symbol) {
  fn = reinterpret_cast<Fn>(::dlsym(lib, symbol));
  return fn != nullptr;
}

std::string p2p_status_text(int s) {
  constexpr std::array<const char*, 7> kText{"OK",
                                             "chipset not supported",
                                             "GPU not supported",
                                             "topology not supported",
                                             "disabled by registry key",
                                             "not supported",
                                             "unknown"};
  return s >= 0 && s < static_cast<int>(kText.size()) ? kText[static_cast<std::size_t>(s)] : "unknown";
}

// Binds every function the probe calls; false when a required one is missing. The remote
// device type is optional (older drivers lack it).
bool bind_all(void* lib, Nvml& n) {
  const bool ok = bind(lib, n.Init, "nvmlInit_v2") && bind(lib, n.Shutdown, "nvmlShutdown") &&
                  bind(lib, n.ErrorString, "nvmlErrorString") &&
                  bind(lib, n.SystemGetDriverVersion, "nvmlSystemGetDriverVersion") &&
                  bind(lib, n.DeviceGetCount, "nvmlDeviceGetCount_v2") &&
                  bind(lib, n.DeviceGetHandleByIndex, "nvmlDeviceGetHandleByIndex_v2") &&
                  bind(lib, n.DeviceGetPciInfo, "nvmlDeviceGetPciInfo_v3") &&
                  bind(lib, n.DeviceGetName, "nvmlDeviceGetName") &&
                  bind(lib, n.DeviceGetNvLinkState, "nvmlDeviceGetNvLinkState") &&
                  bind(lib, n.DeviceGetNvLinkVersion, "nvmlDeviceGetNvLinkVersion") &&
                  bind(lib, n.DeviceGetNvLinkRemotePciInfo, "nvmlDeviceGetNvLinkRemotePciInfo_v2") &&
                  bind(lib, n.DeviceGetP2PStatus, "nvmlDeviceGetP2PStatus");
  bind(lib, n.DeviceGetNvLinkRemoteDeviceType, "nvmlDeviceGetNvLinkRemoteDeviceType");
  return ok;
}

// Loads and initialises NVML; the library handle, or null with `why` set when that fails.
void* open_nvml(Nvml& n, std::string& why) {
  void* lib = ::dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    const char* err = ::dlerror();
    why = fmt::format("NVML: libnvidia-ml.so.1 not loadable ({})", err ? err : "unknown");
    return nullptr;
  }
  if (!bind_all(lib, n)) {
    why = "NVML: the library lacks functions this build needs (driver too old)";
    return nullptr;
  }
  if (const auto r = n.Init(); r != kNvmlSuccess) {
    why = fmt::format("NVML: initialisation failed ({})", n.ErrorString(r));
    return nullptr;
  }
  return lib;
}

std::string remote_type_name(int type) {
  if (type == kLinkTypeSwitch) return "switch";
  return type == kLinkTypeGpu ? "gpu" : "other";
}

// Where an active link leads: the remote bus id and, where the driver says, the device type.
void read_link_remote(const Nvml& n, nvmlDevice_t dev, unsigned l, FabricLink& link) {
  nvmlPciInfo_t remote{};
  if (n.DeviceGetNvLinkRemotePciInfo(dev, l, &remote) == kNvmlSuccess)
    link.remote = normalize_bus_id(remote.busId);
  int type = -1;
  if (n.DeviceGetNvLinkRemoteDeviceType && n.DeviceGetNvLinkRemoteDeviceType(dev, l, &type) == kNvmlSuccess)
    link.remote_type = remote_type_name(type);
}

// Every link index NVML knows on the device, active or not.
std::vector<FabricLink> read_links(const Nvml& n, nvmlDevice_t dev) {
  std::vector<FabricLink> links;
  for (unsigned l = 0; l < kNvmlMaxLinks; ++l) {
    nvmlEnableState_t state = kDisabled;
    if (n.DeviceGetNvLinkState(dev, l, &state) != kNvmlSuccess) continue;  // no such link
    FabricLink link;
    link.index = static_cast<int>(l);
    link.active = state == kEnabled;
    unsigned version = 0;
    if (n.DeviceGetNvLinkVersion(dev, l, &version) == kNvmlSuccess) link.version = static_cast<int>(version);
    if (link.active) read_link_remote(n, dev, l, link);
    links.push_back(link);
  }
  return links;
}

using BusDevices = std::vector<std::pair<std::string, nvmlDevice_t>>;

// Fills out.gpus; returns the devices NVML could name by bus id, for the P2P queries.
BusDevices read_gpus(const Nvml& n, NvmlReadout& out) {
  unsigned count = 0;
  n.DeviceGetCount(&count);
  BusDevices devices;
  std::array<char, 96> text{};
  for (unsigned i = 0; i < count; ++i) {
    nvmlDevice_t dev = nullptr;
    nvmlPciInfo_t pci{};
    if (n.DeviceGetHandleByIndex(i, &dev) != kNvmlSuccess || n.DeviceGetPciInfo(dev, &pci) != kNvmlSuccess)
      continue;
    const auto bus = normalize_bus_id(pci.busId);
    NvmlGpu gpu;
    if (n.DeviceGetName(dev, text.data(), static_cast<unsigned>(text.size())) == kNvmlSuccess)
      gpu.name = text.data();
    gpu.links = read_links(n, dev);
    out.gpus[bus] = std::move(gpu);
    devices.emplace_back(bus, dev);
  }
  return devices;
}

void read_p2p(const Nvml& n, const BusDevices& devices, NvmlReadout& out) {
  for (const auto& [a, da] : devices)
    for (const auto& [b, db] : devices) {
      if (a == b) continue;
      int status = 6;
      if (n.DeviceGetP2PStatus(da, db, kP2PRead, &status) == kNvmlSuccess)
        out.p2p[{a, b}] = p2p_status_text(status);
    }
}

// The health readings (nvml.h): each optional, since older drivers or GPUs lack some.
constexpr int kEccUncorrected = 1;  // NVML_MEMORY_ERROR_TYPE_UNCORRECTED
constexpr int kEccVolatile = 0;     // NVML_VOLATILE_ECC: since the driver loaded
struct NvmlHealthApi {
  nvmlReturn_t (*PersistenceMode)(nvmlDevice_t, nvmlEnableState_t*);
  nvmlReturn_t (*ClocksEventReasons)(nvmlDevice_t, unsigned long long*);
  nvmlReturn_t (*MaxClockInfo)(nvmlDevice_t, int, unsigned*);
  nvmlReturn_t (*ApplicationsClock)(nvmlDevice_t, int, unsigned*);
  nvmlReturn_t (*TotalEccErrors)(nvmlDevice_t, int, int, unsigned long long*);
  nvmlReturn_t (*RemappedRows)(nvmlDevice_t, unsigned*, unsigned*, unsigned*, unsigned*);
  nvmlReturn_t (*RetiredPagesPending)(nvmlDevice_t, nvmlEnableState_t*);
};

void bind_health(void* lib, NvmlHealthApi& h) {
  bind(lib, h.PersistenceMode, "nvmlDeviceGetPersistenceMode");
  // Renamed in driver 535 ("throttle" became "event"); the same call and bits.
  if (!bind(lib, h.ClocksEventReasons, "nvmlDeviceGetCurrentClocksEventReasons"))
    bind(lib, h.ClocksEventReasons, "nvmlDeviceGetCurrentClocksThrottleReasons");
  bind(lib, h.MaxClockInfo, "nvmlDeviceGetMaxClockInfo");
  bind(lib, h.ApplicationsClock, "nvmlDeviceGetApplicationsClock");
  bind(lib, h.TotalEccErrors, "nvmlDeviceGetTotalEccErrors");
  bind(lib, h.RemappedRows, "nvmlDeviceGetRemappedRows");
  bind(lib, h.RetiredPagesPending, "nvmlDeviceGetRetiredPagesPendingStatus");
}

// A fact from one NVML call: the value when it succeeded, NVML's reason otherwise.
HostFact nvml_fact(const Nvml& n, const char* call, nvmlReturn_t r, const std::string& value) {
  HostFact f;
  f.source = fmt::format("NVML {}", call);
  if (r == kNvmlSuccess)
    f.value = value;
  else
    f.note = fmt::format("NVML: {}", n.ErrorString(r));
  return f;
}

HostFact missing_call(const char* call) {
  return {"", fmt::format("NVML {}", call), "this driver's NVML lacks the call"};
}

// One fact from one NVML call that fills one value: missing where this driver's NVML lacks the call,
// else the value formatted, or NVML's reason. `detail` names the call's arguments in the source.
template <typename Value, typename Fn, typename Format, typename... Args>
HostFact read_fact(const Nvml& n, Fn* fn, const char* call, const char* detail, Format format,
                   nvmlDevice_t dev, Args... args) {
  if (fn == nullptr) return missing_call(call);
  Value value{};
  const auto r = fn(dev, args..., &value);
  return nvml_fact(n, fmt::format("{}{}", call, detail).c_str(), r, format(value));
}

std::string enabled_word(nvmlEnableState_t mode) { return mode == kEnabled ? "enabled" : "disabled"; }
std::string enabled_flag(nvmlEnableState_t mode) { return mode == kEnabled ? "1" : "0"; }
template <typename T>
std::string decimal(T value) {
  return std::to_string(value);
}

void read_clock_and_persistence(const Nvml& n, const NvmlHealthApi& h, nvmlDevice_t dev, GpuHostFacts& g) {
  constexpr int kClockSm = 1;  // NVML_CLOCK_SM
  g.persistence_mode = read_fact<nvmlEnableState_t>(n, h.PersistenceMode, "nvmlDeviceGetPersistenceMode", "",
                                                    enabled_word, dev);
  g.clocks_event_reasons = read_fact<unsigned long long>(
      n, h.ClocksEventReasons, "nvmlDeviceGetCurrentClocksEventReasons", "",
      [](unsigned long long reasons) { return fmt::format("{:#018x}", reasons); }, dev);
  g.sm_clock_max_mhz = read_fact<unsigned>(n, h.MaxClockInfo, "nvmlDeviceGetMaxClockInfo", "(SM)",
                                           decimal<unsigned>, dev, kClockSm);
  g.sm_clock_target_mhz = read_fact<unsigned>(n, h.ApplicationsClock, "nvmlDeviceGetApplicationsClock",
                                              "(SM)", decimal<unsigned>, dev, kClockSm);
}

void read_memory_health(const Nvml& n, const NvmlHealthApi& h, nvmlDevice_t dev, GpuHostFacts& g) {
  g.ecc_uncorrected_volatile = read_fact<unsigned long long>(
      n, h.TotalEccErrors, "nvmlDeviceGetTotalEccErrors", "(uncorrected, volatile)",
      decimal<unsigned long long>, dev, kEccUncorrected, kEccVolatile);
  g.remapped_rows_pending = missing_call("nvmlDeviceGetRemappedRows");
  g.remapped_rows_failure = g.remapped_rows_pending;
  if (h.RemappedRows) {
    unsigned corrected = 0, uncorrected = 0, pending = 0, failure = 0;
    const auto r = h.RemappedRows(dev, &corrected, &uncorrected, &pending, &failure);
    g.remapped_rows_pending = nvml_fact(n, "nvmlDeviceGetRemappedRows", r, pending ? "1" : "0");
    g.remapped_rows_failure = nvml_fact(n, "nvmlDeviceGetRemappedRows", r, failure ? "1" : "0");
  }
  g.retired_pages_pending = read_fact<nvmlEnableState_t>(
      n, h.RetiredPagesPending, "nvmlDeviceGetRetiredPagesPendingStatus", "", enabled_flag, dev);
}

}  // namespace

std::optional<NvmlReadout> read_nvml(std::string& why) {
  Nvml n{};
  if (open_nvml(n, why) == nullptr) return std::nullopt;
  NvmlReadout out;
  std::array<char, 96> text{};
  if (n.SystemGetDriverVersion(text.data(), static_cast<unsigned>(text.size())) == kNvmlSuccess)
    out.driver = text.data();
  read_p2p(n, read_gpus(n, out), out);
  n.Shutdown();
  return out;
}

std::optional<std::map<std::string, GpuHostFacts>> read_nvml_health(std::string& why) {
  Nvml n{};
  void* lib = open_nvml(n, why);
  if (lib == nullptr) return std::nullopt;
  NvmlHealthApi h{};
  bind_health(lib, h);
  std::map<std::string, GpuHostFacts> out;
  unsigned count = 0;
  n.DeviceGetCount(&count);
  for (unsigned i = 0; i < count; ++i) {
    nvmlDevice_t dev = nullptr;
    nvmlPciInfo_t pci{};
    if (n.DeviceGetHandleByIndex(i, &dev) != kNvmlSuccess || n.DeviceGetPciInfo(dev, &pci) != kNvmlSuccess)
      continue;
    GpuHostFacts g;
    g.bus_id = normalize_bus_id(pci.busId);
    read_clock_and_persistence(n, h, dev, g);
    read_memory_health(n, h, dev, g);
    out[g.bus_id] = std::move(g);
  }
  n.Shutdown();
  return out;
}

}  // namespace fb
