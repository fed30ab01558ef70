#include "report/html/html_projection.hpp"

#include <fmt/format.h>

#include "report/projection_table.hpp"
#include "report/svg_chart.hpp"

namespace fb {
namespace {

std::string list(const std::vector<std::string>& lines, const char* css) {
  std::string html = fmt::format("<ul class=\"{}\">", css);
  for (const auto& l : lines) html += "<li>" + escape_html(l) + "</li>";
  return html + "</ul>\n";
}

std::string phase_table(const ProjectionPhase& ph) {
  std::string html =
      fmt::format("<h3>{}</h3>\n<div class=\"wide\"><table class=\"projection\" data-phase=\"{}\"><tr>",
                  escape_html(phase_title(ph)), escape_html(ph.phase));
  for (const auto& c : projection_columns()) html += "<th>" + escape_html(c) + "</th>";
  html += "</tr>\n";
  for (const auto& r : ph.rows) {
    const std::string mark = comm_mark(r);
    html += mark.empty() ? "<tr>" : fmt::format("<tr class=\"comm-{0}\" data-basis=\"{0}\">", mark);
    const auto cells = projection_cells(r);
    for (std::size_t i = 0; i < cells.size(); ++i) {
      const bool words = i + 1 == cells.size();
      html +=
          fmt::format("<td{}>{}</td>",
                      words ? fmt::format(" class=\"source\" title=\"{}\"", escape_html(r.comm_source)) : "",
                      escape_html(cells[i]));
    }
    html += "</tr>\n";
  }
  return html + "</table></div>\n" + list(answer_lines(ph), "answers");
}

std::string charts(const Projection& p) {
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
  return line_chart({"projection-speedup",
                     "Speedup vs tensor-parallel degree",
                     "TP (GPUs)",
                     "speedup over TP=1",
                     false,
                     {},
                     "x"},
                    speedup) +
         line_chart({"projection-comm",
                     "Share of layer time in communication",
                     "TP (GPUs)",
                     "communication (%)",
                     false,
                     {},
                     "%"},
                    share);
}

}  // namespace

std::string projection_charts(const Result& r) {
  if (!r.projection || r.projection->phases.empty()) return "";
  const Projection& p = *r.projection;
  std::string html = list(projection_inputs(p), "projection-inputs");
  for (const auto& ph : p.phases) html += phase_table(ph);
  html += "<p class=\"note\">" + escape_html(marks_legend()) +
          ". The charts draw the same rows, whatever their basis.</p>\n";
  html += charts(p);
  return html + "<h3>Assumptions (docs/projection.md)</h3>\n" + list(assumption_lines(p), "assumptions");
}

}  // namespace fb
