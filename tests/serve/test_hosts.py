"""Trusted hosts: only requests whose Host header names the server are answered (DNS rebinding, #33)."""

from __future__ import annotations

import socket

import httpx
import pytest
from serve_helpers import HashEncoder, running

from lingualite.core.errors import LinguaLiteError
from lingualite.serve.app import create_app
from lingualite.serve.hosts import allowed_hosts, host_allowed, host_of
from lingualite.serve.settings import ServeSettings


@pytest.mark.parametrize(
    ("header", "host"),
    [
        ("localhost:8000", "localhost"),
        ("LocalHost.", "localhost"),
        ("127.0.0.1", "127.0.0.1"),
        ("[::1]:8000", "::1"),
        ("[0:0:0:0:0:0:0:1]", "::1"),
        ("search.example.org:443", "search.example.org"),
        ("::1", None),  # an IPv6 address must be in brackets
        ("evil.example@127.0.0.1", None),
        ("a b", None),
        ("[::zz]", None),
        ("", None),
    ],
)
def test_host_headers_are_parsed_like_a_browser_sends_them(header: str, host: str | None) -> None:
    assert host_of(header) == host


def test_the_defaults_and_added_names() -> None:
    local = allowed_hosts("127.0.0.1")
    assert local == {"localhost", "127.0.0.1", "::1"}
    assert host_allowed("::1", local) and not host_allowed("evil.example", local)
    added = allowed_hosts("127.0.0.1", ["Search.Example.org.", "*.corp.example"])
    assert host_allowed("search.example.org", added) and host_allowed("a.b.corp.example", added)
    assert not host_allowed("corp.example.evil", added)
    assert allowed_hosts("::1") == {"localhost", "127.0.0.1", "::1"}
    wildcard = allowed_hosts("0.0.0.0")
    assert socket.gethostname().lower() in wildcard and "0.0.0.0" in wildcard
    for bad in ("", "ev*l.example", "*example.org", "*.*.org"):
        with pytest.raises(LinguaLiteError, match="--allowed-host"):
            allowed_hosts("127.0.0.1", [bad])


def _post(url: str, host: str | None) -> httpx.Response:
    headers = {} if host is None else {"host": host}
    return httpx.post(f"{url}/encode", json={"texts": ["hello"]}, headers=headers)


def test_a_rebinding_host_gets_400_and_the_real_names_are_served() -> None:
    with running(create_app(HashEncoder())) as url:
        port = url.rsplit(":", 1)[1]
        for host in ("evil.example", f"evil.example:{port}", "127.0.0.1.evil.example", "[::2]"):
            res = _post(url, host)
            assert res.status_code == 400, host
            assert "is not a name this server answers to" in res.json()["error"]
            assert httpx.get(f"{url}/", headers={"host": host}).status_code == 400  # the page too
        for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"[::1]:{port}", None):
            assert _post(url, host).status_code == 200, host


def test_allowed_host_adds_names_and_star_turns_the_check_off() -> None:
    settings = ServeSettings(allowed_hosts=("search.example.org",))
    with running(create_app(HashEncoder(), settings=settings)) as url:
        assert _post(url, "search.example.org").status_code == 200
        assert _post(url, "other.example.org").status_code == 400
    with running(create_app(HashEncoder(), settings=ServeSettings(allowed_hosts=("*",)))) as url:
        assert _post(url, "anything.example").status_code == 200


def test_a_request_without_host_is_refused() -> None:
    with running(create_app(HashEncoder())) as url:
        port = int(url.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
            sock.sendall(b"GET /health HTTP/1.0\r\n\r\n")  # HTTP/1.0 may leave Host out
            answer = b"".join(iter(lambda: sock.recv(4096), b""))  # until the server closes
    assert answer.startswith(b"HTTP/1.1 400") and b'"error": "no Host header' in answer
