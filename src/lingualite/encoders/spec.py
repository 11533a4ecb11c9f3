"""Model specs as the commands take them: a baseline name, a model folder, or ``RUNTIME:FOLDER``, and the
identity of the model a spec names, by content (:func:`model_content_key`, what every cache is keyed by).

``RUNTIME:FOLDER`` (``onnx``, ``onnx-int8``, ``static``, ``bf16``) names a folder run by onnxruntime or numpy
instead of torch, or by torch in bfloat16 (``bf16``); :func:`split_runtime` takes it apart,
:func:`lingualite.encoders.resolve.load_encoder` loads it.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

__all__ = ["RUNTIMES", "model_content_key", "spec_folder", "split_runtime"]

RUNTIMES = ("onnx", "onnx-int8", "static", "bf16")


def split_runtime(spec: str) -> tuple[str | None, str]:
    """``"onnx-int8:runs/x"`` -> ``("onnx-int8", "runs/x")``; anything else -> ``(None, spec)``."""
    runtime, _, rest = spec.partition(":")
    return (runtime, rest) if runtime in RUNTIMES and rest else (None, spec)


def spec_folder(spec: str | Path) -> Path | None:
    """The model folder a spec names (``runs/x``, ``onnx:runs/x``...), or None (a baseline name)."""
    _, rest = split_runtime(str(spec))
    path = Path(rest)
    return path if path.is_dir() else None


# The files whose bytes are a model's identity for caches (weights, graphs, module list, tokenizer, config).
_CONTENT_FILES = (
    "modules.json",
    "tokenizer.json",
    "config.json",
    "model.safetensors",
    "encoder.onnx",
    "encoder_int8.onnx",
)


def model_content_key(model: str) -> str:
    """The encoder's identity for caches and finished results, by content: a baseline's name and package
    version, or a hash of a folder's weights, module list and tokenizer (a retrained or replaced model under
    the same path gets a new key; a copied folder keeps its key). ``onnx:DIR`` / ``onnx-int8:DIR`` /
    ``static:DIR`` / ``bf16:DIR`` get the runtime and the folder's hash (ONNX graphs included). Used by
    ``eval all``'s caches, distillation's teacher cache and ``mine``'s work folder."""
    runtime, rest = split_runtime(model)
    if runtime is not None and Path(rest).is_dir():
        return f"{runtime}:{model_content_key(rest)}"
    path = Path(model)
    if not path.is_dir():
        from importlib import metadata

        from lingualite.encoders.baselines import PACKAGES_OF

        package = PACKAGES_OF.get(model)
        try:
            version = metadata.version(package) if package else "core"
        except metadata.PackageNotFoundError:
            version = "missing"
        return f"{model}=={version}"
    digest = hashlib.sha256()
    found = (p.relative_to(path) for p in path.rglob("*") if p.name in _CONTENT_FILES)
    for rel in sorted(r for r in found if "checkpoints" not in r.parts and not r.parts[0].startswith(".")):
        digest.update(str(rel).encode() + b"\0")
        with (path / rel).open("rb") as fh:
            for block in iter(lambda fh=fh: fh.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()[:32]
