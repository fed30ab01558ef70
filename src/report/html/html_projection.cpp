#include "report/html/html_projection.hpp"

#include <fmt/format.h>

#include "report/svg_chart.hpp"

namespace fb {

std::string projection_charts(const Result& r) {
  if (!r.projection || r.projection->phases.empty()) return "";
  const Projection& p = *r.projection;
  std::vector<Series> speedup;
  std::vector<Series> share;
  Series ideal;
  ideal.name = "ideal (linear)";
  ideal.dashed = true;
  for (const auto& ph : p.phases) {
    Series s;
    Series c;
    s.name = c.name = ph.phase;
    for (const auto& row : ph.rows) {
      s.points.emplace_back(row.tp, row.speedup);
      c.points.emplace_back(row.tp, row.comm_share * 100);
      if (&ph == &p.phases.front()) ideal.points.emplace_back(row.tp, row.tp);
    }
    speedup.push_back(s);
    share.push_back(c);
  }
  speedup.push_back(ideal);
  std::string html = fmt::format(
      "<p class=\"note\">{} at batch {}, prompt {} tokens: projected from the measured "
      "all_reduce curve and {:.0f} TFLOP/s, {:.0f} GB/s HBM ({}).</p>\n",
      escape_html(p.model.name), p.workload.batch, p.workload.prompt, p.rates.gemm_tflops, p.rates.hbm_gbps,
      escape_html(p.rates.source));
  html += line_chart({"projection-speedup",
                      "Speedup vs tensor-parallel degree",
                      "TP (GPUs)",
                      "speedup over TP=1",
                      false,
                      {},
                      "x"},
                     speedup);
  html += line_chart({"projection-comm",
                      "Share of layer time in communication",
                      "TP (GPUs)",
                      "communication (%)",
                      false,
                      {},
                      "%"},
                     share);
  return html;
}

}  // namespace fb
