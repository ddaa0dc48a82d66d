#!/usr/bin/env bash
# The installed Python package: `cmake --install` into a temporary prefix,
# and the .deb that CPack builds unpacked with dpkg-deb -x. Each tree's
# package is imported by PYTHON (Debian's python3) from outside the source
# and build trees, finds the gemini installed beside it, carries its type
# stubs, and simulates tests/data/spec_minimal.json on set-polar by name
# with the same report as the build tree's package.
#   bash tests/python/python_install_test.sh BUILD_DIR PYTHON
set -euo pipefail
build=$(readlink -f "$1")
python=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/gemini-python-install.XXXXXX")
trap 'rm -rf "$work"' EXIT
input=$root/tests/data/spec_minimal.json
unset GEMINI_EXE

# One line: the executable the package runs, then the report's JSON
# without "host".
probe='
import json, sys, gemini
r = gemini.simulate(sys.argv[1], hw="set-polar")
d = dict(r.data); d.pop("host")
assert gemini.validate(sys.argv[1]).valid
print(gemini.executable()); print(json.dumps(d, sort_keys=True))'
want=$(cd / && PYTHONPATH=$build/python "$python" -c "$probe" "$input" | tail -1)

check_tree() {  # check_tree PREFIX NAME
  local pkg=$1/lib/python3/dist-packages/gemini got
  for f in __init__.py __init__.pyi py.typed _report.py; do
    [ -f "$pkg/$f" ] || { echo "FAIL: $2: no $pkg/$f"; exit 1; }
  done
  ls "$pkg"/_gemini*.so >/dev/null || { echo "FAIL: $2: no extension in $pkg"; exit 1; }
  [ ! -e "$pkg/_build_tree.py" ] || { echo "FAIL: $2: the build tree's _build_tree.py installed"; exit 1; }
  got=$(cd / && PYTHONPATH=$1/lib/python3/dist-packages "$python" -c "$probe" "$input")
  [ "$(echo "$got" | head -1)" = "$1/bin/gemini" ] ||
    { echo "FAIL: $2: the package runs $(echo "$got" | head -1), not $1/bin/gemini"; exit 1; }
  [ "$(echo "$got" | tail -1)" = "$want" ] || { echo "FAIL: $2: another report"; exit 1; }
  echo "ok: $2: import gemini from $pkg, simulate $(basename "$input") --hw set-polar"
}

cmake --install "$build" --prefix "$work/prefix" >/dev/null
check_tree "$work/prefix" "cmake --install"

(cd "$work" && cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/pkg" >"$work/cpack.log" 2>&1) ||
  { cat "$work/cpack.log"; echo "FAIL: cpack"; exit 1; }
deb=$(ls "$work"/pkg/gemini_*.deb)
dpkg-deb -c "$deb" >"$work/deb-files.txt"
grep -q "./usr/lib/python3/dist-packages/gemini/__init__.pyi" "$work/deb-files.txt" ||
  { echo "FAIL: the .deb has no Python package"; exit 1; }
dpkg-deb -x "$deb" "$work/root"
check_tree "$work/root/usr" "$(basename "$deb")"
echo "PASS: the installed Python package ($(dpkg-deb -f "$deb" Depends | grep -o 'python3[^,]*' | head -2 | tr '\n' ' '))"
