#!/usr/bin/env python3
"""ioctl_diff: the KFD and render-node calls of one program on hsalite beside
those of a peer ROCr, both recorded by kfdemu (KFDEMU_IOCTL_RECORD), and
every difference checked against the explained list (expected.txt).

The same binary runs twice under kfdemu, LD_LIBRARY_PATH choosing the
runtime.  Each record is normalised into a multiset of items:

  * one item per BO: what the GPU and the CPU see of it -- alloc flags,
    size, the GPU it was allocated on, the set of GPUs it was mapped on,
    the protections of its CPU mappings, and what the runtime used it for
    (ring, EOP, context-save area, queue pointers, trap handler code/data):
    "bo VRAM|NO_SUBSTITUTE|EXECUTABLE|WRITABLE 4KiB gpu0 mapped=gpu0 cpu=none
    role=eop";
  * one item per queue (type, GPU, sizes, priority, the memory kind of each
    of its buffers) and per event (type, auto-reset, on the event page);
  * one "left to the kernel at exit" item for each object a runtime did not
    release (the kernel's process teardown does it for it);
  * one item per other call (GET_VERSION, ACQUIRE_VM, SET_TRAP_HANDLER with
    the memory kind of its TBA/TMA, AMDGPU_INFO with its query, an mmap of
    the doorbells, ...), with the fields that matter and none that name an
    address, a handle, an fd or a time;

each tagged with its phase: "open" (before the process's first
ALLOC_MEMORY_OF_GPU: topology, apertures, VMs), "run", or "exit".  Within a
phase the items are compared as multisets: which thread issued a call, and
the order of calls on different objects, follow thread timing and the two
runtimes' structure, not the kernel's contract.  The order the kernel does
fix (alloc, map, unmap, free of one BO; create before destroy) is enforced
by it: a call out of order fails with an errno, and a failed call is part
of its object's item.  Counts are kept (ten 4 KiB GTT BOs are ten items),
except for the calls whose count and even presence follow timing:
WAIT_EVENTS (a wait retried until the GPU is done; a runtime's event thread
may not reach its first wait before shutdown) and SET/RESET_EVENT (set
while a thread waits, or not): these are counted and printed, not compared.

A difference is (phase, item, side, excess count).  expected.txt lists the
explained ones in blocks: comment lines saying why the difference is safe
on silicon (docs/differences.md has the long form), then its entries:

  <program> <phase> <hsalite|peer> <count> | <item>

The test fails on a difference not listed, a listed one that no longer
occurs or occurs with another count, and on any entry in a block whose
comment starts with "UNEXPLAINED".  After a change to hsalite (or to
kfdemu's record), regenerate with

  IOCTL_DIFF_REGEN=1 ctest --test-dir build/asan -R ioctl_diff -V | grep regen:

which rewrites each program's entries: listed ones keep their block (and
reason) with the new count, new ones go to an UNEXPLAINED block, vanished
ones are dropped; then review `git diff test/ioctl_diff/expected.txt`,
explain what is new (and docs/differences.md) or fix it.

Exit 0: pass, 1: fail, 77: the peer's library is missing or the program
skipped.  --show FILE prints the normalised items of a record; --against
DIR compares with another peer (e.g. ROCr 1.18) and prints the differences
without judging them.
"""
import argparse
import collections
import fcntl
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
EXPECTED = os.path.join(HERE, "expected.txt")

ALLOC_TYPES = [(1 << 0, "VRAM"), (1 << 1, "GTT"), (1 << 2, "USERPTR"), (1 << 3, "DOORBELL"),
               (1 << 4, "MMIO_REMAP")]
ALLOC_FLAGS = [(1 << 23, "CONTIGUOUS"), (1 << 24, "EXT_COHERENT"), (1 << 25, "UNCACHED"),
               (1 << 26, "COHERENT"), (1 << 27, "AQL_QUEUE_MEM"), (1 << 28, "NO_SUBSTITUTE"),
               (1 << 29, "PUBLIC"), (1 << 30, "EXECUTABLE"), (1 << 31, "WRITABLE")]
QUEUE_TYPES = {0: "COMPUTE", 1: "SDMA", 2: "COMPUTE_AQL", 3: "SDMA_XGMI", 4: "SDMA_BY_ENG_ID"}
EVENT_TYPES = {0: "SIGNAL", 1: "NODECHANGE", 2: "DEVICESTATECHANGE", 3: "HW_EXCEPTION",
               4: "SYSTEM_EVENT", 5: "DEBUG_EVENT", 6: "PROFILE_EVENT", 7: "QUEUE_EVENT",
               8: "MEMORY"}
MMAP_KFD_TYPES = {3: "doorbell", 2: "events", 1: "reserved", 0: "mmio"}
# AMDGPU_INFO query ids (amdgpu_drm.h) user space sends
INFO_QUERIES = {0x00: "ACCEL_WORKING", 0x01: "CRTC_FROM_ID", 0x02: "HW_IP_INFO",
                0x03: "HW_IP_COUNT", 0x04: "TIMESTAMP", 0x0e: "FW_VERSION",
                0x0f: "NUM_BYTES_MOVED", 0x10: "VRAM_USAGE", 0x11: "GTT_USAGE",
                0x12: "GDS_CONFIG", 0x13: "VRAM_GTT", 0x14: "READ_MMR_REG",
                0x15: "DEV_INFO", 0x16: "VIS_VRAM_USAGE", 0x17: "NUM_EVICTIONS",
                0x18: "MEMORY", 0x19: "VCE_CLOCK_TABLE", 0x1a: "VBIOS", 0x1b: "NUM_HANDLES",
                0x1c: "SENSOR", 0x1d: "VRAM_LOST_COUNTER", 0x1e: "RAS_ENABLED_FEATURES",
                0x1f: "VIDEO_CAPS", 0x20: "MAX_IBS", 0x21: "GPUVM_FAULT"}
# SVM attribute types and flags (kfd_ioctl.h KFD_IOCTL_SVM_ATTR_*, _FLAG_*)
SVM_ATTRS = {0: "PREFERRED_LOC", 1: "PREFETCH_LOC", 2: "ACCESS", 3: "ACCESS_IN_PLACE",
             4: "NO_ACCESS", 5: "SET_FLAGS", 6: "CLR_FLAGS", 7: "GRANULARITY"}
SVM_FLAGS = [(0x1, "HOST_ACCESS"), (0x2, "COHERENT"), (0x4, "HIVE_LOCAL"), (0x8, "GPU_RO"),
             (0x10, "GPU_EXEC"), (0x20, "GPU_READ_MOSTLY"), (0x40, "GPU_ALWAYS_MAPPED"),
             (0x80, "EXT_COHERENT")]
# calls whose count, and even presence, follows thread timing (a runtime's
# event thread may or may not reach its first wait before shutdown wakes it
# with SET_EVENT): counted aside and printed, not compared
TIMING_COUNTED = ("WAIT_EVENTS", "SET_EVENT", "RESET_EVENT")


def size_str(n):
    for unit, name in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if n >= unit and n % unit == 0:
            return "%d%s" % (n // unit, name)
    return "%dB" % n


def flags_str(v, table, rest=True):
    names = [n for bit, n in table if v & bit]
    left = v & ~sum(bit for bit, _ in table)
    if rest and left:
        names.append("0x%x" % left)
    return names


def alloc_flags_str(flags):
    return "|".join(flags_str(flags & 0x1F, ALLOC_TYPES) +
                    flags_str(flags & ~0x1F, ALLOC_FLAGS)) or "0"


def prot_str(p):
    return "".join(c for bit, c in ((1, "r"), (2, "w"), (4, "x")) if p & bit) or "none"


def ret_str(r):
    r = int(r)
    if r >= 0:
        return ""
    import errno
    return " -> -%s" % errno.errorcode.get(-r, str(-r))


class Bo:
    """A BO while the record is replayed.  Its item is what the GPU and the
    CPU see of it: flags, size, the GPUs that map it, the CPU mappings'
    protections and what the runtime uses it for; when it is released is
    counted aside (see Process.close_bo)."""

    def __init__(self, sig, gpu, va, size, mmap_offset, phase):
        self.sig, self.gpu, self.va, self.size = sig, gpu, va, size
        self.mmap_offset, self.phase = mmap_offset, phase
        self.mapped, self.cpu, self.roles, self.errors = set(), set(), set(), []

    def item(self):
        return "bo %s mapped=%s cpu=%s%s%s" % (
            self.sig, ",".join(sorted(self.mapped)) or "-", ",".join(sorted(self.cpu)) or "-",
            " role=" + ",".join(sorted(self.roles)) if self.roles else "",
            "".join(" " + e for e in self.errors))


class Svm:
    """An SVM range set by SET_ATTR: its size, attributes and uses."""

    def __init__(self, va, size, attrs, phase):
        self.va, self.size, self.attrs, self.phase = va, size, attrs, phase
        self.roles = set()

    def item(self):
        return "svm %s %s%s" % (size_str(self.size), self.attrs,
                                " role=" + ",".join(sorted(self.roles)) if self.roles else "")


class Process:
    """The objects of one recorded process while its record is replayed."""

    def __init__(self, gpus):
        self.gpus = gpus          # gpu_id -> "gpuN"
        self.phase = "open"
        self.bos = {}             # handle -> live Bo
        self.svms = []            # Svm ranges, latest last
        self.queues = {}          # queue_id -> [phase, sig, errors]
        self.events = {}          # event_id -> [phase, sig, errors]
        self.items = []           # (phase, item)
        self.timing = collections.Counter()  # TIMING_COUNTED calls

    def gpu(self, gid):
        if gid == 0:
            return "none"   # e.g. GET_CLOCK_COUNTERS for the CPU agent
        return self.gpus.get(gid, "gpu?0x%x" % gid)

    def bo_at(self, addr):
        """The live BO holding GPU (or, for USERPTR, CPU) address addr."""
        for b in self.bos.values():
            if b.va <= addr < b.va + b.size:
                return b
        return None

    def use(self, addr, role):
        """Marks the BO at addr with role; returns its memory kind."""
        if addr == 0:
            return "null"
        b = self.bo_at(addr)
        if not b:
            for r in reversed(self.svms):
                if r.va <= addr < r.va + r.size:
                    r.roles.add(role)
                    return "SVM"
            return "no-bo"
        b.roles.add(role)
        return b.sig.split("|")[0].split(" ")[0]

    def add(self, item):
        self.items.append((self.phase, item))

    def close_bo(self, b, freed):
        """A BO's item at its release: freed by the runtime, or left to the
        kernel at exit (kfd_process_destroy releases it as FREE would)."""
        self.items.append((b.phase, b.item()))
        if not freed:
            self.items.append(("exit", "bo left to the kernel at exit"))

    def finish(self):
        for b in self.bos.values():
            self.close_bo(b, False)
        for r in self.svms:
            self.items.append((r.phase, r.item()))
        for q in self.queues.values():
            self.items.append((q[0], "queue %s%s" % (q[1], "".join(" " + e for e in q[2]))))
            self.items.append(("exit", "queue left to the kernel at exit"))
        for e in self.events.values():
            self.items.append((e[0], "event %s%s" % (e[1], "".join(" " + x for x in e[2]))))
            self.items.append(("exit", "event left to the kernel at exit"))
        self.bos, self.svms, self.queues, self.events = {}, [], {}, {}


def parse_fields(tokens):
    f = {}
    for t in tokens:
        if "=" in t:
            k, v = t.split("=", 1)
            f[k] = v
    return f


def num(f, k):
    return int(f.get(k, "0"), 0)


def replay_kfd(p, name, ret, f):
    r = ret_str(ret)
    failed = int(ret) < 0
    if name == "ALLOC_MEMORY_OF_GPU":
        if p.phase == "open":
            p.phase = "run"
        flags, size = num(f, "flags"), num(f, "size")
        gpu = p.gpu(num(f, "gpu_id"))
        sig = "%s %s %s" % (alloc_flags_str(flags), size_str(size), gpu)
        if failed:
            p.add("ALLOC %s%s" % (sig, r))
            return
        b = Bo(sig, gpu, num(f, "va"), size, num(f, "mmap_offset"), p.phase)
        p.bos[num(f, "handle")] = b
    elif name in ("FREE_MEMORY_OF_GPU", "MAP_MEMORY_TO_GPU", "UNMAP_MEMORY_FROM_GPU"):
        b = p.bos.get(num(f, "handle"))
        devs = [p.gpu(int(d, 0)) if d.startswith("0x") else d
                for d in f.get("devices", "").split(",") if d]
        verb = {"FREE_MEMORY_OF_GPU": "free", "MAP_MEMORY_TO_GPU": "map",
                "UNMAP_MEMORY_FROM_GPU": "unmap"}[name]
        if not b:
            p.add("%s of an unknown handle%s" % (verb, r))
            return
        if failed:
            b.errors.append("%s(%s)%s" % (verb, ",".join(devs), r))
            return
        if name == "MAP_MEMORY_TO_GPU":
            b.mapped.update(devs)
        elif name == "FREE_MEMORY_OF_GPU":
            del p.bos[num(f, "handle")]
            p.close_bo(b, True)
    elif name == "CREATE_QUEUE":
        qt = num(f, "type")
        kind = "sdma" if qt in (1, 3, 4) else "aql"
        sig = "%s %s ring=%s(%s) pct=%d prio=%d eop=%s(%s) wptr=%s rptr=%s ctx_save=%s(%s) " \
              "ctl_stack=%s" % (
                  QUEUE_TYPES.get(qt, str(qt)), p.gpu(num(f, "gpu_id")),
                  size_str(num(f, "ring_size")), p.use(num(f, "ring_base"), kind + "_ring"),
                  num(f, "percentage"), num(f, "priority"), size_str(num(f, "eop_size")),
                  p.use(num(f, "eop"), "eop"), p.use(num(f, "wptr"), kind + "_rwptr"),
                  p.use(num(f, "rptr"), kind + "_rwptr"), size_str(num(f, "ctx_save_size")),
                  p.use(num(f, "ctx_save"), "ctx_save"), size_str(num(f, "ctl_stack_size")))
        if qt == 4:
            sig += " engine=%d" % num(f, "sdma_engine_id")
        if failed:
            p.add("CREATE_QUEUE %s%s" % (sig, r))
            return
        p.queues[num(f, "queue_id")] = [p.phase, sig, []]
    elif name in ("DESTROY_QUEUE", "UPDATE_QUEUE", "SET_CU_MASK", "ALLOC_QUEUE_GWS",
                  "GET_QUEUE_WAVE_STATE"):
        q = p.queues.get(num(f, "queue_id"))
        verb = {"DESTROY_QUEUE": "destroy", "UPDATE_QUEUE": "update",
                "SET_CU_MASK": "cu_mask(%d)" % num(f, "num_cu_mask"),
                "ALLOC_QUEUE_GWS": "gws(%d)" % num(f, "num_gws"),
                "GET_QUEUE_WAVE_STATE": "wave_state"}[name]
        if not q:
            p.add("%s of an unknown queue%s" % (verb, r))
            return
        if name != "DESTROY_QUEUE" or failed:
            q[2].append(verb + r)
        if name == "DESTROY_QUEUE" and not failed:
            del p.queues[num(f, "queue_id")]
            p.items.append((q[0], "queue %s%s" % (q[1], "".join(" " + e for e in q[2]))))
    elif name == "CREATE_EVENT":
        et = num(f, "type")
        sig = "%s auto_reset=%d%s" % (EVENT_TYPES.get(et, str(et)), num(f, "auto_reset"),
                                      " event_page" if num(f, "event_page_offset") else "")
        if failed:
            p.add("CREATE_EVENT %s%s" % (sig, r))
            return
        p.events[num(f, "event_id")] = [p.phase, sig, []]
    elif name == "DESTROY_EVENT":
        e = p.events.get(num(f, "event_id"))
        if not e:
            p.add("destroy of an unknown event%s" % r)
            return
        if failed:
            e[2].append("destroy" + r)
            return
        del p.events[num(f, "event_id")]
        p.items.append((e[0], "event %s%s" % (e[1], "".join(" " + x for x in e[2]))))
    elif name in TIMING_COUNTED:
        # whether and how often a waiter thread waits, and whether a signal
        # is set while one waits (so the runtime sets or resets its event),
        # follows thread timing: counted aside, not compared
        p.timing[name] += 1
    elif name in ("ACQUIRE_VM", "AVAILABLE_MEMORY", "GET_CLOCK_COUNTERS", "GET_TILE_CONFIG"):
        p.add("%s %s%s" % (name, p.gpu(num(f, "gpu_id")), r))
    elif name == "SET_MEMORY_POLICY":
        p.add("SET_MEMORY_POLICY %s default=%d alternate=%d alt_size=%s misc=%d%s" % (
            p.gpu(num(f, "gpu_id")), num(f, "default"), num(f, "alternate"),
            size_str(num(f, "alt_size")), num(f, "misc_flag"), r))
    elif name == "SET_SCRATCH_BACKING_VA":
        p.add("SET_SCRATCH_BACKING_VA %s%s" % (p.gpu(num(f, "gpu_id")), r))
    elif name == "SET_TRAP_HANDLER":
        p.add("SET_TRAP_HANDLER %s tba=%s tma=%s%s" % (p.gpu(num(f, "gpu_id")),
                                                     p.use(num(f, "tba"), "tba"),
                                                     p.use(num(f, "tma"), "tma"), r))
    elif name == "GET_PROCESS_APERTURES_NEW" or name == "GET_PROCESS_APERTURES":
        p.add("%s nodes=%d%s" % (name, num(f, "num_of_nodes"), r))
    elif name == "SET_XNACK_MODE":
        p.add("SET_XNACK_MODE %d%s" % (num(f, "xnack_enabled") if int(ret) >= 0 else -1, r))
    elif name == "RUNTIME_ENABLE":
        p.add("RUNTIME_ENABLE mode=0x%x%s" % (num(f, "mode_mask"), r))
    elif name == "SVM":
        attrs = []
        for a in f.get("attrs", "").split(","):
            if ":" not in a:
                continue
            t, v = (int(x, 0) for x in a.split(":"))
            n = SVM_ATTRS.get(t, str(t))
            if t <= 4:
                v = {0: "sysmem", 0xFFFFFFFF: "undefined"}.get(v) or p.gpu(v)
            elif t == 5:
                v = "|".join(flags_str(v, SVM_FLAGS)) or "0"
            elif t == 6:
                v = "~(%s)" % ("|".join(flags_str(~v & 0xFF, SVM_FLAGS)) or "0")
            attrs.append("%s=%s" % (n, v))
        attrs = " ".join(attrs)
        if num(f, "op") == 0 and not failed:
            p.svms.append(Svm(num(f, "start"), num(f, "size"), attrs, p.phase))
        else:
            p.add("SVM op=%d size=%s %s%s" % (num(f, "op"), size_str(num(f, "size")), attrs, r))
    elif name == "EXPORT_DMABUF":
        b = p.bos.get(num(f, "handle"))
        if b:
            b.roles.add("exported" + r)
        else:
            p.add("EXPORT_DMABUF of an unknown handle" + r)
    else:
        p.add("%s%s" % (name, r))


def replay_mmap(p, who, f):
    off, length, prot = num(f, "off"), num(f, "len"), num(f, "prot")
    r = ret_str(f.get("ret", "0"))
    desc = "len=%s prot=%s%s" % (size_str(length), prot_str(prot),
                                 " fixed" if num(f, "flags") & 0x10 else "")
    if who == "kfd":
        kind = MMAP_KFD_TYPES[off >> 62]
        gid = (off >> 46) & 0xFFFF
        p.add("mmap kfd %s %s %s%s" % (kind, p.gpu(gid) if gid else "-", desc, r))
        return
    # render-node offsets are per device (each GPU's DRM fake-offset space)
    for b in p.bos.values():
        if b.gpu == "gpu" + who and b.mmap_offset <= off < b.mmap_offset + b.size:
            b.cpu.add(prot_str(prot) + r)
            return
    p.add("mmap gpu%s of no BO %s%s" % (who, desc, r))


def normalise(path, timing=None):
    """Record file -> Counter of (phase, item); timing (a Counter) gets the
    TIMING_COUNTED calls."""
    gpus = {}
    procs = collections.OrderedDict()
    for line in open(path):
        t = line.split()
        if len(t) >= 4 and t[1] == "gpu":
            gpus.setdefault(t[0], {})[int(parse_fields(t)["gpu_id"], 0)] = "gpu" + t[2]
            continue
        if len(t) < 5:
            continue
        pid, kind = t[1], t[3]
        if pid not in procs:
            procs[pid] = Process(gpus.get(pid, {}))
        p = procs[pid]
        if kind == "kfd":
            f = parse_fields(t[5:])
            replay_kfd(p, t[4], f.get("ret", "0"), f)
        elif kind == "drm":
            f = parse_fields(t[6:])
            extra = ""
            if t[5] == "AMDGPU_INFO":
                q = num(f, "query")
                extra = " " + INFO_QUERIES.get(q, "0x%x" % q)
            elif t[5] == "AMDGPU_GEM_VA":
                extra = " op=%d flags=0x%x size=%s" % (num(f, "operation"), num(f, "flags"),
                                                       size_str(num(f, "map_size")))
            p.add("drm gpu%s %s%s%s" % (t[4], t[5], extra, ret_str(f.get("ret", "0"))))
        elif kind == "mmap":
            replay_mmap(p, t[4], parse_fields(t[5:]))
        elif kind == "open":
            f = parse_fields(t[5:])
            p.add("open %s%s" % ("kfd" if t[4] == "kfd" else "render gpu" + t[4],
                                 ret_str(f.get("ret", "0"))))
    out = collections.Counter()
    for i, p in enumerate(procs.values()):
        p.finish()
        tag = "" if i == 0 else "process%d " % i
        for phase, item in p.items:
            out[(phase, tag + item)] += 1
        if timing is not None:
            timing.update({tag + k: v for k, v in p.timing.items()})
    return out


def record(args, libdir, out, timing=None):
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = libdir + (":" + env["LD_LIBRARY_PATH"]
                                       if env.get("LD_LIBRARY_PATH") else "")
    env["KFDEMU_IOCTL_RECORD"] = out
    if os.path.exists(out):
        os.remove(out)
    cmd = [args.kfdemu, "--preset", args.preset, "--gpus", str(args.gpus), "--"] + args.program
    res = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=args.timeout)
    sys.stdout.write(res.stdout[-1500:])
    sys.stderr.write(res.stderr[-3000:])
    if res.returncode == 77:
        print("ioctl_diff: %s skipped (77)" % args.program[0])
        sys.exit(77)
    if res.returncode != 0:
        sys.exit("ioctl_diff: %s exited %d on %s" % (args.program[0], res.returncode, libdir))
    if not os.path.exists(out):
        sys.exit("ioctl_diff: no record %s: kfdemu did not write it" % out)
    return normalise(out, timing)


def differences(ours, theirs):
    """{(phase, side, item): excess count}"""
    d = {}
    for key in set(ours) | set(theirs):
        a, b = ours.get(key, 0), theirs.get(key, 0)
        if a > b:
            d[(key[0], "hsalite", key[1])] = a - b
        elif b > a:
            d[(key[0], "peer", key[1])] = b - a
    return d


ENTRY = re.compile(r"^(\S+) (\S+) (hsalite|peer) (\d+) \| (.*)$")


def load_expected(path):
    """-> list of blocks [comment lines, [(program, phase, side, count, item)]]"""
    blocks, cur = [], None
    if not os.path.exists(path):
        return blocks
    for line in open(path):
        line = line.rstrip("\n")
        if not line.strip():
            cur = None
            continue
        if cur is None or (line.startswith("#") and cur[1]):
            cur = [[], []]
            blocks.append(cur)
        if line.startswith("#"):
            cur[0].append(line)
            continue
        m = ENTRY.match(line)
        if not m:
            sys.exit("ioctl_diff: %s: bad line: %s" % (path, line))
        cur[1].append((m.group(1), m.group(2), m.group(3), int(m.group(4)), m.group(5)))
    return blocks


def write_expected(path, blocks):
    with open(path, "w") as fh:
        first = True
        for comments, entries in blocks:
            if not comments and not entries:
                continue
            if not first:
                fh.write("\n")
            first = False
            for c in comments:
                fh.write(c + "\n")
            for e in sorted(entries, key=lambda e: (e[0], e[1], e[2], e[4])):
                fh.write("%s %s %s %d | %s\n" % e)


def unexplained(comments):
    return bool(comments) and comments[0].lstrip("# ").startswith("UNEXPLAINED")


def regenerate(path, program, diff):
    """Rewrites program's entries in path from diff, keeping their blocks."""
    with open(path + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)   # ctest -j runs the programs at once
        blocks = load_expected(path)
        home = {}
        for bi, (_, entries) in enumerate(blocks):
            for e in entries:
                if e[0] == program:
                    home[(e[1], e[2], e[4])] = bi
        had = {bi for bi, b in enumerate(blocks) if b[1]}
        for b in blocks:
            b[1] = [e for e in b[1] if e[0] != program]
        new = []
        for (phase, side, item), n in sorted(diff.items()):
            bi = home.get((phase, side, item))
            e = (program, phase, side, n, item)
            if bi is None:
                new.append(e)
                print("regen: NEW %s %s %s %d | %s" % e)
            else:
                blocks[bi][1].append(e)
        for key in sorted(set(home) - set(diff)):
            print("regen: GONE %s %s %s | %s" % (program, key[0], key[1], key[2]))
        if new:
            blocks.append([["# UNEXPLAINED (%s): new differences: say why each is safe on "
                            "silicon (docs/differences.md) and give them a block, or fix "
                            "hsalite" % program], new])
        # a block whose last entry went is dropped (its reason with it: its
        # docs/differences.md entry may go too); comment-only blocks (the
        # header) stay
        kept = []
        for bi, b in enumerate(blocks):
            if b[1] or (bi not in had and not unexplained(b[0])):
                kept.append(b)
            elif bi in had and b[0]:
                print("regen: EMPTY block dropped: %s" % b[0][0])
        write_expected(path, kept)
        os.remove(path + ".lock")


def check(path, program, diff):
    blocks = load_expected(path)
    want, bad = {}, []
    for comments, entries in blocks:
        for e in entries:
            if e[0] != program:
                continue
            want[(e[1], e[2], e[4])] = e[3]
            if unexplained(comments):
                bad.append("not explained yet: %s %s %d | %s" % (e[1], e[2], e[3], e[4]))
            elif not [c for c in comments if c.strip("# ")]:
                bad.append("listed without a reason: %s %s %d | %s" % (e[1], e[2], e[3], e[4]))
    for key, n in sorted(diff.items()):
        if key not in want:
            bad.append("new difference: %s %s %d | %s" % (key[0], key[1], n, key[2]))
        elif want[key] != n:
            bad.append("count changed: %s %s %d (listed %d) | %s" % (key[0], key[1], n,
                                                                   want[key], key[2]))
    for key, n in sorted(want.items()):
        if key not in diff:
            bad.append("no longer occurs: %s %s %d | %s" % (key[0], key[1], n, key[2]))
    return bad


# --selftest: the normaliser and the verdict on hand-made records (no
# kfdemu, no peer): what must compare equal does, and every way a list can
# stop being true fails.
SELF_A = """\
100 gpu 0 gpu_id=0x2fe5 minor=128
0 100 100 open kfd ret=0
1 100 100 kfd GET_VERSION ret=0 major=0x1 minor=0x11
2 100 100 kfd ACQUIRE_VM ret=0 drm_fd=0x6 gpu_id=0x2fe5
3 100 100 kfd ALLOC_MEMORY_OF_GPU ret=0 va=0x7f0000000000 size=0x1000 handle=0x2fe500000000 \
mmap_offset=0x100000000 gpu_id=0x2fe5 flags=0xd6000004
4 100 101 kfd ALLOC_MEMORY_OF_GPU ret=0 va=0x7f0000100000 size=0x1000 handle=0x2fe500000001 \
mmap_offset=0x100001000 gpu_id=0x2fe5 flags=0xa0000001
5 100 100 kfd MAP_MEMORY_TO_GPU ret=0 handle=0x2fe500000000 devices_ptr=0x1 n_devices=0x1 \
n_success=0x1 devices=0x2fe5
6 100 101 mmap 0 off=0x100001000 len=0x1000 prot=3 flags=0x11 ret=0
7 100 101 kfd MAP_MEMORY_TO_GPU ret=0 handle=0x2fe500000001 devices_ptr=0x2 n_devices=0x1 \
n_success=0x1 devices=0x2fe5
8 100 100 kfd CREATE_QUEUE ret=0 ring_base=0x7f0000000000 wptr=0x7f0000000038 \
rptr=0x7f0000000080 doorbell_offset=0x0 ring_size=0x1000 gpu_id=0x2fe5 type=0x2 percentage=0x64 \
priority=0x7 queue_id=0x0 eop=0x0 eop_size=0x0 ctx_save=0x0 ctx_save_size=0x0 ctl_stack_size=0x0
9 100 102 kfd WAIT_EVENTS ret=0 events_ptr=0x1 num_events=0x1 wait_for_all=0x0 timeout=0x0
10 100 100 kfd DESTROY_QUEUE ret=0 queue_id=0x0
11 100 100 kfd FREE_MEMORY_OF_GPU ret=-16 handle=0x2fe500000000
"""


def selftest():
    import tempfile
    bad = []

    def norm(text):
        with tempfile.NamedTemporaryFile("w", suffix=".rec", delete=False) as fh:
            fh.write(text)
        try:
            return normalise(fh.name)
        finally:
            os.remove(fh.name)

    a = norm(SELF_A)
    want = {("open", "ACQUIRE_VM gpu0"), ("open", "GET_VERSION"), ("open", "open kfd"),
            ("run", "bo USERPTR|UNCACHED|COHERENT|NO_SUBSTITUTE|EXECUTABLE|WRITABLE 4KiB gpu0 "
                    "mapped=gpu0 cpu=- role=aql_ring,aql_rwptr free() -> -EBUSY"),
            ("run", "bo VRAM|PUBLIC|WRITABLE 4KiB gpu0 mapped=gpu0 cpu=rw"),
            ("run", "queue COMPUTE_AQL gpu0 ring=4KiB(USERPTR) pct=100 prio=7 eop=0B(null) "
                    "wptr=USERPTR rptr=USERPTR ctx_save=0B(null) ctl_stack=0B"),
            ("exit", "bo left to the kernel at exit")}
    if set(a) != want:
        bad.append("normalised items %s, wanted %s" % (sorted(a), sorted(want)))
    lines = SELF_A.splitlines()
    # another thread order of the independent calls, other addresses, handles,
    # fds and tids, more event waits: the same items
    moved = [lines[i] for i in (0, 1, 2, 3, 5, 4, 6, 8, 7, 9, 10, 10, 11, 12)]
    moved = "\n".join(moved).replace("0x7f00001", "0x7e00005").replace("drm_fd=0x6", "drm_fd=0x9")
    moved = moved.replace(" 101 ", " 177 ") + "\n"
    if norm(moved) != a:
        bad.append("reordered record normalised differently: %s" % sorted(norm(moved).items()))
    # a second identical BO is a count, and a flag is a difference
    extra = SELF_A + "12 100 100 kfd ALLOC_MEMORY_OF_GPU ret=0 va=0x7f0000200000 size=0x1000 " \
        "handle=0x2fe500000002 mmap_offset=0x100002000 gpu_id=0x2fe5 flags=0xa4000001\n"
    d = differences(norm(extra), a)
    if d != {("run", "hsalite", "bo VRAM|COHERENT|PUBLIC|WRITABLE 4KiB gpu0 mapped=- cpu=-"): 1,
             ("exit", "hsalite", "bo left to the kernel at exit"): 1}:
        bad.append("differences %s" % d)
    # the verdict: listed and equal passes; new, gone, count, unexplained fail
    with tempfile.TemporaryDirectory() as tmp:
        exp = os.path.join(tmp, "expected.txt")
        regenerate(exp, "p", d)
        if not check(exp, "p", d)[0].startswith("not explained yet"):
            bad.append("an UNEXPLAINED block passed")
        blocks = load_expected(exp)
        blocks[0][0] = ["# [why] a reason"]
        write_expected(exp, blocks)
        if check(exp, "p", d):
            bad.append("a listed, explained difference failed: %s" % check(exp, "p", d))
        two = dict(d)
        for k in two:
            two[k] += 1
        if len(check(exp, "p", two)) != 2:
            bad.append("count changes not both reported: %s" % check(exp, "p", two))
        if len(check(exp, "p", {})) != 2:
            bad.append("vanished differences not both reported: %s" % check(exp, "p", {}))
        more = dict(d)
        more[("run", "peer", "GET_VERSION")] = 1
        if check(exp, "p", more) != ["new difference: run peer 1 | GET_VERSION"]:
            bad.append("a new difference not reported: %s" % check(exp, "p", more))
        regenerate(exp, "p", more)
        blocks = load_expected(exp)
        if blocks[0][0] != ["# [why] a reason"] or len(blocks[0][1]) != 2:
            bad.append("regeneration lost a block's reason or entries: %s" % blocks)
    for b in bad:
        print("FAIL: selftest: " + b)
    if not bad:
        print("ioctl_diff: selftest passed")
    return 1 if bad else 0


def show(counter):
    for (phase, item), n in sorted(counter.items()):
        print("%-4s %3d  %s" % (phase, n, item))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kfdemu")
    p.add_argument("--preset", default="mi210")
    p.add_argument("--gpus", type=int, default=1)
    p.add_argument("--hsalite", help="directory of hsalite's library")
    p.add_argument("--peer", default="/usr/lib/x86_64-linux-gnu",
                   help="directory of the peer ROCr's libhsa-runtime64.so.1")
    p.add_argument("--against", help="compare with this runtime directory too (no verdict)")
    p.add_argument("--work", default=".")
    p.add_argument("--name", help="the program's name in expected.txt")
    p.add_argument("--expected", default=EXPECTED)
    p.add_argument("--timeout", type=int, default=280)
    p.add_argument("--show", metavar="RECORD", help="print a record's normalised items")
    p.add_argument("--selftest", action="store_true",
                   help="check the normaliser and the verdict on hand-made records")
    p.add_argument("program", nargs="*")
    args = p.parse_args()
    if args.show:
        show(normalise(args.show))
        return 0
    if args.selftest:
        return selftest()
    if not (args.kfdemu and args.hsalite and args.name and args.program):
        p.error("--kfdemu, --hsalite, --name and a program are needed")
    if not os.path.exists(os.path.join(args.peer, "libhsa-runtime64.so.1")):
        print("ioctl_diff: no ROCr in %s: skipped" % args.peer)
        return 77
    base = os.path.join(args.work, "ioctl_diff_" + args.name)
    t_ours, t_theirs = collections.Counter(), collections.Counter()
    ours = record(args, args.hsalite, base + ".hsalite.rec", t_ours)
    theirs = record(args, args.peer, base + ".peer.rec", t_theirs)
    diff = differences(ours, theirs)
    print("ioctl_diff: %s: hsalite %d items (%d calls recorded), peer %d items (%d), "
          "%d differences" % (args.name, sum(ours.values()),
                              sum(1 for _ in open(base + ".hsalite.rec")),
                              sum(theirs.values()), sum(1 for _ in open(base + ".peer.rec")),
                              len(diff)))
    print("ioctl_diff: not compared (timing): hsalite %s, peer %s" %
          (dict(sorted(t_ours.items())), dict(sorted(t_theirs.items()))))
    if args.against:
        other = record(args, args.against, base + ".against.rec")
        print("ioctl_diff: against %s: %d items" % (args.against, sum(other.values())))
        for (phase, side, item), n in sorted(differences(ours, other).items()):
            print("against: %s %s %d | %s" % (phase, "hsalite" if side == "hsalite" else
                                              "other", n, item))
        return 0
    if os.environ.get("IOCTL_DIFF_REGEN"):
        regenerate(args.expected, args.name, diff)
        print("ioctl_diff: %s rewritten for %s: review git diff" % (args.expected, args.name))
        return 0
    bad = check(args.expected, args.name, diff)
    for b in bad:
        print("FAIL: %s: %s" % (args.name, b))
    if not bad:
        print("ioctl_diff: %s: every difference is explained (%d)" % (args.name, len(diff)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
