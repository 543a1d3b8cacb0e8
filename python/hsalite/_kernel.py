"""Modules (loaded code objects) and kernels you can call.

Kernel.__call__ builds the kernarg segment from the code object's metadata
(_metadata): explicit arguments are converted by a per-argument packer
chosen once from .value_kind, .size and .type_name; hidden arguments are
filled per launch as LLVM's AMDGPUUsage specifies ("Code Object V4/V5
Metadata", hidden argument kinds):

  hidden_block_count_{x,y,z}  u32  whole workgroups: grid // block
  hidden_group_size_{x,y,z}   u16  block
  hidden_remainder_{x,y,z}    u16  the partial workgroup's size: grid % block
  hidden_global_offset_{x,y,z} u64 0 (no global offsets)
  hidden_grid_dims            u16  dimensions of the dispatch
  hidden_queue_ptr            u64  the hsa_queue_t* of the queue used
  hidden_private_base, hidden_shared_base   u32  the high halves of the
                              scratch and LDS apertures, from amd_queue_t
  hidden_dynamic_lds_size     u32  dynamic LDS bytes (shared= and local args)
  everything else (printf and hostcall buffers, heap, default queue,
  completion action, multigrid sync, hidden_none) is 0: hsalite provides no
  services behind them, as a plain HSA program does not.

Wrong argument counts and types raise TypeError before anything reaches the
GPU; values out of range raise OverflowError.
"""
import ctypes
import os
import struct

import numpy as np

from . import _lib, _metadata
from ._memory import DeviceArray, HostArray
from ._owned import Owned
from ._queue import Completion
from ._status import HSAError, check

HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE = 11
HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE = 13
HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE = 14
HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT = 22

# OpenCL type names (metadata .type_name) -> numpy dtypes.
_SCALARS = {
    "char": np.int8, "signed char": np.int8, "uchar": np.uint8, "unsigned char": np.uint8,
    "short": np.int16, "ushort": np.uint16, "unsigned short": np.uint16,
    "int": np.int32, "uint": np.uint32, "unsigned int": np.uint32,
    "long": np.int64, "ulong": np.uint64, "unsigned long": np.uint64,
    "half": np.float16, "float": np.float32, "double": np.float64,
    "bool": np.bool_, "size_t": np.uint64, "ptrdiff_t": np.int64,
    "intptr_t": np.int64, "uintptr_t": np.uint64,
}
_INT_BY_SIZE = {1: (np.int8, np.uint8), 2: (np.int16, np.uint16), 4: (np.int32, np.uint32),
                8: (np.int64, np.uint64)}
_FLOAT_BY_SIZE = {2: np.float16, 4: np.float32, 8: np.float64}
_U64, _U32 = struct.Struct("<Q"), struct.Struct("<I")


class Pointer:
    """A raw device address passed to a pointer argument, at your own risk."""
    __slots__ = ("address",)

    def __init__(self, address):
        self.address = int(address)

    def __repr__(self):
        return "Pointer(0x%x)" % self.address


class LocalMemory:
    """Dynamic LDS for an OpenCL ``__local`` pointer argument: nbytes per group."""
    __slots__ = ("nbytes",)

    def __init__(self, nbytes):
        self.nbytes = int(nbytes)
        if self.nbytes < 0:
            raise ValueError("LocalMemory(%d): negative size" % nbytes)


def _vector_type(tname):
    """'float4' -> (np.float32, 4); None if not a vector type."""
    for n in (16, 8, 4, 3, 2):
        s = str(n)
        if tname.endswith(s) and tname[:-len(s)] in _SCALARS:
            return _SCALARS[tname[:-len(s)]], n
    return None


def _describe(arg):
    t = arg.type_name or arg.kind
    return "%s (%s)" % (arg.name, t)


def _int_in_range(value, dt, arg):
    info = np.iinfo(dt)
    v = int(value)
    if v < info.min or v > info.max:
        raise OverflowError("argument %s: %d does not fit in %s" % (_describe(arg), v,
                                                                   np.dtype(dt).name))
    return v


_STRUCT_CODES = {"i1": "b", "u1": "B", "i2": "h", "u2": "H", "i4": "i", "u4": "I", "i8": "q",
                 "u8": "Q", "f2": "e", "f4": "f", "f8": "d", "b1": "?"}


def _make_scalar_packer(arg, dt):
    dt = np.dtype(dt)
    st = struct.Struct("<" + _STRUCT_CODES[dt.kind + str(dt.itemsize)])
    if dt.kind in "iu":
        info = np.iinfo(dt)
        lo, hi = int(info.min), int(info.max)

        def pack(v):
            if type(v) is not int and (isinstance(v, (bool, np.bool_)) or
                                       not isinstance(v, (int, np.integer))):
                if isinstance(v, np.ndarray) and v.ndim == 0 and v.dtype.kind in "iu":
                    v = v[()]
                else:
                    raise TypeError("argument %s wants an integer, got %s" %
                                    (_describe(arg), type(v).__name__))
            iv = int(v)
            if iv < lo or iv > hi:
                raise OverflowError("argument %s: %d does not fit in %s" %
                                    (_describe(arg), iv, dt.name))
            return st.pack(iv)
    elif dt.kind == "f":
        def pack(v):
            if type(v) is not float:
                if isinstance(v, np.ndarray) and v.ndim == 0:
                    v = v[()]
                if isinstance(v, (bool, np.bool_)) or \
                        not isinstance(v, (int, float, np.integer, np.floating)):
                    raise TypeError("argument %s wants a number, got %s" %
                                    (_describe(arg), type(v).__name__))
            return np.array(v, dt).tobytes() if dt.itemsize == 2 else st.pack(float(v))
    else:  # bool
        def pack(v):
            if not isinstance(v, (bool, np.bool_, int, np.integer)):
                raise TypeError("argument %s wants a bool, got %s" %
                                (_describe(arg), type(v).__name__))
            return st.pack(bool(v))
    return pack


def _raw_bytes(v, size, arg, allow_numbers):
    """bytes for a by-value argument known only by its size (a struct, or
    any argument of a kernel without .type_name, such as HIP's)."""
    if isinstance(v, (bytes, bytearray, memoryview)):
        b = bytes(v)
    elif isinstance(v, ctypes.Structure) or isinstance(v, ctypes.Array) or \
            isinstance(v, ctypes._SimpleCData):
        b = bytes(memoryview(v).cast("B")) if not isinstance(v, ctypes._SimpleCData) else \
            ctypes.string_at(ctypes.addressof(v), ctypes.sizeof(v))
    elif isinstance(v, np.generic):
        if isinstance(v, np.bool_):
            raise TypeError("argument %s: a bool has no size here; pass np.uint8 etc." %
                            _describe(arg))
        b = v.tobytes()
    elif isinstance(v, np.ndarray) and (v.ndim == 0 or v.size == 1 or v.dtype.names):
        b = v.tobytes()
    elif allow_numbers and isinstance(v, int) and not isinstance(v, bool) and \
            size in _INT_BY_SIZE:
        dt = _INT_BY_SIZE[size][0 if v < 0 else 1]
        return np.array(_int_in_range(v, dt, arg), dt).tobytes()
    elif allow_numbers and isinstance(v, float) and size in _FLOAT_BY_SIZE:
        return np.array(v, _FLOAT_BY_SIZE[size]).tobytes()
    else:
        raise TypeError("argument %s wants %d bytes by value (a numpy scalar, a "
                        "structured numpy value, a ctypes object or bytes), got %s" %
                        (_describe(arg), size, type(v).__name__))
    if len(b) != size:
        raise TypeError("argument %s is %d bytes, got a %d-byte %s" %
                        (_describe(arg), size, len(b), type(v).__name__))
    return b


def _make_by_value_packer(arg):
    t = (arg.type_name or "").strip()
    if t in _SCALARS and np.dtype(_SCALARS[t]).itemsize == arg.size:
        return _make_scalar_packer(arg, _SCALARS[t])
    vec = _vector_type(t)
    if vec is not None:
        dt, n = np.dtype(vec[0]), vec[1]

        def pack_vec(v):
            if isinstance(v, (bytes, np.generic)) or not hasattr(v, "__len__"):
                raise TypeError("argument %s wants %d numbers, got %s" %
                                (_describe(arg), n, type(v).__name__))
            a = np.asarray(v)
            if a.shape != (n,) or a.dtype.kind not in "iufb":
                raise TypeError("argument %s wants %d numbers, got %r" % (_describe(arg), n, v))
            if dt.kind in "iu" and a.dtype.kind == "f":
                raise TypeError("argument %s wants integers, got %s" % (_describe(arg), a.dtype))
            b = a.astype(dt).tobytes()
            return b + bytes(arg.size - len(b))
        return pack_vec
    # structs and untyped (HIP) arguments: size rules
    return lambda v: _raw_bytes(v, arg.size, arg, allow_numbers=not t)


def _pointee(arg):
    t = (arg.type_name or "").replace("const", "").replace("restrict", "").strip()
    if not t.endswith("*"):
        return None
    base = t[:-1].strip()
    return np.dtype(_SCALARS[base]) if base in _SCALARS else None


def _make_pointer_packer(arg):
    want = _pointee(arg)
    loose = want is None or want.itemsize == 1  # void*, char*, structs: bytes

    def pack(v):
        if isinstance(v, (DeviceArray, HostArray)):
            if not v.ptr:
                raise ValueError("argument %s: the array was freed" % _describe(arg))
            if not loose and v.dtype != want and not (
                    v.dtype.kind in "iu" and want.kind in "iu" and
                    v.dtype.itemsize == want.itemsize):
                raise TypeError("argument %s wants %s elements, got an array of %s" %
                                (_describe(arg), want.name, v.dtype))
            return v.ptr
        if isinstance(v, Pointer):
            return v.address
        if v is None:
            return 0
        if isinstance(v, np.ndarray):
            raise TypeError("argument %s is a device pointer; a numpy array is host memory: "
                            "pass gpu.to_device(a) or a host-pinned array" % _describe(arg))
        raise TypeError("argument %s wants a device or host-pinned array (or "
                        "hsalite.Pointer), got %s" % (_describe(arg), type(v).__name__))
    return pack


class Kernel:
    """A kernel of a Module: call it with its arguments and grid= / block=."""

    def __init__(self, module, info):
        self.module = module
        self.info = info
        self.name = info.name
        self.gpu = module.gpu
        rt = self.gpu._rt
        sym = _lib.Handle()
        check(rt.lib.hsa_executable_get_symbol_by_name(module._exe, info.symbol.encode(),
                                                       ctypes.byref(self.gpu.handle),
                                                       ctypes.byref(sym)),
              "hsa_executable_get_symbol_by_name", info.symbol)
        u64, u32 = ctypes.c_uint64(), ctypes.c_uint32()
        g = rt.lib.hsa_executable_symbol_get_info
        check(g(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_OBJECT, ctypes.byref(u64)),
              "hsa_executable_symbol_get_info")
        self.kernel_object = u64.value
        check(g(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE, ctypes.byref(u32)),
              "hsa_executable_symbol_get_info")
        self.kernarg_size = max(u32.value, info.kernarg_size)
        check(g(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE, ctypes.byref(u32)),
              "hsa_executable_symbol_get_info")
        self.group_size = u32.value
        check(g(sym, HSA_EXECUTABLE_SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE, ctypes.byref(u32)),
              "hsa_executable_symbol_get_info")
        self.private_size = u32.value
        if info.uses_dynamic_stack:
            self.private_size = max(self.private_size, 1024)
        self._packers = []
        for a in info.explicit:
            if a.kind in ("global_buffer",):
                self._packers.append(("ptr", a, _make_pointer_packer(a)))
            elif a.kind == "by_value":
                self._packers.append(("val", a, _make_by_value_packer(a)))
            elif a.kind == "dynamic_shared_pointer":
                self._packers.append(("lds", a, None))
            else:
                self._packers.append(("unsupported", a, None))
        self._hidden = [(a.kind, a.offset, a.size) for a in info.hidden]
        self._dyn_lds = next(((a.offset, a.size) for a in info.hidden
                              if a.kind == "hidden_dynamic_lds_size"), None)
        self._templates = {}
        self.signature = "%s(%s)" % (self.name, ", ".join(
            "%s: %s" % (a.name, a.type_name or a.kind) for a in info.explicit))

    def __repr__(self):
        return "<Kernel %s, code object v%d>" % (self.signature, self.info.code_object_version)

    # -- geometry -------------------------------------------------------------
    def _geometry(self, grid, block):
        def triple(v, what):
            if isinstance(v, (int, np.integer)):
                v = (int(v),)
            try:
                t = tuple(int(x) for x in v)
            except TypeError:
                raise TypeError("%s= wants an int or a tuple of 1-3 ints, got %r" %
                                (what, v)) from None
            if not 1 <= len(t) <= 3:
                raise ValueError("%s= has %d dimensions; 1 to 3 allowed" % (what, len(t)))
            return t
        g = triple(grid, "grid")
        if block is None:
            block = self.info.reqd_workgroup_size or \
                (min(256, self.info.max_flat_workgroup_size),)
        b = triple(block, "block")
        dims = max(len(g), len(b)) if len(b) <= len(g) else len(b)
        g = g + (1,) * (3 - len(g))
        b = b + (1,) * (3 - len(b))
        if any(x < 1 or x >= 1 << 32 for x in g):
            raise ValueError("grid=%r: each dimension must be in 1..2^32-1 work-items" % (g,))
        if any(x < 1 or x > 1024 for x in b):
            raise ValueError("block=%r: each dimension must be in 1..1024" % (b,))
        if b[0] * b[1] * b[2] > self.info.max_flat_workgroup_size:
            raise ValueError("block=%r has %d work-items; %s allows at most %d "
                             "(.max_flat_workgroup_size)" % (b[:dims], b[0] * b[1] * b[2],
                                                             self.name,
                                                             self.info.max_flat_workgroup_size))
        if self.info.reqd_workgroup_size and b != tuple(self.info.reqd_workgroup_size):
            raise ValueError("block=%r: %s requires a workgroup of %r" %
                             (b, self.name, tuple(self.info.reqd_workgroup_size)))
        dims = 3 if g[2] > 1 or b[2] > 1 else 2 if g[1] > 1 or b[1] > 1 else max(1, dims)
        return g, b, dims

    # -- packing ----------------------------------------------------------------
    def _template(self, grid, block, shared, queue):
        """(kernarg bytes with the hidden arguments filled, grid, block, group
        segment size) for a geometry; cached, since launches repeat them."""
        key = (grid, block, shared, queue.address)
        t = self._templates.get(key)
        if t is None:
            g, b, dims = self._geometry(grid, block)
            if shared:
                shared = int(shared)
                if shared < 0:
                    raise ValueError("shared=%d: negative" % shared)
            group = self.group_size
            if shared:
                group = ((group + 15) & ~15) + shared
            buf = bytearray(self.kernarg_size)
            for kind, off, size in self._hidden:
                v = _hidden_value(kind, g, b, dims, queue.address, shared)
                if v:
                    buf[off:off + size] = int(v).to_bytes(size, "little")
            t = (bytes(buf), g, b, group)
            if len(self._templates) > 64:
                self._templates.clear()
            try:
                self._templates[key] = t
            except TypeError:  # an unhashable grid or block: not cached
                pass
        return t

    def pack(self, args, grid, block, queue, shared=0):
        """The kernarg segment for these arguments as bytes, the grid and
        block as 3-tuples, and the group segment size the dispatch needs."""
        if len(args) != len(self._packers):
            raise TypeError("%s takes %d argument%s but %d %s given" %
                            (self.signature, len(self._packers),
                             "" if len(self._packers) == 1 else "s", len(args),
                             "was" if len(args) == 1 else "were"))
        try:
            hash((grid, block))
        except TypeError:
            grid = tuple(grid) if not isinstance(grid, (int, np.integer)) else grid
            block = tuple(block) if block is not None and \
                not isinstance(block, (int, np.integer)) else block
        tmpl, g, b, group = self._template(grid, block, shared, queue)
        if not self._packers:
            return tmpl, g, b, group
        buf = bytearray(tmpl)
        lds = 0
        for (kind, a, packer), v in zip(self._packers, args):
            if kind == "ptr":
                _U64.pack_into(buf, a.offset, packer(v))
            elif kind == "val":
                data = packer(v)
                buf[a.offset:a.offset + len(data)] = data
            elif kind == "lds":
                if not isinstance(v, LocalMemory):
                    raise TypeError("argument %s is a __local pointer: pass "
                                    "hsalite.LocalMemory(nbytes), got %s" %
                                    (_describe(a), type(v).__name__))
                align = max(a.pointee_align, 16)
                off = (group + align - 1) & ~(align - 1)
                group = off + v.nbytes
                lds += v.nbytes
                _U32.pack_into(buf, a.offset, off)
            else:
                raise TypeError("argument %s: kind %s is not supported by hsalite" %
                                (_describe(a), a.kind))
        if lds and self._dyn_lds is not None:
            off, size = self._dyn_lds
            total = lds + int.from_bytes(buf[off:off + size], "little")
            buf[off:off + size] = total.to_bytes(size, "little")
        return bytes(buf), g, b, group

    def __call__(self, *args, grid, block=None, shared=0, queue=None, wait=True, timeout=None):
        """Launch.  grid: work-items (int or tuple of up to 3); block: the
        workgroup (default: the kernel's required size, else 256 or the
        kernel's maximum); shared: extra dynamic LDS bytes; queue: a Queue
        of this GPU (default: the GPU's own); wait=False returns the
        Completion at once, else the launch returns when the kernel has
        completed (raising HSAError on a queue error or GPU fault,
        TimeoutError after timeout seconds)."""
        rt = self.gpu._rt
        rt.ensure_alive()
        if queue is None:
            queue = self.gpu.default_queue()
        elif queue.gpu is not self.gpu:
            raise ValueError("queue belongs to %s, kernel to %s" % (queue.gpu.name, self.gpu.name))
        data, g, b, group = self.pack(args, grid, block, queue, shared)
        kernarg = rt.kernargs.get(len(data))
        sig = rt.signals.get()
        ctypes.memmove(kernarg, data, len(data))
        keep = (args, self.module)
        try:
            queue.dispatch(self.kernel_object, kernarg, g, b, group, self.private_size, sig)
        except BaseException:
            rt.signals.put(sig)
            rt.kernargs.put(kernarg, len(data))
            raise
        c = Completion(rt, queue, sig, kernarg, len(data), keep)
        if wait:
            c.wait(timeout if timeout is not None else self.gpu.default_timeout)
        return c


def _hidden_value(kind, g, b, dims, qaddr, dyn):
    k = kind[7:]  # past "hidden_"
    axis = "xyz".find(k[-1]) if k[-2:-1] == "_" else -1
    if k.startswith("block_count_"):
        return g[axis] // b[axis]
    if k.startswith("group_size_"):
        return b[axis]
    if k.startswith("remainder_"):
        return g[axis] % b[axis]
    if k == "grid_dims":
        return dims
    if k == "queue_ptr":
        return qaddr
    if k == "shared_base":
        return ctypes.c_uint32.from_address(qaddr + _lib.AMD_QUEUE_GROUP_APERTURE_HI).value
    if k == "private_base":
        return ctypes.c_uint32.from_address(qaddr + _lib.AMD_QUEUE_PRIVATE_APERTURE_HI).value
    if k == "dynamic_lds_size":
        return dyn
    return 0  # global offsets, printf, hostcall, heap, default queue, ...


class Module(Owned):
    """A code object loaded on one GPU (an HSA executable)."""

    def __init__(self, gpu, source):
        rt = gpu._rt
        self._rt = rt
        self.gpu = gpu
        if isinstance(source, (bytes, bytearray, memoryview)):
            data, self.path = bytes(source), None
        else:
            path = os.fspath(source).replace("{gfx}", gpu.gfx)
            with open(path, "rb") as f:
                data = f.read()
            self.path = path
        self.info = _metadata.parse(data)
        where = self.path or "code object"
        if self.info.gfx and self.info.gfx != gpu.gfx:
            raise HSAError(0x100D, "hsalite", "%s is for %s, the GPU is %s" %
                           (where, self.info.gfx, gpu.gfx))
        self._data = ctypes.create_string_buffer(data, len(data))
        self._reader = self._exe = None
        lib = rt.lib
        reader, exe = _lib.Handle(), _lib.Handle()
        check(lib.hsa_code_object_reader_create_from_memory(self._data, len(data),
                                                            ctypes.byref(reader)),
              "hsa_code_object_reader_create_from_memory", where)
        self._reader = reader
        rt.track(self)
        try:
            check(lib.hsa_executable_create_alt(gpu.profile, 0, None, ctypes.byref(exe)),
                  "hsa_executable_create_alt")
            self._exe = exe
            check(lib.hsa_executable_load_agent_code_object(exe, gpu.handle, reader, None, None),
                  "hsa_executable_load_agent_code_object", where)
            check(lib.hsa_executable_freeze(exe, None), "hsa_executable_freeze", where)
        except BaseException:
            self._release()
            raise
        self._kernels = {}

    @property
    def kernels(self):
        """Names of the kernels in the code object."""
        return list(self.info.kernels)

    def kernel(self, name):
        self._rt.ensure_alive()
        if self._exe is None:
            raise ValueError("module used after close()")
        k = self._kernels.get(name)
        if k is None:
            info = self.info.kernels.get(name)
            if info is None:
                raise KeyError("no kernel %r in %s (it has: %s)" %
                               (name, self.path or "the code object", ", ".join(self.kernels)))
            k = self._kernels[name] = Kernel(self, info)
        return k

    __getitem__ = kernel

    def _release(self):
        exe, reader = self._exe, self._reader
        self._exe = self._reader = None
        self._rt.untrack(self)
        if self._rt.alive:
            if exe is not None:
                self._rt.lib.hsa_executable_destroy(exe)
            if reader is not None:
                self._rt.lib.hsa_code_object_reader_destroy(reader)

    close = _release

    def _held(self):
        return self._exe is not None

    def __repr__(self):
        return "<Module %s on %s: %s>" % (self.path or "<bytes>", self.gpu.gfx,
                                          ", ".join(self.kernels))
