"""The ownership rule every writer goes through (:mod:`lingualite.core.ownership`): kinds, markers, folders of
earlier versions, containment through symbolic links, and the check made again at the swap."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from lingualite.core.errors import LinguaLiteError
from lingualite.core.io_utils import atomic_dir, clean_leftovers
from lingualite.core.ownership import (
    KINDS,
    check_folder,
    check_separate,
    folder_kind,
    replacing,
    write_marker,
)
from lingualite.models.run_folder import open_run


def test_every_kind_is_marked_at_creation_and_kinds_never_mix(tmp_path: Path) -> None:
    for kind in KINDS:
        with replacing(tmp_path / kind, kind) as staging:
            (staging / "data").write_text(kind)
        assert folder_kind(tmp_path / kind) == kind
    for kind in KINDS:
        other = next(k for k in KINDS if k != kind)
        with pytest.raises(LinguaLiteError, match=f"holds a lingualite {KINDS[other]}") as info:
            check_folder(tmp_path / other, kind, overwrite=True)
        assert "\n" not in str(info.value)
    with (
        pytest.raises(LinguaLiteError, match="holds a lingualite training run"),
        open_run(tmp_path / "train", "index"),
    ):
        pass


def test_a_folder_is_replaced_only_when_marked_the_same_kind_and_overwrite_is_given(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with replacing(out, "export") as staging:
        (staging / "v1").write_text("1")
    with pytest.raises(LinguaLiteError, match="pass --overwrite to replace it"), replacing(out, "export"):
        pass
    with replacing(out, "export", overwrite=True) as staging:
        (staging / "v2").write_text("2")
    assert sorted(p.name for p in out.iterdir()) == [".lingualite-folder.json", "v2"]
    (tmp_path / "empty").mkdir()  # an empty folder (or one holding only our lock/marker files) is free
    (tmp_path / "empty" / ".lingualite.lock").write_text("")
    check_folder(tmp_path / "empty", "index", overwrite=False)


def test_folders_of_earlier_versions_are_recognised_by_layout_never_by_a_file_name(tmp_path: Path) -> None:
    run = tmp_path / "old-run"
    (run / "checkpoints" / "distill" / "step-0000040").mkdir(parents=True)
    (run / "checkpoints" / "distill" / "step-0000040" / "trainer_state.json").write_text("{}")
    assert folder_kind(run) == "run"
    marked = tmp_path / "old-marker"
    marked.mkdir()
    (marked / ".lingualite-run").write_text(json.dumps({"kind": "reproduce"}))
    assert folder_kind(marked) == "reproduce"
    index = tmp_path / "old-index"
    index.mkdir()
    (index / "index.sqlite").write_bytes(b"")
    (index / "vectors.npy").write_bytes(b"")
    assert folder_kind(index) == "index"
    user = tmp_path / "user"
    (user / "checkpoints" / "step-0000040").mkdir(parents=True)  # no trainer state: not a run of ours
    for name in ("config.yaml", "metrics.jsonl", "summary.json", "modules.json", "results.json"):
        (user / name).write_text("{}")
    assert folder_kind(user) is None
    for kind in ("train", "distill", "monolingual", "report"):
        with pytest.raises(LinguaLiteError, match="was not created by lingualite"), open_run(user, kind):
            pass
    with open_run(run, "distill"):  # an old run is continued by any recipe (the saved config decides)
        pass
    assert folder_kind(run) == "distill"


def test_containment_is_checked_both_ways_through_symbolic_links(tmp_path: Path) -> None:
    model = tmp_path / "box" / "student"
    model.mkdir(parents=True)
    (tmp_path / "alias").symlink_to(tmp_path / "box", target_is_directory=True)
    for output, message in [
        (tmp_path / "box", "contains the input"),
        (tmp_path / "alias", "contains the input"),
        (tmp_path / "alias" / "student", "is also an input"),
        (model / "sub", "is inside the input"),
        (tmp_path / "alias" / "student" / "sub", "is inside the input"),
    ]:
        with pytest.raises(LinguaLiteError, match=message):
            check_separate(output, [model])
    check_separate(tmp_path / "box" / "sibling", [model])  # a sibling is fine


def test_the_swap_refuses_what_appeared_meanwhile_and_keeps_it(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with (
        pytest.raises(LinguaLiteError, match="appeared while this ran"),
        replacing(out, "index", True) as staging,
    ):
        (staging / "new").write_text("new")
        out.mkdir()  # created by someone else while the build ran
        (out / "theirs.txt").write_text("theirs")
    assert sorted(p.name for p in out.iterdir()) == ["theirs.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]
    plain = tmp_path / "plain"  # the primitive never replaces a folder that appeared unless told it may
    with atomic_dir(plain) as staging:
        (staging / "a").write_text("a")
        plain.mkdir()
        (plain / "b").write_text("b")
    assert sorted(p.name for p in plain.iterdir()) == ["a"]  # no check given: the caller owns the path


def test_the_swapped_out_folder_is_checked_again_and_exchanged_back(tmp_path: Path) -> None:
    out = tmp_path / "out"
    with replacing(out, "export") as staging:
        (staging / "v1").write_text("1")
    calls = []

    def changes_between_check_and_exchange(folder: Path) -> None:
        calls.append(folder)
        if len(calls) == 1:  # after the first check, before the exchange, the folder becomes a user's
            (folder / ".lingualite-folder.json").unlink()
            (folder / "photo.jpg").write_bytes(b"jpeg")
            return
        check_folder(folder, "export", overwrite=True)

    with (
        pytest.raises(LinguaLiteError, match="was not created by lingualite"),
        atomic_dir(out, changes_between_check_and_exchange) as staging,
    ):
        (staging / "v2").write_text("2")
    assert sorted(p.name for p in out.iterdir()) == ["photo.jpg", "v1"]  # exchanged back, nothing lost


def test_leftovers_are_cleaned_per_target_and_by_pid(tmp_path: Path) -> None:
    dead, live = 2**22 + 11, os.getpid()
    mine = tmp_path / f".out.staging-{dead}-0123abcd"
    theirs = tmp_path / f".other.tmp-{dead}-0123abcd"
    running = tmp_path / f".out.staging-{live}-0123abcd"
    deep = tmp_path / "run" / "knn" / f".fwd-00000.npz.tmp-{dead}-0123abcd"
    for path in (mine, running, deep.parent):
        path.mkdir(parents=True)
    theirs.write_text("x")
    deep.write_text("x")
    assert clean_leftovers(tmp_path, target="out") == [mine]
    assert theirs.exists() and running.exists()
    assert clean_leftovers(tmp_path / "run", walk=True) == [deep]


def test_write_marker_refuses_an_unknown_kind(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown folder kind"):
        write_marker(tmp_path, "holiday-photos")
