"""``index build`` replaces only an index, only with --overwrite, and checks again at the swap (issue #33 case
5: a folder created at the output during the build was lost; two builds into one new path replaced each
other without --overwrite), with parent, symlinked and model-folder variants."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from search_helpers import docs

import lingualite.search.index as index_module
from lingualite.core.errors import LinguaLiteError
from lingualite.core.io_utils import run_lock
from lingualite.search import SearchIndex


def _build(model: str, source, out: Path, **kw) -> SearchIndex:
    return SearchIndex.build(model, source, out, progress=False, **kw)


def _during_build(monkeypatch, action) -> None:
    """Run ``action()`` after the new index is written into its staging folder, before it is swapped in."""
    write = index_module.write_new_index

    def write_then_act(*args, **kwargs):
        info = write(*args, **kwargs)
        monkeypatch.setattr(index_module, "write_new_index", write)  # once (a nested build is plain)
        action()
        return info

    monkeypatch.setattr(index_module, "write_new_index", write_then_act)


def test_a_folder_created_at_the_output_during_the_build_is_kept(
    static_model: str, tmp_path: Path, monkeypatch
) -> None:
    out = tmp_path / "idx"

    def user_creates_the_folder() -> None:
        out.mkdir()
        (out / "notes.txt").write_text("keep me")

    _during_build(monkeypatch, user_creates_the_folder)
    with pytest.raises(LinguaLiteError, match="was not created by lingualite.*appeared while this ran"):
        _build(static_model, docs(5), out, overwrite=True)
    assert [p.name for p in out.iterdir()] == ["notes.txt"] and (out / "notes.txt").read_text() == "keep me"
    assert [p.name for p in tmp_path.iterdir()] == ["idx"]  # no staging folder left


def test_two_builds_into_one_new_path_do_not_replace_each_other(
    static_model: str, tmp_path: Path, monkeypatch
) -> None:
    out = tmp_path / "idx"
    _during_build(monkeypatch, lambda: _build(static_model, docs(3, prefix="other"), out).close())
    with pytest.raises(LinguaLiteError, match="is already a search index.*appeared while this ran"):
        _build(static_model, docs(5), out)
    with SearchIndex.open(out) as idx:  # the build that finished first keeps the path
        assert len(idx) == 3 and idx.search(["the cat"], k=1)[0][0].doc_id.startswith("other")


def test_a_replacement_waits_for_no_writer_and_keeps_the_index_whole(
    static_model: str, tmp_path: Path, monkeypatch
) -> None:
    out = tmp_path / "idx"
    _build(static_model, docs(3), out).close()
    # an `index add` is writing it: the swap is refused, nothing lost
    with run_lock(out, "index write"), pytest.raises(LinguaLiteError, match=f"pid {os.getpid()}"):
        _build(static_model, docs(5), out, overwrite=True)
    with SearchIndex.open(out) as idx:
        assert len(idx) == 3
    with _build(static_model, docs(5), out, overwrite=True) as idx:
        assert len(idx) == 5


def test_outputs_holding_an_input_or_inside_the_model_are_refused(static_model: str, tmp_path: Path) -> None:
    model = Path(static_model.split(":", 1)[1])
    data = tmp_path / "data"
    data.mkdir()
    (data / "docs.txt").write_text("the cat\n")
    for output, message in [
        (tmp_path, "contains the input"),  # a parent of the input file
        (model / "idx", "is inside the input"),  # inside the model folder
        (model.parent, "contains the input"),  # the model's parent
    ]:
        with pytest.raises(LinguaLiteError, match=message):
            _build(static_model, data / "docs.txt", output, overwrite=True)
    link = tmp_path / "link"
    link.symlink_to(data, target_is_directory=True)
    with pytest.raises(LinguaLiteError, match="contains the input"):
        _build(static_model, data / "docs.txt", link, overwrite=True)
    assert sorted(p.name for p in data.iterdir()) == ["docs.txt"]


def test_a_symlink_to_an_index_is_replaced_through_the_link(static_model: str, tmp_path: Path) -> None:
    real = tmp_path / "real"
    _build(static_model, docs(3), real).close()
    (tmp_path / "link").symlink_to(real, target_is_directory=True)
    with _build(static_model, docs(4), tmp_path / "link", overwrite=True) as idx:
        assert len(idx) == 4
    assert (tmp_path / "link").is_symlink() and len(SearchIndex.open(real)) == 4


def test_leftovers_of_a_killed_build_are_removed_by_the_next(static_model: str, tmp_path: Path) -> None:
    dead = tmp_path / f".idx.staging-{2**22 + 3}-0123abcd"  # the `.ibk.staging-*` of the issue
    (dead / "index.sqlite").parent.mkdir()
    (dead / "index.sqlite").write_bytes(b"half")
    live = tmp_path / f".idx.staging-{os.getpid()}-89abcdef"  # a build still running: kept
    live.mkdir()
    _build(static_model, docs(3), tmp_path / "idx").close()
    assert not dead.exists() and live.exists()
