#!/usr/bin/env bash
# Builds the libFuzzer harnesses (tests/fuzz, docs/fuzzing.md) with clang,
# AddressSanitizer and UndefinedBehaviorSanitizer in build-fuzz/, and runs
# each for a bounded time from its seed corpus (tests/fuzz/seeds.txt), the
# inputs fuzzers found before (tests/data/fuzz/<target>/) and the formats'
# dictionary (tests/fuzz/gemini.dict).
#
#   bash scripts/fuzz.sh                  every harness, GEMINI_FUZZ_SECONDS (default 20) each
#   bash scripts/fuzz.sh model 3600       one harness for an hour
#
# A crash, a sanitizer report, a timeout or an out-of-memory fails the run;
# the input is left in build-fuzz/findings/<target>/ (replay it with
# build-fuzz/tests/fuzz/fuzz_<target> FILE). Once fixed, copy it into
# tests/data/fuzz/<target>/, where ctest replays it for ever.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh fuzz
jobs=$(nproc 2>/dev/null || echo 2)
targets=$(awk '!/^#/ && NF { print $1 }' tests/fuzz/seeds.txt)
if [ $# -ge 1 ]; then
  if ! grep -qx "$1" <<<"$targets"; then
    echo "fuzz.sh: no harness \"$1\" (harnesses: $(echo $targets))" >&2
    exit 2
  fi
  targets=$1
fi
seconds=${2:-${GEMINI_FUZZ_SECONDS:-20}}

dir=build-fuzz
CC=clang CXX=clang++ cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGEMINI_FUZZ=ON \
  ${CMAKE_CXX_COMPILER_LAUNCHER:+-DCMAKE_CXX_COMPILER_LAUNCHER=$CMAKE_CXX_COMPILER_LAUNCHER} >/dev/null
for t in $targets; do build_targets+=("fuzz_$t"); done
cmake --build "$dir" -j"$jobs" --target "${build_targets[@]}"

export ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
failed=()
for t in $targets; do
  work="$dir/corpus/$t"  # what this run grows from the seeds (kept between runs)
  findings="$dir/findings/$t"
  mkdir -p "$work" "$findings"
  seeds=()
  for p in $(awk -v t="$t" '$1 == t { for (i = 2; i <= NF; i++) print $i }' tests/fuzz/seeds.txt); do
    if [ -d "$p" ]; then seeds+=("$p"); else cp "$p" "$work/"; fi
  done
  [ -d "tests/data/fuzz/$t" ] && seeds+=("tests/data/fuzz/$t")
  echo "fuzz: $t for ${seconds}s"
  if ! "$dir/tests/fuzz/fuzz_$t" "$work" "${seeds[@]}" -dict=tests/fuzz/gemini.dict \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
      -artifact_prefix="$findings/" -print_final_stats=1 >"$dir/fuzz_$t.log" 2>&1; then
    failed+=("$t")
    tail -n 40 "$dir/fuzz_$t.log" >&2
  else
    grep -E "^stat::number_of_executed_units|^stat::new_units_added" "$dir/fuzz_$t.log" |
      sed "s/^/  /"
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in ${failed[*]} (inputs in $dir/findings/; logs $dir/fuzz_<target>.log)" >&2
  exit 1
fi
echo "fuzz: $(echo $targets | wc -w) harnesses ran ${seconds}s each, no finding"
