#!/usr/bin/env python3
"""vector_add in Python: the C sample (examples/vector_add.c) through the
hsalite package.  Loads vadd.cl's code object for the first GPU, adds two
arrays of n floats, checks every element, and prints one line, e.g.

    vector_add.py: n=1048576 agent=gfx90a PASSED (dispatch 34.4 ms, total 55.2 ms)

Runs on hsalite or on ROCr (HSALITE_LIBRARY=/usr/lib/x86_64-linux-gnu/
libhsa-runtime64.so.1), on a GPU or under kfdemu:

    build/release/emu/kfdemu -- /usr/bin/python3 examples/python/vector_add.py

Copied out of the checkout, it uses the installed package (pip install
./python) and needs --co.
"""
import argparse
import sys
import time

import numpy as np

try:
    import _find  # a checkout: python/ on sys.path, the build's code objects
except ImportError:
    _find = None  # a copy elsewhere: the installed hsalite, --co given
import hsalite


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=1 << 20, help="elements (default 1048576)")
    ap.add_argument("--co", help="code object (default: vector_add.<gfx>.co of the build)")
    ap.add_argument("-t", type=float, default=100.0, help="seconds to wait for the kernel")
    args = ap.parse_args()
    if args.n < 1 or args.n >= 1 << 32:
        ap.error("-n wants 1..4294967295, got %d" % args.n)
    if _find is None and not args.co:
        ap.error("--co FILE is needed outside a source checkout (vector_add.<gfx>.co, "
                 "built by the checkout's examples/)")
    t0 = time.perf_counter()
    gpus = hsalite.gpus()
    if not gpus:
        print("vector_add.py: no GPU agent FAILED")
        return 1
    gpu = gpus[0]
    n = args.n
    a = np.arange(n, dtype=np.float32)
    b = (2.0 * np.arange(n) + 1.0).astype(np.float32)
    co = _find.code_object("vector_add", gpu.gfx, args.co) if _find else args.co
    with gpu.load(co) as mod:
        vadd = mod.kernel("vadd")
        da, db, dc = gpu.to_device(a), gpu.to_device(b), gpu.empty(n, np.float32)
        t1 = time.perf_counter()
        try:
            vadd(da, db, dc, np.uint32(n), grid=n, block=64, timeout=args.t)
        except (hsalite.HSAError, TimeoutError) as e:
            print("vector_add.py: n=%d agent=%s FAILED (%s)" % (n, gpu.gfx, e))
            return 1
        t2 = time.perf_counter()
        c = dc.copy_to_host()
    wrong = np.flatnonzero(c != a + b)
    verdict = "PASSED" if wrong.size == 0 else "FAILED (%d wrong, first c[%d] = %r)" % (
        wrong.size, wrong[0], c[wrong[0]])
    print("vector_add.py: n=%d agent=%s %s (dispatch %.1f ms, total %.1f ms)" %
          (n, gpu.gfx, verdict, (t2 - t1) * 1e3, (time.perf_counter() - t0) * 1e3))
    return 0 if wrong.size == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
