"""gemini from Python (docs/python.md): validate IR files, simulate them on
a hardware configuration and compute the layer-semantics reference, as
Python objects and numpy arrays.

Reading and checking (validate, info, the hardware configuration) run in
this process, in C++ (gemini._gemini), with the GIL released. Simulations
and references run in a child `gemini` process each -- SystemC elaborates
one design per process -- so any number of them, one after another or from
several threads at once, are independent; the wait releases the GIL, and
KeyboardInterrupt kills the child."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Optional, Union

from . import _hw, _run
from ._errors import Diagnostic, InputError
from ._report import Record, Report
from ._sweep import Sweep

__all__ = ["Diagnostic", "InputError", "Record", "Report", "Result", "SimulationError", "Sweep",
           "hw", "hw_names", "info", "reference", "simulate", "sweep", "sweep_results",
           "validate", "executable"]

PathLike = Union[str, "os.PathLike[str]"]
HwLike = Union[str, "os.PathLike[str]", Mapping[str, Any], None]


class SimulationError(RuntimeError):
    """A run that gemini could not complete for a reason other than its
    input (it was killed, it ran out of memory): `returncode`, `stderr`."""

    def __init__(self, message: str, returncode: int, stderr: str):
        super().__init__(message)
        self.returncode = returncode
        self.stderr = stderr


@dataclass(frozen=True)
class Result:
    """gemini validate's verdict on one file: `status` is "valid",
    "invalid" or "unreadable"; `diagnostics` every problem kept."""
    file: str
    status: str
    dialect: Optional[str]
    errors: int
    warnings: int
    not_shown: int
    semantic_checks: bool
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return self.status == "valid"

    @property
    def verdict(self) -> str:
        return self.status

    def __bool__(self) -> bool:
        return self.valid


def executable() -> str:
    """The gemini executable the simulations run."""
    return _run.executable()


def hw(name_or_path: PathLike = "set-polar") -> dict[str, Any]:
    """A hardware configuration as a dict to modify, by name ("set-polar",
    one that ships with gemini) or path."""
    return _hw.load(name_or_path)


def hw_names() -> list[str]:
    """The configurations that ship with gemini."""
    return _hw.names()


def _path(p: Any, what: str) -> str:
    if not isinstance(p, (str, os.PathLike)):
        raise InputError(f"{what}: expected a path, got {type(p).__name__}")
    s = os.fspath(p)
    if not isinstance(s, str) or not s or "\0" in s:
        raise InputError(f"{what}: {s!r} is not a file name")
    return s


def _dialect(d: Optional[str]) -> str:
    if d is None:
        return ""
    if d not in ("full", "set"):
        raise InputError(f"dialect: expected 'full' or 'set', got {d!r}")
    return d


def validate(path: PathLike, model: Optional[PathLike] = None, dialect: Optional[str] = None,
             hw: HwLike = None, max_diagnostics: int = 1000) -> Result:
    """Checks an IR file as `gemini validate` does (with `model`: against
    the layer semantics too); never raises for a bad file: its problems
    are the result's diagnostics."""
    from . import _gemini
    text = _hw.resolve(hw) or ""
    if not isinstance(max_diagnostics, int) or max_diagnostics < 1:
        raise InputError("max_diagnostics: expected an integer >= 1")
    r = _gemini.validate(_path(path, "path"), _path(model, "model") if model is not None else "",
                         _dialect(dialect), text, max_diagnostics)
    r["diagnostics"] = [Diagnostic(**d) for d in r["diagnostics"]]
    return Result(**r)


def info(path: PathLike, dialect: Optional[str] = None) -> dict[str, Any]:
    """What an IR file holds (`gemini info --json`): mesh, workloads, layers,
    traffic, predicted time per core, the longest dependency path. Raises
    InputError when it does not load cleanly."""
    from . import _gemini
    p = _path(path, "path")
    ok, text, diags = _gemini.info(p, _dialect(dialect))
    if not ok:
        problems = [Diagnostic(**d) for d in diags if d["severity"] == "error"] or \
                   [Diagnostic(**d) for d in diags]
        first = problems[0] if problems else None
        raise InputError(first.message if first else "cannot summarise",
                         pointer=first.pointer if first else "", diagnostics=problems, file=p)
    return json.loads(text)


def _refusal(path: str, diagnostics_json: str, stderr: str) -> InputError:
    """The CLI's refusal as an InputError: every diagnostic it wrote to
    --diagnostics-json (its first error's JSON pointer and message first);
    without that file (the child died before writing it), stderr's text."""
    diags = []
    try:
        with open(diagnostics_json, encoding="utf-8") as f:
            written = json.load(f).get("diagnostics", [])
    except (OSError, ValueError):
        written = []
    for d in written:
        diags.append(Diagnostic(code=d.get("code", ""), name=d.get("name", ""),
                                severity=d.get("severity", "error"), pointer=d.get("pointer", ""),
                                line=d.get("line"), column=d.get("column"),
                                message=d.get("message", ""), file=d.get("file", ""),
                                given=bool(d.get("given", False))))
    if not diags:
        text = stderr.strip()
        diags.append(Diagnostic(code="", name="", severity="error", pointer="", line=None,
                                column=None, message=text or "refused"))
    errors = [d for d in diags if d.severity == "error"] or diags
    first = errors[0]
    return InputError(first.message, pointer=first.pointer, diagnostics=diags,
                      file=first.file if first.given else path, given=first.given)


def _checked_int(v: Any, what: str, lo: int = 0) -> str:
    if isinstance(v, bool) or not isinstance(v, int) or v < lo:
        raise InputError(f"{what}: expected an integer >= {lo}, got {v!r}")
    return str(v)


def simulate(path: PathLike, hw: HwLike = "set-polar", set: Optional[Mapping[str, Any]] = None,
             model: Optional[PathLike] = None, functional: bool = False, seed: int = 1,
             dialect: Optional[str] = None, until_cycles: Optional[int] = None,
             expect_cycles: Optional[int] = None, expect_energy: Optional[float] = None,
             l2_allocation: Optional[str] = None, memory_limit: Optional[str] = None,
             timeout: Optional[float] = None, power: bool = False,
             power_window: Optional[float] = None) -> Report:
    """Simulates an IR file as `gemini sim PATH --report R --csv W` does, in
    a child process, and returns the report. `hw`: a dict, a name or a path
    (None: the built-in defaults); `set`: parameters by dotted path
    ({"noc.link_gbps": 12}; None removes one). A bad input or configuration
    raises InputError; a deadlock or a failed functional check still gives
    the report (report.deadlock, report.functional.passed). `power` (or a
    `power_window` in ns) bins the energy over time: report.power (peak and
    average per die and package) and report.power_windows (every window)."""
    p = _path(path, "path")
    text = _hw.resolve(hw, set)
    if functional and model is None:
        raise InputError("functional=True needs model= (the layer semantics)")
    with tempfile.TemporaryDirectory(prefix="gemini-py-") as tmp:
        diagnostics = os.path.join(tmp, "diagnostics.json")
        args = ["--diagnostics-json", diagnostics,
                "sim", p, "--report", os.path.join(tmp, "report.json"),
                "--csv", os.path.join(tmp, "workloads.csv"), "-q"]
        if text is not None:
            Path(tmp, "hw.json").write_text(text, encoding="utf-8")
            args += ["--hw", os.path.join(tmp, "hw.json")]
        if model is not None:
            args += ["--model", _path(model, "model"), "--seed", _checked_int(seed, "seed")]
        if functional:
            args.append("--functional")
        if dialect is not None:
            args += ["--dialect", _dialect(dialect)]
        if until_cycles is not None:
            args += ["--until-cycles", _checked_int(until_cycles, "until_cycles", 1)]
        if expect_cycles is not None:
            args += ["--expect-cycles", _checked_int(expect_cycles, "expect_cycles")]
        if expect_energy is not None:
            if not isinstance(expect_energy, (int, float)) or not expect_energy >= 0:
                raise InputError(f"expect_energy: expected a number >= 0, got {expect_energy!r}")
            args += ["--expect-energy", repr(float(expect_energy))]
        if l2_allocation is not None:
            args += ["--l2-allocation", str(l2_allocation)]
        if memory_limit is not None:
            args += ["--memory-limit", str(memory_limit)]
        if power_window is not None:
            if isinstance(power_window, bool) or not isinstance(power_window, (int, float)) \
                    or not power_window > 0:
                raise InputError(f"power_window: expected a number of ns > 0, got {power_window!r}")
            args += ["--power-window", repr(float(power_window))]
        if power or power_window is not None:
            args += ["--power-csv", os.path.join(tmp, "power.csv")]
        done = _run.run(args, timeout=timeout)
        report = os.path.join(tmp, "report.json")
        if os.path.exists(report):
            return Report.from_files(report, os.path.join(tmp, "workloads.csv"), done.stderr,
                                     os.path.join(tmp, "power.csv"))
        if done.returncode in (1, 2):  # invalid, unreadable (a usage error is 2 too)
            raise _refusal(p, diagnostics, done.stderr)
        raise SimulationError(f"{p}: gemini sim ended with status {done.returncode}: "
                              f"{done.stderr.strip()[-2000:]}", done.returncode, done.stderr)


def reference(model: PathLike, seed: int = 1, memory_limit: Optional[str] = None,
              threads: Optional[int] = None, timeout: Optional[float] = None) -> dict[str, Any]:
    """The CPU reference of a layer-semantics model (`gemini ref`): every
    op's output and every network input, by name, as int8 numpy arrays
    [N, C, H, W]. Computed in a child process; raises InputError for a bad
    model."""
    try:
        import numpy as np
    except ImportError as e:
        raise ImportError("gemini.reference() returns numpy arrays and needs numpy: install it "
                          "(Debian: apt install python3-numpy; pip: pip install numpy)") from e
    m = _path(model, "model")
    with tempfile.TemporaryDirectory(prefix="gemini-py-ref-") as tmp:
        diagnostics = os.path.join(tmp, "diagnostics.json")
        out = os.path.join(tmp, "out")
        args = ["--diagnostics-json", diagnostics, "ref", "--model", m,
                "--seed", _checked_int(seed, "seed"), "-o", out]
        if memory_limit is not None:
            args += ["--memory-limit", str(memory_limit)]
        if threads is not None:
            args += ["--threads", _checked_int(threads, "threads", 1)]
        done = _run.run(args, timeout=timeout)
        index = os.path.join(out, "index.json")
        if done.returncode != 0 or not os.path.exists(index):
            if done.returncode in (1, 2):
                raise _refusal(m, diagnostics, done.stderr)
            raise SimulationError(f"{m}: gemini ref ended with status {done.returncode}",
                                  done.returncode, done.stderr)
        with open(index, encoding="utf-8") as f:
            idx = json.load(f)
        arrays: dict[str, Any] = {}
        for t in idx["tensors"]:
            a = np.fromfile(os.path.join(out, t["file"]), dtype=np.int8)
            arrays[t["name"]] = a.reshape(t["shape"])
        return arrays


def sweep(spec: Union[PathLike, Mapping[str, Any]], out: PathLike, jobs: Optional[int] = None,
          force: bool = False, retry_failed: bool = False,
          timeout: Optional[float] = None) -> Sweep:
    """Runs a sweep as `gemini sweep run SPEC -o OUT` does (docs/sweeps.md)
    and returns its results: `spec` is a sweep file or the same as a dict
    (written to OUT/sweep.json; its relative paths are then relative to
    OUT). A study -- inputs with "hardware": "gemini" and their manifest --
    has its ranking in `Sweep.study`. Points already done are kept (as the
    CLI keeps them); a bad sweep file raises InputError; failed points are
    results (`Sweep.summary.failed`, their `message`)."""
    o = _path(out, "out")
    path = _hw_write_spec(spec, o) if isinstance(spec, Mapping) else _path(spec, "spec")
    with tempfile.TemporaryDirectory(prefix="gemini-py-sweep-") as tmp:
        diagnostics = os.path.join(tmp, "diagnostics.json")
        args = ["--diagnostics-json", diagnostics, "sweep", "run", path, "-o", o]
        if jobs is not None:
            args += ["--jobs", _checked_int(jobs, "jobs", 1)]
        if force:
            args.append("--force")
        if retry_failed:
            args.append("--retry-failed")
        done = _run.run(args, timeout=timeout)
        if done.returncode in (0, 1) and os.path.exists(os.path.join(o, "results.json")):
            return Sweep(o)
        if done.returncode == 2:
            raise _refusal(path, diagnostics, done.stderr)
    raise SimulationError(f"{path}: gemini sweep run ended with status {done.returncode}: "
                          f"{done.stderr.strip()[-2000:]}", done.returncode, done.stderr)


def sweep_results(directory: PathLike, collect: bool = True) -> Sweep:
    """The results of a sweep directory (a sweep run here or on a Slurm
    cluster); with `collect`, gathered first as `gemini sweep collect DIR`
    does (the points finished since, a study's ranking)."""
    d = _path(directory, "directory")
    if collect:
        done = _run.run(["sweep", "collect", d])
        if done.returncode not in (0, 1):
            raise InputError(done.stderr.strip().splitlines()[-1] if done.stderr.strip()
                             else f"{d}: not a sweep directory", file=d)
    if not os.path.exists(os.path.join(d, "results.json")):
        raise InputError(f"{d}: no results.json (not a sweep directory)", file=d)
    return Sweep(d)


def _hw_write_spec(spec: Mapping[str, Any], out: str) -> str:
    from ._sweep import write_spec
    return write_spec(spec, out)
