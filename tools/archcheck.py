#!/usr/bin/env python3
"""archcheck: the layering rules of the tree, checked from its #include lines
(and, given built objects, from the calls between them).

A folder is src/<module>, emu/<part>, include/hsa or common/<x> (a file
directly under src/ or emu/ is in the folder "src" or "emu").  The rules
(docs/architecture.md, STYLE.md "The folder tells the architecture"):

  cycle    no circle of edges between folders: every folder-to-folder edge
           that lies on such a circle is reported ("cycle A -> B");
  emu-src  no file under emu/ includes anything under src/: what both sides
           of the syscall boundary need lives in common/ ("emu-src
           emu/<part> -> src/<file>");
  private  no file includes another folder's private header, *_priv.h
           ("private <folder> -> <header>").

An edge is an #include resolved as the build resolves it (the including
file's directory, then the include paths of its side of the tree, then
common/ and include/; a name found nowhere is a system header and is
skipped).  With --objects BUILD_DIR, an undefined symbol of a built object
of src/ or emu/ that another folder's object defines is an edge too (a call
with no include, such as a weak symbol); symbols libc defines are left out,
so the shim's interposed libc names are not taken for calls.

Known violations that a branch is removing are listed in an allowlist, one
a line, each naming its branch in a trailing comment:

    cycle emu/cp -> emu/kfd    # emu-floor: the GPU floor removes it

The check fails (exit 1) on a violation not on the list, and on a listed
one that no longer exists (so the list cannot rot: empty it as branches
merge).  Exit 2: bad arguments or a malformed allowlist.  Python 3 standard
library only.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

SCANNED = ("src", "emu", "include", "common")
SOURCE_EXT = (".c", ".h", ".inc")
EVIDENCE_SHOWN = 8  # lines of evidence printed per new violation
INCLUDE_RE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def folder_of(rel):
    """The folder a tree-relative path belongs to."""
    parts = rel.split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0]


def side_roots(root, side):
    """Include directories the build gives one side of the tree, in order:
    src/ for the runtime; emu/ and each emu/<part> (the parts export their
    own directories) for the emulator; include/ and its hsa/ for the public
    headers; common/."""
    dirs = [side]
    if side == "emu":
        base = os.path.join(root, "emu")
        if os.path.isdir(base):
            dirs += sorted("emu/" + d for d in os.listdir(base)
                           if os.path.isdir(os.path.join(base, d)))
    if side == "include":
        dirs.append("include/hsa")
    return dirs


def collect_files(root):
    files = []
    for top in SCANNED:
        base = os.path.join(root, top)
        for dirpath, dirnames, names in os.walk(base):
            dirnames.sort()
            for n in sorted(names):
                if n.endswith(SOURCE_EXT):
                    full = os.path.join(dirpath, n)
                    files.append(os.path.relpath(full, root).replace(os.sep, "/"))
    return files


def include_edges(root, files):
    """(from file, to file, line) for every include that resolves inside
    the scanned tree."""
    roots = {side: side_roots(root, side) for side in SCANNED}
    fileset = set(files)
    edges = []
    for f in files:
        side = f.split("/")[0]
        # own side first, then the shared headers, then the other side
        # (where the build would not look: found there means a violation)
        order = roots[side] + roots["common"] + roots["include"]
        order += [d for s in SCANNED if s != side for d in roots[s] if d not in order]
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            for lineno, line in enumerate(fh, 1):
                m = INCLUDE_RE.match(line)
                if not m:
                    continue
                kind, name = m.groups()
                cands = ([os.path.dirname(f)] if kind == '"' else []) + order
                for d in cands:
                    target = os.path.normpath(os.path.join(d, name)).replace(os.sep, "/")
                    if target in fileset:
                        edges.append((f, target, lineno))
                        break
    return edges


def libc_symbols():
    """The names the C library defines (the shim's interposed entry points
    share them: a call to one is a call into libc, not into the shim)."""
    libs = sorted(glob.glob("/lib/*/libc.so.6") + glob.glob("/usr/lib/*/libc.so.6") +
                  glob.glob("/lib64/libc.so.6"))
    names = set()
    for lib in libs[:1]:
        out = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True,
                             text=True, check=False).stdout
        names = {ln.split()[-1].split("@")[0] for ln in out.splitlines() if ln.strip()}
    return names


def object_edges(root, build):
    """(from file, to file, symbol) from the built objects of src/ and emu/:
    <build>/<dir>/CMakeFiles/<target>.dir/<rel>.o is the object of
    <dir>/<rel>."""
    objs = {}
    for dirpath, _, names in os.walk(build):
        for n in names:
            if not n.endswith(".o"):
                continue
            full = os.path.join(dirpath, n)
            rel = os.path.relpath(full, build).replace(os.sep, "/")
            m = re.match(r"(.*?)/?CMakeFiles/[^/]+\.dir/(.*)\.o$", rel)
            if not m:
                continue
            src = os.path.normpath(os.path.join(m.group(1), m.group(2))).replace(os.sep, "/")
            if src.split("/")[0] in ("src", "emu") and os.path.exists(os.path.join(root, src)):
                objs.setdefault(src, full)
    defined, undefined = {}, {}
    by_obj = {obj: src for src, obj in objs.items()}
    objects = sorted(by_obj)
    for i in range(0, len(objects), 64):  # one nm per batch: "<object>: <sym> <type> ..."
        out = subprocess.run(["nm", "-P", "-A", *objects[i:i + 64]], capture_output=True,
                             text=True, check=False).stdout
        for ln in out.splitlines():
            obj, sep, rest = ln.partition(": ")
            p = rest.split()
            if not sep or obj not in by_obj or len(p) < 2:
                continue
            src, sym, typ = by_obj[obj], p[0], p[1]
            if typ in ("U", "w", "v"):
                undefined.setdefault(src, set()).add(sym)
            elif typ in "TDBRGSVW" and typ.isupper():
                defined.setdefault(sym, set()).add(src)
    libc = libc_symbols()
    edges = []
    for src, syms in undefined.items():
        for sym in sorted(syms):
            if sym in libc or sym not in defined:
                continue
            for target in sorted(defined[sym]):
                if folder_of(target) != folder_of(src):
                    edges.append((src, target, sym))
    return edges


def cycles(folder_edges):
    """Strongly connected components (Tarjan) of the folder graph with
    more than one folder."""
    graph = {}
    for a, b in folder_edges:
        graph.setdefault(a, set()).add(b)
        graph.setdefault(b, set())
    index, low, stack, on, comps = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        # iterative DFS: (node, iterator over successors)
        work = [(v, iter(sorted(graph[v])))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            advanced = False
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    advanced = True
                    break
                if w in on:
                    low[node] = min(low[node], index[w])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1:
                    comps.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return comps


def violations(root, build=None):
    """{key: [evidence lines]} for every rule broken in the tree."""
    files = collect_files(root)
    inc = include_edges(root, files)
    found = {}
    evidence = {}  # (folder a, folder b) -> evidence lines
    for f, t, line in inc:
        fa, fb = folder_of(f), folder_of(t)
        if fa == fb:
            continue
        evidence.setdefault((fa, fb), []).append(f"{f}:{line} includes {t}")
        if f.startswith("emu/") and t.startswith("src/"):
            found.setdefault(f"emu-src {fa} -> {t}", []).append(f"{f}:{line}")
        if os.path.basename(t).endswith("_priv.h"):
            found.setdefault(f"private {fa} -> {t}", []).append(f"{f}:{line}")
    if build:
        for f, t, sym in object_edges(root, build):
            evidence.setdefault((folder_of(f), folder_of(t)), []).append(
                f"{f} calls {sym} ({t})")
    for comp in cycles(evidence.keys()):
        members = set(comp)
        circle = " ".join(comp)
        for (a, b), ev in sorted(evidence.items()):
            if a in members and b in members:
                found[f"cycle {a} -> {b}"] = [f"on the circle through {circle}"] + ev
    return found


def read_allowlist(path):
    """{key: (line number, comment)}; raises ValueError on a malformed line."""
    allow = {}
    if not path:
        return allow
    with open(path, encoding="utf-8") as fh:
        for lineno, raw in enumerate(fh, 1):
            line = raw.strip()
            if not line or line.startswith("#"):
                continue
            body, sep, note = line.partition("#")
            body, note = " ".join(body.split()), note.strip()
            if not sep or not note:
                raise ValueError(f"{path}:{lineno}: no '# <branch>: <why>' on '{body}'")
            if not re.fullmatch(r"(cycle|emu-src|private) \S+ -> \S+", body):
                raise ValueError(f"{path}:{lineno}: not '<cycle|emu-src|private> A -> B': "
                                 f"'{body}'")
            if body in allow:
                raise ValueError(f"{path}:{lineno}: '{body}' listed twice")
            allow[body] = (lineno, note)
    return allow


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(__file__), ".."),
                    help="the tree to check (default: this script's repository)")
    ap.add_argument("--allow", help="allowlist of known violations")
    ap.add_argument("--objects", help="a build directory: add call edges from nm of its objects")
    ap.add_argument("--list", action="store_true",
                    help="print every violation as an allowlist key and exit 0")
    args = ap.parse_args(argv)
    root = os.path.abspath(args.root)
    for top in ("src", "emu"):
        if not os.path.isdir(os.path.join(root, top)):
            print(f"archcheck: {root} has no {top}/", file=sys.stderr)
            return 2
    if args.objects and not os.path.isdir(args.objects):
        print(f"archcheck: --objects {args.objects}: no such directory", file=sys.stderr)
        return 2
    if args.objects and not shutil.which("nm"):
        print("archcheck: --objects needs nm (binutils)", file=sys.stderr)
        return 2
    try:
        allow = read_allowlist(args.allow)
    except (OSError, ValueError) as e:
        print(f"archcheck: {e}", file=sys.stderr)
        return 2
    found = violations(root, args.objects)
    if args.list:
        for key in sorted(found):
            print(key)
        return 0

    new = sorted(k for k in found if k not in allow)
    stale = sorted(k for k in allow if k not in found)
    known = sorted(k for k in found if k in allow)
    for k in known:
        print(f"known  {k}    # {allow[k][1]}")
    for k in new:
        print(f"NEW    {k}")
        for ev in found[k][:EVIDENCE_SHOWN]:
            print(f"         {ev}")
        if len(found[k]) > EVIDENCE_SHOWN:
            print(f"         ... and {len(found[k]) - EVIDENCE_SHOWN} more")
    for k in stale:
        print(f"STALE  {k}    (allowlist line {allow[k][0]}: no longer found, remove it)")
    print(f"archcheck: {len(found)} violation(s), {len(known)} allowlisted, {len(new)} new, "
          f"{len(stale)} stale allowlist entr{'y' if len(stale) == 1 else 'ies'}")
    return 1 if new or stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
