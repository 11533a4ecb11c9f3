"""The API key (constant-time, header or bearer) and the refusal to serve off loopback without one."""

from __future__ import annotations

import httpx
import pytest
from serve_helpers import HashEncoder, running
from typer.testing import CliRunner

from lingualite.cli.main import app as cli
from lingualite.core.errors import LinguaLiteError
from lingualite.serve.app import create_app
from lingualite.serve.auth import check_bind, is_loopback, key_matches
from lingualite.serve.settings import ServeSettings

KEY = "s3cret-K3y_~!"


@pytest.fixture(scope="module")
def url() -> str:
    with running(create_app(HashEncoder(), settings=ServeSettings(api_key=KEY))) as base:
        yield base


@pytest.mark.parametrize("path", ["/health", "/encode", "/search", "/openapi.json"])
def test_without_or_with_a_wrong_key_is_401(url: str, path: str) -> None:
    method = "GET" if path in ("/health", "/openapi.json") else "POST"
    for headers in ({}, {"X-API-Key": "wrong"}, {"Authorization": "Bearer wrong"}, {"Authorization": KEY}):
        res = httpx.request(method, url + path, json={"texts": ["a"]}, headers=headers)
        assert res.status_code == 401, headers
        assert "X-API-Key" in res.json()["error"]


def test_the_right_key_in_either_header_works(url: str) -> None:
    for headers in ({"X-API-Key": KEY}, {"Authorization": f"Bearer {KEY}"}):
        res = httpx.post(f"{url}/encode", json={"texts": ["hello"]}, headers=headers)
        assert res.status_code == 200 and len(res.json()["vectors"]) == 1


def test_the_page_needs_no_key(url: str) -> None:
    assert httpx.get(f"{url}/").status_code == 200  # static HTML, no data; it asks for the key itself


def test_no_body_is_read_before_the_key_is_checked(url: str) -> None:
    res = httpx.post(f"{url}/encode", content=b"x" * 5_000_000)  # over the body limit, but 401 comes first
    assert res.status_code == 401


def test_key_matches_and_loopback() -> None:
    assert key_matches(KEY, KEY) and not key_matches(None, KEY) and not key_matches(KEY[:-1], KEY)
    assert all(map(is_loopback, ["127.0.0.1", "localhost", "::1", "[::1]", "127.0.0.2"]))
    assert not any(map(is_loopback, ["0.0.0.0", "::", "192.168.1.2", "example.org"]))


def test_binding_beyond_loopback_needs_a_key() -> None:
    check_bind("0.0.0.0", "key")  # fine with a key
    with pytest.raises(LinguaLiteError, match="refusing to bind 0.0.0.0 without an API key"):
        create_app(HashEncoder(), settings=ServeSettings(host="0.0.0.0"))


def test_cli_refuses_before_loading_the_model(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("LINGUALITE_API_KEY", raising=False)
    res = CliRunner().invoke(cli, ["serve", "--model", "no-such-model", "--host", "0.0.0.0"])
    assert res.exit_code == 2
    lines = res.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        "error: serve: refusing to bind 0.0.0.0 without an API key"
    )
