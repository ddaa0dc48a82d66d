#!/usr/bin/env bash
# ctest gpu.library_check: on a machine with a GPU, `gemini ref --backend
# cuda --check-libraries` on a corpus network (ResNet-50; the fixture
# network without the corpus): our kernels' and cuDNN's / cuBLAS's int32
# sums equal the CPU reference's on every conv and FC layer, and the report
# carries the timings (medians of warm calls) and their totals. Exit 77
# (skipped) where no GPU run is possible, saying why.
set -euo pipefail
G=$1
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
corpus=${GEMINI_CORPUS:-$root/../shared/ir-corpus/set}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if ! "$G" ref --model "$root/tests/data/set_minimal.model.json" --backend cuda -q 2>"$out/why"; then
  echo "no GPU run: $(cat "$out/why")"
  exit 77
fi
model=$root/tests/data/set_minimal.model.json
[ -f "$corpus/models/resnet_b1.model.json" ] && model=$corpus/models/resnet_b1.model.json
"$G" ref --model "$model" --backend cuda --check-libraries | tee "$out/report"
grep -q "^library check: PASS" "$out/report"
grep -q "^total" "$out/report"
