"""Arrays: device arrays, host-pinned arrays, and how bytes move between.

Placement and copies go through one object, the copy engine, chosen per GPU
(GPU.copies):

  CpuMappedCopies  device arrays live in the CPU agent's coarse-grained
                   system pool (GPU-cached, not coherent with the host while
                   a kernel runs; every dispatch hsalite makes has system-scope
                   acquire and release fences, so the data is in place before
                   a kernel starts and after it completes), falling back to the
                   fine-grained pool.  The GPU gets access with
                   hsa_amd_agents_allow_access; copies are memcpy through the
                   CPU mapping.  Works on every runtime.
  AsyncCopies      device arrays in the GPU's VRAM pool; copies with
                   hsa_amd_memory_async_copy through a host-pinned staging
                   buffer, waited on with a completion signal.

The choice is HSALITE_COPY: auto (the default) uses AsyncCopies when the
runtime exports hsa_amd_memory_async_copy AND a probe round trip (4 KiB
there and back within 2 s) returns the right bytes, else CpuMappedCopies;
async insists on AsyncCopies (an error if the probe fails); cpu never tries
it.  hsalite (src/copy) and ROCr pass the probe (SDMA engines, or blit
kernels with HSA_ENABLE_SDMA=0), on kfdemu too; a runtime whose call
answers NOT_SUPPORTED (hsalite before src/copy) fails it at once and gets
CPU-mapped arrays.  A probe that times out leaves its copy behind: its signal is
abandoned, not destroyed, since the engine may still write it.
"""
import ctypes
import os
import time

import numpy as np

from . import _lib
from ._owned import Owned
from ._runtime import FLAG_COARSE_GRAINED, FLAG_FINE_GRAINED
from ._status import HSAError, check


def _as_dtype_shape(shape, dtype):
    if isinstance(shape, (int, np.integer)):
        shape = (int(shape),)
    shape = tuple(int(s) for s in shape)
    if any(s < 0 for s in shape):
        raise ValueError("negative dimension in shape %r" % (shape,))
    return np.dtype(dtype), shape


class _Buffer(Owned):
    """Memory from one pool; freed by free(), with, shutdown or GC."""

    def __init__(self, rt, pool, nbytes, gpus):
        self._rt = rt
        self.nbytes = int(nbytes)
        self.pool = pool
        self.ptr = rt.allocate(pool, self.nbytes, gpus)
        rt.track(self)

    def _release(self):
        ptr, self.ptr = self.ptr, 0
        if ptr:
            self._rt.untrack(self)
            self._rt.free(ptr)

    def _held(self):
        return bool(self.ptr)

    def free(self):
        self._release()

    def _check(self):
        if not self.ptr:
            raise ValueError("array used after free()")
        self._rt.ensure_alive()


class HostArray(_Buffer):
    """Host-pinned memory (fine-grained system pool) every GPU can access.

    ``a.numpy()`` is an ndarray over the same memory (no copy): write it on
    the host and pass ``a`` to a kernel, or read the kernel's results from it
    once the launch has completed.  Indexing and np.asarray(a) work too.
    """

    def __init__(self, rt, shape, dtype):
        self.dtype, self.shape = _as_dtype_shape(shape, dtype)
        self.size = int(np.prod(self.shape, dtype=np.int64))
        pool = rt.system_pool(FLAG_FINE_GRAINED)
        if pool is None:
            raise HSAError(0x1003, "hsalite", "no fine-grained system pool")
        super().__init__(rt, pool, self.size * self.dtype.itemsize, rt.gpus)
        self._view = None

    def numpy(self):
        self._check()
        if self._view is None:
            raw = (ctypes.c_char * max(self.nbytes, 1)).from_address(self.ptr)
            self._view = np.frombuffer(raw, dtype=self.dtype,
                                       count=self.size).reshape(self.shape)
        return self._view

    def __array__(self, dtype=None):
        a = self.numpy()
        return a if dtype is None else a.astype(dtype)

    def __getitem__(self, i):
        return self.numpy()[i]

    def __setitem__(self, i, v):
        self.numpy()[i] = v

    def __len__(self):
        return self.shape[0] if self.shape else 1

    def _release(self):
        self._view = None
        super()._release()

    def __repr__(self):
        return "<HostArray %s %s at 0x%x>" % (self.shape, self.dtype, self.ptr)


class DeviceArray(_Buffer):
    """An array a GPU's kernels use; move data with copy_from_host/copy_to_host."""

    def __init__(self, gpu, shape, dtype):
        self.dtype, self.shape = _as_dtype_shape(shape, dtype)
        self.size = int(np.prod(self.shape, dtype=np.int64))
        self.gpu = gpu
        self._copies = gpu.copies
        super().__init__(gpu._rt, self._copies.pool(gpu), self.size * self.dtype.itemsize, [gpu])

    def _host_source(self, a):
        a = np.asarray(a)
        if a.shape != self.shape and a.size != self.size:
            raise ValueError("shape %s does not match the device array's %s" %
                             (a.shape, self.shape))
        if a.dtype != self.dtype:
            raise TypeError("dtype %s does not match the device array's %s (convert with "
                            "a.astype(np.%s))" % (a.dtype, self.dtype, self.dtype.name))
        return np.ascontiguousarray(a)

    def copy_from_host(self, a):
        """Copy the host array a (same shape or size, same dtype) in."""
        self._check()
        src = self._host_source(a)
        if self.nbytes:
            self._copies.to_device(self, src)
        return self

    def copy_to_host(self, out=None):
        """A new ndarray with the contents (or fill out, same shape/dtype)."""
        self._check()
        if out is None:
            out = np.empty(self.shape, self.dtype)
        elif not isinstance(out, np.ndarray) or out.dtype != self.dtype or \
                out.size != self.size or not out.flags.c_contiguous:
            raise TypeError("out must be a C-contiguous ndarray of %d %s" %
                            (self.size, self.dtype))
        if self.nbytes:
            self._copies.to_host(out, self)
        return out

    def __len__(self):
        return self.shape[0] if self.shape else 1

    def __repr__(self):
        return "<DeviceArray %s %s on %s at 0x%x>" % (self.shape, self.dtype,
                                                     self.gpu.gfx, self.ptr)


class CpuMappedCopies:
    name = "cpu-mapped"

    def pool(self, gpu):
        rt = gpu._rt
        p = rt.system_pool(FLAG_COARSE_GRAINED) or rt.system_pool(FLAG_FINE_GRAINED)
        if p is None:
            raise HSAError(0x1003, "hsalite", "no CPU-accessible system pool for device arrays")
        return p

    def to_device(self, dst, src):
        ctypes.memmove(dst.ptr, src.ctypes.data, dst.nbytes)

    def to_host(self, dst, src):
        ctypes.memmove(dst.ctypes.data, src.ptr, src.nbytes)


class AsyncCopies:
    """hsa_amd_memory_async_copy between VRAM and a pinned staging buffer."""
    name = "async"

    def __init__(self, gpu, timeout=60.0):
        self.gpu = gpu
        self.timeout = timeout
        rt = gpu._rt
        self._vram = next((p for p in gpu.pools if p.flags & FLAG_COARSE_GRAINED), None)
        if self._vram is None or rt.lib.hsa_amd_memory_async_copy is None or rt.cpu is None:
            raise HSAError(47, "hsa_amd_memory_async_copy",
                           "not available in %s" % rt.lib.path)

    def pool(self, gpu):
        return self._vram

    def _copy(self, dst, dst_agent, src, src_agent, n, timeout=None):
        rt = self.gpu._rt
        sig = rt.signals.get()
        try:
            check(rt.lib.hsa_amd_memory_async_copy(dst, dst_agent.handle, src, src_agent.handle,
                                                   n, 0, None, sig.handle),
                  "hsa_amd_memory_async_copy")
            if not sig.wait_complete(self.timeout if timeout is None else timeout):
                raise TimeoutError("hsa_amd_memory_async_copy of %d bytes did not complete" % n)
        except BaseException:
            sig.abandon()
            raise
        rt.signals.put(sig)

    def to_device(self, dst, src):
        rt = self.gpu._rt
        with HostArray(rt, (dst.nbytes,), np.uint8) as stage:
            ctypes.memmove(stage.ptr, src.ctypes.data, dst.nbytes)
            self._copy(dst.ptr, self.gpu, stage.ptr, rt.cpu, dst.nbytes)

    def to_host(self, dst, src):
        rt = self.gpu._rt
        with HostArray(rt, (src.nbytes,), np.uint8) as stage:
            self._copy(stage.ptr, rt.cpu, src.ptr, self.gpu, src.nbytes)
            ctypes.memmove(dst.ctypes.data, stage.ptr, src.nbytes)

    def probe(self):
        """A 4 KiB round trip; True if the bytes come back."""
        rt = self.gpu._rt
        pattern = (np.arange(1024, dtype=np.uint32) * 2654435761).astype(np.uint32)
        vram = rt.allocate(self._vram, pattern.nbytes, [self.gpu])
        try:
            with HostArray(rt, (1024,), np.uint32) as a, HostArray(rt, (1024,), np.uint32) as b:
                a.numpy()[:] = pattern
                self._copy(vram, self.gpu, a.ptr, rt.cpu, pattern.nbytes, timeout=2.0)
                self._copy(b.ptr, rt.cpu, vram, self.gpu, pattern.nbytes, timeout=2.0)
                return bool((b.numpy() == pattern).all())
        finally:
            rt.free(vram)


def select_copies(gpu):
    """The copy engine for gpu (see the module comment for HSALITE_COPY)."""
    mode = os.environ.get("HSALITE_COPY", "auto").strip().lower() or "auto"
    if mode not in ("cpu", "auto", "async"):
        raise ValueError("HSALITE_COPY=%s: want cpu, auto or async" % mode)
    if mode == "cpu":
        return CpuMappedCopies()
    try:
        eng = AsyncCopies(gpu)
        ok = eng.probe()
    except (HSAError, TimeoutError) as e:
        if mode == "async":
            raise
        gpu._copy_probe_error = e
        return CpuMappedCopies()
    if not ok:
        if mode == "async":
            raise HSAError(0x1000, "hsa_amd_memory_async_copy", "the probe copy returned wrong bytes")
        return CpuMappedCopies()
    return eng
