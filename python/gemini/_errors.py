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
    where (a JSON pointer, or line and column for a syntax error) and what."""
    code: str
    name: str
    severity: str
    pointer: str
    line: Optional[int]
    column: Optional[int]
    message: str

    def __str__(self) -> str:
        where = f"{self.line}:{self.column}" if self.line is not None else self.pointer
        return f"{where}: {self.code}: {self.severity}: {self.message}"


class InputError(ValueError):
    """Bad input: a file, a model, a configuration or a value that gemini
    refuses. `pointer` (a JSON pointer, possibly "") and `message` are the
    first problem's; `diagnostics` lists them all; `file` names the input."""

    def __init__(self, message: str, pointer: str = "", diagnostics=None, file: str = ""):
        self.message = message
        self.pointer = pointer
        self.file = file
        self.diagnostics = list(diagnostics or [])
        where = ":".join(x for x in (file, pointer) if x)
        super().__init__(f"{where}: {message}" if where else message)
