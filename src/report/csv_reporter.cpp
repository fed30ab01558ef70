#include "report/csv_reporter.hpp"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <cerrno>
#include <cmath>
#include <cstring>

#include "core/error.hpp"

namespace fb {

CsvReporter::CsvReporter(const std::string& path) : file_(path, std::ios::trunc), out_(&file_) {
  if (!file_)
    throw Error(ExitCode::run_failed, fmt::format("cannot write {}: {}", path, std::strerror(errno)));
}

void CsvReporter::begin(const Result& /*result*/) {
  *out_ << "collective,dtype,op,root,gpus,launcher,graph_launches,in_place,bytes,count,"
           "time_us_min,time_us_median,time_us_mean,time_us_p99,time_us_max,median_ci,batches,"
           "algbw_gbps,busbw_gbps,wrong,nccl_algo,nccl_proto,nccl_channels\n";
  out_->flush();
}

void CsvReporter::point(const Result& result, std::size_t run_index, std::size_t point_index) {
  const Run& run = result.runs.at(run_index);
  const Point& p = run.points.at(point_index);
  const auto& t = p.time_us;
  fmt::print(
      *out_,
      "{},{},{},{},{},{},{},{},{},{},{:.3f},{:.3f},{:.3f},{:.3f},{:.3f},{},{},{:.3f},{:.3f},{},{},{},{}\n",
      run.collective, run.dtype, run.op, run.root, run.gpus.size(), run.launcher, run.graph_launches,
      p.in_place ? 1 : 0, p.bytes, p.count, t.min, t.median, t.mean, t.p99, t.max,
      std::isfinite(t.median_ci) ? fmt::format("{:.5f}", t.median_ci) : "", t.n, p.algbw_gbps, p.busbw_gbps,
      p.wrong < 0 ? std::string() : std::to_string(p.wrong), p.nccl_algo, p.nccl_proto,
      p.nccl_channels > 0 ? std::to_string(p.nccl_channels) : std::string());
  out_->flush();
}

}  // namespace fb
