#include "app/expectations_command.hpp"

#include <iostream>

#include "analyse/expectations.hpp"
#include "analyse/expectations_file.hpp"
#include "core/file_io.hpp"
#include "model/result_json.hpp"
#include "report/expectations_table.hpp"

namespace fb {

int expectations_command(const ExpectationsOptions& o) {
  std::string text;
  if (!o.from.empty()) {
    text = expectations_document(baseline_rows(load_result_file(o.from), o.from));
  } else {
    Result r;
    if (!o.expectations.empty()) r.expectations = load_expectations_file(o.expectations);
    text = expectations_markdown(expectation_rows(r));
  }
  if (o.output.empty()) {
    std::cout << text;
    flush_stdout();
  } else {
    write_file_atomically(o.output, text);
  }
  return 0;
}

}  // namespace fb
