"""The package on a corpus file (../shared/ir-corpus/set, or
$GEMINI_CORPUS; skipped when absent): resnet_b1_2x2_SET, its model."""

import csv
import json
import os
import re
import subprocess
from pathlib import Path

import numpy as np
import pytest

from conftest import without_host

FILE = "resnet_b1_2x2_SET_IR.json.gz"
MODEL = "models/resnet_b1.model.json"


def test_corpus_validate_and_info(gemini, corpus):
    r = gemini.validate(corpus / FILE, model=corpus / MODEL)
    assert r.valid and r.dialect == "set"
    cli = json.loads(subprocess.run([gemini.executable(), "validate", str(corpus / FILE), "--model",
                                     str(corpus / MODEL), "--json"], capture_output=True,
                                    text=True).stdout)["files"][0]
    assert (r.status, r.errors, r.warnings) == (cli["status"], cli["errors"], cli["warnings"])
    i = gemini.info(corpus / FILE)
    assert i["xlen"] == 2 and i["ylen"] == 2 and i["workloads"] > 0


def test_corpus_simulate_equals_cli(gemini, corpus, cli_report):
    f = str(corpus / FILE)
    r = gemini.simulate(f, hw="set-polar")
    assert without_host(r) == cli_report(f, "--hw", "set-polar")
    assert r.critical_path.cycles <= r.total_cycles
    assert len(r.layers) == len(r.data["layers"]) > 10


def test_corpus_functional_and_reference(gemini, corpus):
    r = gemini.simulate(corpus / FILE, model=corpus / MODEL, functional=True)
    assert r.functional.passed and r.functional.mismatches == 0
    ref = gemini.reference(corpus / MODEL)
    layers = [l["name"] for l in r.data["functional"]["layers"]]
    assert set(layers) <= set(ref)
    for a in ref.values():
        assert a.dtype == np.int8 and a.ndim == 4


def test_docs_sweep_example_equals_gemini_sweep(gemini, corpus, tmp_path, monkeypatch):
    # docs/python.md's worked example, run as written, against `gemini sweep
    # run` of the README's sweep file: the same six times.
    matplotlib = pytest.importorskip("matplotlib", reason="matplotlib is not installed")
    matplotlib.use("Agg")
    root = Path(__file__).resolve().parents[2]
    doc = (root / "docs" / "python.md").read_text()
    code = re.search(r"## Worked example.*?```python\n(.*?)```", doc, re.S).group(1)
    monkeypatch.setenv("GEMINI_CORPUS", str(corpus))
    monkeypatch.chdir(tmp_path)
    scope = {}
    exec(compile(code, "docs/python.md", "exec"), scope)
    assert (tmp_path / "sweep.png").stat().st_size > 0
    subprocess.run([gemini.executable(), "sweep", "run", str(root / "configs/sweeps/example.json"),
                    "-o", str(tmp_path / "sweep"), "--jobs", "2"], check=True, capture_output=True,
                   env={**os.environ, "GEMINI_CORPUS": str(corpus)})
    with open(tmp_path / "sweep" / "results.csv") as f:
        rows = list(csv.DictReader(f))
    want = {(r["input"].split("_")[3], float(r["dram.gbps_per_tops"])): float(r["time_us"])
            for r in rows}
    assert scope["time_us"] == want
