#!/usr/bin/env bash
# Whole-process timing of the functional simulation against the timing-only
# one on one IR file (issue 22's target: `gemini sim --functional` at most
# 10x plain `gemini sim`), alternating the two N times and printing the
# medians and their ratio. The machines are noisy: quote medians, and
# compare only runs taken in the same session.
#   bench/functional_vs_timing.sh FILE MODEL [N=7] [GEMINI=build/cli/gemini] [HW=configs/set-polar.json]
set -euo pipefail
file=${1:?usage: functional_vs_timing.sh FILE MODEL [N] [GEMINI] [HW]}
model=${2:?usage: functional_vs_timing.sh FILE MODEL [N] [GEMINI] [HW]}
n=${3:-7}
gemini=${4:-build/cli/gemini}
hw=${5:-configs/set-polar.json}
now() { date +%s.%N; }
sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a - b }'; }
t=() f=()
for _ in $(seq "$n"); do
  t0=$(now); "$gemini" sim "$file" --hw "$hw" -q; t1=$(now)
  t+=("$(sub "$t1" "$t0")")
  t0=$(now); "$gemini" sim "$file" --hw "$hw" --model "$model" --functional -q; t1=$(now)
  f+=("$(sub "$t1" "$t0")")
done
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
mt=$(median "${t[@]}")
mf=$(median "${f[@]}")
echo "sim (timing):     median ${mt} s over $n runs (${t[*]})"
echo "sim --functional: median ${mf} s over $n runs (${f[*]})"
echo "ratio functional/timing: $(awk -v a="$mf" -v b="$mt" 'BEGIN { printf "%.2f", a / b }')"
