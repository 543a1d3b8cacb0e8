"""Kernel metadata from an AMDGPU code object: the NT_AMDGPU_METADATA note.

A code object (ELF64, e_machine EM_AMDGPU) carries one note named "AMDGPU"
of type 32 whose descriptor is a msgpack map (LLVM AMDGPUUsage, "Code
Object V3+ Metadata"): amdhsa.version ([1, 1] for code object v4, [1, 2]
for v5), amdhsa.target, and amdhsa.kernels, one map per kernel with .name,
.symbol, .kernarg_segment_size/_align, .group_segment_fixed_size,
.private_segment_fixed_size, .max_flat_workgroup_size, and .args: one map
per argument with .offset, .size, .value_kind and, for OpenCL, .type_name.
Hidden arguments are arguments whose .value_kind starts with "hidden_".

Every field is checked before use; a malformed file raises ValueError.
"""
import struct

import msgpack

EM_AMDGPU = 224
SHT_NOTE = 7
PT_NOTE = 4
NT_AMDGPU_METADATA = 32


class ArgInfo:
    __slots__ = ("index", "name", "kind", "offset", "size", "type_name",
                 "address_space", "pointee_align", "is_const")

    def __init__(self, index, m):
        self.index = index
        try:
            self.offset = int(m[".offset"])
            self.size = int(m[".size"])
            self.kind = str(m[".value_kind"])
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError("kernel argument %d: bad metadata (%r)" % (index, e)) from None
        self.name = str(m.get(".name", "")) or "arg%d" % index
        self.type_name = m.get(".type_name")
        self.address_space = m.get(".address_space")
        self.pointee_align = int(m.get(".pointee_align", 0) or 0)
        self.is_const = bool(m.get(".is_const", False))

    @property
    def hidden(self):
        return self.kind.startswith("hidden_")

    def __repr__(self):
        t = " %s" % self.type_name if self.type_name else ""
        return "<arg %s%s %s @%d+%d>" % (self.name, t, self.kind, self.offset, self.size)


class KernelInfo:
    """One kernel's metadata."""

    def __init__(self, m, version):
        try:
            self.name = str(m[".name"])
            self.symbol = str(m.get(".symbol", self.name + ".kd"))
            self.kernarg_size = int(m[".kernarg_segment_size"])
            self.kernarg_align = int(m.get(".kernarg_segment_align", 8))
            self.group_size = int(m.get(".group_segment_fixed_size", 0))
            self.private_size = int(m.get(".private_segment_fixed_size", 0))
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError("kernel metadata: missing or bad field (%r)" % (e,)) from None
        self.version = version
        self.max_flat_workgroup_size = int(m.get(".max_flat_workgroup_size", 1024))
        reqd = m.get(".reqd_workgroup_size")
        self.reqd_workgroup_size = tuple(int(x) for x in reqd) if reqd else None
        self.uniform_work_group_size = bool(m.get(".uniform_work_group_size", 0))
        self.uses_dynamic_stack = bool(m.get(".uses_dynamic_stack", False))
        self.wavefront_size = int(m.get(".wavefront_size", 64))
        self.args = [ArgInfo(i, a) for i, a in enumerate(m.get(".args", []) or [])]
        for a in self.args:
            if a.offset < 0 or a.size < 0 or a.offset + a.size > self.kernarg_size:
                raise ValueError("kernel %s: argument %s at %d+%d lies outside the %d-byte "
                                 "kernarg segment" % (self.name, a.name, a.offset, a.size,
                                                      self.kernarg_size))
        self.explicit = [a for a in self.args if not a.hidden]
        self.hidden = [a for a in self.args if a.hidden]

    @property
    def code_object_version(self):
        """4 for metadata 1.1, 5 for 1.2 (v6 is 1.2 too, with a new ELF ABI)."""
        return 5 if tuple(self.version[:2]) >= (1, 2) else 4

    def __repr__(self):
        return "<kernel %s(%s) v%d>" % (self.name, ", ".join(a.name for a in self.explicit),
                                        self.code_object_version)


class CodeObjectInfo:
    def __init__(self, meta):
        try:
            self.version = [int(x) for x in meta["amdhsa.version"]]
            self.target = str(meta.get("amdhsa.target", ""))
            kernels = meta.get("amdhsa.kernels", []) or []
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError("code object metadata: %r" % (e,)) from None
        self.kernels = {}
        for k in kernels:
            info = KernelInfo(k, self.version)
            self.kernels[info.name] = info

    @property
    def gfx(self):
        """'gfx90a' from 'amdgcn-amd-amdhsa--gfx90a:xnack-'."""
        t = self.target.split("--", 1)[-1]
        return t.split(":", 1)[0]


def _notes(data, off, size):
    end = off + size
    while off + 12 <= end:
        namesz, descsz, ntype = struct.unpack_from("<III", data, off)
        off += 12
        name = bytes(data[off:off + namesz]).rstrip(b"\0")
        off += (namesz + 3) & ~3
        if off + descsz > end:
            raise ValueError("truncated ELF note")
        yield name, ntype, data[off:off + descsz]
        off += (descsz + 3) & ~3


def read_metadata(data):
    """The decoded NT_AMDGPU_METADATA map of a code object image (bytes)."""
    data = memoryview(data)
    if len(data) < 64 or bytes(data[:4]) != b"\x7fELF":
        raise ValueError("not an ELF file")
    if data[4] != 2 or data[5] != 1:
        raise ValueError("not a little-endian ELF64 file")
    (e_machine,) = struct.unpack_from("<H", data, 18)
    if e_machine != EM_AMDGPU:
        raise ValueError("not an AMDGPU code object (e_machine %d)" % e_machine)
    e_phoff, e_shoff = struct.unpack_from("<QQ", data, 32)
    e_phentsize, e_phnum, e_shentsize, e_shnum = struct.unpack_from("<HHHH", data, 54)
    ranges = []
    if e_shoff and e_shentsize >= 64:
        for i in range(e_shnum):
            h = e_shoff + i * e_shentsize
            if h + 64 > len(data):
                raise ValueError("section header %d outside the file" % i)
            (sh_type,) = struct.unpack_from("<I", data, h + 4)
            sh_offset, sh_size = struct.unpack_from("<QQ", data, h + 24)
            if sh_type == SHT_NOTE:
                ranges.append((sh_offset, sh_size))
    if not ranges and e_phoff and e_phentsize >= 56:
        for i in range(e_phnum):
            h = e_phoff + i * e_phentsize
            if h + 56 > len(data):
                raise ValueError("program header %d outside the file" % i)
            (p_type,) = struct.unpack_from("<I", data, h)
            p_offset, _, _, p_filesz = struct.unpack_from("<QQQQ", data, h + 8)
            if p_type == PT_NOTE:
                ranges.append((p_offset, p_filesz))
    for off, size in ranges:
        if off + size > len(data):
            raise ValueError("note section outside the file")
        for name, ntype, desc in _notes(data, off, size):
            if name == b"AMDGPU" and ntype == NT_AMDGPU_METADATA:
                try:
                    return msgpack.unpackb(bytes(desc), raw=False, strict_map_key=False)
                except Exception as e:  # msgpack raises several types
                    raise ValueError("NT_AMDGPU_METADATA is not valid msgpack: %s" % e) from None
    raise ValueError("no NT_AMDGPU_METADATA note (code object v2 or v3, or not a code object)")


def parse(data):
    return CodeObjectInfo(read_metadata(data))
