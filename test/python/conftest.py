"""Fixtures for the Python package's tests: the GPU and the test code
objects (<kernel>.<gfx>.v<N>.co in $HSALITE_TEST_CO_DIR, built by
test/python/CMakeLists.txt)."""
import os

import pytest

CO_DIR = os.environ.get("HSALITE_TEST_CO_DIR", "")


@pytest.fixture(scope="session")
def hsalite_mod():
    import hsalite
    yield hsalite
    hsalite.shutdown()


@pytest.fixture(scope="session")
def gpu(hsalite_mod):
    gpus = hsalite_mod.gpus()
    if not gpus:
        pytest.skip("no GPU agent (run under kfdemu)")
    g = gpus[0]
    g.default_timeout = 120.0  # a launch that does not complete fails the test
    return g


def co_path(name, gfx, version):
    return os.path.join(CO_DIR, "%s.%s.v%d.co" % (name, gfx, version))


def _module(gpu, name, version):
    path = co_path(name, gpu.gfx, version)
    if not os.path.exists(path):
        pytest.skip("%s not built (no compiler for it)" % path)
    return gpu.load(path)


@pytest.fixture(scope="session", params=[4, 5], ids=["v4", "v5"])
def args_mod(request, gpu):
    m = _module(gpu, "args", request.param)
    yield m
    m.close()


@pytest.fixture(scope="session", params=[4, 5], ids=["v4", "v5"])
def hip_mod(request, gpu):
    m = _module(gpu, "hip_args", request.param)
    yield m
    m.close()
