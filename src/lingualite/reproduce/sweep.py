"""The sweep runner: every cell of a table trained through the public API, evaluated, and cached.

Layout of a sweep's output folder (one table at one scale)::

    OUTPUT/
      sweep.json              which table and scale the folder holds (another table or scale is refused)
      cells/<cell>/           the cell's training run (lingualite.models.run_folder layout, ends as a model); only
                              result.json for a cell that evaluates an existing model (``model:``)
      cells/<cell>/result.json  the cell's metrics and its key (written atomically, last)
      cells/<cell>/timing.json  training seconds and steps, summed over the training calls that returned
      table.md, table.json, table.png   the rendered table (lingualite.reproduce.render)

A cell's key is the hash of its resolved config plus the evaluation settings. Each cell is in one state
(:data:`STATES`): a cell whose ``result.json`` has the same key is never run again; a cell whose run folder
holds checkpoints continues from them with ``resume``; a cell whose saved config differs from the table's is
refused unless ``force`` (which deletes that cell's folder and runs it again). The whole output folder is
locked while a sweep writes it (:func:`lingualite.models.run_folder.open_run`, kind ``reproduce``).

A new cell whose training config a finished cell of another sweep (``reuse``) trained already is copied
from it and only evaluated, unless the table has a training-time column (:mod:`lingualite.reproduce.cells`);
``result.json`` records where it came from.

Evaluation is passed in (``evaluate``, see :mod:`lingualite.reproduce.evaluation_inputs`);
``lingualite reproduce`` passes :func:`lingualite.reproduce.protocols.cell_evaluator`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.config import RecipeConfigType
from lingualite.config.parsing import DATA_DIR_PLACEHOLDER, default_data_dir
from lingualite.core.errors import ConfigError, LinguaLiteError
from lingualite.core.io_utils import write_json
from lingualite.core.ownership import TRAINING_KINDS, folder_kind
from lingualite.models.run_folder import RunFolder, changed_config_keys, open_run
from lingualite.reproduce.cells import (
    RESULT,
    SWEEP,
    TIMING,
    copy_donor,
    find_donors,
    read_result,
    sweep_folders,
)
from lingualite.reproduce.evaluation_inputs import (
    EvaluationInputs,
    Evaluator,
    evaluation_inputs,
    evaluation_settings,
)
from lingualite.reproduce.table import CellSpec, TableSpec, cell_config
from lingualite.training.run import for_device

__all__ = ["STATES", "CellPlan", "model_size", "plan_sweep", "read_result", "run_sweep"]

STATES = {
    "cached": "finished with this config and evaluation: not run again",
    "new": "not started",
    "restart": "started, but no checkpoint yet: starts again",
    "interrupted": "stopped with checkpoints: --resume continues it",
    "evaluate": "trained with this config, or an existing model: evaluated (again)",
    "changed": "ran with another config: --force deletes it and runs it again",
    "reuse": "trained with this config in another sweep: copied from there, then evaluated",
}
Progress = Callable[[str], None]


@dataclass
class CellPlan:
    """A cell of a sweep and what running it would do (``model``: the existing model a cell evaluates, with
    no ``config``)."""

    cell: CellSpec
    folder: Path
    config: RecipeConfigType | None
    keys: dict[str, str]
    evaluation: dict[str, Any]
    state: str
    changed: list[str] = field(default_factory=list)
    model: str | None = None
    donor: Path | None = None


def _digest(obj: Any) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _state(folder: Path, config: dict[str, Any], key: str) -> tuple[str, list[str]]:
    result = read_result(folder)
    if result is not None and result.get("key") == key:
        return "cached", []
    run = RunFolder(folder)
    saved = run.read_config(config.get("mode")) if folder.is_dir() else None
    if saved is None:
        return ("restart" if folder.exists() else "new"), []
    changed = changed_config_keys(saved, config)
    if changed:
        return "changed", changed
    if (folder / "modules.json").is_file() and run.read_summary() is not None:
        return "evaluate", []
    return ("interrupted" if run.has_checkpoints() else "restart"), []


def _cell_model(cell: CellSpec, data_dir: str | Path | None) -> str:
    """The model a cell names: a baseline, or a model folder that must exist (checked before any run)."""
    from lingualite.encoders.baselines import BASELINES
    from lingualite.encoders.spec import split_runtime

    root = str(Path(data_dir) if data_dir is not None else default_data_dir())
    model = cell.model.replace(DATA_DIR_PLACEHOLDER, root)
    if model not in BASELINES and not Path(split_runtime(model)[1]).exists():
        raise LinguaLiteError(
            f"cell {cell.name}: model {model!r} is neither a baseline ({', '.join(BASELINES)}) nor an "
            "existing model folder"
        )
    return model


def plan_sweep(
    table: TableSpec,
    scale: str,
    output: str | Path,
    data_dir: str | Path | None = None,
    cells: list[str] | None = None,
    reuse: Sequence[str | Path] | None = None,
    device: str = "auto",
) -> list[CellPlan]:
    """The state of each cell (all, or those named in ``cells``) of ``table`` at ``scale`` in ``output``.
    ``device``: where cells train (a config's ``optim.bf16: null`` is resolved for it, so a cell's key says
    what it ran).

    A cell that names a ``model`` trains nothing: it is cached while its result has the same key (its model
    and evaluation), else evaluated. A new trained cell whose config a finished cell of a sweep in ``reuse``
    trained already is copied from there (state ``reuse``), unless the table reports training time."""
    chosen = [table.cell(name) for name in cells] if cells else table.cells
    # a table that reports training time measures every cell itself: a donor's time was taken under other
    # conditions (another load on the machine), so a copy would put two runs' timings in one column
    reuse = [] if table.reports_training_time else (reuse or [])
    donors = find_donors(sweep_folders(reuse, Path(output)))
    plans = []
    for cell in chosen:
        evaluation = evaluation_settings(table, scale, data_dir, cell)
        model = _cell_model(cell, data_dir) if cell.model else None
        config = None if model else for_device(cell_config(table, cell, scale, data_dir), device)
        resolved = {"model": model} if config is None else config.to_dict()
        keys = {"config": _digest(resolved), "evaluation": _digest(evaluation)}
        keys["key"] = _digest(keys)
        folder = Path(output) / "cells" / cell.name
        if model:
            result = read_result(folder)
            state, changed = ("cached" if result and result.get("key") == keys["key"] else "evaluate"), []
        else:
            state, changed = _state(folder, resolved, keys["key"])
        donor = donors.get(keys["config"]) if state == "new" and config is not None else None
        plans.append(
            CellPlan(
                cell, folder, config, keys, evaluation, "reuse" if donor else state, changed, model, donor
            )
        )
    return plans


def _check_plans(plans: list[CellPlan], resume: bool, force: bool) -> None:
    changed = [p for p in plans if p.state == "changed" and not force]
    if changed:
        shown = "; ".join(f"{p.cell.name} ({', '.join(p.changed[:5])})" for p in changed)
        raise ConfigError(
            f"{changed[0].folder.parent}: cell(s) ran with another config: {shown}; pass --force to delete "
            "and rerun them, or choose a new --output"
        )
    interrupted = [p.cell.name for p in plans if p.state == "interrupted" and not resume]
    if interrupted:
        raise LinguaLiteError(
            f"{plans[0].folder.parent}: cell(s) {', '.join(interrupted)} stopped with checkpoints; pass "
            "--resume to continue them"
        )


def claim_sweep(output: Path, name: str, table_file: Path, scale: str) -> None:
    """``sweep.json``: one table (or study) at one scale per output folder."""
    path = output / SWEEP
    record = {"table": name, "scale": scale, "table_file": str(table_file)}
    if path.is_file():
        try:
            saved = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as exc:
            raise LinguaLiteError(f"{path}: not a sweep record ({exc})") from exc
        if not isinstance(saved, dict):
            raise LinguaLiteError(f"{path}: not a sweep record (expected a JSON object)")
        if (saved.get("table"), saved.get("scale")) != (name, scale):
            raise LinguaLiteError(
                f"{output}: holds table {saved.get('table')} at scale {saved.get('scale')}; "
                f"choose another --output for {name} at scale {scale}"
            )
        return
    write_json(path, record)


def remove_run_folder(folder: Path) -> None:
    """Delete a cell's run folder for --force; only a folder a lingualite run created (its marker)."""
    if folder.exists():
        if folder_kind(folder) not in (*TRAINING_KINDS, "run"):
            raise LinguaLiteError(f"{folder}: was not created by a lingualite run; not deleting it")
        shutil.rmtree(folder)


def model_size(folder: Path) -> tuple[int, float] | None:
    """Parameters and megabytes of the exported model's weights (the safetensors files of the modules in
    ``modules.json``; checkpoints are not counted); None when the folder holds no exported model."""
    from safetensors import safe_open

    try:
        modules = json.loads((folder / "modules.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    count, size = 0, 0
    for module in modules:
        for path in sorted((folder / module.get("path", "")).glob("*.safetensors")):
            size += path.stat().st_size
            with safe_open(str(path), framework="numpy") as fh:
                for name in fh.keys():  # noqa: SIM118 - safe_open has no __iter__
                    shape = fh.get_slice(name).get_shape()
                    count += int(np.prod(shape, dtype=np.int64))
    return count, size / 1e6


def _train(plan: CellPlan, threads: int | None, device: str = "auto") -> None:
    """Train the cell through :func:`lingualite.train` (resuming where it has checkpoints) and add this
    call's seconds and steps to ``timing.json``."""
    import torch

    from lingualite.core.device import resolve_device
    from lingualite.recipes import train

    run = RunFolder(plan.folder)
    done = run.checkpoints()
    start = int(done[-1].name.split("-")[1]) if done else 0
    cuda = resolve_device(device).type == "cuda"
    cpu_threads = threads if threads is not None else torch.get_num_threads()
    if cuda:
        torch.cuda.reset_peak_memory_stats()
    result = train(
        plan.config, plan.folder, resume=plan.state != "new", progress=False, threads=threads, device=device
    )
    timing: dict[str, Any] = {"seconds": 0.0, "steps": 0, "calls": 0, "peak_gpu_memory_mb": None}
    if plan.state != "new" and (plan.folder / TIMING).is_file():
        timing.update(json.loads((plan.folder / TIMING).read_text(encoding="utf-8")))
    timing["seconds"] = round(timing["seconds"] + result.seconds, 3)
    timing["steps"] += max(result.steps - start, 0)
    timing["calls"] += 1
    if cuda:
        peak = torch.cuda.max_memory_reserved() / 2**20
        timing["peak_gpu_memory_mb"] = round(max(peak, timing["peak_gpu_memory_mb"] or 0.0), 1)
        timing["device"] = torch.cuda.get_device_name(resolve_device(device))
    else:
        timing["device"] = f"cpu ({cpu_threads} threads)"
    write_json(plan.folder / TIMING, timing)


def _metrics(plan: CellPlan, evaluated: dict[str, Any]) -> dict[str, Any]:
    """One flat mapping of what a table's columns may name: the evaluator's (``xsr/p_at_1``,
    ``xsr/<test>/<metric>``, ...), ``train/...``, ``model/parameters``, ``model/vocabulary``, ``run/<final
    validation metric>``."""
    metrics: dict[str, Any] = dict(evaluated)
    timing = json.loads((plan.folder / TIMING).read_text()) if (plan.folder / TIMING).is_file() else {}
    if timing.get("steps"):
        metrics["train/seconds"] = timing["seconds"]
        metrics["train/steps_timed"] = timing["steps"]
        metrics["train/minutes_per_10k_steps"] = timing["seconds"] / timing["steps"] * 10_000 / 60
    if timing.get("peak_gpu_memory_mb") is not None:
        metrics["train/peak_gpu_memory_mb"] = timing["peak_gpu_memory_mb"]
    size = model_size(Path(plan.model) if plan.model else plan.folder)
    if size is not None:
        metrics["model/parameters"], metrics["model/megabytes"] = size
    summary = RunFolder(plan.folder).read_summary() or {}
    vocabulary = (summary.get("vocabulary") or {}).get("size")
    if isinstance(vocabulary, int):  # trained, or the teacher's own (paper 002, Table 1)
        metrics["model/vocabulary"] = vocabulary
    for key, value in (summary.get("final_metrics") or {}).items():
        if isinstance(value, int | float):
            metrics[f"run/{key}"] = value
    return metrics


def _run_cell(
    plan: CellPlan,
    table: TableSpec,
    scale: str,
    evaluate: Evaluator,
    inputs: EvaluationInputs,
    threads: int | None,
    device: str = "auto",
) -> dict:
    t0 = time.perf_counter()
    if plan.state == "changed":
        remove_run_folder(plan.folder)
        plan.state = "new"
    if plan.state == "reuse":
        assert plan.donor is not None
        copy_donor(plan.donor, plan.folder)
    elif plan.state in ("new", "restart", "interrupted") and plan.model is None:
        _train(plan, threads, device)
    t1 = time.perf_counter()
    evaluated = evaluate(plan.model or plan.folder, inputs)
    result = {
        "table": table.name,
        "scale": scale,
        "cell": plan.cell.name,
        "label": plan.cell.label,
        "key": plan.keys["key"],
        "keys": plan.keys,
        "metrics": _metrics(plan, evaluated),
        "evaluation": {**plan.evaluation, "test_files": [str(f) for f in inputs.xsr_files]},
        "seconds": {"this_call": round(t1 - t0, 1), "evaluate": round(time.perf_counter() - t1, 1)},
        "finished_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "config": plan.config.to_dict() if plan.config is not None else {"model": plan.model},
        **({"reused_from": str(plan.donor)} if plan.donor is not None else {}),
    }
    write_json(plan.folder / RESULT, result)
    return result


def run_sweep(
    table: TableSpec,
    scale: str,
    output: str | Path,
    evaluate: Evaluator,
    *,
    data_dir: str | Path | None = None,
    cells: list[str] | None = None,
    resume: bool = False,
    force: bool = False,
    reuse: Sequence[str | Path] | None = None,
    threads: int | None = None,
    progress: Progress = print,
    on_done: Callable[[], object] | None = None,
    device: str = "auto",
) -> list[CellPlan]:
    """Run the cells of ``table`` at ``scale`` into ``output`` (all, or those named in ``cells``).

    Finished cells with the same key are skipped; interrupted ones need ``resume``; changed ones
    ``force`` (both are checked for every cell before anything runs); new cells trained already in a sweep
    of ``reuse`` are copied from there. ``on_done`` is called at the end, also after a failed cell (the CLI
    renders the table from the finished cells there). Returns the plans, with the state each cell was in
    before this call.
    """
    output = Path(output)
    with open_run(output, "reproduce"):
        claim_sweep(output, table.name, table.path, scale)
        plans = plan_sweep(table, scale, output, data_dir, cells, reuse, device)
        _check_plans(plans, resume, force)
        inputs: dict[str, EvaluationInputs] = {}  # by evaluation key; every file checked before any cell runs
        for plan in plans:
            if plan.state != "cached" and plan.keys["evaluation"] not in inputs:
                inputs[plan.keys["evaluation"]] = evaluation_inputs(plan.evaluation)
        try:
            for i, plan in enumerate(plans, 1):
                tag = f"[{i}/{len(plans)}] {plan.cell.name}"
                if plan.state == "cached":
                    progress(f"{tag}: cached (key {plan.keys['key']})")
                    continue
                donor = f" {plan.donor}" if plan.donor is not None else ""
                progress(f"{tag}: running ({plan.state}: {STATES[plan.state]}{donor})")
                t0 = time.perf_counter()
                state = plan.state
                cell_inputs = inputs[plan.keys["evaluation"]]
                result = _run_cell(plan, table, scale, evaluate, cell_inputs, threads, device)
                plan.state = state
                p1 = result["metrics"].get("xsr/p_at_1")
                shown = f", XSR P@1 {p1:.3f}" if isinstance(p1, float) else ""
                skipped = result["metrics"].get("evaluation/skipped")  # under --skip-bad: never silent
                shown += f", {skipped:,} bad test line(s) skipped" if skipped else ""
                progress(f"{tag}: done in {time.perf_counter() - t0:.0f} s{shown}")
        except BaseException:
            if on_done is not None:  # the finished cells still render; the cell's own error is what shows
                with contextlib.suppress(Exception):
                    on_done()
            raise
        if on_done is not None:
            on_done()
    return plans
