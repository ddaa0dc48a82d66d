#!/usr/bin/env python3
"""Runs `gemini sim` on every corpus file with multicast on
(configs/set-polar.json) and off (configs/set-polar-unicast.json) and prints
the tables of docs/calibration.md (markdown) on stdout. What-if runs of each
file under --hw bound how much compute, DRAM and NoC overlap: "compute
alone" with DRAM bandwidth x1000, "DRAM alone" with the PE, VP, WL0 and L2
ports x1000 (the DRAM ports keep their bandwidth), "NoC free" with links
x1000; "tight" is the previous L2 allocation (--l2-allocation tight) and
"4 MiB L2" the default allocation with no capacity limit worth the name.
Router-buffer runs give the effect of noc.buffer_packets. A file that does
not simulate is listed with the reason. The energy tables compare each
file's simulated energy with the scheduler's `set_energy` (manifest.csv)
and, where summaries/ holds its breakdown, component by component;
`--only energy` runs the multicast-on simulation alone and prints only
those tables. `--only roofline` runs it alone too, each file at its
manifest's NoC link bandwidth (`noc_gbps`), and prints the layer roofline
table (docs/timing-model.md, "Layer roofline"): the scheduler's cost rules
summed layer by layer, against its estimate and the simulation.

  python3 scripts/calibrate.py [--corpus ../shared/ir-corpus/set] [--gemini build/cli/gemini]
                               [--hw configs/set-polar.json]
                               [--hw-off configs/set-polar-unicast.json]
                               [--only energy|roofline]
"""
import argparse
import csv
import gzip
import json
import os
import statistics
import sys
import tempfile

from corpus_runs import (Failed, at_link_gbps, dram_free, link_gbps, manifest, name_of,
                         noc_free, simulate, write_hw)


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
    j = simulate(gemini, f, hw, rep, ["--csv", wl, "--expect-cycles", est, *extra])
    return j, list(csv.DictReader(open(wl)))


def big_l2(hw):
    hw["l2"]["size_bytes"] = 4 << 20
    hw["l2"]["ring_regions"] = [[0, 4 << 20]]


def compute_free(port_gbps):
    def change(hw):
        hw["pe"].update(rows=4096, cols=4096, lanes=4096, pipeline_cycles=0, cfg_cycles=0)
        hw["vp"] = {"lanes": 65536, "pipeline_cycles": 0}
        hw.setdefault("wl0", {})["bytes_per_cycle"] = 65536
        hw["l2"].update(port_bytes=65536, bank_bytes=4096, banks=16)
        hw["dram"]["port_gbps"] = port_gbps  # the real bandwidth, not scaled with the TOPS
    return change


COMPONENTS = ["mac", "core_buffers", "l2", "wl0", "noc", "dram", "static"]


def summary(corpus, name):
    """The scheduler's [Detailed Cost] of `name`, or None."""
    path = os.path.join(corpus, "summaries", name + "_summary.txt")
    if not os.path.exists(path):
        return None
    out = {}
    for line in open(path):
        k, sep, v = line.partition(":")
        if sep:
            try:
                out[k.strip()] = float(v)
            except ValueError:
                pass
    return out


def ol1_at_8(o):
    """pJ more if the array reduced 8 input channels per step (the scheduler's
    vecSize) instead of pe.lanes = 16: every partial-sum write and its
    read-back twice as often."""
    ev, cost = o["energy"]["events"], o["cost"]
    return ev["ol1_write_bytes"] * (cost["ol1_write_pj_per_byte"] + cost["ol1_read_pj_per_byte"])


def port_links(o):
    """pJ of the DRAM ports' links to their edge routers: every DRAM byte
    crosses one (the scheduler's ports sit on the edge cores)."""
    return o["energy"]["events"]["dram_bytes"] * o["cost"]["noc_pj_per_byte_hop"]


def energy_tables(out, corpus):
    print("| file | scheduler `set_energy` (pJ) | simulated (pJ) | sim / est | mac | core buffers | "
          "L2 | WL0 | NoC | DRAM | EDP (pJ x cycles) | DRAM GB moved | MACs (G) | "
          "OL1 reduced over 8 / est |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for o in out:
        e = o["energy"]
        t = e["total"]
        shares = " | ".join(f'{100 * e[c] / t:.1f}%' for c in COMPONENTS[:-1])
        print(f'| {o["name"]} | {o["set_energy"]:.4g} | {t:.4g} | {t / o["set_energy"]:.2f} | '
              f'{shares} | {e["edp_pj_cycles"]:.3g} | {e["events"]["dram_bytes"] / 1e9:.3f} | '
              f'{e["events"]["macs"] / 1e9:.3f} | {(t + ol1_at_8(o)) / o["set_energy"]:.2f} |')
    print()
    print("| file | component | scheduler (pJ) | simulated (pJ) | sim / scheduler | "
          "counted the scheduler's way (pJ) | / scheduler |")
    print("|---|---|---|---|---|---|---|")
    for o in out:
        s = summary(corpus, o["name"])
        if not s:
            continue
        e = o["energy"]
        # Where the counts differ by construction (docs/calibration.md): the
        # scheduler's PE reduces 8 input channels per step (OL1 twice as
        # often), and its DRAM ports sit on the edge cores (no port link).
        buf = e["core_buffers"] + e["wl0"]
        rows = [("mac (`mac_energy`)", s["mac_energy"], e["mac"], None),
                ("core buffers + WL0 (`buf_energy`)", s["buf_energy"], buf, buf + ol1_at_8(o)),
                ("L2 (`ubuf_energy`)", s["ubuf_energy"], e["l2"], None),
                ("NoC (`noc_energy` + `bus_energy`)", s["noc_energy"] + s["bus_energy"], e["noc"],
                 e["noc"] - port_links(o)),
                ("DRAM (`DRAM_energy`)", s["DRAM_energy"], e["dram"], None),
                ("total (`Energy`)", s["Energy"], e["total"], None)]
        for label, est, sim, like in rows:
            like_cells = (f"{like:.4g} | {like / est:.2f}" if like is not None and est
                          else "-- | --")
            print(f'| {o["name"]} | {label} | {est:.4g} | {sim:.4g} | '
                  f'{sim / est if est else float("nan"):.2f} | {like_cells} |')


def roofline_table(out):
    """The layer roofline against the estimate and the simulation, with
    the share of the roofline each limit sets and the layers whose links
    set it."""
    print("| file | mesh | link GB/s | scheduler estimate | simulated | sim / est | "
          "roofline without links / est | roofline | roofline / est | sim / roofline | "
          "set by compute | DRAM | links |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for o in out:
        by = {"compute": 0, "dram": 0, "links": 0}
        no_links = 0
        for l in o["layers"]:
            if "roofline" in l:
                x = l["roofline"]
                by[x["limit"]] += x["bound_cycles"]
                no_links += max(x["compute_cycles"], x["dram_cycles"])
        roof = o["roof"] or 1
        print(f'| {o["name"]} | {o["mesh"]} | {o["gbps"]} | {o["est"]:,} | {o["sim"]:,} | '
              f'{o["sim"] / o["est"]:.2f} | {no_links / o["est"]:.2f} | {o["roof"]:,} | '
              f'{o["roof"] / o["est"]:.2f} | '
              f'{o["sim"] / roof:.2f} | {100 * by["compute"] / roof:.0f}% | '
              f'{100 * by["dram"] / roof:.0f}% | {100 * by["links"] / roof:.0f}% |')


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.path.join(root, "..", "shared", "ir-corpus", "set"))
    ap.add_argument("--gemini", default=os.path.join(root, "build", "cli", "gemini"))
    ap.add_argument("--hw", default=os.path.join(root, "configs", "set-polar.json"))
    ap.add_argument("--hw-off", default=os.path.join(root, "configs", "set-polar-unicast.json"))
    ap.add_argument("--only", choices=["energy", "roofline"], help="print only these tables")
    a = ap.parse_args()
    cost = json.load(open(a.hw)).get("energy", {})
    if not os.path.exists(os.path.join(a.corpus, "manifest.csv")):
        sys.exit(f"{a.corpus}/manifest.csv: not found (the corpus is not here)")
    rows = manifest(a.corpus)
    tmp = tempfile.mkdtemp(prefix="gemini_calibrate_")
    out, failed = [], []
    for r in rows:
        f = os.path.join(a.corpus, r["file"])
        name = name_of(r)
        est = r["set_latency_cycles"]
        # Each file at the NoC link bandwidth it was scheduled for (the
        # manifest's noc_gbps; empty: the configuration's).
        hw, hw_off = a.hw, a.hw_off
        gbps = link_gbps(r)
        if gbps:
            hw = write_hw(a.hw, tmp, f"noc{gbps:g}", at_link_gbps(gbps))
            hw_off = write_hw(a.hw_off, tmp, f"noc{gbps:g}_off", at_link_gbps(gbps))
        try:
            j, wls = run(a.gemini, f, hw, est, tmp, ".on")
        except Failed as e:
            failed.append((name, str(e)))
            continue
        if a.only == "roofline":
            out.append(dict(name=name, mesh=f'{r["xlen"]}x{r["ylen"]}', gbps=f"{gbps or 24:g}",
                            est=int(est), sim=j["total_cycles"], layers=j["layers"],
                            roof=j.get("roofline_cycles_sum", 0)))
            continue
        if a.only == "energy":
            out.append(dict(name=name, energy=j["energy_pj"], set_energy=float(r["set_energy"]),
                            cost=cost))
            continue
        off, _ = run(a.gemini, f, hw_off, est, tmp, ".off")
        unique, per_dest = dram_reads(f)
        model = os.path.join(a.corpus, "models", f'{r["network"]}_b{r["batch"]}.model.json')
        try:
            with_model = (run(a.gemini, f, hw, est, tmp, ".model", ["--model", model])[0]
                          ["total_cycles"] if os.path.exists(model) else None)
        except Failed:
            with_model = None
        alone_c, _ = run(a.gemini, f, write_hw(hw, tmp, "dram_free", dram_free), est, tmp,
                         ".dram_free")
        port = j["dram"]["ports"][0]["peak_gbps"]
        alone_d, _ = run(a.gemini, f, write_hw(hw, tmp, "compute_free", compute_free(port)),
                         est, tmp, ".compute_free")
        nocf, _ = run(a.gemini, f, write_hw(hw, tmp, "noc_free", noc_free), est, tmp, ".noc_free")
        tight, _ = run(a.gemini, f, hw, est, tmp, ".tight", ["--l2-allocation", "tight"])
        big, _ = run(a.gemini, f, write_hw(hw, tmp, "big_l2", big_l2), est, tmp, ".big_l2")
        buffers = []
        for b in (1, 4):
            hw_b = write_hw(hw, tmp, f"buffers{b}", lambda h: h["noc"].update(buffer_packets=b))
            buffers.append(run(a.gemini, f, hw_b, est, tmp, f".b{b}")[0]["total_cycles"])
        ratios = []
        for w in wls:
            if int(w["predicted_cycles"]) > 0:
                ratios.append(int(w["simulated_cycles"]) / int(w["predicted_cycles"]))
        cores = j["cores"]
        n = len(cores)
        fin = sum(c["finish_cycles"] for c in cores)
        share = lambda k: sum(c["stall"][k] for c in cores) / fin if fin else 0
        busy = sum(c["busy_cycles"] for c in cores) / fin if fin else 0
        cp = j.get("critical_path", {})
        out.append(dict(name=name, mesh=f'{r["xlen"]}x{r["ylen"]}', net=r["network"],
                        batch=r["batch"], sched=r["schedule"],
                        est=int(est), sim=j["total_cycles"],
                        sim_off=off["total_cycles"], dram_off=off["dram"]["bytes"] / 1e6,
                        pred_sum=j["predicted_cycles_sum"], cores=n,
                        dram_mb=j["dram"]["bytes"] / 1e6, peak=j["dram"]["peak_gbps"],
                        read=j["dram"]["read_bytes"], unique_read=j["dram"]["unique_read_bytes"],
                        ach=j["dram"]["achieved_gbps"], busy=busy, dram=share("dram"),
                        token=share("token"), space=share("l2_space"), noc=share("noc"),
                        ratios=ratios, wall=j["host"]["wall_seconds"], unique=unique / 1e6,
                        per_dest=per_dest / 1e6, alone_c=alone_c["total_cycles"],
                        alone_d=alone_d["total_cycles"], noc_free=nocf["total_cycles"],
                        tight=tight["total_cycles"], big=big["total_cycles"],
                        alloc=j["l2"].get("allocation", {}),
                        alloc_tight=tight["l2"].get("allocation", {}),
                        link_max=j["noc"]["link_utilisation_max"], cp=cp,
                        buffers=buffers, model=with_model, energy=j["energy_pj"],
                        set_energy=float(r["set_energy"]), cost=cost))
    if a.only == "energy":
        energy_tables(out, a.corpus)
        return
    if a.only == "roofline":
        roofline_table(out)
        return
    def pct(x):
        return f"{100 * x:.1f}%"

    def cpk(o, k):
        cp = o["cp"]
        tot = cp.get("cycles", 0)
        return cp.get(k, 0) / tot if tot else 0

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
    for name, why in failed:
        print(f"| {name} | -- | -- | -- | -- | -- | -- | -- | -- | -- | -- | not simulated: {why} |")
    print()
    print("| network | batch | mesh | schedule | scheduler estimate | simulated | sim / est | "
          "DRAM at peak / est | NoC free / est | critical path: compute | DRAM | NoC | token | "
          "busiest link | DRAM GB/s (peak) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for o in sorted(out, key=lambda o: (o["net"], int(o["batch"]), int(o["mesh"].split("x")[0]),
                                        o["sched"])):
        bound = o["dram_mb"] * 1e6 / o["peak"]
        print(f'| {o["net"]} | {o["batch"]} | {o["mesh"]} | {o["sched"]} | {o["est"]:,} | '
              f'{o["sim"]:,} | {o["sim"] / o["est"]:.2f} | {bound / o["est"]:.2f} | '
              f'{o["noc_free"] / o["est"]:.2f} | {pct(cpk(o, "compute"))} | {pct(cpk(o, "dram"))} | '
              f'{pct(cpk(o, "noc"))} | {pct(cpk(o, "token"))} | {pct(o["link_max"])} | '
              f'{o["ach"]:.1f} ({o["peak"]:.1f}) |')
    print()
    print("| file | loads | waits, tight | of them forced | waits, prefetch | of them forced | "
          "allocated peak / buffer KiB | live-data peak KiB | tight / est | prefetch / est | "
          "4 MiB L2 / est |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for o in out:
        al, at = o["alloc"], o["alloc_tight"]
        if not al:
            continue
        print(f'| {o["name"]} | {al["loads"]} | {al["war_waits_tight"]} | {al["war_forced_tight"]} | '
              f'{al["war_waits"]} | {al["war_forced"]} | '
              f'{al["alloc_peak_bytes"] / 1024:.1f} / {al["buffer_bytes"] / 1024:.1f} | '
              f'{al["live_peak_bytes"] / 1024:.1f} | {o["tight"] / o["est"]:.2f} | '
              f'{o["sim"] / o["est"]:.2f} | {o["big"] / o["est"]:.2f} |')
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
          "no overlap (sum) / est | overlap achieved | NoC free / est |")
    print("|---|---|---|---|---|---|---|")
    for o in out:
        c, d, e = o["alone_c"], o["alone_d"], o["est"]
        hidden = (c + d - o["sim"]) / min(c, d) if min(c, d) else 0
        print(f'| {o["name"]} | {o["sim"] / e:.2f} | {c / e:.2f} | {d / e:.2f} | {(c + d) / e:.2f} | '
              f'{hidden:.0%} | {o["noc_free"] / e:.2f} |')
    print()
    print("| file | unbounded router buffers | 1 packet | 4 |")
    print("|---|---|---|---|")
    for o in out:
        cells = " | ".join(f"{t:,} ({t / o['sim']:.2f})" for t in o["buffers"])
        print(f'| {o["name"]} | {o["sim"]:,} | {cells} |')
    print()
    energy_tables(out, a.corpus)


if __name__ == "__main__":
    main()
