// The host rules over NVML's health readings (analyse/host/host_checks.hpp).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>
#include <cstdint>

#include "analyse/host/host_checks.hpp"
#include "analyse/scope/host_scope.hpp"

namespace fb {
namespace {

// NVML clock event reasons (nvml.h, nvmlClocksEventReason*) and what each says about the run.
struct ClockReason {
  std::uint64_t bit;
  const char* name;
  Severity severity;
};
constexpr std::array<ClockReason, 5> kClockReasons{{
    {0x04, "SW power cap", Severity::info},  // normal under full load
    {0x08, "HW slowdown", Severity::error},
    {0x20, "SW thermal slowdown", Severity::warning},
    {0x40, "HW thermal slowdown", Severity::error},
    {0x80, "HW power brake", Severity::error},
}};

}  // namespace

std::vector<std::string> clock_reason_names(std::uint64_t mask) {
  std::vector<std::string> names;
  for (const auto& reason : kClockReasons)
    if ((mask & reason.bit) != 0) names.emplace_back(reason.name);
  return names;
}

namespace {

Severity worse(Severity a, Severity b) { return static_cast<int>(a) > static_cast<int>(b) ? a : b; }

using GpuVisitor = void (*)(const Result&, const std::string&, const GpuHostFacts&, std::vector<std::string>&,
                            Severity&);

// One finding over the run's GPUs: `visit` adds evidence and raises the severity per GPU.
std::vector<Finding> per_gpu(const Result& r, const HostScope& s, GpuVisitor visit, const char* code,
                             const char* expected, const char* hint) {
  std::vector<std::string> evidence;
  Severity severity = Severity::info;
  for (const auto& bus : s.bus_ids)
    if (const auto* g = gpu_facts(s, bus)) visit(r, bus, *g, evidence, severity);
  if (evidence.empty()) return {};
  return {{code, severity, fmt::format("{}", fmt::join(evidence, "; ")), expected, hint}};
}

void persistence(const Result& r, const std::string& bus, const GpuHostFacts& g, std::vector<std::string>& ev,
                 Severity& /*severity*/) {
  if (g.persistence_mode.value == "disabled")
    ev.push_back(fmt::format("{}: persistence mode {}", gpu_label(r, bus), cite(g.persistence_mode)));
}

void clocks(const Result& r, const std::string& bus, const GpuHostFacts& g, std::vector<std::string>& ev,
            Severity& severity) {
  const auto mask = number_or_zero(g.clocks_event_reasons, 16);
  std::vector<std::string> names;
  for (const auto& reason : kClockReasons)
    if ((mask & reason.bit) != 0) {
      names.emplace_back(reason.name);
      severity = worse(severity, reason.severity);
    }
  if (!names.empty())
    ev.push_back(fmt::format("{}: clocks held down by {} ({})", gpu_label(r, bus), fmt::join(names, ", "),
                             cite(g.clocks_event_reasons)));
}

void ecc(const Result& r, const std::string& bus, const GpuHostFacts& g, std::vector<std::string>& ev,
         Severity& severity) {
  if (number_or_zero(g.ecc_uncorrected_volatile) == 0) return;
  severity = Severity::error;
  ev.push_back(fmt::format("{}: uncorrected ECC errors since the driver loaded: {}", gpu_label(r, bus),
                           cite(g.ecc_uncorrected_volatile)));
}

void remapping(const Result& r, const std::string& bus, const GpuHostFacts& g, std::vector<std::string>& ev,
               Severity& severity) {
  if (g.remapped_rows_failure.value == "1") {
    severity = Severity::error;
    ev.push_back(fmt::format("{}: a row remap failed (no spare rows left) ({})", gpu_label(r, bus),
                             g.remapped_rows_failure.source));
  }
  if (g.remapped_rows_pending.value == "1") {
    severity = worse(severity, Severity::warning);
    ev.push_back(fmt::format("{}: a row remap waits for a GPU reset ({})", gpu_label(r, bus),
                             g.remapped_rows_pending.source));
  }
  if (g.retired_pages_pending.value == "1") {
    severity = worse(severity, Severity::warning);
    ev.push_back(fmt::format("{}: retired pages wait for a GPU reset ({})", gpu_label(r, bus),
                             g.retired_pages_pending.source));
  }
}

}  // namespace

std::vector<Finding> check_host_gpus(const Result& r) {
  const auto s = host_scope(r);
  if (s.facts == nullptr) return {};
  std::vector<Finding> out;
  auto add = [&](std::vector<Finding> f) { out.insert(out.end(), f.begin(), f.end()); };
  add(per_gpu(
      r, s, persistence, "HOST_PERSISTENCE_OFF", "persistence mode enabled",
      "`sudo nvidia-smi -pm 1` or run nvidia-persistenced: without it the driver tears the GPU down when "
      "the last program exits, and every run pays its set-up again"));
  add(per_gpu(
      r, s, clocks, "HOST_CLOCKS_THROTTLED",
      "no clock event reason but idle, application clocks or power cap",
      "HW slowdown / power brake: check the power supply and cabling (`nvidia-smi -q -d PERFORMANCE`); "
      "thermal: check cooling and inlet temperature; numbers measured meanwhile are not the machine's"));
  add(per_gpu(
      r, s, ecc, "HOST_ECC_UNCORRECTED", "no uncorrected ECC errors",
      "the GPU's memory lost data: drain the node and reset the GPU (`nvidia-smi -r`); replace it if the "
      "errors return"));
  add(per_gpu(
      r, s, remapping, "HOST_ROW_REMAP", "no remap pending or failed",
      "pending: reset the GPU (`nvidia-smi -r`) or reboot so the remap takes effect; failed: the GPU has no "
      "spare rows left, have it replaced"));
  return out;
}

}  // namespace fb
