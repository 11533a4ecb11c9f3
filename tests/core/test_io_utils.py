"""The output rule: file outputs never replace a directory or an input, folders are swapped whole, runs are
locked, leftovers of dead writers are cleaned."""

from __future__ import annotations

import multiprocessing
import os
import stat
from pathlib import Path

import pytest

from lingualite.core.errors import LinguaLiteError
from lingualite.core.io_utils import (
    atomic_dir,
    atomic_file,
    clean_leftovers,
    run_lock,
    write_json,
)
from lingualite.models.run_folder import RunFolder, changed_config_keys, open_run


def test_a_file_output_never_replaces_a_directory(tmp_path: Path) -> None:
    model = tmp_path / "model"
    (model / "checkpoints").mkdir(parents=True)
    (model / "model.safetensors").write_bytes(b"weights")
    with pytest.raises(LinguaLiteError, match="is a directory"), atomic_file(model) as tmp:
        tmp.write_bytes(b"vectors")
    assert (model / "model.safetensors").read_bytes() == b"weights"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["model"]  # no temp file left either


def test_a_file_output_is_never_an_input(tmp_path: Path) -> None:
    src = tmp_path / "in.txt"
    src.write_text("hello\n")
    with pytest.raises(LinguaLiteError, match="also an input"), atomic_file(tmp_path / "." / "in.txt", [src]):
        pass
    assert src.read_text() == "hello\n"


def test_a_failed_write_leaves_the_old_file_and_no_temp(tmp_path: Path) -> None:
    path = tmp_path / "out.json"
    write_json(path, {"a": 1})
    with pytest.raises(RuntimeError), atomic_file(path) as tmp:
        tmp.write_text("half")
        raise RuntimeError("killed")
    assert path.read_text().startswith("{")
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


def test_files_are_written_with_the_umask_mode_not_0600(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        write_json(tmp_path / "x.json", {})
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "x.json").stat().st_mode) == 0o644


def test_atomic_dir_swaps_a_whole_folder(tmp_path: Path) -> None:
    target = tmp_path / "ckpt"
    with atomic_dir(target) as tmp:
        (tmp / "a").write_text("old")
        (tmp / "b").write_text("old")
    with atomic_dir(target) as tmp:
        (tmp / "a").write_text("new")
    assert sorted(p.name for p in target.iterdir()) == ["a"]  # nothing of the old folder is mixed in
    assert (target / "a").read_text() == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["ckpt"]
    with pytest.raises(RuntimeError), atomic_dir(target) as tmp:
        (tmp / "a").write_text("torn")
        raise RuntimeError("killed")
    assert (target / "a").read_text() == "new"
    assert [p.name for p in tmp_path.iterdir()] == ["ckpt"]


def test_atomic_dir_refuses_to_replace_a_file(tmp_path: Path) -> None:
    (tmp_path / "x").write_text("user data")
    with pytest.raises(LinguaLiteError, match="is a file"), atomic_dir(tmp_path / "x"):
        pass
    assert (tmp_path / "x").read_text() == "user data"


def test_leftovers_of_dead_writers_are_removed_and_live_ones_kept(tmp_path: Path) -> None:
    dead_pid = 2**22 + 12345  # above the default pid_max of 4194304: never a live process
    dead = tmp_path / f".model.staging-{dead_pid}-0123abcd"
    live = tmp_path / f".model.staging-{os.getpid()}-0123abcd"
    legacy_ckpt = tmp_path / "checkpoints" / ".step-0000010.k2j4h5g6"
    legacy_export = tmp_path / "..export.abcd1234"
    for folder in (dead, live, legacy_ckpt, legacy_export):
        folder.mkdir(parents=True)
        (folder / "model.safetensors").write_bytes(b"x" * 10)
    (tmp_path / "checkpoints" / "step-0000010").mkdir()
    removed = clean_leftovers(tmp_path, recursive_into=("checkpoints",))
    assert sorted(p.name for p in removed) == sorted([dead.name, legacy_ckpt.name, legacy_export.name])
    assert live.exists() and (tmp_path / "checkpoints" / "step-0000010").exists()


def _hold_lock(folder: str, started, release) -> None:  # pragma: no cover - runs in a child process
    with run_lock(folder):
        started.set()
        release.wait(30)


def test_a_second_run_into_a_locked_folder_is_refused_naming_the_holder(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("spawn")
    started, release = ctx.Event(), ctx.Event()
    child = ctx.Process(target=_hold_lock, args=(str(tmp_path), started, release))
    child.start()
    try:
        assert started.wait(60)
        with pytest.raises(LinguaLiteError, match=rf"pid {child.pid}\)"), run_lock(tmp_path):
            pass
    finally:
        release.set()
        child.join(30)
    with run_lock(tmp_path):  # released when its holder ends
        pass


def _race(folder: str, barrier, results, done) -> None:  # pragma: no cover - runs in a child process
    barrier.wait()
    try:
        with open_run(folder, "train"):
            results.put("ran")
            done.wait(60)  # hold the lock until the other process has tried
    except LinguaLiteError as exc:
        results.put(str(exc))


@pytest.mark.slow
def test_two_runs_started_at_the_same_moment_one_is_refused(tmp_path: Path) -> None:
    ctx = multiprocessing.get_context("spawn")
    barrier, results, done = ctx.Barrier(2), ctx.Queue(), ctx.Event()
    args = (str(tmp_path / "run"), barrier, results, done)
    procs = [ctx.Process(target=_race, args=args) for _ in range(2)]
    for p in procs:
        p.start()
    outcomes = sorted(results.get(timeout=120) for _ in procs)
    done.set()
    for p in procs:
        p.join(60)
    assert sum(o == "ran" for o in outcomes) == 1
    assert any("another lingualite train run" in o for o in outcomes)


def test_a_run_never_takes_over_a_folder_it_did_not_create(tmp_path: Path) -> None:
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "holiday.jpg").write_bytes(b"jpeg")
    with (
        pytest.raises(LinguaLiteError, match="was not created by lingualite"),
        open_run(folder, "train"),
    ):
        pass
    assert sorted(p.name for p in folder.iterdir()) == ["holiday.jpg"]
    with open_run(tmp_path / "fresh", "distill"):
        pass
    with (
        pytest.raises(LinguaLiteError, match="holds a lingualite distillation run, not a training run"),
        open_run(tmp_path / "fresh", "train"),
    ):
        pass


def test_a_torn_last_log_line_is_dropped_on_resume(tmp_path: Path) -> None:
    (tmp_path / "metrics.jsonl").write_text(
        '{"step": 2, "loss": 1.0}\n{"step": 4, "loss": 0.5}\n{"step": 6, "lo'
    )
    run = RunFolder(tmp_path)
    run.truncate_metrics(4)
    assert (tmp_path / "metrics.jsonl").read_text() == '{"step": 2, "loss": 1.0}\n{"step": 4, "loss": 0.5}\n'


def test_changed_config_keys_are_dotted() -> None:
    assert changed_config_keys({"optim": {"lr": 1, "b": 2}}, {"optim": {"lr": 3, "b": 2}, "x": 1}) == [
        "optim.lr",
        "x",
    ]


def test_staged_folders_publish_readable_files(tmp_path: Path) -> None:
    import torch
    from safetensors.torch import save_file

    old = os.umask(0o022)
    try:
        with atomic_dir(tmp_path / "ckpt") as tmp:
            save_file({"w": torch.zeros(2)}, str(tmp / "model.safetensors"))  # safetensors writes 0600
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "ckpt" / "model.safetensors").stat().st_mode) == 0o644
