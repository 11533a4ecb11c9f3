"""`serve --allowed-host` takes a host, not a URL (issue 41, item 7): `name:port` or `http://name` started a
server that no request could match (the Host check compares host names, without port). Refused at start,
before the model loads, with the accepted forms."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from lingualite.cli.main import app
from lingualite.core.errors import LinguaLiteError
from lingualite.serve.hosts import allowed_hosts, host_allowed
from lingualite.serve.settings import ServeSettings

runner = CliRunner()


@pytest.mark.parametrize(
    ("given", "says"),
    [
        ("search.example.org:8000", "without the port"),
        ("http://search.example.org", "without the scheme"),
        ("https://search.example.org/", "without the scheme"),
        ("search.example.org/path", "a host name"),
        ("user@search.example.org", "a host name"),
        ("[::1]:8000", "without the port"),
        ("a b", "a host name"),
    ],
)
def test_a_url_or_a_port_is_refused_with_the_accepted_forms(given: str, says: str) -> None:
    with pytest.raises(LinguaLiteError, match=says) as info:
        ServeSettings(allowed_hosts=(given,))
    assert "*.example.org" in str(info.value)
    res = runner.invoke(app, ["serve", "--model", "no-such-model", "--allowed-host", given])
    assert res.exit_code == 2 and "--allowed-host" in res.output and says in res.output, res.output
    assert "loading model" not in res.output


@pytest.mark.parametrize("given", ["search.example.org", "Search.Example.org.", "192.0.2.7", "::1", "[::1]",
                                   "*.example.org", "*", "my-host_1"])  # fmt: skip
def test_hosts_addresses_and_patterns_are_accepted(given: str) -> None:
    ServeSettings(allowed_hosts=(given,))
    patterns = allowed_hosts("127.0.0.1", [given])
    if given not in ("*", "*.example.org"):
        from lingualite.serve.hosts import host_of

        assert host_allowed(
            host_of(given if ":" not in given or given.startswith("[") else f"[{given}]"), patterns
        )
