"""A reproduction *study*: a table of paper 001 whose rows are not independent trainings, so it does not fit
the sweep's grid of cells (:mod:`lingualite.reproduce.table`). Two kinds, each a YAML file beside the tables:

- ``monolingual-seeds`` (paper 001's Fig. 3): one monolingual training per seed; its rows are the stages
  (stage 1, then every iteration), each measure averaged over the seeds;
- ``monolingual-sample-size`` (paper 001's Table 3): one base run, then for every m one mining + regression
  iteration started from the SAME classification-stage weights, with ``mining.sample_size = m``.

File layout (every key checked at load time; errors name the file and the key)::

    title: "Table 3: the size of samples m"
    source: "Wang et al. (paper 001), Table 3"
    study: monolingual-sample-size
    scales:
      cpu: {base: monolingual-paper, note: "...", overrides: {...}, sizes: [1, 10, 100], steps: 200}
      paper: {base: monolingual-paper, note: "...", sizes: [1, 100, 1000, 10000, 20000]}
    paper:                      # the paper's numbers: a row label -> {m or stage: value}
      "en→zh (RCV2)": {1: 50.3, 100: 51.7}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lingualite.config import MonolingualConfig, config_from_dict
from lingualite.config.parsing import from_dict, load_yaml
from lingualite.core.errors import ConfigError
from lingualite.reproduce.evaluation_spec import set_dotted
from lingualite.reproduce.table import (
    TABLES_DIR,
    base_config_path,
    check_overrides,
    is_study_file,
    named_errors,
    require_keys,
)

__all__ = ["KINDS", "StudyScale", "StudySpec", "is_study", "list_studies", "load_study", "study_config"]

KINDS = ("monolingual-seeds", "monolingual-sample-size")


@dataclass
class StudyScale:
    """One scale of a study: the base config (a shipped name or a YAML file beside the study), overrides, and
    the study's own settings.

    :param seeds: ``monolingual-seeds``: one training per seed (``seed`` of the config replaced).
    :param sizes: ``monolingual-sample-size``: the values of m, one point each.
    :param target_pairs: ``monolingual-sample-size``: pairs mined for each point's one iteration.
    :param steps: ``monolingual-sample-size``: regression steps of each point's one iteration.
    """

    base: str = ""
    note: str = ""
    overrides: dict[str, Any] = field(default_factory=dict)
    seeds: list[int] = field(default_factory=lambda: [0, 1, 2])
    sizes: list[int] = field(default_factory=list)
    target_pairs: int = 10_000
    steps: int = 200

    def validate(self) -> None:
        require_keys(self, "base", "note")
        check_overrides(self.overrides, "overrides")
        for key in ("seeds", "sizes"):
            values = getattr(self, key)
            if not isinstance(values, list) or len(set(values)) != len(values):
                raise ConfigError(f"{key}: must be a list without repeats")
            if any(isinstance(v, bool) or not isinstance(v, int) for v in values):
                raise ConfigError(f"{key}: must be whole numbers")
        if any(m < 1 for m in self.sizes):
            raise ConfigError("sizes: every m must be >= 1")
        if self.target_pairs < 1 or self.steps < 1:
            raise ConfigError("target_pairs and steps must be >= 1")


@dataclass
class StudySpec:
    """A whole study file; ``name`` is the file's stem."""

    name: str
    path: Path
    title: str
    source: str
    kind: str
    scales: dict[str, StudyScale]
    notes: str = ""
    paper: dict[str, dict[str, float]] = field(default_factory=dict)

    def scale(self, name: str) -> StudyScale:
        if name not in self.scales:
            raise ConfigError(f"{self.path}: no scale {name!r} (scales: {', '.join(self.scales)})")
        return self.scales[name]

    def rows(self, scale: str) -> list[str]:
        """The runs of the study at ``scale``: ``seed-S`` or ``m-M`` folders."""
        spec = self.scale(scale)
        if self.kind == "monolingual-seeds":
            return [f"seed-{s}" for s in spec.seeds]
        return [f"m-{m}" for m in spec.sizes]


def _study_path(name_or_path: str | Path) -> Path | None:
    path = Path(name_or_path)
    if path.is_file():
        return path
    shipped = TABLES_DIR / f"{name_or_path}.yaml"
    return shipped if shipped.is_file() else None


def is_study(name_or_path: str | Path) -> bool:
    """Whether ``name_or_path`` (a shipped name or a YAML file) is a study rather than a sweep table."""
    path = _study_path(name_or_path)
    return path is not None and is_study_file(path)


def list_studies() -> list[str]:
    """The names of the shipped studies."""
    return sorted(p.stem for p in TABLES_DIR.glob("*.yaml") if is_study_file(p))


def _paper(data: Any, where: str) -> dict[str, dict[str, float]]:
    if data is None:
        return {}
    ok = isinstance(data, dict) and all(
        isinstance(row, dict)
        and all(isinstance(v, int | float) and not isinstance(v, bool) for v in row.values())
        for row in data.values()
    )
    if not ok:
        raise ConfigError(f"{where}: paper must map a row label to {{m or stage: number}}")
    return {str(label): {str(k): float(v) for k, v in row.items()} for label, row in data.items()}


def load_study(name_or_path: str | Path) -> StudySpec:
    """A study from a YAML file, or a shipped study by name (``001-table3``)."""
    path = _study_path(name_or_path)
    if path is None:
        raise ConfigError(f"{name_or_path}: no such study file, and not a shipped study")
    where = str(path)
    data = load_yaml(path)
    known = {"title", "source", "study", "scales", "notes", "paper"}
    if not isinstance(data, dict) or sorted(set(data) - known):
        extra = sorted(set(data) - known) if isinstance(data, dict) else "not a mapping"
        raise ConfigError(f"{where}: unknown key(s) {extra}; allowed: {sorted(known)}")
    for key in ("title", "source"):
        if not isinstance(data.get(key), str):
            raise ConfigError(f"{where}: {key} must be a string")
    if data.get("study") not in KINDS:
        raise ConfigError(f"{where}: study must be one of {list(KINDS)}, not {data.get('study')!r}")
    if not isinstance(data.get("scales"), dict) or not data["scales"]:
        raise ConfigError(f"{where}: scales must be a non-empty mapping")
    scales = {}
    for name, scale in data["scales"].items():
        with named_errors(f"{where}: scales.{name}"):
            scales[str(name)] = from_dict(StudyScale, scale, f"{where}: scales.{name}")
        if data["study"] == "monolingual-sample-size" and not scales[str(name)].sizes:
            raise ConfigError(f"{where}: scales.{name}.sizes: a sample-size study needs at least one m")
        if data["study"] == "monolingual-seeds" and not scales[str(name)].seeds:
            raise ConfigError(f"{where}: scales.{name}.seeds: a seeds study needs at least one seed")
    return StudySpec(
        name=path.stem,
        path=path,
        title=data["title"],
        source=data["source"],
        kind=data["study"],
        scales=scales,
        notes=str(data.get("notes") or ""),
        paper=_paper(data.get("paper"), where),
    )


def study_config(spec: StudySpec, scale: str, data_dir: str | Path | None = None) -> MonolingualConfig:
    """The validated monolingual config of ``spec`` at ``scale``: the base config, then the scale's
    overrides; ``{data_dir}`` resolved like ``lingualite train`` does."""
    chosen = spec.scale(scale)
    data = load_yaml(base_config_path(spec.path, chosen.base))
    where = f"{spec.path}: scale {scale}"
    for dotted, value in chosen.overrides.items():
        set_dotted(data, dotted, value, where)
    with named_errors(where):
        cfg = config_from_dict(data, where, data_dir=data_dir)
    if not isinstance(cfg, MonolingualConfig):
        raise ConfigError(f"{where}: base {chosen.base!r} is not a monolingual config (mode: monolingual)")
    return cfg
