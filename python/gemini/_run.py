"""The child processes: every simulation and reference runs in its own
`gemini` process (SystemC elaborates one design per process, so a process
per run is what makes repeated and concurrent runs independent; its memory
goes back to the system when it exits). Waiting for a child releases the
GIL; an exception while waiting (KeyboardInterrupt) kills the child before
it propagates."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import NamedTuple, Sequence


class Finished(NamedTuple):
    returncode: int
    stdout: str
    stderr: str


def executable() -> str:
    """The gemini executable the package runs: $GEMINI_EXE, else the build
    tree's (a package in build/python), else the one installed beside the
    package (<prefix>/bin/gemini for <prefix>/lib/python3/dist-packages/gemini),
    else gemini on PATH."""
    env = os.environ.get("GEMINI_EXE")
    if env:
        return env
    try:
        from . import _build_tree  # only in the build tree
        if Path(_build_tree.GEMINI_EXE).is_file():
            return _build_tree.GEMINI_EXE
    except ImportError:
        pass
    here = Path(__file__).resolve().parent
    if len(here.parents) > 3:
        installed = here.parents[3] / "bin" / "gemini"
        if installed.is_file():
            return str(installed)
    found = shutil.which("gemini")
    if found:
        return found
    raise FileNotFoundError("the gemini executable was not found (set GEMINI_EXE)")


def data_dir() -> Path:
    """<folder of the executable>/../share/gemini, as gemini finds its own."""
    return Path(executable()).resolve().parent.parent / "share" / "gemini"


def run(args: Sequence[str], timeout: float | None = None) -> Finished:
    """Runs `gemini ARGS`; the child is killed (and reaped) if the wait is
    interrupted, by KeyboardInterrupt or anything else."""
    proc = subprocess.Popen([executable(), *args], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except BaseException:
        proc.kill()
        proc.wait()
        raise
    return Finished(proc.returncode, out, err)
