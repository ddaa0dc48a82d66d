#!/usr/bin/env bash
# Builds gemini and runs the whole test suite (CTest labels: unit, corpus).
# The corpus tests read ../shared/ir-corpus/set (or $GEMINI_CORPUS) and skip,
# saying why, when it is absent. GEMINI_SANITIZE=1 builds and tests with
# AddressSanitizer and UndefinedBehaviorSanitizer in build-asan/ instead.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
jobs=$(nproc 2>/dev/null || echo 2)
if [ "${GEMINI_SANITIZE:-0}" = 1 ]; then
  dir=build-asan
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DGEMINI_SANITIZE=ON -DGEMINI_BUILD_BENCH=OFF >/dev/null
else
  dir=build
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build "$dir" -j"$jobs"
cd "$dir"
ctest -j"$jobs" --output-on-failure
