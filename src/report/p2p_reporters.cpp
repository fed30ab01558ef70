#include "report/p2p_reporters.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <sstream>

#include "core/file_io.hpp"
#include "core/units.hpp"
#include "report/p2p_console.hpp"

namespace fb {

void P2pConsoleReporter::begin(const Result& result) {
  const auto n = result.gpus.size();
  fmt::print(out_, "# fabricbench p2p: {} GPU{}, {} per copy, {} copies per sample, median of {} samples\n",
             n, n == 1 ? "" : "s", format_bytes(sampling_.bytes), sampling_.copies_per_sample,
             sampling_.samples);
  out_.flush();  // before the progress lines on stderr
}

void P2pConsoleReporter::end(const Result& result) { print_p2p(out_, result); }

void P2pCsvReporter::end(const Result& result) {
  std::ostringstream csv;
  write_p2p_csv(csv, result.p2p);
  write_file_atomically(path_, csv.str());
}

}  // namespace fb
