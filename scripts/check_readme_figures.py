#!/usr/bin/env python3
"""Fails when a figure README.md quotes from a gemini run is no longer what
the current build gives (issue 40, item 4). Two kinds of quotes:

  * an example output: a fenced block right after a marker
        <!-- checked: ARGS -->
    is `gemini ARGS` abridged ({corpus} is the corpus directory): every line
    of the block but those holding "..." must be a line of the output;
  * a figure in the prose: each entry of PROSE below renders a sentence
    fragment from the corpus runs (every corpus file simulated with
    configs/set-polar.json at its manifest's NoC link bandwidth, `noc_gbps`,
    empty = 24), and sweep_text the corpus sweep's paragraph from a run of
    configs/sweeps/corpus-dram-multicast.json; README.md must contain the
    rendered text (whitespace aside).

On a mismatch it prints the README's line and what the build gives, and
exits 1; without the corpus it exits 77 (ctest: skipped). Host-dependent
figures (wall times, simulated cycles per second) are not checked.

  python3 scripts/check_readme_figures.py [--gemini build/cli/gemini]
                                          [--corpus ../shared/ir-corpus/set] [--readme README.md]
"""
import argparse
import csv
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

import corpus_runs
from corpus_runs import at_link_gbps, write_hw

MARKER = re.compile(r"<!-- checked: (.*?) -->\s*\n```[a-z]*\n(.*?)```", re.S)


def ratio(c, name):
    return c["reports"][name]["total_cycles"] / c["est"][name]


def within(c):
    rs = sorted(ratio(c, n) for n in c["reports"])
    ok = [r for r in rs if r <= 1.3]
    return len(ok), len(rs), min(ok), max(ok)


def cp_share(c, name, kind):
    rep = c["reports"][name]
    return 100.0 * rep["critical_path"]["waits"][kind] / rep["total_cycles"]


# Prose figures: (what it is, a function of the corpus runs giving the text
# README.md must contain).
PROSE = [
    ("files within 1.3x",
     lambda c: "{} of the {} corpus files simulate within 1.3x of the\nscheduler's estimate "
               "({:.2f}-{:.2f}x".format(*within(c))),
    ("every file reads its unique DRAM bytes",
     lambda c: "every file reads exactly its unique\nDRAM bytes" if all(
         r["dram"]["read_bytes"] == r["dram"]["unique_read_bytes"]
         for r in c["reports"].values()) else "(a file reads more than its unique DRAM bytes)"),
    ("resnet_b4_2x2_SET",
     lambda c: "resnet_b4_2x2_SET ({:.2f}x)".format(ratio(c, "resnet_b4_2x2_SET"))),
    ("vgg_b1_4x4_LP", lambda c: "vgg_b1_4x4_LP ({:.2f}x)".format(ratio(c, "vgg_b1_4x4_LP"))),
    ("resnet_b1_16x16_LP and its NoC share",
     lambda c: "resnet_b1_16x16_LP\n({:.2f}x) spends {:.2f}x of the estimate in NoC link "
               "bandwidth".format(ratio(c, "resnet_b1_16x16_LP"),
                                  ratio(c, "resnet_b1_16x16_LP") - c["noc_free_16"])),
    ("the 12 GB/s 8x8 files",
     lambda c: "resnet_b1_8x8_noc12 LP {:.2f}x, LS {:.2f}x, SET {:.2f}x".format(
         *(ratio(c, "resnet_b1_8x8_noc12_" + s) for s in ("LP", "LS", "SET")))),
    ("their link share",
     lambda c: "link waits are {:.0f}-{:.0f}% of their critical paths".format(
         min(cp_share(c, "resnet_b1_8x8_noc12_" + s, "link") for s in ("LP", "LS", "SET")),
         max(cp_share(c, "resnet_b1_8x8_noc12_" + s, "link") for s in ("LP", "LS", "SET")))),
    ("the 12 GB/s 8x8 files with the links free",
     lambda c: "with the links free the\nsame programs take {:.2f}-{:.2f}x of the estimate".format(
         min(c["noc_free_12"].values()), max(c["noc_free_12"].values()))),
]


def sweep_ratios(gemini, root, corpus, tmp):
    """sim / estimate of every point of configs/sweeps/corpus-dram-multicast.json,
    by (file, GB/s per TOPS, multicast)."""
    out = os.path.join(tmp, "sweep")
    p = subprocess.run([gemini, "sweep", "run",
                        os.path.join(root, "configs", "sweeps", "corpus-dram-multicast.json"),
                        "-o", out, "--jobs", "2"], capture_output=True, text=True,
                       env=dict(os.environ, GEMINI_CORPUS=corpus))
    if p.returncode != 0:
        sys.exit(f"check_readme_figures: the corpus sweep failed: {p.stderr.strip()[-500:]}")
    d = {}
    for r in csv.DictReader(open(os.path.join(out, "results.csv"))):
        name = os.path.basename(r["input"]).replace(".json.gz", "").replace("_IR", "")
        d[(name, float(r["dram.gbps_per_tops"]), r["dram.multicast"] == "true")] = \
            float(r["sim_over_estimate"])
    return d


def sweep_text(s):
    """The README's paragraph on the corpus sweep, rendered from its points."""
    names = sorted({k[0] for k in s})
    on = {n: s[(n, 0.5, True)] for n in names}
    off = {n: s[(n, 0.5, False)] for n in names}
    half = {n: s[(n, 0.25, True)] / on[n] for n in names}
    same = [n for n in names if abs(off[n] - on[n]) < 0.005]
    most = [half[n] for n in names if half[n] >= 1.75]
    return [
        "{} of the {} files simulate within 1.13x of their estimate".format(
            sum(1 for n in names if on[n] <= 1.13), len(names)),
        "resnet_b1_8x8_noc12_SET is at {:.2f}x, resnet_b1_8x8_noc12_LP at {:.2f}x".format(
            on["resnet_b1_8x8_noc12_SET"], on["resnet_b1_8x8_noc12_LP"]),
        "vgg files at {:.2f}x and {:.2f}x, resnet_b4 at {:.2f}x and resnet_b1_16x16_LP at "
        "{:.2f}x".format(on["vgg_b1_4x4_SET"], on["vgg_b1_4x4_LP"], on["resnet_b4_2x2_SET"],
                         on["resnet_b1_16x16_LP"]),
        "its own copy: {:.2f}-{:.2f}x, {:.2f}x more cycles on resnet_b1_8x8_LS".format(
            min(off[n] for n in names if n not in same), max(off.values()),
            off["resnet_b1_8x8_LS"] / on["resnet_b1_8x8_LS"]),
        "gnmt and lstm are the same either way ({:.2f}x)".format(on["gnmt_b1_4x4_SET"])
        if sorted(same) == ["gnmt_b1_4x4_SET", "lstm_b1_4x4_LS"] else
        "(the files the same with multicast off and on: {})".format(", ".join(same)),
        "ratios with multicast on by {:.2f}-{:.2f}".format(min(most), max(most)),
        "the vgg files ({:.2f}-{:.2f}), the 8x8 LP and SET schedules made for 12 GB/s links "
        "({:.2f}-{:.2f}) and the 16x16 resnet ({:.2f})".format(
            *sorted([half["vgg_b1_4x4_SET"], half["vgg_b1_4x4_LP"]]),
            *sorted([half["resnet_b1_8x8_noc12_LP"], half["resnet_b1_8x8_noc12_SET"]]),
            half["resnet_b1_16x16_LP"]),
    ]


def hw_file(base, tmp, gbps):
    return write_hw(base, tmp, "hw_%g" % gbps, at_link_gbps(gbps))


def simulate(gemini, f, hw, rep):
    try:
        return corpus_runs.simulate(gemini, f, hw, rep)
    except corpus_runs.Failed as e:
        sys.exit(f"check_readme_figures: {f}: {e}")


def corpus_reports(gemini, corpus, base, tmp):
    c = {"reports": {}, "est": {}}
    for r in corpus_runs.manifest(corpus):
        name = corpus_runs.name_of(r)
        gbps = corpus_runs.link_gbps(r) or 24.0
        c["reports"][name] = simulate(gemini, os.path.join(corpus, r["file"]),
                                      hw_file(base, tmp, gbps), os.path.join(tmp, name + ".json"))
        c["est"][name] = int(r["set_latency_cycles"])
    free = simulate(gemini, os.path.join(corpus, "resnet_b1_16x16_LP_IR.json.gz"),
                    hw_file(base, tmp, 24000), os.path.join(tmp, "noc_free.json"))
    c["noc_free_16"] = free["total_cycles"] / c["est"]["resnet_b1_16x16_LP"]
    c["noc_free_12"] = {}
    for s in ("LP", "LS", "SET"):
        name = "resnet_b1_8x8_noc12_" + s
        free = simulate(gemini, os.path.join(corpus, name + "_IR.json.gz"),
                        hw_file(base, tmp, 12000), os.path.join(tmp, name + "_free.json"))
        c["noc_free_12"][s] = free["total_cycles"] / c["est"][name]
    return c


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser()
    ap.add_argument("--gemini", default=os.path.join(root, "build", "cli", "gemini"))
    ap.add_argument("--corpus", default=os.environ.get(
        "GEMINI_CORPUS", os.path.join(root, "..", "shared", "ir-corpus", "set")))
    ap.add_argument("--readme", default=os.path.join(root, "README.md"))
    ap.add_argument("--hw", default=os.path.join(root, "configs", "set-polar.json"))
    a = ap.parse_args()
    if not os.path.exists(os.path.join(a.corpus, "manifest.csv")):
        print(f"skip: the corpus is not at {a.corpus} (set GEMINI_CORPUS)")
        return 77
    text = open(a.readme).read()
    bad = 0
    blocks = MARKER.findall(text)
    for args, block in blocks:
        cmd = [a.gemini] + [x.replace("{corpus}", a.corpus) for x in shlex.split(args)]
        p = subprocess.run(cmd, capture_output=True, text=True, cwd=root)
        out = set(line.rstrip() for line in p.stdout.splitlines())
        for line in block.splitlines():
            if "..." in line or not line.strip() or line.rstrip() in out:
                continue
            bad += 1
            want = [o for o in p.stdout.splitlines() if o.split()[:1] == line.split()[:1]]
            print(f"README.md, the output of `gemini {args}`:\n  README: {line}\n  now:    "
                  + ("\n          ".join(want[:3]) if want else "(no such line)"))
    with tempfile.TemporaryDirectory() as tmp:
        c = corpus_reports(a.gemini, a.corpus, a.hw, tmp)
        said = re.sub(r"\s+", " ", text)
        wants = [(what, render(c)) for what, render in PROSE]
        wants += [("the corpus sweep", t)
                  for t in sweep_text(sweep_ratios(a.gemini, root, a.corpus, tmp))]
        for what, want in wants:
            if re.sub(r"\s+", " ", want) not in said:
                bad += 1
                print(f"README.md, {what}: should say \"{want}\"")
    print(f"check_readme_figures: {len(blocks)} example blocks, {len(wants)} prose figures, "
          f"{bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
