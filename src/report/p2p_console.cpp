#include "report/p2p_console.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <set>

#include "analyse/run/p2p_analysis.hpp"
#include "report/topology_console.hpp"

namespace fb {
namespace {

const P2pMeasurement* find(const std::vector<P2pMeasurement>& ms, P2pTest test, int src, int dst) {
  for (const auto& m : ms)
    if (m.test == test && m.src == src && m.dst == dst) return &m;
  return nullptr;
}

std::string value_text(const P2pMeasurement* m) {
  if (!m || m->samples == 0) return "-";
  return m->unit == P2pUnit::ns ? fmt::format("{:.0f}", m->value) : fmt::format("{:.1f}", m->value);
}

void print_matrix(std::ostream& out, const std::vector<P2pMeasurement>& ms, const P2pTestSpec& t,
                  const std::vector<int>& gpus) {
  const bool any = std::any_of(ms.begin(), ms.end(), [&](const auto& m) { return m.test == t.id; });
  if (!any) return;
  const bool bidir = t.bidirectional;
  fmt::print(out, "#\n# {}{}\n", t.title, t.unit == P2pUnit::gbps ? ", GB/s" : "");
  fmt::print(out, "# {:>8}", bidir ? "GPU<->" : "src\\dst");
  for (int d : gpus) fmt::print(out, " {:>9}", fmt::format("GPU{}", d));
  fmt::print(out, "\n");
  for (int s : gpus) {
    fmt::print(out, "  {:>8}", fmt::format("GPU{}", s));
    for (int d : gpus) {
      const P2pMeasurement* m = nullptr;
      if (s != d) m = bidir ? find(ms, t.id, std::min(s, d), std::max(s, d)) : find(ms, t.id, s, d);
      fmt::print(out, " {:>9}", s == d ? "-" : value_text(m));
    }
    fmt::print(out, "\n");
  }
}

void print_efficiency(std::ostream& out, const Result& r) {
  fmt::print(
      out,
      "#\n# Against the path's peaks (docs/model.md): wire = links x rate; ceiling = what this kind of\n"
      "# copy reaches on that wire where measured. Pairs: one direction unless bidirectional.\n");
  fmt::print(out, "# {:<9} {:<13} {:<6} {:>10} {:>11} {:>7} {:>14} {:>9} {:>6}  {}\n", "test", "path",
             "class", "GB/s", "wire(GB/s)", "of wire", "ceiling(GB/s)", "of ceil", "wrong", "note");
  for (const auto& m : r.p2p) {
    if (m.unit != P2pUnit::gbps || m.samples == 0) continue;
    auto side = [](int g) { return g < 0 ? std::string("host") : fmt::format("GPU{}", g); };
    const auto path =
        fmt::format("{}{}{}", side(m.src), p2p_test_spec(m.test).bidirectional ? "<->" : "->", side(m.dst));
    const auto cls = r.topology ? connection_class(m, *r.topology) : std::string("?");
    fmt::print(out, "  {:<9} {:<13} {:<6} {:>10.1f} {:>11} {:>7} {:>14} {:>9} {:>6}  {}\n", m.test, path, cls,
               m.value, m.wire_gbps > 0 ? fmt::format("{:.1f}", m.wire_gbps) : "-",
               m.wire_gbps > 0 ? fmt::format("{:.0f}%", efficiency(m) * 100) : "-",
               m.ceiling_gbps > 0 ? fmt::format("{:.1f}", m.ceiling_gbps) : "-",
               m.ceiling_gbps > 0 ? fmt::format("{:.0f}%", m.value / m.ceiling_gbps * 100) : "-",
               m.wrong < 0 ? std::string("-") : std::to_string(m.wrong), m.note);
  }
}

void print_host(std::ostream& out, const std::vector<P2pMeasurement>& ms, const std::vector<int>& gpus) {
  const bool any = std::any_of(ms.begin(), ms.end(), [](const auto& m) { return m.src < 0 || m.dst < 0; });
  if (!any) return;
  fmt::print(
      out,
      "#\n# host <-> GPU (pinned host memory on the GPU's NUMA node; copy engine, and SM copy kernel), "
      "GPU memory copy, GB/s; latency in ns\n");
  fmt::print(out, "# {:>6} {:>9} {:>9} {:>9} {:>9} {:>14} {:>14} {:>11} {:>13}\n", "GPU", "h2d", "d2h",
             "h2d SM", "d2h SM", "h2d all-at-once", "d2h all-at-once", "memory copy", "host latency");
  for (int g : gpus)
    fmt::print(out, "  {:>6} {:>9} {:>9} {:>9} {:>9} {:>14} {:>14} {:>11} {:>13}\n", fmt::format("GPU{}", g),
               value_text(find(ms, P2pTest::h2d, -1, g)), value_text(find(ms, P2pTest::d2h, g, -1)),
               value_text(find(ms, P2pTest::h2d_sm, -1, g)), value_text(find(ms, P2pTest::d2h_sm, g, -1)),
               value_text(find(ms, P2pTest::h2d_all, -1, g)), value_text(find(ms, P2pTest::d2h_all, g, -1)),
               value_text(find(ms, P2pTest::local_copy, g, g)),
               value_text(find(ms, P2pTest::host_latency, -1, g)));
}

}  // namespace

void print_p2p(std::ostream& out, const Result& r) {
  std::vector<int> gpus;
  gpus.reserve(r.gpus.size());
  for (const auto& g : r.gpus) gpus.push_back(g.index);
  for (const auto& t : kP2pTests)
    if (t.path == P2pPath::peer) print_matrix(out, r.p2p, t, gpus);
  print_host(out, r.p2p, gpus);
  print_efficiency(out, r);
  fmt::print(out, "#\n");
  print_findings(out, r.findings);
  out.flush();
}

void write_p2p_csv(std::ostream& out, const std::vector<P2pMeasurement>& ms) {
  out << "test,src,dst,unit,value,min,max,samples,bytes,wrong,wire_gbps,ceiling_gbps,efficiency,note\n";
  for (const auto& m : ms)
    fmt::print(out, "{},{},{},{},{:.3f},{:.3f},{:.3f},{},{},{},{:.3f},{:.3f},{:.4f},\"{}\"\n", m.test,
               m.src < 0 ? "host" : std::to_string(m.src), m.dst < 0 ? "host" : std::to_string(m.dst), m.unit,
               m.value, m.min, m.max, m.samples, m.bytes,
               m.wrong < 0 ? std::string() : std::to_string(m.wrong), m.wire_gbps, m.ceiling_gbps,
               efficiency(m), m.note);
}

}  // namespace fb
