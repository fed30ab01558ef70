#pragma once
// Which of NCCL's algorithms a collective point ran with, as far as the document tells: NCCL's log
// (the point's recorded choice), a forced NCCL_ALGO, or, where the table has NVLS rows for the
// machine and nothing says otherwise, NCCL's default there (NVLS). NVLS is off when
// NCCL_NVLS_ENABLE=0, when NCCL's log found no multicast support, or on 2 GPUs (NCCL connects two
// GPUs point to point); such a point is judged against the ring row.
#include <string>

#include "analyse/expect/expectations.hpp"
#include "model/result.hpp"

namespace fb {

struct WhatRan {
  std::string algo;      // as NCCL names it ("NVLS", "RING", "NVLSTree"); "" unknown
  std::string how;       // "NCCL's log", "NCCL_ALGO=Ring", "assumed: ...", "NVLS off: ..."
  std::string nvls_off;  // why NVLS could not run; "" when it could or nothing says
};

WhatRan what_ran(const Result& r, const Run& run, const Point& p);

// Whether the expectations table has an NVLS row for the point's machine, GPU count and collective:
// where NCCL's default (NVLS or, with NVLS off, the ring) decides which row judges the point.
bool nvls_row_applies(const Result& r, const Run& run, const Point& p);

// NVLS and NVLSTree reduce inside the NVSwitch, so their busbw is not bound by the ring's SM
// ceiling (8 x H100 over NVLS reach about 478 GB/s against a ring ceiling near 374): no view holds
// such a point against that ceiling.
bool switch_reduces(const WhatRan& w);

// The expectation query of a point (GPU, count, hosts, collective, size, algorithm).
ExpectationQuery collective_query(const Result& r, const Run& run, const Point& p, const WhatRan& w);

// " over NVLS", " over RING (NVLS off: NCCL_NVLS_ENABLE=0 in the environment)", "" when unknown.
std::string algo_phrase(const WhatRan& w);

}  // namespace fb
