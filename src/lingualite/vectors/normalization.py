"""The one normalisation default of the vectors lingualite hands out.

Vectors are L2-normalised to unit length unless asked otherwise, so a dot product is the cosine. The search
index always stores unit vectors (its inner-product search is the cosine), and ``lingualite encode``, the
Python API (``lingualite.encode`` / ``encode_file``) and the service (``/encode``; ``/v1/embeddings`` always)
default to the same, so vectors from any of them can be compared with each other and with an index's.
"""

from __future__ import annotations

NORMALIZE = True
"""Default of ``encode --normalize/--no-normalize``, the API's ``normalize=`` and ``/encode``'s ``normalize``."""

NORMALIZE_HELP = (
    "L2-normalise each vector to unit length (cosine = dot product): the default of encode, serve and the "
    "Python API, and what the search index stores; --no-normalize keeps the model's raw vectors."
)
