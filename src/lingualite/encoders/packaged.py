"""The ready-made models of the companion package ``lingualite-models``, loaded by name.

``lingualite-small`` (the 13-language student as an int8 ONNX graph), ``lingualite-static`` (its static
sibling) and ``lingualite-small-34`` (a student of all 34 supported languages) ship as data in the package
``lingualite_models`` (``packages/lingualite-models`` in the repository,
installed by the README's first command). A name resolves to the runtime spec lingualite would take for the
folder (``onnx-int8:FOLDER``, ``static:FOLDER``), so every command that takes a model takes the name.
"""

from __future__ import annotations

from pathlib import Path

from lingualite.core.errors import LinguaLiteError

__all__ = ["PACKAGED", "packaged_folder", "packaged_spec"]

# name -> the runtime that runs its folder (see lingualite.encoders.spec.RUNTIMES)
PACKAGED: dict[str, str] = {
    "lingualite-small": "onnx-int8",
    "lingualite-static": "static",
    "lingualite-small-34": "onnx-int8",
}
INSTALL_HINT = "pip install ./packages/lingualite-models (from a lingualite checkout)"


def packaged_folder(name: str) -> Path:
    """The folder of packaged model ``name``, or a one-line error saying how to install it."""
    try:
        from lingualite_models import model_path
    except ImportError:
        raise LinguaLiteError(
            f"{name}: the lingualite-models package is not installed; {INSTALL_HINT}"
        ) from None
    try:
        return model_path(name)
    except (ValueError, FileNotFoundError) as exc:
        raise LinguaLiteError(f"{name}: {exc}") from None


def packaged_spec(spec: str) -> str | None:
    """``onnx-int8:FOLDER`` / ``static:FOLDER`` for a packaged model's name, else None."""
    runtime = PACKAGED.get(spec)
    return None if runtime is None else f"{runtime}:{packaged_folder(spec)}"
