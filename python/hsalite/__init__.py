"""hsalite: run AMDGPU code objects on numpy data through the HSA runtime.

A pure-Python (ctypes) binding of the standard HSA API, so it drives
hsalite's libhsa-runtime64.so.1 and ROCr's alike::

    import numpy as np, hsalite
    gpu = hsalite.gpus()[0]
    a = gpu.to_device(np.arange(n, dtype=np.float32))
    c = gpu.empty(n, np.float32)
    vadd = gpu.load("vadd.{gfx}.co").kernel("vadd")
    vadd(a, a, c, np.uint32(n), grid=n, block=64)
    print(c.copy_to_host())

See docs/python.md.
"""
# The project's version (CMakeLists.txt project(VERSION)); python/pyproject.toml
# says the same, and python/CMakeLists.txt checks the three agree.
__version__ = "0.1.0"

from ._device import GPU
from ._kernel import Kernel, LocalMemory, Module, Pointer
from ._memory import DeviceArray, HostArray
from ._queue import Completion, Queue, Signal
from ._runtime import Agent, current as _current, shutdown
from ._status import STATUS_NAMES, HSAError, status_name
from . import _metadata as metadata

__all__ = ["Agent", "Completion", "DeviceArray", "GPU", "HSAError", "HostArray", "Kernel",
           "LocalMemory", "Module", "Pointer", "Queue", "STATUS_NAMES", "Signal", "agents",
           "cpu", "gpus", "init", "library_path", "metadata", "session", "shutdown",
           "status_name"]


def init():
    """hsa_init now (otherwise it happens on first use); returns nothing."""
    _current()


def agents():
    """Every HSA agent, CPU and GPU, in the runtime's order."""
    return list(_current().agents)


def gpus():
    """The GPU agents."""
    return list(_current().gpus)


def cpu():
    """The (first) CPU agent."""
    return _current().cpu


def library_path():
    """The file of the loaded libhsa-runtime64.so.1."""
    return _current().lib.path


class session:
    """``with hsalite.session():`` init on entry, release all and shut down on exit."""

    def __enter__(self):
        init()
        return self

    def __exit__(self, *exc):
        shutdown()
