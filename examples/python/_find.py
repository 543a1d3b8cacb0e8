"""Shared by the Python examples: make `import hsalite` work from a source
checkout, and find the examples' code objects in the build tree.  Outside a
checkout (the examples copied elsewhere) it changes nothing: `import hsalite`
is the installed package (pip install ./python)."""
import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
if os.path.isfile(os.path.join(ROOT, "python", "hsalite", "__init__.py")):
    sys.path.insert(0, os.path.join(ROOT, "python"))


def code_object(name, gfx, explicit=None):
    """explicit, else <name>.<gfx>.co from build/release/examples, then any
    other build/*/examples (what `bash scripts/run.sh` and the test builds
    produce)."""
    if explicit:
        return explicit
    build = os.path.join(ROOT, "build")
    tried = [os.path.join(build, "release", "examples", "%s.%s.co" % (name, gfx))]
    tried += sorted(glob.glob(os.path.join(build, "*", "examples", "%s.%s.co" % (name, gfx))))
    for p in tried:
        if os.path.exists(p):
            return p
    sys.exit("%s: no %s.%s.co in %s/*/examples; build first (bash scripts/run.sh) or pass --co"
             % (os.path.basename(sys.argv[0]), name, gfx, build))
