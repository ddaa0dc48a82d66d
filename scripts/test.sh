#!/usr/bin/env bash
# Builds gemini and runs the whole test suite (CTest labels: unit, corpus).
# The corpus tests read ../shared/ir-corpus/set (or $GEMINI_CORPUS) and skip,
# saying why, when it is absent. Arguments go to ctest (`-L unit`: the unit
# tests only).
#
#   GEMINI_SANITIZE=1     builds and tests with AddressSanitizer and
#                         UndefinedBehaviorSanitizer (g++, -O1) in build-asan/
#   GEMINI_SANITIZE=fuzz  the same sanitizers and LeakSanitizer with clang in
#                         the fuzz build, build-fuzz/ (GEMINI_FUZZ_TESTS: the
#                         libraries scripts/fuzz.sh fuzzes, Ramulator 2 and
#                         BookSim 2 included); .ci/run runs `-L unit` so
#                         (docs/fuzzing.md, "In CI")
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
# `-L unit` alone runs no corpus test: their program is not built
# (GEMINI_CORPUS_TESTS), which spares the sanitised build of .ci/run a
# program it would never run.
corpus=ON
[ "$*" = "-L unit" ] && corpus=OFF
case "${GEMINI_SANITIZE:-0}" in
  1)
    bash scripts/setup.sh
    dir=build-asan
    cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DGEMINI_SANITIZE=ON -DGEMINI_BUILD_BENCH=OFF \
      -DGEMINI_CORPUS_TESTS=$corpus >/dev/null
    ;;
  fuzz)
    bash scripts/setup.sh fuzz
    dir=build-fuzz
    # As scripts/fuzz.sh configures it, with the tests.
    CC=clang CXX=clang++ cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGEMINI_FUZZ=ON \
      -DGEMINI_FUZZ_TESTS=ON -DGEMINI_CORPUS_TESTS=$corpus \
      ${CMAKE_CXX_COMPILER_LAUNCHER:+-DCMAKE_CXX_COMPILER_LAUNCHER=$CMAKE_CXX_COMPILER_LAUNCHER} >/dev/null
    ;;
  0)
    bash scripts/setup.sh
    dir=build
    cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DGEMINI_CORPUS_TESTS=$corpus >/dev/null
    ;;
  *)
    echo "test.sh: GEMINI_SANITIZE is 1 (g++, build-asan/) or fuzz (clang, build-fuzz/), not \"$GEMINI_SANITIZE\"" >&2
    exit 2
    ;;
esac
cmake --build "$dir" -j"$jobs"
cd "$dir"
ctest -j"$jobs" --output-on-failure "$@"
