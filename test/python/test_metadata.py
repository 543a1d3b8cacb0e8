"""Metadata parsing and packing rules without a GPU (python_unit)."""
import os
import struct

import msgpack
import pytest

from hsalite import _metadata

CO_DIR = os.environ.get("HSALITE_TEST_CO_DIR", "")


def _elf_with_note(desc, name=b"AMDGPU", ntype=32, machine=224):
    """A minimal ELF64 with one SHT_NOTE section holding one note."""
    note = struct.pack("<III", len(name) + 1, len(desc), ntype) + name + b"\0"
    note += b"\0" * (-len(note) % 4) + desc + b"\0" * (-len(desc) % 4)
    shoff = 64 + len(note)
    ehdr = bytearray(64)
    ehdr[:6] = b"\x7fELF\x02\x01"
    struct.pack_into("<HHI", ehdr, 16, 3, machine, 1)
    struct.pack_into("<QQ", ehdr, 32, 0, shoff)
    struct.pack_into("<HHHH", ehdr, 54, 0, 0, 64, 2)
    null = bytes(64)
    sh = bytearray(64)
    struct.pack_into("<I", sh, 4, 7)
    struct.pack_into("<QQ", sh, 24, 64, len(note))
    return bytes(ehdr) + note + null + bytes(sh)


META = {"amdhsa.version": [1, 2], "amdhsa.target": "amdgcn-amd-amdhsa--gfx942",
        "amdhsa.kernels": [{".name": "k", ".symbol": "k.kd", ".kernarg_segment_size": 24,
                            ".kernarg_segment_align": 8, ".group_segment_fixed_size": 0,
                            ".private_segment_fixed_size": 0,
                            ".args": [{".offset": 0, ".size": 8,
                                       ".value_kind": "global_buffer"},
                                      {".offset": 8, ".size": 4, ".value_kind": "by_value",
                                       ".type_name": "uint"},
                                      {".offset": 16, ".size": 2,
                                       ".value_kind": "hidden_grid_dims"}]}]}


def test_synthetic_v5():
    info = _metadata.parse(_elf_with_note(msgpack.packb(META)))
    assert info.gfx == "gfx942"
    k = info.kernels["k"]
    assert k.code_object_version == 5
    assert [a.kind for a in k.explicit] == ["global_buffer", "by_value"]
    assert [a.kind for a in k.hidden] == ["hidden_grid_dims"]


@pytest.mark.parametrize("mutate", ["magic", "machine", "trunc", "nonote", "badpack", "oob"])
def test_malformed(mutate):
    meta = dict(META)
    desc = msgpack.packb(meta)
    kw = {}
    if mutate == "machine":
        kw["machine"] = 62
    if mutate == "nonote":
        kw["ntype"] = 1
    if mutate == "badpack":
        desc = b"\xc1\xc1\xc1"
    if mutate == "oob":
        m = msgpack.unpackb(desc)
        m["amdhsa.kernels"][0][".args"][1][".offset"] = 100
        desc = msgpack.packb(m)
    data = _elf_with_note(desc, **kw)
    if mutate == "magic":
        data = b"\0" + data[1:]
    if mutate == "trunc":
        data = data[:80]
    with pytest.raises(ValueError):
        _metadata.parse(data)


def test_built_code_objects():
    """The test kernels: v4 from clang-14/19, v5 from clang-19."""
    seen = set()
    for f in sorted(os.listdir(CO_DIR)) if os.path.isdir(CO_DIR) else []:
        if not f.endswith(".co"):
            continue
        with open(os.path.join(CO_DIR, f), "rb") as fh:
            info = _metadata.parse(fh.read())
        ver = int(f.rsplit(".v", 1)[1][:-3])
        gfx = f.split(".")[1]
        assert info.gfx == gfx
        for k in info.kernels.values():
            assert k.code_object_version == ver, (f, k.name)
            assert k.kernarg_size >= sum(a.size for a in k.args)
        seen.add(ver)
    if not seen:
        pytest.skip("no code objects built")
