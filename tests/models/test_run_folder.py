"""One run-folder layout for every recipe, read through RunFolder; folders of earlier versions still load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from lingualite.config import load_training_config
from lingualite.core.errors import LinguaLiteError
from lingualite.models.run_folder import RunFolder

# What an earlier version saved as training_config.yaml (old key names, the vocabulary size resolved).
LEGACY_PARALLEL = {
    "data": {"train_files": ["a.tsv"], "valid_files": [], "max_train_pairs": None, "valid_xsr_pairs": 500},
    "tokenizer": {"path": None, "kind": "unigram", "vocab_size": 16000, "alpha": 0.7, "sample_size": 300000},
    "model": {"vocab_size": 15998, "hidden_size": 256, "num_layers": 2, "num_heads": 4, "ffn_size": 512},
    "optim": {"lr": 0.001, "warmup_steps": 150, "max_steps": 1500, "batch_size": 64, "seed": 0},
}


def _legacy_run(tmp_path: Path) -> RunFolder:
    (tmp_path / "training_config.yaml").write_text(yaml.safe_dump(LEGACY_PARALLEL))
    return RunFolder(tmp_path)


def _same_config_today() -> dict:
    cfg = load_training_config("quickstart")
    cfg.data.train_files, cfg.data.valid_files, cfg.data.max_train_pairs = ["a.tsv"], [], None
    cfg.vocabulary.sample_size = 300000
    cfg.model.max_seq_length, cfg.model.dropout = 64, 0.1
    cfg.objective.similarity, cfg.optim.eval_every, cfg.optim.save_every = "dot", 500, 500
    return cfg.to_dict()


def test_an_old_saved_config_is_read_with_the_new_names(tmp_path: Path) -> None:
    saved = _legacy_run(tmp_path).read_config("parallel")
    assert saved is not None
    assert saved["vocabulary"]["size"] == 16000 and saved["data"]["valid_pairs"] == 500
    assert saved["seed"] == 0 and saved["mode"] == "parallel" and "tokenizer" not in saved


def test_an_old_run_resumes_with_the_same_config_and_refuses_a_changed_one(tmp_path: Path) -> None:
    run = _legacy_run(tmp_path)
    today = _same_config_today()
    assert run.check_resume(today, False, ("model", "vocabulary")) == []  # 0 = "the tokenizer's size"
    today["optim"]["lr"] = 0.002
    with pytest.raises(LinguaLiteError, match=r"changed config \(optim.lr\).*training_config.yaml"):
        run.check_resume(today, False, ("model", "vocabulary"))
    assert run.check_resume(today, True, ("model", "vocabulary")) == ["optim.lr"]
    today["vocabulary"]["size"] = 8000
    with pytest.raises(LinguaLiteError, match=r"cannot resume.*vocabulary.size"):
        run.check_resume(today, True, ("model", "vocabulary"))


def test_summary_and_config_names_of_earlier_versions_are_found(tmp_path: Path) -> None:
    (tmp_path / "distill_summary.json").write_text(json.dumps({"teacher": "minilm"}))
    run = RunFolder(tmp_path)
    assert run.read_summary() == {"teacher": "minilm"}
    run.write_summary({"teacher": "use-m"})
    assert run.read_summary() == {"teacher": "use-m"}  # the current name wins
    assert run.saved_config_path() is None and run.read_config() is None


def test_metrics_truncation_keeps_other_stages_and_skips_torn_lines(tmp_path: Path) -> None:
    run = RunFolder(tmp_path)
    for stage in ("a", "b"):
        for step in (1, 2, 3):
            run.append_metrics({"step": step, "stage": stage})
    with run.metrics_path.open("a") as fh:
        fh.write('{"step": 4, "sta')  # a kill during an append
    run.truncate_metrics(1, "b")
    assert [(r["stage"], r["step"]) for r in run.read_metrics()] == [("a", 1), ("a", 2), ("a", 3), ("b", 1)]
    run.truncate_metrics(-1, "a")  # a fresh start of stage a
    assert [(r["stage"], r["step"]) for r in run.read_metrics()] == [("b", 1)]


def test_checkpoints_of_any_stage(tmp_path: Path) -> None:
    run = RunFolder(tmp_path)
    assert not run.has_checkpoints()
    (run.checkpoints_dir("iteration-1") / "step-0000010").mkdir(parents=True)
    (run.checkpoints_dir("iteration-1") / "step-0000002").mkdir()
    (run.checkpoints_dir("iteration-1") / "step-0000011.tmp-123").mkdir()  # half-written: not a checkpoint
    assert run.has_checkpoints()
    assert [p.name for p in run.checkpoints("iteration-1")] == ["step-0000002", "step-0000010"]


def _distill_run_without(tmp_path: Path, dotted: str) -> RunFolder:
    """A distill run folder whose saved config (a full dump, as runs write it) lacks ``dotted``: an older
    version's run, from before the key existed."""
    from lingualite.config import load_distill_config

    saved = load_distill_config("distill").to_dict()
    section, key = dotted.split(".")
    del saved[section][key]
    run = RunFolder(tmp_path)
    run.write_config(saved)
    run.append_metrics({"step": 1, "loss": 1.0})
    return run


def test_keys_added_after_a_run_began_are_named_with_the_defaults_they_take(tmp_path: Path) -> None:
    run = _distill_run_without(tmp_path, "data.ranked_monolingual_files")
    added = run.keys_added_since_saved("distill")
    assert list(added) == ["data.ranked_monolingual_files"]
    assert added["data.ranked_monolingual_files"][0].endswith("corpora/lexicon/*.txt")
    run.write_config(run.read_config("distill"))  # a complete dump lacks nothing
    assert run.keys_added_since_saved("distill") == {}


def test_renamed_keys_of_an_old_config_are_not_taken_for_added_ones(tmp_path: Path) -> None:
    added = _legacy_run(tmp_path).keys_added_since_saved("parallel")
    assert added  # the legacy file is short: today's other keys were added since
    assert not {"vocabulary.size", "vocabulary.kind", "data.valid_pairs", "seed"} & set(added)


def test_resuming_an_old_run_warns_of_the_keys_it_lacks(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    run = _distill_run_without(tmp_path, "data.ranked_monolingual_files")
    with caplog.at_level("WARNING", logger="lingualite.models.run_folder"):
        assert run.check_resume(run.read_config("distill"), False, ("student", "vocabulary")) == []
    assert "predates 1 key(s)" in caplog.text and "data.ranked_monolingual_files" in caplog.text
