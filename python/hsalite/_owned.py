"""The lifetime every runtime-owned object shares: released once, by its own
close() or free(), a with block, the runtime's shutdown or the collector.

A subclass keeps its runtime in ``_rt`` and defines ``_release()`` (idempotent:
it drops its handle first) and ``_held()`` (true while there is something to
release).  __del__ releases only while the runtime is alive: after shutdown
the runtime has freed everything it tracked, and the library may be gone.
"""


class Owned:
    def _held(self):
        raise NotImplementedError

    def _release(self):
        raise NotImplementedError

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._release()

    def __del__(self):
        try:
            if self._held() and self._rt.alive:
                self._release()
        except Exception:
            pass
