#!/usr/bin/python3
"""Plots a chiplet sweep (configs/sweeps/chiplets.json; DIR/results.json
written by `gemini sweep run|collect`) the way the Gemini paper weighs a
design: against the number of chiplets (chiplets.x_cut x chiplets.y_cut),
  latency.png     the simulated time, one line per input and D2D interface
                  (solid: the sweep's middle D2D bandwidth; dashed/dotted the
                  others);
  energy.png      the energy split by component, one panel per interface
                  (the first input, the middle D2D bandwidth);
  edp.png         energy x delay, per input and interface;
  cost_edp.png    monetary cost x energy x delay (the scheduler's objective),
                  when the runs have a silicon section.

  scripts/plot_chiplets.py DIR/results.json [-o DIR/plots] [--format png,svg]

Uses Debian's python3-matplotlib (hence /usr/bin/python3).
"""
import argparse
import json
import os
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit("plot_chiplets.py: matplotlib is missing: apt-get install python3-matplotlib")

COMPONENTS = ["mac", "core_buffers", "l2", "wl0", "noc", "d2d", "dram", "static"]


def param(p, key, default):
    v = p["params"].get(key)
    return default if v is None else v


def rows(results):
    out = []
    for p in results["points"]:
        m = p.get("metrics") or {}
        if p.get("status") != "ok" or m.get("time_us") is None:
            continue
        out.append({
            "input": p.get("label") or p.get("input"),
            "dies": param(p, "chiplets.x_cut", 1) * param(p, "chiplets.y_cut", 1),
            "gbps": param(p, "chiplets.d2d_gbps", 16),
            "iface": param(p, "chiplets.interface", "XSR"),
            "m": m,
        })
    return out


def lines(ax, data, metric, scale, gbps_list, mid):
    styles = {g: s for g, s in zip(gbps_list, ["--", "-", ":", "-."])} if len(gbps_list) > 1 \
        else {gbps_list[0]: "-"}
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    keys = sorted({(d["input"], d["iface"]) for d in data})
    for i, (inp, iface) in enumerate(keys):
        for g in gbps_list:
            pts = sorted((d["dies"], d["m"].get(metric)) for d in data
                         if d["input"] == inp and d["iface"] == iface and d["gbps"] == g)
            pts = [(x, y * scale) for x, y in pts if y is not None]
            if not pts:
                continue
            ax.plot([x for x, _ in pts], [y for _, y in pts], styles[g], marker="o", ms=3,
                    color=colours[i % len(colours)],
                    label=f"{os.path.basename(str(inp))[:28]}, {iface}" if g == mid else None)
    ax.set_xscale("log", base=2)
    ax.set_xlabel("chiplets (x_cut x y_cut)")
    ax.grid(True, alpha=0.3)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("-o", "--out")
    ap.add_argument("--format", default="png,svg")
    a = ap.parse_args()
    with open(a.results) as f:
        results = json.load(f)
    data = rows(results)
    if not data:
        sys.exit("plot_chiplets.py: no point ran")
    out = a.out or os.path.join(os.path.dirname(os.path.abspath(a.results)), "plots")
    os.makedirs(out, exist_ok=True)
    formats = a.format.split(",")
    gbps_list = sorted({d["gbps"] for d in data})
    mid = gbps_list[len(gbps_list) // 2]
    written = []

    def save(fig, name):
        fig.tight_layout()
        for fmt in formats:
            path = os.path.join(out, f"{name}.{fmt}")
            fig.savefig(path, dpi=120)
            written.append(path)
        plt.close(fig)

    note = f"D2D {mid:g} GB/s solid; " + ", ".join(f"{g:g}" for g in gbps_list if g != mid)
    for metric, scale, label, name in (("time_us", 1e-3, "latency (ms)", "latency"),
                                       ("edp_pj_cycles", 1.0, "EDP (pJ x cycles)", "edp"),
                                       ("cost_edp_usd_pj_cycles", 1.0, "cost x EDP (USD x pJ x cycles)",
                                        "cost_edp")):
        if not any(d["m"].get(metric) is not None for d in data):
            continue
        fig, ax = plt.subplots(figsize=(8, 5))
        lines(ax, data, metric, scale, gbps_list, mid)
        ax.set_ylabel(label)
        if metric != "time_us":
            ax.set_yscale("log")
        ax.set_title(f"{results.get('sweep', '')}: {label} ({note} dashed/dotted)", fontsize=10)
        ax.legend(fontsize=7)
        save(fig, name)

    first = sorted({d["input"] for d in data})[0]
    ifaces = sorted({d["iface"] for d in data})
    fig, axs = plt.subplots(1, len(ifaces), figsize=(4 * len(ifaces), 4.5), squeeze=False,
                            sharey=True)
    for ax, iface in zip(axs[0], ifaces):
        pts = sorted((d["dies"], d["m"]) for d in data
                     if d["input"] == first and d["iface"] == iface and d["gbps"] == mid)
        xs = [str(x) for x, _ in pts]
        bottom = [0.0] * len(pts)
        for c in COMPONENTS:
            ys = [(m.get(f"energy_{c}_pj") or 0) * 1e-6 for _, m in pts]
            if not any(ys):
                continue
            ax.bar(xs, ys, bottom=bottom, label=c)
            bottom = [b + y for b, y in zip(bottom, ys)]
        ax.set_title(f"{iface}, D2D {mid:g} GB/s", fontsize=10)
        ax.set_xlabel("chiplets")
        ax.grid(True, axis="y", alpha=0.3)
    axs[0][0].set_ylabel(f"energy (uJ): {os.path.basename(str(first))[:40]}")
    axs[0][-1].legend(fontsize=7)
    save(fig, "energy")
    for p in written:
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
