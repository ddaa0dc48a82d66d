#!/usr/bin/env python3
"""Runs `gemini sim` on every schedule of the Gemini scheduler's corpus
(../shared/ir-corpus/gemini, manifest.csv) with configs/gemini-hpca24.json
(gemini-hpca24-7nm.json for the 7 nm rows), each file's chiplet grid, D2D
and NoC link bandwidth and DRAM bandwidth, and prints the chiplet tables of
docs/calibration.md (markdown) on stdout: latency, energy and each energy
component against the scheduler's, the D2D energy taken apart into the
figures that make it, and the silicon area and cost.

The scheduler counts bandwidths in bytes per cycle and divides its times by
the clock (src/main.cpp, SchNode::frequency): its latency is in ns, and at
1.3 GHz its "16" is 20.8 GB/s. Its XSR energy is int(gbps * 8 / 112) lanes
x int(97.44) mW (both truncated to integers in its code) x its SerDes count
(ylen*2 + 2*ylen*x_cut + 2*xlen*y_cut) x its latency.

  python3 scripts/calibrate_chiplets.py [--corpus ../shared/ir-corpus/gemini]
                                        [--gemini build/cli/gemini] [--check]

--check exits non-zero when a file is outside the tolerances of
docs/calibration.md (latency 0.8-1.3x, energy without D2D 0.8-1.25x, area and
cost within 2%).
"""
import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile


def hw_for(row, root):
    tech = row["tech"]
    base = os.path.join(root, "configs",
                        "gemini-hpca24-7nm.json" if tech == "7" else "gemini-hpca24.json")
    with open(base) as f:
        hw = json.load(f)
    ghz = float(row["freq_mhz"]) / 1000.0
    cores = int(row["xlen"]) * int(row["ylen"])
    hw["noc"]["link_gbps"] = float(row["noc_gbps"]) * ghz
    hw["chiplets"]["x_cut"] = int(row["xcut"])
    hw["chiplets"]["y_cut"] = int(row["ycut"])
    hw["chiplets"]["d2d_gbps"] = float(row["nop_gbps"]) * ghz
    # bytes per cycle -> GB/s at the clock, over the mesh's TOPS at that clock
    hw["dram"]["gbps_per_tops"] = float(row["dram_gbps"]) / (cores * 2.048)
    return hw


def sched_xsr(row):
    """The scheduler's XSR energy model, from its figures: (lanes, sides, mW)."""
    x, y, xc, yc = (int(row[k]) for k in ("xlen", "ylen", "xcut", "ycut"))
    dies = xc * yc
    if dies == 1:
        sides = 0
    elif dies == 2:
        sides = y * 2 + 2 * y * 2
    else:
        sides = y * 2 + 2 * y * xc + 2 * x * yc
    lanes = int(float(row["nop_gbps"]) * 8 // 112)
    mw = int(97.44 * 0.5 / 0.7) if row["tech"] == "7" else int(97.44)
    return lanes, sides, mw


def run(gemini, path, hw, tmp, name):
    cfg = os.path.join(tmp, name + ".hw.json")
    rep = os.path.join(tmp, name + ".report.json")
    with open(cfg, "w") as f:
        json.dump(hw, f)
    p = subprocess.run([gemini, "sim", path, "--hw", cfg, "--report", rep],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        return None, p.stderr.strip().splitlines()[-1] if p.stderr else "failed"
    with open(rep) as f:
        return json.load(f), ""


def ratio(a, b):
    return a / b if b else float("nan")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.path.join(root, "..", "shared", "ir-corpus", "gemini"))
    ap.add_argument("--gemini", default=os.path.join(root, "build", "cli", "gemini"))
    ap.add_argument("--check", action="store_true")
    a = ap.parse_args()
    manifest = os.path.join(a.corpus, "manifest.csv")
    if not os.path.exists(manifest):
        print(f"skipped: no {manifest} (the Gemini scheduler's corpus, ../shared)",
              file=sys.stderr)
        return 77
    rows = list(csv.DictReader(open(manifest)))
    bad = []
    lat, energy, d2d, silicon = [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for row in rows:
            name = row["file"].replace("_IR.json.gz", "")
            r, why = run(a.gemini, os.path.join(a.corpus, row["file"]), hw_for(row, root), tmp,
                         name)
            if r is None:
                lat.append(f"| {name} | does not simulate: {why} | | | |")
                bad.append(name)
                continue
            ghz = float(row["freq_mhz"]) / 1000.0
            ns = r["total_cycles"] / ghz
            s_ns = float(row["latency_cycles"])
            e = r["energy_pj"]
            ch = r.get("chiplets", {})
            lat_r = ratio(ns, s_ns)
            lat.append(f"| {name} | {r['total_cycles']:,} | {ns:,.0f} | {s_ns:,.0f} | {lat_r:.3f} |")
            ours_wo = e["total"] - e["d2d"]
            s_wo = float(row["energy_pj"]) - float(row["e_nop"])
            comp = [("l2", ["l2"], "e_l2"), ("buffers", ["core_buffers", "wl0"], "e_core_buffers"),
                    ("mac", ["mac"], "e_mac"), ("noc", ["noc"], "e_noc"),
                    ("dram", ["dram"], "e_dram")]
            cells = " | ".join(
                f"{ratio(sum(e[k] for k in ks), float(row[s])):.2f}" for _, ks, s in comp)
            ev = e["events"]
            hops = ratio(ev["noc_byte_hops"] + ev["d2d_byte_hops"],
                         float(row["noc_hops"]) + float(row["nop_hops"]))
            energy.append(f"| {name} | {e['total'] / 1e6:,.1f} | {float(row['energy_pj']) / 1e6:,.1f}"
                          f" | {ratio(e['total'], float(row['energy_pj'])):.2f}"
                          f" | {ratio(ours_wo, s_wo):.3f} | {cells} | {hops:.2f} |")
            ok = 0.8 <= lat_r <= 1.3 and 0.8 <= ratio(ours_wo, s_wo) <= 1.25
            if ch:
                lanes, sides, mw = sched_xsr(row)
                ours_lanes = ch["links"] * ch["lanes_per_link"]
                d2d.append(
                    f"| {name} | {e['d2d'] / 1e6:,.1f} | {float(row['e_nop']) / 1e6:,.1f} | "
                    f"{ratio(e['d2d'], float(row['e_nop'])):.3f} | {ch['links']} x "
                    f"{ch['lanes_per_link']} = {ours_lanes} | {sides} x {lanes} = {sides * lanes} | "
                    f"{ch['lanes_static_mw'] / max(ours_lanes, 1):.2f} / {mw} | "
                    f"{lat_r:.3f} | "
                    f"{ratio(ours_lanes, sides * lanes) * ratio(ch['lanes_static_mw'] / max(ours_lanes, 1), mw) * lat_r:.3f} | "
                    f"{ch['byte_hops']:,} / {int(row['nop_hops']):,} | "
                    f"{ch['link_utilisation_max'] * 100:.1f}% |")
            si = r.get("silicon")
            if si:
                pairs = [("compute_die_mm2", "compute_die_mm2"), ("io_die_mm2", "io_die_mm2"),
                         ("total_die_mm2", "total_die_mm2"), ("overall_usd", "cost_overall")]
                rs = [ratio(si[k], float(row[m])) for k, m in pairs]
                silicon.append(f"| {name} | " + " | ".join(
                    f"{si[k]:.3f} / {float(row[m]):.3f}" for k, m in pairs) +
                    f" | {max(abs(x - 1) for x in rs) * 100:.2f}% |")
                ok = ok and all(abs(x - 1) <= 0.02 for x in rs)
            if not ok:
                bad.append(name)
    print("| file | cycles | ns | scheduler ns | ratio |\n|---|---|---|---|---|")
    print("\n".join(lat))
    print("\n| file | energy uJ | scheduler uJ | ratio | ratio without D2D | L2 | buffers | mac "
          "| NoC | DRAM | NoC + D2D byte-hops |\n|---|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(energy))
    print("\n| file | D2D uJ | scheduler NoP uJ | ratio | our links x lanes | scheduler SerDes "
          "x lanes | mW per lane (ours / its) | latency ratio | product | D2D byte-hops "
          "(ours / its NoP hops) | busiest D2D link |\n|---|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(d2d))
    if silicon:
        print("\n| file | compute die mm² | IO die mm² | total mm² | overall USD | worst |\n"
              "|---|---|---|---|---|---|")
        print("\n".join(silicon))
    if a.check and bad:
        print("outside the tolerances: " + ", ".join(bad), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
