"""Every error the service returns is JSON ``{"error": "one line a person can act on"}`` (+ ``detail``).

On the OpenAI-compatible routes (``/v1/...``) the same errors take OpenAI's shape instead,
``{"error": {"message": ..., "type": ..., "param": ..., "code": ...}}`` (:func:`error_body` decides by the
path), so that OpenAI's clients show the message; request validation errors there are 400, as OpenAI answers.

Starlette answers an unexpected exception with a plain-text 500 and uvicorn logs its traceback;
:class:`JsonErrorMiddleware` (the outermost layer) answers it in the same JSON shape instead, and logs one
line: no traceback reaches a client or the log.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

__all__ = [
    "OPENAI_PREFIX",
    "ApiError",
    "JsonErrorMiddleware",
    "api_error_handler",
    "error_body",
    "http_error_handler",
    "send_error",
    "shown",
    "validation_error_handler",
    "validation_message",
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
logger = logging.getLogger("lingualite.serve")

OPENAI_PREFIX = "/v1/"
# OpenAI's error ``code`` for the statuses that have a fixed one (others: None, or the ApiError's own code).
_OPENAI_CODES = {401: "invalid_api_key", 408: "timeout", 413: "request_too_large"}


class ApiError(Exception):
    """A request the service refuses: HTTP ``status`` and a one-line ``message``; ``param`` (the request
    field at fault) and ``code`` (e.g. ``model_not_found``) are shown on the OpenAI-compatible routes."""

    def __init__(self, status: int, message: str, param: str | None = None, code: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.param = param
        self.code = code


def error_body(
    path: str, status: int, message: str, param: str | None = None, code: str | None = None
) -> dict[str, Any]:
    """The JSON of an error answered on ``path``: lingualite's ``{"error": message}``, or OpenAI's shape
    (``type`` ``invalid_request_error`` for a 4xx, ``server_error`` for a 5xx) under ``/v1/``."""
    if not path.startswith(OPENAI_PREFIX):
        return {"error": message}
    kind = "server_error" if status >= 500 else "invalid_request_error"
    return {
        "error": {"message": message, "type": kind, "param": param, "code": code or _OPENAI_CODES.get(status)}
    }


async def send_error(
    send: Send,
    status: int,
    message: str,
    headers: list[tuple[bytes, bytes]] | None = None,
    path: str = "",
) -> None:
    """Answer from raw ASGI middleware (before FastAPI sees the request); ``path``: the request's, which
    chooses the error's shape (:func:`error_body`)."""
    body = json.dumps(error_body(path, status, message)).encode()
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


def shown(text: str) -> str:
    """``text`` as it may appear inside a one-line message: a client's key or path with a newline, a control
    character or a lone surrogate is escaped as JSON escapes it (``\\n``, ``\\ud800``)."""
    return text if text.isprintable() else json.dumps(text)[1:-1]


def validation_message(errors: list[dict[str, Any]]) -> str:
    """Pydantic's errors as one line: ``texts.2: Input should be a valid string; ...``."""
    parts = []
    for err in errors[:5]:
        loc = [shown(str(p)) for p in err.get("loc", ()) if p != "body"]
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
    if request.url.path.startswith(OPENAI_PREFIX):  # OpenAI answers a malformed request with 400
        loc = [str(p) for p in (errors[0].get("loc", ()) if errors else ()) if p != "body"]
        param = shown(".".join(loc)) if loc and errors[0].get("type") != "json_invalid" else None
        body = error_body(request.url.path, 400, validation_message(errors), param)
        return JSONResponse(body, status_code=400)
    detail = [
        {
            "type": e.get("type"),
            "loc": [shown(p) if isinstance(p, str) else p for p in e.get("loc", ())],
            "msg": shown(str(e.get("msg", ""))),
        }
        for e in errors
    ]
    return JSONResponse({"error": validation_message(errors), "detail": detail}, status_code=422)


async def api_error_handler(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    body = error_body(request.url.path, exc.status, exc.message, exc.param, exc.code)
    return JSONResponse(body, status_code=exc.status)


async def http_error_handler(request: Request, exc: Exception) -> JSONResponse:
    """Starlette's own errors (404 unknown path, 405 wrong method) in the same ``{"error": ...}`` shape."""
    assert isinstance(exc, HTTPException)
    message = f"{exc.detail}: {request.method} {shown(request.url.path)}"
    body = error_body(request.url.path, exc.status_code, message)
    return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)


def one_line(exc: BaseException) -> str:
    """``Type: first line of the message``."""
    first = (str(exc).strip().splitlines() or [""])[0]
    return f"{type(exc).__name__}: {first}" if first else type(exc).__name__


class JsonErrorMiddleware:
    """ASGI middleware: an exception nothing else handled becomes a JSON 500 (one line in the log)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def tracked(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, tracked)
        except Exception as exc:
            logger.error("%s %s failed: %s", scope.get("method"), scope.get("path"), one_line(exc))
            if not started:  # else the answer is half sent: the server closes the connection
                await send_error(send, 500, f"internal error: {one_line(exc)}", path=scope.get("path", ""))
