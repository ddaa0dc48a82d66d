#!/usr/bin/env bash
# The main job on the example shipped in the project: builds gemini, then
# validates and summarises tests/data/spec_minimal.json (a two-core schedule
# in the full dialect, assembled from the IR spec's own snippets).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh >/dev/null
example=tests/data/spec_minimal.json
./build/cli/gemini validate "$example"
./build/cli/gemini info "$example"
