// The verification inputs must reduce exactly in every type: every partial result of every
// op stays within the type's exact-integer range, for 1..8 ranks (and beyond). Every
// collective's verification layout expects what the collective delivers.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>

#include "bench/collective_spec.hpp"
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

// What each collective leaves in `rank`'s output element o, written from the collective's
// definition rather than from the layout flags: rank q's input element i is input_value(q, i),
// `block` is one rank's share (CollectiveCounts::param).
double delivered(std::string_view coll, const v::ValueRule& r, int rank, int root, std::uint64_t block,
                 std::uint64_t o) {
  const auto in = [&](int q, std::uint64_t i) { return v::input_value(r, q, i); };
  const auto reduced = [&](std::uint64_t i) {
    double acc = in(0, i);
    for (int q = 1; q < r.nranks; ++q) acc = combine(r.op, acc, in(q, i));
    return acc;
  };
  const int block_owner = static_cast<int>(o / block);
  if (coll == "all_reduce" || coll == "reduce") return reduced(o);
  if (coll == "broadcast") return in(root, o);
  if (coll == "all_gather") return in(block_owner, o % block);
  if (coll == "reduce_scatter") return reduced(rank * block + o);
  if (coll == "alltoall") return in(block_owner, rank * block + o % block);
  if (coll == "sendrecv") return in((rank - 1 + r.nranks) % r.nranks, o);
  if (coll == "gather") return in(block_owner, o % block);  // the root's output
  if (coll == "scatter") return in(root, rank * block + o);
  ADD_FAILURE() << "no model of " << coll;
  return std::numeric_limits<double>::quiet_NaN();
}

// Output elements, over every checked rank and roots 0 and n-1, where `layout` expects other
// than what the collective delivers. A block of 66 elements (not a multiple of the inputs'
// period) makes a block misplaced by whole blocks visible.
int mismatches(const fb::CollectiveSpec& spec, const fb::VerifyLayout& layout, int n, int op) {
  const v::ValueRule rule{op, n, 16777216.0, true};
  const auto counts = spec.counts(66 * static_cast<std::size_t>(n), n, 8);
  EXPECT_GT(counts.recv, 0u) << spec.name;
  int wrong = 0;
  for (int root : {0, n - 1}) {
    for (int rank = 0; rank < n; ++rank) {
      if (layout.only_root_checks && rank != root) continue;
      for (std::uint64_t o = 0; o < counts.recv; ++o)
        wrong += v::expected_output(rule, layout, rank, root, counts.param, o) !=
                 delivered(spec.name, rule, rank, root, counts.param, o);
    }
  }
  return wrong;
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

// The table's verification layouts, evaluated as the GPU kernel evaluates them, expect exactly
// what each collective delivers, on every rank that is checked, for several rank counts and roots.
TEST(VerifyLayouts, EveryCollectiveExpectsWhatItDelivers) {
  for (const auto& spec : fb::all_collectives())
    for (int n : {1, 2, 3, 8})
      for (int op : {v::op_sum, v::op_max})
        EXPECT_EQ(mismatches(spec, spec.verify, n, op), 0) << spec.name << " n=" << n << " op=" << op;
}

TEST(VerifyLayouts, AWrongLayoutIsCaught) {
  // The check above can fail: a layout that takes the wrong rank or misplaces blocks differs.
  using VS = fb::VerifySource;
  struct Case {
    const char* collective;
    int op;
    void (*spoil)(fb::VerifyLayout&);
  };
  const Case cases[] = {
      {"all_gather", v::op_sum, [](fb::VerifyLayout& l) { l.source = VS::root_rank; }},
      {"all_gather", v::op_max, [](fb::VerifyLayout& l) { l.index_mod_block = false; }},
      {"reduce_scatter", v::op_sum, [](fb::VerifyLayout& l) { l.offset_by_rank_block = false; }},
      {"alltoall", v::op_max, [](fb::VerifyLayout& l) { l.offset_by_rank_block = false; }},
      {"gather", v::op_sum, [](fb::VerifyLayout& l) { l.source = VS::root_rank; }},
      {"gather", v::op_max, [](fb::VerifyLayout& l) { l.index_mod_block = false; }},
      {"scatter", v::op_sum, [](fb::VerifyLayout& l) { l.offset_by_rank_block = false; }},
  };
  for (const auto& c : cases) {
    const auto& spec = fb::collective(c.collective);
    auto layout = spec.verify;
    c.spoil(layout);
    EXPECT_GT(mismatches(spec, layout, 3, c.op), 0) << c.collective;
  }
}

TEST(VerifyLayouts, BlockZeroCountsAsOne) {
  // An all_gather-like layout with block 0 must not divide by zero: o / 1 and o % 1.
  const v::ValueRule rule{v::op_sum, 4, 16777216.0, true};
  const fb::VerifyLayout gather_like{.source = fb::VerifySource::block_rank, .index_mod_block = true};
  EXPECT_EQ(v::expected_output(rule, gather_like, 0, 0, 0, 3), v::input_value(rule, 3, 0));
}
