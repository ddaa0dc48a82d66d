#!/usr/bin/env bash
# The plot scripts on real data: `gemini sweep plot` on a small sweep (2
# inputs x 2 values x multicast off/on) and scripts/plot_report.py on a
# corpus report with its trace (tests/data/spec_minimal.json without the
# corpus). Every PNG they name must exist and be a non-empty PNG. Exit 77
# without Debian's python3-matplotlib (scripts/setup.sh installs it).
#   bash tests/sweep/sweep_plot_test.sh GEMINI
set -euo pipefail
gemini=$(readlink -f "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
if ! /usr/bin/python3 -c "import matplotlib" 2>/dev/null; then
  echo "SKIPPED: /usr/bin/python3 has no matplotlib (apt-get install python3-matplotlib)"
  exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/gemini-plot-test.XXXXXX")
trap 'rm -rf "$work"' EXIT

check_pngs() {  # check_pngs LISTING MIN
  local n=0
  while read -r f; do
    case "$f" in *.png) ;; *) continue ;; esac
    [ -s "$f" ] || { echo "FAIL: $f is empty or missing"; exit 1; }
    [ "$(head -c 8 "$f" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] || { echo "FAIL: $f is not a PNG"; exit 1; }
    n=$((n + 1))
  done <"$1"
  [ $n -ge "$2" ] || { echo "FAIL: $n PNGs, expected at least $2"; cat "$1"; exit 1; }
  echo "ok: $n PNGs"
}

cat >"$work/sweep.json" <<JSON
{
  "name": "plot-test",
  "hw": "set-polar",
  "inputs": ["$root/tests/data/spec_minimal.json", "$root/tests/data/set_minimal.json"],
  "axes": {"noc.link_gbps": [12, 48], "dram.multicast": [false, true]}
}
JSON
"$gemini" sweep run "$work/sweep.json" -o "$work/sweep" --jobs 2 >/dev/null
"$gemini" sweep plot "$work/sweep" >"$work/sweep-plots.txt"
# 12 figures (10 metrics + the core-time and the energy panels; no estimate
# is given, so no sim_over_estimate) against each of the 2 axes.
check_pngs "$work/sweep-plots.txt" 24
grep -q "sim_over_estimate" "$work/sweep-plots.txt" && { echo "FAIL: a plot of a metric no point has"; exit 1; }
grep -q "time_us_vs_noc_link_gbps.svg" "$work/sweep-plots.txt"

corpus=${GEMINI_CORPUS:-$root/../shared/ir-corpus/set}
input=$corpus/resnet_b1_2x2_SET_IR.json.gz
[ -f "$input" ] || input=$root/tests/data/spec_minimal.json
"$gemini" sim "$input" --hw set-polar -q --report "$work/r.json" --trace "$work/r.trace.json"
"$root/scripts/plot_report.py" "$work/r.json" --trace "$work/r.trace.json" -o "$work/report" >"$work/report-plots.txt"
check_pngs "$work/report-plots.txt" 3
for k in stalls layers dram; do grep -q "r_$k.png" "$work/report-plots.txt"; done
echo "PASS: plots of a sweep and of $(basename "$input")"
