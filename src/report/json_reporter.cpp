#include "report/json_reporter.hpp"

#include "core/file_io.hpp"
#include "model/result_json.hpp"

namespace fb {

void JsonReporter::write(const Result& result) const {
  write_file_atomically(path_, nlohmann::json(result).dump(2) + "\n");
}

}  // namespace fb
