"""What the calibration scripts (calibrate.py, calibrate_meshes.py,
check_readme_figures.py) share: the corpus manifest, a configuration copied
with changes (each file at its manifest's NoC link bandwidth, the what-ifs
with links or DRAM 1000x faster), and one `gemini sim` run's JSON report."""
import csv
import json
import os
import subprocess


class Failed(Exception):
    """A run that did not simulate; the message is its last line of stderr."""


def manifest(corpus):
    """The rows of the corpus's manifest.csv."""
    return list(csv.DictReader(open(os.path.join(corpus, "manifest.csv"))))


def name_of(row):
    return row["file"].replace("_IR.json.gz", "")


def link_gbps(row):
    """The NoC link bandwidth the file was scheduled for (the manifest's
    noc_gbps), or None: the configuration's."""
    g = (row.get("noc_gbps") or "").strip()
    return float(g) if g else None


def at_link_gbps(gbps):
    def change(hw):
        hw["noc"]["link_gbps"] = gbps
    return change


def noc_free(hw):
    hw["noc"]["link_gbps"] = hw["noc"].get("link_gbps", 24) * 1000


def dram_free(hw):
    hw["dram"]["gbps_per_tops"] = hw["dram"].get("gbps_per_tops", 0) * 1000
    if hw["dram"].get("port_gbps"):
        hw["dram"]["port_gbps"] *= 1000


def write_hw(base, tmp, name, *changes):
    """A copy of the configuration `base` with `changes` applied in order;
    its path."""
    hw = json.load(open(base))
    for change in changes:
        change(hw)
    path = os.path.join(tmp, name + ".json")
    json.dump(hw, open(path, "w"))
    return path


def simulate(gemini, f, hw, report, extra=()):
    """`gemini sim -q f --hw hw --report report extra...`: the report."""
    p = subprocess.run([gemini, "sim", "-q", f, "--hw", hw, "--report", report, *extra],
                       capture_output=True, text=True)
    if p.returncode != 0:
        lines = [x for x in p.stderr.splitlines() if x.strip()]
        raise Failed(lines[-1] if lines else f"exit {p.returncode}")
    return json.load(open(report))
