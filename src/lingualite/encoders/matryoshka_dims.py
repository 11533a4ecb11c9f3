"""What sizes a Matryoshka model was trained for, and the check of a ``--dimensions`` request against it.

- ``d`` above the model's dimension (or below 1) is an error;
- ``d`` that the model was not trained for (a plain model, or a Matryoshka model trained for other sizes) is
  allowed with a one-line warning: plain truncation usually loses more.

The trained sizes travel with the model folder in ``lingualite_matryoshka.json`` (``{"matryoshka_dims":
[...], "dimension": D}``), written by the recipes at export; a folder without it was not trained for any.
Truncation itself is :func:`lingualite.vectors.truncation.truncate`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lingualite.core.errors import LinguaLiteError
from lingualite.encoders.spec import split_runtime

__all__ = [
    "MATRYOSHKA_FILE",
    "check_dimensions",
    "model_folder_of",
    "trained_dimensions",
    "write_trained_dimensions",
]

MATRYOSHKA_FILE = "lingualite_matryoshka.json"


def write_trained_dimensions(folder: str | Path, dims: Sequence[int] | None, dimension: int) -> None:
    """Record in a (staged) model ``folder`` the sizes it was trained for (nothing when ``dims`` is None)."""
    if not dims:
        return
    from lingualite.core.io_utils import write_json

    write_json(Path(folder) / MATRYOSHKA_FILE, {"matryoshka_dims": list(dims), "dimension": int(dimension)})


def model_folder_of(model: Any) -> Path | None:
    """The model folder behind a spec (``FOLDER``, ``onnx:FOLDER``, ...) or a loaded encoder (its ``path`` or
    ``folder``); None for a baseline name or an encoder without one."""
    if isinstance(model, str | Path):
        folder = Path(split_runtime(str(model))[1])
        return folder if folder.is_dir() else None
    for attr in ("path", "folder"):
        value = getattr(model, attr, None)
        if isinstance(value, str | Path) and Path(value).is_dir():
            return Path(value)
    return None


def trained_dimensions(model: Any) -> list[int] | None:
    """The sizes a model (spec or encoder) was trained for, from its folder's record; None when it has none
    (not a Matryoshka model). A damaged record is an error naming the file."""
    folder = model_folder_of(model)
    path = folder / MATRYOSHKA_FILE if folder is not None else None
    if path is None or not path.is_file():
        return None
    try:
        dims = json.loads(path.read_text(encoding="utf-8")).get("matryoshka_dims")
    except (OSError, ValueError, AttributeError) as exc:
        raise LinguaLiteError(f"{path}: unreadable ({exc}); export the model again") from exc
    if not isinstance(dims, list) or not all(isinstance(d, int) and d > 0 for d in dims):
        raise LinguaLiteError(f"{path}: matryoshka_dims must be a list of positive whole numbers")
    return dims


def check_dimensions(model: Any, dimensions: int | None, model_dimension: int) -> str | None:
    """Check a request for ``dimensions`` of ``model`` (spec or encoder) whose vectors have
    ``model_dimension`` components: an error above it or below 1; the warning to show (also logged) when the
    model was not trained for that size (the caller shows it: the CLI on stderr, the Python API as a logged
    warning); None when all is well (or ``dimensions`` is None or the full size).
    """
    if dimensions is None:
        return None
    if dimensions < 1:
        raise LinguaLiteError(f"--dimensions {dimensions}: must be at least 1")
    if model_dimension and dimensions > model_dimension:
        raise LinguaLiteError(
            f"--dimensions {dimensions}: above the model's dimension ({model_dimension}); choose at most "
            f"{model_dimension}"
        )
    if dimensions == model_dimension:
        return None
    trained = trained_dimensions(model)
    if trained is not None and dimensions in trained:
        return None
    name = getattr(model, "name", None) or str(model)
    why = (
        f"it was trained for {', '.join(map(str, trained))}"
        if trained
        else "it was not trained with matryoshka_dims"
    )
    return (
        f"{name}: truncating to {dimensions} of {model_dimension} dimensions, but {why}; plain truncation "
        "may lose much more quality than a Matryoshka-trained size"
    )
