"""Every number lingualite takes is finite (issue 41, item 5): `mine --threshold nan|inf|-inf` ran,
`--read-timeout inf` said "must be > 0", `--threshold -1e308` printed numpy's overflow warning. One rule: a
float option of any command, and a float parameter of the Python API, that is NaN or infinite is refused in
one line naming it."""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

from lingualite.cli.finite_options import takes_floats
from lingualite.cli.main import app
from lingualite.core.errors import LinguaLiteError

runner = CliRunner()


def _float_options(command, path: tuple[str, ...] = ()):
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        yield from _float_options(sub, (*path, name))
    for param in command.params:
        if takes_floats(param):
            yield path, command, param


def test_every_float_option_of_every_command_refuses_nan_and_infinities() -> None:
    root = typer.main.get_command(app)
    found = list(_float_options(root))
    names = {f"{' '.join(path)} {param.opts[0]}" for path, _, param in found}
    assert {
        "mine --threshold",
        "serve --read-timeout",
        "align --skip-cost",
        "prepare --valid-fraction",
    } <= names
    for path, command, param in found:
        ctx = typer.Context(command, info_name=path[-1])
        for bad in ("nan", "inf", "-inf", "NaN", "1e999"):
            with pytest.raises(typer.BadParameter, match="finite"):
                param.process_value(ctx, bad)
        if param.name != "skip_percentile":  # 0.5: a value in every float option's range
            assert math.isfinite(param.process_value(ctx, "0.5"))


@pytest.mark.parametrize("value", ["nan", "inf", "-inf"])
def test_mine_threshold_and_serve_read_timeout(tmp_path: Path, value: str) -> None:
    src, tgt = tmp_path / "a.txt", tmp_path / "b.txt"
    src.write_text("the cat\n")
    tgt.write_text("le chat\n")
    res = runner.invoke(
        app,
        [
            "mine",
            "--model",
            "tfidf",
            "--src",
            str(src),
            "--tgt",
            str(tgt),
            "--output",
            str(tmp_path / "p.tsv"),
            f"--threshold={value}",
        ],
    )
    assert res.exit_code == 2 and "--threshold" in res.output and "finite" in res.output, res.output
    res = runner.invoke(app, ["serve", "--model", "tfidf", f"--read-timeout={value}"])
    assert res.exit_code == 2 and "--read-timeout" in res.output and "finite" in res.output, res.output


def test_a_huge_threshold_is_compared_without_overflow() -> None:
    from lingualite.mining.margin import combine

    best = (np.array([0, 1]), np.array([1.2, 0.9], dtype=np.float32), np.array([0.8, 0.5], dtype=np.float32))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(combine(best, best, "forward", -1e308)) == 2
        assert len(combine(best, best, "forward", 1e308)) == 0


def test_float_parameters_of_the_api_refuse_nan_and_infinities() -> None:
    from lingualite.alignment.dp import VecalignConfig
    from lingualite.alignment.gale_church import GaleChurchConfig
    from lingualite.mining.margin import combine
    from lingualite.mining.pipeline import MineSettings
    from lingualite.serve.settings import ServeSettings

    best = (np.array([0]), np.array([1.0], dtype=np.float32), np.array([0.5], dtype=np.float32))
    for bad in (float("nan"), float("inf"), -float("inf")):
        for make in (
            lambda x: MineSettings(threshold=x),
            lambda x: combine(best, best, "forward", x),
            lambda x: ServeSettings(read_timeout=x),
            lambda x: ServeSettings(max_wait_ms=x),
            lambda x: VecalignConfig(skip_cost=x),
            lambda x: VecalignConfig(skip_percentile=x),
            lambda x: GaleChurchConfig(skip_penalty=x),
        ):
            with pytest.raises((LinguaLiteError, ValueError), match="finite"):
                make(bad)
