"""The sha256 of every file of a model folder lingualite writes (``lingualite_checksums.json``), checked when
it is loaded: safetensors checks its header, not the numbers, and onnxruntime runs a graph whose weight bytes
were flipped (200 KB of them still gave vectors at cosine 0.966), so a damaged file would otherwise give
wrong vectors instead of an error."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from lingualite.core.errors import ModelFolderError
from lingualite.core.io_utils import file_sha256, write_json

__all__ = ["CHECKSUMS", "verify_checksums", "write_checksums"]

CHECKSUMS = "lingualite_checksums.json"


def write_checksums(folder: Path) -> None:
    """Record the sha256 of every model file in ``folder`` (weights, ONNX graphs, tokenizer, configs). Not
    recorded: ``*.md`` (the card people edit) and lingualite's hidden bookkeeping files."""
    sums = {
        str(p.relative_to(folder)): file_sha256(p)
        for p in sorted(folder.rglob("*"))
        if p.is_file()
        and p.name != CHECKSUMS
        and p.suffix != ".md"
        and not any(part.startswith(".") for part in p.relative_to(folder).parts)
    }
    write_json(folder / CHECKSUMS, {"sha256": sums})


def verify_checksums(
    folder: str | Path, only: Iterable[str] | None = None, skip: tuple[str, ...] = ()
) -> None:
    """Check the recorded files of ``folder`` that are present (all, those named in ``only``, or all but
    those under the sub-folders ``skip``: files the loader does not read); a changed byte is a one-line
    :class:`~lingualite.core.errors.ModelFolderError`. Folders without a record pass."""
    folder = Path(folder)
    record = folder / CHECKSUMS
    if not record.exists():
        return
    try:
        sums = json.loads(record.read_text(encoding="utf-8")).get("sha256")
    except (OSError, UnicodeDecodeError, ValueError, AttributeError):
        sums = None
    if not isinstance(sums, dict):
        raise ModelFolderError(folder, f"{CHECKSUMS} is damaged (delete it to load the folder unchecked)")
    wanted = None if only is None else set(only)
    for name, expected in sums.items():
        path = folder / str(name)
        if wanted is not None and name not in wanted or any(name.startswith(f"{s}/") for s in skip):
            continue
        if path.is_file() and file_sha256(path) != expected:
            raise ModelFolderError(
                folder,
                f"{name} does not match the checksum lingualite recorded when it wrote the model: the file is "
                f"damaged (if you replaced it on purpose, delete {CHECKSUMS})",
            )
