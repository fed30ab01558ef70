#pragma once
// The figures a result's headline is made of: each collective run's largest size (and the size
// furthest below its floor), and each GPU's own figures, each with its ceiling and what it is held
// against (analyse/expect/expected_figure.hpp). analyse/verdict/headline_words.hpp says them.
#include <cstdint>
#include <string>
#include <vector>

#include "model/result.hpp"

namespace fb {

// One headline figure: what was measured, its path ceiling and what it is held against: the
// expectation table's row, or, without one, what healthy rings reach of the ring's ceiling (never
// called "expected": analyse/verdict/headline_words.hpp says each in words).
struct HeadlineFigure {
  std::string figure;         // "all_reduce busbw at 1 GiB", "h2d GPU0"
  std::string unit = "GB/s";  // or "ns" (latency: lower is better)
  double measured = 0;
  double ceiling = 0;      // 0: no ceiling known
  std::string not_a_ring;  // a collective with no ring ceiling because it ran NVLS or NVLSTree
  double expected = 0;     // the table's row; 0: none (collectives: analyse/expect/expected_figure.hpp)
  std::string expected_source;
  double reach = 0;  // no row: what healthy rings reach (GB/s) of `ring_ceiling`; 0: not held against it
  double ring_ceiling = 0;
  std::string reach_source;
  double floor_share = 0;   // below this share of its reference (expected or reach) the rules report it
  std::string label;        // said instead of "% of expected" (a figure not comparable with one)
  bool of_one_gpu = false;  // a GPU on its own (host link, memory, latency), not a collective
  std::string collective;   // a collective's point: its name, GPUs and size
  std::size_t gpus = 0;
  std::uint64_t bytes = 0;
  [[nodiscard]] std::string percent_text() const;  // "98% of expected" or "no expectation for ..."
  [[nodiscard]] double reference() const { return expected > 0 ? expected : reach; }
};

// The largest size of every collective run (and, before it, the size furthest below its expectation's
// floor where that is another size), and every figure of each GPU on its own (its host link each way
// by copy engine and SM copy, its memory, its host latency).
std::vector<HeadlineFigure> headline_figures(const Result& r);

}  // namespace fb
