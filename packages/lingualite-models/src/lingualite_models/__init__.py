"""lingualite's ready-made encoders, as data: each model is a folder next to this file.

``lingualite-small``: a 1-layer x 128 student distilled from the multilingual USE on all 13 supported languages,
as an int8 ONNX graph (``small/``). ``lingualite-static``: a static student (a token table and a mean, no
transformer) distilled the same way (``static/``). ``lingualite-small-34``: the transformer student of all 34 languages
lingualite supports (``small-34/``). Each folder has its model card (``README.md``) with the
languages, the data and their licences, and how it was measured. lingualite loads them by name
(``lingualite encode --model lingualite-small``); :func:`model_path` gives the folder to anything else.
Rebuilt from the packaged corpora by ``lingualite models build`` (see lingualite's docs).
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["MODELS", "model_path"]

MODELS: dict[str, str] = {
    "lingualite-small": "small",
    "lingualite-static": "static",
    "lingualite-small-34": "small-34",
}


def model_path(name: str) -> Path:
    """The folder of packaged model ``name`` (one of :data:`MODELS`)."""
    try:
        folder = Path(__file__).resolve().parent / MODELS[name]
    except KeyError:
        raise ValueError(f"unknown packaged model {name!r}; packaged: {', '.join(MODELS)}") from None
    if not folder.is_dir():
        raise FileNotFoundError(f"{folder}: the packaged model {name!r} is missing from this install")
    return folder
