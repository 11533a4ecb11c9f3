"""The :class:`Encoder` protocol of every encoder, and :func:`fit_encoder` for those that need fitting."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

import numpy as np

if TYPE_CHECKING:
    from scipy import sparse

__all__ = ["Encoder", "fit_encoder"]


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
