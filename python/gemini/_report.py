"""A simulation's report as Python objects, made from the files the CLI
writes (`gemini sim --report R --csv W`): every key of the report JSON is
there as it is (Report.data), so a statistic or section the simulator
gains appears here without a change; the tables are made from its lists,
pandas DataFrames when pandas can be imported, else lists of dicts."""

from __future__ import annotations

import csv
import json
import os
from typing import Any, Iterable, Iterator, Mapping

try:  # optional
    import pandas as _pandas
except ImportError:  # pragma: no cover - depends on the machine
    _pandas = None


class Record(Mapping[str, Any]):
    """A JSON object read-only, by key or by attribute (report.functional
    .layers[0].provenance.verdict); nested objects are Records too."""

    __slots__ = ("_data",)

    def __init__(self, data: Mapping[str, Any]):
        self._data = data

    def __getitem__(self, key: str) -> Any:
        return _wrap(self._data[key])

    def __getattr__(self, key: str) -> Any:
        if key.startswith("_"):
            raise AttributeError(key)
        try:
            return _wrap(self._data[key])
        except KeyError:
            raise AttributeError(key) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __dir__(self) -> Iterable[str]:
        return list(self._data)

    def __repr__(self) -> str:
        return f"Record({self._data!r})"

    def to_dict(self) -> dict[str, Any]:
        return json.loads(json.dumps(self._data))


def _wrap(v: Any) -> Any:
    if isinstance(v, Mapping):
        return Record(v)
    if isinstance(v, list):
        return [_wrap(x) for x in v]
    return v


def flatten(row: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    """{"energy_pj": {"total": 1}} -> {"energy_pj.total": 1} (lists stay)."""
    out: dict[str, Any] = {}
    for k, v in row.items():
        if isinstance(v, Mapping):
            out.update(flatten(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def table(rows: Iterable[Mapping[str, Any]]) -> Any:
    """A DataFrame where pandas is installed, else a list of dicts."""
    flat = [flatten(r) for r in rows]
    return _pandas.DataFrame(flat) if _pandas is not None else flat


def _number(s: str) -> Any:
    for kind in (int, float):
        try:
            return kind(s)
        except ValueError:
            pass
    return s


def read_csv(path: str) -> list[dict[str, Any]]:
    with open(path, newline="", encoding="utf-8") as f:
        return [{k: _number(v) for k, v in row.items()} for row in csv.DictReader(f)]


class Report:
    """One simulation: `data` is the --report JSON as dicts and lists,
    `workload_rows` the --csv lines. Tables: `cores`, `layers`, `workloads`
    and `path_segments`; `critical_path`, `energy`, `functional` (the
    functional verdict, with each wrong layer's provenance) as Records."""

    def __init__(self, data: dict[str, Any], workload_rows: list[dict[str, Any]] | None = None,
                 stderr: str = "", power_rows: list[dict[str, Any]] | None = None):
        self.data = data
        self.workload_rows = workload_rows or []
        self.power_rows = power_rows or []
        self.stderr = stderr

    @classmethod
    def from_files(cls, report_json: str, workload_csv: str | None = None,
                   stderr: str = "", power_csv: str | None = None) -> "Report":
        with open(report_json, encoding="utf-8") as f:
            data = json.load(f)
        rows = read_csv(workload_csv) if workload_csv else []
        power = read_csv(power_csv) if power_csv and os.path.exists(power_csv) else []
        return cls(data, rows, stderr=stderr, power_rows=power)

    # The JSON, by key.
    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def __contains__(self, key: str) -> bool:
        return key in self.data

    def keys(self):
        return self.data.keys()

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    @property
    def total_cycles(self) -> int:
        return self.data["total_cycles"]

    @property
    def time_us(self) -> float:
        return self.data["time_us"]

    @property
    def deadlock(self) -> bool:
        return bool(self.data.get("deadlock"))

    @property
    def energy(self) -> Record | None:
        e = self.data.get("energy_pj")
        return Record(e) if isinstance(e, Mapping) else None

    @property
    def critical_path(self) -> Record | None:
        p = self.data.get("critical_path")
        return Record(p) if p is not None else None

    @property
    def functional(self) -> Record | None:
        f = self.data.get("functional")
        return Record(f) if f is not None else None

    @property
    def power(self) -> Record | None:
        """Power over time (simulate(power=True) or power_window=NS): the
        windows' length, the package's, DRAM's and each die's peak and
        average power (W), the peak's window and the series."""
        p = self.data.get("power")
        return Record(p) if isinstance(p, Mapping) else None

    @property
    def power_windows(self) -> Any:
        """The --power-csv lines: one per window and scope (package, dram,
        io_die, die, core), W whole and by component; empty without power."""
        return table(self.power_rows)

    @property
    def stats(self) -> Record | None:
        s = self.data.get("stats")
        return Record(s) if isinstance(s, Mapping) else None

    @property
    def stat_sums(self) -> Any:
        """Every statistic summed over the units of its kind (the report's
        stats.by_kind, the sums the text report prints and the sweep's
        stats.<kind>.<stat> columns hold): one row per kind and statistic,
        with kind, groups (units of the kind), stat, value, unit and
        description."""
        rows = []
        by_kind = (self.data.get("stats") or {}).get("by_kind") or {}
        for kind, k in by_kind.items():
            for stat, v in (k.get("stats") or {}).items():
                rows.append({"kind": kind, "groups": k.get("groups"), "stat": stat,
                             "value": v.get("value"), "unit": v.get("unit"),
                             "description": v.get("description")})
        return table(rows)

    @property
    def cores(self) -> Any:
        return table(self.data.get("cores", []))

    @property
    def layers(self) -> Any:
        return table(self.data.get("layers", []))

    @property
    def workloads(self) -> Any:
        return table(self.workload_rows)

    @property
    def path_segments(self) -> Any:
        p = self.data.get("critical_path") or {}
        return table(p.get("segments", []))

    def to_json(self) -> str:
        return json.dumps(self.data)

    def __repr__(self) -> str:
        return (f"Report({self.data.get('input')!r} on {self.data.get('hw')!r}: "
                f"{self.data.get('total_cycles')} cycles)")
