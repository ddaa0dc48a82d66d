#!/usr/bin/env bash
# `gemini sweep slurm` against a real Slurm: starts the one-node cluster of
# scripts/slurm_local.sh (installing Debian's slurmctld, slurmd and munge if
# missing), runs a 2 x 3 sweep locally, submits the same sweep as a job
# array, waits (at most 5 minutes) for it, collects and compares the results
# with the local run; then deletes one point's record, collects (one
# missing), resubmits (one task) and collects again. The cluster is stopped
# on every exit. Exit 77 (skipped) when no cluster can run here (not root
# and no Slurm packages), with the reason.
#   bash tests/sweep/sweep_slurm_test.sh GEMINI
set -euo pipefail
gemini=$(readlink -f "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/gemini-slurm-test.XXXXXX")
cluster=$work/cluster
cleanup() {
  bash "$root/scripts/slurm_local.sh" stop "$cluster" || true
  rm -rf "$work"
}
trap cleanup EXIT

set +e
env_line=$(bash "$root/scripts/slurm_local.sh" start "$cluster")
rc=$?
set -e
if [ $rc = 77 ]; then
  echo "SKIPPED: no local Slurm cluster (see the line above)"
  exit 77
fi
[ $rc = 0 ] || { echo "FAIL: scripts/slurm_local.sh start exited $rc"; exit 1; }
eval "$env_line"
echo "cluster: SLURM_CONF=$SLURM_CONF"
sinfo

cat >"$work/sweep.json" <<JSON
{
  "name": "slurm-test",
  "hw": "set-polar",
  "inputs": ["$root/tests/data/spec_minimal.json", "$root/tests/data/set_minimal.json"],
  "axes": {"noc.link_gbps": [12, 24, 48]}
}
JSON

"$gemini" sweep run "$work/sweep.json" -o "$work/local" --jobs 2

wait_job() {  # wait_job ID: until no task of the array is pending or running (300 s at most)
  local job=$1
  for _ in $(seq 1 300); do
    local states
    states=$(squeue -h -j "$job" -o %T 2>/dev/null || true)
    case "$states" in
      *PENDING* | *RUNNING* | *CONFIGURING* | *COMPLETING*) ;;
      *) return 0 ;;
    esac
    sleep 1
  done
  echo "FAIL: job $job still queued after 300 s"
  squeue
  scontrol show job "$job" | head -30
  tail -20 "$cluster/slurmctld.log" "$cluster/slurmd.log"
  return 1
}

submit() {  # submit -> prints the job id
  local out
  out=$("$gemini" sweep slurm "$work/sweep.json" -o "$work/shared" --submit --array-max 2 --time 5:00)
  echo "$out" >&2
  echo "$out" | sed -n 's/^submitted job \([0-9]*\)$/\1/p'
}

job=$(submit)
[ -n "$job" ] || { echo "FAIL: no job id from gemini sweep slurm --submit"; exit 1; }
grep -q -- "--array=0-5%2" "$work/shared/slurm/job-1.sh"
wait_job "$job"
"$gemini" sweep collect "$work/shared" >"$work/collect.txt"
cat "$work/collect.txt"
grep -q "6 points: 6 ok, 0 failed, 0 missing" "$work/collect.txt"
[ -s "$work/shared/slurm/logs/${job}_5.out" ] || { echo "FAIL: no Slurm output of task 5"; exit 1; }

# The same results as the local run, point by point (host columns aside).
compare() {
  /usr/bin/python3 - "$work/local/results.csv" "$work/shared/results.csv" <<'PY'
import csv, sys
host = {"host_seconds", "peak_rss_mb"}
a = {r["id"]: r for r in csv.DictReader(open(sys.argv[1]))}
b = {r["id"]: r for r in csv.DictReader(open(sys.argv[2]))}
assert len(a) == 6 and a.keys() == b.keys(), (sorted(a), sorted(b))
for i in a:
    for k in a[i]:
        if k not in host and a[i][k] != b[i][k]:
            sys.exit(f"FAIL: point {i}: {k} is {a[i][k]} locally, {b[i][k]} on Slurm")
print("the Slurm results equal the local ones: 6 points")
PY
}
compare

# A lost record is missing; a resubmission runs that point only.
victim=$(sed -n 3p "$work/shared/slurm/job-1.ids")
rm "$work/shared/points/$victim.json"
set +e
"$gemini" sweep collect "$work/shared" >"$work/collect2.txt"
rc=$?
set -e
cat "$work/collect2.txt"
[ $rc = 1 ] && grep -q "5 ok, 0 failed, 1 missing" "$work/collect2.txt" && grep -q "missing: $victim" "$work/collect2.txt"
job2=$(submit)
[ -n "$job2" ] || { echo "FAIL: no job id for the resubmission"; exit 1; }
grep -q -- "--array=0-0%2" "$work/shared/slurm/job-2.sh"
[ "$(cat "$work/shared/slurm/job-2.ids")" = "$victim" ]
wait_job "$job2"
"$gemini" sweep collect "$work/shared" >"$work/collect3.txt"
grep -q "6 points: 6 ok, 0 failed, 0 missing" "$work/collect3.txt"
compare
echo "PASS: sweep on a real one-node Slurm cluster"
