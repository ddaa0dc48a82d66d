#!/usr/bin/env python3
"""Latency against offered load for NoC models, per traffic pattern and mesh
(docs/calibration.md, "NoC against BookSim 2"): `gemini noc` runs the same
packets through each model; this script sweeps the load, finds each curve's
zero-load latency, saturation throughput and the load at which its latency
doubles, and draws the curves.

    python3 scripts/noc_curves.py --out noc-curves          # 8x8 and 16x16, every pattern
    python3 scripts/noc_curves.py --meshes 4x4 --patterns uniform --packets 50 --out /tmp/c
    python3 scripts/noc_curves.py --patterns permutation --seeds 1,2,3 --out perm
    python3 scripts/noc_curves.py --models router+buffer_packets=64,booksim2 --out rb

(booksim2's buffers hold deep_packets, 64, where the mesh's and the
router's `buffer_packets: 0` are unbounded: give the router booksim2's to
compare the same network.)

Every curve is of one traffic seed (--seeds, default --seed): the
Bernoulli sources' draws and, for the permutation pattern, the random
permutation of destinations itself (`gemini noc --pattern permutation`).

Writes OUT/curves.json (every point), OUT/summary.csv and OUT/curves.png, and
prints the summary. A curve stops two points after it saturates (accepted
below 90% of offered). The configuration is --hw's (default set-polar), each
model with its defaults for it (booksim2_config.h: the mesh's link rate,
router cycles and buffers)."""
import argparse
import csv
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PATTERNS = ["uniform", "transpose", "bitcomp", "hotspot", "neighbor", "permutation"]
LOADS = [0.02, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]


def gemini_noc(args, seed, *extra):
    cmd = [args.gemini, "noc", "--json", "--hw", args.hw, "--packets", str(args.packets),
           "--warmup", str(args.warmup), "--seed", str(seed), *extra]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"noc_curves: {' '.join(cmd)} failed: {p.stderr.strip()}")
    return json.loads(p.stdout)


def model_args(spec):
    """A model, or a model with parameters over the configuration's:
    "mesh+fill_gaps=true" (VALUE as `gemini noc --set` reads it)."""
    model, *sets = spec.split("+")
    out = ["--model", model]
    for s in sets:
        out += ["--set", s]
    return out


def curve(args, spec, mesh, pattern, seed, old=None):
    """Zero load, then the loads in turn until two points past saturation;
    with `old` (the same curve, run before), its zero load is kept and the
    new points join its own."""
    base = [*model_args(spec), "--mesh", mesh, "--pattern", pattern]
    zero = old["zero_load"] if old else gemini_noc(args, seed, *base, "--zero-load")["points"][0]
    points, saturated = [], 0
    for load in args.loads:
        p = gemini_noc(args, seed, *base, "--load", str(load))["points"][0]
        points.append(p)
        print(f"  {spec:9s} {mesh:6s} {pattern:11s} seed {seed} load {load:5.2f}: accepted {p['accepted']:.3f}"
              f" latency {p['latency_mean']:9.1f} ({p['host_seconds']:.1f} s)", flush=True)
        if p["accepted"] < 0.9 * p["offered"]:
            saturated += 1
            if saturated >= 2:
                break
    if old:
        loads = {p["load"] for p in points}
        points = sorted(points + [p for p in old["points"] if p["load"] not in loads],
                        key=lambda p: p["load"])
    return {"model": spec, "mesh": mesh, "pattern": pattern, "seed": seed, "zero_load": zero,
            "points": points}


def summarise(c):
    """Zero-load latency, saturation throughput (the most accepted), the
    offered load at which mean latency reaches twice zero load
    (interpolated), host seconds."""
    z = c["zero_load"]["latency_mean"]
    sat = max(p["accepted"] for p in c["points"])
    double = None
    prev = None
    for p in c["points"]:
        if p["latency_mean"] >= 2 * z:
            if prev is None:
                double = p["offered"]
            else:
                f = (2 * z - prev["latency_mean"]) / (p["latency_mean"] - prev["latency_mean"])
                double = prev["offered"] + f * (p["offered"] - prev["offered"])
            break
        prev = p
    host = c["zero_load"]["host_seconds"] + sum(p["host_seconds"] for p in c["points"])
    return {"model": c["model"], "mesh": c["mesh"], "pattern": c["pattern"],
            "seed": c.get("seed", 1), "zero_load_latency": z, "saturation_throughput": sat, "load_latency_doubles": double,
            "host_seconds": host}


def plot(curves, path, ylog=False):
    """A panel per (mesh, pattern) that has curves, four to a row; with
    ylog the latency axis is logarithmic up to 100x zero load, so that the
    knee and the queues past it show."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    meshes = sorted({c["mesh"] for c in curves}, key=lambda m: int(m.split("x")[0]))
    panels = [(m, p) for m in meshes for p in PATTERNS
              if any(c["mesh"] == m and c["pattern"] == p for c in curves)]
    seeds = {c.get("seed", 1) for c in curves}
    cols = min(4, len(panels))
    rows = (len(panels) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols, 3.2 * rows), squeeze=False)
    styles = {"mesh": ("tab:blue", "o-"), "booksim2": ("tab:red", "s--"),
              "mesh+fill_gaps=true": ("tab:green", "^-."), "router": ("tab:purple", "d-"),
              "router+buffer_packets=64": ("tab:orange", "v-")}
    for k, ax in enumerate(axes.flat):
        if k >= len(panels):
            ax.set_visible(False)
            continue
        mesh, pattern = panels[k]
        for c in curves:
            if c["mesh"] != mesh or c["pattern"] != pattern:
                continue
            colour, style = styles.get(c["model"], ("black", "x-"))
            xs = [p["offered"] for p in c["points"]]
            ys = [p["latency_mean"] for p in c["points"]]
            label = c["model"] + (f" seed {c.get('seed', 1)}" if len(seeds) > 1 else "")
            ax.plot(xs, ys, style, color=colour, markersize=3, label=label)
            ax.axhline(c["zero_load"]["latency_mean"], color=colour, lw=0.6, ls=":")
        z = min((c["zero_load"]["latency_mean"] for c in curves
                 if c["mesh"] == mesh and c["pattern"] == pattern), default=10)
        if ylog:
            ax.set_yscale("log")
            ax.set_ylim(0.8 * z, 100 * z)
        else:
            ax.set_ylim(0, 6 * z)
        ax.set_title(f"{pattern}, {mesh}", fontsize=9)
        ax.set_xlabel("offered load (fraction of a link per core)", fontsize=8)
        if k % cols == 0:
            ax.set_ylabel("mean packet latency (cycles)", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--gemini", default=os.path.join(HERE, "..", "build", "cli", "gemini"))
    ap.add_argument("--hw", default="set-polar")
    ap.add_argument("--out", required=True)
    ap.add_argument("--meshes", default="8x8,16x16")
    ap.add_argument("--patterns", default=",".join(PATTERNS))
    ap.add_argument("--models", default="mesh,booksim2",
                    help="comma-separated; a model may carry parameters: mesh+fill_gaps=true")
    ap.add_argument("--loads", default=",".join(str(x) for x in LOADS),
                    help="offered loads, comma-separated (a curve stops two points past saturation)")
    ap.add_argument("--merge", action="store_true",
                    help="add to OUT/curves.json: a curve run before keeps its zero load and "
                         "gains these points")
    ap.add_argument("--packets", type=int, default=100, help="measured packets per source")
    ap.add_argument("--warmup", type=int, default=30, help="packets per source before those")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seeds", default=None,
                    help="traffic seeds, comma-separated: a curve per seed (default --seed)")
    ap.add_argument("--replot", action="store_true", help="redraw OUT/curves.json, run nothing")
    ap.add_argument("--ylog", action="store_true",
                    help="plot latency on a log axis up to 100x zero load (default: linear to 6x)")
    args = ap.parse_args()
    args.loads = [float(x) for x in args.loads.split(",") if x]
    seeds = [int(x) for x in args.seeds.split(",") if x] if args.seeds else [args.seed]
    os.makedirs(args.out, exist_ok=True)
    data = os.path.join(args.out, "curves.json")
    if args.replot:
        curves = json.load(open(data))
    else:
        old = json.load(open(data)) if args.merge and os.path.exists(data) else []
        by_key = {(c["model"], c["mesh"], c["pattern"], c.get("seed", 1)): c for c in old}
        for mesh in args.meshes.split(","):
            for pattern in args.patterns.split(","):
                for seed in seeds:
                    for spec in args.models.split(","):
                        key = (spec, mesh, pattern, seed)
                        by_key[key] = curve(args, spec, mesh, pattern, seed, by_key.get(key))
                        json.dump(list(by_key.values()), open(data, "w"), indent=1)
        curves = list(by_key.values())
    rows = [summarise(c) for c in curves]
    with open(os.path.join(args.out, "summary.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    print(f"{'mesh':6s} {'pattern':11s} {'seed':>4s} {'model':19s} {'zero-load':>9s} {'saturation':>10s} "
          f"{'2x latency at':>13s} {'host s':>8s}")
    for r in rows:
        d = "-" if r["load_latency_doubles"] is None else f"{r['load_latency_doubles']:.3f}"
        print(f"{r['mesh']:6s} {r['pattern']:11s} {r['seed']:4d} {r['model']:19s} {r['zero_load_latency']:9.2f} "
              f"{r['saturation_throughput']:10.3f} {d:>13s} {r['host_seconds']:8.1f}")
    plot(curves, os.path.join(args.out, "curves.png"), args.ylog)
    print(f"wrote {data}, {os.path.join(args.out, 'summary.csv')}, "
          f"{os.path.join(args.out, 'curves.png')}")


if __name__ == "__main__":
    main()
