#!/usr/bin/env python3
"""gen_api: the build's view of the HSA API table (src/tools, docs/tools.md).

The exported hsa_* functions of the table go through it, as ROCr's do: each
is an assembly trampoline that jumps through its entry, and the entries
start as hsalite's implementations, which the library's sources define
under the name hl_impl_<function>.  One list, the public header
include/hsa/hsa_api_trace.h, says which functions and where:

  names    hl_api_names.h, forced into every source of the library:
           "#define hsa_x hl_impl_hsa_x" for each table function (and each
           deprecated alias hsa.h declares for one: hsa_signal_load_acquire
           is hsa_signal_load_scacquire's entry, as in ROCr's link map);
           hl_api_exports.h: hl_export_<name>, the exported trampoline's
           address under a hidden name a source can still spell (for the
           extension tables hsa_system_get_major_extension_table hands
           out, which ROCr fills with its exported functions).
  tramps   hl_api_trampolines.S, from the built objects: a trampoline for
           each hl_impl_ the objects define, but for the three ROCr keeps
           to the table (TABLE_ONLY), which jumps straight to the entry's
           default while the entry still holds it and through the entry
           once a tool replaced it (below, "The trampoline").  The default
           is hl_impl_<fn>, or hl_default_<fn> where an object defines one
           (the tools module's intercept-queue wrappers); (a function of the table that
           hsalite does not implement stays unexported, its entry answers
           an error: hl_tools_missing_entry, src/tools/table.c), and the
           sub-tables themselves with their first contents, plus a
           read-only copy (hl_api_defaults_<table>) that
           hl_tools_table_reset restores.  The table's reach into every
           module is this generated file's, as src/modules.c's is: the
           tools module itself names no other module's symbol.

Python 3 standard library and binutils' nm only.
"""
import argparse
import os
import re
import subprocess
import sys

# sub-table struct -> (symbol of hsalite's instance, HL_API table tag,
# its version macros; None: version 0, ROCr 1.18's finalizer table when it
# has no finalizer library)
TABLES = [
    ("CoreApiTable", "hl_tools_core", "core", "HSA_CORE_API_TABLE"),
    ("AmdExtTable", "hl_tools_amd_ext", "amd_ext", "HSA_AMD_EXT_API_TABLE"),
    ("FinalizerExtTable", "hl_tools_finalizer", "finalizer", None),
    ("ImageExtTable", "hl_tools_image", "image", "HSA_IMAGE_API_TABLE"),
    ("PcSamplingExtTable", "hl_tools_pc_sampling", "pc_sampling", "HSA_PC_SAMPLING_API_TABLE"),
]
VERSION_BYTES = 16  # struct ApiTableVersion, the first member of each
# Functions of the table that ROCr does not export (5.2.3 and 1.18: "for
# use by tools only"): reached through the table alone, so no trampoline.
TABLE_ONLY = {"hsa_amd_queue_intercept_create", "hsa_amd_queue_intercept_register",
              "hsa_amd_runtime_queue_create_register"}
# functions whose entry starts as the tools module's hl_default_<fn>
# (found in the objects by cmd_tramps)
DEFAULTS = set()
ENTRY_RE = re.compile(r"decltype\((\w+)\)\s*\*\s*(\w+)_fn;")
# deprecated names ROCr exports as aliases of the sc* functions
ALIASES = [("_scacq_screl", "_acq_rel"), ("_scacquire", "_acquire"), ("_screlease", "_release")]


def table_entries(header):
    """[(struct, symbol, tag, function, offset)] in the header's order."""
    text = open(header).read()
    out = []
    for struct, sym, tag, _ in TABLES:
        m = re.search(r"struct %s \{(.*?)\n\};" % struct, text, re.S)
        if not m:
            sys.exit("gen_api: %s: no struct %s" % (header, struct))
        # every entry spelled as ROCr's: tools' generators (roctracer's
        # script/hsaap.py) take the lines starting "decltype(" as the table
        body = m.group(1)
        if body.count("_fn;") != len(ENTRY_RE.findall(body)):
            sys.exit("gen_api: %s: struct %s has entries not spelled decltype(fn) *fn_fn;"
                     % (header, struct))
        for i, (fn, field) in enumerate(ENTRY_RE.findall(body)):
            if fn != field:
                sys.exit("gen_api: %s.%s_fn holds %s" % (struct, field, fn))
            out.append((struct, sym, tag, fn, VERSION_BYTES + 8 * i))
    return out


def aliases(entries, hsa_h):
    """[(alias, entry)] for the deprecated names hsa.h declares."""
    declared = set(re.findall(r"\b(hsa_\w+)\s*\(", open(hsa_h).read()))
    out = []
    for e in entries:
        for new, old in ALIASES:
            if e[3].endswith(new):
                alias = e[3][: -len(new)] + old
                if alias in declared:
                    out.append((alias, e))
                break
    return out


def write_if_changed(path, text):
    try:
        if open(path).read() == text:
            return
    except OSError:
        pass
    open(path, "w").write(text)


def cmd_names(args):
    entries = table_entries(args.header)
    lines = ["/* Generated by src/tools/gen_api.py from hsa_api_trace.h: forced into",
             " * every source of the library, so each function of the HSA API table",
             " * is defined and called inside it as hl_impl_<name>; the exported name",
             " * is the trampoline that jumps through the table. */",
             "#ifndef HL_API_NAMES_H", "#define HL_API_NAMES_H"]
    for e in entries:
        lines.append("#define %s hl_impl_%s" % (e[3], e[3]))
    for alias, _ in aliases(entries, args.hsa_h):
        lines.append("#define %s hl_impl_%s" % (alias, alias))
    lines.append("#endif")
    write_if_changed(args.names, "\n".join(lines) + "\n")
    exports = ["/* Generated by src/tools/gen_api.py: the exported trampolines under",
               " * hidden names (hl_api_trampolines.S defines them at the same address). */",
               "#ifndef HL_API_EXPORTS_H", "#define HL_API_EXPORTS_H",
               "#include <hsa/hsa_api_trace.h>"]
    for e in entries:
        if e[3] not in TABLE_ONLY:
            exports.append("extern __typeof__(hl_impl_%s) hl_export_%s "
                           "__attribute__((visibility(\"hidden\")));" % (e[3], e[3]))
    exports.append("#endif")
    write_if_changed(args.exports, "\n".join(exports) + "\n")


def defined_impls(objects):
    """({fn: hl_impl_ defined}, {fn: hl_default_ defined})."""
    out, defaults = set(), set()
    for i in range(0, len(objects), 64):
        res = subprocess.run(["nm", "-P", "--defined-only", *objects[i:i + 64]],
                             capture_output=True, text=True)
        if res.returncode:
            sys.exit("gen_api: nm: " + res.stderr.strip())
        for line in res.stdout.splitlines():
            parts = line.split()
            if len(parts) >= 2 and parts[1] in "Tt" and parts[0].startswith("hl_impl_"):
                out.add(parts[0][len("hl_impl_"):])
            elif len(parts) >= 2 and parts[1] in "Tt" and parts[0].startswith("hl_default_"):
                defaults.add(parts[0][len("hl_default_"):])
    return out, defaults


def default_of(fn):
    """The symbol an entry starts as: the tools' wrapper, or hsalite's function."""
    return ("hl_default_" if fn in DEFAULTS else "hl_impl_") + fn


def versions(header):
    """{MACRO: value} of hsa_api_trace_version.h, beside the header."""
    path = os.path.join(os.path.dirname(header), "hsa_api_trace_version.h")
    return {m: int(v, 0) for m, v in
            re.findall(r"#define\s+(\w+)\s+(0x[0-9a-fA-F]+|\d+)\b", open(path).read())}


def table_data(entries, have):
    """The sub-tables' first contents, then their read-only copies."""
    ver = versions(ARGS.header)
    out = []
    for copy in ("", "defaults"):
        out.append("\t.section .data.rel.ro,\"aw\"" if copy else "\t.data")
        for struct, sym, tag, macro in TABLES:
            mine = [e for e in entries if e[2] == tag]
            name = "hl_api_defaults_" + tag if copy else sym
            size = VERSION_BYTES + 8 * len(mine)
            out += ["\t.globl %s" % name, "\t.hidden %s" % name, "\t.p2align 3",
                    "\t.type %s, @object" % name, "\t.size %s, %d" % (name, size), "%s:" % name]
            major = ver[macro + "_MAJOR_VERSION"] if macro else 0
            step = ver[macro + "_STEP_VERSION"] if macro else 0
            out.append("\t.long %d, %d, %d, 0" % (major, size if macro else 0, step))
            for e in mine:
                out.append("\t.quad %s" % (default_of(e[3]) if e[3] in have
                                              else "hl_tools_missing_entry"))
    return out


# The trampoline.  ROCr's exported function calls through its entry
# (coreApiTable->fn(...)), and so could hsalite's: one `jmp *entry`.  But
# an indirect jump is predicted per branch site from recent history, and a
# submit makes three of them (reserve, read index, doorbell) right after a
# wait, when that history is gone: measured on this host, the submit's
# p50 went from ~80 to ~100 ns with the table (docs/benchmarks.md, "The
# tools table").  So the trampoline first compares the entry with the
# function it started as (its default): equal (no tool), a direct jump,
# whose target the decoder knows; else the indirect one.  Both read
# the entry with a plain load, as the single jump did: a tool that swaps
# an entry while another thread calls it gets the old or the new function
# for that call (ROCr's entries are plain pointers too).  %r11 is the
# scratch register no argument uses (SysV ABI: caller-saved, not a
# parameter register), so the arguments reach the function untouched.
def trampoline(name, e):
    impl = default_of(e[3])
    entry = "%s+%d(%%rip)" % (e[1], e[4])
    return ["\tleaq %s(%%rip), %%r11" % impl,
            "\tcmpq %%r11, %s" % entry,
            "\tjne 1f",
            "\tjmp %s" % impl,
            "1:\tjmp *%s" % entry]


def cmd_tramps(args):
    global DEFAULTS
    entries = table_entries(args.header)
    have, DEFAULTS = defined_impls(args.objects)
    stray = DEFAULTS - have
    if stray:
        sys.exit("gen_api: hl_default_ without its hl_impl_: " + ", ".join(sorted(stray)))
    tramps = [(e[3], e) for e in entries if e[3] in have and e[3] not in TABLE_ONLY]
    tramps += [(a, e) for a, e in aliases(entries, args.hsa_h) if a in have]
    lines = ["/* Generated by src/tools/gen_api.py: the exported functions of the HSA",
             " * API table, each a jump to its entry's function (src/tools/table.c",
             " * holds the table; a tool may have replaced the entry): direct while",
             " * the entry is hsalite's own, indirect through it once it is not",
             " * (gen_api.py, \"The trampoline\").  The arguments are untouched: the",
             " * jump lands in the entry's function as if called. */",
             "\t.text"]
    lines.append("\t.hidden hl_tools_missing_entry")
    for impl in sorted(set(default_of(e[3]) for _, e in tramps)):
        lines.append("\t.hidden %s" % impl)
    for name, e in tramps:
        lines += ["\t.globl %s" % name, "\t.type %s, @function" % name, "\t.p2align 4"]
        if name == e[3]:
            lines += ["\t.globl hl_export_%s" % name, "\t.hidden hl_export_%s" % name,
                      "\t.type hl_export_%s, @function" % name, "hl_export_%s:" % name]
        lines += ["%s:" % name] + trampoline(name, e) + ["\t.size %s, .-%s" % (name, name)]
    lines += table_data(entries, have)
    lines.append('\t.section .note.GNU-stack,"",@progbits')
    write_if_changed(args.out, "\n".join(lines) + "\n")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--header", required=True, help="include/hsa/hsa_api_trace.h")
    p.add_argument("--hsa-h", required=True, help="include/hsa/hsa.h")
    sub = p.add_subparsers(dest="cmd", required=True)
    n = sub.add_parser("names")
    n.add_argument("--names", required=True)
    n.add_argument("--exports", required=True)
    t = sub.add_parser("tramps")
    t.add_argument("--out", required=True)
    t.add_argument("objects", nargs="+")
    global ARGS
    ARGS = args = p.parse_args()
    cmd_names(args) if args.cmd == "names" else cmd_tramps(args)


if __name__ == "__main__":
    main()
