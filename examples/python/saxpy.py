#!/usr/bin/env python3
"""saxpy with timing: y = a * x + y, `-i` times on the GPU, checked against
numpy, with the per-launch time (p50) of saxpy and of an empty kernel.

    build/release/emu/kfdemu -- python3 examples/python/saxpy.py -n 65536 -i 50

The empty kernel's launch + wait is the Python path's overhead per launch
(argument packing, the AQL packet, the doorbell, the completion wait); on
kfdemu the GPU side is emulated, so the kernel times say nothing about a real
GPU.  --queue-only launches the saxpy iterations with wait=False and waits
once at the end.
"""
import argparse
import statistics
import sys
import time

import numpy as np

import _find  # noqa: F401
import hsalite


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=1 << 16)
    ap.add_argument("-i", type=int, default=20, help="iterations")
    ap.add_argument("-a", type=float, default=0.5)
    ap.add_argument("--empty", type=int, default=200, help="empty-kernel launches to time")
    ap.add_argument("--queue-only", action="store_true")
    ap.add_argument("--co")
    args = ap.parse_args()
    gpu = hsalite.gpus()[0]
    mod = gpu.load(_find.code_object("saxpy", gpu.gfx, args.co))
    saxpy, empty = mod.kernel("saxpy"), mod.kernel("empty")
    rng = np.random.default_rng(1)
    x = rng.random(args.n, dtype=np.float32)
    y = rng.random(args.n, dtype=np.float32)
    dx, dy = gpu.to_device(x), gpu.to_device(y)
    a, n = np.float32(args.a), np.uint32(args.n)

    times = []
    if args.queue_only:
        t = time.perf_counter()
        cs = [saxpy(a, dx, dy, n, grid=args.n, block=256, wait=False) for _ in range(args.i)]
        cs[-1].wait(600)
        times.append((time.perf_counter() - t) / args.i)
    else:
        for _ in range(args.i):
            t = time.perf_counter()
            saxpy(a, dx, dy, n, grid=args.n, block=256)
            times.append(time.perf_counter() - t)
    ref = y.copy()
    for _ in range(args.i):
        ref = a * x + ref
    got = dy.copy_to_host()
    ok = np.allclose(got, ref, rtol=1e-5)

    for _ in range(20):
        empty(grid=1, block=1)  # warm up
    et, sub = [], []
    for _ in range(args.empty):
        t = time.perf_counter()
        empty(grid=1, block=1)
        et.append(time.perf_counter() - t)
    # the Python side alone: the launch up to the doorbell (wait=False)
    for _ in range(args.empty):
        t = time.perf_counter()
        c = empty(grid=1, block=1, wait=False)
        sub.append(time.perf_counter() - t)
        c.wait()
    p50 = statistics.median(times)
    gbs = 12.0 * args.n / p50 / 1e9
    print("saxpy.py: n=%d iterations=%d agent=%s %s (saxpy p50 %.1f us = %.2f GB/s; "
          "empty kernel launch+wait p50 %.1f us, p90 %.1f us, submit alone p50 %.1f us, "
          "over %d)" %
          (args.n, args.i, gpu.gfx, "PASSED" if ok else "FAILED", p50 * 1e6, gbs,
           statistics.median(et) * 1e6, sorted(et)[int(len(et) * 0.9)] * 1e6,
           statistics.median(sub) * 1e6, len(et)))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
