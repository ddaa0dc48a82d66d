#!/usr/bin/env bash
# The GPU figures of docs/gpu.md, on a machine with a GPU (run it there by
# hand or through the `device` tool; it says so and stops without one):
#   1. the whole reference of ResNet-50 on the cuda backend, batch 1 and 16
#      (the batch-16 model is the batch-1 model file with N = 16), against
#      the CPU reference of the same model: seconds, GMAC/s, speedup;
#   2. gemini xcheck --backend cuda of every tile of resnet_b1_8x8_LS;
#   3. gemini ref --backend cuda --check-libraries: per conv / FC layer, our
#      kernel's and cuDNN's / cuBLAS's time and int8 TOPS;
#   4. gemini_bench's backend_conv cases (cpu and cuda).
# Usage: bench/gpu_bench.sh [BUILD_DIR] [CORPUS_DIR]
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
for model in "$M/resnet_b1.model.json" "$OUT/resnet_b16.model.json"; do
  echo "== reference of $(basename "$model")"
  "$G" ref --model "$model" | sed -n 1p
  "$G" ref --model "$model" --backend cuda -o "$OUT/cuda_ref" | sed -n 1p
  "$G" ref --model "$model" -o "$OUT/cpu_ref" -q
  python3 - "$OUT/cpu_ref/index.json" "$OUT/cuda_ref/index.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
da = {t["name"]: t["digest"] for t in a["tensors"]}
db = {t["name"]: t["digest"] for t in b["tensors"]}
print("cuda reference equals the CPU reference:", da == db)
PY
done
echo "== xcheck --backend cuda, every tile of resnet_b1_8x8_LS"
time "$G" xcheck "$CORPUS/resnet_b1_8x8_LS_IR.json.gz" --model "$M/resnet_b1.model.json" --backend cuda
echo "== library check"
"$G" ref --model "$M/resnet_b1.model.json" --backend cuda --check-libraries
"$G" ref --model "$M/bert_b1.model.json" --backend cuda --check-libraries
echo "== backend_conv"
"$BUILD/bench/gemini_bench" --benchmark_filter='backend_conv|ref_conv' --benchmark_min_time=0.2
