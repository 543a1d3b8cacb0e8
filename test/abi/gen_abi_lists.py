#!/usr/bin/env python3
"""Generate the item lists the ABI test compares.

Reads the ROCr headers installed by Debian (libhsa-runtime-dev, ROCm 5.2.3)
through the C preprocessor, so that enumerators built by macros such as
AMD_HSA_BITS_CREATE_ENUM_ENTRIES are seen expanded, and writes:

  abi_consts.h  ITEM_CONST(name)  every enumerator and integer #define
  abi_layout.h  ITEM_SIZE(type), ITEM_ALIGN(type) for every typedef and
                ITEM_OFFSET(type, member) for every member of every struct
  abi_funcs.h   ITEM_FUNC(name)   every function declared
  abi_elf.h     the same ITEM_* kinds for amd_hsa_elf.h, which ROCr writes
                as C++ only (namespace ELF), so it is compared from C++

It also writes ../status/status_list.h, STATUS(name) for every status code
(HSA_STATUS_*, HSA_EXT_STATUS_*) that OUR headers define, for the
hsa_status_string test.

Run it again (python3 test/abi/gen_abi_lists.py) when the reference
headers or ours change, and commit the output.
"""
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
THEIRS = "/usr/include/hsa"
OURS = os.path.join(ROOT, "include", "hsa")

# The headers a ROCr 5.2 client includes; hsa_api_trace.h, Brig.h and the
# aqlprofile header are out of scope.
HEADERS = [
    "hsa.h", "hsa_ext_amd.h", "hsa_ext_image.h", "hsa_ext_finalize.h",
    "hsa_ven_amd_loader.h", "amd_hsa_common.h", "amd_hsa_queue.h",
    "amd_hsa_signal.h", "amd_hsa_kernel_code.h",
]
# Structs that carry their own size and may only grow (the caller sets
# .size; the runtime writes nothing past it): their size is not compared,
# every 5.2.3 member's offset still is.  hsa_amd_pointer_info_t grew from
# 56 to 64 bytes with interface 1.18's alloc_flags (abi_newest pins 64).
GROWABLE = {"hsa_amd_pointer_info_t"}
# Function declarations are compared for these (the task's scope).
FUNC_HEADERS = ["hsa.h", "hsa_ext_amd.h", "hsa_ven_amd_loader.h"]


def preprocess(directory, header, lang="c"):
    """Return the text of `header` (macro-expanded, comments gone) and the
    #defines it makes, excluding everything it includes."""
    path = os.path.join(directory, header)
    std = "-std=gnu11" if lang == "c" else "-std=gnu++17"
    out = subprocess.run(
        ["gcc", "-E", "-dD", "-x", lang, std, "-I", os.path.dirname(directory), path],
        check=True, capture_output=True, text=True).stdout
    keep, current = [], None
    for line in out.splitlines():
        m = re.match(r'^# \d+ "([^"]+)"', line)
        if m:
            current = os.path.realpath(m.group(1))
            continue
        if current == os.path.realpath(path):
            keep.append(line)
    return "\n".join(keep)


def split_top(text, sep):
    """Split on sep outside (), {} and []."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "({[":
            depth += 1
        elif ch in ")}]":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return parts


def matching_brace(text, start):
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i
    raise ValueError("unbalanced braces")


def strip_attributes(text):
    while True:
        m = re.search(r"__attribute__\s*\(\(", text)
        if not m:
            return text
        depth, i = 0, m.start() + len("__attribute__")
        while True:
            if text[i] == "(":
                depth += 1
            elif text[i] == ")":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        text = text[:m.start()] + " " + text[i + 1:]


def declarator_name(decl):
    """Name declared by one member/typedef declaration."""
    decl = decl.strip()
    m = re.search(r"\(\s*\*\s*(\w+)\s*\)\s*\(", decl)
    if m:
        return m.group(1)
    decl = re.sub(r"\[[^\]]*\]\s*$", "", decl).strip()
    decl = re.sub(r"\[[^\]]*\]\s*$", "", decl).strip()
    m = re.search(r"(\w+)\s*$", decl)
    return m.group(1) if m else None


def struct_members(body):
    names = []
    for decl in split_top(body, ";"):
        decl = decl.strip()
        if not decl:
            continue
        inner = re.match(r"^(?:__extension__\s+)?(?:union|struct)\s*(\w+\s*)?\{", decl)
        if inner:
            brace = decl.index("{")
            end = matching_brace(decl, brace)
            tail = decl[end + 1:].strip()
            if tail:  # a named nested aggregate: its own name is the member
                names.append(declarator_name(tail))
            else:  # anonymous: its members are members of the outer struct
                names.extend(struct_members(decl[brace + 1:end]))
            continue
        for d in split_top(decl, ","):
            # int a, b; -> the first declarator carries the type
            name = declarator_name(d)
            if name:
                names.append(name)
    return names


def drop_namespaces(text):
    """C++ namespace blocks become plain text (the ELF header's enums)."""
    while True:
        m = re.search(r"\bnamespace\s+\w+\s*\{", text)
        if not m:
            return re.sub(r"\benum\s*:\s*\w+\s*\{", "enum {", text)
        end = matching_brace(text, m.end() - 1)
        text = text[:m.start()] + text[m.end():end] + text[end + 1:]


def parse(text, any_define=False):
    """Enumerators, defines (integer literals, or any object-like macro with
    a value if any_define), typedef names, struct members, functions."""
    defines = []
    body_lines = []
    for line in text.splitlines():
        m = re.match(r"^#define\s+(\w+)\s+(\(?-?(?:0[xX][0-9a-fA-F]+|\d+)[uUlL]*\)?)\s*$", line)
        if not m and any_define:
            m = re.match(r"^#define\s+(\w+)\s+([^\s\"].*)$", line)
        if m:
            defines.append(m.group(1))
        elif not line.startswith("#"):
            body_lines.append(line)
    text = strip_attributes("\n".join(body_lines))

    enums, typedefs, structs, funcs = [], [], [], []
    for stmt in split_top(text, ";"):
        stmt = " ".join(stmt.split())
        if not stmt:
            continue
        if "{" in stmt:
            brace = stmt.index("{")
            end = matching_brace(stmt, brace)
            head, body, tail = stmt[:brace], stmt[brace + 1:end], stmt[end + 1:].strip()
            if re.search(r"\benum\b", head):
                for entry in split_top(body, ","):
                    m = re.match(r"\s*(\w+)", entry)
                    if m:
                        enums.append(m.group(1))
            elif re.search(r"\bstruct\b", head) and head.strip().startswith("typedef") and tail:
                structs.append((tail, struct_members(body)))
            if head.strip().startswith("typedef") and tail:
                typedefs.append(tail)
            continue
        if stmt.startswith("typedef"):
            name = declarator_name(stmt)
            if name:
                typedefs.append(name)
            continue
        m = re.match(r"^(.*?)\b(\w+)\s*\(", stmt)
        if m and not stmt.startswith(("struct ", "enum ")):
            funcs.append(m.group(2))
    return enums, defines, typedefs, structs, funcs


def write(path, lines, what):
    with open(path, "w") as f:
        f.write("/* Generated by test/abi/gen_abi_lists.py from %s; do not edit. */\n" % what)
        f.writelines(line + "\n" for line in lines)


def main():
    consts, layout, funcs = [], [], []
    seen = set()
    for h in HEADERS:
        enums, defines, typedefs, structs, fns = parse(preprocess(THEIRS, h))
        for name in enums + defines:
            if name not in seen:
                seen.add(name)
                consts.append("ITEM_CONST(%s) /* %s */" % (name, h))
        members = dict(structs)
        for t in typedefs:
            if t not in GROWABLE:
                layout.append("ITEM_SIZE(%s)" % t)
            layout.append("ITEM_ALIGN(%s)" % t)
            for m in members.get(t, []):
                layout.append("ITEM_OFFSET(%s, %s)" % (t, m))
        if h in FUNC_HEADERS:
            funcs.extend("ITEM_FUNC(%s)" % f for f in fns)
    write(os.path.join(HERE, "abi_consts.h"), consts, "Debian's /usr/include/hsa")
    write(os.path.join(HERE, "abi_layout.h"), layout, "Debian's /usr/include/hsa")
    write(os.path.join(HERE, "abi_funcs.h"), funcs, "Debian's /usr/include/hsa")

    elf = []
    text = drop_namespaces(preprocess(THEIRS, "amd_hsa_elf.h", "c++"))
    enums, defines, typedefs, structs, _ = parse(text, any_define=True)
    elf += ["ITEM_CONST(%s)" % n for n in enums + defines if n != "AMD_HSA_ELF_H"]
    members = dict(structs)
    for t in typedefs:
        elf += ["ITEM_SIZE(%s)" % t, "ITEM_ALIGN(%s)" % t]
        elf += ["ITEM_OFFSET(%s, %s)" % (t, m) for m in members.get(t, [])]
    write(os.path.join(HERE, "abi_elf.h"), elf, "Debian's /usr/include/hsa/amd_hsa_elf.h")

    statuses = []
    for h in HEADERS:
        enums = parse(preprocess(OURS, h))[0]
        statuses += ["STATUS(%s)" % e for e in enums
                     if re.match(r"^HSA_(EXT_)?STATUS_", e) and "STATUS(%s)" % e not in statuses]
    write(os.path.join(ROOT, "test", "status", "status_list.h"), statuses, "include/hsa")
    print("%d constants, %d layout items, %d functions, %d ELF items, %d statuses"
          % (len(consts), len(layout), len(funcs), len(elf), len(statuses)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
