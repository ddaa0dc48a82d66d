#!/usr/bin/env bash
# scripts/noc_curves.py (docs/calibration.md, "NoC against BookSim 2") on a
# 4x4 mesh with the mesh model alone: the zero-load latency is the
# hand-computed all-pairs mean, a model may carry parameters
# ("mesh+fill_gaps=true"), --merge adds points to a curve and keeps its zero
# load, the plot is a PNG, and --replot --ylog redraws it from curves.json.
# Exit 77 without Debian's python3-matplotlib (scripts/setup.sh installs it).
#   bash tests/noc/noc_curves_test.sh GEMINI
set -euo pipefail
gemini=$(readlink -f "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
if ! /usr/bin/python3 -c "import matplotlib" 2>/dev/null; then
  echo "SKIPPED: /usr/bin/python3 has no matplotlib (apt-get install python3-matplotlib)"
  exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/gemini-noc-curves.XXXXXX")
trap 'rm -rf "$work"' EXIT
curves() {
  /usr/bin/python3 "$root/scripts/noc_curves.py" --gemini "$gemini" --out "$work" --meshes 4x4 \
    --patterns uniform --packets 20 --warmup 5 "$@" >"$work/log.txt"
}
curves --models mesh,mesh+fill_gaps=true --loads 0.05,0.1
curves --models mesh --loads 0.2 --merge
/usr/bin/python3 - "$work" <<'PY'
import csv, json, os, sys
work = sys.argv[1]
curves = json.load(open(os.path.join(work, "curves.json")))
models = sorted(c["model"] for c in curves)
assert models == ["mesh", "mesh+fill_gaps=true"], models
for c in curves:
    # set-polar: 1-cycle routers, 512-byte packets at 24 B/cycle. Over every
    # ordered pair of a k x k mesh the mean is 2k/3 hops: (8/3 + 1) x 1 +
    # 512/24 = 25 cycles (to the picosecond the serialisation rounds to).
    z = c["zero_load"]
    assert z["measured"] == 16 * 15, z
    assert abs(z["latency_mean"] - 25.0) < 0.002, z["latency_mean"]
    loads = [p["load"] for p in c["points"]]
    want = [0.05, 0.1, 0.2] if c["model"] == "mesh" else [0.05, 0.1]
    assert loads == want, (c["model"], loads)
    for p in c["points"]:
        assert p["latency_mean"] > z["latency_mean"], p
        assert abs(p["accepted"] - p["load"]) < 0.2 * p["load"], p
rows = list(csv.DictReader(open(os.path.join(work, "summary.csv"))))
assert len(rows) == 2 and all(abs(float(r["zero_load_latency"]) - 25.0) < 0.002 for r in rows), rows
png = open(os.path.join(work, "curves.png"), "rb").read(8)
assert png == b"\x89PNG\r\n\x1a\n", png
print("ok: noc_curves.py, 2 curves, merge, zero load 25 cycles, plot")
PY
# --replot --ylog redraws from curves.json alone (no gemini run: the binary
# given is one that does not exist).
rm "$work/curves.png"
/usr/bin/python3 "$root/scripts/noc_curves.py" --gemini /nonexistent --out "$work" --replot --ylog \
  >"$work/log.txt"
[ "$(head -c 4 "$work/curves.png" | od -An -c | tr -d ' ')" = "211PNG" ]
echo "ok: --replot --ylog"
