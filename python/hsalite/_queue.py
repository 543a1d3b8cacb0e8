"""AQL queues, signals, kernarg memory and completions.

Submission follows the HSA spec and docs/writing-kernels.md: reserve a slot
with hsa_queue_add_write_index_scacq_screl, wait until it is free, write the
packet body with the header still INVALID, publish header and setup with one
aligned 32-bit store, ring the doorbell with the slot's index.  The 32-bit
store is a plain ctypes store: on x86-64 (the only architecture hsalite and
kfdemu support) stores are not reordered with earlier stores (TSO), and the
body was written by an earlier, separate C call, so the store has release
semantics with respect to the body.  Submissions on one Queue are serialized
by a lock, so the doorbell values a queue sees only grow.

Waiting never hangs on a dead GPU: a wait sleeps in slices of at most
WAIT_SLICE seconds (hsa_signal_wait_scacquire, BLOCKED) and between slices
checks the queue's error (set by the queue's error callback, which every
Queue installs) and the memory faults the runtime recorded (hsalite:
through the callback; ROCr: through the system event handler, see
_runtime).  Either raises HSAError; an expired timeout raises TimeoutError.
"""
import ctypes
import struct
import threading
import time

from . import _lib
from ._owned import Owned
from ._status import HSAError, check

WAIT_SLICE = 0.05
HSA_SIGNAL_CONDITION_LT = 2
HSA_WAIT_STATE_BLOCKED = 0
HSA_QUEUE_TYPE_MULTI, HSA_QUEUE_TYPE_SINGLE = 0, 1
PACKET_KERNEL_DISPATCH, PACKET_BARRIER_AND = 2, 3
FENCE_SYSTEM = 2
HEADER_BARRIER = 1 << 8
HEADER_FENCES = FENCE_SYSTEM << 9 | FENCE_SYSTEM << 11
DISPATCH_BODY = struct.Struct("<HHHHIIIIIQQQQ")   # bytes 4..63 of the packet
BARRIER_BODY = struct.Struct("<HI5QQQ")          # bytes 2..63


class Signal(Owned):
    """An HSA signal (hsa_signal_create).  ``handle`` is the hsa_signal_t."""

    def __init__(self, rt, value=0, track=True):
        self._rt = rt
        h = _lib.Handle()
        check(rt.lib.hsa_signal_create(int(value), 0, None, ctypes.byref(h)), "hsa_signal_create")
        self.handle = h
        self._tracked = track
        if track:
            rt.track(self)

    @property
    def value(self):
        self._rt.ensure_alive()
        return self._rt.lib.hsa_signal_load_scacquire(self.handle)

    def store(self, value):
        self._rt.ensure_alive()
        self._rt.lib.hsa_signal_store_screlease(self.handle, int(value))

    def wait_lt(self, value, timeout=None, check_errors=None):
        """Wait until the value is below value; False on timeout.

        check_errors() is called between wait slices and may raise.
        """
        rt = self._rt
        rt.ensure_alive()
        deadline = None if timeout is None else time.monotonic() + timeout
        ticks = int(rt.timestamp_frequency * WAIT_SLICE)
        while True:
            v = rt.lib.hsa_signal_wait_scacquire(self.handle, HSA_SIGNAL_CONDITION_LT, int(value),
                                                 ticks, HSA_WAIT_STATE_BLOCKED)
            if v < value:
                return True
            if check_errors is not None:
                check_errors()
            if deadline is not None and time.monotonic() >= deadline:
                return False

    def wait_complete(self, timeout=None, check_errors=None):
        return self.wait_lt(1, timeout, check_errors)

    def abandon(self):
        """Drop the signal without destroying it: something may still write it."""
        if self._tracked:
            self._rt.untrack(self)
        self.handle = None

    def _release(self):
        h, self.handle = self.handle, None
        if h is not None:
            if self._tracked:
                self._rt.untrack(self)
            if self._rt.alive:
                self._rt.lib.hsa_signal_destroy(h)

    close = _release

    def _held(self):
        # an untracked signal belongs to a pool, which releases it
        return self.handle is not None and self._tracked


class SignalPool:
    """Completion signals, reused: creating one per launch costs a syscall."""

    def __init__(self, rt):
        self._rt = rt
        self._free = []
        self._all = []
        self._lock = threading.Lock()

    def get(self):
        with self._lock:
            if self._free:
                s = self._free.pop()
                self._rt.lib.hsa_signal_store_relaxed(s.handle, 1)
                return s
        s = Signal(self._rt, 1, track=False)
        with self._lock:
            self._all.append(s)
        return s

    def put(self, s):
        with self._lock:
            self._free.append(s)

    def release(self):
        with self._lock:
            for s in self._all:
                if s.handle is not None:
                    s._release()
            self._all, self._free = [], []


class KernargArena:
    """Kernarg segments carved from 64 KiB blocks of the kernarg pool."""
    BLOCK = 64 << 10

    def __init__(self, rt):
        from ._runtime import FLAG_KERNARG_INIT
        self._rt = rt
        self._pool = rt.system_pool(FLAG_KERNARG_INIT)
        if self._pool is None:
            raise HSAError(0x1003, "hsalite", "no kernarg pool on the CPU agent")
        self._free = {}   # size class -> [addresses]
        self._blocks = []
        self._lock = threading.Lock()

    @staticmethod
    def size_class(n):
        c = 64
        while c < n:
            c <<= 1
        return c

    def get(self, n):
        c = self.size_class(n)
        with self._lock:
            lst = self._free.setdefault(c, [])
            if not lst:
                size = max(self.BLOCK, c)
                base = self._rt.allocate(self._pool, size, self._rt.gpus)
                self._blocks.append(base)
                lst.extend(range(base, base + size - c + 1, c))
                lst.reverse()
            return lst.pop()

    def put(self, addr, n):
        with self._lock:
            self._free[self.size_class(n)].append(addr)

    def release(self):
        with self._lock:
            for b in self._blocks:
                self._rt.free(b)
            self._blocks, self._free = [], {}


class Queue(Owned):
    """A user-mode AQL queue on one GPU (hsa_queue_create).

    ``dispatch()`` writes a kernel dispatch packet, ``barrier_and()`` a
    BARRIER_AND packet; both return the packet index.  ``error`` is the
    status the runtime reported for this queue (None while healthy);
    ``address`` is the hsa_queue_t* as an integer, for code that writes
    packets itself (``base_address``, ``size``, ``doorbell``).
    """

    def __init__(self, gpu, size=None, multi=True):
        rt = gpu._rt
        self._rt = rt
        self.gpu = gpu
        if size is None:
            size = min(256, gpu.queue_max_size)
        if size <= 0 or size & (size - 1):
            raise ValueError("queue size %d is not a power of two" % size)
        self.error = None
        self.error_time = None
        self._lock = threading.Lock()
        self_ref = _WeakBox(self)

        def on_error(status, queue, data):
            q = self_ref.get()
            if q is not None and q.error is None:
                q.error = status
                q.error_time = time.monotonic()

        self._cb = _lib.QUEUE_ERROR_CB(on_error)
        qp = ctypes.POINTER(_lib.QueueStruct)()
        check(rt.lib.hsa_queue_create(gpu.handle, size,
                                      HSA_QUEUE_TYPE_MULTI if multi else HSA_QUEUE_TYPE_SINGLE,
                                      self._cb, None, 0xFFFFFFFF, 0xFFFFFFFF, ctypes.byref(qp)),
              "hsa_queue_create", "%d packets on %s" % (size, gpu.name))
        self._q = qp
        self.address = ctypes.addressof(qp.contents)
        self.base_address = qp.contents.base_address
        self.size = qp.contents.size
        self.doorbell = _lib.Handle(qp.contents.doorbell_signal.handle)
        self.id = qp.contents.id
        self._mask = self.size - 1
        rt.track(self)

    @property
    def alive(self):
        return self._q is not None

    def check_errors(self):
        """Raise HSAError if the queue or its GPU reported an error."""
        if self.error is not None:
            raise HSAError(self.error, "queue error",
                           "queue %d on %s stopped; create a new one" % (self.id, self.gpu.name))
        f = self._rt.fault_for(self.gpu.handle.handle)
        if f is not None:
            raise HSAError(43, "GPU memory fault",
                           "%s at address 0x%x (reason 0x%x)" % (self.gpu.name, f[1], f[2]))

    def _reserve(self):
        lib = self._rt.lib
        idx = lib.hsa_queue_add_write_index_scacq_screl(self._q, 1)
        spins = 0
        while idx - lib.hsa_queue_load_read_index_scacquire(self._q) >= self.size:
            self.check_errors()
            spins += 1
            time.sleep(0 if spins < 100 else 0.0005)
        return idx

    def _publish(self, idx, body_offset, body, header_word):
        slot = self.base_address + (idx & self._mask) * 64
        ctypes.memmove(slot + body_offset, body, len(body))
        ctypes.c_uint32.from_address(slot).value = header_word  # publishes (see top)
        self._rt.lib.hsa_signal_store_screlease(self.doorbell, idx)

    def dispatch(self, kernel_object, kernarg_address, grid, block, group_segment_size=0,
                 private_segment_size=0, completion_signal=None, barrier=True):
        """Submit one kernel dispatch packet; grid and block are 3-tuples."""
        self._rt.ensure_alive()
        dims = 3 if grid[2] > 1 or block[2] > 1 else 2 if grid[1] > 1 or block[1] > 1 else 1
        body = DISPATCH_BODY.pack(block[0], block[1], block[2], 0, grid[0], grid[1], grid[2],
                                  private_segment_size, group_segment_size, kernel_object,
                                  kernarg_address, 0,
                                  completion_signal.handle.handle if completion_signal else 0)
        header = PACKET_KERNEL_DISPATCH | HEADER_FENCES | (HEADER_BARRIER if barrier else 0)
        with self._lock:
            if self._q is None:
                raise HSAError(0x1007, "hsalite", "the queue was destroyed")
            self.check_errors()
            idx = self._reserve()
            self._publish(idx, 4, body, header | dims << 16)
        return idx

    def barrier_and(self, signals=(), completion_signal=None):
        """Submit a BARRIER_AND packet waiting for up to 5 signals."""
        self._rt.ensure_alive()
        deps = [s.handle.handle if isinstance(s, Signal) else int(s) for s in signals]
        if len(deps) > 5:
            raise ValueError("a barrier packet waits for at most 5 signals")
        deps += [0] * (5 - len(deps))
        body = BARRIER_BODY.pack(0, 0, *deps, 0,
                                 completion_signal.handle.handle if completion_signal else 0)
        header = PACKET_BARRIER_AND | HEADER_FENCES | HEADER_BARRIER
        with self._lock:
            if self._q is None:
                raise HSAError(0x1007, "hsalite", "the queue was destroyed")
            self.check_errors()
            idx = self._reserve()
            self._publish(idx, 2, body, header)
        return idx

    def _release(self):
        with self._lock:
            q, self._q = self._q, None
        if q is not None:
            self._rt.untrack(self)
            if self._rt.alive:
                self._rt.lib.hsa_queue_destroy(q)

    close = _release

    def _held(self):
        return self._q is not None

    def __repr__(self):
        return "<Queue %d on %s, %d packets%s>" % (
            self.id, self.gpu.name, self.size,
            ", error %s" % self.error if self.error is not None else "")


class _WeakBox:
    """A weak reference that the error callback can hold without a cycle."""

    def __init__(self, obj):
        import weakref
        self._ref = weakref.ref(obj)

    def get(self):
        return self._ref()


class Completion:
    """A launched kernel: ``done``, ``wait(timeout)``.

    Holds the kernel's arguments (so arrays are not freed under it), its
    kernarg segment and its completion signal until it has completed.
    """

    def __init__(self, rt, queue, signal, kernarg, kernarg_size, keep):
        self._rt = rt
        self.queue = queue
        self._signal = signal
        self._kernarg = kernarg
        self._kernarg_size = kernarg_size
        self._keep = keep
        self._done = False
        self._lock = threading.Lock()

    def _finish(self):
        # Called once the signal dropped: give back the signal and kernarg.
        with self._lock:
            if self._done:
                return
            self._done = True
            self._rt.signals.put(self._signal)
            self._rt.kernargs.put(self._kernarg, self._kernarg_size)
            self._signal = None
            self._keep = None

    @property
    def done(self):
        """True once the kernel has completed (or its queue has failed)."""
        if self._done:
            return True
        if not self._rt.alive:
            return True
        if self._rt.lib.hsa_signal_load_scacquire(self._signal.handle) < 1:
            self._finish()
            return True
        return self.queue.error is not None or \
            self._rt.fault_for(self.queue.gpu.handle.handle) is not None

    def wait(self, timeout=None):
        """Wait for completion; HSAError on a queue error or GPU fault,
        TimeoutError after timeout seconds (None: no limit, errors still
        end the wait)."""
        if self._done:
            return self
        self._rt.ensure_alive()
        sig = self._signal
        if sig is None:
            return self
        ok = sig.wait_complete(timeout, self.queue.check_errors)
        if not ok:
            raise TimeoutError("kernel did not complete within %s s" % timeout)
        self._finish()
        return self
