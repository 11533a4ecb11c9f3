"""Which model an index was built with, and the check that refuses any other.

An index records the model *spec* (a baseline name, an absolute model folder, or ``RUNTIME:/abs/folder``), the
encoder's name and dimension (``model_dimension``; ``truncate_dim`` when built with ``--dimensions``), and the
vectors of three fixed probe sentences. An encoder is accepted when its
spec (or, for an encoder object without one, its name) and dimension match and its probe vectors have cosine
>= 0.99 with the recorded ones: so a model folder retrained in place under the same path is refused too.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from lingualite.core.errors import LinguaLiteError
from lingualite.vectors.truncation import truncate

__all__ = ["PROBES", "check_encoder", "dense", "normalize_spec", "probe_vectors", "spec_of"]

PROBES = (
    "The quick brown fox jumps over the lazy dog.",
    "Ouvrez la boîte de dialogue Format - Cellules.",
    "Die Tabelle wird automatisch gespeichert.",
)
PROBE_MIN_COSINE = 0.99


def normalize_spec(spec: str | Path) -> str:
    """The spec as recorded: baseline names as given, folders (also after ``onnx:`` / ``bf16:`` ...) absolute."""
    from lingualite.encoders.baselines import BASELINES
    from lingualite.encoders.spec import split_runtime

    key = str(spec)
    if key in BASELINES:
        return key
    runtime, rest = split_runtime(key)
    if runtime is not None:
        return f"{runtime}:{Path(rest).resolve()}"
    return str(Path(key).resolve()) if Path(key).exists() else key


def spec_of(encoder: Any) -> str | None:
    """An encoder object's own spec when it says (a ``spec`` attribute), else None."""
    spec = getattr(encoder, "spec", None)
    return normalize_spec(spec) if isinstance(spec, str | Path) else None


def dense(
    encoder: Any, texts: list[str], queries: bool = False, dimensions: int | None = None, marks: bool = True
) -> np.ndarray:
    """L2-normalised float32 vectors of ``texts`` (``encode_queries`` for queries when the encoder has it);
    with ``dimensions``, their first components, renormalised (:func:`lingualite.vectors.truncation.truncate`).
    A text with no token the model knows gets a zero row (:func:`lingualite.encoders.known_tokens.mark`):
    documents are refused or skipped by the caller, a query is refused here (``queries[i]``). ``marks`` False:
    the vectors as the model gives them (:data:`PROBES`, which identify the model, whatever it knows)."""
    from scipy import sparse

    from lingualite.encoders.base import require_standalone
    from lingualite.encoders.known_tokens import mark, marked, refusal

    require_standalone(encoder, "build or search an index")
    fn = getattr(encoder, "encode_queries", None) if queries else None
    vectors = (fn if callable(fn) else encoder.encode)(list(texts))
    if sparse.issparse(vectors):
        raise LinguaLiteError(
            f"{getattr(encoder, 'name', 'encoder')}: gives sparse (lexical) vectors, which FAISS cannot index; "
            "use a dense model"
        )
    vectors = np.array(vectors, dtype=np.float32, copy=True).reshape(len(texts), -1)
    if marks:
        vectors = mark(encoder, list(texts), vectors)
    if queries and (rows := marked(vectors)).size:
        raise refusal(None, int(rows[0]), texts[int(rows[0])], "queries")
    if dimensions is not None:
        return truncate(vectors, dimensions, normalize=True)
    vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    return vectors


def probe_vectors(encoder: Any, dimensions: int | None = None) -> list[list[float]]:
    return [
        [round(float(x), 6) for x in row]
        for row in dense(encoder, list(PROBES), dimensions=dimensions, marks=False)
    ]


def check_encoder(encoder: Any, info: dict[str, Any], index: Path) -> None:
    """Raise a one-line :class:`LinguaLiteError` unless ``encoder`` is the model ``index`` was built with."""
    built = info["model_spec"]
    spec, name = spec_of(encoder), getattr(encoder, "name", type(encoder).__name__)
    if spec is not None and spec != built:
        raise LinguaLiteError(
            f"{index}: was built with model {built}, not {spec}; use that model or build a new index"
        )
    if spec is None and name != info.get("encoder_name"):
        raise LinguaLiteError(
            f"{index}: was built with model {built} (encoder {info.get('encoder_name')}), not encoder {name}; "
            "use that model or build a new index"
        )
    dimension = int(getattr(encoder, "dimension", 0) or 0)
    model_dimension = int(info.get("model_dimension") or info["dimension"])  # before any --dimensions
    if dimension and dimension != model_dimension:
        raise LinguaLiteError(
            f"{index}: was built with model {built} ({model_dimension}-d vectors), not {spec or name} "
            f"({dimension}-d)"
        )
    recorded = np.asarray(info.get("probes") or [], dtype=np.float32)
    if recorded.size:
        got = dense(encoder, list(PROBES), dimensions=info.get("truncate_dim"), marks=False)
        if got.shape != recorded.shape or not _same_probes(got, recorded):
            raise LinguaLiteError(
                f"{index}: model {spec or built} gives other vectors than when the index was built (the model "
                "changed since); build the index again"
            )


def _same_probes(got: np.ndarray, recorded: np.ndarray) -> bool:
    """The same model by its probe vectors: the same probes without a vector (zero rows: a probe none of whose
    tokens the model knows, which the static encoder gives as zeros), and the others at cosine >= 0.99."""
    empty_got, empty_recorded = ~np.any(got != 0, axis=1), ~np.any(recorded != 0, axis=1)
    if not np.array_equal(empty_got, empty_recorded):
        return False
    rows = ~empty_got
    return not rows.any() or float(np.min(np.sum(got[rows] * recorded[rows], axis=1))) >= PROBE_MIN_COSINE
