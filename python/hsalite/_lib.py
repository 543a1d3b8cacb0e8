"""Finding and binding libhsa-runtime64.so.1 with ctypes.

Lookup order (the first that exists wins):
  1. $HSALITE_LIBRARY, a path to the library file (hsalite's, ROCr's, any);
  2. in a source checkout (this package is <source>/python/hsalite, next to
     <source>/python/pyproject.toml), the build tree beside it:
     <source>/build/<dir>/src/libhsa-runtime64.so.1, trying build/release,
     build, build/asan and then any other build/*;
  3. installed from a build directory (pip install <build>/python): the
     library of that build, which python/CMakeLists.txt records in
     hsalite/_config.py (LIBRARY);
  4. the system loader: ctypes.CDLL("libhsa-runtime64.so.1"), which honours
     LD_LIBRARY_PATH, the ld.so cache and the default directories (a
     `cmake --install`ed hsalite, or ROCr).

Only the standard HSA API is bound (hsa.h, hsa_ext_amd.h), so the package
runs unchanged on hsalite and on ROCr.  Functions one runtime may lack
(hsa_amd_memory_async_copy on hsalite today,
hsa_amd_register_system_event_handler) are looked up with optional() and
used only when present.
"""
import ctypes
import glob
import os

from . import _status

LIBNAME = "libhsa-runtime64.so.1"

c_status = ctypes.c_int
c_u16, c_u32, c_u64 = ctypes.c_uint16, ctypes.c_uint32, ctypes.c_uint64
c_i64 = ctypes.c_int64
c_size = ctypes.c_size_t
c_void_p = ctypes.c_void_p


class Handle(ctypes.Structure):
    """Every opaque HSA handle: struct { uint64_t handle; }."""
    _fields_ = [("handle", c_u64)]

    def __eq__(self, other):
        return isinstance(other, Handle) and self.handle == other.handle

    def __hash__(self):
        return hash(self.handle)


class QueueStruct(ctypes.Structure):
    """hsa_queue_t (hsa.h); amd_queue_t begins with it."""
    _fields_ = [("type", c_u32), ("features", c_u32), ("base_address", c_u64),
                ("doorbell_signal", Handle), ("size", c_u32), ("reserved1", c_u32),
                ("id", c_u64)]


# hsa_queue_t lives at offset 0 of amd_queue_t (amd_hsa_queue.h), whose
# aperture fields the v5 hidden_shared_base / hidden_private_base want.
AMD_QUEUE_GROUP_APERTURE_HI = 64
AMD_QUEUE_PRIVATE_APERTURE_HI = 68

AGENT_CB = ctypes.CFUNCTYPE(c_status, Handle, c_void_p)
POOL_CB = ctypes.CFUNCTYPE(c_status, Handle, c_void_p)
ISA_CB = ctypes.CFUNCTYPE(c_status, Handle, c_void_p)
QUEUE_ERROR_CB = ctypes.CFUNCTYPE(None, c_status, ctypes.POINTER(QueueStruct), c_void_p)
SYSTEM_EVENT_CB = ctypes.CFUNCTYPE(c_status, c_void_p, c_void_p)

_P = ctypes.POINTER
_PROTOS = {
    "hsa_init": [],
    "hsa_shut_down": [],
    "hsa_status_string": [c_status, _P(ctypes.c_char_p)],
    "hsa_system_get_info": [ctypes.c_int, c_void_p],
    "hsa_iterate_agents": [AGENT_CB, c_void_p],
    "hsa_agent_get_info": [Handle, ctypes.c_int, c_void_p],
    "hsa_agent_iterate_isas": [Handle, ISA_CB, c_void_p],
    "hsa_isa_get_info_alt": [Handle, ctypes.c_int, c_void_p],
    "hsa_amd_agent_iterate_memory_pools": [Handle, POOL_CB, c_void_p],
    "hsa_amd_memory_pool_get_info": [Handle, ctypes.c_int, c_void_p],
    "hsa_amd_memory_pool_allocate": [Handle, c_size, c_u32, _P(c_void_p)],
    "hsa_amd_memory_pool_free": [c_void_p],
    "hsa_amd_agents_allow_access": [c_u32, _P(Handle), _P(c_u32), c_void_p],
    "hsa_queue_create": [Handle, c_u32, c_u32, QUEUE_ERROR_CB, c_void_p, c_u32, c_u32,
                         _P(_P(QueueStruct))],
    "hsa_queue_destroy": [_P(QueueStruct)],
    "hsa_signal_create": [c_i64, c_u32, c_void_p, _P(Handle)],
    "hsa_signal_destroy": [Handle],
    "hsa_code_object_reader_create_from_memory": [c_void_p, c_size, _P(Handle)],
    "hsa_code_object_reader_destroy": [Handle],
    "hsa_executable_create_alt": [ctypes.c_int, ctypes.c_int, ctypes.c_char_p, _P(Handle)],
    "hsa_executable_load_agent_code_object": [Handle, Handle, Handle, ctypes.c_char_p,
                                              c_void_p],
    "hsa_executable_freeze": [Handle, ctypes.c_char_p],
    "hsa_executable_destroy": [Handle],
    "hsa_executable_get_symbol_by_name": [Handle, ctypes.c_char_p, _P(Handle), _P(Handle)],
    "hsa_executable_symbol_get_info": [Handle, ctypes.c_int, c_void_p],
}
# Calls that return a value rather than a status.
_VALUE_PROTOS = {
    "hsa_queue_add_write_index_scacq_screl": (c_u64, [_P(QueueStruct), c_u64]),
    "hsa_queue_load_read_index_scacquire": (c_u64, [_P(QueueStruct)]),
    "hsa_queue_load_write_index_relaxed": (c_u64, [_P(QueueStruct)]),
    "hsa_signal_store_screlease": (None, [Handle, c_i64]),
    "hsa_signal_store_relaxed": (None, [Handle, c_i64]),
    "hsa_signal_load_scacquire": (c_i64, [Handle]),
    "hsa_signal_wait_scacquire": (c_i64, [Handle, ctypes.c_int, c_i64, c_u64, ctypes.c_int]),
}
_OPTIONAL = {
    "hsa_amd_register_system_event_handler": (c_status, [SYSTEM_EVENT_CB, c_void_p]),
    "hsa_amd_memory_async_copy": (c_status, [c_void_p, Handle, c_void_p, Handle, c_size,
                                             c_u32, _P(Handle), Handle]),
}


def candidates():
    """Where the library is looked for, in order (see the module comment)."""
    env = os.environ.get("HSALITE_LIBRARY")
    if env:
        return [env]
    found = []
    package = os.path.dirname(os.path.abspath(__file__))
    src = os.path.dirname(os.path.dirname(package))
    if os.path.isfile(os.path.join(src, "python", "pyproject.toml")):
        build = os.path.join(src, "build")
        for sub in ("release", ".", "asan"):
            found.append(os.path.normpath(os.path.join(build, sub, "src", LIBNAME)))
        for other in sorted(glob.glob(os.path.join(build, "*", "src", LIBNAME))):
            if other not in found:
                found.append(other)
    recorded = _recorded_library()
    if recorded and recorded not in found:
        found.append(recorded)
    found = [p for p in found if os.path.exists(p)]
    return found + [LIBNAME]


def _recorded_library():
    """The library of the build this package was copied from, if any
    (hsalite/_config.py, written by python/CMakeLists.txt; absent from the
    source tree)."""
    try:
        from . import _config
    except ImportError:
        return None
    return getattr(_config, "LIBRARY", None) or None


class Library:
    """The loaded runtime: every bound function as an attribute."""

    def __init__(self):
        errors = []
        self.cdll = None
        for path in candidates():
            try:
                self.cdll = ctypes.CDLL(path)
                self.path = path
                break
            except OSError as e:
                errors.append("%s: %s" % (path, e))
                if os.environ.get("HSALITE_LIBRARY"):
                    break
        if self.cdll is None:
            raise OSError("hsalite: cannot load %s (%s)" % (LIBNAME, "; ".join(errors)))
        for name, args in _PROTOS.items():
            fn = getattr(self.cdll, name)
            fn.restype = c_status
            fn.argtypes = args
            setattr(self, name, fn)
        for name, (res, args) in _VALUE_PROTOS.items():
            fn = getattr(self.cdll, name)
            fn.restype = res
            fn.argtypes = args
            setattr(self, name, fn)
        for name, (res, args) in _OPTIONAL.items():
            try:
                fn = getattr(self.cdll, name)
            except AttributeError:
                fn = None
            else:
                fn.restype = res
                fn.argtypes = args
            setattr(self, name, fn)
        _status._describe = self.describe
        # Resolve the real file for reports (a soname lookup has no path).
        try:
            self.path = os.path.realpath(_loaded_path(self.cdll) or self.path)
        except OSError:
            pass

    def describe(self, status):
        s = ctypes.c_char_p()
        if self.hsa_status_string(status, ctypes.byref(s)) != 0 or not s.value:
            return ""
        return s.value.decode(errors="replace")

    def has(self, name):
        return getattr(self, name, None) is not None


def _loaded_path(cdll):
    """The file the dynamic linker mapped for cdll (from /proc/self/maps)."""
    try:
        addr = ctypes.cast(cdll.hsa_init, c_void_p).value
        with open("/proc/self/maps") as f:
            for line in f:
                parts = line.split()
                lo, hi = (int(x, 16) for x in parts[0].split("-"))
                if lo <= addr < hi and len(parts) >= 6:
                    return parts[5]
    except (OSError, ValueError):
        return None
    return None
