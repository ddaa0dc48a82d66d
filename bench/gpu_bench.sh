#!/usr/bin/env bash
# The GPU figures of docs/gpu.md in one run, on a machine with a GPU (run it
# there by hand or through the `device` tool; it says so and stops without
# one). Every time is a median:
#   1. the whole reference of ResNet-50, batch 1 and 16 (the batch-16 model
#      is the batch-1 model file with N = 16), on the CPU (the reference's
#      fast kernels, all threads) and on the cuda backend (one task per
#      layer, the layers resident on the device): seconds, medians of
#      $RUNS runs each, the speedup, and whether every layer's output is
#      byte-identical;
#   2. gemini xcheck --backend cuda of every tile of resnet_b1_8x8_LS: the
#      simulator's and the backend's seconds, and the backend's share;
#   3. gemini ref --backend cuda --check-libraries on ResNet-50 batch 16 and
#      1 and BERT: per conv / FC layer our kernel's and cuDNN's / cuBLAS's
#      time (medians of warm calls, CUDA events), their ratio and totals;
#   4. gemini_bench's backend_conv cases (cpu and cuda), where it is built.
# Usage: bench/gpu_bench.sh [BUILD_DIR] [CORPUS_DIR]; OUT=DIR keeps the logs.
set -euo pipefail
BUILD=${1:-build}
CORPUS=${2:-../shared/ir-corpus/set}
G=$BUILD/cli/gemini
M=$CORPUS/models
OUT=${OUT:-/tmp/gemini_gpu_bench}
mkdir -p "$OUT"
if ! "$G" ref --model tests/data/set_minimal.model.json --backend cuda -q 2>"$OUT/probe.txt"; then
  echo "gpu_bench: no GPU run possible here: $(cat "$OUT/probe.txt")"
  exit 2
fi
python3 - "$M/resnet_b1.model.json" "$OUT/resnet_b16.model.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
def scale(v):
    if isinstance(v, dict):
        for k, x in v.items():
            if k in ("Shape", "Strides", "PaddedShape") and isinstance(x, list) and len(x) == 4 and x[0] == 1:
                x[0] = 16
            elif k in ("IfmapShape", "OfmapShape") and isinstance(x, dict) and x.get("DIMS", [0])[0] == 1:
                x["DIMS"][0] = 16
            else:
                scale(x)
    elif isinstance(v, list):
        for x in v: scale(x)
scale(doc)
json.dump(doc, open(sys.argv[2], "w"))
PY
RUNS=${RUNS:-3}
# The median of the "in X s" of RUNS runs of gemini ref with the arguments.
ref_seconds() {
  for _ in $(seq "$RUNS"); do
    "$G" ref "$@" | sed -n '1s/.* in \([0-9.]*\) s .*/\1/p'
  done | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'
}
for model in "$M/resnet_b1.model.json" "$OUT/resnet_b16.model.json"; do
  name=$(basename "$model" .model.json)
  echo "== reference of $name"
  "$G" ref --model "$model" --backend cuda -o "$OUT/cuda_ref" | sed -n 1p
  "$G" ref --model "$model" -o "$OUT/cpu_ref" -q
  python3 - "$OUT/cpu_ref/index.json" "$OUT/cuda_ref/index.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
da = {t["name"]: t["digest"] for t in a["tensors"]}
db = {t["name"]: t["digest"] for t in b["tensors"]}
print("cuda reference equals the CPU reference:", da == db, f"({len(da)} tensors)")
PY
  cpu=$(ref_seconds --model "$model")
  cuda=$(ref_seconds --model "$model" --backend cuda)
  awk -v n="$name" -v c="$cpu" -v g="$cuda" -v r="$RUNS" 'BEGIN {
    printf "%s: cpu %.3f s, cuda %.3f s (medians of %d), speedup %.1fx\n", n, c, g, r, c / g }'
done
echo "== xcheck --backend cuda, every tile of resnet_b1_8x8_LS"
"$G" xcheck "$CORPUS/resnet_b1_8x8_LS_IR.json.gz" --model "$M/resnet_b1.model.json" \
  --backend cuda --json >"$OUT/xcheck.json" || true
python3 - "$OUT/xcheck.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
kinds = list(d.get("kinds", {}).values())
sim = sum(k.get("simulator_seconds", 0) for k in kinds)
be = sum(k.get("backend_seconds", 0) for k in kinds)
print(f"xcheck: passed {d.get('passed')}, ops {sum(k.get('ops', 0) for k in kinds)}, "
      f"simulator {sim:.3f} s, backend {be:.3f} s, backend share {be / max(sim + be, 1e-9):.1%}")
PY
TIMEFORMAT="xcheck --backend cuda, whole process: %R s"
time "$G" xcheck "$CORPUS/resnet_b1_8x8_LS_IR.json.gz" --model "$M/resnet_b1.model.json" \
  --backend cuda || true
TIMEFORMAT="xcheck --backend cpu, whole process: %R s"
time "$G" xcheck "$CORPUS/resnet_b1_8x8_LS_IR.json.gz" --model "$M/resnet_b1.model.json" \
  --backend cpu >/dev/null || true
echo "== library check"
for model in "$OUT/resnet_b16.model.json" "$M/resnet_b1.model.json" "$M/bert_b1.model.json"; do
  echo "-- $(basename "$model")"
  "$G" ref --model "$model" --backend cuda --check-libraries | tee "$OUT/libcheck_$(basename "$model" .model.json).txt" |
    grep -E "^(library check|total)" || true
done
echo "== backend_conv"
if [ -x "$BUILD/bench/gemini_bench" ]; then
  "$BUILD/bench/gemini_bench" --benchmark_filter='backend_conv|ref_conv' --benchmark_min_time=0.2
else
  echo "gemini_bench not built here (GEMINI_BUILD_BENCH): skipped"
fi
