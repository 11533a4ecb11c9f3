"""Request and response bodies of the HTTP API (pydantic models; they also make ``/openapi.json``).

Requests are strict (``"texts": [1]`` or ``"normalize": "yes"`` is a 422, not silently converted) and refuse
unknown fields, so a typo such as ``"text"`` is reported instead of ignored.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from lingualite.vectors.normalization import NORMALIZE, NORMALIZE_HELP

__all__ = [
    "EmbeddingsRequest",
    "EmbeddingsResponse",
    "EncodeRequest",
    "EncodeResponse",
    "HealthResponse",
    "HitOut",
    "SearchRequest",
    "SearchResponse",
]

_STRICT = ConfigDict(strict=True, extra="forbid")


class EncodeRequest(BaseModel):
    model_config = _STRICT
    texts: list[str] = Field(description="Sentences in any language (limits: see /health).")
    normalize: bool = Field(NORMALIZE, description=NORMALIZE_HELP.split(";")[0] + ".")


class EncodeResponse(BaseModel):
    vectors: list[list[float]]
    dimension: int
    model: str


class SearchRequest(BaseModel):
    model_config = _STRICT
    query: str | None = Field(None, description="One query (give this or `queries`).")
    queries: list[str] | None = Field(None, description="Several queries, answered in order.")
    k: int = Field(10, ge=1, description="Hits per query (at most the server's max_k).")


class HitOut(BaseModel):
    rank: int
    doc_id: str
    score: float
    text: str
    metadata: dict[str, Any]


class QueryHits(BaseModel):
    query: str
    hits: list[HitOut]


class SearchResponse(BaseModel):
    model: str
    hits: list[HitOut] | None = Field(None, description="For `query`.")
    results: list[QueryHits] | None = Field(None, description="For `queries`, in their order.")


class HealthResponse(BaseModel):
    status: str
    model: str
    dimension: int
    index_size: int | None
    limits: dict[str, int]
    batching: dict[str, float]


# `input` is checked by the service (lingualite.serve.openai_api.input_texts), not by pydantic: a token array
# is a valid OpenAI request this server cannot take (422), anything else that is not text is a 400.
_INPUT_SCHEMA = WithJsonSchema(
    {
        "anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}],
        "description": "A text or a list of texts (token arrays are refused: this server tokenizes itself).",
    }
)


class EmbeddingsRequest(BaseModel):
    """OpenAI's embeddings request (``POST /v1/embeddings``)."""

    model_config = _STRICT
    input: Annotated[Any, _INPUT_SCHEMA]
    model: str | None = Field(None, description="The served model's name (see /health); optional.")
    dimensions: int | None = Field(None, ge=1, description="Keep the first N dimensions, renormalised.")
    encoding_format: Literal["float", "base64"] | None = Field(
        None, description="float (default) or base64 (little-endian float32 bytes)."
    )
    user: str | None = Field(None, description="Accepted and ignored.")


class EmbeddingOut(BaseModel):
    object: Literal["embedding"]
    index: int
    embedding: list[float] | str


class Usage(BaseModel):
    prompt_tokens: int
    total_tokens: int


class EmbeddingsResponse(BaseModel):
    object: Literal["list"]
    data: list[EmbeddingOut]
    model: str
    usage: Usage
