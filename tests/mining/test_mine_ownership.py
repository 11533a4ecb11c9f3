"""``mine``'s work folder is a lingualite folder of its own kind, keyed by the model's CONTENT (a model folder
changed in place is detected, not mixed with old files), and the pairs file never lands in an input."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from test_pipeline import corpus, read_output  # noqa: F401 - the fixture

from lingualite.core.errors import LinguaLiteError
from lingualite.mining.pipeline import MineSettings, mine_files

QUIET = {"report": lambda line: None, "settings": MineSettings(shard_size=64)}


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_a_users_folder_at_the_work_path_is_never_written(static_model: str, corpus, tmp_path: Path) -> None:  # noqa: F811
    src, tgt, _ = corpus
    work = tmp_path / "pairs.tsv.work"
    work.mkdir()
    (work / "manifest.json").write_text("{}")  # a file name mine uses is no claim
    (work / "notes.txt").write_text("mine")
    before = _tree(work)
    for overwrite in (False, True):
        with pytest.raises(LinguaLiteError, match="was not created by lingualite"):
            mine_files(static_model, src, tgt, tmp_path / "pairs.tsv", overwrite=overwrite, **QUIET)
    assert _tree(work) == before and not (tmp_path / "pairs.tsv").exists()


def test_a_model_changed_in_place_is_detected_and_recomputed_with_overwrite(
    static_model: str,
    corpus,  # noqa: F811
    tmp_path: Path,
) -> None:
    from sentence_transformers import SentenceTransformer

    src, tgt, _ = corpus
    model = tmp_path / "model"
    shutil.copytree(static_model.split(":", 1)[1], model)
    out = tmp_path / "pairs.tsv"
    mine_files(f"static:{model}", src, tgt, out, **QUIET)
    first = read_output(out)
    st = SentenceTransformer(str(model), device="cpu")  # the same folder, retrained: other weights
    st[0].embedding.weight.data.normal_()
    st.save(str(model))
    with pytest.raises(
        LinguaLiteError, match="computed with other model .*changed in place.*--overwrite"
    ) as info:
        mine_files(f"static:{model}", src, tgt, out, **QUIET)
    assert "\n" not in str(info.value) and read_output(out) == first  # nothing mixed, the output kept
    mine_files(f"static:{model}", src, tgt, out, overwrite=True, **QUIET)
    assert read_output(out) != first


def test_outputs_inside_an_input_and_killed_runs_leftovers(static_model: str, corpus, tmp_path: Path) -> None:  # noqa: F811
    src, tgt, _ = corpus
    model = Path(static_model.split(":", 1)[1])
    with pytest.raises(LinguaLiteError, match="is inside the input"):
        mine_files(static_model, src, tgt, model / "pairs.tsv", **QUIET)
    with pytest.raises(LinguaLiteError, match="is inside the input"):
        mine_files(static_model, src, tgt, tmp_path / "p.tsv", work_dir=model / "work", **QUIET)
    dead = 2**22 + 5
    leftover = tmp_path / f".pairs.tsv.tmp-{dead}-0123abcd"
    leftover.write_text("half")
    deep = tmp_path / "pairs.tsv.work" / "knn" / f".fwd-00000.npz.tmp-{dead}-0123abcd"
    mine_files(static_model, src, tgt, tmp_path / "pairs.tsv", **QUIET)
    deep.write_text("half")  # a kill during the search of a second run
    mine_files(static_model, src, tgt, tmp_path / "pairs.tsv", **QUIET)
    assert not leftover.exists() and not deep.exists()
    assert os.path.exists(tmp_path / "pairs.tsv")
