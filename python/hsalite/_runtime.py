"""The runtime: hsa_init/hsa_shut_down, agents, pools, resource tracking.

One Runtime object exists per hsa_init.  It is created on first use
(hsalite.agents(), hsalite.gpus(), ...) or explicitly with hsalite.init() /
``with hsalite.session():``, and ended by hsalite.shutdown() (also run at
interpreter exit).  Every object that holds a runtime resource (arrays,
modules, queues, signals) registers itself here and is released, newest
first, before hsa_shut_down; releasing it earlier (``.free()``, ``.close()``,
``with``) is always allowed.  After shutdown such objects are dead: using
one raises HSAError(HSA_STATUS_ERROR_NOT_INITIALIZED).

GPU faults: queues are created with an error callback (Queue), and a
handler registered with hsa_amd_register_system_event_handler records GPU
memory faults here, so that waits raise instead of the runtime aborting the
process (both runtimes abort on a fault no handler takes).  hsalite also
reports memory faults through the queue callbacks; a runtime that answers
the registration NOT_SUPPORTED (hsalite before system events) leaves the
queue callbacks as the only channel (docs/differences.md, section 3).
"""
import atexit
import ctypes
import threading
import weakref

from . import _lib
from ._status import HSAError, check

HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY = 3
HSA_AGENT_INFO_NAME = 0
HSA_AGENT_INFO_VENDOR_NAME = 1
HSA_AGENT_INFO_PROFILE = 4
HSA_AGENT_INFO_WAVEFRONT_SIZE = 6
HSA_AGENT_INFO_WORKGROUP_MAX_SIZE = 8
HSA_AGENT_INFO_QUEUE_MIN_SIZE = 13
HSA_AGENT_INFO_QUEUE_MAX_SIZE = 14
HSA_AGENT_INFO_DEVICE = 17
HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT = 0xA002
HSA_AMD_AGENT_INFO_PRODUCT_NAME = 0xA009
HSA_ISA_INFO_NAME_LENGTH = 0
HSA_ISA_INFO_NAME = 1
HSA_AMD_MEMORY_POOL_INFO_SEGMENT = 0
HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS = 1
HSA_AMD_MEMORY_POOL_INFO_SIZE = 2
HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED = 5
HSA_AMD_SEGMENT_GLOBAL = 0
FLAG_KERNARG_INIT, FLAG_FINE_GRAINED, FLAG_COARSE_GRAINED = 1, 2, 4
DEVICE_CPU, DEVICE_GPU = 0, 1

_lock = threading.RLock()
_current = None
_library = None


def library():
    """The bound runtime library (loaded once per process)."""
    global _library
    with _lock:
        if _library is None:
            _library = _lib.Library()
        return _library


class Pool:
    def __init__(self, agent, handle, flags, size):
        self.agent = agent
        self.handle = handle
        self.flags = flags
        self.size = size

    def __repr__(self):
        kinds = [n for b, n in ((FLAG_KERNARG_INIT, "kernarg"), (FLAG_FINE_GRAINED, "fine"),
                                (FLAG_COARSE_GRAINED, "coarse")) if self.flags & b]
        return "<pool %s of %s, %d MiB>" % ("+".join(kinds), self.agent.name, self.size >> 20)


class Agent:
    """An HSA agent (CPU or GPU).  hsalite.agents() lists them."""

    def __init__(self, rt, handle):
        self._rt = rt
        self.handle = handle
        self.name = rt.agent_str(handle, HSA_AGENT_INFO_NAME)
        self.vendor = rt.agent_str(handle, HSA_AGENT_INFO_VENDOR_NAME)
        self.device_type = rt.agent_u32(handle, HSA_AGENT_INFO_DEVICE)
        self.kind = {DEVICE_CPU: "cpu", DEVICE_GPU: "gpu"}.get(self.device_type, "other")
        self.compute_units = rt.agent_u32(handle, HSA_AMD_AGENT_INFO_COMPUTE_UNIT_COUNT, 0)
        self.pools = rt.agent_pools(self)

    @property
    def memory(self):
        """Bytes of the agent's largest allocatable global pool."""
        return max((p.size for p in self.pools), default=0)

    def __repr__(self):
        return "<%s agent %s, %d CUs>" % (self.kind, self.name, self.compute_units)


class Runtime:
    """One hsa_init .. hsa_shut_down."""

    def __init__(self):
        self.lib = library()
        check(self.lib.hsa_init(), "hsa_init")
        self.alive = True
        self._resources = {}  # id -> weakref, insertion order = creation order
        self._res_lock = threading.Lock()
        self.faults = []       # (agent handle, address, reason mask) from the event handler
        self.fault_handler_status = None  # what registering the handler returned
        self.fault_event = threading.Event()
        try:
            freq = ctypes.c_uint64()
            check(self.lib.hsa_system_get_info(HSA_SYSTEM_INFO_TIMESTAMP_FREQUENCY,
                                               ctypes.byref(freq)), "hsa_system_get_info")
            self.timestamp_frequency = freq.value or 1000000000
            self._register_fault_handler()
            self.agents = self._find_agents()
        except BaseException:
            self.alive = False
            self.lib.hsa_shut_down()
            raise
        self.cpu = next((a for a in self.agents if a.kind == "cpu"), None)
        self.gpus = [a for a in self.agents if a.kind == "gpu"]
        self._kernargs = None
        self._signals = None

    # -- faults -----------------------------------------------------------
    def _register_fault_handler(self):
        fn = self.lib.hsa_amd_register_system_event_handler
        if fn is None:
            return
        rt_ref = weakref.ref(self)

        def on_event(event, data):
            rt = rt_ref()
            if rt is None or not event:
                return 1  # HSA_STATUS_INFO_BREAK: not handled
            etype = ctypes.c_uint32.from_address(event).value
            if etype == 0:  # HSA_AMD_GPU_MEMORY_FAULT_EVENT
                agent = ctypes.c_uint64.from_address(event + 8).value
                addr = ctypes.c_uint64.from_address(event + 16).value
                reason = ctypes.c_uint32.from_address(event + 24).value
                rt.faults.append((agent, addr, reason))
                rt.fault_event.set()
            return 0

        # Kept for the life of the process: the runtime may call it until
        # hsa_shut_down and offers no way to unregister it.
        self._fault_cb = _lib.SYSTEM_EVENT_CB(on_event)
        _keep_alive.append(self._fault_cb)
        # A runtime that answers NOT_SUPPORTED (hsalite before system
        # events) still reports faults to the queue callbacks.
        self.fault_handler_status = fn(self._fault_cb, None)

    def fault_for(self, agent_handle):
        for f in self.faults:
            if f[0] == agent_handle:
                return f
        return None

    # -- info helpers -------------------------------------------------------
    def agent_str(self, handle, attr, size=64):
        buf = ctypes.create_string_buffer(size)
        st = self.lib.hsa_agent_get_info(handle, attr, buf)
        return buf.value.decode(errors="replace") if st == 0 else ""

    def agent_u32(self, handle, attr, default=None):
        v = ctypes.c_uint32()
        st = self.lib.hsa_agent_get_info(handle, attr, ctypes.byref(v))
        if st != 0:
            if default is not None:
                return default
            check(st, "hsa_agent_get_info", "attribute 0x%x" % attr)
        return v.value

    def agent_pools(self, agent):
        pools = []
        errors = []

        def visit(pool, data):
            try:
                seg, flags, alloc = ctypes.c_uint32(), ctypes.c_uint32(), ctypes.c_bool()
                size = ctypes.c_size_t()
                g = self.lib.hsa_amd_memory_pool_get_info
                check(g(pool, HSA_AMD_MEMORY_POOL_INFO_SEGMENT, ctypes.byref(seg)),
                      "hsa_amd_memory_pool_get_info")
                if seg.value != HSA_AMD_SEGMENT_GLOBAL:
                    return 0
                check(g(pool, HSA_AMD_MEMORY_POOL_INFO_RUNTIME_ALLOC_ALLOWED, ctypes.byref(alloc)),
                      "hsa_amd_memory_pool_get_info")
                if not alloc.value:
                    return 0
                check(g(pool, HSA_AMD_MEMORY_POOL_INFO_GLOBAL_FLAGS, ctypes.byref(flags)),
                      "hsa_amd_memory_pool_get_info")
                check(g(pool, HSA_AMD_MEMORY_POOL_INFO_SIZE, ctypes.byref(size)),
                      "hsa_amd_memory_pool_get_info")
                pools.append(Pool(agent, _lib.Handle(pool.handle), flags.value, size.value))
            except HSAError as e:
                errors.append(e)
                return 1
            return 0

        cb = _lib.POOL_CB(visit)
        st = self.lib.hsa_amd_agent_iterate_memory_pools(agent.handle, cb, None)
        if errors:
            raise errors[0]
        if st not in (0, 1):
            check(st, "hsa_amd_agent_iterate_memory_pools")
        return pools

    def _find_agents(self):
        handles = []

        def visit(agent, data):
            handles.append(_lib.Handle(agent.handle))
            return 0

        check(self.lib.hsa_iterate_agents(_lib.AGENT_CB(visit), None), "hsa_iterate_agents")
        from ._device import GPU
        out = []
        for h in handles:
            t = self.agent_u32(h, HSA_AGENT_INFO_DEVICE)
            out.append(GPU(self, h) if t == DEVICE_GPU else Agent(self, h))
        return out

    def system_pool(self, flag):
        """The CPU agent's allocatable global pool with this flag (not kernarg)."""
        for p in self.cpu.pools if self.cpu else []:
            if p.flags & flag and (flag == FLAG_KERNARG_INIT or not p.flags & FLAG_KERNARG_INIT):
                return p
        return None

    # -- memory -------------------------------------------------------------
    def allocate(self, pool, nbytes, gpus=()):
        """Allocate from pool and give every GPU in gpus access to it."""
        ptr = ctypes.c_void_p()
        check(self.lib.hsa_amd_memory_pool_allocate(pool.handle, max(int(nbytes), 1), 0,
                                                    ctypes.byref(ptr)),
              "hsa_amd_memory_pool_allocate", "%d bytes from %r" % (nbytes, pool))
        if gpus:
            arr = (_lib.Handle * len(gpus))(*[_lib.Handle(g.handle.handle) for g in gpus])
            st = self.lib.hsa_amd_agents_allow_access(len(gpus), arr, None, ptr)
            if st != 0:
                self.lib.hsa_amd_memory_pool_free(ptr)
                check(st, "hsa_amd_agents_allow_access")
        return ptr.value

    def free(self, ptr):
        if self.alive and ptr:
            self.lib.hsa_amd_memory_pool_free(ptr)

    @property
    def kernargs(self):
        with _lock:
            if self._kernargs is None:
                from ._queue import KernargArena
                self._kernargs = KernargArena(self)
            return self._kernargs

    @property
    def signals(self):
        with _lock:
            if self._signals is None:
                from ._queue import SignalPool
                self._signals = SignalPool(self)
            return self._signals

    # -- resources ------------------------------------------------------------
    def track(self, obj):
        with self._res_lock:
            self._resources[id(obj)] = weakref.ref(obj)

    def untrack(self, obj):
        with self._res_lock:
            self._resources.pop(id(obj), None)

    def ensure_alive(self):
        if not self.alive:
            raise HSAError(0x100B, "hsalite", "the runtime was shut down; this object is dead")

    def shutdown(self):
        if not self.alive:
            return
        # Queues first (their kernels may still use memory), then the rest,
        # newest first.
        with self._res_lock:
            objs = [r() for r in reversed(list(self._resources.values()))]
        objs = [o for o in objs if o is not None]
        from ._queue import Queue
        for o in [o for o in objs if isinstance(o, Queue)] + \
                 [o for o in objs if not isinstance(o, Queue)]:
            try:
                o._release()
            except Exception:
                pass
        for pool in (self._signals, self._kernargs):
            if pool is not None:
                pool.release()
        self.alive = False
        self.lib.hsa_shut_down()


_keep_alive = []


def current(create=True):
    """The live Runtime, created (hsa_init) on first use."""
    global _current
    with _lock:
        if _current is None or not _current.alive:
            if not create:
                return None
            _current = Runtime()
        return _current


def init():
    return current()


def shutdown():
    """Release every object still alive and call hsa_shut_down."""
    global _current
    with _lock:
        rt, _current = _current, None
        if rt is not None:
            rt.shutdown()


atexit.register(shutdown)
