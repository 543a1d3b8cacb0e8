#!/usr/bin/env bash
# Runs a pytest file of the Python package, or a Python example.
#   run.sh <kfdemu|-> <preset|-> <libhsa-runtime64.so.1> <file.py> [args]
# A file named test_*.py runs under pytest (args go to pytest); any other
# runs as a script (args go to it).
# With a kfdemu, pytest runs under it on that preset (the launcher preloads
# the ASan runtime when its shim is built with ASan, as the library is then).
# The library is passed as HSALITE_LIBRARY, so the package loads exactly it.
# Exit 77 (skip) when Debian's python3 lacks numpy, msgpack or pytest, or the
# library does not exist (ROCr not installed).
set -euo pipefail
kfdemu=$1 preset=$2 lib=$3 file=$4
shift 4
here=$(cd "$(dirname "$0")" && pwd)
# Debian's interpreter, where python3-numpy & co. install (not a pyenv shim).
py=/usr/bin/python3
[[ -x $py ]] || py=$(command -v python3)
if ! "$py" -c 'import numpy, msgpack, pytest' 2>/dev/null; then
  echo "SKIP: $py lacks numpy, msgpack or pytest (scripts/install-deps.sh installs them)" >&2
  exit 77
fi
if [[ ! -e $lib ]]; then
  echo "SKIP: $lib does not exist" >&2
  exit 77
fi
export HSALITE_LIBRARY=$lib
export PYTHONPATH=$here/../../python${PYTHONPATH:+:$PYTHONPATH}
if [[ $(basename "$file") == test_* ]]; then
  cmd=("$py" -m pytest -q -p no:cacheprovider --rootdir "$here" "$file" "$@")
else
  cmd=("$py" "$file" "$@")
fi
if [[ $kfdemu != - ]]; then
  cmd=("$kfdemu" --preset "$preset" -- "${cmd[@]}")
fi
exec "${cmd[@]}"
