"""`kill -9` of a multi-process command leaves no process behind within 10 s (#33): spawned workers die with
their parent (prctl PDEATHSIG + a parent watch), and what a library starts for us (Ray) is reaped."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import psutil
import pytest

pytestmark = pytest.mark.slow  # starts processes, a server or Ray: left out of the fast tier

LIMIT_S = 10.0
ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONPATH": str(Path(__file__).parents[2] / "src")}


def _gone(processes: list[psutil.Process], limit: float = LIMIT_S) -> list[psutil.Process]:
    """Wait up to ``limit`` s; the processes still running (zombies count as gone: they run nothing)."""
    deadline = time.monotonic() + limit
    while True:
        alive = [p for p in processes if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.1)


def _kill9_and_check(proc: subprocess.Popen, descendants: list[psutil.Process]) -> None:
    assert proc.poll() is None, "the command ended before it was killed: the test proves nothing"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    alive = _gone(descendants)
    for p in alive:  # never leave them behind, even when the test fails
        p.kill()
    assert alive == [], [(p.pid, p.name()) for p in alive]


def _wait_for_descendants(proc: subprocess.Popen, count: int, limit: float = 120) -> list[psutil.Process]:
    parent, deadline = psutil.Process(proc.pid), time.monotonic() + limit
    while len(found := parent.children(recursive=True)) < count:
        assert proc.poll() is None and time.monotonic() < deadline, f"only {len(found)} of {count} started"
        time.sleep(0.05)
    return found


def _python(code: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], env=ENV, start_new_session=True)


def test_a_child_with_a_lifeline_dies_with_its_parent() -> None:
    parent = _python(
        """
        import os, subprocess, sys, time
        code = "import os, time; from lingualite.encoding.lifeline import die_with_parent; "
        code += f"die_with_parent({os.getpid()}); time.sleep(60)"
        subprocess.Popen([sys.executable, "-c", code])
        time.sleep(60)
        """
    )
    _kill9_and_check(parent, _wait_for_descendants(parent, 1))


def test_the_reaper_ends_what_escaped_the_tree() -> None:
    # a grandchild in its own session with no lifeline, as Ray's agents are: only the reaper can end it
    parent = _python(
        """
        import subprocess, time
        from lingualite.encoding.lifeline import start_reaper
        start_reaper()
        subprocess.Popen(["sleep", "60"], start_new_session=True)
        time.sleep(60)
        """
    )
    found = _wait_for_descendants(parent, 2)  # the reaper and the sleeper
    time.sleep(0.6)  # one reaper poll: it has seen the sleeper
    sleeper = [p for p in found if p.name() == "sleep"]
    _kill9_and_check(parent, sleeper)


def _encode_command(tmp_path: Path, lines: int, *extra: str) -> list[str]:
    from search_helpers import make_static_model

    model = make_static_model(tmp_path / "m")
    src = tmp_path / "in.txt"
    src.write_text("the big cat runs quickly\nle chat dort\n" * (lines // 2))
    return [sys.executable, "-m", "lingualite", "encode", "--model", f"static:{model}", "--input", str(src),
            "--output", str(tmp_path / "out.npy"), "--workers", "2", *extra]  # fmt: skip


@pytest.fixture(autouse=True)
def _search_helpers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(Path(__file__).parents[1] / "search"))


def test_kill_9_of_encode_workers_leaves_no_process(tmp_path: Path) -> None:
    proc = subprocess.Popen(_encode_command(tmp_path, 300_000), env=ENV, start_new_session=True)
    _kill9_and_check(proc, _wait_for_descendants(proc, 3))  # the two spawned workers and the resource tracker
    assert not (tmp_path / "out.npy").exists()


@pytest.mark.skipif(
    os.environ.get("LINGUALITE_SLOW_TESTS") != "1",
    reason="7-19 s (Ray starts and stops): run with LINGUALITE_SLOW_TESTS=1",
)
def test_kill_9_of_encode_on_ray_leaves_no_process(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    env = {k: v for k, v in ENV.items() if k != "RAY_ADDRESS"}
    proc = subprocess.Popen(
        _encode_command(tmp_path, 300_000, "--engine", "ray"), env=env, start_new_session=True
    )
    found = _wait_for_descendants(proc, 8)  # reaper, GCS, raylet, agents, workers
    time.sleep(1.0)
    _kill9_and_check(proc, psutil.Process(proc.pid).children(recursive=True) or found)
