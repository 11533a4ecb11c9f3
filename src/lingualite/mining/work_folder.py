"""The work folder of a mining run: a manifest of what its files were computed from (refusing a mix), and
the reuse of another work folder's encoded shards found by that content key, whatever the output's name."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from lingualite.core.errors import LinguaLiteError
from lingualite.core.io_utils import write_json

__all__ = ["check_work", "link_shards", "reusable_work"]

# What a side's shards depend on: the model (by content), that side's input, the shard size, the format.
_SHARD_KEYS = ("format", "model", "shard_size")


def reusable_work(
    work: Path, fingerprint: dict[str, object], report: Callable[[str], None]
) -> tuple[Path, list[tuple[str, Path]]]:
    """For a new default work folder (``OUTPUT.work``): the files of the same models and inputs in another
    work folder beside it (another ``--output``, e.g. a stricter threshold), found by the content key each
    work folder records in its manifest, whatever its name. The same key in full: that folder, used as it
    is (only the selection runs). Otherwise ``work`` and the shard folders of each side whose model, input
    and shard size match, to link into it (encoding is the slow part)."""
    import json

    matches: list[tuple[Path, dict[str, object]]] = []
    for manifest in sorted(work.parent.glob("*/manifest.json")):
        try:
            saved = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(saved, dict) and all(saved.get(k) == fingerprint[k] for k in _SHARD_KEYS):
            matches.append((manifest.parent, saved))
    for folder, saved in matches:
        if saved == fingerprint:
            report(f"mine: using {folder} (the same models and inputs; its files are reused)")
            return folder, []
    links: list[tuple[str, Path]] = []
    for side in ("src", "tgt"):
        found = [
            folder / theirs
            for folder, saved in matches
            for theirs in ("src", "tgt")
            if saved.get(theirs) == fingerprint[side] and any((folder / theirs).glob("shard-*.npy"))
        ]
        if found:
            links.append((side, found[0]))
    return work, links


def link_shards(work: Path, links: list[tuple[str, Path]], report: Callable[[str], None]) -> None:
    import os
    import shutil

    for side, source in links:
        if (work / side).exists():
            continue
        (work / side).mkdir(parents=True)
        for shard in sorted(source.glob("shard-*.npy")):
            try:
                os.link(shard, work / side / shard.name)  # shards are replaced by rename, never in place
            except OSError:  # another file system, or no hard links: a copy
                shutil.copyfile(shard, work / side / shard.name)
        report(f"mine: {side} shards linked from {source} (the same model and input)")


def check_work(work: Path, fingerprint: dict[str, object]) -> None:
    import json

    manifest = work / "manifest.json"
    if manifest.exists():
        saved = json.loads(manifest.read_text(encoding="utf-8"))
        changed = sorted(key for key in fingerprint if saved.get(key) != fingerprint[key])
        if changed:
            raise LinguaLiteError(
                f"{work}: holds a mining run computed with other {', '.join(changed)} (files are keyed by the "
                "models' content: a model folder changed in place is another model); pass --overwrite to "
                "compute it again, or choose another --work-dir"
            )
    else:
        write_json(manifest, fingerprint)
