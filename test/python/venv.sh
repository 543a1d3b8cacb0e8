#!/usr/bin/env bash
# The Python package installed as a user installs it, into a fresh virtual
# environment, and examples/python/vector_add.py run from outside the tree.
#   venv.sh <kfdemu> <preset> <gfx> <package dir> <library> <version> <code object> [system]
# <package dir> is the build's copy (<build>/python, which records the
# build's library in hsalite/_config.py) or the source python/; it is copied
# to a temporary directory first, because pip builds in the tree it is given.
# With "system" the library is found by the system loader (LD_LIBRARY_PATH
# = its directory), else the package must find it by itself.  Either way the
# package must load exactly <library>, from the venv, not from the checkout.
# The venv is Debian's (python3 -m venv --system-site-packages: numpy and
# msgpack from python3-numpy and python3-msgpack; setuptools and wheel for
# --no-build-isolation, since pip cannot reach an index here).  pip runs
# --isolated (no pip.conf, no PIP_* variables), --no-index and --no-cache-dir
# (nothing written to ~/.cache).
# Exit 77 (skip) when Debian's python3 lacks venv, numpy, msgpack, setuptools
# or wheel.
set -euo pipefail
kfdemu=$(realpath "$1") preset=$2 gfx=$3 pkg=$(realpath "$4") lib=$(realpath -s "$5")
version=$6 co=$(realpath "$7") how=${8:-own}
here=$(cd "$(dirname "$0")" && pwd)
example=$here/../../examples/python/vector_add.py
py=/usr/bin/python3
if ! "$py" -c 'import venv, ensurepip, numpy, msgpack, setuptools, wheel' 2>/dev/null; then
  echo "SKIP: $py lacks venv/ensurepip, numpy, msgpack, setuptools or wheel (scripts/install-deps.sh installs them)" >&2
  exit 77
fi
fail() { echo "FAIL: $*" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hsalite-venv.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
unset PYTHONPATH PYTHONHOME HSALITE_LIBRARY VIRTUAL_ENV

"$py" -m venv --system-site-packages "$tmp/venv"
vpy=$tmp/venv/bin/python
cp -r "$pkg" "$tmp/pkg"
rm -rf "$tmp/pkg/build" "$tmp/pkg"/*.egg-info
"$vpy" -m pip --isolated install --no-cache-dir --no-build-isolation --no-index "$tmp/pkg" >"$tmp/pip.log" 2>&1 ||
  { cat "$tmp/pip.log" >&2; fail "pip install $pkg"; }
tail -n 1 "$tmp/pip.log"

# The metadata a resolver sees: the version and the declared dependencies.
show=$("$vpy" -m pip --isolated show hsalite)
grep -qx "Version: $version" <<<"$show" || fail "pip show: want Version $version, got: $show"
requires=$(sed -n 's/^Requires: //p' <<<"$show")
for dep in numpy msgpack; do
  [[ ", $requires," == *", $dep,"* ]] || fail "pip show: $dep not in Requires: $requires"
done

# Run from an empty directory outside the tree, with a copy of the example
# alone (no _find.py beside it: the installed package, and --co).
mkdir "$tmp/run"
cp "$example" "$tmp/run/"
cd "$tmp/run"
env=()
[[ $how == system ]] && env=(env "LD_LIBRARY_PATH=$(dirname "$lib")${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}")
where=$("${env[@]}" "$kfdemu" --preset "$preset" -- "$vpy" -c '
import os, hsalite
print(os.path.realpath(hsalite.__file__))
print(hsalite.__version__)
print(os.path.realpath(hsalite.library_path()))
hsalite.shutdown()')
mapfile -t got <<<"$where"
[[ ${got[0]} == "$(realpath "$tmp/venv")"/* ]] || fail "hsalite imported from ${got[0]}, not the venv"
[[ ${got[1]} == "$version" ]] || fail "hsalite.__version__ ${got[1]}, want $version"
[[ ${got[2]} == "$(realpath "$lib")" ]] || fail "library ${got[2]}, want $(realpath "$lib")"
echo "hsalite $version from ${got[0]}, library ${got[2]}"

out=$("${env[@]}" "$kfdemu" --preset "$preset" -- "$vpy" vector_add.py -n 1000 --co "$co")
echo "$out"
grep -q "^vector_add.py: n=1000 agent=$gfx PASSED" <<<"$out" || fail "vector_add.py did not pass"
