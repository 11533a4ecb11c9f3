"""The run folder a command writes (training, distillation, monolingual training, ``eval all``): claimed,
locked, and tidied before the run touches it.

:func:`open_run` is what every writer of a run folder goes through:

1. **Ownership** — the folder is created by the run, or was created by an earlier lingualite run of the same
   kind (marker ``.lingualite-run``; folders written before the marker existed are recognised by their
   files). A non-empty folder of anything else is refused: a command never takes over a folder it did not
   create.
2. **Lock** — an exclusive ``flock`` for the whole run (:func:`lingualite.io_utils.run_lock`); a second run
   into the same folder fails at once naming the first one's pid.
3. **Recovery** — an export that a crash interrupted after its files were complete is finished
   (:func:`lingualite.models.export.recover_export`), then staging leftovers of dead writers are removed.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from lingualite.errors import LinguaLiteError
from lingualite.io_utils import LOCK_NAME, clean_leftovers, run_lock, write_json

if TYPE_CHECKING:
    import torch

__all__ = ["MARKER", "changed_config_keys", "check_resume_config", "open_run", "set_learning_rate"]

MARKER = ".lingualite-run"
# Files by which folders written before the marker existed are recognised, per kind of run.
_LEGACY_FILES = {
    "train": ("training_config.yaml", "checkpoints", "metrics.jsonl"),
    "distill": ("distill_config.yaml", "distill_summary.json", "checkpoints", "teacher-cache"),
    "monolingual": ("training_config.yaml", "stages.jsonl", "checkpoints"),
    "report": ("results.json", "parts", "embeddings"),
}
# What any run leaves that is not a claim on the folder (a lock file or marker from an earlier attempt).
_NEUTRAL = {LOCK_NAME, MARKER, ".export.lock"}


def _check_owned(folder: Path, kind: str) -> None:
    if not folder.exists():
        return
    if not folder.is_dir():
        raise LinguaLiteError(f"{folder}: is a file; a {kind} run writes a folder here")
    marker = folder / MARKER
    if marker.is_file():
        try:
            owner = json.loads(marker.read_text(encoding="utf-8")).get("kind")
        except (OSError, ValueError, AttributeError):
            owner = None
        if owner not in (kind, None):
            raise LinguaLiteError(
                f"{folder}: holds a lingualite {owner} run; a {kind} run needs its own folder"
            )
        return
    names = {p.name for p in folder.iterdir()} - _NEUTRAL
    if not names:
        return
    if any(name in names for name in _LEGACY_FILES.get(kind, ())):
        return  # written by an earlier lingualite version
    shown = ", ".join(sorted(names)[:3]) + (", ..." if len(names) > 3 else "")
    raise LinguaLiteError(
        f"{folder}: exists and was not created by a lingualite {kind} run (it holds {shown}); "
        "lingualite never takes over a folder it did not create: choose a new or empty output folder"
    )


@contextlib.contextmanager
def open_run(folder: str | Path, kind: str, lock: bool = True) -> Iterator[Path]:
    """Claim, lock and tidy run folder ``folder`` for a run of ``kind`` (``train``, ``distill``,
    ``monolingual``, ``report``); see the module docstring. ``lock=False`` is for the non-main ranks of a
    distributed run, whose main rank holds the lock."""
    from lingualite.models.export import recover_export

    folder = Path(folder)
    if not lock:
        folder.mkdir(parents=True, exist_ok=True)
        yield folder
        return
    _check_owned(folder, kind)
    with run_lock(folder, what=f"{kind} run"):
        if not (folder / MARKER).exists():
            write_json(folder / MARKER, {"kind": kind})
        recover_export(folder)
        checkpoints = folder / "checkpoints"
        stages = [p.name for p in checkpoints.iterdir() if p.is_dir()] if checkpoints.is_dir() else []
        clean_leftovers(folder, recursive_into=("checkpoints", *(f"checkpoints/{s}" for s in stages)))
        yield folder


def _flatten(data: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(data, dict):
        flat: dict[str, Any] = {}
        for key, value in data.items():
            flat.update(_flatten(value, f"{prefix}{key}."))
        return flat
    return {prefix.rstrip("."): data}


def changed_config_keys(saved: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Dotted keys whose values differ between two config mappings (added and removed keys included)."""
    before, after = _flatten(saved), _flatten(new)
    return sorted(
        k for k in before.keys() | after.keys() if before.get(k, _MISSING) != after.get(k, _MISSING)
    )


_MISSING = object()


def check_resume_config(
    saved_path: Path, new: dict[str, Any], allow_change: bool, fixed_sections: tuple[str, ...]
) -> list[str]:
    """Compare the config a run was started with (``saved_path``) with the one given to ``--resume``.

    Unchanged: returns []. Changed: refused with the changed keys named, unless ``allow_change`` — then the
    changed keys are returned (the caller applies them, e.g. a new learning rate) — except keys under
    ``fixed_sections`` (the model's shape, its vocabulary), which no checkpoint could be resumed with.
    """
    if not saved_path.exists():
        return []
    try:
        saved = yaml.safe_load(saved_path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise LinguaLiteError(f"{saved_path}: cannot read the saved config of this run ({exc})") from exc
    changed = changed_config_keys(saved, new)
    if not changed:
        return []
    shown = ", ".join(changed[:8]) + (f" (+{len(changed) - 8} more)" if len(changed) > 8 else "")
    fixed = [k for k in changed if k.split(".")[0] in fixed_sections]
    if fixed:
        raise LinguaLiteError(
            f"{saved_path.parent}: cannot resume: the config changes the model or its vocabulary "
            f"({', '.join(fixed[:8])}); the checkpoints were trained with the saved {saved_path.name}"
        )
    if not allow_change:
        raise LinguaLiteError(
            f"{saved_path.parent}: --resume with a changed config ({shown}); resume with the saved "
            f"{saved_path.name}, or pass --allow-config-change to continue with the new values"
        )
    return changed


def set_learning_rate(
    optimizer: torch.optim.Optimizer, scheduler: torch.optim.lr_scheduler.LRScheduler, lr: float
) -> None:
    """After a resume with a changed ``lr``: the schedule continues from the same step with the new peak."""
    old = list(scheduler.base_lrs)
    scheduler.base_lrs = [lr for _ in old]
    for group, base in zip(optimizer.param_groups, old, strict=True):
        group["lr"] = group["lr"] * (lr / base) if base else lr
        if "initial_lr" in group:
            group["initial_lr"] = lr
