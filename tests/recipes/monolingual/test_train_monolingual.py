"""End to end on tiny documents: both stages run, log per stage, export a loadable model, resume cleanly."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest
import yaml
from monolingual_configs import tiny_monolingual_dict
from typer.testing import CliRunner

from lingualite.cli.main import app
from lingualite.config import MonolingualConfig, config_mode, load_monolingual_config
from lingualite.config.parsing import from_dict
from lingualite.core.errors import ConfigError, LinguaLiteError
from lingualite.recipes.monolingual.train_monolingual import train_monolingual

pytestmark = pytest.mark.slow  # trains a model: left out of the fast tier


def tiny_config(
    root: Path, classification_steps: int = 40, tokenizer: Path | None = None
) -> MonolingualConfig:
    return from_dict(MonolingualConfig, tiny_monolingual_dict(root, classification_steps, tokenizer), "test")


@pytest.fixture(scope="module")
def trained(document_files: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    import torch

    out = tmp_path_factory.mktemp("run") / "mono"
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # the autouse one-thread fixture is function-scoped: it does not cover this one
    try:
        train_monolingual(tiny_config(document_files, classification_steps=200), out, progress=False)
    finally:
        torch.set_num_threads(threads)
    return out


def test_every_stage_is_logged_with_precision_and_xsr(trained: Path) -> None:
    rows = [json.loads(line) for line in (trained / "stages.jsonl").read_text().splitlines()]
    assert [r["stage"] for r in rows] == ["initial", "classification", "iteration-1", "iteration-2"]
    for row in rows:
        assert 0 <= row["mined_precision"] <= 1 and 0 <= row["valid_xsr_p_at_1"] <= 1
        assert {"valid_xsr_p_at_1/en-fr", "valid_xsr_p_at_1/en-de"} <= set(row)
    for row in rows[2:]:
        assert row["mined_pairs"] == 90 and set(row["mined_per_language_pair"]) <= {"en-fr", "en-de", "fr-de"}
    summary = json.loads((trained / "summary.json").read_text())
    assert [r["stage"] for r in summary["iterations"]] == [r["stage"] for r in rows]


def test_the_log_has_every_recipes_clock_and_eval_efficiency_reads_it(trained: Path) -> None:
    from lingualite.evaluation.training_time import training_time_per_10k_steps

    records = [json.loads(line) for line in (trained / "metrics.jsonl").read_text().splitlines()]
    assert records and all("elapsed_s" in r and "lr" in r for r in records)
    timing = training_time_per_10k_steps(trained)
    assert timing is not None and timing["source"] == "metrics.jsonl:elapsed_s"
    assert timing["seconds_per_10k_steps"] > 0


def test_the_export_truncates_where_validation_did(trained: Path) -> None:
    """The model is validated (and mines) on single sentences of max_sentence_tokens + 2 tokens; the exported
    model truncates there too, so users get the vectors that were measured."""
    from safetensors.torch import load_model
    from sentence_transformers import SentenceTransformer

    from lingualite.config import load_monolingual_config
    from lingualite.models.context_encoder import ContextEncoder
    from lingualite.tokenization import load_tokenizer

    cfg = load_monolingual_config(trained / "config.yaml")
    exported = SentenceTransformer(str(trained), device="cpu")
    assert exported.max_seq_length == cfg.context.max_sentence_tokens + 2 == 18
    tokenizer = load_tokenizer(trained / "tokenizer")
    shape = dataclasses.replace(cfg.model, vocab_size=len(tokenizer))
    model = ContextEncoder(shape, cfg.model.pooling, sentence_length=cfg.context.sentence_length)
    load_model(
        model, str(sorted((trained / "checkpoints" / "iteration-2").iterdir())[-1] / "model.safetensors")
    )
    long = " ".join(["the cat runs and the dog sleeps"] * 6)  # far beyond 18 tokens
    texts = [long, "le chat court"]
    np.testing.assert_allclose(exported.encode(texts), model.encode_texts(tokenizer, texts), atol=1e-5)


def test_classification_learns(trained: Path) -> None:
    records = [json.loads(line) for line in (trained / "metrics.jsonl").read_text().splitlines()]
    cls = [r for r in records if r["stage"] == "classification"]
    assert len(cls) == 10 and cls[-1]["loss"] < cls[0]["loss"] - 0.02  # random replacements become detectable


def test_mined_pairs_are_distinct_and_index_the_corpus(trained: Path, document_files: Path) -> None:
    from lingualite.data.pairs import expand_files
    from lingualite.models.context_encoder import ContextEncoder
    from lingualite.models.encoding import encode_batched
    from lingualite.recipes.monolingual.contexts import TokenizedCorpus
    from lingualite.recipes.monolingual.documents import build_monolingual_corpus
    from lingualite.tokenization import load_tokenizer

    cfg = tiny_config(document_files)
    tokenizer = load_tokenizer(trained / "tokenizer")
    corpus = build_monolingual_corpus(
        expand_files(cfg.data.train_files, "t"), cfg.data.languages, seed=cfg.seed
    )
    data = TokenizedCorpus.build(corpus, tokenizer, cfg.context.max_sentence_tokens)
    with np.load(trained / "mined" / "iteration-1.npz") as mined:
        a, b, cosine = mined["a"], mined["b"], mined["cosine"]
        assert len(set(zip(a.tolist(), b.tolist(), strict=True))) == len(a) == 90
        assert np.array_equal(data.language[a], mined["lang_a"]) and np.array_equal(
            data.language[b], mined["lang_b"]
        )
    # the saved coherence scores are the cosines of those very sentences under the classification-stage model
    import dataclasses

    from safetensors.torch import load_model

    from lingualite.models.run_folder import list_checkpoints

    model = ContextEncoder(dataclasses.replace(cfg.model, vocab_size=len(tokenizer)), cfg.model.pooling)
    load_model(
        model, str(list_checkpoints(trained / "checkpoints" / "classification")[-1] / "model.safetensors")
    )
    length = cfg.context.max_sentence_tokens + 2
    va = encode_batched(model, model, tokenizer, [data.texts[i] for i in a[:10]], model.output_dim, length)
    vb = encode_batched(model, model, tokenizer, [data.texts[i] for i in b[:10]], model.output_dim, length)
    expected = np.sum(va * vb, 1) / np.linalg.norm(va, axis=1) / np.linalg.norm(vb, axis=1)
    np.testing.assert_allclose(cosine[:10], expected, atol=1e-4)


def test_export_loads_in_sentence_transformers(trained: Path) -> None:
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(str(trained), device="cpu")
    vectors = model.encode(["the cat runs", "le chat court"])
    assert vectors.shape == (2, 64)  # mean-max of width 32
    assert not list(trained.glob("*.bin"))


def _encoder_weights(folder: Path) -> dict:
    """The exported weights, without BERT's pooler: transformers adds a freshly initialised one on loading,
    which sentence-transformers never uses (it pools the token states)."""
    from safetensors.torch import load_file

    return {k: v for k, v in load_file(folder / "model.safetensors").items() if not k.startswith("pooler.")}


def _assert_same(a: dict, b: dict) -> None:
    import torch

    assert a.keys() == b.keys()
    for key in a:
        torch.testing.assert_close(a[key], b[key], rtol=0, atol=0)


def test_second_run_needs_resume_and_resume_of_a_finished_run_exports(
    trained: Path, document_files: Path
) -> None:
    cfg = tiny_config(document_files, classification_steps=200)
    with pytest.raises(LinguaLiteError, match="--resume"):
        train_monolingual(cfg, trained, progress=False)
    before = _encoder_weights(trained)
    result = train_monolingual(cfg, trained, resume=True, progress=False)
    _assert_same(_encoder_weights(trained), before)
    assert [r["stage"] for r in result.iterations][-1] == "iteration-2"


def test_resume_mid_stage_matches_an_uninterrupted_run(
    document_files: Path, vocabulary: Path, tmp_path: Path
) -> None:
    cfg = tiny_config(document_files, tokenizer=vocabulary)
    full = tmp_path / "full"
    train_monolingual(cfg, full, progress=False)
    # interrupt: drop the last stage's finished record and its final checkpoint, keep an earlier one
    part = tmp_path / "part"
    train_monolingual(cfg, part, progress=False)
    rows = (part / "stages.jsonl").read_text().splitlines()
    (part / "stages.jsonl").write_text("\n".join(rows[:-1]) + "\n")
    ckpts = sorted((part / "checkpoints" / "iteration-2").iterdir())
    assert len(ckpts) == 2
    import shutil

    shutil.rmtree(ckpts[-1])
    (part / "model.safetensors").unlink()
    train_monolingual(cfg, part, resume=True, progress=False)
    _assert_same(_encoder_weights(part), _encoder_weights(full))


def test_resume_at_a_stage_boundary_matches_an_uninterrupted_run(
    document_files: Path, tmp_path: Path
) -> None:
    import shutil

    cfg = tiny_config(document_files)
    full, part = tmp_path / "full", tmp_path / "part"
    train_monolingual(cfg, full, progress=False)
    train_monolingual(cfg, part, progress=False)
    # interrupt right after the classification stage: no iteration has begun
    rows = (part / "stages.jsonl").read_text().splitlines()
    (part / "stages.jsonl").write_text("\n".join(rows[:2]) + "\n")
    for name in ("iteration-1", "iteration-2"):
        shutil.rmtree(part / "checkpoints" / name)
        (part / "mined" / f"{name}.npz").unlink()
    train_monolingual(cfg, part, resume=True, progress=False)
    _assert_same(_encoder_weights(part), _encoder_weights(full))


def test_mined_pairs_of_another_corpus_are_refused(document_files: Path, tmp_path: Path) -> None:
    cfg = tiny_config(document_files)
    out = tmp_path / "run"
    train_monolingual(cfg, out, progress=False)
    (out / "stages.jsonl").write_text("\n".join((out / "stages.jsonl").read_text().splitlines()[:2]) + "\n")
    import shutil

    for name in ("iteration-1", "iteration-2"):
        shutil.rmtree(out / "checkpoints" / name)
    cfg.data.languages = ["en", "fr"]  # other documents, other sentence indices
    with pytest.raises(LinguaLiteError, match=r"changed config \(data.languages\)"):
        train_monolingual(cfg, out, resume=True, progress=False)
    with pytest.raises(LinguaLiteError, match="mined for another corpus"):  # even when the change is allowed
        train_monolingual(cfg, out, resume=True, progress=False, allow_config_change=True)


def test_cli_dispatches_on_mode(document_files: Path, tmp_path: Path) -> None:
    cfg = tiny_config(document_files).to_dict()
    cfg["classification"]["max_steps"] = 5
    cfg["mining"]["iterations"] = 1
    path = tmp_path / "mono.yaml"

    path.write_text(yaml.safe_dump(cfg))
    result = CliRunner().invoke(
        app, ["train", "--config", str(path), "--output", str(tmp_path / "out"), "--json"]
    )
    assert result.exit_code == 0, result.output
    line = json.loads(result.stdout.strip().splitlines()[-1])
    assert line["stage"] == "iteration-1" and "valid_xsr_p_at_1" in line
    # the per-language-pair figures are grouped (one table for people, one object for scripts)
    assert line["per_pair"] and all("valid_xsr_p_at_1" in row for row in line["per_pair"].values())
    # the options of every recipe: --max-steps caps every stage (saved with the run's config)
    capped = CliRunner().invoke(
        app, ["train", "--config", str(path), "--output", str(tmp_path / "o2"), "--max-steps", "3", "--json"]
    )
    assert capped.exit_code == 0, capped.output
    stages = [json.loads(row) for row in (tmp_path / "o2" / "stages.jsonl").read_text().splitlines()]
    assert [row.get("steps") for row in stages[1:]] == [3, 3]
    saved = yaml.safe_load((tmp_path / "o2" / "config.yaml").read_text())
    assert saved["classification"]["max_steps"] == saved["regression"]["max_steps"] == 3


def test_shipped_config_and_bad_values(tmp_path: Path) -> None:
    cfg = load_monolingual_config("monolingual")
    assert cfg.model.pooling == "mean_max" and cfg.mining.iterations == 2
    assert cfg.data.corpus == "comparable"  # the paper's Wiki-Wiki setting; disjoint is its ablation
    assert cfg.mining.lexical_seed and cfg.mining.threshold == "auto"  # issue #16's additions by default
    paper = load_monolingual_config("monolingual-paper")  # the paper's own method, the off switch
    assert paper.mining.method == "blocks" and not paper.mining.lexical_seed and paper.mining.iterations == 3
    assert paper.regression.target == "cosine" and paper.regression.alignment_weight == 0.0
    assert config_mode("monolingual") == "monolingual" and config_mode("quickstart") == "parallel"
    bad = tmp_path / "bad.yaml"
    for body, message in (
        ("context:\n  window: 0\n", "context.window"),
        ("context:\n  window: 2\n", "must hold the whole context"),  # 5 x 40 + 2 tokens > 128
        ("data:\n  languages: [fr, de]\nmining:\n  language_pairs: english\n", "needs 'en'"),
        ("mining:\n  sample_size: 5000\n  pool_size: 100\n", "pool_size"),
        ("mining:\n  lexical_search_max_df: 0\n", "mining.lexical_search_max_df: must be > 0"),
        ("mining:\n  threshold: sometimes\n", "mining.threshold"),
    ):
        bad.write_text("mode: monolingual\n" + body)
        with pytest.raises(ConfigError, match=message):
            load_monolingual_config(bad)
    bad.write_text("mode: monolingual\nmining:\n  threshold: auto\n  lexical_search_max_df: null\n")
    good = load_monolingual_config(bad)
    assert good.mining.threshold == "auto" and good.mining.lexical_search_max_df is None
    bad.write_text("mode: nonsense\n")
    with pytest.raises(ConfigError, match="mode must be"):
        config_mode(bad)


def test_alignment_extension_is_logged_and_off_by_default(document_files: Path, tmp_path: Path) -> None:
    cfg = tiny_config(document_files)
    assert load_monolingual_config("monolingual-paper").regression.alignment_weight == 0.0  # the paper's
    cfg.classification.max_steps = 5
    cfg.mining.iterations = 1
    cfg.regression.alignment_weight = 1.0
    train_monolingual(cfg, tmp_path / "aligned", progress=False)
    records = [json.loads(line) for line in (tmp_path / "aligned" / "metrics.jsonl").read_text().splitlines()]
    regression = [r for r in records if r["stage"] == "iteration-1"]
    assert regression and all(r["alignment_loss"] > 0 for r in regression)


def test_validation_files_must_not_be_training_files(document_files: Path, tmp_path: Path) -> None:
    cfg = tiny_config(document_files)
    cfg.data.valid_files = [str(document_files / "en-fr" / "*.tsv")]  # a glob that also matches train.tsv
    with pytest.raises(LinguaLiteError, match="also training files"):
        train_monolingual(cfg, tmp_path / "run", progress=False)


def test_the_python_api_runs_a_monolingual_config(document_files: Path, tmp_path: Path) -> None:
    """``lingualite.train`` runs what ``lingualite train`` runs: the config's mode chooses the recipe."""
    import lingualite

    cfg = tiny_config(document_files, classification_steps=3)
    cfg.mining.iterations, cfg.regression.max_steps = 1, 2
    result = lingualite.train(cfg, tmp_path / "mono", progress=False)
    assert [row["stage"] for row in result.stages] == ["initial", "classification", "iteration-1"]
    assert (tmp_path / "mono" / "modules.json").exists() and result.summary["recipe"] == "monolingual"
    path = tmp_path / "mono.yaml"
    path.write_text(yaml.safe_dump(cfg.to_dict()))
    again = lingualite.train(path, tmp_path / "from-file", progress=False, max_steps=2)  # a file works too
    assert [row["steps"] for row in again.stages[1:]] == [2, 2]  # --max-steps caps every stage
