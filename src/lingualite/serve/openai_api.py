"""OpenAI's embeddings API (``POST /v1/embeddings``) on top of the service: what the request means and how
the answer looks, so that OpenAI's client, LangChain's ``OpenAIEmbeddings`` and LlamaIndex's
``OpenAILikeEmbedding`` talk to ``lingualite serve`` as they talk to OpenAI, TEI or vLLM.

- ``input``: a text or a list of texts (:func:`input_texts`). Token arrays (a list of ints, or of lists of
  ints, what OpenAI's own clients send after tiktoken) are a valid OpenAI request this server cannot take
  (its model has its own tokenizer): 422. Anything else is a 400, as OpenAI answers a malformed request.
- ``model``: optional; checked against the served model's names (:class:`ModelNames`, 404
  ``model_not_found``) and echoed.
- ``dimensions``: the first N dimensions, renormalised to unit length (:func:`lingualite.vectors.truncation.truncate`, the rule of `encode --dimensions`);
  more than the model has is a 400.
- ``encoding_format``: ``float`` (default) or ``base64``: each vector's little-endian float32 bytes, which
  OpenAI's client decodes with ``numpy.frombuffer(..., dtype="float32")``.
- ``usage``: the tokens the model reads, counted by its own tokenizer (:func:`token_counter`).
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.serve.errors import ApiError
from lingualite.serve.settings import ServeSettings

__all__ = [
    "ModelNames",
    "check_dimensions",
    "embeddings_body",
    "input_texts",
    "token_counter",
]


def _is_token_ids(value: object) -> bool:
    return isinstance(value, list) and bool(value) and all(type(v) is int for v in value)


def input_texts(value: Any) -> list[str]:
    """The texts of OpenAI's ``input``: a string, or a list of strings (the list's limits are checked later).

    :raises ApiError: 422 for token arrays, 400 for any other value."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return value
    if _is_token_ids(value) or (isinstance(value, list) and value and all(_is_token_ids(v) for v in value)):
        raise ApiError(
            422,
            "input: token arrays are not supported; send the texts themselves (this server tokenizes them "
            "with its model's own tokenizer). LangChain's OpenAIEmbeddings sends token arrays unless it is "
            "given check_embedding_ctx_length=False",
            "input",
            "unsupported_input",
        )
    raise ApiError(400, "input: must be a string or a list of strings", "input")


class ModelNames:
    """The names a client may give as ``model``: ``--served-model-name`` values, the model spec as given and
    as recorded (folders absolute), the model folder's name and the encoder's own name. The first is the
    name the server shows (``primary``)."""

    def __init__(self, settings: ServeSettings, encoder_name: str) -> None:
        names = list(settings.served_model_names)
        spec = settings.model_spec
        if spec is not None:
            from lingualite.encoders.spec import split_runtime
            from lingualite.search.encoder_check import normalize_spec

            names += [spec, normalize_spec(spec)]
            folder = Path(split_runtime(spec)[1])
            if folder.exists():
                names.append(folder.resolve().name)
        names.append(encoder_name)
        self.names = tuple(dict.fromkeys(names))  # in order, without repeats
        self.primary = self.names[0]

    def check(self, requested: str | None) -> str:
        """The name to echo: ``requested`` when it is one of ours, the primary name when none was given.

        :raises ApiError: 404 ``model_not_found`` for another name."""
        if requested is None:
            return self.primary
        if requested in self.names:
            return requested
        shown = requested if len(requested) <= 200 else f"{requested[:200]}..."
        others = (
            f" (also known as {', '.join(repr(n) for n in self.names[1:])})" if len(self.names) > 1 else ""
        )
        raise ApiError(
            404,
            f"The model {shown!r} does not exist on this server; it serves {self.primary!r}{others}",
            "model",
            "model_not_found",
        )


def check_dimensions(dimensions: int | None, full: int) -> int:
    """The dimensions to return: ``full`` when none were asked; 400 for more than the model has."""
    if dimensions is None:
        return full
    if dimensions > full:
        raise ApiError(
            400,
            f"dimensions: {dimensions} is more than this model's {full}; ask for 1 to {full}",
            "dimensions",
        )
    return dimensions


def _words(texts: list[str]) -> list[int]:
    return [len(text.split()) for text in texts]


def token_counter(encoder: object) -> Callable[[list[str]], list[int]]:
    """Tokens per text as the model reads them: its own tokenizer's count (``encoder.count_tokens``: special
    tokens included, after the model's truncation); for an encoder without one, whitespace-separated words."""
    count = getattr(encoder, "count_tokens", None)
    return count if callable(count) else _words


def embeddings_body(
    vectors: np.ndarray, model: str, encoding_format: str | None, tokens: int
) -> dict[str, Any]:
    """OpenAI's ``CreateEmbeddingResponse``: ``{"object": "list", "data": [...], "model", "usage"}``."""
    embeddings: Sequence[Any]
    if encoding_format == "base64":
        little = np.ascontiguousarray(vectors, dtype="<f4")
        embeddings = [base64.b64encode(row.tobytes()).decode("ascii") for row in little]
    else:
        embeddings = vectors.tolist()
    return {
        "object": "list",
        "data": [{"object": "embedding", "index": i, "embedding": e} for i, e in enumerate(embeddings)],
        "model": model,
        "usage": {"prompt_tokens": tokens, "total_tokens": tokens},
    }
