#!/usr/bin/python3
"""Plots a study (DIR/study.json, written by `gemini sweep collect|study|plot`
for a sweep whose inputs bring the scheduler's own figures; docs/sweeps.md,
"Studies"): for each group of points (one per combination of other axes),

  study_metrics    latency, energy, cost, EDP and cost x EDP of every design
                   point, simulated beside the scheduler's (bars; the best of
                   each marked), and below each the ratio simulated / the
                   scheduler's;
  study_ranks      each metric's ranks, the scheduler's against ours (on the
                   diagonal where they agree), with Spearman's rho and
                   Kendall's tau-b;
  study_why        per point, what the simulated critical path spent its
                   cycles on, the NoC, D2D and DRAM shares of the energy, and
                   the power: the package's peak and average, the hottest
                   die's peak.

  scripts/plot_study.py DIR/study.json [-o DIR/plots] [--format png,svg]

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
    sys.exit("plot_study.py: matplotlib is missing: apt-get install python3-matplotlib")

OURS, THEIRS = "#1f77b4", "#ff7f0e"
# Values as the tables show them (study.cpp): energy in uJ, EDP in uJ x us.
SCALE = {"latency": (1, "us"), "energy": (1e-6, "uJ"), "cost": (1, "USD"),
         "edp": (1e-9, "uJ x us"), "cost_edp": (1e-9, "USD x uJ x us")}
PATH_KINDS = ["compute", "dram", "noc", "token", "other"]
PATH_COLOURS = ["#2ca02c", "#d62728", "#9467bd", "#8c564b", "#7f7f7f"]


def save(fig, out, name, formats, written):
    for f in formats:
        path = os.path.join(out, f"{name}.{f}")
        fig.savefig(path, bbox_inches="tight", dpi=120)
        written.append(path)
    plt.close(fig)


def metrics_figure(study, group, suffix, out, formats, written):
    pts = group["points"]
    names = [p["design"] for p in pts]
    metrics = study["metrics"]
    fig, axs = plt.subplots(2, len(metrics), figsize=(4.2 * len(metrics), 6.4), squeeze=False,
                            gridspec_kw={"height_ratios": [3, 1.3]})
    x = list(range(len(pts)))
    for k, m in enumerate(metrics):
        key = m["key"]
        scale, unit = SCALE.get(key, (1, m["unit"]))
        ours = [p["ours"][key] for p in pts]
        theirs = [p["scheduler"][key] for p in pts]
        ax = axs[0][k]
        ax.bar([i - 0.2 for i in x], [v * scale if v is not None else 0 for v in ours], 0.4,
               color=OURS, label="simulated")
        ax.bar([i + 0.2 for i in x], [v * scale if v is not None else 0 for v in theirs], 0.4,
               color=THEIRS, label="scheduler")
        for vals, dx, colour in ((ours, -0.2, OURS), (theirs, 0.2, THEIRS)):
            known = [(v, i) for i, v in enumerate(vals) if v is not None]
            if known:
                v, i = min(known)
                ax.plot(i + dx, v * scale, marker="*", markersize=12, color="black",
                        markerfacecolor=colour)
        ax.set_title(f"{m['title']} ({unit})", fontsize=10)
        ax.set_xticks(x)
        ax.set_xticklabels([])
        ax.grid(True, axis="y", alpha=0.3)
        r = axs[1][k]
        ratios = [o / t if o is not None and t else None for o, t in zip(ours, theirs)]
        r.plot([i for i, v in zip(x, ratios) if v is not None], [v for v in ratios if v is not None],
               marker="o", color="black", linewidth=1)
        r.axhline(1.0, color="gray", linewidth=0.8, linestyle="--")
        known = [v for v in ratios if v is not None]
        if known:  # at least 0.9-1.1, so that agreement reads as a flat line
            r.set_ylim(min(0.9, min(known) - 0.05), max(1.1, max(known) + 0.05))
        r.ticklabel_format(axis="y", useOffset=False)
        r.set_ylabel("simulated /\nscheduler", fontsize=8)
        r.set_xticks(x)
        r.set_xticklabels(names, rotation=60, ha="right", fontsize=7)
        r.grid(True, alpha=0.3)
    fig.legend(*axs[0][0].get_legend_handles_labels(), fontsize=8, loc="upper right", ncol=2)
    fig.suptitle(f"study {study['sweep']}{suffix}: each design point simulated and as the "
                 f"scheduler scored it (* best)", fontsize=11)
    fig.tight_layout()
    save(fig, out, "study_metrics" + suffix.replace(" ", "_"), formats, written)


def ranks_figure(study, group, suffix, out, formats, written):
    pts = group["points"]
    metrics = study["metrics"]
    rankings = {r["metric"]: r for r in group["rankings"]}
    fig, axs = plt.subplots(1, len(metrics), figsize=(3.6 * len(metrics), 3.9), squeeze=False)
    n = len(pts)
    for k, m in enumerate(metrics):
        key = m["key"]
        ax = axs[0][k]
        ax.plot([0.5, n + 0.5], [0.5, n + 0.5], color="gray", linewidth=0.8, linestyle="--")
        for p in pts:
            rs, ro = p["rank_scheduler"][key], p["rank_ours"][key]
            if not rs or not ro:
                continue
            ax.plot(rs, ro, marker="o", color=OURS if rs == ro else THEIRS)
            ax.annotate(p["design"], (rs, ro), fontsize=6, xytext=(3, 2),
                        textcoords="offset points")
        r = rankings.get(key, {})
        rho, tau = r.get("spearman"), r.get("kendall_tau_b")
        fmt = lambda v: "--" if v is None else f"{v:.2f}"
        ax.set_title(f"{m['title']}: rho {fmt(rho)}, tau {fmt(tau)}\n"
                     f"same best: {'yes' if r.get('agree') else 'no'}", fontsize=9)
        ax.set_xlim(0.5, n + 0.5)
        ax.set_ylim(n + 0.5, 0.5)
        ax.set_xlabel("rank, scheduler")
        if k == 0:
            ax.set_ylabel("rank, simulated")
        ax.grid(True, alpha=0.3)
    fig.suptitle(f"study {study['sweep']}{suffix}: ranks (1 = best)", fontsize=11)
    fig.tight_layout()
    save(fig, out, "study_ranks" + suffix.replace(" ", "_"), formats, written)


def why_figure(study, group, suffix, out, formats, written):
    pts = group["points"]
    names = [p["design"] for p in pts]
    x = list(range(len(pts)))
    fig, axs = plt.subplots(1, 3, figsize=(21, 4.4))
    bottom = [0.0] * len(pts)
    for kind, colour in zip(PATH_KINDS, PATH_COLOURS):
        vals = [100 * p["critical_path_shares"].get(kind, 0) for p in pts]
        axs[0].bar(x, vals, bottom=bottom, color=colour, label=kind)
        bottom = [b + v for b, v in zip(bottom, vals)]
    axs[0].set_ylabel("% of the critical path")
    axs[0].set_title("simulated critical path, by kind", fontsize=10)
    axs[0].legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    bottom = [0.0] * len(pts)
    for part, colour in (("noc", "#9467bd"), ("d2d", "#e377c2"), ("dram", "#d62728")):
        vals = [100 * p["energy_shares"].get(part, 0) for p in pts]
        axs[1].bar(x, vals, bottom=bottom, color=colour, label=part)
        bottom = [b + v for b, v in zip(bottom, vals)]
    axs[1].bar(x, [100 - b for b in bottom], bottom=bottom, color="#c7c7c7",
               label="compute, buffers, L2, static")
    axs[1].set_ylabel("% of the simulated energy")
    axs[1].set_title("simulated energy: NoC, D2D, DRAM", fontsize=10)
    axs[1].legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    for ax in axs:
        ax.set_xticks(x)
        ax.set_xticklabels(names, rotation=60, ha="right", fontsize=7)
        ax.grid(True, axis="y", alpha=0.3)
    for ax in axs[:2]:
        ax.set_ylim(0, 100)
    power = [p.get("power") or {} for p in pts]
    for k, (key, label, colour) in enumerate((("peak_w", "package peak", "#d62728"),
                                              ("average_w", "package average", "#1f77b4"),
                                              ("die_peak_w", "hottest die's peak", "#ff7f0e"))):
        axs[2].bar([i + (k - 1) * 0.27 for i in x], [w.get(key) or 0 for w in power], 0.27,
                   color=colour, label=label)
    axs[2].set_ylabel("W")
    axs[2].set_title("simulated power (windows of the default length)", fontsize=10)
    axs[2].legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    fig.suptitle(f"study {study['sweep']}{suffix}: why", fontsize=11)
    fig.tight_layout()
    save(fig, out, "study_why" + suffix.replace(" ", "_"), formats, written)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("study", help="study.json of a sweep directory")
    ap.add_argument("-o", "--out", help="output folder (default: plots/ beside study.json)")
    ap.add_argument("--format", default="png,svg", help="png, svg or png,svg")
    a = ap.parse_args()
    try:
        study = json.load(open(a.study))
    except (OSError, ValueError) as e:
        sys.exit(f"plot_study.py: {a.study}: {e}")
    out = a.out or os.path.join(os.path.dirname(os.path.abspath(a.study)), "plots")
    os.makedirs(out, exist_ok=True)
    formats = [f for f in a.format.split(",") if f]
    written = []
    groups = [g for g in study["groups"] if g["points"]]
    if not groups:
        sys.exit(f"plot_study.py: {a.study}: no design point has a result yet; nothing to plot")
    for i, g in enumerate(groups):
        suffix = "" if len(groups) == 1 else f" {i + 1}"
        metrics_figure(study, g, suffix, out, formats, written)
        ranks_figure(study, g, suffix, out, formats, written)
        why_figure(study, g, suffix, out, formats, written)
    for w in written:
        print(w)


if __name__ == "__main__":
    main()
