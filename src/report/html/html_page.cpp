#include "report/html/html_page.hpp"

#include <fmt/format.h>

#include "report/svg_chart.hpp"

namespace fb {
namespace {

constexpr const char* kStyle = R"(
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;padding:16px 20px;max-width:1180px;
color:#222;line-height:1.4}
h1{font-size:1.6em;margin:0 0 6px}h2{margin:28px 0 8px;border-bottom:1px solid #ddd;padding-bottom:4px}
section{margin-bottom:8px}
svg.chart{display:block;max-width:100%;height:auto;margin:8px 0}
svg.topology rect{fill:#fff;stroke:#555}svg.topology g.gpu rect{fill:#e3f2fd;stroke:#1565c0;stroke-width:1.5}
svg.topology g.rc rect{fill:#f3e5f5}svg.topology g.numa rect{fill:#fff8e1}svg.topology g.switch rect{fill:#f5f5f5}
svg.topology line.pcie{stroke:#888;stroke-width:1.5}
.banner{padding:14px 18px;border-radius:8px;border:2px solid;margin-bottom:12px}
.outcome-healthy{background:#e8f5e9;border-color:#2e7d32}.outcome-warnings{background:#fff8e1;border-color:#f9a825}
.outcome-errors,.outcome-failed,.outcome-refused{background:#fdecea;border-color:#c62828}.outcome-running{background:#e3f2fd;border-color:#1565c0}
.machine{font-size:1.05em;margin:0 0 8px;overflow-wrap:break-word}.rules{color:#444;margin:0 0 8px}
.finding,.top-finding,.saved-finding{margin:6px 0;padding:6px 10px;border-left:5px solid #2e86c1;background:#fff;
overflow-wrap:break-word}.saved-finding{opacity:.75}
.sev-error{border-color:#c0392b}.sev-warning{border-color:#d68910}
.note{color:#555;font-style:italic}
.verdict{padding:8px 14px;border-radius:8px;border:2px solid #2e7d32;background:#f1f8e9;margin-bottom:10px}
.verdict[data-action=investigate]{border-color:#f9a825;background:#fffde7}
.verdict[data-action=drain]{border-color:#c62828;background:#fdecea}
.host-card{display:inline-block;vertical-align:top;margin:4px;padding:6px 10px;border:1px solid #1565c0;
border-radius:6px;background:#e3f2fd}.host-card ul{margin:4px 0 0;padding-left:18px;text-align:left}
.verdict p{margin:0 0 4px}table.checks td,table.checks th{text-align:left}table.checks td.evidence{overflow-wrap:anywhere}
table{border-collapse:collapse;margin:8px 0;font-size:.92em}
td,th{border:1px solid #ccc;padding:3px 7px;text-align:right;overflow-wrap:normal;word-break:normal}
th{background:#f4f4f4}td.source,td.pair-list{text-align:left;min-width:14em}.nw{white-space:nowrap}
table.env td{text-align:left}table.env{max-width:100%}
.wide{max-width:100%;overflow-x:auto}
code{overflow-wrap:break-word}
.regression{color:#c0392b;font-weight:bold}
tr.comm-bounded td{background:#fff8e1}tr.comm-assumed td{background:#fdecea}
@media print{body{max-width:none;padding:0}section,svg.chart,.finding,.top-finding{break-inside:avoid}
.banner,td{-webkit-print-color-adjust:exact;print-color-adjust:exact}}
)";

}  // namespace

std::string html_page(const std::string& title, const std::string& body) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" "
      "content=\"width=device-width, "
      "initial-scale=1\"><title>{}</title>\n<style>{}</style></head><body>\n{}</body></html>\n",
      escape_html(title), kStyle, body);
}

std::string html_section(const std::string& id, const std::string& heading, const std::string& content) {
  if (content.empty()) return "";
  return fmt::format("<section id=\"{}\">\n<h2>{}</h2>\n{}</section>\n", escape_html(id),
                     escape_html(heading), content);
}

}  // namespace fb
