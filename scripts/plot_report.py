#!/usr/bin/python3
"""Plots one `gemini sim --report` JSON report:
  <out>/<stem>_stalls.png    per core, where its cycles went (stacked bars:
                             compute, then stalls on DRAM, NoC, tokens, L2 space, other)
  <out>/<stem>_layers.png    per layer, simulated against the scheduler's predicted cycles,
                             and their ratio
  <out>/<stem>_dram.png      DRAM bandwidth over time, when the report has a
                             "dram_timeline" or a Chrome trace of the same run is
                             given (--trace, from `gemini sim --trace`)
and the same as SVG.

  scripts/plot_report.py report.json [--trace trace.json] [-o DIR] [--format png,svg]

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
    sys.exit("plot_report.py: matplotlib is missing: apt-get install python3-matplotlib")

CAUSES = [("compute", "compute (PE, VP, WL0 fill)", "#4c72b0"),
          ("dram", "stall: DRAM", "#dd8452"),
          ("noc", "stall: NoC", "#55a868"),
          ("token", "stall: another core's data", "#c44e52"),
          ("l2_space", "stall: L2 space", "#8172b3"),
          ("other", "stall: other", "#937860")]


def save(fig, out, name, formats, written):
    for f in formats:
        path = os.path.join(out, f"{name}.{f}")
        fig.savefig(path, bbox_inches="tight", dpi=120)
        written.append(path)
    plt.close(fig)


def title_of(r):
    return f"{os.path.basename(r.get('input', '?'))} on {r.get('hw', '?')}"


def stalls(r, out, stem, formats, written):
    cores = r.get("cores", [])
    if not cores:
        return
    fig, ax = plt.subplots(figsize=(max(6, 0.35 * len(cores) + 3), 4.5))
    xs = list(range(len(cores)))
    bottom = [0.0] * len(cores)
    for key, label, colour in CAUSES:
        ys = [c["busy_cycles"] if key == "compute" else c["stall"][key] for c in cores]
        ax.bar(xs, ys, bottom=bottom, label=label, color=colour, width=0.8)
        bottom = [b + y for b, y in zip(bottom, ys)]
    ax.set_xticks(xs)
    ax.set_xticklabels([str(c["core_id"]) for c in cores], fontsize=7 if len(cores) > 32 else 9)
    ax.set_xlabel("core")
    ax.set_ylabel("cycles until the core finished")
    ax.set_title(f"{title_of(r)}: where each core's cycles went\n"
                 f"(total {r['total_cycles']:,} cycles = {r['time_us']:.1f} us)", fontsize=10)
    ax.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=8, frameon=False)
    ax.grid(True, axis="y", alpha=0.3)
    save(fig, out, f"{stem}_stalls", formats, written)


def layers(r, out, stem, formats, written):
    ls = r.get("layers", [])
    if not ls:
        return
    n = len(ls)
    fig, (ax, ax2) = plt.subplots(2, 1, figsize=(min(40, max(8, 0.22 * n + 3)), 7),
                                  sharex=True, gridspec_kw={"height_ratios": [3, 1.3]})
    xs = list(range(n))
    w = 0.4
    ax.bar([x - w / 2 for x in xs], [l["predicted_cycles"] for l in ls], width=w,
           label="predicted (sum of the scheduler's time)", color="#999999")
    ax.bar([x + w / 2 for x in xs], [l["simulated_cycles"] for l in ls], width=w,
           label="simulated (sum of the workloads' spans)", color="#4c72b0")
    vals = [v for l in ls for v in (l["predicted_cycles"], l["simulated_cycles"]) if v > 0]
    if vals and max(vals) / min(vals) > 100:
        ax.set_yscale("log")
    ax.set_ylabel("cycles")
    ax.legend(fontsize=8)
    ax.grid(True, axis="y", alpha=0.3)
    ax.set_title(f"{title_of(r)}: per layer, simulated against predicted cycles", fontsize=10)
    ratios = [l["ratio"] if l["predicted_cycles"] > 0 else float("nan") for l in ls]
    ax2.plot(xs, ratios, marker="o", markersize=3, color="#c44e52", linewidth=1)
    finite = [x for x in ratios if x == x and x > 0]
    if finite and max(finite) / min(finite) > 20:
        ax2.set_yscale("log")
    ax2.axhline(1.0, color="gray", linewidth=0.8, linestyle="--")
    ax2.set_ylabel("simulated / predicted")
    ax2.grid(True, alpha=0.3)
    step = max(1, n // 60)
    ax2.set_xticks(xs[::step])
    ax2.set_xticklabels([ls[i]["name"] for i in xs[::step]], rotation=90, fontsize=6)
    ax2.set_xlabel("layer (in order of first appearance)" +
                   (f"; every {step}th named" if step > 1 else ""))
    save(fig, out, f"{stem}_layers", formats, written)


def timeline_from_trace(path, bins):
    """DRAM bytes per time bin from a Chrome trace (DRAM ports: pid >= 100000)."""
    t = json.load(open(path))
    events = [e for e in t.get("traceEvents", [])
              if e.get("ph") == "X" and e.get("pid", 0) >= 100000]
    if not events:
        return None
    end = max(e["ts"] + e["dur"] for e in events)
    if end <= 0:
        return None
    width = end / bins
    read = [0.0] * bins
    write = [0.0] * bins
    # An event spans a request's arrival at its port to its completion; a
    # port serves its requests one after another, so a request's bytes move
    # between the previous completion on its port (or its own arrival, if
    # later) and its own completion.
    events.sort(key=lambda e: (e["pid"], e["ts"] + e["dur"]))
    last = {}
    for e in events:
        done = e["ts"] + e["dur"]
        begin = max(e["ts"], last.get(e["pid"], e["ts"]))
        last[e["pid"]] = done
        e["_span"] = (begin, done)
    for e in events:
        b = e.get("args", {}).get("bytes", 0)
        s = e["_span"][0]
        d = max(e["_span"][1] - s, 1e-9)
        target = write if e["name"] == "write" else read
        i = int(s / width)
        while i < bins and i * width < s + d:
            lo, hi = max(s, i * width), min(s + d, (i + 1) * width)
            if hi > lo:
                target[i] += b * (hi - lo) / d
            i += 1
    # bytes per us -> GB/s: bytes / (width us * 1000 ns/us)
    times = [(i + 0.5) * width for i in range(bins)]
    return {"time_us": times, "read_gbps": [x / (width * 1000) for x in read],
            "write_gbps": [x / (width * 1000) for x in write]}


def dram(r, trace, out, stem, formats, written):
    tl = r.get("dram_timeline")
    if tl is None and trace:
        tl = timeline_from_trace(trace, 200)
    if not tl:
        return False
    fig, ax = plt.subplots(figsize=(9, 4))
    ax.stackplot(tl["time_us"], tl["read_gbps"], tl["write_gbps"], labels=["read", "write"],
                 colors=["#4c72b0", "#dd8452"], alpha=0.85)
    peak = r.get("dram", {}).get("peak_gbps")
    if peak:
        ax.axhline(peak, color="black", linestyle="--", linewidth=0.8, label=f"peak {peak:.2f} GB/s")
    ax.set_xlabel("simulated time (us)")
    ax.set_ylabel("DRAM bandwidth (GB/s)")
    ax.set_title(f"{title_of(r)}: DRAM bandwidth over time (all ports)", fontsize=10)
    ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=False)
    ax.grid(True, alpha=0.3)
    save(fig, out, f"{stem}_dram", formats, written)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("report", help="a gemini sim --report JSON file")
    ap.add_argument("--trace", help="the Chrome trace of the same run (gemini sim --trace)")
    ap.add_argument("-o", "--out", help="output folder (default: beside the report)")
    ap.add_argument("--format", default="png,svg", help="png, svg or png,svg")
    a = ap.parse_args()
    try:
        r = json.load(open(a.report))
    except (OSError, ValueError) as e:
        sys.exit(f"plot_report.py: {a.report}: {e}")
    if "cores" not in r or "layers" not in r:
        sys.exit(f"plot_report.py: {a.report}: not a gemini sim report")
    out = a.out or os.path.dirname(os.path.abspath(a.report))
    os.makedirs(out, exist_ok=True)
    stem = os.path.basename(a.report)
    for ext in (".json", ".report"):
        if stem.endswith(ext):
            stem = stem[: -len(ext)]
    formats = [f for f in a.format.split(",") if f]
    written = []
    stalls(r, out, stem, formats, written)
    layers(r, out, stem, formats, written)
    if not dram(r, a.trace, out, stem, formats, written):
        print("plot_report.py: no DRAM timeline in the report and no --trace: "
              "DRAM bandwidth over time not plotted", file=sys.stderr)
    for w in written:
        print(w)


if __name__ == "__main__":
    main()
