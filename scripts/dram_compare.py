#!/usr/bin/env python3
"""DRAM against Ramulator 2 (docs/calibration.md): every corpus schedule and
every Gemini-scheduler schedule simulated with dram.model simple, banked and
ramulator2 on one configuration where DRAM decides (default
configs/set-polar-lpddr5.json: two LPDDR5-6400 ports), everything else
unchanged; `simple` runs at the preset's peak per port with its default
latency. Prints one markdown table: total cycles, achieved DRAM bandwidth,
the DRAM share of the critical path and the host seconds of each model, and
banked / ramulator2 in cycles, then the summary (how many files banked is
within 5% of ramulator2, the median ratio, the host-time ratio).

With --check it runs no corpus file: short synthetic streams (sequential,
strided, write-heavy) replayed open loop through banked and ramulator2 on
every preset, failing when their mean read latencies are more than 2%
apart (ctest dram.agreement).

With --replay DIR it also writes each file's DRAM request trace (banked's
run, gemini sim --dram-trace) and synthetic sequential and strided streams
there, replays every stream open loop through banked and ramulator2
(gemini dram-replay) and prints their read latency (mean, p50, p99) side by
side.

Both sides run on the same channel and the same address map: --mapping
(RoBaRaCoCh or MOP4CLXOR, default the preset's, which is also each model's
default); --write-policy sets banked's (posted, its default and Ramulator's,
or when_written); --refresh off turns refresh off in both (banked trefi 0,
ramulator2 refresh false: Ramulator 2.0a never refreshes HBM2, so HBM2 is
compared with it off and shown with banked's on beside); --models chooses
which models run (simple, banked, ramulator2).

  python3 scripts/dram_compare.py [--corpus ../shared/ir-corpus/set]
      [--gemini-corpus ../shared/ir-corpus/gemini] [--gemini build/cli/gemini]
      [--hw configs/set-polar-lpddr5.json] [--preset lpddr5_6400]
      [--mapping MAP] [--write-policy POLICY] [--refresh on|off]
      [--models simple,banked,ramulator2] [--only SUBSTRING] [--replay DIR]
Runs one simulation at a time (-j1): a corpus-wide run takes hours here.
"""
import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile

from corpus_runs import Failed, manifest, simulate, write_hw

MODELS = ["simple", "banked", "ramulator2"]


def with_model(model, preset, mapping=None, write_policy=None, refresh=True):
    def change(hw):
        d = hw["dram"]
        for k in ("gbps_per_tops", "port_gbps", "latency_ns", "commit_window", "queue_depth",
                  "timing", "address_mapping", "write_policy", "refresh"):
            d.pop(k, None)
        d["model"] = model
        d["preset"] = preset
        if model in ("banked", "ramulator2") and mapping:
            d["address_mapping"] = mapping
        if model == "banked" and write_policy:
            d["write_policy"] = write_policy
        if model == "banked" and not refresh:
            d["timing"] = {"trefi": 0}
        if model == "ramulator2" and not refresh:
            d["refresh"] = False
    return change


def figures(rep):
    total = rep["total_cycles"]
    cp = rep.get("critical_path") or {}
    share = cp.get("dram", 0) / total if total else 0.0
    return {"cycles": total, "gbps": rep["dram"]["achieved_gbps"], "share": share,
            "host": (rep.get("host") or {}).get("wall_seconds", float("nan"))}


def inputs(a):
    out = []
    if os.path.exists(os.path.join(a.corpus, "manifest.csv")):
        out += [os.path.join(a.corpus, r["file"]) for r in manifest(a.corpus)]
    if os.path.isdir(a.gemini_corpus):
        out += sorted(os.path.join(a.gemini_corpus, f) for f in os.listdir(a.gemini_corpus)
                      if f.endswith(".json.gz"))
    return [f for f in out if a.only in os.path.basename(f)]


def synthetic(path, kind, n=20000, size=64, every_ps=10000):
    """A stream of n reads of `size` bytes, one every 10 ns (6.4 GB/s, half
    of an LPDDR5 channel): sequential, or strided by 64 KiB + 64 bytes (a
    new row each time, the bank moving on)."""
    with open(path, "w") as f:
        f.write("# gemini DRAM trace: time_ps port R|W address bytes\n")
        for i in range(n):
            addr = i * size if kind == "sequential" else i * (65536 + 64)
            f.write(f"{i * every_ps} 0 R 0x{addr:x} {size}\n")


def mixed(path, n=6000, every_ps=4000, size=64):
    """Write-heavy: a read every `every_ps` from one sequential stream and a
    write of the same size after every second read to another 1 MiB above
    it (one write per two reads, 64-byte accesses; the same banks, other
    rows) -- the traffic of a layer that reads its input and writes its
    output at once. (Within every standard's capacity in Ramulator, whose
    mapper drops the address bits above it.)"""
    with open(path, "w") as f:
        f.write("# gemini DRAM trace: time_ps port R|W address bytes\n")
        for i in range(n):
            f.write(f"{i * every_ps} 0 R 0x{i * size:x} {size}\n")
            if i % 2:
                f.write(f"{i * every_ps} 0 W 0x{(1 << 20) + i * size:x} {size}\n")


# The agreement --check pins: (preset, refresh, stream, one read every ps,
# tolerance). banked schedules command by command as Ramulator's controller
# does: on these streams the two issue the same commands (docs/calibration.md).
CHECKS = [("ddr4_3200", True, "sequential", 5000, 0.02), ("ddr4_3200", True, "strided", 20000, 0.02),
          ("ddr4_3200", True, "mixed", 6000, 0.02), ("lpddr5_6400", True, "sequential", 10000, 0.02),
          ("lpddr5_6400", True, "mixed", 12000, 0.02), ("hbm2", False, "sequential", 8000, 0.02),
          ("hbm2", False, "mixed", 10000, 0.02)]


def check(a):
    """--check: short open-loop streams through banked and ramulator2 on
    each preset (its default map; HBM2 with refresh off, which Ramulator
    2.0a never issues there); fails when a mean read latency differs by more
    than its tolerance (2%; CHECKS). 77 when ramulator2 is not built."""
    tmp = tempfile.mkdtemp(prefix="gemini_dram_check_")
    why = ramulator2_missing(a, tmp)
    if why:
        print(f"dram_compare --check: skipped: {why}")
        sys.exit(77)
    bad = 0
    for preset, refresh, kind, every, tolerance in CHECKS:
        hws = {m: write_hw(a.hw, tmp, f"{m}_{preset}_{refresh}",
                           with_model(m, preset, None, None, refresh))
               for m in ("banked", "ramulator2")}
        t = os.path.join(tmp, f"{kind}_{every}.dram")
        if kind == "mixed":
            mixed(t, every_ps=every)
        else:
            synthetic(t, kind, n=6000, every_ps=every)
        try:
            b = replay(a.gemini, t, hws["banked"])
            r = replay(a.gemini, t, hws["ramulator2"])
        except Failed as e:
            print(f"{preset} {kind}: {e}")
            bad += 1
            continue
        ratio = b[0][1] / r[0][1]
        ok = abs(ratio - 1) <= tolerance
        bad += 0 if ok else 1
        print(f"{preset:12} refresh {'on ' if refresh else 'off'} {kind:10} every {every} ps: "
              f"mean read latency banked {b[0][1]:.1f} ns, ramulator2 {r[0][1]:.1f} ns, "
              f"{ratio:.3f}{'' if ok else f'  (more than {tolerance:.0%} apart)'}")
    sys.exit(1 if bad else 0)


def ramulator2_missing(a, tmp):
    """Why this gemini has no ramulator2 ("" when it has): a port of the
    plainest ramulator2 configuration replaying one read. (A configuration
    with banked's parameters is refused for those first: a gemini without
    Ramulator 2 declares none of them.)"""
    def plain(hw):
        hw["dram"] = {"model": "ramulator2"}
    hw = write_hw(a.hw, tmp, "ramulator2_probe", plain)
    trace = os.path.join(tmp, "probe.dram")
    with open(trace, "w") as f:
        f.write("0 0 R 0x0 64\n")
    p = subprocess.run([a.gemini, "dram-replay", trace, "--hw", hw], capture_output=True, text=True)
    if p.returncode != 0 and "not built" in p.stderr:
        return next(line for line in p.stderr.splitlines() if "not built" in line)
    return ""


def replay(gemini, trace, hw):
    p = subprocess.run([gemini, "dram-replay", trace, "--hw", hw], capture_output=True, text=True)
    if p.returncode != 0:
        raise Failed(p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "failed")
    out = []  # per port: (reads, mean, p50, p99, host)
    host = None
    for line in p.stdout.splitlines():
        m = re.search(r"host ([0-9.]+) s", line)
        if m:
            host = float(m.group(1))
        m = re.match(r"\s+reads (\d+), latency ns mean ([0-9.]+) p50 ([0-9.]+) p99 ([0-9.]+)", line)
        if m and int(m.group(1)) > 0:
            out.append((int(m.group(1)), float(m.group(2)), float(m.group(3)), float(m.group(4)),
                        host))
    return out


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser()
    ap.add_argument("--corpus", default=os.path.join(root, "..", "shared", "ir-corpus", "set"))
    ap.add_argument("--gemini-corpus",
                    default=os.path.join(root, "..", "shared", "ir-corpus", "gemini"))
    ap.add_argument("--gemini", default=os.path.join(root, "build", "cli", "gemini"))
    ap.add_argument("--hw", default=os.path.join(root, "configs", "set-polar-lpddr5.json"))
    ap.add_argument("--preset", default="lpddr5_6400")
    ap.add_argument("--mapping", choices=["RoBaRaCoCh", "MOP4CLXOR"],
                    help="both models' address map (default: the preset's)")
    ap.add_argument("--write-policy", choices=["posted", "when_written"],
                    help="banked's write policy (default: its own, posted)")
    ap.add_argument("--refresh", choices=["on", "off"], default="on")
    ap.add_argument("--models", default=",".join(MODELS),
                    help="comma-separated, of " + ", ".join(MODELS))
    ap.add_argument("--only", default="")
    ap.add_argument("--check", action="store_true",
                    help="no corpus: short streams through banked and ramulator2 on every "
                         "preset, exit 1 when a mean read latency is more than 2%% apart")
    ap.add_argument("--replay", help="write traces here and replay them")
    ap.add_argument("--replay-only", action="store_true",
                    help="no simulations: replay the synthetic streams and the traces (*.dram) "
                         "already in the --replay folder")
    a = ap.parse_args()
    if a.check:
        check(a)
    models = [m for m in a.models.split(",") if m]
    if not models or any(m not in MODELS for m in models):
        sys.exit(f"--models: of {', '.join(MODELS)}, got {a.models}")
    files = inputs(a)
    if not files:
        sys.exit("no corpus files (../shared/ir-corpus is not here)")
    tmp = tempfile.mkdtemp(prefix="gemini_dram_compare_")
    hws = {m: write_hw(a.hw, tmp, m, with_model(m, a.preset, a.mapping, a.write_policy,
                                                  a.refresh == "on")) for m in models}
    if a.replay_only:
        replay_all(a, hws, sorted((f[:-5], os.path.join(a.replay, f))
                                  for f in os.listdir(a.replay) if f.endswith(".dram")
                                  and f[:-5] not in ("sequential", "strided")))
        return
    print(f"Configuration {os.path.basename(a.hw)}, preset {a.preset}, address map "
          f"{a.mapping or 'the preset default'}, banked's writes {a.write_policy or 'posted'}, "
          f"refresh {a.refresh}.\n")
    print("| file | " + " | ".join(f"{m} cycles" for m in models) + " | banked / ramulator2 | "
          + " | ".join(f"{m} GB/s" for m in models) + " | "
          + " | ".join(f"{m} DRAM share" for m in models) + " | "
          + " | ".join(f"{m} host s" for m in models) + " |")
    print("|---" * (2 + 4 * len(models)) + "|")
    ratios, host_ratios, traces = [], [], []
    for f in files:
        name = os.path.basename(f).replace("_IR.json.gz", "")
        got = {}
        for m in models:
            extra = []
            if m == "banked" and a.replay:
                os.makedirs(a.replay, exist_ok=True)
                t = os.path.join(a.replay, name + ".dram")
                extra = ["--dram-trace", t]
                traces.append((name, t))
            try:
                got[m] = figures(simulate(a.gemini, f, hws[m],
                                          os.path.join(tmp, f"{name}.{m}.json"), extra))
            except Failed as e:
                got[m] = None
                print(f"<!-- {name} {m}: {e} -->", file=sys.stderr)
        cells = lambda key, fmt: " | ".join(fmt(got[m][key]) if got[m] else "--" for m in models)
        ratio = "--"
        if got.get("banked") and got.get("ramulator2"):
            r = got["banked"]["cycles"] / got["ramulator2"]["cycles"]
            ratios.append(r)
            host_ratios.append(got["ramulator2"]["host"] / max(got["banked"]["host"], 1e-9))
            ratio = f"{r:.3f}"
        print(f"| {name} | {cells('cycles', lambda x: f'{x:,}')} | {ratio} | "
              f"{cells('gbps', lambda x: f'{x:.2f}')} | "
              f"{cells('share', lambda x: f'{100 * x:.0f}%')} | "
              f"{cells('host', lambda x: f'{x:.1f}')} |", flush=True)
    if ratios:
        within = sum(1 for r in ratios if abs(r - 1) <= 0.05)
        print(f"\nbanked within 5% of ramulator2 in total cycles: {within} of {len(ratios)}; "
              f"banked / ramulator2 median {statistics.median(ratios):.3f}, "
              f"min {min(ratios):.3f}, max {max(ratios):.3f}; ramulator2 / banked host time "
              f"median {statistics.median(host_ratios):.1f}x")
    if a.replay and "banked" in hws and "ramulator2" in hws:
        replay_all(a, hws, traces)


def replay_all(a, hws, traces):
    """The latency table of every stream through banked and ramulator2."""
    for kind in ("strided", "sequential"):
        t = os.path.join(a.replay, kind + ".dram")
        synthetic(t, kind)
        traces.insert(0, (kind, t))
    print("\n| stream | port | reads | banked mean / p50 / p99 ns | ramulator2 mean / p50 / p99 ns "
          "| banked / ramulator2 mean | host s banked / ramulator2 |")
    print("|---|---|---|---|---|---|---|")
    for name, t in traces:
        try:
            b, r = replay(a.gemini, t, hws["banked"]), replay(a.gemini, t, hws["ramulator2"])
        except Failed as e:
            print(f"| {name} | -- | {e} | | | | |")
            continue
        for port, (x, y) in enumerate(zip(b, r)):
            print(f"| {name} | {port} | {x[0]} | {x[1]:.1f} / {x[2]:.1f} / {x[3]:.1f} | "
                  f"{y[1]:.1f} / {y[2]:.1f} / {y[3]:.1f} | {x[1] / y[1]:.3f} | "
                  f"{x[4]:.2f} / {y[4]:.2f} |", flush=True)


if __name__ == "__main__":
    main()
