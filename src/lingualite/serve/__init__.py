"""``lingualite serve``: sentence vectors and semantic search over HTTP, with a search page.

Needs the ``serve`` extra (fastapi, uvicorn, httpx). See :func:`lingualite.serve.app.create_app`.
"""

from __future__ import annotations

from lingualite.serve.settings import ServeSettings

__all__ = ["ServeSettings", "create_app"]


def __getattr__(name: str) -> object:
    if name == "create_app":  # imported on use: fastapi is an optional dependency
        from lingualite.serve.app import create_app

        return create_app
    raise AttributeError(name)
