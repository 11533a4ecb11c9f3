"""Run folders of the training recipes: locked, never taken over, resumed only with the config they began with."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_parallel_train import tiny_config

from lingualite.core.errors import LinguaLiteError
from lingualite.recipes.parallel.train_parallel import train_parallel as train

pytestmark = pytest.mark.slow  # trains a model: left out of the fast tier


def test_every_recipe_refuses_a_folder_another_run_is_writing(locked_folder, synthetic_corpus: Path) -> None:
    from lingualite.config import MonolingualConfig
    from lingualite.recipes.monolingual.train_monolingual import train_monolingual

    folder, pid = locked_folder
    with pytest.raises(LinguaLiteError, match=f"pid {pid}"):
        train(tiny_config(synthetic_corpus), folder, progress=False)
    with pytest.raises(LinguaLiteError, match=f"pid {pid}"):
        train_monolingual(MonolingualConfig(), folder, progress=False)
    # distillation: tests/recipes/distill/test_distill_train.py


def _lrs(run: Path) -> dict[int, float]:
    rows = [json.loads(line) for line in (run / "metrics.jsonl").read_text().splitlines()]
    return {r["step"]: r["lr"] for r in rows if "lr" in r}


def test_resume_with_a_changed_lr_is_refused_or_really_applied(
    synthetic_corpus: Path, tmp_path: Path
) -> None:
    run = tmp_path / "run"
    train(tiny_config(synthetic_corpus, max_steps=8, warmup_steps=0), run, progress=False, stop_after=4)
    saved = (run / "config.yaml").read_text()
    changed = tiny_config(synthetic_corpus, max_steps=8, warmup_steps=0, lr=1e-3)
    with pytest.raises(LinguaLiteError, match=r"changed config \(optim.lr\).*--allow-config-change"):
        train(changed, run, resume=True, progress=False)
    assert (run / "config.yaml").read_text() == saved  # the refusal rewrote nothing
    train(changed, run, resume=True, progress=False, allow_config_change=True)
    lrs = _lrs(run)
    # linear decay over 8 steps, no warm-up: the rate logged after step s is peak * (8 - s) / 8
    assert lrs[6] == pytest.approx(1e-3 * 2 / 8)  # the NEW peak after the resume
    assert lrs[4] == pytest.approx(2e-3 * 4 / 8)  # the steps before the resume keep their logged rate
    assert "lr: 0.001" in (run / "config.yaml").read_text()


def test_resume_with_another_model_shape_is_a_one_line_error(synthetic_corpus: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    train(tiny_config(synthetic_corpus, max_steps=8), run, progress=False, stop_after=2)
    other = tiny_config(synthetic_corpus, max_steps=8)
    other.model.hidden_size = 64
    with pytest.raises(LinguaLiteError, match=r"cannot resume.*model.hidden_size") as info:
        train(other, run, resume=True, progress=False, allow_config_change=True)
    assert "\n" not in str(info.value)


def test_training_never_takes_over_a_users_folder(synthetic_corpus: Path, tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "thesis.tex").write_text("chapter 1")
    with pytest.raises(LinguaLiteError, match="was not created by lingualite"):
        train(tiny_config(synthetic_corpus), folder, progress=False)
    assert sorted(p.name for p in folder.iterdir()) == ["thesis.tex"]


def test_max_steps_override_is_part_of_the_saved_config(synthetic_corpus: Path, tmp_path: Path) -> None:
    """A short run (e.g. a smoke test) is not silently continued by a longer one into the same folder."""
    run = tmp_path / "run"
    train(tiny_config(synthetic_corpus, max_steps=8), run, progress=False, max_steps=2)
    assert "max_steps: 2" in (run / "config.yaml").read_text()
    with pytest.raises(LinguaLiteError, match=r"optim.max_steps"):
        train(tiny_config(synthetic_corpus, max_steps=8), run, progress=False, resume=True, max_steps=6)


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("kind", ["train", "distill", "monolingual"])
def test_a_folder_holding_run_file_names_is_not_a_run(tmp_path: Path, kind: str) -> None:
    """Case 3: any folder with a file named config.yaml, metrics.jsonl or checkpoints was taken over, and its
    README.md, config.json and config.yaml overwritten; every recipe claims its folder the same way."""
    from lingualite.models.run_folder import open_run

    folder = tmp_path / "project"
    (folder / "checkpoints").mkdir(parents=True)
    (folder / "checkpoints" / "best.pt").write_bytes(b"\1\2")
    for name in ("config.yaml", "metrics.jsonl", "README.md", "config.json"):
        (folder / name).write_text(f"the user's {name}")
    before = _tree(folder)
    for overwrite in (False, True):
        with (
            pytest.raises(LinguaLiteError, match="was not created by lingualite") as info,
            open_run(folder, kind, overwrite=overwrite),
        ):
            pass
        assert "\n" not in str(info.value)
    assert _tree(folder) == before and not (folder / ".lingualite.lock").exists()


def test_training_into_an_export_folder_is_refused(synthetic_corpus: Path, tmp_path: Path) -> None:
    """Case 4: ``train --output <export>`` replaced the weights and tokenizer and left onnx/ stale."""
    export = tmp_path / "exported"
    (export / "onnx").mkdir(parents=True)
    (export / "onnx" / "lingualite_onnx.json").write_text("{}")  # an export of a version before markers
    (export / "modules.json").write_text("[]")
    (export / "onnx" / "encoder.onnx").write_bytes(b"graph")
    before = _tree(export)
    for options in ({}, {"overwrite": True}, {"resume": True}):
        with pytest.raises(LinguaLiteError, match="holds a lingualite exported model .*, not a training run"):
            train(tiny_config(synthetic_corpus), export, progress=False, **options)
    assert _tree(export) == before


def test_a_finished_run_is_started_over_only_with_overwrite(synthetic_corpus: Path, tmp_path: Path) -> None:
    from lingualite.core.ownership import write_marker

    run, cfg = tmp_path / "run", tiny_config(synthetic_corpus, max_steps=2, save_every=2)
    (run / "checkpoints" / "step-0000004").mkdir(parents=True)  # an earlier run of this recipe
    (run / "checkpoints" / "step-0000004" / "trainer_state.json").write_text('{"step": 4}')
    (run / "metrics.jsonl").write_text('{"step": 4}\n')
    write_marker(run, "train")
    with pytest.raises(LinguaLiteError, match="pass --resume to continue it, --overwrite to start it over"):
        train(cfg, run, progress=False, validate=False)
    train(cfg, run, progress=False, validate=False, overwrite=True)
    assert [p.name for p in (run / "checkpoints").iterdir()] == ["step-0000002"]
    assert [json.loads(line)["step"] for line in (run / "metrics.jsonl").read_text().splitlines()] == [2]
    with pytest.raises(LinguaLiteError, match="choose one"):
        train(tiny_config(synthetic_corpus), run, progress=False, overwrite=True, resume=True)


def test_a_run_folder_holding_an_input_is_refused(synthetic_corpus: Path, tmp_path: Path) -> None:
    """--overwrite would empty it: an output that contains, or lies inside, an input is refused."""
    from lingualite.core.ownership import write_marker

    run = tmp_path / "run"
    run.mkdir()
    write_marker(run, "train")
    (run / "train.tsv").write_bytes((synthetic_corpus / "en-fr" / "train.tsv").read_bytes())
    cfg = tiny_config(synthetic_corpus)
    cfg.data.train_files = [str(run / "train.tsv")]
    with pytest.raises(LinguaLiteError, match="contains the input"):
        train(cfg, run, progress=False, overwrite=True)
    assert (run / "train.tsv").exists()
    cfg = tiny_config(synthetic_corpus)
    cfg.vocabulary.path = str(tmp_path / "tok")
    (tmp_path / "tok").mkdir()
    with pytest.raises(LinguaLiteError, match="is inside the input"):
        train(cfg, tmp_path / "tok" / "run", progress=False)
