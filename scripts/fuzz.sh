#!/usr/bin/env bash
# Builds the libFuzzer harnesses (tests/fuzz, docs/fuzzing.md) with clang,
# AddressSanitizer and UndefinedBehaviorSanitizer in build-fuzz/, and runs
# each for a bounded time from its seed corpus (tests/fuzz/seeds.txt), the
# inputs fuzzers found before (tests/data/fuzz/<target>/) and its dictionary
# (tests/fuzz/<target>.dict where there is one, else the formats' dictionary,
# tests/fuzz/gemini.dict).
#
#   bash scripts/fuzz.sh                  every harness, GEMINI_FUZZ_SECONDS (default 20) each
#   bash scripts/fuzz.sh model 3600       one harness for an hour
#
# A harness runs in fresh processes of at most GEMINI_FUZZ_CHUNK seconds
# (default 60), one after another, each from the corpus the last one grew.
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

# LeakSanitizer on: a leak is a finding (the programs suppress Ramulator 2's
# own, tests/fuzz/sanitizer_options.cpp).
export ASAN_OPTIONS=${ASAN_OPTIONS:-allocator_may_return_null=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
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
  dict=tests/fuzz/gemini.dict
  [ -f "tests/fuzz/$t.dict" ] && dict=tests/fuzz/$t.dict
  echo "fuzz: $t for ${seconds}s"
  # In runs of at most GEMINI_FUZZ_CHUNK seconds (default 60), each a fresh
  # process that starts from what the last grew: what a process keeps of
  # every input (Ramulator 2 frees nothing it builds, some MB per memory
  # system; the sanitizers' quarantine) stays under the 2 GB limit.
  chunk=${GEMINI_FUZZ_CHUNK:-60}
  left=$seconds execs=0 added=0 ok=1
  : >"$dir/fuzz_$t.log"
  while [ "$left" -gt 0 ]; do
    now=$(( left < chunk ? left : chunk ))
    if ! "$dir/tests/fuzz/fuzz_$t" "$work" "${seeds[@]}" -dict="$dict" \
        -max_total_time="$now" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
        -artifact_prefix="$findings/" -print_final_stats=1 >"$dir/fuzz_$t.run.log" 2>&1; then
      ok=0
    fi
    cat "$dir/fuzz_$t.run.log" >>"$dir/fuzz_$t.log"
    [ "$ok" = 1 ] || break
    execs=$(( execs + $(awk '/^stat::number_of_executed_units/ { print $NF }' "$dir/fuzz_$t.run.log") ))
    added=$(( added + $(awk '/^stat::new_units_added/ { print $NF }' "$dir/fuzz_$t.run.log") ))
    left=$(( left - now ))
  done
  rm -f "$dir/fuzz_$t.run.log"
  if [ "$ok" = 0 ]; then
    failed+=("$t")
    tail -n 40 "$dir/fuzz_$t.log" >&2
  else
    echo "  $execs inputs run, $added new units"
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: findings in ${failed[*]} (inputs in $dir/findings/; logs $dir/fuzz_<target>.log)" >&2
  exit 1
fi
echo "fuzz: $(echo $targets | wc -w) harnesses ran ${seconds}s each, no finding"
