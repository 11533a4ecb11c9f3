"""The one rule for a text none of whose tokens the model knows (issue #41): it never becomes a vector.

Such a text (only emoji for a static model, a script its vocabulary never saw, only unseen words for the
TF-IDF baseline) gets the ``[UNK]`` row, an all-zero row or a vector of ``[CLS]``/``[SEP]`` alone: the same
vector for every such text, which search, mining and evaluation would silently rank as similar to nothing
(or to each other). Like a blank line (:data:`lingualite.data.lines.BLANK`), it is bad input:

- :func:`no_known_token` says which texts of an encoded batch have no known token: the encoder's own
  ``no_known_token(texts)`` (static and ONNX: every token is the unknown one, or there is none; a
  sentence-transformers folder: only ``[UNK]``), and, for every encoder, a vector that is all zeros (TF-IDF:
  no n-gram of its vocabulary; it has no direction);
- :func:`mark` sets those rows to zero in what :func:`lingualite.encoding.to_file.dense_vectors` returns, so
  every bulk path (``encode`` on every engine, ``mine``'s shards) carries the mark to its writer, which
  refuses the row with :func:`refusal` (``FILE:LINE``, ``texts[i]``) or, with ``--skip-bad``, skips and
  counts it (:func:`marked`);
- ``serve`` answers such a text with a 422 (:mod:`lingualite.serve.service`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from scipy import sparse

from lingualite.core.errors import BadInputError
from lingualite.models.checked_loading import tokenizer_unknown_id

__all__ = [
    "NO_KNOWN_TOKEN",
    "boundary_ids",
    "known_lines",
    "known_pairs",
    "mark",
    "marked",
    "no_known_token",
    "refusal",
    "shortened",
    "tokenizer_unknown_id",
    "unknown_flat",
    "unknown_ids",
    "zero_rows",
]

NO_KNOWN_TOKEN = (
    "the model knows no token of this text (emoji, symbols, a script or words it never saw): its vector "
    "would be the same for every such text and match nothing"
)
SKIP_HINT = "remove it, or pass --skip-bad to skip and count such lines"


def shortened(text: str, width: int = 40) -> str:
    """``text`` as a quoted repr of at most about ``width`` characters (the error's excerpt)."""
    return repr(text if len(text) <= width else text[: width - 1] + "…")


def refusal(
    path: str | Path | None, line: int | None, text: str | None, what: str = "texts"
) -> BadInputError:
    """The one-line error for such a text: ``path:line`` (1-based; ``path`` alone when ``line`` is None: a
    ``where`` such as ``docs.jsonl:3``), or ``what[line]`` (0-based) when ``path`` is None (a list in memory,
    where there is nothing to skip)."""
    excerpt = f" ({shortened(text)})" if text is not None else ""
    if path is None:
        return BadInputError(f"{what}[{line}]", None, f"{NO_KNOWN_TOKEN}{excerpt}; remove it or give it text")
    return BadInputError(path, line, f"{NO_KNOWN_TOKEN}{excerpt}; {SKIP_HINT}")


def unknown_ids(
    ids_lists: Sequence[Sequence[int]], unknown: int | None, ignore: set[int] | None = None
) -> np.ndarray:
    """Per text: True when none of its token ids (``ignore``: special ids left out) is a known one, that is
    when every id is ``unknown`` or there is none."""
    ignore = ignore or set()
    return np.fromiter(
        (all(i == unknown or i in ignore for i in ids) for ids in ids_lists), bool, len(ids_lists)
    )


def boundary_ids(tokenizer: Any) -> set[int]:
    """The ids of a ``tokenizers.Tokenizer``'s pieces that carry no content: word-boundary marks alone, such
    as a Unigram vocabulary's "▁" (an emoji-only line is ``["▁", "<unk>"]`` there)."""
    return {i for token, i in tokenizer.get_vocab().items() if token.strip("▁Ġ ") == ""}


def unknown_flat(
    ids: np.ndarray, lengths: np.ndarray, unknown: int | None, ignore: set[int] | None = None
) -> np.ndarray:
    """:func:`unknown_ids` of all texts' ids in one flat array (``lengths``: each text's count), in numpy."""
    lengths = np.asarray(lengths, dtype=np.int64)
    known = np.asarray(ids) != (-1 if unknown is None else unknown)
    if ignore:
        known &= ~np.isin(ids, np.fromiter(ignore, np.int64, len(ignore)))
    rows = np.repeat(np.arange(len(lengths)), lengths)
    return np.bincount(rows, weights=known, minlength=len(lengths)) == 0


def zero_rows(vectors: Any) -> np.ndarray:
    """Per row: True when the vector is all zeros (dense or sparse)."""
    if sparse.issparse(vectors):
        return np.asarray(abs(vectors).sum(axis=1)).ravel() == 0
    vectors = np.asarray(vectors)
    if vectors.ndim != 2 or not len(vectors):
        return np.zeros(len(vectors), bool)
    return ~np.any(vectors != 0, axis=1)


def no_known_token(encoder: Any, texts: list[str], vectors: Any = None) -> np.ndarray:
    """Per text of ``texts`` (encoded by ``encoder`` into ``vectors``; None: before encoding, by the encoder's
    own test alone): True when the model knows none of its tokens (see the module docstring)."""
    own = getattr(encoder, "no_known_token", None)
    flags = zero_rows(vectors) if vectors is not None else np.zeros(len(texts), bool)
    if vectors is not None and getattr(encoder, "zeroes_unknown_rows", False):
        return flags  # the encoder zeroed them while encoding (no second tokenization)
    if callable(own) and len(texts):
        flags = flags | np.asarray(own(texts), dtype=bool)
    return flags


def known_lines(
    encoder: Any,
    path: str | Path | None,
    lines: Sequence[int],
    texts: list[str],
    skip_bad: bool,
    what: str = "texts",
) -> np.ndarray:
    """Per text read from ``path`` (``lines``: each one's 1-based line): True when the model knows one of its
    tokens, tested before encoding. Without ``skip_bad`` the earliest line that fails is refused. An encoder
    fitted on the texts it encodes (TF-IDF) knows every text of its input: all True."""
    if callable(getattr(encoder, "fit", None)) or not texts:
        return np.ones(len(texts), bool)
    flags = no_known_token(encoder, texts)
    if flags.any() and not skip_bad:
        first = min(range(len(texts)), key=lambda i: (not flags[i], lines[i]))
        raise refusal(path, lines[first], texts[first], what)
    return ~flags


def mark(encoder: Any, texts: list[str], vectors: np.ndarray) -> np.ndarray:
    """``vectors`` (dense float rows of ``texts``) with the rows of texts that have no known token set to
    zero: the mark every writer checks with :func:`marked`."""
    flags = no_known_token(encoder, texts, vectors)
    if flags.any():
        vectors[flags] = 0.0
    return vectors


def marked(vectors: np.ndarray) -> np.ndarray:
    """The (0-based) rows of ``vectors`` that :func:`mark` set to zero (or that are zero anyway)."""
    return np.flatnonzero(zero_rows(vectors))


def known_pairs(encoder: Any, path: Path, skip_bad: bool, skipped: list[int]) -> Any:
    """The ``check`` of :func:`lingualite.data.pairs.load_xsr_pairs` (``eval xsr``, the suite): the pairs whose
    two sides hold a token the model knows; the lines of the others go to ``skipped`` (under ``skip_bad``;
    without it the first is refused)."""

    def check(records: list[Any]) -> list[Any]:
        n = len(records)
        lines = [p.line for p in records] * 2
        keep = known_lines(
            encoder, path, lines, [p.src for p in records] + [p.tgt for p in records], skip_bad
        )
        both = keep[:n] & keep[n:]
        skipped.extend(p.line for p, ok in zip(records, both, strict=True) if not ok)
        return [p for p, ok in zip(records, both, strict=True) if ok]

    return check
