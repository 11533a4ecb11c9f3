"""The :class:`Encoder` protocol of every encoder, and :func:`fit_encoder` for those that need fitting
(:func:`require_standalone` refuses them where each text must be encoded on its own)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

from lingualite.core.errors import LinguaLiteError

if TYPE_CHECKING:
    from scipy import sparse

__all__ = ["Encoder", "fit_encoder", "require_standalone"]


@runtime_checkable
class Encoder(Protocol):
    """``encode(texts) -> (N, dimension)`` float32 array (or scipy sparse matrix for lexical baselines).

    Required: ``name`` (short label used in reports, e.g. ``minilm``), ``dimension`` (length of a vector;
    for TF-IDF the vocabulary size once fitted, 0 before) and ``encode``.

    Optional members, used when present (check with ``getattr``):

    - ``fit(texts)``: encoders that must be fitted before encoding (TF-IDF); see :func:`fit_encoder`.
    - ``encode_queries(texts)``: how to encode *queries* of an asymmetric retrieval task when the model
      encodes them differently from documents (e5: ``query:`` prefix; ``encode`` is the ``passage:`` side).
      IR tasks call it for queries and ``encode`` for documents; encoders without it use ``encode`` for both.
    - ``num_parameters() -> int | None`` and ``size_on_disk_bytes() -> int | None``: for efficiency reports.
    - ``count_tokens(texts) -> list[int]``: the tokens the model reads for each text (by its own tokenizer,
      special tokens included, after its truncation): the ``usage`` of ``/v1/embeddings``.
    """

    name: str

    @property
    def dimension(self) -> int: ...

    def encode(self, texts: list[str]) -> np.ndarray | sparse.csr_matrix: ...


def fit_encoder(encoder: Encoder, texts: Sequence[str]) -> None:
    """Fit encoders that need it (those with a ``fit`` method, e.g. TF-IDF) on ``texts``; others: no-op."""
    fit = getattr(encoder, "fit", None)
    if callable(fit):
        fit(list(texts))


def require_standalone(encoder: object, use: str) -> None:
    """Refuse, in one line, an encoder fitted on the texts it encodes together (TF-IDF) where texts arrive one
    request or one chunk at a time (``use``: what it was asked for, e.g. ``"serve requests"``)."""
    if callable(getattr(encoder, "fit", None)):
        name = getattr(encoder, "name", type(encoder).__name__)
        raise LinguaLiteError(
            f"{name}: is fitted on all the texts it encodes together (a lexical baseline), so it cannot {use}; "
            "use a model that encodes each text on its own (a model folder, use-m, minilm, e5-small, or "
            "onnx:/static:/bf16:FOLDER)"
        )
