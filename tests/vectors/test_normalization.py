"""One normalisation default (lingualite.vectors.normalization.NORMALIZE) for encode, the Python API and the service,
stated in each --help along with what the index stores."""

from __future__ import annotations

import inspect

from typer.testing import CliRunner

from lingualite.cli.main import app
from lingualite.cli.use_commands import encode as encode_command
from lingualite.encoding.api import encode, encode_file
from lingualite.encoding.model import Encoder
from lingualite.serve.schemas import EncodeRequest
from lingualite.vectors.normalization import NORMALIZE


def test_every_surface_reads_the_one_default() -> None:
    assert NORMALIZE is True  # the index can only store unit vectors, so the others default to them too
    for function in (encode_command, encode, encode_file, Encoder.encode):
        assert inspect.signature(function).parameters["normalize"].default is NORMALIZE, function
    assert EncodeRequest(texts=["a"]).normalize is NORMALIZE


def test_each_help_states_it() -> None:
    runner = CliRunner()

    def help_of(*command: str) -> str:
        text = runner.invoke(app, [*command, "--help"]).output
        return " ".join(text.replace("│", " ").split())  # the help's words, whatever the panel's wrapping

    assert "[default: normalize]" in help_of("encode") and "what the search index stores" in help_of("encode")
    assert "L2-normalised (unit length) unless /encode" in help_of("serve")
    assert "stored L2-normalised (unit length" in help_of("index", "build")
