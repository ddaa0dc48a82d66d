"""Every function of the package on the fixtures of tests/data."""

import json
import os
import subprocess

import numpy as np
import pytest
from pathlib import Path

from conftest import without_host


def test_validate_valid_file(gemini, data):
    r = gemini.validate(data / "set_minimal.json")
    assert r.valid and r.status == "valid" and r.verdict == "valid"
    assert r.dialect == "set" and r.errors == 0 and r.semantic_checks
    assert all(isinstance(d, gemini.Diagnostic) for d in r.diagnostics)


def test_validate_with_model(gemini, data):
    r = gemini.validate(str(data / "set_minimal.json"), model=data / "set_minimal.model.json")
    assert r.valid
    bad = gemini.validate(data / "set_minimal_half_channels.json", model=data / "set_minimal.model.json")
    assert bad.status == "invalid" and bad.errors >= 1
    d = [x for x in bad.diagnostics if x.code == "M010"][0]
    assert d.severity == "error" and d.pointer.startswith("/") and "computed by no workload" in d.message


def test_validate_reports_each_check_as_the_cli(gemini, data):
    # Every fixture of tests/data/checks: the CLI's verdict and first code.
    for f in sorted((data / "checks").glob("*.json"))[:12]:
        r = gemini.validate(f)
        cli = json.loads(subprocess.run([gemini.executable(), "validate", str(f), "--json"],
                                        capture_output=True, text=True).stdout)["files"][0]
        assert r.status == cli["status"], f
        assert [d.code for d in r.diagnostics] == [d["code"] for d in cli["diagnostics"]], f
        assert [d.pointer for d in r.diagnostics] == [d.get("pointer", "") for d in cli["diagnostics"]]


def test_validate_bad_inputs(gemini, data, tmp_path):
    missing = gemini.validate(tmp_path / "missing.json")
    assert missing.status == "unreadable" and not missing
    (tmp_path / "garbage.json").write_text("{not json")
    g = gemini.validate(tmp_path / "garbage.json")
    assert g.status in ("unreadable", "invalid") and g.diagnostics
    with pytest.raises(gemini.InputError):
        gemini.validate(data / "set_minimal.json", dialect="nonsense")
    for bad in (42, "", "a\0b", b"bytes"):
        with pytest.raises(gemini.InputError):
            gemini.validate(bad)
    m = gemini.validate(data / "set_minimal.json", model=tmp_path / "missing.model.json")
    assert m.status == "unreadable"


def test_info(gemini, data):
    i = gemini.info(data / "set_minimal.json")
    cli = json.loads(subprocess.run([gemini.executable(), "info", str(data / "set_minimal.json"),
                                     "--json"], capture_output=True, text=True).stdout)
    for k, v in cli.items():
        assert i[k] == v, k
    with pytest.raises(gemini.InputError) as e:
        gemini.info(data / "checks" / "S002_wrong_type.json")
    assert e.value.diagnostics and e.value.message == e.value.diagnostics[0].message
    assert e.value.diagnostics[0].code == "S001"


def test_hw_dict(gemini):
    h = gemini.hw("set-polar")
    assert isinstance(h, dict) and h["name"] == "set-polar"
    assert "set-polar" in gemini.hw_names()
    with pytest.raises(gemini.InputError):
        gemini.hw("no-such-configuration")


def test_simulate_equals_cli_report(gemini, data, cli_report):
    f = str(data / "set_minimal.json")
    r = gemini.simulate(f)
    assert without_host(r) == cli_report(f, "--hw", "set-polar")
    assert r.total_cycles == r["total_cycles"] > 0
    assert r.energy.total == r.data["energy_pj"]["total"]
    assert r.critical_path.cycles > 0 and len(r.path_segments) > 0
    assert len(r.layers) == len(r.data["layers"]) and len(r.cores) == len(r.data["cores"])
    assert len(r.workloads) == 2  # the --csv lines


def test_simulate_tables_without_pandas(gemini, data, monkeypatch):
    from gemini import _report
    monkeypatch.setattr(_report, "_pandas", None)
    r = gemini.simulate(data / "set_minimal.json")
    rows = r.workloads
    assert isinstance(rows, list) and rows[0]["layer"] == "conv1"
    assert isinstance(rows[0]["simulated_cycles"], int)
    layer = r.layers[0]
    assert layer["name"] == "conv1" and "energy_pj.total" in layer


def test_simulate_tables_with_pandas(gemini, data):
    pd = pytest.importorskip("pandas", reason="pandas is not installed: tables are lists")
    r = gemini.simulate(data / "set_minimal.json")
    assert isinstance(r.layers, pd.DataFrame) and list(r.workloads["layer"]) == ["conv1", "pool1"]


def test_simulate_hw_dict_and_settings(gemini, data, cli_report, tmp_path):
    f = str(data / "set_minimal.json")
    h = gemini.hw("set-polar")
    h["dram"]["gbps_per_tops"] = 0.25
    by_dict = gemini.simulate(f, hw=h)
    by_set = gemini.simulate(f, set={"dram.gbps_per_tops": 0.25})
    path = tmp_path / "slow.json"
    path.write_text(json.dumps(h))
    assert without_host(by_dict) == without_host(by_set) == cli_report(f, "--hw", path)
    by_numpy = gemini.simulate(f, set={"dram.gbps_per_tops": np.linspace(0.25, 1, 4)[0]})
    assert without_host(by_numpy) == without_host(by_set)
    default = gemini.simulate(f, hw=None)
    assert without_host(default) == cli_report(f)


@pytest.mark.parametrize("settings, pointer", [
    ({"dram.gbps_per_tops": -1}, "/dram/gbps_per_tops"),
    ({"dram.bandwidth_gbps": 1}, "/dram/bandwidth_gbps"),
    ({"noc.no_such": 1}, "/noc/no_such"),
    ({"mesh.xlen": "two"}, "/mesh/xlen"),
])
def test_bad_hw_raises_input_error(gemini, data, settings, pointer):
    with pytest.raises(gemini.InputError) as e:
        gemini.simulate(data / "set_minimal.json", set=settings)
    assert e.value.pointer == pointer and e.value.message and e.value.diagnostics


def test_a_refused_set_value_is_named_by_set(gemini, data):
    # A value of set= is no file's: its problem is named set["PATH"], in the
    # exception's text, its file and its diagnostics; the pointer stays the
    # value's place in the configuration.
    f = data / "set_minimal.json"
    with pytest.raises(gemini.InputError) as e:
        gemini.simulate(f, set={"noc.link_gbps": 0})
    assert e.value.file == 'set["noc.link_gbps"]' and e.value.given
    assert e.value.pointer == "/noc/link_gbps"
    assert str(e.value).startswith('set["noc.link_gbps"]: parameter "link_gbps" of component '
                                   '"noc"'), str(e.value)
    d = e.value.diagnostics[0]
    assert (d.code, d.file, d.given) == ("H001", 'set["noc.link_gbps"]', True), d
    assert str(d).startswith('set["noc.link_gbps"]: H001: error: '), str(d)
    # Inside a value set whole: the parameter inside it.
    with pytest.raises(gemini.InputError) as e:
        gemini.simulate(f, set={"l2": {"size_bytes": 0}})
    assert e.value.file == 'set["l2.size_bytes"]' and e.value.pointer == "/l2/size_bytes"
    # The configuration's own value keeps its place, beside a good setting.
    h = gemini.hw("set-polar")
    h["noc"]["link_gbps"] = 0
    with pytest.raises(gemini.InputError) as e:
        gemini.simulate(f, hw=h, set={"noc.router_cycles": 2})
    assert e.value.file == "<hw>" and not e.value.given
    assert str(e.value).startswith("<hw>:/noc/link_gbps: "), str(e.value)


def test_bad_inputs_raise_input_error(gemini, data, tmp_path):
    f = data / "set_minimal.json"
    with pytest.raises(gemini.InputError):
        gemini.simulate(tmp_path / "missing.json")
    with pytest.raises(gemini.InputError) as e:
        gemini.simulate(data / "set_minimal_half_channels.json", model=data / "set_minimal.model.json")
    assert e.value.pointer == "/1/0/workload" and "computed by no workload" in e.value.message
    for bad in ({"hw": 3}, {"hw": "no-such"}, {"set": {"": 1}}, {"set": {"name.x": 1}},
                {"functional": True}, {"seed": -1, "model": data / "set_minimal.model.json"},
                {"until_cycles": 0}, {"dialect": "x"}, {"set": {"dram.gbps_per_tops": float("nan")}},
                {"set": {"dram.gbps_per_tops": object()}}):
        with pytest.raises(gemini.InputError):
            gemini.simulate(f, **bad)
    with pytest.raises(gemini.InputError):
        gemini.reference(tmp_path / "missing.model.json")


def test_functional_verdict_and_provenance(gemini, data):
    ok = gemini.simulate(data / "set_minimal.json", model=data / "set_minimal.model.json",
                         functional=True, seed=3)
    assert ok.functional.passed and ok.functional.seed == 3 and ok.functional.mismatches == 0
    bad = gemini.simulate(data / "early_write.json", model=data / "gpt_decode_q1.model.json",
                          functional=True)
    f = bad.functional
    assert not f.passed and f.mismatches == 10 and f.faults == len(f.fault_list) == 2
    wrong = [l for l in f.layers if "provenance" in l]
    assert wrong and wrong[0].name == "blk_Vt2"
    p = wrong[0].provenance
    assert p.verdict and p.examples[0].writer.core_id == 1 and p.writers[0].count >= 1


def test_reference(gemini, data, tmp_path):
    ref = gemini.reference(data / "set_minimal.model.json", seed=2)
    assert set(ref) == {"input_4", "conv1", "pool1"}
    assert ref["conv1"].dtype == np.int8 and ref["conv1"].shape == (1, 16, 8, 8)
    subprocess.run([gemini.executable(), "ref", "--model", str(data / "set_minimal.model.json"),
                    "--seed", "2", "-o", str(tmp_path)], check=True, capture_output=True)
    for name, a in ref.items():
        assert np.array_equal(a.ravel(), np.fromfile(tmp_path / f"{name}.int8", dtype=np.int8))
    assert not np.array_equal(ref["conv1"], gemini.reference(data / "set_minimal.model.json")["conv1"])



def test_simulate_the_issues_example(gemini, data, cli_report, tmp_path):
    # The settings of the issue's example: a NoC parameter and a chiplet cut;
    # the chiplets section the simulator writes is in the report unchanged.
    f = str(data / "set_minimal.json")
    r = gemini.simulate(f, hw="set-polar", set={"noc.link_gbps": 12, "chiplets.x_cut": 2})
    h = gemini.hw("set-polar")
    h["noc"]["link_gbps"] = 12
    h.setdefault("chiplets", {})["x_cut"] = 2
    (tmp_path / "cut.json").write_text(json.dumps(h))
    assert without_host(r) == cli_report(f, "--hw", tmp_path / "cut.json")
    with pytest.raises(gemini.InputError) as e:
        gemini.simulate(f, set={"chiplets.x_cut": 3})
    assert "x_cut" in e.value.message


def test_refusals_come_from_the_diagnostics_file(gemini, data, tmp_path):
    # The child's refusal is read from --diagnostics-json, not from stderr:
    # an invalid input gives every located diagnostic the CLI printed.
    bad = tmp_path / "bad.json"
    bad.write_text('{"0": [{"workload_id": "x"}]}', encoding="utf-8")
    with pytest.raises(gemini.InputError) as e:
        gemini.simulate(bad)
    codes = {d.code for d in e.value.diagnostics}
    assert e.value.diagnostics and all(d.code for d in e.value.diagnostics), e.value.diagnostics
    assert e.value.pointer.startswith("/0"), e.value.pointer
    # A hardware configuration's problem: H001 at its pointer, from the file.
    with pytest.raises(gemini.InputError) as e:
        gemini.simulate(data / "set_minimal.json", set={"noc.link_gbps": 0})
    assert e.value.pointer == "/noc/link_gbps"
    assert e.value.diagnostics[0].code == "H001", e.value.diagnostics
    assert "link_gbps" in e.value.message
    # The file the CLI writes: every diagnostic with its file, code and place.
    out = tmp_path / "d.json"
    r = subprocess.run([gemini.executable(), "--diagnostics-json", str(out), "validate", str(bad)],
                       capture_output=True, text=True)
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written["exit_status"] == r.returncode == 1
    assert written["diagnostics"] and written["diagnostics"][0]["file"] == str(bad)
    assert {d["code"] for d in written["diagnostics"]} >= codes - {""}


def test_the_stubs_are_the_module(gemini, tmp_path):
    # __init__.pyi declares exactly the public API: every function with its
    # parameters, every class with its public members, and nothing more.
    import ast
    import inspect
    stub = ast.parse((Path(gemini.__file__).parent / "__init__.pyi").read_text(encoding="utf-8"))
    functions = {n.name: n for n in stub.body if isinstance(n, ast.FunctionDef)}
    classes = {n.name: n for n in stub.body if isinstance(n, ast.ClassDef)}
    public = set(gemini.__all__)
    assert public == set(functions) | set(classes), (public ^ (set(functions) | set(classes)))

    def params(node):
        a = node.args
        return [x.arg for x in a.posonlyargs + a.args + a.kwonlyargs]

    for name, node in functions.items():
        real = getattr(gemini, name)
        assert params(node) == list(inspect.signature(real).parameters), name
    examples = {"InputError": lambda: gemini.InputError("m", "/p", [], "f"),
                "SimulationError": lambda: gemini.SimulationError("m", 1, ""),
                "Report": lambda: gemini.Report({}, [], ""), "Record": lambda: gemini.Record({}),
                "Sweep": lambda: (tmp_path / "results.json").write_text("{}")
                and gemini.Sweep(str(tmp_path))}
    for name, node in classes.items():
        real = getattr(gemini, name)
        declared = set()
        for m in node.body:
            if isinstance(m, ast.FunctionDef):
                declared.add(m.name)
                decorators = {d.id for d in m.decorator_list if isinstance(d, ast.Name)}
                if not m.name.startswith("_") and "property" not in decorators:
                    # A method's signature on the class has self; a classmethod's is bound.
                    want = params(m)[1:] if "classmethod" in decorators else params(m)
                    assert want == list(inspect.signature(getattr(real, m.name)).parameters), \
                        (name, m.name)
            elif isinstance(m, ast.AnnAssign) and isinstance(m.target, ast.Name):
                declared.add(m.target.id)
        own = {k for k, v in vars(real).items()
               if not k.startswith("_") and (callable(v) or isinstance(v, property))}
        assert own <= declared, (name, sorted(own - declared))
        # What it declares besides: a dataclass field, or set on an instance.
        fields = set(getattr(real, "__dataclass_fields__", {}))
        instance = examples.get(name, lambda: None)()
        for k in declared - own:
            if not k.startswith("_"):
                assert k in fields or hasattr(real, k) or hasattr(instance, k), (name, k)


def test_reference_without_numpy_says_what_to_install(gemini, data, monkeypatch):
    import builtins
    real_import = builtins.__import__

    def no_numpy(name, *args, **kwargs):
        if name == "numpy" or name.startswith("numpy."):
            raise ModuleNotFoundError("No module named 'numpy'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_numpy)
    with pytest.raises(ImportError) as e:
        gemini.reference(data / "set_minimal.model.json")
    assert "numpy" in str(e.value) and "python3-numpy" in str(e.value)


def simulated_with_model(gemini, data, cli_report, tmp_path, hw, section, model, missing):
    """set_minimal on `hw` with `section`.model = `model`, from Python and
    from the CLI (the same report); skips, saying why, where `missing` (the
    model's not-built message) is the refusal."""
    f = str(data / "set_minimal.json")
    try:
        r = gemini.simulate(f, hw=hw, set={section + ".model": model})
    except gemini.InputError as e:
        if missing in e.message:
            pytest.skip(e.message)
        raise
    h = gemini.hw(hw)
    h[section]["model"] = model
    (tmp_path / "hw.json").write_text(json.dumps(h))
    assert without_host(r) == cli_report(f, "--hw", tmp_path / "hw.json")
    return r


def test_simulate_with_booksim2(gemini, data, cli_report, tmp_path):
    # noc.model "booksim2" (BookSim 2's routers) from Python as from the CLI,
    # its link statistics and counters in the report as the mesh's are.
    r = simulated_with_model(gemini, data, cli_report, tmp_path, "set-polar", "noc", "booksim2",
                             "built without BookSim 2")
    assert r.data["noc"]["link_utilisation_max"] > 0
    assert r.data["stats"]["groups"]["noc"]["stats"]["flits"]["value"] > 0


# A study (docs/sweeps.md, "Studies"): the two 2x1 fixtures, each with its
# own hardware point in the Gemini scheduler's manifest columns.
STUDY_MANIFEST = (
    "file,network,batch,xlen,ylen,xcut,ycut,d2d,tech,freq_mhz,nop_gbps,noc_gbps,dram_gbps,"
    "latency_cycles,energy_pj,e_l2,e_core_buffers,e_bus,e_mac,e_noc,e_nop,e_dram,cost_overall\n"
    "spec_minimal.json,net,1,2,1,1,1,XSR,12,1000,16,32,2,1000,2e6,1,1,0,1,1,0,1,10.5\n"
    "set_minimal.json,net,1,2,1,2,1,UCIe,12,1000,16,32,2,2000,3e6,1,1,0,1,1,2,1,12.25\n")


def study_spec(data, tmp_path):
    (tmp_path / "manifest.csv").write_text(STUDY_MANIFEST)
    return {"name": "py-study", "hw": str(data.parent.parent / "configs" / "gemini-hpca24.json"),
            "inputs": [{"ir": str(data / "{spec,set}_minimal.json"),
                        "manifest": str(tmp_path / "manifest.csv"), "hardware": "gemini"}]}


def test_sweep_study_is_the_clis(gemini, data, tmp_path):
    spec = study_spec(data, tmp_path)
    s = gemini.sweep(spec, tmp_path / "py", jobs=1)
    assert s.summary.ok == 2 and s.study is not None
    rows = s.points if isinstance(s.points, list) else s.points.to_dict("records")
    two = [r for r in rows if r["label"] == "set_minimal"][0]
    assert two["chiplets.interface"] == "UCIe" and two["scheduler_time_us"] == 2.0
    assert two["time_over_scheduler"] == pytest.approx(two["time_us"] / 2.0)
    assert [r["metric"] for r in s.study.groups[0].rankings] == \
        ["latency", "energy", "cost", "edp", "cost_edp"]
    # The same sweep from the command line: the same results and study.
    (tmp_path / "cli.sweep.json").write_text(json.dumps(spec))
    subprocess.run([gemini.executable(), "sweep", "run", str(tmp_path / "cli.sweep.json"), "-o",
                    str(tmp_path / "cli"), "--jobs", "1"], check=True, capture_output=True)
    cli = json.loads((tmp_path / "cli" / "study.json").read_text())
    assert cli["groups"][0]["rankings"] == s.study_data["groups"][0]["rankings"]
    again = gemini.sweep_results(tmp_path / "cli")
    assert [p["id"] for p in again.data["points"]] == [p["id"] for p in s.data["points"]]
    with pytest.raises(gemini.InputError):
        gemini.sweep({"inputs": []}, tmp_path / "bad")


def test_simulate_power(gemini, data):
    r = gemini.simulate(data / "set_minimal.json", hw="set-polar", power_window=100)
    assert r.power.window_ns == 100 and r.power.windows >= 1
    assert r.power.package.energy_pj == pytest.approx(r.energy.total, rel=1e-9)
    rows = r.power_windows if isinstance(r.power_windows, list) else \
        r.power_windows.to_dict("records")
    assert {x["scope"] for x in rows} >= {"package", "dram", "die", "core"}
    assert gemini.simulate(data / "set_minimal.json", hw="set-polar").power is None
    with pytest.raises(gemini.InputError):
        gemini.simulate(data / "set_minimal.json", power_window=-1)


def test_simulate_with_ramulator2(gemini, data, cli_report, tmp_path):
    # dram.model "ramulator2" (Ramulator 2's controllers) from Python as from
    # the CLI, its own counters in the report's DRAM groups.
    r = simulated_with_model(gemini, data, cli_report, tmp_path, "set-polar-lpddr5", "dram",
                             "ramulator2", "Ramulator 2 is not built")
    groups = [g for g in r.data["stats"]["groups"].values() if g["kind"] == "dram"]
    assert groups and all("clocks" in g["stats"] and "row_hits" in g["stats"] for g in groups)
    assert sum(g["stats"]["clocks"]["value"] for g in groups) > 0
