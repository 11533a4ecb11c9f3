"""Every error the service returns is JSON ``{"error": "one line a person can act on"}`` (+ ``detail``)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

__all__ = [
    "ApiError",
    "api_error_handler",
    "http_error_handler",
    "send_error",
    "validation_error_handler",
    "validation_message",
]

Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


class ApiError(Exception):
    """A request the service refuses: HTTP ``status`` and a one-line ``message``."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


async def send_error(
    send: Send, status: int, message: str, headers: list[tuple[bytes, bytes]] | None = None
) -> None:
    """Answer from raw ASGI middleware (before FastAPI sees the request)."""
    body = json.dumps({"error": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *(headers or []),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def validation_message(errors: list[dict[str, Any]]) -> str:
    """Pydantic's errors as one line: ``texts.2: Input should be a valid string; ...``."""
    parts = []
    for err in errors[:5]:
        loc = [str(p) for p in err.get("loc", ()) if p != "body"]
        if err.get("type") == "json_invalid":
            reason = (err.get("ctx") or {}).get("error", err.get("msg", ""))
            where = f" at character {loc[0]}" if loc else ""
            parts.append(f"the body is not valid JSON ({reason}{where})")
            continue
        parts.append(f"{'.'.join(loc) or 'body'}: {err.get('msg', 'invalid')}")
    more = f" (+{len(errors) - 5} more)" if len(errors) > 5 else ""
    return "; ".join(parts) + more


async def validation_error_handler(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, RequestValidationError)
    errors = list(exc.errors())
    detail = [{k: v for k, v in e.items() if k in ("type", "loc", "msg")} for e in errors]
    return JSONResponse({"error": validation_message(errors), "detail": detail}, status_code=422)


async def api_error_handler(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return JSONResponse({"error": exc.message}, status_code=exc.status)


async def http_error_handler(request: Request, exc: Exception) -> JSONResponse:
    """Starlette's own errors (404 unknown path, 405 wrong method) in the same ``{"error": ...}`` shape."""
    assert isinstance(exc, HTTPException)
    message = f"{exc.detail}: {request.method} {request.url.path}"
    return JSONResponse({"error": message}, status_code=exc.status_code, headers=exc.headers)
