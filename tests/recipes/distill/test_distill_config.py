"""Distillation configs: the shipped one loads, and every bad value is reported with its key."""

from __future__ import annotations

from pathlib import Path

import pytest

from lingualite.config import DistillConfig, config_from_dict, load_distill_config
from lingualite.config.parsing import with_data_dir
from lingualite.core.errors import ConfigError
from lingualite.text.languages import BEYOND_CORE


def test_shipped_config_is_paper_002_shaped() -> None:
    cfg = load_distill_config("distill")
    assert cfg.to_dict() == with_data_dir(DistillConfig()).to_dict()  # the defaults are the shipped config
    assert cfg.data.train_files[0] == "data/prepared/*/train.tsv"  # {data_dir} resolved (default: data)
    assert cfg.teacher.name == "use-m"  # multilingual: it knows all 13 languages (#35)
    assert (cfg.student.num_layers, cfg.student.hidden_size, cfg.pca.dim) == (1, 128, 128)
    assert (cfg.vocabulary.kind, cfg.vocabulary.alpha, cfg.optim.batch_size) == ("wordpiece", 0.7, 128)
    repo_config = Path(__file__).resolve().parents[3] / "configs" / "distill.yaml"  # the symlinked folder
    assert load_distill_config(repo_config).to_dict() == cfg.to_dict()


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"student": {"hidden_sise": 64}}, r"test.student: unknown key\(s\) \['hidden_sise'\]"),
        ({"distil": {}}, r"unknown key\(s\) \['distil'\]"),
        ({"optim": {"lr": "fast"}}, "test.optim.lr"),
        ({"optim": {"lr": 0}}, "optim.lr"),
        ({"optim": {"max_steps": None, "epochs": None}}, "optim.max_steps or optim.epochs"),
        ({"vocabulary": {"size": 10}}, "vocabulary.size"),
        ({"vocabulary": {"kind": "bpe"}}, "test.vocabulary.kind"),
        ({"vocabulary": {"alpha": 1.5}}, "vocabulary.alpha"),
        ({"student": {"hidden_size": 100, "num_heads": 3}}, "multiple of student.num_heads"),
        ({"student": {"num_layers": 0}}, "student.num_layers"),
        ({"pca": {"dim": 0}}, "pca.dim"),
        ({"student": {"max_seq_length": 4}}, "student.max_seq_length"),
        ({"data": {"max_seq_length": 4}}, "student.max_seq_length"),  # its old place, read as the new
        ({"teacher": {"max_seq_length": 2}}, "teacher.max_seq_length"),
        ({"optim": {"eval_every": 0}}, "optim.eval_every"),
        (
            {"optim": {"loss": "l1"}},
            r"test.optim.loss: 'l1' is not one of \['mse', 'cosine', 'mse\+cosine'\]",
        ),
        ({"optim": {"alignment_weight": -0.1}}, "optim.alignment_weight"),
        ({"optim": {"alignment_scale": 0}}, "optim.alignment_scale"),
        (
            {"student": {"init_embeddings": "bert"}},
            r"student.init_embeddings: 'bert' is not one of \['random'",
        ),
        (
            {"student": {"init_embeddings": "teacher"}, "teacher": {"name": "minilm"}},
            "student.init_embeddings: teacher needs teacher.name: use-m",
        ),
    ],
)
def test_bad_values_name_their_key(data: dict, key: str) -> None:
    with pytest.raises(ConfigError, match=key):
        config_from_dict(data, "test", mode="distill")


def test_epochs_decide_the_steps_when_set() -> None:
    cfg = config_from_dict({"optim": {"epochs": 2.5, "batch_size": 10}}, "test", mode="distill")
    from lingualite.training.run import RunOptions, apply_call_options, planned_steps

    assert planned_steps(cfg.optim, 1000) == 250
    capped, _ = apply_call_options(cfg, RunOptions(max_steps=7))
    assert planned_steps(capped.optim, 1000) == 7  # --max-steps overrides both


def test_the_issue_40_levers_are_off_by_default_and_checked_in_python_built_configs() -> None:
    cfg = DistillConfig()
    assert (cfg.student.init_embeddings, cfg.optim.loss) == ("random", "mse")  # today's behaviour
    assert cfg.optim.alignment_weight == 0.0  # no cross-lingual term
    cfg.optim.loss = "huber"  # type: ignore[assignment]
    with pytest.raises(ConfigError, match="optim.loss: 'huber'"):
        cfg.check("python")


def test_the_all_languages_config_is_the_shipped_one_with_a_second_teacher_and_more_steps() -> None:
    shipped, every = load_distill_config("distill"), load_distill_config("distill-all")
    assert shipped.teacher.second is None  # USE-m knows the 13
    assert every.teacher.second == "e5-small"  # untranslated text of the 18 languages only e5-small knows
    # whatever languages the data dir holds, and Firefox's strings in the 21 beyond the 13
    mozilla = [f for f in every.data.train_files if "/prepared-mozilla/" in f]
    assert every.data.train_files == [*shipped.data.train_files, *mozilla] and len(mozilla) == len(
        BEYOND_CORE
    )
    # the commonest words of each list, whole in the vocabulary's sample, as the 13-language recipe
    assert every.data.ranked_monolingual_files == shipped.data.ranked_monolingual_files
    assert every.vocabulary.word_lists and shipped.vocabulary.word_lists
    assert (every.vocabulary.size, every.optim.max_steps) == (100_000, 20_000)
    assert every.vocabulary.core_share == 0.70 and shipped.vocabulary.core_share is None  # the 13's rows kept
    assert every.vocabulary.alpha < shipped.vocabulary.alpha  # flatter: the 21's scripts get their rows
    assert (every.student.num_layers, every.student.hidden_size) == (1, 128)


def test_the_static_recipe_reads_the_small_ones_text_with_its_teacher() -> None:
    """`lingualite models build` points the static run at lingualite-small's teacher cache: the same text and
    teacher, so every pair's vectors are hits (the untranslated sample, drawn with the static's own seed, is
    encoded once more). The student, vocabulary size and steps are the static's own."""
    static, small = load_distill_config("distill-static"), load_distill_config("distill")
    assert static.data == small.data and static.teacher == small.teacher
    assert (static.student.kind, small.student.kind) == ("static", "transformer")
    assert static.vocabulary.alpha == small.vocabulary.alpha
