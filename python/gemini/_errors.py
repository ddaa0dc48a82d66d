"""The exception and the diagnostic every function of the package reports
bad input with."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Diagnostic:
    """One problem found: its code (docs/validation.md; "H001" for a hardware
    configuration's, "IO" for a model file that cannot be read, "" for a
    refusal in words), the check's name, severity ("error" or "warning"),
    where (a JSON pointer, or line and column for a syntax error) and what.
    `file` names the file it is in where that is not the input itself (a
    hardware configuration's); with `given`, how its value was given
    instead (`set["noc.num_vcs"]` for simulate's set=), the pointer being
    its place in the configuration built."""
    code: str
    name: str
    severity: str
    pointer: str
    line: Optional[int]
    column: Optional[int]
    message: str
    file: str = ""
    given: bool = False

    def __str__(self) -> str:
        where = f"{self.line}:{self.column}" if self.line is not None else self.pointer
        if self.given:
            where = self.file
        return f"{where}: {self.code}: {self.severity}: {self.message}"


class InputError(ValueError):
    """Bad input: a file, a model, a configuration or a value that gemini
    refuses. `pointer` (a JSON pointer, possibly "") and `message` are the
    first problem's; `diagnostics` lists them all; `file` names the input,
    or with `given` how the value refused was given (`set["noc.num_vcs"]`),
    which alone then locates it in the text."""

    def __init__(self, message: str, pointer: str = "", diagnostics=None, file: str = "",
                 given: bool = False):
        self.message = message
        self.pointer = pointer
        self.file = file
        self.given = given
        self.diagnostics = list(diagnostics or [])
        where = file if given else ":".join(x for x in (file, pointer) if x)
        super().__init__(f"{where}: {message}" if where else message)
