#!/usr/bin/env bash
# Whole-process timing of `gemini asm` against `gemini validate` on one IR
# file (issue 4's target: asm at most 1.5x validate), alternating the two N
# times and printing the medians and their ratio. The machines are noisy:
# quote medians, and compare only runs taken in the same session.
#   bench/asm_vs_validate.sh FILE.json [N=9] [GEMINI=build/cli/gemini] [OUT_PARENT]
# The programs are written under a fresh directory in OUT_PARENT (default:
# the system's temporary directory). Each asm run creates 129 files where
# the previous run's were just deleted; on an ext4 file system without a
# journal, creating an inode then skips every inode deleted in the last
# 5-35 s, which costs this loop about 0.1 s of kernel time per run (on the
# thread that creates the files while the input is validated). A tmpfs or a
# journaled file system does not have that cost.
set -euo pipefail
file=${1:?usage: asm_vs_validate.sh FILE.json [N] [GEMINI]}
n=${2:-9}
gemini=${3:-build/cli/gemini}
out=$(mktemp -d ${4:+-p "$4"})
trap 'rm -rf "$out"' EXIT
now() { date +%s.%N; }
sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a - b }'; }
v=() a=()
for _ in $(seq "$n"); do
  t0=$(now); "$gemini" validate "$file" >/dev/null; t1=$(now)
  v+=("$(sub "$t1" "$t0")")
  rm -rf "$out/prog"
  t0=$(now); "$gemini" asm "$file" -o "$out/prog" -q; t1=$(now)
  a+=("$(sub "$t1" "$t0")")
done
median() { printf '%s\n' "$@" | sort -n | sed -n "$((($# + 1) / 2))p"; }
mv=$(median "${v[@]}")
ma=$(median "${a[@]}")
echo "validate: median ${mv} s over $n runs (${v[*]})"
echo "asm:      median ${ma} s over $n runs (${a[*]})"
echo "ratio asm/validate: $(awk -v a="$ma" -v b="$mv" 'BEGIN { printf "%.2f", a / b }')"
# Each asm run against the validate run just before it: less exposed to the
# machine's slow stretches than the ratio of the medians.
r=()
for i in $(seq 0 $((n - 1))); do
  r+=("$(awk -v a="${a[$i]}" -v b="${v[$i]}" 'BEGIN { printf "%.3f", a / b }')")
done
echo "median of per-run ratios: $(median "${r[@]}") (${r[*]})"
# The two distributions compared quantile by quantile: on a machine whose
# speed swings from run to run, the fast runs of each (low quantiles) show
# the ratio with the least interference, the median the typical one.
quantile() {  # quantile P VALUES...: the value at fraction P of the sorted list
  local p=$1
  shift
  printf '%s\n' "$@" | sort -n | awk -v p="$p" '{ x[NR] = $1 } END { i = int(p * (NR - 1)) + 1; print x[i] }'
}
line="ratio by quantile:"
for p in 0.1 0.25 0.5 0.75; do
  qv=$(quantile "$p" "${v[@]}")
  qa=$(quantile "$p" "${a[@]}")
  line+=" p$(awk -v p="$p" 'BEGIN { printf "%d", p * 100 }') $(awk -v a="$qa" -v b="$qv" 'BEGIN { printf "%.2f", a / b }')"
done
echo "$line"
