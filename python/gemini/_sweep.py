"""Sweeps and studies from Python (docs/python.md, "Sweeps and studies"):
`gemini sweep run` in a child process, its sweep directory read back --
results.json's rows as a table, and for a study (inputs whose manifest
gives each schedule's hardware and the scheduler's figures) study.json's
ranking. Everything is computed by the gemini executable (the grid, the
points, the conversion of the scheduler's units, the ranks); this module
only starts it and reads what it wrote."""

from __future__ import annotations

import json
import os
from typing import Any, Mapping, Optional

from ._report import Record, table


class Sweep:
    """A sweep directory's results: `points` (one row per point: id, label,
    status, each axis and hardware parameter, every metric by its column
    name), `columns` (each metric's unit and meaning), `summary` (points,
    ok, failed, missing) and, for a study, `study` (study.json: its groups'
    points with ours and the scheduler's figures, ranks and rank
    correlations) and `study_points` (those points as a table)."""

    def __init__(self, directory: str):
        self.dir = os.fspath(directory)
        with open(os.path.join(self.dir, "results.json"), encoding="utf-8") as f:
            self.data: dict[str, Any] = json.load(f)
        study = os.path.join(self.dir, "study.json")
        self.study_data: Optional[dict[str, Any]] = None
        if os.path.exists(study):
            with open(study, encoding="utf-8") as f:
                self.study_data = json.load(f)

    @property
    def name(self) -> str:
        return self.data["sweep"]

    @property
    def axes(self) -> list[str]:
        return list(self.data["axes"])

    @property
    def summary(self) -> Record:
        return Record(self.data["summary"])

    @property
    def columns(self) -> Any:
        return table(self.data["columns"])

    @property
    def points(self) -> Any:
        rows = []
        for p in self.data["points"]:
            row: dict[str, Any] = {"id": p["id"], "label": p["label"], "status": p["status"]}
            row.update(p.get("params", {}))
            for k, v in p.get("hardware", {}).items():
                row.setdefault(k, v)
            row.update(p.get("metrics", {}))
            row["message"] = p.get("message", "")
            rows.append(row)
        return table(rows)

    @property
    def study(self) -> Optional[Record]:
        return Record(self.study_data) if self.study_data is not None else None

    @property
    def study_points(self) -> Any:
        """A study's design points, one row each: group (its other axes),
        label, design, ours.<metric>, scheduler.<metric>, rank_ours.<metric>,
        rank_scheduler.<metric>, the critical path's and the energy's shares."""
        if self.study_data is None:
            return table([])
        rows = []
        for g in self.study_data["groups"]:
            for p in g["points"]:
                rows.append({"group": g["axes"], **p})
        return table(rows)

    def __repr__(self) -> str:
        s = self.data["summary"]
        return (f"Sweep({self.name!r}: {s['points']} points, {s['ok']} ok, {s['failed']} failed, "
                f"{s['missing']} missing{', a study' if self.study_data else ''})")


def write_spec(spec: Mapping[str, Any], out: str) -> str:
    """A sweep given as a dict, written as OUT/sweep.json (relative paths in
    it are then relative to OUT)."""
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, "sweep.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(spec, f, indent=2)
    return path
