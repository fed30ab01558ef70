#pragma once
// Deterministic verification inputs whose reductions are exact in every element type.
// Shared by the GPU fill/verify kernels and the host unit tests (__host__ __device__).
//
// Values are small integers chosen per op so that every partial result, in any reduction
// order, stays within the type's exact-integer range (DTypeInfo::exact_int_limit):
//   sum/avg  values 0..m with n*m <= limit (m <= 3); if even n*1 exceeds the limit (fp8 on many
//            ranks) only the first `limit` ranks contribute ones.
//   prod     values 1 or 2, at most log2(limit) ranks contribute a 2, so products are powers of 2.
//   max/min  values 0..7 (exact in every type).
#include <cstdint>

#if defined(__CUDACC__) || defined(__HIPCC__)
#define FB_HD __host__ __device__
#else
#define FB_HD
#endif

namespace fb::verify {

// Mirrors RedOp's order; kept as ints so the header has no host-only dependencies.
enum : int { op_sum = 0, op_prod = 1, op_max = 2, op_min = 3, op_avg = 4 };

struct ValueRule {
  int op = op_sum;
  int nranks = 1;
  double exact_limit = 0;  // DTypeInfo::exact_int_limit
  bool is_float = true;
};

FB_HD inline int sum_max_value(const ValueRule& r) {
  const double m = r.exact_limit / r.nranks;
  return m >= 3 ? 3 : static_cast<int>(m);
}

FB_HD inline int prod_max_twos(const ValueRule& r) {
  int k = 0;
  double p = 2;
  while (p <= r.exact_limit && k < 62) {
    p *= 2;
    ++k;
  }
  return k;
}

FB_HD inline double input_value(const ValueRule& r, int rank, std::uint64_t index) {
  switch (r.op) {
    case op_sum:
    case op_avg: {
      const int m = sum_max_value(r);
      if (m >= 1)
        return static_cast<double>((index * 5 + static_cast<std::uint64_t>(rank) * 3) %
                                   static_cast<std::uint64_t>(m + 1));
      return (rank < r.exact_limit && (index + rank) % 2 == 0) ? 1.0 : 0.0;
    }
    case op_prod:
      return (rank < prod_max_twos(r) && (index + rank) % 3 == 0) ? 2.0 : 1.0;
    default:  // max, min
      return static_cast<double>((index * 7 + static_cast<std::uint64_t>(rank) * 13) % 8);
  }
}

// The exact result of reducing every rank's input at `index` (avg: see avg_tolerance).
FB_HD inline double reduced_value(const ValueRule& r, std::uint64_t index) {
  double acc = input_value(r, 0, index);
  for (int q = 1; q < r.nranks; ++q) {
    const double v = input_value(r, q, index);
    switch (r.op) {
      case op_prod:
        acc *= v;
        break;
      case op_max:
        acc = v > acc ? v : acc;
        break;
      case op_min:
        acc = v < acc ? v : acc;
        break;
      default:
        acc += v;
        break;
    }
  }
  if (r.op == op_avg) {
    acc /= r.nranks;
    if (!r.is_float) acc = static_cast<double>(static_cast<std::int64_t>(acc));  // NCCL truncates
  }
  return acc;
}

// Floating-point avg is computed by NCCL as a sum of inputs pre-multiplied by 1/n, which is
// not exact for every n: allow n rounding steps of the type's epsilon. Everything else is exact.
FB_HD inline double tolerance(const ValueRule& r, double type_epsilon, double expected) {
  if (r.op != op_avg || !r.is_float) return 0.0;
  const double mag = expected > 1.0 ? expected : 1.0;
  return 2.0 * r.nranks * type_epsilon * mag;
}

}  // namespace fb::verify

namespace fb {

// Where each output element's expected value comes from, for verification.
enum class VerifySource {
  reduce_all_ranks,  // op over every rank's input at the source index
  root_rank,         // the root's input
  block_rank,        // rank (out_index / block)
  previous_rank,     // rank (rank - 1 + n) % n
};

// The layout's block is one rank's share, CollectiveCounts::param: all_gather's send count,
// reduce_scatter's receive count, alltoall's per-peer count.
struct VerifyLayout {
  VerifySource source = VerifySource::reduce_all_ranks;
  bool offset_by_rank_block = false;  // source index starts at rank * block
  bool index_mod_block = false;       // source index uses out_index % block
  bool only_root_checks = false;      // output defined on the root only
};

namespace verify {

// The expected value of output element `out_index` on `rank` for a layout; `block` is the
// layout's block (0 counts as 1). The GPU verify kernel and the host tests both use this.
FB_HD inline double expected_output(const ValueRule& r, const VerifyLayout& layout, int rank, int root,
                                    std::uint64_t block, std::uint64_t out_index) {
  const std::uint64_t b = block > 0 ? block : 1;
  const std::uint64_t index = (layout.offset_by_rank_block ? static_cast<std::uint64_t>(rank) * b : 0) +
                              (layout.index_mod_block ? out_index % b : out_index);
  switch (layout.source) {
    case VerifySource::reduce_all_ranks:
      return reduced_value(r, index);
    case VerifySource::root_rank:
      return input_value(r, root, index);
    case VerifySource::block_rank:
      return input_value(r, static_cast<int>(out_index / b), index);
    case VerifySource::previous_rank:
      return input_value(r, (rank - 1 + r.nranks) % r.nranks, index);
  }
  return 0;
}

}  // namespace verify
}  // namespace fb
