#!/usr/bin/env bash
# The main job on the example shipped in the project: builds gemini, then
# validates, assembles and simulates tests/data/spec_minimal.json (a two-core
# schedule in the full dialect, assembled from the IR spec's own snippets) on
# configs/set-polar.json, and prints the simulator's report. The programs
# land in build/example-program/, the JSON report, per-workload CSV and
# Chrome trace in build/example-sim.*.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh >/dev/null
example=tests/data/spec_minimal.json
./build/cli/gemini validate "$example"
./build/cli/gemini asm "$example" -o build/example-program
./build/cli/gemini sim "$example" --hw configs/set-polar.json \
  --report build/example-sim.json --csv build/example-sim.csv --trace build/example-sim.trace.json
