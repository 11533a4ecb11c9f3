"""Run a study (:mod:`lingualite.reproduce.study_spec`) into an output folder and render it as
``table.md``, ``table.json`` and ``table.png``, the files every reproduced table has.

Layout: ``OUTPUT/seed-S`` (``monolingual-seeds``), or ``OUTPUT/base`` plus ``OUTPUT/m-M``
(``monolingual-sample-size``); each is a monolingual run folder. As in a sweep: the output folder is
locked while the study writes it and holds one study at one scale; a finished run is never trained again
(its saved config must equal the study's: else ``force`` deletes and reruns it); a run that stopped with
checkpoints needs ``resume``; ``rows`` runs only some of the seeds or points, the table renders every
finished one.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lingualite.config import MonolingualConfig
from lingualite.core.errors import LinguaLiteError
from lingualite.core.io_utils import write_json, write_text
from lingualite.models.run_folder import RunFolder, open_run
from lingualite.recipes.monolingual.paper_measures import SetEvaluator
from lingualite.recipes.monolingual.sample_size import (
    point_config,
    precisions_at_mining,
    sample_size_markdown,
    sample_size_plot,
    stage_1_rows,
    start_point,
)
from lingualite.recipes.monolingual.seeds import aggregate_stages, seeds_markdown, seeds_plot
from lingualite.reproduce.study_spec import StudySpec, study_config
from lingualite.reproduce.sweep import claim_sweep, remove_run_folder
from lingualite.training.run import for_device

__all__ = ["plan_study", "run_study", "study_markdown"]

Progress = Callable[[str], object]


def _state(folder: Path, cfg: MonolingualConfig) -> tuple[str, list[str]]:
    """``done``, ``changed`` (finished with another config: the keys), ``partial`` (checkpoints) or ``new``."""
    run = RunFolder(folder)
    if (folder / "modules.json").exists():
        changed = run.check_resume(cfg.to_dict(), allow_change=True, fixed_sections=())
        return ("changed", changed) if changed else ("done", [])
    return ("partial", []) if folder.exists() and run.has_checkpoints() else ("new", [])


def _configs(
    spec: StudySpec, scale: str, data_dir: str | Path | None, device: str = "auto"
) -> dict[str, MonolingualConfig]:
    """Every run of the study at ``scale`` by folder name, the sample-size study's ``base`` first (with
    ``optim.bf16: null`` resolved for ``device``, as the saved configs have it)."""
    cfg, chosen = for_device(study_config(spec, scale, data_dir), device), spec.scale(scale)
    if spec.kind == "monolingual-seeds":
        return {f"seed-{s}": dataclasses.replace(cfg, seed=s) for s in chosen.seeds}
    points = {f"m-{m}": point_config(cfg, m, chosen.target_pairs, chosen.steps) for m in chosen.sizes}
    return {"base": cfg, **points}


def plan_study(
    spec: StudySpec,
    scale: str,
    output: str | Path,
    data_dir: str | Path | None = None,
    device: str = "auto",
) -> dict[str, dict[str, Any]]:
    """Each run's state (see :func:`_state`) and the config keys a ``changed`` one differs in; runs nothing."""
    plans = {}
    for name, cfg in _configs(spec, scale, data_dir, device).items():
        state, changed = _state(Path(output) / name, cfg)
        plans[name] = {"state": state, **({"changed": changed} if changed else {})}
    return plans


def _train(
    folder: Path,
    cfg: MonolingualConfig,
    state: str,
    opts: dict[str, Any],
    progress: Progress,
) -> None:
    from lingualite.recipes.monolingual.train_monolingual import train_monolingual

    if state == "done":
        progress(f"{folder.name}: finished, not run again")
        return
    progress(f"{folder.name}: {'resuming' if state == 'partial' else 'training'} in {folder}")
    train_monolingual(cfg, folder, resume=state == "partial", **opts)


def _check(plans: dict[str, dict[str, Any]], output: Path, resume: bool, force: bool) -> None:
    for name, plan in plans.items():
        if plan["state"] == "changed" and not force:
            keys = ", ".join(plan["changed"][:6])
            raise LinguaLiteError(
                f"{output / name}: finished with another config ({keys}); pass --force to delete and rerun "
                "it, or choose another --output"
            )
        if plan["state"] == "partial" and not resume:
            raise LinguaLiteError(f"{output / name}: stopped with checkpoints; pass --resume to continue it")


def run_study(
    spec: StudySpec,
    scale: str,
    output: str | Path,
    *,
    data_dir: str | Path | None = None,
    rows: list[str] | None = None,
    resume: bool = False,
    force: bool = False,
    stage_tasks: SetEvaluator | None = None,
    threads: int | None = None,
    progress: Progress = print,
    bars: bool = False,
    device: str = "auto",
) -> dict[str, Any]:
    """Train the study's runs at ``scale`` (all, or those named in ``rows``) into ``output``, then write
    ``table.{md,json,png}`` from every finished run. ``stage_tasks``: the paper's measures after each stage
    (the CLI passes ``lingualite eval``'s); ``progress``: one line per run; ``bars``: the trainings' progress
    bars. Returns the table's JSON."""
    output = Path(output)
    configs = _configs(spec, scale, data_dir, device)
    unknown = sorted(set(rows or []) - set(configs))
    if unknown:
        raise LinguaLiteError(
            f"{spec.path}: no run(s) {unknown} at scale {scale} (runs: {', '.join(configs)})"
        )
    with open_run(output, "reproduce"):
        claim_sweep(output, spec.name, spec.path, scale)
        plans = plan_study(spec, scale, output, data_dir, device)
        chosen = [n for n in configs if rows is None or n in rows or n == "base"]
        _check({n: plans[n] for n in chosen}, output, resume, force)
        opts = {"stage_tasks": stage_tasks, "threads": threads, "progress": bars, "device": device}
        try:
            for name in chosen:
                folder, state = output / name, plans[name]["state"]
                if state == "changed":
                    remove_run_folder(folder)
                    state = "new"
                if name.startswith("m-") and state == "new":  # base's stage 1, resumed into one iteration
                    start_point(output / "base", folder)
                    state = "partial"
                _train(folder, configs[name], state, opts, progress)
        except BaseException:  # the finished runs still render; the run's own error is what shows
            with contextlib.suppress(Exception):
                _render(spec, scale, output, configs)
            raise
        return _render(spec, scale, output, configs)


def _render(
    spec: StudySpec, scale: str, output: Path, configs: dict[str, MonolingualConfig]
) -> dict[str, Any]:
    chosen = spec.scale(scale)
    title = f"{spec.title} ({scale} scale)"
    finished = {
        n: RunFolder(output / n).read_stages() for n in configs if (output / n / "modules.json").exists()
    }
    if spec.kind == "monolingual-seeds":
        runs = {int(n.split("-")[1]): rows for n, rows in finished.items() if rows}
        result: dict[str, Any] = aggregate_stages(runs) if runs else {"seeds": [], "stages": {}}
        if runs:
            seeds_plot(result, title, output / "table.png")
    else:
        result = _sample_size(output, configs, finished, chosen.sizes)
        if result["points"]:
            sample_size_plot(result, title, output / "table.png")
    result = {"table": spec.name, "scale": scale, "source": spec.source, **result}
    write_json(output / "table.json", result)
    write_text(output / "table.md", study_markdown(spec, result))
    return result


def _study_page(spec: StudySpec, scale: str, body: str) -> str:
    head = [f"# {spec.title} ({scale} scale)", "", f"Source: {spec.source}.", ""]
    head += [f"Scale {scale}: {spec.scale(scale).note.strip()}", ""]
    notes = ["", spec.notes.strip(), ""] if spec.notes else []
    return "\n".join(head) + "\n" + body + "\n".join(notes)


def study_markdown(spec: StudySpec, result: dict[str, Any]) -> str:
    """``table.md`` from a study's ``table.json`` payload (what :func:`run_study` writes)."""
    if spec.kind == "monolingual-seeds":
        body = seeds_markdown(result) if result.get("seeds") else "No seed has finished yet.\n"
    else:
        points = result.get("points")
        body = sample_size_markdown(result, spec.paper) if points else "No point has finished yet.\n"
    return _study_page(spec, result["scale"], body)


def _sample_size(
    output: Path, configs: dict[str, MonolingualConfig], finished: dict[str, list], sizes: list[int]
) -> dict[str, Any]:
    base = output / "base"
    try:
        start_rows = stage_1_rows(base)
    except LinguaLiteError:
        return {"start": {}, "points": [], "pairs_per_round": configs["base"].mining.pairs_per_round}
    done = [m for m in sizes if finished.get(f"m-{m}")]
    at_mining = precisions_at_mining(base, configs["base"], {m: output / f"m-{m}" for m in done})
    points = []
    for m in done:
        last = finished[f"m-{m}"][-1]
        row = {k: v for k, v in last.items() if k != "stage" and not isinstance(v, dict)}
        points.append({"m": m, "precision_at_mining": at_mining[m], **row})
    start = {k: v for k, v in start_rows[-1].items() if not isinstance(v, dict)}
    return {"start": start, "points": points, "pairs_per_round": configs["base"].mining.pairs_per_round}
