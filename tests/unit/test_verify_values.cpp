// The verification inputs must reduce exactly in every type: every partial result of every
// op stays within the type's exact-integer range, for 1..8 ranks (and beyond).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/dtypes.hpp"
#include "core/verify_values.hpp"

namespace v = fb::verify;

namespace {

double combine(int op, double acc, double x) {
  switch (op) {
    case v::op_prod:
      return acc * x;
    case v::op_max:
      return std::max(acc, x);
    case v::op_min:
      return std::min(acc, x);
    default:  // sum, avg (NCCL sums, then divides)
      return acc + x;
  }
}

}  // namespace

// Inputs are whole, non-negative and (for prod) at least 1, so every partial result in any
// reduction order lies between the smallest input and the reduction over all ranks: both
// bounds must be exact in the type, for sum, prod, max, min and avg alike.
TEST(VerifyValues, AllPartialResultsStayExactForEveryTypeOpAndRankCount) {
  for (const auto& t : fb::all_dtypes()) {
    for (const auto& op : fb::all_redops()) {
      for (int n : {1, 2, 3, 4, 5, 6, 7, 8, 16, 64}) {
        const v::ValueRule rule{static_cast<int>(op.id), n, t.exact_int_limit, t.is_float};
        for (std::uint64_t i = 0; i < 97; ++i) {
          const auto where = ::testing::Message() << t.name << " " << op.name << " n=" << n << " i=" << i;
          double acc = v::input_value(rule, 0, i);
          for (int r = 0; r < n; ++r) {
            const double x = v::input_value(rule, r, i);
            ASSERT_EQ(x, std::floor(x)) << where;
            ASSERT_GE(x, rule.op == v::op_prod ? 1 : 0) << where;
            ASSERT_LE(x, t.exact_int_limit) << where;
            if (r > 0) acc = combine(rule.op, acc, x);
          }
          ASSERT_LE(acc, t.exact_int_limit) << where;
          if (rule.op != v::op_avg) ASSERT_EQ(acc, v::reduced_value(rule, i)) << where;
        }
      }
    }
  }
}

TEST(VerifyValues, ReducedValuesMatchHandComputation) {
  // sum, 2 ranks, float: m = 3; x(r, i) = (5i + 3r) % 4. i = 1: 5 % 4 = 1, 8 % 4 = 0 -> 1.
  const v::ValueRule sum{v::op_sum, 2, 16777216.0, true};
  EXPECT_EQ(v::input_value(sum, 0, 1), 1);
  EXPECT_EQ(v::input_value(sum, 1, 1), 0);
  EXPECT_EQ(v::reduced_value(sum, 1), 1);
  // i = 2: 10 % 4 = 2, 13 % 4 = 1 -> 3.
  EXPECT_EQ(v::reduced_value(sum, 2), 3);
  // max over 3 ranks at i = 0: (13r) % 8 = 0, 5, 2 -> 5; min -> 0.
  EXPECT_EQ(v::reduced_value({v::op_max, 3, 127, false}, 0), 5);
  EXPECT_EQ(v::reduced_value({v::op_min, 3, 127, false}, 0), 0);
  // prod on 4 ranks of int8 (limit 127: up to 6 twos): index 0 -> ranks 0 and 3 give 2 -> 4.
  EXPECT_EQ(v::reduced_value({v::op_prod, 4, 127, false}, 0), 4);
  // avg of integers truncates: i = 2 on 2 ranks sums to 3 -> 1.
  EXPECT_EQ(v::reduced_value({v::op_avg, 2, 127, false}, 2), 1);
  EXPECT_EQ(v::reduced_value({v::op_avg, 2, 2048, true}, 2), 1.5);
}

TEST(VerifyValues, InputsDifferAcrossRanksSoMisroutedDataIsCaught) {
  // A verification that cannot tell ranks apart would miss a swapped block.
  for (int op : {v::op_sum, v::op_max}) {
    const v::ValueRule rule{op, 8, 16777216.0, true};
    int differing = 0;
    for (std::uint64_t i = 0; i < 16; ++i)
      differing += v::input_value(rule, 0, i) != v::input_value(rule, 1, i);
    EXPECT_GT(differing, 8) << op;
  }
}

TEST(VerifyValues, ToleranceOnlyForFloatingAverage) {
  EXPECT_EQ(v::tolerance({v::op_sum, 8, 2048, true}, 1e-3, 10), 0.0);
  EXPECT_EQ(v::tolerance({v::op_avg, 8, 127, false}, 0, 10), 0.0);
  EXPECT_NEAR(v::tolerance({v::op_avg, 8, 2048, true}, 1e-3, 2), 2 * 8 * 1e-3 * 2, 1e-15);
}
