#!/usr/bin/env python3
# isa_table.py — the generated instruction table (isa_table.tsv): every
# instruction form LLVM's disassembler accepts for gfx90a and gfx942, and
# what the interpreter does with it.
#
#   sweep   (slow, needs llvm-mc-19 and llvm-objdump-19): every opcode value
#           of every encoding, in a few operand variants, through
#           `llvm-mc-19 --disassemble --mcpu=<target>`; each (encoding,
#           opcode) keeps the first variant that decodes to exactly one
#           instruction of that length.  VOP1/VOP2/VOPC opcodes are also
#           tried in their SDWA and DPP forms (rows VOP1_SDWA, VOP2_DPP,
#           ...).  Then the interpreter is asked about each row's words
#           (kfdemu-isa-probe) and the test kernels are disassembled to
#           mark which mnemonics the isa suites run.  Writes the table.
#   update  re-asks the interpreter for every row and rewrites the interp
#           and state columns (no LLVM needed; run it after implementing
#           instructions, then commit the table).
#   check   (the ctest isa_table_current): fails when the committed
#           interp column is not what the interpreter answers now.
#   forms   (slow, needs llvm-mc-19): the forms beyond the table's one per
#           opcode: each bit of each row's first two words flipped in turn
#           (keeping the encoding), the ones llvm-mc-19 decodes asked of
#           the interpreter; prints those it refuses, grouped by
#           mnemonic, leaving out the not-modelled mnemonics and the
#           decodes LLVM itself marks "Invalid register".  Not a table
#           column: a form is a modifier or operand kind of a row.
#   usage   FILE...: the AMDGPU code objects inside each file (a .co, or
#           any binary or library that embeds them, e.g. a HIP fat binary)
#           are disassembled with llvm-objdump-19, and every mnemonic the
#           table does not list as implemented is printed with its count:
#           what a library would stop on under kfdemu.
#
# Columns: target, encoding, opcode (hex, the encoding's own field), the
# mnemonic LLVM prints, the words probed, interp (yes/no: the interpreter
# executes it), tested (yes: the mnemonic appears in a kernel the isa test
# suites run and check; -: not seen there), and state: "implemented+tested",
# "implemented", "not implemented", or "not modelled: <reason>" for what
# needs hardware kfdemu does not model (NOT_MODELLED below).
#
# Usage:
#   isa_table.py sweep  --probe BUILD/emu/isa/kfdemu-isa-probe --kernels BUILD/test/isa/kernels [--table T]
#   isa_table.py update --probe ... [--table T]
#   isa_table.py check  --probe ... [--table T]
#   isa_table.py usage  [--table T] FILE...
import argparse
import collections
import glob
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_TABLE = os.path.join(HERE, "isa_table.tsv")
TARGETS = ("gfx90a", "gfx942")
MARKER = 0xB0000000  # s_movk_i32 s0, <index>: separates the candidates (disassemble)
COLUMNS = ("target", "encoding", "opcode", "mnemonic", "words", "interp", "tested", "state")

# Instructions the interpreter does not execute because kfdemu has no such
# hardware; matched against the mnemonic, first match wins.
NOT_MODELLED = [
    (r"^exp$", "export to the graphics pipeline: kfdemu models compute queues only"),
    (r"^v_interp_", "pixel-shader attribute interpolation: no graphics pipeline"),
    (r"^s_ttracedata", "thread trace: no SQ thread-trace unit"),
    (r"^s_cbranch_cdbg", "debugger-mode branches: no debug trap handler"),
    (r"^ds_ordered_count$", "ordered count (GDS ordered append): no GDS ordering unit"),
    (r"^s_endpgm_ordered_ps_done$", "pixel-shader ordered export: no graphics pipeline"),
    (r"^v_screen_partition_4se", "graphics screen partitioning across shader engines: no graphics pipeline"),
    (r"^s_atc_probe", "ATC (IOMMU address translation cache) probe: kfdemu models no ATC"),
    (r"^v_clrexcp", "clears the SIMD's float exception state; kfdemu raises no float exceptions (MODE.EXCP_EN, TRAPSTS.EXCP[6:0] are not modelled)"),
]

# Encodings: name -> (opcode count, function(op) -> list of word lists).
# Register fields use v0/v2/v4/s[4:...] so 64-bit and wider operands are
# aligned; each variant list goes from the common operand shape to rarer
# ones (a zero source, the GDS bit, the AGPR bits, ...).
def _sop2(op):
    return [[(2 << 30) | (op << 23) | (4 << 16) | (2 << 8) | s0] for s0 in (0, 4)]

def _sopk(op):
    return [[(0xB << 28) | (op << 23) | (4 << 16) | 0x10], [(0xB << 28) | (op << 23) | (4 << 16)],
            [(0xB << 28) | (op << 23) | (4 << 16) | 0x10, 0x12345678]]

def _sop1(op):
    return [[(0x17D << 23) | (4 << 16) | (op << 8) | s] for s in (2, 0, 4)]

def _sopc(op):
    return [[(0x17E << 23) | (op << 16) | (2 << 8) | s] for s in (0, 4)]

def _sopp(op):
    return [[(0x17F << 23) | (op << 16) | k] for k in (0, 1)]

def _smem(op):
    return [[(0x30 << 26) | (op << 18) | (imm << 17) | (4 << 6) | 2, off]
            for imm in (1, 0) for off in (0x10, 0)] + \
           [[(0x30 << 26) | (op << 18) | (1 << 17) | (0 << 6) | 0, 0]]

def _vop2(op):
    return [[(op << 25) | (4 << 17) | (2 << 9) | s0] for s0 in (0x100, 0x101, 0)] + \
           [[(op << 25) | (4 << 17) | (2 << 9) | 0x100, 0x3F800000]]

def _vop1(op):
    return [[(0x3F << 25) | (4 << 17) | (op << 9) | s0] for s0 in (0x102, 0x100, 0)] + \
           [[(0x3F << 25) | (op << 9)]]

def _vopc(op):
    return [[(0x3E << 25) | (op << 17) | (2 << 9) | s0] for s0 in (0x100, 0x102, 0)]

def _vop3(op):
    return [[(0x34 << 26) | (op << 16) | 4, (s2 << 18) | (s1 << 9) | s0]
            for s0 in (0x100, 0) for s2 in (0, 0x104) for s1 in (0x102, 0)]

def _vop3p(op):
    # the assembler's defaults first: OP_SEL_HI 1 for the sources an op has
    # (hi2: source 2), no clamp; for MFMA the same bits are CBSZ/ABID (0)
    # and the A/B-in-AGPR flags
    v = []
    for cl in (0, 1):
        for s2 in (0x104, 0):
            for h, hi2 in ((3, 0), (3, 1), (0, 0), (0, 1)):
                v.append([(0x1A7 << 23) | (op << 16) | (cl << 15) | (hi2 << 14) | 4,
                          (s2 << 18) | (0x102 << 9) | 0x100 | (h << 27)])
    # one source (v_accvgpr_read/write_b32 a/v operand)
    v.append([(0x1A7 << 23) | (op << 16) | (1 << 14) | 4, (3 << 27) | 0x102])
    # MFMA: A/B/C in VGPRs or AGPRs (acc bits), wider C/D tuples
    for acc in (0, 1):
        for ab in (0, 3):
            v.append([(0x1A7 << 23) | (op << 16) | (acc << 15) | 0,
                      (ab << 27) | (0x110 << 18) | (0x104 << 9) | 0x100])
    return v

def _ds(op):
    return [[(0x36 << 26) | (op << 17) | (g << 16), (d << 24) | (c << 16) | (b << 8) | a]
            for g in (0, 1) for a in (2, 0) for b in (4, 0) for c in (6, 0) for d in (8, 0)]

def _flat(seg):
    def f(op):
        return [[(0x37 << 26) | (op << 18) | (seg << 14) | (lds << 13),
                 (v << 24) | (s << 16) | (d << 8) | a]
                for lds in (0, 1) for d in (4, 0) for v in (8, 0) for s in (0x7F, 0, 2)
                for a in (0, 2)]
    return f

def _mubuf(op):
    # the cache operations (buffer_wbl2, buffer_wbinvl1_vol, ...) have no
    # operands at all; gfx942's take SC1 (bit 15)
    return [[(0x38 << 26) | (op << 18) | (lds << 16) | (1 << 12), (0x80 << 24) | (1 << 16) | (d << 8) | 2]
            for lds in (0, 1) for d in (4, 0)] + \
           [[(0x38 << 26) | (op << 18) | (sc1 << 15), 0] for sc1 in (0, 1)]

def _mtbuf(op):
    return [[(0x3A << 26) | (nfmt << 23) | (dfmt << 19) | (op << 15) | (1 << 12),
             (0x80 << 24) | (1 << 16) | (4 << 8) | 2]
            for dfmt in (4, 1, 14) for nfmt in (7, 4, 0)]

def _mimg(op):
    return [[(0x3C << 26) | (op << 18) | (unorm << 12) | (dmask << 8),
             (ssamp << 21) | (1 << 16) | (d << 8) | 8]
            for dmask in (0xF, 1) for unorm in (1, 0) for ssamp in (3, 0) for d in (0, 4)]

def _exp(op):
    return [[(0x31 << 26) | (op << 4) | 0xF, 0x03020100]] if op == 0 else []

def _sdwa(base):
    def f(op):
        out = []
        for ws in base(op):
            w0 = (ws[0] & ~0x1FF) | 0xF9
            for sd in (0x06060602, 0x06060002, 0x06000002, 0x00060602, 0x00061602):
                out.append([w0, sd])
        return out
    return f

def _dpp(base):
    def f(op):
        out = []
        for ws in base(op):
            w0 = (ws[0] & ~0x1FF) | 0xFA
            # row_newbcast:0 first: the one control 64-bit DPP takes
            for dp in (0xFF015002, 0xFF00E402, 0xFF010102, 0xFF013002):
                out.append([w0, dp])
        return out
    return f

ENCODINGS = collections.OrderedDict([
    ("SOP2", (128, _sop2)), ("SOPK", (32, _sopk)), ("SOP1", (256, _sop1)),
    ("SOPC", (128, _sopc)), ("SOPP", (128, _sopp)), ("SMEM", (256, _smem)),
    ("VOP2", (64, _vop2)), ("VOP1", (256, _vop1)), ("VOPC", (256, _vopc)),
    ("VOP3", (1024, _vop3)), ("VOP3P", (128, _vop3p)), ("DS", (256, _ds)),
    ("FLAT", (128, _flat(0))), ("SCRATCH", (128, _flat(1))), ("GLOBAL", (128, _flat(2))),
    ("MUBUF", (128, _mubuf)), ("MTBUF", (16, _mtbuf)), ("MIMG", (128, _mimg)),
    ("EXP", (1, _exp)),
    ("VOP2_SDWA", (64, _sdwa(_vop2))), ("VOP1_SDWA", (256, _sdwa(_vop1))),
    ("VOPC_SDWA", (256, _sdwa(_vopc))),
    ("VOP2_DPP", (64, _dpp(_vop2))), ("VOP1_DPP", (256, _dpp(_vop1))),
    ("VOPC_DPP", (256, _dpp(_vopc))),
])

def classify(w0):
    """The encoding the hardware sees in the first dword (the interpreter's
    classify() in isa_decode.c, from the same field layout); a candidate
    of one encoding whose opcode bits spill into another's is dropped."""
    if w0 >> 31 == 0:
        return {0x3F: "VOP1", 0x3E: "VOPC"}.get(w0 >> 25, "VOP2")
    top9 = w0 >> 23
    if top9 == 0x17F:
        return "SOPP"
    if top9 == 0x17E:
        return "SOPC"
    if top9 == 0x17D:
        return "SOP1"
    if w0 >> 28 == 0xB:
        return "SOPK"
    if w0 >> 30 == 2:
        return "SOP2"
    if top9 == 0x1A7:
        return "VOP3P"
    top6 = w0 >> 26
    if top6 == 0x37:
        return {0: "FLAT", 1: "SCRATCH", 2: "GLOBAL"}.get((w0 >> 14) & 3, "?")
    return {0x30: "SMEM", 0x34: "VOP3", 0x36: "DS", 0x38: "MUBUF", 0x3A: "MTBUF",
            0x3C: "MIMG", 0x31: "EXP"}.get(top6, "?")

def _tool(names):
    for n in names:
        for d in os.environ.get("PATH", "").split(os.pathsep):
            p = os.path.join(d, n)
            if os.access(p, os.X_OK):
                return p
    sys.exit("isa_table.py: none of %s found" % ", ".join(names))

def _line(ws):
    return " ".join("0x%02x" % ((w >> (8 * i)) & 0xFF) for w in ws for i in range(4))

def disassemble(mc, target, cands):
    """cands: list of word lists; returns, per candidate, the instruction
    text when the words decode to exactly one instruction of exactly that
    length, else None.  llvm-mc reads its input as one byte stream, so each
    candidate is followed by two markers, s_movk_i32 s0, <index>: a
    candidate that takes a literal swallows the first one (and is then
    rejected by its length), the second still separates it from the next."""
    lines = []
    for i, ws in enumerate(cands):
        mk = _line([MARKER | (i & 0xFFFF)])
        lines += [_line(ws), mk, mk]
    r = subprocess.run([mc, "-triple=amdgcn-amd-amdhsa", "-mcpu=" + target, "--disassemble",
                        "-show-encoding"],
                       input="\n".join(lines) + "\n", capture_output=True, text=True)
    bad = set()
    for m in re.finditer(r"^<stdin>:(\d+):\d+: warning", r.stderr, re.M):
        bad.add((int(m.group(1)) - 1) // 3)
    got = [[] for _ in cands]
    marks = [0] * len(cands)
    cur = 0
    for l in r.stdout.splitlines():
        l = l.strip()
        if not l or l.startswith("."):
            continue
        m = re.match(r"^s_movk_i32 s0, (0x[0-9a-f]+|-?\d+)\s*;", l)
        if m:
            k = int(m.group(1), 0) & 0xFFFF
            # the index of the candidate this marker follows (batches are
            # smaller than 65536, so it is unique near cur)
            idx = cur - (cur & 0xFFFF) + k
            marks[idx] += 1
            cur = idx + 1
            continue
        if cur < len(got):
            got[cur].append(l)
    res = []
    for i, ws in enumerate(cands):
        text = None
        if i not in bad and marks[i] == 2 and len(got[i]) == 1:
            enc = re.search(r"encoding: \[([^\]]*)\]", got[i][0])
            if enc and len(enc.group(1).split(",")) == 4 * len(ws):
                text = got[i][0].split(";")[0].strip()
        res.append(text)
    return res

def sweep_target(mc, target):
    """[(encoding, opcode, mnemonic, words)] for one target."""
    cands, where = [], []
    for enc, (count, gen) in ENCODINGS.items():
        for op in range(count):
            for ws in gen(op):
                if classify(ws[0]) != enc.split("_")[0]:
                    continue
                cands.append(ws)
                where.append((enc, op))
    names = []
    step = 4000
    for i in range(0, len(cands), step):
        names += disassemble(mc, target, cands[i:i + step])
    best = collections.OrderedDict()
    for (enc, op), ws, text in zip(where, cands, names):
        if text is None or (enc, op) in best:
            continue
        mnem = text.split()[0]
        # SDWA/DPP sweeps keep only the forms LLVM prints as such
        if enc.endswith("_SDWA") and not mnem.endswith("_sdwa"):
            continue
        if enc.endswith("_DPP") and not mnem.endswith("_dpp"):
            continue
        best[(enc, op)] = (mnem, ws)
    return [(enc, op, m, ws) for (enc, op), (m, ws) in best.items()]

def tested_mnemonics(objdump, kdir):
    seen = set()
    for co in sorted(glob.glob(os.path.join(kdir, "*.co"))):
        r = subprocess.run([objdump, "-d", co], capture_output=True, text=True)
        for l in r.stdout.splitlines():
            m = re.match(r"^\s+([a-z_0-9]+)\b", l)
            if m:
                seen.add(m.group(1))
    return seen

def code_objects(path):
    """The gfx90a/gfx942 ELF images inside a file: each "\\x7fELF" with
    e_machine EM_AMDGPU (224) and EF_AMDGPU_MACH 0x3f (gfx90a) or 0x4c
    (gfx942), cut at the end of its section header table."""
    import struct
    data = open(path, "rb").read()
    out, pos = [], 0
    while True:
        pos = data.find(b"\x7fELF\x02\x01", pos)
        if pos < 0:
            return out
        hdr = data[pos:pos + 64]
        if len(hdr) == 64 and struct.unpack_from("<H", hdr, 18)[0] == 224:
            shoff, = struct.unpack_from("<Q", hdr, 40)
            flags, = struct.unpack_from("<I", hdr, 48)
            shentsize, shnum = struct.unpack_from("<HH", hdr, 58)
            end = shoff + shentsize * shnum
            if 0 < end <= len(data) - pos:
                if flags & 0xFF in (0x3F, 0x4C):
                    out.append(data[pos:pos + end])
                pos += end
                continue
        pos += 4

def usage(objdump, table, files):
    state = {}
    for r in read_table(table):
        state.setdefault(r["mnemonic"], set()).add(r["state"].split(":")[0])
    import tempfile
    counts = collections.Counter()
    ncos = 0
    for f in files:
        for co in code_objects(f):
            ncos += 1
            with tempfile.NamedTemporaryFile(suffix=".co") as tmp:
                tmp.write(co)
                tmp.flush()
                r = subprocess.run([objdump, "-d", tmp.name], capture_output=True, text=True)
            for l in r.stdout.splitlines():
                m = re.match(r"^\s+([a-z_0-9]+)\b", l)
                if m:
                    counts[m.group(1)] += 1
    print("%d code objects, %d distinct mnemonics" % (ncos, len(counts)))
    for mnem, n in counts.most_common():
        st = state.get(mnem)
        if st is None:
            print("%8d  %-40s not in the table" % (n, mnem))
        elif not (st & {"implemented", "implemented+tested"}):
            print("%8d  %-40s %s" % (n, mnem, "/".join(sorted(st))))
    return 0

def probe(tool, rows):
    inp = "".join("%s %s\n" % (r["target"], r["words"]) for r in rows)
    r = subprocess.run([tool], input=inp, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("isa_table.py: %s failed: %s" % (tool, r.stderr.strip()))
    ans = r.stdout.split("\n")
    return ["yes" if ans[i].split()[0] == "1" else "no" for i in range(len(rows))]

def state_of(row):
    if row["interp"] == "yes":
        return "implemented+tested" if row["tested"] == "yes" else "implemented"
    for pat, why in NOT_MODELLED:
        if re.search(pat, row["mnemonic"]):
            return "not modelled: " + why
    return "not implemented"

def read_table(path):
    rows = []
    with open(path) as f:
        for l in f:
            if l.startswith("#") or not l.strip():
                continue
            parts = l.rstrip("\n").split("\t")
            if parts[0] == "target":
                continue
            rows.append(dict(zip(COLUMNS, parts)))
    return rows

def write_table(path, rows):
    summary = collections.OrderedDict()
    for r in rows:
        k = (r["target"], r["state"].split(":")[0])
        summary[k] = summary.get(k, 0) + 1
    with open(path, "w") as f:
        f.write("# isa_table.tsv — GENERATED by emu/isa/isa_table.py (sweep/update); do not edit.\n")
        f.write("# Every instruction form llvm-mc-19 decodes for gfx90a and gfx942, and its state\n")
        f.write("# in kfdemu's interpreter (see isa_table.py for the columns).\n")
        for t in TARGETS:
            parts = ["%s %d" % (s, n) for (tt, s), n in sorted(summary.items()) if tt == t]
            f.write("# %s: %s\n" % (t, ", ".join(parts)))
        f.write("\t".join(COLUMNS) + "\n")
        for r in rows:
            f.write("\t".join(r[c] for c in COLUMNS) + "\n")

def forms(mc, tool, rows):
    refused = collections.OrderedDict()
    total = 0
    for target in TARGETS:
        cands, meta = [], []
        for r in rows:
            if r["target"] != target or r["state"].startswith("not modelled"):
                continue
            ws = [int(x, 16) for x in r["words"].split()]
            for wi in range(min(2, len(ws))):
                for b in range(32):
                    w2 = list(ws)
                    w2[wi] ^= 1 << b
                    if classify(w2[0]) == classify(ws[0]):
                        cands.append(w2)
                        meta.append("w%d bit %d" % (wi, b))
        texts = []
        for i in range(0, len(cands), 20000):
            texts += disassemble(mc, target, cands[i:i + 20000])
        ok = [(c, m, t) for c, m, t in zip(cands, meta, texts)
              if t and "Invalid register" not in t
              and not any(re.search(p, t.split()[0]) for p, _ in NOT_MODELLED)]
        lines = "".join("%s %s\n" % (target, " ".join("%08x" % w for w in c)) for c, _, _ in ok)
        r = subprocess.run([tool], input=lines, capture_output=True, text=True)
        if r.returncode:
            sys.exit("isa_table.py: %s failed: %s" % (tool, r.stderr.strip()))
        for (c, m, t), ans in zip(ok, r.stdout.split("\n")):
            if ans.split()[0] != "1":
                refused.setdefault((target, t.split()[0]), []).append("%s: %s" % (m, t.split(";")[0].strip()))
                total += 1
    for (target, mnem), l in refused.items():
        print("%s %s (%d): %s" % (target, mnem, len(l), l[0]))
    print("%d forms refused (%d mnemonics)" % (total, len(refused)))
    return 0

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=("sweep", "update", "check", "usage", "forms"))
    ap.add_argument("--probe", help="the kfdemu-isa-probe executable")
    ap.add_argument("files", nargs="*", help="usage: files holding code objects")
    ap.add_argument("--kernels", help="directory of the built isa test kernels (sweep)")
    ap.add_argument("--table", default=DEFAULT_TABLE)
    a = ap.parse_args()

    if a.mode == "usage":
        return usage(_tool(["llvm-objdump-19"]), a.table, a.files)
    if not a.probe:
        sys.exit("isa_table.py: %s needs --probe" % a.mode)
    if a.mode == "forms":
        return forms(_tool(["llvm-mc-19"]), a.probe, read_table(a.table))
    if a.mode == "sweep":
        mc = _tool(["llvm-mc-19"])
        objdump = _tool(["llvm-objdump-19"])
        seen = tested_mnemonics(objdump, a.kernels) if a.kernels else set()
        rows = []
        for t in TARGETS:
            for enc, op, mnem, ws in sweep_target(mc, t):
                rows.append({"target": t, "encoding": enc, "opcode": "0x%x" % op,
                             "mnemonic": mnem, "words": " ".join("%08x" % w for w in ws),
                             "tested": "yes" if mnem in seen else "-"})
        for r, v in zip(rows, probe(a.probe, rows)):
            r["interp"] = v
            r["state"] = state_of(r)
        write_table(a.table, rows)
        return 0
    rows = read_table(a.table)
    if not rows:
        sys.exit("isa_table.py: %s has no rows" % a.table)
    now = probe(a.probe, rows)
    if a.mode == "update":
        for r, v in zip(rows, now):
            r["interp"] = v
            r["state"] = state_of(r)
        write_table(a.table, rows)
        return 0
    stale = [(r, v) for r, v in zip(rows, now) if r["interp"] != v]
    for r, v in stale[:40]:
        print("stale: %s %s %s %s: table says interp=%s, the interpreter says %s"
              % (r["target"], r["encoding"], r["opcode"], r["mnemonic"], r["interp"], v))
    if stale:
        print("%d rows stale: run `emu/isa/isa_table.py update --probe <kfdemu-isa-probe>` and commit"
              % len(stale))
        return 1
    print("isa_table.tsv: %d rows, interp column current" % len(rows))
    return 0

if __name__ == "__main__":
    sys.exit(main())
