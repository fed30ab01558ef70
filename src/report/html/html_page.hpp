#pragma once
// The page around the report's sections: one self-contained HTML file (inline CSS and SVG, no
// script, no network) that prints well and reads at a laptop's width.
#include <string>

namespace fb {

// `body` wrapped in the document with its style sheet.
std::string html_page(const std::string& title, const std::string& body);
// A section with its heading; "" when `content` is empty.
std::string html_section(const std::string& id, const std::string& heading, const std::string& content);

}  // namespace fb
