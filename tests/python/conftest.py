"""Fixtures of the Python package's tests (run by ctest: python.*; or by
hand: PYTHONPATH=build/python python3 -m pytest tests/python). The package
under test is the one on PYTHONPATH; GEMINI_EXE, when set, is the gemini
it runs, else its own (the build tree's)."""

import json
import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"
CORPUS = Path(os.environ.get("GEMINI_CORPUS", ROOT.parent / "shared" / "ir-corpus" / "set"))


@pytest.fixture(scope="session")
def gemini():
    import gemini as g
    return g


@pytest.fixture(scope="session")
def data():
    return DATA


@pytest.fixture(scope="session")
def corpus():
    if not (CORPUS / "resnet_b1_2x2_SET_IR.json.gz").is_file():
        pytest.skip(f"the corpus is not here ({CORPUS}): clone ../shared or set GEMINI_CORPUS")
    return CORPUS


@pytest.fixture(scope="session")
def cli_report(gemini, tmp_path_factory):
    """The CLI's --report JSON for `gemini sim ARGS`, without "host" (the
    one field that differs from run to run)."""
    def run(*args):
        out = tmp_path_factory.mktemp("cli") / "report.json"
        subprocess.run([gemini.executable(), "sim", *map(str, args), "--report", str(out), "-q"],
                       check=False, capture_output=True)
        d = json.loads(out.read_text())
        d.pop("host", None)
        return d
    return run


def without_host(report):
    d = dict(report.data)
    d.pop("host", None)
    return d
