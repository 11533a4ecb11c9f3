"""Distillation end to end on a tiny synthetic corpus with a tiny random teacher: the student learns, the run
folder is a sentence-transformers model, resume is exact, and the command line reports errors on one line."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path

import numpy as np
import pytest
import torch
import yaml
from safetensors.torch import load_file

from lingualite.core.errors import ConfigError, LinguaLiteError
from lingualite.recipes.distill import train_distill as train_module
from lingualite.recipes.distill.student import StudentEncoder
from lingualite.recipes.distill.teacher import Teacher
from lingualite.recipes.distill.train_distill import train_distill as distill
from lingualite.tokenization import load_tokenizer

pytestmark = pytest.mark.slow  # trains a model: left out of the fast tier


def test_tiny_distillation_reduces_validation_mse(tiny_distill_config, tmp_path: Path) -> None:
    from sentence_transformers import SentenceTransformer

    cfg = tiny_distill_config(optim={"max_steps": 60, "eval_every": 30})
    out = tmp_path / "run"
    result = distill(cfg, out, progress=False)

    initial, final = result.initial_metrics, result.final_metrics
    assert final["valid_mse"] < 0.5 * initial["valid_mse"], (initial, final)
    assert final["valid_mse_target"] < initial["valid_mse_target"]  # the French side moved onto the teacher
    records = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert records[0]["step"] == 0 and records[-1]["step"] == 60
    assert all("elapsed_s" in r for r in records)  # every recipe logs its clock (eval efficiency reads it)
    # the one warm-up rule: 10% of 60 steps = 6 warm-up steps from 0; the first log is at step 2
    first = next(r for r in records if "lr" in r)
    assert first["step"] == 2 and first["lr"] == pytest.approx(3e-3 * 2 / 6)
    assert yaml.safe_load((out / "config.yaml").read_text())["mode"] == "distill"

    summary = json.loads((out / "summary.json").read_text())
    assert summary["pca"]["from_dim"] == 32 and summary["pca"]["dim"] == 8
    assert summary["vocabulary"]["shares"].keys() == {"en", "fr"}
    assert not (out / "lingualite_matryoshka.json").exists()  # no matryoshka_dims: no trained sizes recorded
    assert "Matryoshka" not in (out / "README.md").read_text()

    # The run folder is the student; the reduced teacher sits beside it; both give 8-d vectors.
    texts = ["the big cat runs", "le grand chat court"]
    student_st = SentenceTransformer(str(out), device="cpu")
    assert student_st.encode(texts).shape == (2, 8)
    assert SentenceTransformer(str(out / "teacher"), device="cpu").encode(texts).shape == (2, 8)
    # ... and its vectors are those of lingualite's own forward with the final checkpoint's weights.
    tokenizer = load_tokenizer(out / "tokenizer")
    student = StudentEncoder(dataclasses.replace(cfg.student, vocab_size=len(tokenizer)), 8)
    student.load_state_dict(load_file(out / "checkpoints" / "step-0000060" / "model.safetensors"))
    np.testing.assert_allclose(student_st.encode(texts), student.encode_texts(tokenizer, texts), atol=1e-5)


def test_resume_continues_exactly(tiny_distill_config, tmp_path: Path) -> None:
    cfg = tiny_distill_config(student={"dropout": 0.1})  # dropout: the RNG state must be restored too
    distill(cfg, tmp_path / "straight", progress=False, validate=False)
    # The same vocabulary for both runs: tokenizers' WordPiece trainer is not deterministic
    # (huggingface/tokenizers#1794), which made this test fail now and then; resume itself reuses its own.
    cfg = tiny_distill_config(
        student={"dropout": 0.1}, vocabulary={"path": str(tmp_path / "straight" / "tokenizer")}
    )
    distill(cfg, tmp_path / "split", progress=False, validate=False, stop_after=4)
    assert not (tmp_path / "split" / "modules.json").exists()  # interrupted: no export yet
    with pytest.raises(LinguaLiteError, match="--resume"):
        distill(cfg, tmp_path / "split", progress=False, validate=False)
    result = distill(cfg, tmp_path / "split", resume=True, progress=False, validate=False)
    assert result.steps == 8 and (tmp_path / "split" / "modules.json").exists()
    a = load_file(tmp_path / "straight" / "checkpoints" / "step-0000008" / "model.safetensors")
    b = load_file(tmp_path / "split" / "checkpoints" / "step-0000008" / "model.safetensors")
    assert a.keys() == b.keys()
    for key in a:  # bit-identical, as for every recipe (the one training loop restores everything)
        assert torch.equal(a[key], b[key]), key


def test_the_student_can_read_the_teachers_own_vocabulary(
    tiny_distill_config, tiny_teacher: Path, tmp_path: Path
) -> None:
    cfg = tiny_distill_config(vocabulary={"kind": "teacher"}, optim={"max_steps": 4})
    distill(cfg, tmp_path / "run", progress=False, validate=False)
    teacher_vocab = load_tokenizer(tiny_teacher).get_vocab()
    assert load_tokenizer(tmp_path / "run").get_vocab() == teacher_vocab
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["vocabulary"] == {"path": str(tiny_teacher), "size": len(teacher_vocab)}
    embeddings = load_file(tmp_path / "run" / "model.safetensors")
    assert any(t.shape[0] == len(teacher_vocab) for t in embeddings.values())

    # The teacher names the vocabulary the checkpoints read: no resume with another, even when allowed.
    shutil.copytree(tiny_teacher, tmp_path / "teacher-copy")
    other = tiny_distill_config(
        vocabulary={"kind": "teacher"}, teacher={"name": str(tmp_path / "teacher-copy")}
    )
    with pytest.raises(
        LinguaLiteError, match=r"\(teacher\.name\); the checkpoints were trained with the saved"
    ):
        distill(
            other, tmp_path / "run", resume=True, allow_config_change=True, progress=False, validate=False
        )

    with pytest.raises(ConfigError, match="kind teacher takes the teacher's tokenizer; do not set path"):
        tiny_distill_config(vocabulary={"kind": "teacher", "path": str(tiny_teacher)})

    # A teacher without a tokenizer of its own: one line, before the teacher encodes anything.
    cfg = tiny_distill_config(vocabulary={"kind": "teacher"}, teacher={"name": "use-m"})
    with pytest.raises(LinguaLiteError, match="vocabulary.kind teacher: teacher.name 'use-m'"):
        distill(cfg, tmp_path / "other", progress=False, validate=False)


def test_a_numpy_teacher_gets_the_projection_in_numpy(
    tiny_distill_config, tmp_path: Path, monkeypatch
) -> None:
    rng = np.random.default_rng(0)
    table = rng.normal(size=(64, 12)).astype(np.float32)

    def encode(texts: list[str]) -> np.ndarray:  # a bag of hashed words: any function of the text will do
        return np.stack([table[[hash(w) % 64 for w in t.split()]].mean(0) for t in texts])

    monkeypatch.setattr(train_module, "load_teacher", lambda *a, **k: Teacher("numpy", encode, "numpy-bag"))
    cfg = tiny_distill_config(pca={"dim": 4, "center": True}, optim={"max_steps": 4})
    torch.set_num_threads(1)
    result = distill(cfg, tmp_path / "run", progress=False, threads=2)
    assert torch.get_num_threads() == 1  # the caller's setting is back
    assert result.summary["pca"]["method"].startswith("centred")
    assert not (tmp_path / "run" / "teacher").exists()  # nothing to append a layer to
    assert result.summary["student"]["output_dim"] == 4


def test_cli_command_help_success_and_one_line_errors(tiny_distill_config, tmp_path: Path) -> None:
    import typer
    from typer.testing import CliRunner

    from lingualite.cli.train_commands import distill as distill_command

    app = typer.Typer()
    app.command("distill")(distill_command)
    app.command("noop")(lambda: None)  # two commands: typer then keeps the sub-command name
    runner = CliRunner()

    help_text = runner.invoke(app, ["distill", "--help"]).output
    assert "paper 002" in help_text and "--resume" in help_text and "--max-steps" in help_text

    config = tmp_path / "tiny.yaml"
    config.write_text(yaml.safe_dump(tiny_distill_config().to_dict()))
    ok = runner.invoke(
        app,
        ["distill", "--config", str(config), "--output", str(tmp_path / "o"), "--max-steps", "2", "--json"],
    )
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.stdout.strip().splitlines()[-1])["steps"] == 2

    config.write_text("student:\n  hidden_sise: 3\n")
    bad = runner.invoke(app, ["distill", "--config", str(config)])
    assert bad.exit_code == 2 and "error:" in bad.output and "hidden_sise" in bad.output


def test_distillation_refuses_a_folder_another_run_is_writing(locked_folder, tiny_distill_config) -> None:
    folder, pid = locked_folder
    with pytest.raises(LinguaLiteError, match=f"pid {pid}"):
        distill(tiny_distill_config(), folder, progress=False)


def test_a_run_killed_before_its_first_checkpoint_logs_step_0_once(
    tiny_distill_config, tmp_path: Path
) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / ".lingualite-run").write_text('{"kind": "distill"}')
    (run / "metrics.jsonl").write_text('{"step": 0, "valid_xsr_p_at_1": 0.1}\n{"step": 2, "loss": 1.0}\n')
    distill(tiny_distill_config(), run, resume=True, progress=False)  # what --resume does after such a kill
    steps = [json.loads(line)["step"] for line in (run / "metrics.jsonl").read_text().splitlines()]
    assert steps == sorted(set(steps)) and steps[0] == 0


@pytest.mark.parametrize(("kind", "loss"), [("transformer", "cosine"), ("static", "mse+cosine")])
def test_issue_40_levers_teacher_token_rows_and_cosine_loss(
    tiny_distill_config, tmp_path: Path, monkeypatch, kind: str, loss: str
) -> None:
    from lingualite.recipes.distill.token_init import TeacherTokens

    rng = np.random.default_rng(0)
    bag = rng.normal(size=(64, 12)).astype(np.float32)
    table = rng.normal(size=(51, 24)).astype(np.float32)

    def encode(texts: list[str]) -> np.ndarray:
        return np.stack([bag[[hash(w) % 64 for w in t.split()]].mean(0) for t in texts])

    def pieces(text: str, word_start: bool) -> list[int]:  # a piece per character, 50 for the word start
        return [ord(c) % 50 for c in text if c != "x"] + ([50] if word_start else [])

    monkeypatch.setattr(train_module, "load_teacher", lambda *a, **k: Teacher("numpy", encode, "numpy-bag"))
    monkeypatch.setattr(train_module, "teacher_tokens", lambda name: TeacherTokens(table, pieces))
    cfg = tiny_distill_config(
        teacher={"name": "use-m"},
        student={"kind": kind, "init_embeddings": "teacher"},
        optim={"max_steps": 3, "loss": loss},
    )
    result = distill(cfg, tmp_path / "run", progress=False)
    counts = result.summary["token_init"]
    assert counts["from_teacher"] > 100 and counts["special"] >= 4
    total = counts["from_teacher"] + counts["random"] + counts["special"]
    assert total == result.summary["student"]["vocab_size"]
    assert counts["teacher_table"] == [51, 24]
    assert np.isfinite(result.summary["final_metrics"]["valid_mse"])
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["token_init"] == counts


@pytest.mark.parametrize("kind", ["transformer", "static"])
def test_the_alignment_term_is_trained_and_logged(tiny_distill_config, tmp_path: Path, kind: str) -> None:
    cfg = tiny_distill_config(
        student={"kind": kind}, optim={"max_steps": 3, "alignment_weight": 0.01, "log_every": 1}
    )
    result = distill(cfg, tmp_path / "run", progress=False)
    logged = [json.loads(line) for line in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()]
    terms = [row["alignment"] for row in logged if "alignment" in row]
    assert terms and all(np.isfinite(t) and t >= 0 for t in terms) and terms[0] > 0  # a softmax's CE
    assert np.isfinite(result.summary["final_metrics"]["valid_mse"])
    assert "alignment" not in {
        k for row in logged if row["step"] == 0 for k in row
    }  # validation is plain MSE
