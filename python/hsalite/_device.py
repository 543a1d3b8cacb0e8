"""The GPU agent: facts, arrays, code objects, queues."""
import ctypes
import os
import threading

import numpy as np

from . import _lib
from ._runtime import (Agent, HSA_AGENT_INFO_PROFILE, HSA_AGENT_INFO_QUEUE_MAX_SIZE,
                       HSA_AGENT_INFO_WAVEFRONT_SIZE, HSA_AGENT_INFO_WORKGROUP_MAX_SIZE,
                       HSA_AMD_AGENT_INFO_PRODUCT_NAME, HSA_ISA_INFO_NAME,
                       HSA_ISA_INFO_NAME_LENGTH, FLAG_COARSE_GRAINED)
from ._status import check


class GPU(Agent):
    """A GPU agent.  hsalite.gpus() lists them.

    Facts: ``name``, ``gfx`` ('gfx90a'), ``isa`` (the full ISA name),
    ``compute_units``, ``memory`` (VRAM bytes), ``product_name``,
    ``wavefront_size``.  ``default_timeout`` (seconds, None = no limit)
    bounds launches that wait.
    """

    def __init__(self, rt, handle):
        super().__init__(rt, handle)
        self.isa = self._isa_name()
        self.gfx = self.isa.split("--", 1)[-1].split(":", 1)[0]
        self.product_name = rt.agent_str(handle, HSA_AMD_AGENT_INFO_PRODUCT_NAME)
        self.wavefront_size = rt.agent_u32(handle, HSA_AGENT_INFO_WAVEFRONT_SIZE)
        self.workgroup_max_size = rt.agent_u32(handle, HSA_AGENT_INFO_WORKGROUP_MAX_SIZE)
        self.queue_max_size = rt.agent_u32(handle, HSA_AGENT_INFO_QUEUE_MAX_SIZE)
        self.profile = rt.agent_u32(handle, HSA_AGENT_INFO_PROFILE)
        t = os.environ.get("HSALITE_TIMEOUT")
        self.default_timeout = float(t) if t else None
        self._queue = None
        self._qlock = threading.Lock()
        self._copies = None

    @property
    def memory(self):
        return sum(p.size for p in self.pools if p.flags & FLAG_COARSE_GRAINED)

    def _isa_name(self):
        lib = self._rt.lib
        names = []

        def visit(isa, data):
            n = ctypes.c_uint32()
            if lib.hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME_LENGTH, ctypes.byref(n)) == 0:
                buf = ctypes.create_string_buffer(n.value + 1)
                if lib.hsa_isa_get_info_alt(isa, HSA_ISA_INFO_NAME, buf) == 0:
                    names.append(buf.value.decode())
            return 1 if names else 0  # the first ISA is the agent's own

        st = lib.hsa_agent_iterate_isas(self.handle, _lib.ISA_CB(visit), None)
        if st not in (0, 1):
            check(st, "hsa_agent_iterate_isas")
        return names[0] if names else ""

    @property
    def copies(self):
        """The copy engine used for device arrays (hsalite._memory)."""
        if self._copies is None:
            from ._memory import select_copies
            self._copies = select_copies(self)
        return self._copies

    # -- arrays -----------------------------------------------------------------
    def empty(self, shape, dtype=np.float32):
        """An uninitialised device array."""
        from ._memory import DeviceArray
        self._rt.ensure_alive()
        return DeviceArray(self, shape, dtype)

    def zeros(self, shape, dtype=np.float32):
        a = self.empty(shape, dtype)
        return a.copy_from_host(np.zeros(a.shape, a.dtype))

    def to_device(self, a):
        """A device array holding a copy of the host array a."""
        a = np.asarray(a)
        return self.empty(a.shape, a.dtype).copy_from_host(a)

    def host_empty(self, shape, dtype=np.float32):
        """A host-pinned array every GPU can access (see HostArray)."""
        from ._memory import HostArray
        self._rt.ensure_alive()
        return HostArray(self._rt, shape, dtype)

    # -- code -------------------------------------------------------------------
    def load(self, source):
        """Load a code object (a path, '{gfx}' replaced by this GPU's, or bytes)."""
        from ._kernel import Module
        self._rt.ensure_alive()
        return Module(self, source)

    # -- queues and signals ---------------------------------------------------------
    def queue(self, size=None, multi=True):
        """A new AQL queue on this GPU."""
        from ._queue import Queue
        self._rt.ensure_alive()
        return Queue(self, size, multi)

    def default_queue(self):
        """The queue launches use unless given one; replaced after an error."""
        with self._qlock:
            q = self._queue
            if q is None or not q.alive or q.error is not None:
                if q is not None:
                    q.close()
                self._queue = q = self.queue()
            return q

    def signal(self, value=0):
        from ._queue import Signal
        self._rt.ensure_alive()
        return Signal(self._rt, value)

    def __repr__(self):
        return "<GPU %s (%s), %d CUs, %d MiB>" % (self.name, self.product_name or self.isa,
                                                  self.compute_units, self.memory >> 20)
