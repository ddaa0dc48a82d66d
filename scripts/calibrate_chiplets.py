#!/usr/bin/env python3
"""Simulates every schedule of the Gemini scheduler's corpus
(../shared/ir-corpus/gemini, manifest.csv; or --corpus another folder with
the same columns: gemini-study, gemini-timing) on the hardware it was made
for -- one `gemini sweep` whose inputs take each file's chiplet grid, D2D
interface and bandwidth, NoC and DRAM bandwidth and clock from the manifest
("hardware": "gemini", the sweep's conversion of the scheduler's units),
on configs/gemini-hpca24.json (gemini-hpca24-7nm.json for the 7 nm rows) --
and prints the chiplet tables of
docs/calibration.md (markdown) on stdout: latency, energy and each energy
component against the scheduler's, the D2D energy taken apart into the
figures that make it, and the silicon area and cost.

The scheduler counts bandwidths in bytes per cycle and divides its times by
the clock (src/main.cpp, SchNode::frequency): its latency is in ns, and at
1.3 GHz its "16" is 20.8 GB/s. Its XSR energy is int(gbps * 8 / 112) lanes
x int(97.44) mW (both truncated to integers in its code) x its SerDes count
(ylen*2 + 2*ylen*x_cut + 2*xlen*y_cut) x its latency.

  python3 scripts/calibrate_chiplets.py [--corpus ../shared/ir-corpus/gemini]
                                        [--gemini build/cli/gemini] [--check] [--jobs N]

--check exits non-zero when a file is outside the tolerances of
docs/calibration.md (latency 0.8-1.3x, energy without D2D 0.8-1.25x, area and
cost within 2%).
"""
import argparse
import csv
import gzip
import json
import re
import os
import subprocess
import sys
import tempfile


# The base configuration of each process node the scheduler's manifests use
# (its `tech` column): the hardware point of a row goes on top of it.
BASE_BY_TECH = {"12": "gemini-hpca24", "7": "gemini-hpca24-7nm"}


def study_spec(corpus, rows, root, tmp):
    """A sweep file of every row's file on the hardware its schedule was made
    for ("hardware": "gemini": gemini's one conversion of the scheduler's
    units, sweep/src/scheduler_point.cpp; docs/chiplets.md, "A study"), each
    process node on its own base configuration; its path."""
    inputs = []
    for tech in sorted({r["tech"] for r in rows}):
        if tech not in BASE_BY_TECH:
            raise SystemExit(f"calibrate_chiplets.py: no base configuration for {tech} nm "
                             f"(known: {', '.join(BASE_BY_TECH)})")
        files = [r["file"] for r in rows if r["tech"] == tech]
        ir = os.path.join(corpus, files[0] if len(files) == 1 else "{" + ",".join(files) + "}")
        inputs.append({"ir": ir, "manifest": os.path.join(corpus, "manifest.csv"),
                       "hardware": "gemini",
                       "hw": os.path.join(root, "configs", BASE_BY_TECH[tech] + ".json")})
    spec = os.path.join(tmp, "chiplets.sweep.json")
    with open(spec, "w") as f:
        json.dump({"name": "calibrate-chiplets", "inputs": inputs}, f)
    return spec


def hw_points(gemini, corpus, rows, root, tmp):
    """{file name: the hardware configuration (a dict) its point runs on},
    as the sweep converts it, without simulating (its plan alone)."""
    out = os.path.join(tmp, "plan")
    p = subprocess.run([gemini, "sweep", "slurm", study_spec(corpus, rows, root, tmp), "-o", out],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise SystemExit(f"calibrate_chiplets.py: gemini sweep slurm failed:\n{p.stderr}")
    with open(os.path.join(out, "plan.json")) as f:
        plan = json.load(f)
    hw = {}
    for pt in plan["points"]:
        with open(os.path.join(out, pt["hw"])) as f:
            hw[os.path.basename(pt["input"])] = json.load(f)
    return hw


def sweep_reports(gemini, corpus, rows, root, tmp, jobs):
    """Every row's file simulated on the hardware its schedule was made for
    (study_spec): one `gemini sweep`. Returns {file name: report or None},
    {file name: why it failed}."""
    spec = study_spec(corpus, rows, root, tmp)
    out = os.path.join(tmp, "sweep")
    p = subprocess.run([gemini, "sweep", "run", spec, "-o", out, "--jobs", str(jobs)],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode not in (0, 1):
        raise SystemExit(f"calibrate_chiplets.py: gemini sweep run failed:\n{p.stderr}")
    with open(os.path.join(out, "results.json")) as f:
        results = json.load(f)
    reports, why = {}, {}
    for pt in results["points"]:
        name = os.path.basename(pt["input"])
        if pt["status"] != "ok":
            reports[name], why[name] = None, pt.get("message") or pt["status"]
            continue
        with open(os.path.join(out, "points", pt["id"] + ".json")) as f:
            reports[name] = json.load(f)["report"]
    return reports, why


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


def scheduler_schedule(path):
    """The final schedule of the scheduler's summary (its standard output,
    summaries/<name>_out.txt.gz; the part after "Schtree_spm"): {layer: its
    time T} and its segments, each [its T, its layers]."""
    layers, segments = {}, []
    try:
        with gzip.open(path, "rt") as f:
            text = f.read()
    except OSError:
        return None, None
    if "Schtree_spm" not in text:
        return None, None
    for line in text[text.index("Schtree_spm"):].splitlines():
        t = re.search(r" T:([0-9.e+]+),", line)
        if not t:
            continue
        if line.startswith("\t\tS "):
            segments.append([float(t.group(1)), []])
        elif line.startswith("\t\t\t") and "Computing_time" in line and segments:
            name = line.split()[0]
            layers[name] = float(t.group(1))
            segments[-1][1].append(name)
    return layers, segments


def roofline_row(name, row, r, corpus):
    """The layer roofline under the scheduler's rules (the report's per-layer
    bounds and its segments) against its estimate and the simulation, and
    against its own per-layer costs where its summary is there."""
    ghz = float(row["freq_mhz"]) / 1000.0
    est = float(row["latency_cycles"]) * ghz
    sim = r["total_cycles"]
    lay = r.get("roofline_cycles_sum", 0)
    seg = r.get("roofline_segments_cycles_sum", 0)
    peak = r["dram"]["peak_gbps"] / ghz  # bytes per cycle
    ours_b, its_b = r["dram"]["bytes"], float(row["dram_bytes"])
    its_layers, its_segs = scheduler_schedule(
        os.path.join(corpus, "summaries", row["file"].replace("_IR.json.gz", "_out.txt.gz")))
    agree = segs = "--"
    if its_layers:
        mine = {l["name"]: l["roofline"]["bound_cycles"] for l in r["layers"] if "roofline" in l}
        # its times are ns (divided by its clock): ours are cycles
        close = sum(1 for n, t in its_layers.items() if n in mine and t > 0
                    and abs(mine[n] / (t * ghz) - 1) <= 0.1)
        agree = f"{close} of {len(its_layers)}"
        ours_segs = [set(s["layers"]) for s in r.get("roofline_segments", [])]
        same = sum(1 for _, ls in its_segs if set(ls) in ours_segs)
        segs = f"{same} of {len(its_segs)}"
    f = lambda x: f"{x:.3f}" if x else "--"
    return (f"| {name} | {est:,.0f} | {sim:,} | {sim / est:.3f} | {f(lay / est)} | "
            f"{f(sim / lay if lay else 0)} | {f(seg / est)} | {f(sim / seg if seg else 0)} | "
            f"{agree} | {segs} | {ours_b / 1e6:.2f} / {its_b / 1e6:.2f} | "
            f"{its_b / peak / est:.3f} | {ours_b / peak / est:.3f} |")


def ratio(a, b):
    return a / b if b else float("nan")


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.path.join(root, "..", "shared", "ir-corpus", "gemini"))
    ap.add_argument("--gemini", default=os.path.join(root, "build", "cli", "gemini"))
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--jobs", type=int, default=2, help="points simulated at once")
    a = ap.parse_args()
    manifest = os.path.join(a.corpus, "manifest.csv")
    if not os.path.exists(manifest):
        print(f"skipped: no {manifest} (the Gemini scheduler's corpus, ../shared)",
              file=sys.stderr)
        return 77
    rows = list(csv.DictReader(open(manifest)))
    bad = []
    lat, energy, d2d, silicon, roof = [], [], [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        reports, failed = sweep_reports(a.gemini, a.corpus, rows, root, tmp, a.jobs)
        for row in rows:
            name = row["file"].replace("_IR.json.gz", "")
            r, why = reports.get(row["file"]), failed.get(row["file"], "not run")
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
            roof.append(roofline_row(name, row, r, a.corpus))
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
            if ch and row["d2d"] != "XSR":  # per byte in both models: no lanes to count
                d2d.append(
                    f"| {name} ({row['d2d']}) | {e['d2d'] / 1e6:,.1f} | "
                    f"{float(row['e_nop']) / 1e6:,.1f} | "
                    f"{ratio(e['d2d'], float(row['e_nop'])):.3f} | -- | -- | -- | {lat_r:.3f} | -- | "
                    f"{ch['byte_hops']:,} / {int(row['nop_hops']):,} | "
                    f"{ch['link_utilisation_max'] * 100:.1f}% |")
            elif ch:
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
    print("\n| file | scheduler cycles | simulated | sim / est | layer roofline / est | "
          "sim / layer roofline | segment roofline / est | sim / segment roofline | layers at "
          "its cost (10%) | segments as its | DRAM MB ours / its | its DRAM at peak / est | "
          "ours at peak / est |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(roof))
    if a.check and bad:
        print("outside the tolerances: " + ", ".join(bad), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
