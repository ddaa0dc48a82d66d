"""Hardware configurations as dicts: found by name or path as `--hw` finds
them, modified by dotted parameter paths as a sweep's axes are, and checked
in process by the simulator's own reading (gemini._gemini.check_hw) before
anything runs; a problem with a value set by path is named by it
(`set["noc.num_vcs"]: ...`)."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any, Mapping

from . import _run
from ._errors import Diagnostic, InputError


def config_dirs() -> list[Path]:
    return [_run.data_dir() / "configs"]


def names() -> list[str]:
    """The configurations that ship with gemini, by name."""
    out: set[str] = set()
    for d in config_dirs():
        if d.is_dir():
            out.update(p.stem for p in d.glob("*.json"))
    return sorted(out)


def find(name_or_path: str | os.PathLike) -> Path:
    """An existing file, else NAME or NAME.json in the installed configs/."""
    p = Path(name_or_path)
    if p.is_file():
        return p
    for d in config_dirs():
        for candidate in (d / str(name_or_path), d / f"{name_or_path}.json"):
            if candidate.is_file():
                return candidate
    raise InputError(f"no hardware configuration {str(name_or_path)!r} (a file, or one of: "
                     f"{', '.join(names()) or 'none installed'})", file=str(name_or_path))


def load(name_or_path: str | os.PathLike) -> dict[str, Any]:
    path = find(name_or_path)
    try:
        with open(path, encoding="utf-8") as f:
            value = json.load(f)
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read the configuration: {e}", file=str(path)) from None
    except json.JSONDecodeError as e:
        raise InputError(f"line {e.lineno} column {e.colno}: {e.msg}", file=str(path)) from None
    if not isinstance(value, dict):
        raise InputError("a hardware configuration is a JSON object", file=str(path))
    return value


def set_param(config: dict[str, Any], path: str, value: Any) -> None:
    """Sets "dram.timing.cl" in `config`, creating the component objects on
    the way; None removes it (its default applies)."""
    parts = path.split(".") if isinstance(path, str) else []
    if not parts or any(not p for p in parts):
        raise InputError(f"{path!r} is not a parameter path (component.parameter, e.g. "
                         "dram.multicast)", pointer="/" + str(path).replace(".", "/"))
    node = config
    for i, part in enumerate(parts[:-1]):
        nxt = node.get(part)
        if nxt is None:
            nxt = node[part] = {}
        if not isinstance(nxt, dict):
            raise InputError(f"{'.'.join(parts[:i + 1])!r} is {json.dumps(nxt)} in the "
                             "configuration, not a component with parameters",
                             pointer="/" + "/".join(parts[:i + 1]))
        node = nxt
    if value is None:
        node.pop(parts[-1], None)
    else:
        node[parts[-1]] = value


def _plain(value: Any) -> Any:
    """numpy's scalars (np.linspace's values, say) as Python's."""
    item = getattr(value, "item", None)
    if callable(item):
        return item()
    raise TypeError(f"{type(value).__name__} is not a JSON value")


def resolve(hw: str | os.PathLike | Mapping[str, Any] | None,
            settings: Mapping[str, Any] | None = None) -> str | None:
    """The configuration's JSON text, checked as --hw checks a file; None
    for the built-in defaults (no hw, no settings). Raises InputError with
    the first problem's pointer and message, and all of them."""
    if hw is None and not settings:
        return None
    if hw is None:
        config: dict[str, Any] = {}
    elif isinstance(hw, Mapping):
        config = copy.deepcopy(dict(hw))
    elif isinstance(hw, (str, os.PathLike)):
        config = load(hw)
    else:
        raise InputError(f"hw: expected a dict, a name or a path, got {type(hw).__name__}")
    for path, value in (settings or {}).items():
        set_param(config, path, value)
    try:
        text = json.dumps(config, allow_nan=False, default=_plain)
    except (TypeError, ValueError) as e:
        raise InputError(f"the configuration is not JSON: {e}") from None
    from . import _gemini
    # A refused value of `settings` is named by it: set["noc.num_vcs"].
    problems = [Diagnostic(**d) for d in _gemini.check_hw(text, list(settings or {}))]
    if problems:
        first = problems[0]
        raise InputError(first.message, pointer=first.pointer, diagnostics=problems,
                         file=first.file or "<hw>", given=first.given)
    return text
