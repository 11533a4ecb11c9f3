"""The files of a sweep's cells on disk, and finished cells shared between sweeps.

Tables share cells: paper 000's default model is Table 3's joint model, Table 7's full objective and Table
9's batch 64 (also Table 5's 2 layers and Fig. 2's d = 256, which time their cells and never copy).
:func:`find_donors` indexes the finished trained cells of other sweep folders by the hash of their resolved
training config; :func:`copy_donor` copies one into a new cell (its checkpoints left behind, its
``timing.json`` kept), which the sweep then only evaluates.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lingualite.core.io_utils import atomic_dir, is_staging_name
from lingualite.core.ownership import TRAINING_KINDS, folder_kind
from lingualite.models.run_folder import RunFolder

__all__ = ["RESULT", "SWEEP", "TIMING", "copy_donor", "find_donors", "read_result", "sweep_folders"]

RESULT, TIMING, SWEEP = "result.json", "timing.json", "sweep.json"

# What a copied cell leaves behind: its checkpoints (the exported model is what is evaluated), its result
# (evaluated again here, with this table's settings) and lock files.
_NOT_COPIED = ("checkpoints", RESULT, ".lingualite.lock", ".export.lock")


def read_result(folder: Path) -> dict[str, Any] | None:
    """A cell's ``result.json``; None when it has none (or an unreadable one, which is evaluated again)."""
    try:
        data = json.loads((folder / RESULT).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and isinstance(data.get("metrics"), dict) else None


def sweep_folders(reuse: Sequence[str | Path], output: Path) -> list[Path]:
    """The sweep folders (those holding ``sweep.json``) named in ``reuse`` or directly below them, except
    ``output`` itself."""
    found: list[Path] = []
    for folder in map(Path, reuse):
        sweeps = (
            [folder] if (folder / SWEEP).is_file() else [p.parent for p in sorted(folder.glob(f"*/{SWEEP}"))]
        )
        found += [s for s in sweeps if s.resolve() != output.resolve() and s not in found]
    return found


def find_donors(folders: list[Path]) -> dict[str, Path]:
    """Finished trained cells of other sweeps by the hash of their resolved training config (the first
    found wins)."""
    donors: dict[str, Path] = {}
    for sweep in folders:
        for cell in sorted((sweep / "cells").glob("*")):
            result = read_result(cell)
            digest = ((result or {}).get("keys") or {}).get("config")
            trained = (cell / "modules.json").is_file() and RunFolder(cell).read_summary() is not None
            if isinstance(digest, str) and trained and folder_kind(cell) in TRAINING_KINDS:
                donors.setdefault(digest, cell)
    return donors


def copy_donor(donor: Path, folder: Path) -> None:
    """The donor cell's trained model, config, logs and timing, copied into ``folder`` in one step."""
    with atomic_dir(folder) as staging:
        shutil.copytree(
            donor,
            staging,
            ignore=lambda _folder, names: [n for n in names if n in _NOT_COPIED or is_staging_name(n)],
            dirs_exist_ok=True,
        )
