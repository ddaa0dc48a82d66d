#!/usr/bin/env bash
# The main job on the example shipped in the project: builds gemini, then
# validates, summarises and assembles tests/data/spec_minimal.json (a
# two-core schedule in the full dialect, assembled from the IR spec's own
# snippets). The programs land in build/example-program/.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh >/dev/null
example=tests/data/spec_minimal.json
./build/cli/gemini validate "$example"
./build/cli/gemini info "$example"
./build/cli/gemini asm "$example" -o build/example-program
