#pragma once
// What healthy rings reach of the SM path ceiling on a GPU fabric, by collective and size, and which
// sizes are judged against it: derived from the built-in 2 x H200 rows (analyse/expect/sku_table.cpp:
// nccl-tests at 16 MiB, 64 MiB, 256 MiB, 1 GiB and 4 GiB against that pair's 373.5 GB/s ring ceiling),
// the shares every view and rule reads (docs/verdicts.md, "Thresholds"; docs/model.md, "Bounds").
#include <cstddef>
#include <cstdint>
#include <string>

#include "model/result.hpp"

namespace fb {

// A size on `gpus` GPUs as the size on 2 GPUs whose ring moves the same chunk per step: a ring's
// busbw is B x c / (c + a x B) with c the data per step (all_reduce, all_gather, reduce_scatter,
// alltoall: bytes / gpus; broadcast, reduce: bytes / (gpus - 1); sendrecv: bytes), so the 2-GPU
// rows' shares hold at the equivalent size (docs/model.md, "Bounds": the derivation).
std::uint64_t equivalent_bytes(const std::string& collective, std::uint64_t bytes, std::size_t gpus);

// What a healthy ring reaches of the SM path ceiling on a GPU fabric at an equivalent size (the 2 x
// H200 row at the largest listed size not above it, from 1 GiB on the 1 GiB row) over the pair's
// ring ceiling; 0 below the sizes where bandwidth dominates (a healthy run reaches less than half
// its 1 GiB figure there: judged against nothing). A collective without rows takes the lowest share
// of the six at that size.
double fabric_reach(const std::string& collective, std::uint64_t equivalent);

// The share of its 1 GiB figure a healthy ring reaches at an equivalent size (the same rows): the
// shape of a sweep, which PCIe paths, whose shares are measured at large sizes only, follow too.
double size_share(const std::string& collective, std::uint64_t equivalent);

// The ring ceiling the 2 x H200 rows were measured against (18 NVLink4 links x 25 GB/s x 0.83).
double reach_reference_ceiling();

// A point's relative 95% interval (0 when unbounded) and whether a run is judged (a collective on 2
// or more GPUs).
double interval(const Point& p);
bool judged_run(const Run& run);

// Per size of a run, its best figure (out-of-place or in-place: both time the same transfer, and one
// slow variant is a hiccup of that row, not what the fabric carries), in size order.
std::vector<const Point*> best_per_size(const Run& run);

}  // namespace fb
