"""The shared progress display: a rich bar on a terminal, plain lines in a log (nohup, CI)."""

from __future__ import annotations

import pytest
from rich.progress import Progress

from lingualite.core import progress as progress_module
from lingualite.core.progress import PlainProgress, progress_bar


def test_not_a_terminal_gives_plain_lines_without_control_codes(capsys: pytest.CaptureFixture[str]) -> None:
    """Under nohup or CI (stderr is a file), a line at each tenth and at the end; no \\r, no escape codes."""
    with progress_bar("train", True, "steps") as bar:
        assert isinstance(bar, PlainProgress)
        task = bar.add_task("train", total=200, info="")
        for step in range(1, 201):
            bar.update(task, completed=step, info=f"loss {1 / step:.3f}")
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 10 and lines[0].startswith("train: 20/200 steps loss 0.050 (")
    assert lines[-1].startswith("train: 200/200 steps loss 0.005 (")
    assert "ETA" in lines[0] and not any("\r" in line or "\x1b" in line for line in lines)


def test_unknown_totals_advance_and_time_based_lines(capsys: pytest.CaptureFixture[str]) -> None:
    bar = PlainProgress("teacher (train)", every=0.0)
    task = bar.add_task("train")
    bar.advance(task, 5)
    bar.update(task, advance=3)
    assert capsys.readouterr().err.splitlines()[-1].startswith("teacher (train): 8 (")


def test_a_terminal_gets_the_rich_bar_and_disabled_prints_nothing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(progress_module.sys.stderr, "isatty", lambda: True, raising=False)
    assert isinstance(progress_bar("train", True), Progress)
    with progress_bar("train", False) as bar:
        bar.update(bar.add_task("train", total=3, info=""), completed=3)
    assert capsys.readouterr().err == ""
