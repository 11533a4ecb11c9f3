"""What every recipe does around its stages: the call's options applied to the config, the run folder claimed
and checked for a resume, the thread count, and one result type.

A recipe's ``train_*`` function is::

    cfg, caps = apply_call_options(cfg, RunOptions(...))
    with open_recipe_run(cfg, output, "distill", options, fixed=("student", "vocabulary", "pca")) as started:
        ... stages through lingualite.training.loop.run_stage ...
"""

from __future__ import annotations

import contextlib
import dataclasses
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import torch

from lingualite.config.sections import OptimConfig
from lingualite.core.errors import LinguaLiteError
from lingualite.models.run_folder import RunFolder, open_run
from lingualite.training.smoke import smoke_config

C = TypeVar("C")


@dataclass
class RunOptions:
    """How to run a recipe, the same for every recipe (the CLI's options).

    :param resume: continue from the newest complete checkpoint (same weights, optimiser, schedule, batch
        order and RNG as an uninterrupted run); the saved config must agree unless ``allow_config_change``.
    :param max_steps: override the steps of the run (of every stage, for recipes with stages); saved with
        the config, so a resume must agree with it.
    :param step_scale: multiply the steps (of every stage) by this (e.g. 0.1 for a quick look).
    :param stop_after: leave after this many steps of THIS call, with a checkpoint and no export (for
        time-boxed jobs); ``resume`` continues.
    :param progress: a progress bar (else log lines).
    :param validate: run the recipe's validation.
    :param threads: PyTorch CPU threads for this call (None: PyTorch's default, one per core). A property of
        the machine, not of the experiment, hence not in the config. On cores shared with other jobs use 1.
    :param allow_config_change: with ``resume``, continue with a changed config (the new values, e.g.
        ``optim.lr``, take effect); the model's shape and vocabulary can never change.
    :param smoke: cap data, vocabulary, steps and validation (:mod:`lingualite.training.smoke`) for a run of minutes;
        ``max_steps``, when given, still wins.
    :param overwrite: start over in a run folder of the same recipe that holds an earlier run (it is emptied
        first); never with ``resume``.
    :param device: ``auto``, ``cpu``, ``cuda`` or ``cuda:N`` (:mod:`lingualite.core.device`); like ``threads`` a
        property of the machine, not in the config.
    :param compile: run the model through ``torch.compile`` (slow to start; can pay off on a GPU for long
        runs). Checkpoints and the exported model are the same either way.
    :param teacher_workers: distillation with a CPU-only teacher (``use-m``): processes that build its
        vector cache (None: one per core; see :mod:`lingualite.recipes.distill.teacher`).
    """

    resume: bool = False
    max_steps: int | None = None
    step_scale: float = 1.0
    stop_after: int | None = None
    progress: bool = True
    validate: bool = True
    threads: int | None = None
    allow_config_change: bool = False
    smoke: bool = False
    overwrite: bool = False
    device: str = "auto"
    compile: bool = False
    teacher_workers: int | None = None

    def check(self) -> None:
        if self.resume and self.overwrite:
            raise LinguaLiteError("--resume continues a run and --overwrite starts it over: choose one")
        for name in ("max_steps", "stop_after", "threads", "teacher_workers"):
            value = getattr(self, name)
            if value is not None and value < 1:
                raise LinguaLiteError(f"{name} must be >= 1, got {value}")
        if not (self.step_scale > 0 and math.isfinite(self.step_scale)):
            raise LinguaLiteError(f"step_scale must be > 0, got {self.step_scale}")


@dataclass
class RunResult:
    """What a recipe's run produced (every recipe returns this).

    :param steps: the last step reached (of the last stage, for recipes with stages).
    :param final_metrics: the last logged and validation values.
    :param initial_metrics: validation before training (recipes that do it; not on resume).
    :param stages: one row per finished stage (recipes with stages), as in ``stages.jsonl``.
    :param summary: what the run did (also in ``summary.json``).
    """

    output_dir: Path
    steps: int
    seconds: float
    pairs_per_second: float
    final_metrics: dict[str, float] = field(default_factory=dict)
    initial_metrics: dict[str, float] = field(default_factory=dict)
    stages: list[dict[str, Any]] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)

    @property
    def iterations(self) -> list[dict[str, Any]]:
        """The old name of :attr:`stages` (monolingual runs)."""
        return self.stages


def _scaled(optim: Any, options: RunOptions) -> Any:
    steps = options.max_steps if options.max_steps is not None else optim.max_steps
    if steps is not None and options.step_scale != 1.0:
        steps = max(1, round(steps * options.step_scale))
    if steps == optim.max_steps:
        return optim
    return dataclasses.replace(optim, max_steps=steps, epochs=None)


def apply_call_options(cfg: C, options: RunOptions) -> tuple[C, list[str] | None]:
    """``cfg`` with the call's smoke caps, ``max_steps`` and ``step_scale`` applied (part of the run's config:
    saved with it, and a resume must agree), and the smoke caps that changed it (None: not a smoke run)."""
    options.check()
    caps = None
    if options.smoke:
        cfg, caps = smoke_config(cfg)
    sections = [f.name for f in dataclasses.fields(cfg) if hasattr(getattr(cfg, f.name), "max_steps")]  # type: ignore[arg-type]
    changes = {name: _scaled(getattr(cfg, name), options) for name in sections}
    return for_device(dataclasses.replace(cfg, **changes), options.device), caps  # type: ignore[type-var]


def for_device(cfg: C, device: str) -> C:
    """``cfg`` with every ``optim.bf16: null`` made the device's choice (on for CUDA, off on a CPU:
    :func:`lingualite.core.device.bf16_default`), so the saved config says what the run did."""
    from lingualite.core.device import bf16_default, resolve_device

    sections = [
        f.name
        for f in dataclasses.fields(cfg)  # type: ignore[arg-type]
        if getattr(getattr(cfg, f.name), "bf16", False) is None
    ]
    if not sections:
        return cfg
    where = resolve_device(device)
    changes = {
        name: dataclasses.replace(getattr(cfg, name), bf16=bf16_default(where, None)) for name in sections
    }
    return dataclasses.replace(cfg, **changes)  # type: ignore[type-var]


def planned_steps(optim: OptimConfig, examples: int, world_size: int = 1) -> int:
    """The run's steps: ``optim.epochs`` passes over ``examples`` when set, else ``optim.max_steps``."""
    if optim.epochs is not None:
        return max(1, math.ceil(optim.epochs * examples / (optim.batch_size * world_size)))
    assert optim.max_steps is not None  # OptimConfig.validate: one of them is set
    return optim.max_steps


@contextlib.contextmanager
def torch_threads(threads: int | None) -> Iterator[None]:
    """PyTorch's intra-op thread count for the block (None: unchanged), restored afterwards."""
    previous = torch.get_num_threads()
    if threads is not None:
        torch.set_num_threads(threads)
    try:
        yield
    finally:
        torch.set_num_threads(previous)


@contextlib.contextmanager
def open_recipe_run(
    cfg: Any,
    output: str | Path,
    kind: str,
    options: RunOptions,
    fixed: tuple[str, ...],
    lock: bool = True,
) -> Iterator[tuple[RunFolder, list[str]]]:
    """Claim and lock the run folder (:func:`lingualite.models.run_folder.open_run`), set the thread count, and
    apply the resume rules: checkpoints of an earlier run need ``resume``; a resume with a changed config is
    refused unless allowed, and never for the sections in ``fixed``. Yields the folder and the changed keys.
    """
    inputs = config_inputs(cfg)
    with torch_threads(options.threads), open_run(output, kind, lock, options.overwrite, inputs) as run:
        started = run.has_checkpoints()
        if started and not options.resume:
            raise LinguaLiteError(
                f"{run.path}: holds checkpoints of an earlier run; pass --resume to continue it, --overwrite "
                "to start it over, or choose a new --output"
            )
        changed: list[str] = []
        if options.resume and started:
            changed = run.check_resume(cfg.to_dict(), options.allow_config_change, fixed)
        yield run, changed


def config_inputs(cfg: Any) -> list[Path]:
    """The files and folders a recipe's config reads (data files and globs, a given vocabulary, a teacher
    folder), which its run folder may neither be, contain nor lie inside."""
    from lingualite.config.parsing import DATA_DIR_PLACEHOLDER, default_data_dir
    from lingualite.data.pairs import existing_files

    found: list[Path] = []
    data_dir = str(default_data_dir())

    def visit(section: Any) -> None:
        for f in dataclasses.fields(section):
            value = getattr(section, f.name)
            if dataclasses.is_dataclass(value) and not isinstance(value, type):
                visit(value)
            elif f.name.endswith("_files") and isinstance(value, list):
                patterns = [p.replace(DATA_DIR_PLACEHOLDER, data_dir) for p in value if isinstance(p, str)]
                found.extend(path for pattern in patterns for path in existing_files(pattern))
            elif isinstance(value, str) and value and _names_an_input(f.name, Path(value)):
                found.append(Path(value))

    if dataclasses.is_dataclass(cfg):
        visit(cfg)
    return found


def _names_an_input(key: str, path: Path) -> bool:
    """``path`` (vocabulary.path) or a teacher's ``name`` that is a model folder."""
    return (key == "path" and path.exists()) or (key == "name" and (path / "modules.json").is_file())
