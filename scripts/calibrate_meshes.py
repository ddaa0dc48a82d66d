#!/usr/bin/env python3
"""ResNet-50 at batch 1 across meshes (docs/calibration.md, "The same network
across meshes: what the critical path waited for"): every corpus file of
that network, each with the NoC link bandwidth its manifest row gives
(`noc_gbps`, empty = 24), simulated with configs/set-polar.json, with the
critical path's waits by kind (compute, dram, noc, dram_port, link,
in_order, token, l2_credit, ordering: they add up to the total) and the
what-ifs: "NoC free" (links x1000), "DRAM free" (DRAM bandwidth x1000), and
"DRAM at peak" (the run's DRAM bytes at the peak bandwidth, over the
estimate: the bound no simulation of these programs can beat). Prints
markdown on stdout.

  python3 scripts/calibrate_meshes.py [--corpus ../shared/ir-corpus/set]
                                      [--gemini build/cli/gemini] [--network resnet] [--batch 1]
"""
import argparse
import os
import sys
import tempfile

from corpus_runs import (Failed, at_link_gbps, dram_free, link_gbps, manifest, noc_free, simulate,
                         write_hw)

KINDS = ["compute", "dram", "noc", "dram_port", "link", "in_order", "token", "l2_credit",
         "ordering"]


def sim(gemini, f, hw, tmp, tag):
    try:
        return simulate(gemini, f, hw, os.path.join(tmp, os.path.basename(f) + tag + ".json"))
    except Failed as e:
        sys.exit(f"{f}: {e}")


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.path.join(root, "..", "shared", "ir-corpus", "set"))
    ap.add_argument("--gemini", default=os.path.join(root, "build", "cli", "gemini"))
    ap.add_argument("--hw", default=os.path.join(root, "configs", "set-polar.json"))
    ap.add_argument("--network", default="resnet")
    ap.add_argument("--batch", default="1")
    a = ap.parse_args()
    rows = [r for r in manifest(a.corpus) if r["network"] == a.network and r["batch"] == a.batch]
    rows.sort(key=lambda r: (int(r["xlen"]) * int(r["ylen"]), r.get("noc_gbps") or "",
                             r["schedule"]))
    print("| file | mesh | link GB/s | scheduler estimate | simulated | sim / est | "
          + " | ".join(KINDS) + " | NoC free / est | DRAM free / est | DRAM at peak / est |")
    print("|" + "---|" * (6 + len(KINDS) + 3))
    with tempfile.TemporaryDirectory() as tmp:
        for r in rows:
            f = os.path.join(a.corpus, r["file"])
            gbps = link_gbps(r) or 24.0
            est = int(r["set_latency_cycles"])
            links = at_link_gbps(gbps)
            rep = sim(a.gemini, f, write_hw(a.hw, tmp, "base", links), tmp, "")
            nf = sim(a.gemini, f, write_hw(a.hw, tmp, "noc_free", links, noc_free), tmp, "nf")
            df = sim(a.gemini, f, write_hw(a.hw, tmp, "dram_free", links, dram_free), tmp, "df")
            total = rep["total_cycles"]
            w = rep["critical_path"]["waits"]
            shares = [f"{100.0 * w[k] / total:.1f}%" for k in KINDS]
            d = rep["dram"]
            at_peak = d["bytes"] / d["peak_gbps"] * rep["frequency_mhz"] / 1000.0 / est
            print(f"| {r['file'].replace('_IR.json.gz', '')} | {r['xlen']}x{r['ylen']} | {gbps:g} "
                  f"| {est:,} | {total:,} | {total / est:.2f} | " + " | ".join(shares)
                  + f" | {nf['total_cycles'] / est:.2f} | {df['total_cycles'] / est:.2f} "
                  f"| {at_peak:.2f} |", flush=True)


if __name__ == "__main__":
    main()
