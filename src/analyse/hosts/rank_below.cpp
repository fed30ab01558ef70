#include "analyse/hosts/rank_below.hpp"

#include <algorithm>
#include <cmath>

namespace fb {
namespace {

// Exact counting costs pairs x others x (u + 1) steps; beyond this, the normal approximation.
constexpr double kExactSteps = 4e6;

// U: the pairs (x of mine, y of others) with x above y, ties counting half.
double u_statistic(const std::vector<double>& mine, const std::vector<double>& others) {
  double u = 0;
  for (const double x : mine)
    for (const double y : others) u += x > y ? 1.0 : (x == y ? 0.5 : 0.0);
  return u;
}

// P(U <= u) over the equally likely orderings of n and m values: count[i][j][v] orderings of i of mine and
// j others with U = v (the largest value is one of mine, above all j others, or one of the others).
double exact_chance(int n, int m, int u) {
  std::vector<std::vector<std::vector<double>>> count(
      static_cast<std::size_t>(n + 1),
      std::vector<std::vector<double>>(static_cast<std::size_t>(m + 1),
                                       std::vector<double>(static_cast<std::size_t>(u + 1), 0.0)));
  for (int i = 0; i <= n; ++i)
    for (int j = 0; j <= m; ++j)
      for (int v = 0; v <= u; ++v) {
        auto& c =
            count[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)][static_cast<std::size_t>(v)];
        if (i == 0 || j == 0) {
          c = v == 0 ? 1.0 : 0.0;
          continue;
        }
        const double top_mine = v >= j ? count[static_cast<std::size_t>(i - 1)][static_cast<std::size_t>(j)]
                                              [static_cast<std::size_t>(v - j)]
                                       : 0.0;
        c = top_mine +
            count[static_cast<std::size_t>(i)][static_cast<std::size_t>(j - 1)][static_cast<std::size_t>(v)];
      }
  double at_most = 0;
  for (int v = 0; v <= u; ++v)
    at_most += count[static_cast<std::size_t>(n)][static_cast<std::size_t>(m)][static_cast<std::size_t>(v)];
  // The orderings in all: C(n + m, n), through lgamma as the counts above run past 10^15.
  const double all = std::exp(std::lgamma(n + m + 1.0) - std::lgamma(n + 1.0) - std::lgamma(m + 1.0));
  return std::min(1.0, at_most / all);
}

double normal_chance(int n, int m, double u) {
  const double mean = n * static_cast<double>(m) / 2;
  const double sd = std::sqrt(n * static_cast<double>(m) * (n + m + 1) / 12.0);
  return 0.5 * std::erfc((mean - (u + 0.5)) / sd / std::sqrt(2.0));
}

}  // namespace

double rank_below_chance(const std::vector<double>& mine, const std::vector<double>& others) {
  if (mine.empty() || others.empty()) return 1;
  const int n = static_cast<int>(mine.size());
  const int m = static_cast<int>(others.size());
  const double u = u_statistic(mine, others);
  // Ties make U a half: counting up to its floor keeps the chance on the side of not naming.
  const int whole = static_cast<int>(std::ceil(u));
  if (static_cast<double>(n) * m * (whole + 1) <= kExactSteps) return exact_chance(n, m, whole);
  return normal_chance(n, m, u);
}

}  // namespace fb
