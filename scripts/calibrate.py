#!/usr/bin/env python3
"""Runs `gemini sim` on every corpus file with DRAM multicast on
(configs/set-polar.json) and off (configs/set-polar-unicast.json) and prints
the tables of docs/calibration.md (markdown) on stdout.

  python3 scripts/calibrate.py [--corpus ../shared/ir-corpus/set] [--gemini build/cli/gemini]
                               [--hw configs/set-polar.json]
                               [--hw-off configs/set-polar-unicast.json]
"""
import argparse
import csv
import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile


def quantile(xs, q):
    xs = sorted(xs)
    if not xs:
        return float("nan")
    i = q * (len(xs) - 1)
    lo = int(i)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (i - lo)


def dram_reads(path):
    """Bytes of the IR's DRAM out entries: once each, and once per destination."""
    d = json.load(gzip.open(path) if path.endswith(".gz") else open(path))
    out = d["-1"]["out"]
    unique = sum(e["size"] for e in out) / 8  # public dialect: bits
    per_dest = sum(e["size"] * len(e["destination"]) for e in out) / 8
    return unique, per_dest


def run(gemini, f, hw, est, tmp, tag):
    rep = os.path.join(tmp, os.path.basename(f) + tag + ".report.json")
    wl = os.path.join(tmp, os.path.basename(f) + tag + ".csv")
    subprocess.run([gemini, "sim", "-q", f, "--hw", hw, "--report", rep, "--csv", wl,
                    "--expect-cycles", est], check=True)
    return json.load(open(rep)), list(csv.DictReader(open(wl)))


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.path.join(root, "..", "shared", "ir-corpus", "set"))
    ap.add_argument("--gemini", default=os.path.join(root, "build", "cli", "gemini"))
    ap.add_argument("--hw", default=os.path.join(root, "configs", "set-polar.json"))
    ap.add_argument("--hw-off", default=os.path.join(root, "configs", "set-polar-unicast.json"))
    a = ap.parse_args()
    manifest = os.path.join(a.corpus, "manifest.csv")
    if not os.path.exists(manifest):
        sys.exit(f"{manifest}: not found (the corpus is not here)")
    rows = list(csv.DictReader(open(manifest)))
    tmp = tempfile.mkdtemp(prefix="gemini_calibrate_")
    out = []
    for r in rows:
        f = os.path.join(a.corpus, r["file"])
        j, wls = run(a.gemini, f, a.hw, r["set_latency_cycles"], tmp, ".on")
        off, _ = run(a.gemini, f, a.hw_off, r["set_latency_cycles"], tmp, ".off")
        unique, per_dest = dram_reads(f)
        ratios = []
        for w in wls:
            if int(w["predicted_cycles"]) > 0:
                ratios.append(int(w["simulated_cycles"]) / int(w["predicted_cycles"]))
        cores = j["cores"]
        n = len(cores)
        fin = sum(c["finish_cycles"] for c in cores)
        share = lambda k: sum(c["stall"][k] for c in cores) / fin if fin else 0
        busy = sum(c["busy_cycles"] for c in cores) / fin if fin else 0
        out.append(dict(name=r["file"].replace("_IR.json.gz", ""), mesh=f'{r["xlen"]}x{r["ylen"]}',
                        est=int(r["set_latency_cycles"]), sim=j["total_cycles"],
                        sim_off=off["total_cycles"], dram_off=off["dram"]["bytes"] / 1e6,
                        pred_sum=j["predicted_cycles_sum"], cores=n,
                        dram_mb=j["dram"]["bytes"] / 1e6, peak=j["dram"]["peak_gbps"],
                        read=j["dram"]["read_bytes"], unique_read=j["dram"]["unique_read_bytes"],
                        ach=j["dram"]["achieved_gbps"], busy=busy, dram=share("dram"),
                        token=share("token"), space=share("l2_space"), noc=share("noc"),
                        ratios=ratios, wall=j["host"]["wall_seconds"], unique=unique / 1e6,
                        per_dest=per_dest / 1e6))
    print("| file | mesh | scheduler estimate | simulated, multicast off | on | off / est | "
          "on / est | DRAM moved off -> on | DRAM read / unique reads (on) | "
          "DRAM GB/s on (peak) | DRAM at peak (on) / est | wall (on) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for o in out:
        bound = o["dram_mb"] * 1e6 / o["peak"]  # ns = cycles at 1 GHz
        print(f'| {o["name"]} | {o["mesh"]} | {o["est"]:,} | {o["sim_off"]:,} | {o["sim"]:,} | '
              f'{o["sim_off"] / o["est"]:.2f} | {o["sim"] / o["est"]:.2f} | '
              f'{o["dram_off"]:.1f} -> {o["dram_mb"]:.1f} MB | '
              f'{o["read"] / o["unique_read"]:.3f} | {o["ach"]:.2f} ({o["peak"]:.2f}) | '
              f'{bound / o["est"]:.2f} | {o["wall"]:.2f} s |')
    print()
    print("| file | IR DRAM reads, each tensor once | once per destination core | ratio | "
          "sim / est (on) | unique reads + stores at peak | / est |")
    print("|---|---|---|---|---|---|---|")
    for o in out:
        stores = (o["dram_mb"] * 1e6 - o["read"]) / 1e6
        once = (o["unique"] + stores) * 1e6 / o["peak"]
        print(f'| {o["name"]} | {o["unique"]:.1f} MB | {o["per_dest"]:.1f} MB | '
              f'{o["per_dest"] / o["unique"]:.2f} | {o["sim"] / o["est"]:.2f} | {once:,.0f} | '
              f'{once / o["est"]:.2f} |')
    print()
    print("| file (multicast on) | busy (compute) | stall: DRAM | NoC | token | L2 space | workloads | "
          "sim/`time` p10 | median | p90 | within 2x |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for o in out:
        rs = o["ratios"]
        within = sum(1 for x in rs if 0.5 <= x <= 2.0) / len(rs) if rs else 0
        print(f'| {o["name"]} | {o["busy"]:.1%} | {o["dram"]:.1%} | {o["noc"]:.1%} | {o["token"]:.1%} | '
              f'{o["space"]:.1%} | {len(rs)} | {quantile(rs, 0.1):.2f} | {statistics.median(rs):.2f} | '
              f'{quantile(rs, 0.9):.2f} | {within:.0%} |')


if __name__ == "__main__":
    main()
