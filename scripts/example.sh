#!/usr/bin/env bash
# The main job on the example shipped in the project: builds gemini, then
# validates, assembles and simulates tests/data/spec_minimal.json (a two-core
# schedule in the full dialect, assembled from the IR spec's own snippets) on
# configs/set-polar.json, and prints the simulator's report. The programs
# land in build/example-program/, the JSON report, per-workload CSV and
# Chrome trace in build/example-sim.*. The build's progress goes to stderr,
# the example's output to stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -x build/cli/gemini ]; then
  echo "example.sh: building what changed in build/ (scripts/build.sh) ..." >&2
else
  # An estimate: the fuzz build, measured, takes 62 CPU-minutes
  # (docs/fuzzing.md); build/ is the same code at -O2.
  echo "example.sh: the first build of gemini in build/ (scripts/build.sh): it compiles" \
       "Ramulator 2 and BookSim 2 too and takes about 30 to 45 minutes on 2 cores" \
       "(later builds only what changed); its progress follows." >&2
fi
bash scripts/build.sh >&2
example=tests/data/spec_minimal.json
echo "example.sh: built; now validate, asm and sim on $example" >&2
./build/cli/gemini validate "$example"
./build/cli/gemini asm "$example" -o build/example-program
./build/cli/gemini sim "$example" --hw configs/set-polar.json \
  --report build/example-sim.json --csv build/example-sim.csv --trace build/example-sim.trace.json
