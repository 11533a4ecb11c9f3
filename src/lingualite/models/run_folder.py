"""The run folder every recipe writes, and ``eval all``'s: one layout, read and written through
:class:`RunFolder` (never through path strings elsewhere), claimed, locked and tidied by :func:`open_run`.

Layout of a training run (every recipe)::

    OUTPUT/
      config.yaml        the run's config (what a resume must agree with)
      tokenizer/         the vocabulary the run trained (or reused)
      checkpoints/       [STAGE/]step-NNNNNNN/ (model.safetensors, trainer_state.*), the newest few kept
      metrics.jsonl      one JSON object per logged step: step, elapsed_s, losses, lr, validation metrics
                         (and stage, for recipes with stages)
      summary.json       what the run did: sizes, timings per stage, final metrics
      stages.jsonl       recipes with stages: one row per finished stage
      modules.json ...   the exported sentence-transformers model, beside the rest
      (+ recipe extras: teacher-cache/, pca/, teacher/, mined/)

Folders written by earlier versions (``training_config.yaml`` / ``distill_config.yaml``,
``distill_summary.json`` / ``monolingual_summary.json``) are read as well, and their configs are read with
the renamed keys of :data:`lingualite.config.parsing.RENAMED_KEYS`, so they still evaluate and resume.

:func:`open_run` is what every writer of a run folder goes through:

1. **Ownership** — the folder is created by the run, or was created by an earlier lingualite run of the same
   kind (:mod:`lingualite.core.ownership`: its marker, or for folders of earlier versions a lingualite-only
   layout, never a file name alone). A non-empty folder of anything else is refused: a command never takes
   over a folder it did not create. ``--overwrite`` empties a folder of the same kind first.
2. **Lock** — an exclusive ``flock`` for the whole run (:func:`lingualite.core.io_utils.run_lock`); a second run
   into the same folder fails at once naming the first one's pid.
3. **Recovery** — an export that a crash interrupted after its files were complete is finished
   (:func:`lingualite.models.export.recover_export`), then staging leftovers of dead writers are removed
   (anywhere in the folder).
"""

from __future__ import annotations

import contextlib
import json
import logging
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import yaml

from lingualite.core.errors import LinguaLiteError
from lingualite.core.io_utils import LOCK_NAME, clean_leftovers, run_lock, write_json, write_text
from lingualite.core.ownership import MARKER, check_separate, claim_folder, ownership_problem

__all__ = ["MARKER", "RunFolder", "changed_config_keys", "open_run", "warn_keys_added_since_saved"]

logger = logging.getLogger(__name__)


@contextlib.contextmanager
def open_run(
    folder: str | Path,
    kind: str,
    lock: bool = True,
    overwrite: bool = False,
    inputs: Iterable[str | Path] = (),
) -> Iterator[RunFolder]:
    """Claim, lock and tidy run folder ``folder`` for a run of ``kind`` (``train``, ``distill``,
    ``monolingual``, ``report``, ``reproduce``, ``mine``); see the module docstring. ``overwrite`` empties a
    folder of the same kind first (``--overwrite``); ``inputs``: what the run reads, which the folder may
    neither be, contain nor lie inside. ``lock=False`` is for the non-main ranks of a distributed run, whose
    main rank holds the lock."""
    from lingualite.models.export import recover_export

    folder = Path(folder)
    if not lock:
        folder.mkdir(parents=True, exist_ok=True)
        yield RunFolder(folder)
        return
    check_separate(folder, inputs)
    problem = ownership_problem(folder, kind)  # before the lock file is created in a folder not ours
    if problem is not None:
        raise LinguaLiteError(f"{folder}: {problem}")
    lock_existed = (folder / LOCK_NAME).exists()
    with run_lock(folder, what=f"{kind} run") as lock_path:
        try:
            claim_folder(folder, kind, overwrite, inputs)  # again under the lock: it may have changed since
        except LinguaLiteError:
            if not lock_existed and lock_path is not None:
                lock_path.unlink(missing_ok=True)
            raise
        recover_export(folder)
        clean_leftovers(folder, walk=True)
        yield RunFolder(folder)


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
_STEP_DIR = re.compile(r"^step-(\d+)$")


class RunFolder:
    """The files of one run (see the module docstring); every reader and writer of a run goes through it."""

    CONFIG = "config.yaml"
    METRICS = "metrics.jsonl"
    SUMMARY = "summary.json"
    STAGES = "stages.jsonl"
    TOKENIZER = "tokenizer"
    CHECKPOINTS = "checkpoints"
    LEGACY_CONFIGS = ("training_config.yaml", "distill_config.yaml")
    LEGACY_SUMMARIES = ("distill_summary.json", "monolingual_summary.json")
    FILES = (CONFIG, METRICS, SUMMARY, STAGES, *LEGACY_CONFIGS, *LEGACY_SUMMARIES)
    """Run files that sit beside an exported model and are not part of it."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)

    def __repr__(self) -> str:
        return f"RunFolder({str(self.path)!r})"

    # -- config -------------------------------------------------------------------------------------------
    @property
    def config_path(self) -> Path:
        return self.path / self.CONFIG

    def saved_config_path(self) -> Path | None:
        """The config the run was started with (``config.yaml``, or an earlier version's name); None if none."""
        for name in (self.CONFIG, *self.LEGACY_CONFIGS):
            if (self.path / name).is_file():
                return self.path / name
        return None

    def write_config(self, config: dict[str, Any]) -> None:
        write_text(self.config_path, yaml.safe_dump(config, sort_keys=False))

    def _read_raw_config(self, mode: str | None) -> tuple[Path, dict[str, Any]] | None:
        path = self.saved_config_path()
        if path is None:
            return None
        try:
            raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except (OSError, yaml.YAMLError) as exc:
            raise LinguaLiteError(f"{path}: cannot read the saved config of this run ({exc})") from exc
        if mode is not None and "mode" not in raw:
            raw["mode"] = mode
        return path, raw

    def read_config(self, mode: str | None = None) -> dict[str, Any] | None:
        """The saved config as the current version reads it (renamed keys moved, defaults filled in);
        None when the folder has none. ``mode``: the recipe it must be for (old files do not say)."""
        found = self._read_raw_config(mode)
        return None if found is None else _validated(*found)

    def keys_added_since_saved(self, mode: str | None = None) -> dict[str, Any]:
        """Keys of today's config that the saved one lacks, with the defaults they take when it is read.

        A run saves every key of its config, so a key missing from the file was added after the run began:
        the run itself used whatever the version that wrote it did, which may not be today's default. Reading
        the file (``--config <run>/config.yaml``, ``--resume``) fills them in silently; callers warn with this.
        """
        from lingualite.config.parsing import migrate_keys

        found = self._read_raw_config(mode)
        if found is None:
            return {}
        path, raw = found
        current = _validated(path, raw)  # warns once per renamed key; the names below are moved quietly
        saved = _flatten(migrate_keys(raw, current["mode"], str(path), warn=False))
        return {k: v for k, v in _flatten(current).items() if k not in saved}

    def is_run(self) -> bool:
        """Whether the folder holds a run's files (its metrics, summary or checkpoints), not only a config."""
        return any((self.path / name).exists() for name in (self.METRICS, self.SUMMARY, self.CHECKPOINTS))

    def check_resume(
        self, new: dict[str, Any], allow_change: bool, fixed_sections: tuple[str, ...]
    ) -> list[str]:
        """Compare the config the run was started with and the one given to ``--resume``.

        Unchanged: returns []. Changed: refused with the changed keys named, unless ``allow_change`` — then
        the changed keys are returned (the caller applies them, e.g. a new learning rate) — except keys under
        ``fixed_sections`` (the model's shape, its vocabulary), which no checkpoint could be resumed with.
        """
        saved = self.read_config(new.get("mode"))
        if saved is None:
            return []
        warn_keys_added_since_saved(self, new.get("mode"))
        changed = [k for k in changed_config_keys(saved, new) if not _resolved_vocab_size(k, new)]
        if not changed:
            return []
        name = self.saved_config_path().name  # type: ignore[union-attr]
        shown = ", ".join(changed[:8]) + (f" (+{len(changed) - 8} more)" if len(changed) > 8 else "")
        fixed = [k for k in changed if k.split(".")[0] in fixed_sections]
        if fixed:
            raise LinguaLiteError(
                f"{self.path}: cannot resume: the config changes the model or its vocabulary "
                f"({', '.join(fixed[:8])}); the checkpoints were trained with the saved {name}"
            )
        if not allow_change:
            raise LinguaLiteError(
                f"{self.path}: --resume with a changed config ({shown}); resume with the saved "
                f"{name}, or pass --allow-config-change to continue with the new values"
            )
        return changed

    # -- vocabulary, checkpoints ----------------------------------------------------------------------------
    @property
    def tokenizer_dir(self) -> Path:
        return self.path / self.TOKENIZER

    def checkpoints_dir(self, stage: str | None = None) -> Path:
        base = self.path / self.CHECKPOINTS
        return base / stage if stage else base

    def checkpoints(self, stage: str | None = None) -> list[Path]:
        """Complete checkpoints in step order (half-written ones never carry the final name)."""
        return list_checkpoints(self.checkpoints_dir(stage))

    def has_checkpoints(self) -> bool:
        """Any checkpoint of any stage."""
        base = self.checkpoints_dir()
        if not base.is_dir():
            return False
        return bool(self.checkpoints()) or any(self.checkpoints(p.name) for p in base.iterdir() if p.is_dir())

    # -- metrics, summary, stages ---------------------------------------------------------------------------
    @property
    def metrics_path(self) -> Path:
        return self.path / self.METRICS

    def read_metrics(self) -> list[dict[str, Any]]:
        """Every logged record, in order; a line torn by a kill during its append is skipped."""
        return _read_jsonl(self.metrics_path)

    def append_metrics(self, record: dict[str, Any]) -> None:
        _append_jsonl(self.metrics_path, record)

    def truncate_metrics(self, step: int, stage: str | None = None) -> None:
        """Drop the records a resume from ``step`` (of ``stage``) will write again; other stages' stay."""
        if not self.metrics_path.exists():
            return
        kept = [r for r in self.read_metrics() if r.get("stage") != stage or _step(r) <= step]
        write_text(self.metrics_path, "".join(json.dumps(r) + "\n" for r in kept))

    def read_stages(self) -> list[dict[str, Any]]:
        return _read_jsonl(self.path / self.STAGES)

    def append_stage(self, row: dict[str, Any]) -> None:
        _append_jsonl(self.path / self.STAGES, row)

    def clear_logs(self) -> None:
        """A fresh start: no metrics or stage rows of an earlier attempt."""
        for name in (self.METRICS, self.STAGES):
            (self.path / name).unlink(missing_ok=True)

    def write_summary(self, summary: dict[str, Any]) -> None:
        write_json(self.path / self.SUMMARY, summary)

    def read_summary(self) -> dict[str, Any] | None:
        for name in (self.SUMMARY, *self.LEGACY_SUMMARIES):
            if (self.path / name).is_file():
                return json.loads((self.path / name).read_text(encoding="utf-8"))
        return None


def _validated(path: Path, raw: dict[str, Any]) -> dict[str, Any]:
    """A saved config's mapping as the current version reads it (renamed keys moved, defaults filled in)."""
    from lingualite.config import config_from_dict

    try:
        return config_from_dict(raw, str(path)).to_dict()
    except LinguaLiteError as exc:
        raise LinguaLiteError(f"{path}: the saved config of this run is not valid now: {exc}") from exc


def warn_keys_added_since_saved(folder: RunFolder, mode: str | None = None) -> dict[str, Any]:
    """Log one warning naming the keys :meth:`RunFolder.keys_added_since_saved` finds (none: no warning), and
    return them: a run's saved config read by a newer version is not silently what the run used."""
    added = folder.keys_added_since_saved(mode)
    if added:
        shown = ", ".join(f"{k}={v!r}" for k, v in list(added.items())[:6])
        more = f" (+{len(added) - 6} more)" if len(added) > 6 else ""
        logger.warning(
            "%s: the saved config predates %d key(s), read with today's defaults: %s%s; the run may have used "
            "other values: set them in a copy of the file to pin them",
            folder.saved_config_path(),
            len(added),
            shown,
            more,
        )
    return added


def _resolved_vocab_size(key: str, new: dict[str, Any]) -> bool:
    """A ``*.vocab_size`` of 0 means "the tokenizer's size"; configs saved by earlier versions hold the size
    it resolved to, which is no change."""
    if not key.endswith(".vocab_size"):
        return False
    section = new.get(key.split(".")[0])
    return isinstance(section, dict) and section.get("vocab_size") == 0


def list_checkpoints(directory: Path) -> list[Path]:
    """The ``step-N`` folders of ``directory`` in step order (half-written ones never carry that name)."""
    if not directory.is_dir():
        return []
    found = [
        (int(m.group(1)), p) for p in directory.iterdir() if (m := _STEP_DIR.match(p.name)) and p.is_dir()
    ]
    return [p for _, p in sorted(found)]


def _step(record: dict[str, Any]) -> int:
    step = record.get("step")
    return step if isinstance(step, int) else -1


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict):
            rows.append(row)
    return rows


def _append_jsonl(path: Path, row: dict[str, Any]) -> None:
    with path.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps(row) + "\n")
