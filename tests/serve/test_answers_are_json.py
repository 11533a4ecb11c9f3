"""Every answer is JSON and every refusal is one line (issue 41, smaller ones): a request without a Host
header (or with two) got uvicorn's plain-text 400; a 413 kept the connection open, so the unread body was
followed by a stray 408; a busy port printed "serving on ..." before failing."""

from __future__ import annotations

import json
import socket

from serve_helpers import HashEncoder, running
from typer.testing import CliRunner

from lingualite.cli.main import app
from lingualite.serve.app import create_app
from lingualite.serve.settings import ServeSettings


def _exchange(url: str, request: bytes, wait: float = 3.0) -> bytes:
    port = int(url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as sock:
        sock.sendall(request)
        chunks = []
        try:
            for chunk in iter(lambda: sock.recv(4096), b""):  # until the server closes
                chunks.append(chunk)
        except TimeoutError:
            pass
    return b"".join(chunks)


def _json_body(answer: bytes) -> dict:
    head, _, body = answer.partition(b"\r\n\r\n")
    assert b"content-type: application/json" in head.lower(), answer
    return json.loads(body)


def test_a_malformed_request_gets_a_json_400() -> None:
    with running(create_app(HashEncoder())) as url:
        for request in (
            b"GET /health HTTP/1.1\r\n\r\n",  # HTTP/1.1 needs a Host header
            b"GET /health HTTP/1.1\r\nHost: localhost\r\nHost: localhost\r\n\r\n",  # two
            b"GET /health HTTP/1.1\r\nHost: localhost\r\nbad header line\r\n\r\n",
        ):
            answer = _exchange(url, request)
            assert answer.startswith(b"HTTP/1.1 400"), answer
            assert "error" in _json_body(answer)


def test_a_413_closes_the_connection_and_nothing_follows() -> None:
    settings = ServeSettings(max_body_bytes=100, read_timeout=0.5)
    with running(create_app(HashEncoder(), settings=settings), settings) as url:
        body = b'{"texts": ["' + b"x" * 500 + b'"]}'
        head = f"POST /encode HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/json\r\ncontent-length: {len(body)}\r\n\r\n"
        answer = _exchange(url, head.encode() + body[:50])  # most of the body never sent
    assert answer.startswith(b"HTTP/1.1 413") and answer.count(b"HTTP/1.1") == 1, answer
    assert b"connection: close" in answer.lower()


def test_a_busy_port_fails_before_saying_serving(static_model) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        res = CliRunner().invoke(app, ["serve", "--model", f"static:{static_model}", "--port", str(port)])
    assert res.exit_code == 2, res.output
    assert "serving" not in res.output and "loading model" not in res.output, res.output
    assert f"{port}" in res.output and "in use" in res.output and res.output.count("\n") == 1, res.output
