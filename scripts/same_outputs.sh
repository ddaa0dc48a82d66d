#!/usr/bin/env bash
# Checks that an internal change left every output byte-identical: runs two
# gemini binaries (the one before the change and the one after) on the same
# inputs and compares what they write -- sim's text, JSON report and
# per-workload CSV (set-polar, and with the model functionally), validate's
# and info's text, asm's listings and binaries, import's full dialect, ref's
# tensors, plan's plan file -- then times both side by side.
#
#   scripts/same_outputs.sh OLD_GEMINI NEW_GEMINI [CORPUS_DIR]
#
# CORPUS_DIR defaults to ../shared/ir-corpus/set; without it only the
# project's own fixtures are compared. Exits 1 on the first difference
# (printing it), 0 when every output is identical. Host timings (the `host`
# field of JSON reports) are left out of the comparison. With hyperfine
# installed, the timings of sim and asm on resnet_b1_8x8_LS and of
# sim --functional on resnet_b1_2x2_SET follow, both binaries in one run.
set -euo pipefail
old=$(readlink -f "$1")
new=$(readlink -f "$2")
root=$(cd "$(dirname "$0")/.." && pwd)
corpus=${3:-$root/../shared/ir-corpus/set}
hw=$root/configs/set-polar.json
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
differ=0

# run NAME COMMAND...: runs COMMAND with each binary (as $G) in its own
# directory, output directories included, and compares everything written.
run() {
  local name=$1
  shift
  for side in old new; do
    local bin=$old
    [ "$side" = new ] && bin=$new
    mkdir -p "$work/$side/$name"
    (cd "$work/$side/$name" && G=$bin bash -c "$*" >stdout 2>stderr; echo "exit $?" >status) || true
    # Host timings differ from run to run; the rest may not.
    find "$work/$side/$name" -name '*.json' -print0 |
      xargs -0 -r sed -i -E '/"host"/,/^  \}/d'
    sed -i -E "s#$bin#GEMINI#g" "$work/$side/$name"/stdout "$work/$side/$name"/stderr
    # ref's first line times the host: "computed on the CPU in 0.123 s (..)".
    sed -i -E 's#on the CPU in [0-9.]+ s \([0-9.]+ GMAC, [0-9.]+ GMAC/s\)#on the CPU in T s (host)#' \
      "$work/$side/$name"/stdout
  done
  if ! diff -r "$work/old/$name" "$work/new/$name" >"$work/diff.txt"; then
    echo "DIFFERS: $name"
    head -20 "$work/diff.txt"
    differ=1
  else
    echo "same:    $name"
  fi
}

data=$root/tests/data
for f in spec_minimal set_minimal transpose_minimal gpt_decode_q1; do
  m=$data/$f.model.json
  run "$f.validate" "\$G validate $data/$f.json --model $m"
  run "$f.asm" "\$G asm $data/$f.json --hw $hw --model $m -o prog"
  run "$f.sim" "\$G sim $data/$f.json --hw $hw --report r.json --csv w.csv"
  run "$f.func" "\$G sim $data/$f.json --hw $hw --model $m --functional --report r.json --csv w.csv"
done
if [ -d "$corpus" ]; then
  for p in "$corpus"/*_IR.json.gz; do
    f=$(basename "$p" _IR.json.gz)
    net=$(echo "$f" | sed -E 's/_[0-9]+x[0-9]+_.*//')
    m=$corpus/models/$net.model.json
    run "$f.sim" "\$G sim $p --hw $hw --report r.json --csv w.csv"
    run "$f.simm" "\$G sim $p --hw $hw --model $m --report r.json"
    run "$f.validate" "\$G validate $p --model $m; \$G info $p"
    run "$f.import" "\$G import $p --hw $hw --model $m -o full.json -q"
  done
  for f in resnet_b1_2x2_SET bert_b1_4x4_SET goog_b1_4x4_SET; do
    net=$(echo "$f" | sed -E 's/_[0-9]+x[0-9]+_.*//')
    m=$corpus/models/$net.model.json
    run "$f.func" "\$G sim $corpus/${f}_IR.json.gz --hw $hw --model $m --functional --report r.json"
    run "$f.asm" "\$G asm $corpus/${f}_IR.json.gz --hw $hw --model $m -o prog"
    run "$f.plan" "\$G plan $corpus/${f}_IR.json.gz --model $m -o plan.json"
    run "$f.ref" "\$G ref --model $m -o ref"
  done
fi
[ "$differ" = 0 ] && echo "every output identical"

if command -v hyperfine >/dev/null && [ -f "$corpus/resnet_b1_8x8_LS_IR.json.gz" ]; then
  big=$work/resnet_b1_8x8_LS.json
  gzip -dc "$corpus/resnet_b1_8x8_LS_IR.json.gz" >"$big"
  m8=$corpus/models/resnet_b1.model.json
  small=$corpus/resnet_b1_2x2_SET_IR.json.gz
  hyperfine -N -w 1 -r "${RUNS:-7}" \
    -n old-sim "$old sim $big --hw $hw -q" -n new-sim "$new sim $big --hw $hw -q" \
    -n old-asm "$old asm $big --hw $hw -o $work/a1" -n new-asm "$new asm $big --hw $hw -o $work/a2" \
    -n old-func "$old sim $small --hw $hw --model $m8 --functional -q" \
    -n new-func "$new sim $small --hw $hw --model $m8 --functional -q" || true
fi
exit "$differ"
