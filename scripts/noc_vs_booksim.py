#!/usr/bin/env python3
"""The mesh and router NoC models against BookSim 2 on real schedules (docs/calibration.md,
"NoC against BookSim 2"): every schedule of the corpus (../shared/ir-corpus/
set, each at its manifest's link rate on set-polar) and of the Gemini
scheduler's corpus (ir-corpus/gemini, its configuration as
calibrate_chiplets.py makes it) simulated with noc.model "mesh"; those whose
NoC is at least --share of the critical path (what the path waited for: the
NoC's own work and links another transfer held) again with "booksim2".
Per run: total cycles, the NoC's share of the path, the busiest link and its
utilisation, host seconds. A cut whose D2D rate is not the NoC's is refused
by booksim2 (docs/timing-model.md); it is then run by both models with its
D2D links at the NoC's rate as well ("d2d=noc").

    python3 scripts/noc_vs_booksim.py --out /tmp/nvb            # screen, then booksim2
    python3 scripts/noc_vs_booksim.py --out /tmp/nvb --only resnet_b1_8x8_noc12_LP

Results go to OUT/results.json as they come (a rerun skips what is there)
and OUT/table.md. Slow: booksim2 runs BookSim's routers cycle by cycle; run
it once, at -j1, in the background."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import corpus_runs  # noqa: E402
import calibrate_chiplets  # noqa: E402


def share(report):
    """The NoC's share of the critical path: its own work and link waits."""
    cp = report["critical_path"]
    w = cp["waits"]
    return (w.get("noc", 0) + w.get("link", 0)) / max(1, cp["cycles"])


def schedules(root, shared, gemini):
    """(name, path, hw dict) of every corpus schedule."""
    out = []
    corpus = os.path.join(shared, "ir-corpus", "set")
    base = json.load(open(os.path.join(root, "configs", "set-polar.json")))
    for row in corpus_runs.manifest(corpus):
        hw = json.loads(json.dumps(base))
        g = corpus_runs.link_gbps(row)
        if g:
            hw["noc"]["link_gbps"] = g
        out.append((corpus_runs.name_of(row), os.path.join(corpus, row["file"]), hw))
    gem = os.path.join(shared, "ir-corpus", "gemini")
    if os.path.isdir(gem):
        rows = corpus_runs.manifest(gem)
        with tempfile.TemporaryDirectory() as tmp:
            hw = calibrate_chiplets.hw_points(gemini, gem, rows, root, tmp)
        for row in rows:
            out.append((corpus_runs.name_of(row), os.path.join(gem, row["file"]), hw[row["file"]]))
    return out


def simulate(gemini, path, hw, tmp, tag):
    cfg = os.path.join(tmp, tag + ".hw.json")
    rep = os.path.join(tmp, tag + ".report.json")
    json.dump(hw, open(cfg, "w"))
    t0 = time.time()
    p = subprocess.run([gemini, "sim", "-q", path, "--hw", cfg, "--report", rep],
                       capture_output=True, text=True)
    host = time.time() - t0
    if p.returncode != 0:
        lines = [x for x in p.stderr.splitlines() if x.strip()]
        return {"error": lines[-1] if lines else f"exit {p.returncode}", "host_seconds": host}
    r = json.load(open(rep))
    noc = r["noc"]
    return {"total_cycles": r["total_cycles"], "noc_share": share(r),
            "busiest_link": noc.get("busiest_link", ""),
            "busiest_utilisation": noc.get("link_utilisation_max", 0),
            "mean_utilisation": noc.get("link_utilisation_mean", 0),
            "packets": noc.get("packets", 0), "host_seconds": host,
            "stats": {k: v["value"] for k, v in
                      r["stats"]["groups"].get("noc", {}).get("stats", {}).items()}}


# The mesh as configured, and with what booksim2 does or lacks: multicasts
# as their unicasts (multicast_copies, booksim2's way), links used in their
# idle time (fill_gaps, as a router does); the router model as configured
# (multicasts forked in its routers) and on booksim2's packets (copies).
# Each: (noc.model, its parameters).
VARIANTS = {"mesh_copies": ("mesh", {"multicast_copies": True}),
            "mesh_copies_gaps": ("mesh", {"multicast_copies": True, "fill_gaps": True}),
            "mesh_gaps": ("mesh", {"fill_gaps": True}),
            "router": ("router", {}),
            "router_copies": ("router", {"multicast_copies": True})}


def with_model(hw, model, d2d_at_noc=False, noc=None):
    h = json.loads(json.dumps(hw))
    h["noc"].update(noc or {})
    name, params = VARIANTS.get(model, (model, {}))
    h["noc"]["model"] = name
    h["noc"].update(params)
    if d2d_at_noc and "chiplets" in h:
        h["chiplets"]["d2d_gbps"] = h["noc"].get("link_gbps", 24)
    return h


def variants_table(results):
    """Total cycles of every model and mesh variant, against booksim2."""
    names = ["mesh", "mesh_gaps", "mesh_copies", "mesh_copies_gaps", "router", "router_copies",
             "booksim2"]
    rows = ["| schedule | variant | " + " | ".join(names) + " |",
            "|---|---|" + "---:|" * len(names)]
    for key in sorted(results):
        r = results[key]
        b = r.get("booksim2", {})
        if "total_cycles" not in b:
            continue
        cells = []
        for n in names:
            x = r.get(n, {})
            if "total_cycles" not in x:
                cells.append("-")
            elif n == "booksim2":
                cells.append(f"{x['total_cycles']:,}")
            else:
                cells.append(f"{x['total_cycles']:,} ({x['total_cycles'] / b['total_cycles']:.3f})")
        name, variant = key.split("|")
        rows.append(f"| {name} | {variant} | " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def table(results):
    rows = ["| schedule | variant | mesh cycles | booksim2 cycles | booksim2 / mesh | NoC share of the "
            "path (mesh / booksim2) | busiest link, utilisation (mesh / booksim2) | host s "
            "(mesh / booksim2) |", "|---|---|---:|---:|---:|---|---|---|"]
    for key in sorted(results):
        r = results[key]
        if "mesh" not in r:
            continue
        m, b = r["mesh"], r.get("booksim2")
        name, variant = key.split("|")
        if "error" in m:
            rows.append(f"| {name} | {variant} | {m['error']} | | | | | |")
            continue
        if b is None:
            continue
        if "error" in b:
            rows.append(f"| {name} | {variant} | {m['total_cycles']} | refused: {b['error']} | | "
                        f"{m['noc_share']:.0%} / - | {m['busiest_link']} {m['busiest_utilisation']:.0%}"
                        f" / - | {m['host_seconds']:.1f} / - |")
            continue
        rows.append(
            f"| {name} | {variant} | {m['total_cycles']} | {b['total_cycles']} | "
            f"{b['total_cycles'] / m['total_cycles']:.3f} | {m['noc_share']:.0%} / {b['noc_share']:.0%} | "
            f"{m['busiest_link']} {m['busiest_utilisation']:.0%} / {b['busiest_link']} "
            f"{b['busiest_utilisation']:.0%} | {m['host_seconds']:.1f} / {b['host_seconds']:.0f} |")
    return "\n".join(rows) + "\n\n" + variants_table(results)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    root = os.path.dirname(HERE)
    ap.add_argument("--gemini", default=os.path.join(root, "build", "cli", "gemini"))
    ap.add_argument("--shared", default=os.path.join(root, "..", "shared"))
    ap.add_argument("--out", required=True)
    ap.add_argument("--share", type=float, default=0.20, help="the NoC share that selects a schedule")
    ap.add_argument("--only", default="", help="comma-separated schedule names (no screening)")
    ap.add_argument("--screen-only", action="store_true", help="the mesh runs alone")
    ap.add_argument("--noc", action="append", default=[], metavar="KEY=VALUE",
                    help="a noc parameter over the schedule's, for every model (VALUE is JSON), "
                         "e.g. router_cycles=3: BookSim's fastest hop is 3 of its cycles, so "
                         "1-cycle routers cost it 3 cycles per core cycle and flits a third "
                         "the size (2.6x the host time on resnet_b1_8x8_noc12_LS); the "
                         "results are their own variant")
    args = ap.parse_args()
    noc = {}
    for kv in args.noc:
        k, sep, v = kv.partition("=")
        if not sep:
            ap.error(f"--noc {kv}: KEY=VALUE")
        try:
            noc[k] = json.loads(v)
        except ValueError:
            noc[k] = v
    variant = ",".join(f"{k}={json.dumps(v)}" for k, v in sorted(noc.items())) or "as scheduled"
    tag = "".join("." + k + "_" + str(v) for k, v in sorted(noc.items()))
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, "results.json")
    results = json.load(open(path)) if os.path.exists(path) else {}

    def save():
        json.dump(results, open(path, "w"), indent=1)
        open(os.path.join(args.out, "table.md"), "w").write(table(results))

    only = [x for x in args.only.split(",") if x]
    todo = [s for s in schedules(root, args.shared, args.gemini) if not only or s[0] in only]
    # Screen with the mesh, cheapest first.
    for name, f, hw in todo:
        key = f"{name}|{variant}"
        if "mesh" not in results.get(key, {}):
            results.setdefault(key, {})["mesh"] = simulate(args.gemini, f, with_model(hw, "mesh", noc=noc),
                                                           args.out, name + tag + ".mesh")
            save()
        m = results[key]["mesh"]
        print(f"{name}: mesh {m.get('total_cycles', m.get('error'))}, NoC "
              f"{m.get('noc_share', 0):.0%} of the path", flush=True)
    if args.screen_only:
        return
    picked = [s for s in todo if "error" not in results[f"{s[0]}|{variant}"]["mesh"] and
              (only or results[f"{s[0]}|{variant}"]["mesh"]["noc_share"] >= args.share)]
    picked.sort(key=lambda s: results[f"{s[0]}|{variant}"]["mesh"]["host_seconds"])
    for name, f, hw in picked:
        key = f"{name}|{variant}"
        if "booksim2" not in results[key]:
            print(f"{name}: booksim2 ...", flush=True)
            results[key]["booksim2"] = simulate(args.gemini, f, with_model(hw, "booksim2", noc=noc),
                                                args.out, name + tag + ".booksim2")
            save()
        b = results[key]["booksim2"]
        print(f"{name}: booksim2 {b.get('total_cycles', b.get('error'))} "
              f"({b['host_seconds']:.0f} s)", flush=True)
        for model in VARIANTS:
            if model not in results[key]:
                results[key][model] = simulate(args.gemini, f, with_model(hw, model, noc=noc), args.out,
                                               f"{name}{tag}.{model}")
                save()
        if "error" in b and "d2d_gbps" in b["error"]:
            k2 = f"{name}|{variant}, d2d=noc" if noc else f"{name}|d2d=noc"
            for model in ("mesh", *VARIANTS, "booksim2"):
                if model not in results.get(k2, {}):
                    results.setdefault(k2, {})[model] = simulate(
                        args.gemini, f, with_model(hw, model, True, noc), args.out,
                        f"{name}{tag}.{model}.d2d")
                    save()
    save()
    print(open(os.path.join(args.out, "table.md")).read())


if __name__ == "__main__":
    main()
