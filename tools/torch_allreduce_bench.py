"""The hand-written PyTorch all_reduce benchmark users run before any tool (the form issue #45
quotes), to capture its output on a machine fabricbench also measures: `fabricbench report` reads
these five lines (src/ingest/torch_script). Like most such scripts it counts its "GB" in 2^30 bytes.
Not part of fabricbench.
    torchrun --nproc_per_node=2 tools/torch_allreduce_bench.py [GIB=1] [ITERS=100]
"""
import os
import sys
import time

import torch
import torch.distributed as dist


def main():
    gib = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
    iters = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    dist.init_process_group("nccl")
    torch.cuda.set_device(int(os.environ["LOCAL_RANK"]))
    x = torch.ones(int(gib * 2**30) // 4, dtype=torch.float32, device="cuda")
    for _ in range(5):
        dist.all_reduce(x)
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(iters):
        dist.all_reduce(x)
    torch.cuda.synchronize()
    total = time.perf_counter() - start
    if dist.get_rank() == 0:
        size_gb = x.numel() * x.element_size() / 2**30
        print(f"World Size: {dist.get_world_size()}")
        print(f"Tensor Size: {size_gb:.2f} GB")
        print(f"Data Type: float32")
        print(f"Iterations: {iters}")
        print(f"Total Time: {total:.4f} s")
        print(f"Estimated Bandwidth: {size_gb * iters / total:.2f} GB/s")
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
