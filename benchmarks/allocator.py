"""Allocator cost: allocate+free pairs of the BFC pool vs NumPy (and CuPy's MemoryPool on a CUDA GPU),
and fragmentation after a training-like trace, all measured in the same run.

    PYTHONPATH=src python3 benchmarks/allocator.py

Rows:
- `BFC pool only`: the bookkeeping (allocate, queue_free, the next call drains the queue).
- `tensor memory, simulated GPU`: what a simulated-GPU op pays: NumPy's own allocation plus charging its
  buffer to the pool and giving it back when the array dies; compare with the NumPy row.
- on CUDA: CuPy's default MemoryPool malloc+free vs placeflow's pool behind the same CuPy hook.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import numpy as np  # noqa: E402

from placeflow.memory.bfc import BFCAllocator, VirtualAddressSpace  # noqa: E402
from placeflow.memory.device_memory import CudaRegions, DeviceMemory  # noqa: E402
from placeflow.memory.oom import human_bytes  # noqa: E402

MIB = 1 << 20
PAIRS_PER_SAMPLE = 2000
SAMPLES = 41
SIZES = [256, 1000, 4096, 16384, 65536, 262144, MIB, 4 * MIB]


def mixed_sizes(count: int, seed: int = 0) -> list:
    """Tensor-like sizes: a few hundred bytes to 4 MiB, jittered so they rarely repeat exactly."""
    rng = random.Random(seed)
    return [rng.choice(SIZES) + rng.randrange(0, 256) * 4 for _ in range(count)]


def median_pair_us(run_sample) -> float:
    """Median over SAMPLES of the mean time of one pair, in microseconds."""
    run_sample()  # warm up
    times = []
    for _ in range(SAMPLES):
        start = time.perf_counter()
        run_sample()
        times.append((time.perf_counter() - start) / PAIRS_PER_SAMPLE * 1e6)
    return statistics.median(times)


def with_live_set(allocate, release, sizes, live=64, seed=1):
    """A sample: allocate one block and free a random live one, keeping `live` blocks alive."""
    rng = random.Random(seed)
    held = [allocate(s) for s in sizes[:live]]
    steps = [(size, rng.randrange(live)) for size in sizes[:PAIRS_PER_SAMPLE]]

    def sample():
        for size, victim in steps:
            block = held[victim]
            held[victim] = allocate(size)
            release(block)
    return sample


def bfc(limit=8 << 30, growth=True) -> BFCAllocator:
    return BFCAllocator("GPU_0_bfc", limit, growth, VirtualAddressSpace(0x7F0000000000))


def rows_host(sizes) -> list:
    pool = bfc()
    same = bfc()
    memory = DeviceMemory("GPU:0", bfc())
    adopt = memory.adopt

    def same_size():
        for _ in range(PAIRS_PER_SAMPLE):
            same.queue_free(same.allocate(65536))

    def numpy_same():
        for _ in range(PAIRS_PER_SAMPLE):
            np.empty(65536, np.uint8)

    def tensor_same():
        for _ in range(PAIRS_PER_SAMPLE):
            adopt(np.empty(65536, np.uint8))

    return [
        ("64 KiB, allocate then free", numpy_same, same_size, tensor_same),
        ("mixed 256 B-4 MiB, 64 live",
         with_live_set(lambda n: np.empty(n, np.uint8), lambda a: None, sizes),
         with_live_set(pool.allocate, pool.queue_free, sizes),
         with_live_set(lambda n: adopt(np.empty(n, np.uint8)), lambda a: None, sizes)),
    ]


def training_trace(allocator, steps=30, batch=256, widths=(784, 1024, 1024, 512, 10)):
    """Weights once, then per step: activations forward, gradients backward, frees in reverse order;
    the last step has a smaller batch (the end of an epoch)."""
    allocate, free = allocator.allocate, allocator.free
    weights = [allocate(4 * a * b) for a, b in zip(widths, widths[1:])]
    for step in range(steps):
        rows = batch if step < steps - 1 else batch // 3
        acts = [allocate(4 * rows * w) for w in widths]
        grads = []
        for a, b in reversed(list(zip(widths, widths[1:]))):
            grads.append(allocate(4 * a * b))
            grads.append(allocate(4 * rows * a))
        for chunk in reversed(acts + grads):
            free(chunk)
    return weights


def fragmentation_rows() -> list:
    rows = []
    for label, growth in (("growth", True), ("preallocated", False)):
        pool = bfc(limit=1 << 30, growth=growth)
        weights = training_trace(pool)
        stats = pool.stats()
        rows.append((label, stats))
        del weights
    return rows


def cuda_rows(sizes) -> list:
    try:
        import cupy
        cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:  # noqa: BLE001 - any failure means: no CUDA here
        return [f"(no CUDA GPU: {type(exc).__name__}; CuPy rows skipped)"]
    cupy_pool = cupy.cuda.MemoryPool()
    ours = DeviceMemory("GPU:0", BFCAllocator("GPU_0_bfc", 8 << 30, True, CudaRegions(0)), 0)
    table = []
    for label, fn_sizes in (("64 KiB, allocate then free", [65536] * PAIRS_PER_SAMPLE),
                            ("mixed 256 B-4 MiB, 64 live", sizes)):
        theirs = with_live_set(cupy_pool.malloc, lambda p: None, fn_sizes)
        mine = with_live_set(ours.cupy_malloc, lambda p: None, fn_sizes)
        raw, placeflow = median_pair_us(theirs), median_pair_us(mine)
        table.append(f"{label:32} {raw:14.2f} {placeflow:13.2f} {placeflow / raw:6.2f}")
    return table


def main() -> None:
    sizes = mixed_sizes(PAIRS_PER_SAMPLE + 64)
    print(f"placeflow allocator benchmark, NumPy {np.__version__}, {os.cpu_count()} cores; "
          f"median of {SAMPLES} samples x {PAIRS_PER_SAMPLE} pairs")
    print(f"{'allocate+free pair (us)':32} {'NumPy':>7} {'BFC pool only':>14} {'tensor memory, sim GPU':>23} "
          f"{'overhead':>9}")
    for label, numpy_fn, pool_fn, tensor_fn in rows_host(sizes):
        raw, pool, tensor = median_pair_us(numpy_fn), median_pair_us(pool_fn), median_pair_us(tensor_fn)
        print(f"{label:32} {raw:7.2f} {pool:14.2f} {tensor:23.2f} {tensor - raw:9.2f}")
    print(f"\n{'on CUDA, pair (us)':32} {'CuPy MemoryPool':>14} {'placeflow BFC':>13} {'ratio':>6}")
    for line in cuda_rows(sizes):
        print(line)
    print(f"\n{'training-like trace (30 steps)':32} {'peak in use':>12} {'reserved':>10} {'reserved/peak':>14} "
          f"{'largest free':>13} {'fragmentation':>14}")
    for label, s in fragmentation_rows():
        ratio = s["peak_bytes_reserved"] / s["peak_bytes_in_use"]
        print(f"{label:32} {human_bytes(s['peak_bytes_in_use']):>12} {human_bytes(s['peak_bytes_reserved']):>10} "
              f"{ratio:14.2f} {human_bytes(s['largest_free_block_bytes']):>13} {s['fragmentation']:14.1%}")


if __name__ == "__main__":
    main()
