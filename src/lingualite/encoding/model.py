"""The model a user holds: :func:`load_encoder` loads any model spec into an :class:`Encoder`, whose
:meth:`~Encoder.encode` gives vectors as ``lingualite encode`` writes them (normalised, truncated, quantized by
the same rules), and which it can :meth:`~Encoder.save` or :meth:`~Encoder.export` to ONNX::

    from lingualite import load_encoder

    model = load_encoder("runs/distill")              # a folder, a baseline name, onnx:FOLDER, ...
    vectors = model.encode(["Hello", "Bonjour"], truncate_dim=64)
    model.export("runs/distill-onnx", quantize="int8")

The backends behind it (sentence-transformers folders, ONNX, static, bf16, TF-IDF, the baselines) are
:mod:`lingualite.encoders`; :attr:`Encoder.backend` is the one loaded.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.core.errors import LinguaLiteError
from lingualite.vectors.normalization import NORMALIZE

__all__ = ["Encoder", "load_encoder"]


class Encoder:
    """A loaded model: ``encode``, ``dimension``, ``save``, ``export``. Satisfies the
    :class:`lingualite.encoders.base.Encoder` protocol, so it goes wherever an encoder is taken."""

    def __init__(self, backend: Any, spec: str | None = None) -> None:
        self.backend = backend
        self.spec = spec
        self.name = getattr(backend, "name", spec or type(backend).__name__)

    @property
    def dimension(self) -> int:
        return int(self.backend.dimension)

    def __repr__(self) -> str:
        return f"Encoder({self.spec or self.name!r}, dimension={self.dimension})"

    def encode(
        self,
        texts: Sequence[str],
        *,
        normalize: bool = NORMALIZE,
        dimensions: int | None = None,
        precision: str = "float32",
        calibration: Any = None,
        batch_size: int | None = None,
        truncate_dim: int | None = None,
        normalize_embeddings: bool | None = None,
    ) -> np.ndarray:
        """Vectors of ``texts`` (a list: one string, bytes, a mapping or a set is a ``TypeError``, as everywhere
        texts go), as :func:`lingualite.encode` gives them: unit length unless ``normalize=False``, the first
        ``dimensions`` (``truncate_dim``) components, at ``precision``."""
        from lingualite.encoding.api import encode

        return encode(
            self.backend,
            texts,
            batch_size=batch_size,
            normalize=normalize,
            dimensions=dimensions,
            precision=precision,
            calibration=calibration,
            truncate_dim=truncate_dim,
            normalize_embeddings=normalize_embeddings,
        )

    def folder(self) -> Path:
        """The model folder behind this encoder (a baseline name has none: an error)."""
        for attr in ("path", "folder"):
            value = getattr(self.backend, attr, None)
            if isinstance(value, str | Path) and Path(value).is_dir():
                return Path(value)
        raise LinguaLiteError(f"{self.name}: is not loaded from a model folder; there is nothing to save")

    def save(self, output: str | Path) -> Path:
        """Copy the model folder (without training checkpoints) to the new folder ``output``, atomically;
        sentence-transformers and lingualite load the copy. An existing non-empty ``output`` is refused."""
        from lingualite.core.io_utils import atomic_dir
        from lingualite.core.ownership import check_separate

        source, output = self.folder(), Path(output)
        check_separate(output, [source])
        if output.exists() and any(output.iterdir()):
            raise LinguaLiteError(f"{output}: is not empty; save writes a new folder")
        with atomic_dir(output) as staged:
            shutil.copytree(
                source, staged, dirs_exist_ok=True, ignore=shutil.ignore_patterns("checkpoints", ".*")
            )
        return output

    def export(self, output: str | Path, quantize: str | None = None, overwrite: bool = False) -> Any:
        """:func:`lingualite.export_onnx` of this model's folder into ``output`` (``quantize="int8"``: also
        the int8 graph); load the result with ``load_encoder("onnx:OUTPUT")`` (or ``onnx-int8:``)."""
        from lingualite.encoders.onnx_export import export_onnx

        return export_onnx(self.folder(), output, quantize, overwrite)


def load_encoder(
    model: str | Path, *, device: str = "auto", threads: int | None = None, batch_size: int | None = None
) -> Encoder:
    """Load ``model``: a model folder, a baseline name (``tfidf``, ``minilm``, ``use-m``, ``e5-small``), a
    packaged model (``lingualite-small``), or ``onnx:`` / ``onnx-int8:`` / ``static:`` / ``bf16:FOLDER``
    (see :func:`lingualite.encoders.resolve.load_encoder`, which gives the bare backend)."""
    from lingualite.encoders.resolve import load_encoder as load_backend

    backend = load_backend(model, threads=threads, device=device)
    if batch_size is not None and hasattr(backend, "batch_size"):
        backend.batch_size = batch_size
    return Encoder(backend, str(model))
