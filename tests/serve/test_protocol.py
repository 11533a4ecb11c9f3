"""Slow clients are timed out (slowloris, #33): headers and body each have --read-timeout seconds, then 408
and the connection is closed. Raw sockets, against the real uvicorn server with the protocol `serve` uses."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from serve_helpers import HashEncoder, running

from lingualite.serve.app import create_app
from lingualite.serve.settings import ServeSettings

TIMEOUT = 0.5
SETTINGS = ServeSettings(read_timeout=TIMEOUT)


@pytest.fixture(scope="module")
def port() -> Iterator[int]:
    with running(create_app(HashEncoder(), settings=SETTINGS), SETTINGS) as url:
        yield int(url.rsplit(":", 1)[1])


@contextmanager
def _connect(port: int) -> Iterator[socket.socket]:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        yield sock


def _until_closed(sock: socket.socket) -> tuple[bytes, float]:
    """Everything the server sends until it closes the connection, and how long that took."""
    start, data = time.monotonic(), b""
    while chunk := sock.recv(4096):
        data += chunk
    return data, time.monotonic() - start


def _one_response(sock: socket.socket) -> bytes:
    """One whole response (headers, then content-length bytes of body) from a kept-alive connection."""
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(4096)
    head, body = data.split(b"\r\n\r\n", 1)
    length = next(
        int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")
    )
    while len(body) < length:
        body += sock.recv(4096)
    return head + b"\r\n\r\n" + body


def _error(answer: bytes) -> str:
    return json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"]


def test_a_client_that_sends_nothing_is_closed_with_408(port: int) -> None:
    with _connect(port) as sock:
        answer, took = _until_closed(sock)
    assert answer.startswith(b"HTTP/1.1 408") and "did not arrive within 0.5 s" in _error(answer)
    assert took < TIMEOUT + 1.5


def test_headers_sent_one_byte_at_a_time_are_cut_off(port: int) -> None:
    request = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200
    start = time.monotonic()
    with _connect(port) as sock:
        try:
            for byte in request:  # slowloris: a byte every 20 ms, headers never finished
                sock.sendall(bytes([byte]))
                time.sleep(0.02)
        except OSError:  # the server closed the connection while we were still sending
            pass
        answer, _ = _until_closed(sock)
    assert answer.startswith(b"HTTP/1.1 408")
    assert time.monotonic() - start < TIMEOUT + 1.5  # not the 4 s the client wanted


def test_a_body_that_never_ends_gets_408(port: int) -> None:
    head = b"POST /encode HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n"
    with _connect(port) as sock:
        sock.sendall(head + b'{"texts": ["ha')  # 14 of 100 bytes, then nothing
        answer, took = _until_closed(sock)
    assert answer.startswith(b"HTTP/1.1 408") and "request body did not arrive" in _error(answer)
    assert took < TIMEOUT + 1.5


def test_a_refused_request_whose_body_trickles_is_closed(port: int) -> None:
    head = b"POST /encode HTTP/1.1\r\nHost: evil.example\r\ncontent-length: 100000\r\n\r\n"
    with _connect(port) as sock:
        sock.sendall(head)
        start = time.monotonic()
        closed = False
        while time.monotonic() - start < TIMEOUT + 2:  # keep the body trickling, as slowloris would
            try:
                sock.sendall(b"x")
            except OSError:
                closed = True
                break
            time.sleep(0.05)
        answer, _ = _until_closed(sock) if not closed else (b"", 0.0)
    assert closed or answer.startswith(b"HTTP/1.1 400")  # answered 400 (Host), then cut off
    assert time.monotonic() - start < TIMEOUT + 2


def test_a_normal_keep_alive_client_is_not_disturbed(port: int) -> None:
    request = b"GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    with _connect(port) as sock:
        for _ in range(3):  # three requests on one connection, with pauses shorter than the timeout
            sock.sendall(request)
            answer = _one_response(sock)
            assert answer.startswith(b"HTTP/1.1 200") and b'"status": "ok"' in answer
            time.sleep(TIMEOUT * 0.6)
