"""The package on a corpus file (../shared/ir-corpus/set, or
$GEMINI_CORPUS; skipped when absent): resnet_b1_2x2_SET, its model."""

import json
import subprocess

import numpy as np

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
