#!/usr/bin/env python3
"""Runs `gemini sim` on every corpus file with DRAM multicast on
(configs/set-polar.json) and off (configs/set-polar-unicast.json) and prints
the tables of docs/calibration.md (markdown) on stdout. Two what-if runs of
each file under --hw bound how much compute and DRAM overlap: "compute
alone" with DRAM bandwidth x1000, "DRAM alone" with the PE, VP, WL0 and L2
ports x1000 (the DRAM ports keep their bandwidth). Router-buffer runs give
the effect of noc.buffer_packets.

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


def run(gemini, f, hw, est, tmp, tag, extra=()):
    rep = os.path.join(tmp, os.path.basename(f) + tag + ".report.json")
    wl = os.path.join(tmp, os.path.basename(f) + tag + ".csv")
    subprocess.run([gemini, "sim", "-q", f, "--hw", hw, "--report", rep, "--csv", wl,
                    "--expect-cycles", est, *extra], check=True)
    return json.load(open(rep)), list(csv.DictReader(open(wl)))


def write_hw(base, tmp, name, change):
    """A copy of the configuration `base` with `change` applied; its path."""
    hw = json.load(open(base))
    change(hw)
    path = os.path.join(tmp, name + ".json")
    json.dump(hw, open(path, "w"))
    return path


def dram_free(hw):
    hw["dram"]["gbps_per_tops"] = hw["dram"].get("gbps_per_tops", 0) * 1000
    if hw["dram"].get("port_gbps"):
        hw["dram"]["port_gbps"] *= 1000


def compute_free(port_gbps):
    def change(hw):
        hw["pe"].update(rows=4096, cols=4096, lanes=4096, pipeline_cycles=0, cfg_cycles=0)
        hw["vp"] = {"lanes": 65536, "pipeline_cycles": 0}
        hw.setdefault("wl0", {})["bytes_per_cycle"] = 65536
        hw["l2"].update(port_bytes=65536, bank_bytes=4096, banks=16)
        hw["dram"]["port_gbps"] = port_gbps  # the real bandwidth, not scaled with the TOPS
    return change


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
        model = os.path.join(a.corpus, "models", f'{r["network"]}_b{r["batch"]}.model.json')
        with_model = (run(a.gemini, f, a.hw, r["set_latency_cycles"], tmp, ".model",
                          ["--model", model])[0]["total_cycles"] if os.path.exists(model) else None)
        alone_c, _ = run(a.gemini, f, write_hw(a.hw, tmp, "dram_free", dram_free),
                         r["set_latency_cycles"], tmp, ".dram_free")
        port = j["dram"]["ports"][0]["peak_gbps"]
        alone_d, _ = run(a.gemini, f, write_hw(a.hw, tmp, "compute_free", compute_free(port)),
                         r["set_latency_cycles"], tmp, ".compute_free")
        buffers = []
        for b in (1, 2, 4, 8):
            hw_b = write_hw(a.hw, tmp, f"buffers{b}", lambda h: h["noc"].update(buffer_packets=b))
            buffers.append(run(a.gemini, f, hw_b, r["set_latency_cycles"], tmp, f".b{b}")[0]
                           ["total_cycles"])
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
                        per_dest=per_dest / 1e6, alone_c=alone_c["total_cycles"],
                        alone_d=alone_d["total_cycles"], buffers=buffers, model=with_model))
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

    print()
    print("| file | on, IR only | on, `--model` | / IR only | / est |")
    print("|---|---|---|---|---|")
    for o in out:
        m = o["model"]
        print(f'| {o["name"]} | {o["sim"]:,} | ' + (f'{m:,} | {m / o["sim"]:.3f} | {m / o["est"]:.2f} |'
                                                  if m else "-- | -- | -- |"))
    print()
    print("| file | sim / est | compute alone (DRAM free) / est | DRAM alone (compute free) / est | "
          "no overlap (sum) / est | overlap achieved |")
    print("|---|---|---|---|---|---|")
    for o in out:
        c, d, e = o["alone_c"], o["alone_d"], o["est"]
        hidden = (c + d - o["sim"]) / min(c, d) if min(c, d) else 0
        print(f'| {o["name"]} | {o["sim"] / e:.2f} | {c / e:.2f} | {d / e:.2f} | {(c + d) / e:.2f} | '
              f'{hidden:.0%} |')
    print()
    print("| file | unbounded router buffers | 1 packet | 2 | 4 | 8 |")
    print("|---|---|---|---|---|---|")
    for o in out:
        cells = " | ".join(f"{t:,} ({t / o['sim']:.2f})" for t in o["buffers"])
        print(f'| {o["name"]} | {o["sim"]:,} | {cells} |')


if __name__ == "__main__":
    main()
