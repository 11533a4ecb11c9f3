"""A reproduction table: one YAML file that names a paper's table, the grid of cells that regenerates it,
the scales it runs at, the columns to collect and the paper's published numbers.

The grid is data, not code: a cell is a set of dotted-key overrides (``objective.generative: xtr``) of a
scale's base config (a shipped config such as ``quickstart`` or ``paper``, or a YAML file beside the
table), validated by the recipe's own config loader (:func:`lingualite.config.config_from_dict`). Shipped
tables live in ``lingualite/configs/reproduce/``; ``lingualite reproduce --list`` shows them.

File layout (every key is checked at load time, errors name the file and the key)::

    title: "Table 6: effectiveness of the generative tasks"
    source: "Mao et al., ACL 2021 (paper 000)"
    scales:
      cpu: {base: quickstart, note: "...", overrides: {optim.max_steps: 1500}, max_test_pairs: 2000}
      paper: {base: paper, note: "..."}
    evaluation:                    # XSR on pair files; classification and STS on eval sets (optional)
      test_files: ["{data_dir}/prepared/*/test.tsv"]
      classify: ["{data_dir}/eval/classify/libreoffice-modules"]
      sts: ["{data_dir}/eval/sts/lee/en.tsv"]
    columns:                       # in the paper's order; metric: a key of a cell's metrics, a list, or null
      - {key: xsr_en_fr, label: "XSR en→fr", metric: xsr/en-fr/src2tgt_p_at_1, percent: true}
    cells:
      - {name: xtr, label: XTR, overrides: {objective.generative: xtr}, paper: {xsr_en_fr: 89.5}}
      - {name: use-m, label: "USE-m", model: use-m}     # an existing model: evaluated, not trained

The evaluation section (pooled XSR, both classification directions, efficiency) and its per-scale and
per-cell changes: :mod:`lingualite.reproduce.evaluation_spec`.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from lingualite.config import RecipeConfigType, config_from_dict
from lingualite.config.parsing import from_dict, load_yaml, resolve_config_path
from lingualite.core.errors import ConfigError
from lingualite.reproduce.evaluation_spec import EvaluationSpec, merged_evaluation, set_dotted

__all__ = [
    "TABLES_DIR",
    "CellSpec",
    "ColumnSpec",
    "ScaleSpec",
    "TableSpec",
    "cell_config",
    "cell_evaluation",
    "list_tables",
    "load_table",
    "set_dotted",
]

TABLES_DIR = Path(__file__).resolve().parent.parent / "configs" / "reproduce"
T = TypeVar("T")
_NAME = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")


def require_keys(obj: Any, *names: str) -> None:
    missing = [name for name in names if not getattr(obj, name)]
    if missing:
        raise ConfigError(f"missing key(s) {missing}")


def check_overrides(overrides: Any, where: str) -> None:
    if not isinstance(overrides, dict) or not all(isinstance(k, str) and k for k in overrides):
        raise ConfigError(f"{where}: must be a mapping of dotted config keys to values")


@dataclass
class ScaleSpec:
    """One scale of a table: the base config, overrides for every cell, and the evaluation's pair cap.

    :param base: a shipped config name (``quickstart``, ``paper``, ``distill``, ...) or a YAML file (a
        relative path is read from the table's folder).
    :param note: what this scale is, in one sentence: printed in the rendered table's header.
    :param max_test_pairs: seeded subsample of each test file (null: all pairs).
    :param evaluation: dotted keys of the table's ``evaluation`` changed at this scale
        (``pooled.pool: 20000``).
    """

    base: str = ""
    note: str = ""
    overrides: dict[str, Any] = field(default_factory=dict)
    max_test_pairs: int | None = None
    evaluation: dict[str, Any] = field(default_factory=dict)

    def validate(self) -> None:
        require_keys(self, "base", "note")
        check_overrides(self.overrides, "overrides")
        check_overrides(self.evaluation, "evaluation")
        if self.max_test_pairs is not None and self.max_test_pairs < 2:
            raise ConfigError("max_test_pairs must be >= 2 (retrieval needs two candidates)")


@dataclass
class ColumnSpec:
    """A column of the paper's table.

    :param key: the column's id (the key of the cells' ``paper`` numbers).
    :param metric: the key of a cell's metrics shown as ours (see :mod:`lingualite.reproduce.sweep`), or a
        list of keys: their mean (shown only when the cell has all of them, e.g. the paper's "Avg." over
        directions); null: a column we do not measure (only the paper's number is shown).
    :param percent: ours times 100 (the paper reports percentages, we store fractions).
    """

    key: str = ""
    label: str = ""
    metric: str | list[str] | None = None
    percent: bool = False
    digits: int = 1

    @property
    def metrics(self) -> list[str]:
        """The metric keys the column reads (none for a paper-only column)."""
        if self.metric is None:
            return []
        return self.metric if isinstance(self.metric, list) else [self.metric]

    def validate(self) -> None:
        require_keys(self, "key", "label")
        if isinstance(self.metric, list) and not (self.metric and all(self.metric)):
            raise ConfigError("metric: a list must name at least one metric, none empty")


@dataclass
class CellSpec:
    """One row of the table: a config and the paper's numbers for it.

    :param overrides: dotted keys applied after the scale's overrides.
    :param scales: extra overrides for one scale only (``{cpu: {data.max_train_pairs: 25000}}``).
    :param paper: the paper's number per column key (null: not published, or unreadable in the source).
    :param model: evaluate this existing model instead of training one: a baseline name (``minilm``,
        ``use-m``, ``e5-small``, ``tfidf``) or a model folder (``{data_dir}`` allowed), at every scale; a
        teacher or reference row such as the paper's.
    :param evaluation: dotted keys of the table's ``evaluation`` changed for this cell (after the scale's),
        e.g. a bilingual model scored on its own pair only.
    """

    name: str = ""
    label: str = ""
    overrides: dict[str, Any] = field(default_factory=dict)
    scales: dict[str, Any] = field(default_factory=dict)
    paper: dict[str, Any] = field(default_factory=dict)
    model: str = ""
    evaluation: dict[str, Any] = field(default_factory=dict)

    def validate(self) -> None:
        require_keys(self, "name", "label")
        if not _NAME.match(self.name):
            raise ConfigError(f"name: {self.name!r} must be lowercase letters, digits, '_', '-', '.'")
        if self.model and (self.overrides or self.scales):
            raise ConfigError(
                f"model: a cell that evaluates {self.model!r} trains nothing: no overrides/scales"
            )
        check_overrides(self.overrides, "overrides")
        check_overrides(self.evaluation, "evaluation")
        if not isinstance(self.scales, dict):
            raise ConfigError("scales: must map a scale name to overrides")
        for scale, overrides in self.scales.items():
            check_overrides(overrides, f"scales.{scale}")
        if not isinstance(self.paper, dict) or any(
            v is not None and (isinstance(v, bool) or not isinstance(v, int | float))
            for v in self.paper.values()
        ):
            raise ConfigError("paper: must map column keys to numbers or null")


@dataclass
class TableSpec:
    """A whole table file (see the module docstring); ``name`` is the file's stem."""

    name: str
    path: Path
    title: str
    source: str
    scales: dict[str, ScaleSpec]
    evaluation: EvaluationSpec
    columns: list[ColumnSpec]
    cells: list[CellSpec]
    notes: str = ""
    evaluation_data: dict[str, Any] = field(default_factory=dict)

    @property
    def reports_training_time(self) -> bool:
        """Whether a column reads a training measure (``train/...``, e.g. minutes per 10k steps)."""
        return any(m.startswith("train/") for c in self.columns for m in c.metrics)

    def cell(self, name: str) -> CellSpec:
        for cell in self.cells:
            if cell.name == name:
                return cell
        raise ConfigError(f"{self.path}: no cell {name!r} (cells: {', '.join(c.name for c in self.cells)})")

    def scale(self, name: str) -> ScaleSpec:
        if name not in self.scales:
            raise ConfigError(f"{self.path}: no scale {name!r} (scales: {', '.join(self.scales)})")
        return self.scales[name]


def _items(data: dict[str, Any], key: str, kind: type, where: str) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or not value:
        raise ConfigError(f"{where}: {key} must be a non-empty {kind.__name__}")
    return value


def _build(cls: type[T], data: Any, where: str) -> T:
    with named_errors(where):
        return from_dict(cls, data, where)


def _parse(data: dict[str, Any], path: Path) -> TableSpec:
    where = str(path)
    known = {"title", "source", "scales", "evaluation", "columns", "cells", "notes"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {unknown}; allowed: {sorted(known)}")
    for key in ("title", "source"):
        if not isinstance(data.get(key), str):
            raise ConfigError(f"{where}: {key} must be a string")
    scales = {
        str(name): _build(ScaleSpec, spec, f"{where}: scales.{name}")
        for name, spec in _items(data, "scales", dict, where).items()
    }
    columns = [
        _build(ColumnSpec, c, f"{where}: columns[{i}]")
        for i, c in enumerate(_items(data, "columns", list, where))
    ]
    cells = [
        _build(CellSpec, c, f"{where}: cells[{i}]") for i, c in enumerate(_items(data, "cells", list, where))
    ]
    table = TableSpec(
        name=path.stem,
        path=path,
        title=data["title"],
        source=data["source"],
        scales=scales,
        evaluation=_build(EvaluationSpec, data.get("evaluation"), f"{where}: evaluation"),
        columns=columns,
        cells=cells,
        notes=str(data.get("notes") or ""),
        evaluation_data=data.get("evaluation") or {},
    )
    _check_references(table)
    return table


def _check_references(table: TableSpec) -> None:
    where = str(table.path)
    for kind, names in (("cell", [c.name for c in table.cells]), ("column", [c.key for c in table.columns])):
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ConfigError(f"{where}: duplicate {kind} name(s) {duplicates}")
    keys = {c.key for c in table.columns}
    for cell in table.cells:
        unknown = sorted(set(cell.paper) - keys)
        if unknown:
            raise ConfigError(f"{where}: cells.{cell.name}.paper names unknown column(s) {unknown}")
        scales = sorted(set(cell.scales) - set(table.scales))
        if scales:
            raise ConfigError(f"{where}: cells.{cell.name}.scales names unknown scale(s) {scales}")
        for scale in table.scales:
            cell_evaluation(table, cell, scale)


def load_table(name_or_path: str | Path) -> TableSpec:
    """A table from a YAML file, or a shipped table by name (``000-table6``; see :func:`list_tables`)."""
    path = Path(name_or_path)
    if not path.is_file():
        shipped = TABLES_DIR / f"{name_or_path}.yaml"
        if not shipped.is_file():
            names = ", ".join(list_tables())
            raise ConfigError(f"{name_or_path}: no such table file, and not a shipped table ({names})")
        path = shipped
    with named_errors(str(path)):
        data = load_yaml(path)
        if isinstance(data, dict) and "study" in data:
            raise ConfigError(f"{path}: is a study, not a sweep table (lingualite.reproduce.study_spec)")
        return _parse(data, path)


def is_study_file(path: Path) -> bool:
    """Whether a table file is a study (:mod:`lingualite.reproduce.study_spec`): it has a ``study`` key."""
    try:
        data = load_yaml(path)
    except ConfigError:
        return False
    return isinstance(data, dict) and "study" in data


def list_tables() -> list[str]:
    """The names of the shipped sweep tables (studies: :func:`lingualite.reproduce.study_spec.list_studies`)."""

    def natural(name: str) -> list[Any]:  # 000-table5 before 000-table10
        return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name)]

    tables = (p.stem for p in TABLES_DIR.glob("*.yaml") if not is_study_file(p))
    return sorted(tables, key=natural)


def base_config_path(table_file: Path, base: str) -> Path:
    """A scale's ``base``: a YAML file beside the table file, else a shipped config name."""
    beside = table_file.parent / base
    return beside if beside.is_file() else resolve_config_path(base)


def cell_evaluation(table: TableSpec, cell: CellSpec, scale: str) -> EvaluationSpec:
    """What ``cell`` is evaluated on at ``scale``: the table's ``evaluation``, then the scale's and the cell's
    changes to it."""
    layers = [table.scale(scale).evaluation, cell.evaluation]
    if not any(layers):
        return table.evaluation
    return merged_evaluation(
        table.evaluation_data, layers, f"{table.path}: cell {cell.name} ({scale}) evaluation"
    )


def cell_config(
    table: TableSpec, cell: CellSpec, scale: str, data_dir: str | Path | None = None
) -> RecipeConfigType:
    """The validated config of ``cell`` at ``scale``: the scale's base config, then the scale's overrides,
    the cell's, and the cell's for this scale; ``{data_dir}`` resolved like ``lingualite train`` does."""
    if cell.model:
        raise ConfigError(
            f"{table.path}: cell {cell.name} evaluates the model {cell.model!r}; it trains nothing"
        )
    spec = table.scale(scale)
    data = load_yaml(base_config_path(table.path, spec.base))
    where = f"{table.path}: cell {cell.name} ({scale})"
    for dotted, value in {**spec.overrides, **cell.overrides, **cell.scales.get(scale, {})}.items():
        set_dotted(data, dotted, value, where)
    with named_errors(where):
        return config_from_dict(data, where, data_dir=data_dir)


@contextlib.contextmanager
def named_errors(where: str) -> Iterator[None]:
    """Errors raised by a ``validate()`` (which does not know the file) get ``where`` in front."""
    try:
        yield
    except ConfigError as exc:
        if str(exc).startswith(where):
            raise
        raise ConfigError(f"{where}: {exc}") from exc
