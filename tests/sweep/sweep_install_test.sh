#!/usr/bin/env bash
# gemini installed: `cmake --install` into a temporary prefix and the .deb
# that CPack builds (unpacked into a temporary root). Each installed gemini
# runs a corpus file (tests/data/spec_minimal.json without the corpus) with
# its installed configuration by name (--hw set-polar) and must print what
# the build tree's gemini prints; the installed one also runs the installed
# example sweep and its plot command.
#   bash tests/sweep/sweep_install_test.sh BUILD_DIR
set -euo pipefail
build=$(readlink -f "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/gemini-install-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
corpus=${GEMINI_CORPUS:-$root/../shared/ir-corpus/set}
input=$corpus/resnet_b1_2x2_SET_IR.json.gz
if [ ! -f "$input" ]; then
  echo "note: corpus not found ($corpus): running tests/data/spec_minimal.json instead"
  input=$root/tests/data/spec_minimal.json
fi
want=$("$build/cli/gemini" sim "$input" --hw "$root/configs/set-polar.json")

check_tree() {  # check_tree BIN_DIR NAME
  local bin=$1/gemini
  [ -x "$bin" ] || { echo "FAIL: $2: no $bin"; exit 1; }
  local got
  got=$(cd / && "$bin" sim "$input" --hw set-polar)
  [ "$got" = "$want" ] || { echo "FAIL: $2: installed gemini prints something else"; diff <(echo "$want") <(echo "$got") | head; exit 1; }
  echo "ok: $2: $bin sim $(basename "$input") --hw set-polar"
}

# cmake --install
cmake --install "$build" --prefix "$work/prefix" >/dev/null
for f in bin/gemini share/gemini/configs/set-polar.json share/gemini/configs/sweeps/example.json \
  share/gemini/scripts/plot_sweep.py share/gemini/scripts/plot_report.py share/gemini/scripts/slurm_local.sh; do
  [ -e "$work/prefix/$f" ] || { echo "FAIL: cmake --install: no $f"; exit 1; }
done
[ -x "$work/prefix/share/gemini/scripts/plot_sweep.py" ] || { echo "FAIL: plot_sweep.py not executable"; exit 1; }
check_tree "$work/prefix/bin" "cmake --install"
# The installed example sweep (with the corpus).
if [ -f "$corpus/manifest.csv" ]; then
  GEMINI_CORPUS=$corpus "$work/prefix/bin/gemini" sweep run \
    "$work/prefix/share/gemini/configs/sweeps/example.json" -o "$work/sweep" --jobs 2 >"$work/sweep.txt"
  grep -q "6 points: 6 ok, 0 failed, 0 missing" "$work/sweep.txt" || { cat "$work/sweep.txt"; exit 1; }
  if /usr/bin/python3 -c "import matplotlib" 2>/dev/null; then
    "$work/prefix/bin/gemini" sweep plot "$work/sweep" --format png >/dev/null
    [ -s "$work/sweep/plots/time_us_vs_dram_gbps_per_tops.png" ] || { echo "FAIL: no plot"; exit 1; }
  fi
  echo "ok: the installed example sweep: 6 points$( [ -d "$work/sweep/plots" ] && echo ', plotted')"
fi

# CPack's .deb
(cd "$work" && cpack --config "$build/CPackConfig.cmake" -G DEB -B "$work/pkg" >"$work/cpack.log" 2>&1) ||
  { cat "$work/cpack.log"; echo "FAIL: cpack"; exit 1; }
deb=$(ls "$work"/pkg/gemini_*.deb)
dpkg-deb -I "$deb" >"$work/deb-info.txt"
grep -q "^ Package: gemini$" "$work/deb-info.txt"
grep -q "^ Depends:.*libsystemc" "$work/deb-info.txt" || { cat "$work/deb-info.txt"; echo "FAIL: the .deb does not depend on SystemC"; exit 1; }
dpkg-deb -c "$deb" >"$work/deb-files.txt"
grep -q "./usr/share/gemini/configs/set-polar.json" "$work/deb-files.txt"
dpkg-deb -x "$deb" "$work/root"
check_tree "$work/root/usr/bin" "$(basename "$deb")"
echo "PASS: installed gemini ($(grep '^ Depends:' "$work/deb-info.txt" | cut -c2-))"
