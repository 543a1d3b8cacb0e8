#!/usr/bin/env python3
"""The layering checker (tools/archcheck.py) on fixture trees: each rule
found, an allowlisted violation accepted, a new one and a stale allowlist
line refused, call edges taken from built objects (weak references
included, libc namesakes left out).

fixtures/tree   src/a <-> src/b (a circle across folders), src/c including
                src/a's private header, emu/x including a src/ header; and
                what is allowed: a folder's own private header, a circle
                inside src/d, emu/x including common/, system headers.
fixtures/clean  one-way edges only.
fixtures/calls  src/p and src/q call each other with no include (q through
                a weak reference); emu/launcher calls libc close(), which
                the shim interposes, while the shim includes a launcher
                header: not a circle.
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKER = os.path.join(HERE, "..", "..", "tools", "archcheck.py")
FIX = os.path.join(HERE, "fixtures")

TREE_VIOLATIONS = [
    "cycle src/a -> src/b",
    "cycle src/b -> src/a",
    "emu-src emu/x -> src/b/b.h",
    "private src/c -> src/a/a_priv.h",
]


def run(*args):
    p = subprocess.run([sys.executable, CHECKER, *args], capture_output=True, text=True,
                       check=False)
    return p.returncode, p.stdout + p.stderr


class ArchCheck(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="archcheck-")

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def allow(self, lines):
        path = os.path.join(self.tmp, "allow")
        with open(path, "w", encoding="utf-8") as f:
            f.write("# fixture allowlist\n\n")
            for ln in lines:
                f.write(ln + "\n")
        return path

    def test_every_rule_is_found(self):
        rc, out = run("--root", os.path.join(FIX, "tree"), "--list")
        self.assertEqual(rc, 0, out)
        self.assertEqual(out.split("\n")[:-1], TREE_VIOLATIONS)

    def test_clean_tree_passes_without_allowlist(self):
        rc, out = run("--root", os.path.join(FIX, "clean"))
        self.assertEqual(rc, 0, out)
        self.assertIn("0 violation(s)", out)

    def test_violations_fail_without_allowlist(self):
        rc, out = run("--root", os.path.join(FIX, "tree"))
        self.assertEqual(rc, 1, out)
        for key in TREE_VIOLATIONS:
            self.assertIn("NEW    " + key, out)
        # the evidence names the file and line
        self.assertIn("src/c/c.c:2", out)

    def test_listed_violations_pass(self):
        allow = self.allow([k + "  # some-branch: removes it" for k in TREE_VIOLATIONS])
        rc, out = run("--root", os.path.join(FIX, "tree"), "--allow", allow)
        self.assertEqual(rc, 0, out)
        self.assertIn("4 allowlisted, 0 new, 0 stale", out)

    def test_new_violation_fails(self):
        allow = self.allow([k + "  # some-branch: removes it" for k in TREE_VIOLATIONS[:-1]])
        rc, out = run("--root", os.path.join(FIX, "tree"), "--allow", allow)
        self.assertEqual(rc, 1, out)
        self.assertIn("NEW    private src/c -> src/a/a_priv.h", out)
        self.assertIn("1 new, 0 stale", out)

    def test_stale_allowlist_entry_fails(self):
        lines = [k + "  # some-branch: removes it" for k in TREE_VIOLATIONS]
        lines.append("cycle src/a -> src/c  # merged-branch: gone already")
        rc, out = run("--root", os.path.join(FIX, "tree"), "--allow", self.allow(lines))
        self.assertEqual(rc, 1, out)
        self.assertIn("STALE  cycle src/a -> src/c", out)
        self.assertIn("0 new, 1 stale", out)

    def test_allowlist_line_must_name_its_branch(self):
        allow = self.allow([TREE_VIOLATIONS[0]])
        rc, out = run("--root", os.path.join(FIX, "tree"), "--allow", allow)
        self.assertEqual(rc, 2, out)
        self.assertIn("no '# <branch>: <why>'", out)

    def test_allowlist_line_must_be_a_violation_key(self):
        allow = self.allow(["src/a includes src/b  # some-branch"])
        rc, out = run("--root", os.path.join(FIX, "tree"), "--allow", allow)
        self.assertEqual(rc, 2, out)

    def test_call_edges_from_objects(self):
        cc = shutil.which("cc") or shutil.which("gcc")
        if not cc or not shutil.which("nm"):
            self.skipTest("no C compiler or nm")
        root = os.path.join(FIX, "calls")
        build = os.path.join(self.tmp, "build")
        # the layout CMake gives objects: <dir>/CMakeFiles/<target>.dir/<rel>.o
        for src, obj in (("src/p/p.c", "src/CMakeFiles/rt.dir/p/p.c.o"),
                         ("src/q/q.c", "src/CMakeFiles/rt.dir/q/q.c.o"),
                         ("emu/shim/shim.c", "emu/CMakeFiles/shim.dir/shim/shim.c.o"),
                         ("emu/launcher/l.c", "emu/CMakeFiles/launcher.dir/launcher/l.c.o")):
            out = os.path.join(build, obj)
            os.makedirs(os.path.dirname(out), exist_ok=True)
            subprocess.run([cc, "-c", "-I", os.path.join(root, "emu"),
                            os.path.join(root, src), "-o", out], check=True)
        rc, out = run("--root", root, "--list")
        self.assertEqual((rc, out), (0, ""), "no include edges: no violation")
        rc, out = run("--root", root, "--objects", build, "--list")
        self.assertEqual(rc, 0, out)
        self.assertEqual(out.split("\n")[:-1], ["cycle src/p -> src/q", "cycle src/q -> src/p"])
        rc, out = run("--root", root, "--objects", build)
        self.assertEqual(rc, 1, out)
        self.assertIn("src/q/q.c calls p_fn (src/p/p.c)", out)

    def test_objects_directory_must_exist(self):
        rc, out = run("--root", os.path.join(FIX, "clean"), "--objects",
                      os.path.join(self.tmp, "missing"))
        self.assertEqual(rc, 2, out)


if __name__ == "__main__":
    unittest.main(verbosity=2)
