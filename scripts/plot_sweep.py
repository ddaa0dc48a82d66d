#!/usr/bin/python3
"""Plots the results of a gemini sweep (DIR/results.json, written by
`gemini sweep run|collect`): every plotted metric against every axis with
more than one value, one colour per input; where other axes vary too, each
of their combinations gets its own line style. Metrics of one group (the
cores' time shares) share a figure, one panel each. A sweep without such an
axis gets one bar chart per metric over its inputs. PNG and SVG.

  scripts/plot_sweep.py DIR/results.json [-o DIR/plots] [--format png,svg] [--metrics a,b]

Uses Debian's python3-matplotlib (hence /usr/bin/python3).
"""
import argparse
import itertools
import json
import os
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit("plot_sweep.py: matplotlib is missing: apt-get install python3-matplotlib")

STYLES = ["-", "--", ":", "-."]
MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def label_of(col):
    return f"{col['name']} ({col['unit']})" if col["unit"] else col["name"]


def fmt(v):
    return json.dumps(v) if not isinstance(v, str) else v


def axis_values(points, axis):
    seen = []
    for p in points:
        v = p["params"][axis]
        if v not in seen:
            seen.append(v)
    if all(is_number(v) for v in seen):
        seen.sort()
    return seen


def positions(values):
    """x positions: the numbers themselves, or categories 0..n-1."""
    if all(is_number(v) for v in values):
        return {json.dumps(v): v for v in values}, False
    return {json.dumps(v): i for i, v in enumerate(values)}, True


def y_scale(ax, ys):
    pos = [y for y in ys if y is not None and y > 0]
    if pos and len(pos) == len([y for y in ys if y is not None]) and max(pos) / min(pos) > 50:
        ax.set_yscale("log")


def draw(ax, points, axis, col, inputs, others, colours):
    values = axis_values(points, axis)
    xpos, categorical = positions(values)
    other_values = [axis_values(points, o) for o in others]
    combos = list(itertools.product(*other_values)) if others else [()]
    ys_all = []
    for i, label in enumerate(inputs):
        for j, combo in enumerate(combos):
            xs, ys = [], []
            for v in values:
                for p in points:
                    if p["label"] != label or p["params"][axis] != v:
                        continue
                    if any(p["params"][o] != c for o, c in zip(others, combo)):
                        continue
                    y = p["metrics"].get(col["name"])
                    if is_number(y):
                        xs.append(xpos[json.dumps(v)])
                        ys.append(y)
            if not xs:
                continue
            ys_all += ys
            ax.plot(xs, ys, linestyle=STYLES[j % len(STYLES)], marker=MARKERS[j % len(MARKERS)],
                    color=colours[i % len(colours)], markersize=4, linewidth=1.2)
    if categorical:
        ax.set_xticks(range(len(values)))
        ax.set_xticklabels([fmt(v) for v in values])
    else:
        nums = [v for v in values if v > 0]
        if len(nums) == len(values) and len(nums) > 2 and max(nums) / min(nums) >= 10:
            ax.set_xscale("log")
        ax.set_xticks(values)
        ax.set_xticklabels([fmt(v) for v in values])
        ax.minorticks_off()
    y_scale(ax, ys_all)
    ax.set_xlabel(axis)
    ax.set_ylabel(label_of(col))
    ax.grid(True, alpha=0.3)
    return combos


def legend(fig, inputs, others, combos, colours):
    from matplotlib.lines import Line2D
    handles = [Line2D([], [], color=colours[i % len(colours)], linewidth=2, label=l)
               for i, l in enumerate(inputs)]
    if others and len(combos) > 1:
        for j, combo in enumerate(combos):
            text = ", ".join(f"{o}={fmt(c)}" for o, c in zip(others, combo))
            handles.append(Line2D([], [], color="black", linestyle=STYLES[j % len(STYLES)],
                                  marker=MARKERS[j % len(MARKERS)], markersize=4, label=text))
    fig.legend(handles=handles, loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=8,
               title="input" + (" / other axes" if others and len(combos) > 1 else ""),
               title_fontsize=8, frameon=False)


def save(fig, out, name, formats, written):
    for f in formats:
        path = os.path.join(out, f"{name}.{f}")
        fig.savefig(path, bbox_inches="tight", dpi=120)
        written.append(path)
    plt.close(fig)


def footnote(fig, results, shown):
    s = results["summary"]
    text = f"{shown} of {s['points']} points shown"
    if s["failed"] or s["missing"]:
        text += f" ({s['failed']} failed, {s['missing']} missing: not plotted)"
    fig.text(0.01, -0.02, text, fontsize=7, color="gray", ha="left", va="top")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", help="results.json of a sweep directory")
    ap.add_argument("-o", "--out", help="output folder (default: plots/ beside results.json)")
    ap.add_argument("--format", default="png,svg", help="png, svg or png,svg")
    ap.add_argument("--metrics", help="only these metric columns (comma-separated)")
    a = ap.parse_args()
    try:
        results = json.load(open(a.results))
    except (OSError, ValueError) as e:
        sys.exit(f"plot_sweep.py: {a.results}: {e}")
    out = a.out or os.path.join(os.path.dirname(os.path.abspath(a.results)), "plots")
    os.makedirs(out, exist_ok=True)
    formats = [f for f in a.format.split(",") if f]
    points = [p for p in results["points"] if p["status"] == "ok"]
    if not points:
        sys.exit(f"plot_sweep.py: {a.results}: no point has finished yet; nothing to plot")
    cols = [c for c in results["columns"] if c["plot"]]
    if a.metrics:
        wanted = a.metrics.split(",")
        cols = [c for c in results["columns"] if c["name"] in wanted]
    inputs = []
    for p in points:
        if p["label"] not in inputs:
            inputs.append(p["label"])
    cmap = plt.get_cmap("tab10" if len(inputs) <= 10 else "tab20")
    colours = [cmap(i) for i in range(cmap.N)]
    axes = [x for x in results["axes"] if len(axis_values(points, x)) > 1]
    # Metrics no finished point has (an estimate the sweep file does not
    # give, a functional count of timing-only runs) get no figure.
    cols = [c for c in cols if any(is_number(p["metrics"].get(c["name"])) for p in points)]
    groups = []  # [(name, [columns])] in column order
    for c in cols:
        key = c["group"] or c["name"]
        if groups and groups[-1][0] == key and c["group"]:
            groups[-1][1].append(c)
        else:
            groups.append((key, [c]))
    sweep = results["sweep"]
    written = []
    if not axes:  # one bar chart per metric over the inputs
        for key, members in groups:
            fig, axs = plt.subplots(len(members), 1, figsize=(max(6, 0.6 * len(inputs)), 2.8 * len(members)),
                                    squeeze=False)
            for ax, col in zip(axs[:, 0], members):
                ys = [next((p["metrics"].get(col["name"]) for p in points if p["label"] == l), None)
                      for l in inputs]
                ax.bar(range(len(inputs)), [y if is_number(y) else 0 for y in ys],
                       color=[colours[i % len(colours)] for i in range(len(inputs))])
                ax.set_xticks(range(len(inputs)))
                ax.set_xticklabels(inputs, rotation=45, ha="right", fontsize=8)
                ax.set_ylabel(label_of(col))
                ax.set_title(col["meaning"], fontsize=9)
                ax.grid(True, axis="y", alpha=0.3)
            fig.suptitle(f"sweep {sweep}: {key}")
            footnote(fig, results, len(points))
            save(fig, out, key.replace(" ", "_"), formats, written)
    for axis in axes:
        others = [o for o in axes if o != axis]
        for key, members in groups:
            n = len(members)
            cols_n = 1 if n == 1 else 2
            rows_n = (n + cols_n - 1) // cols_n
            fig, axs = plt.subplots(rows_n, cols_n, figsize=(6.5 * cols_n, 4.2 * rows_n),
                                    squeeze=False)
            combos = [()]
            for k, col in enumerate(members):
                ax = axs[k // cols_n][k % cols_n]
                combos = draw(ax, points, axis, col, inputs, others, colours)
                if n > 1:
                    ax.set_title(col["meaning"], fontsize=9)
            for k in range(n, rows_n * cols_n):
                axs[k // cols_n][k % cols_n].set_visible(False)
            title = members[0]["meaning"] if n == 1 else key
            fig.suptitle(f"sweep {sweep}: {title}\nagainst {axis}", fontsize=11)
            legend(fig, inputs, others, combos, colours)
            footnote(fig, results, len(points))
            fig.tight_layout()
            save(fig, out, f"{key.replace(' ', '_')}_vs_{axis.replace('.', '_')}", formats, written)
    for w in written:
        print(w)


if __name__ == "__main__":
    main()
