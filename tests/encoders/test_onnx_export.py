"""ONNX export: the whole encoder in one graph, equal to the torch model (fp32) or close (int8), loadable by
plain onnxruntime, by lingualite (``onnx:`` / ``onnx-int8:``) and still by sentence-transformers."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
import torch

from lingualite.config.encoder import EncoderConfig
from lingualite.core.errors import LinguaLiteError
from lingualite.encoders.onnx import OnnxEncoder, onnx_graph_of
from lingualite.encoders.onnx_export import export_onnx
from lingualite.encoders.resolve import load_encoder

pytestmark = pytest.mark.slow  # exports and checks ONNX graphs: left out of the fast tier


def _sentences(n: int = 300) -> list[str]:
    rng = random.Random(0)
    words = [
        "the",
        "a",
        "cat",
        "dog",
        "house",
        "car",
        "red",
        "blue",
        "big",
        "small",
        "runs",
        "eats",
        "le",
        "chat",
        "chien",
        "maison",
        "rouge",
        "bleu",
    ]
    return [" ".join(rng.choice(words) for _ in range(rng.randint(1, 20))) for _ in range(n)]


def _cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a = a / np.linalg.norm(a, axis=1, keepdims=True)
    b = b / np.linalg.norm(b, axis=1, keepdims=True)
    return (a * b).sum(axis=1)


@pytest.fixture(scope="module")
def models(tiny_tokenizer, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Three kinds of lingualite model: mean pooling, mean pooling + Dense, mean-max pooling."""
    from lingualite.models.context_encoder import ContextEncoder
    from lingualite.models.dual_encoder import DualEncoder
    from lingualite.recipes.distill.student import StudentEncoder

    root = tmp_path_factory.mktemp("onnx-models")
    torch.manual_seed(0)
    cfg = EncoderConfig(
        vocab_size=len(tiny_tokenizer), hidden_size=32, num_heads=2, ffn_size=64, max_seq_length=24
    )
    return {
        "dual": DualEncoder(cfg).save(tiny_tokenizer, root / "dual"),
        "student": StudentEncoder(cfg, 8).save(tiny_tokenizer, root / "student"),
        "mean_max": ContextEncoder(cfg, "mean_max").save(tiny_tokenizer, root / "mono"),
    }


@pytest.mark.parametrize("kind", ["dual", "student", "mean_max"])
def test_fp32_and_int8_graphs_match_the_torch_model(models, kind: str, tmp_path: Path) -> None:
    from sentence_transformers import SentenceTransformer

    result = export_onnx(models[kind], tmp_path / "out", quantize="int8")
    texts = _sentences()
    torch_vectors = SentenceTransformer(str(models[kind]), device="cpu").encode(texts)
    fp32 = load_encoder(f"onnx:{tmp_path / 'out'}").encode(texts)
    int8 = load_encoder(f"onnx-int8:{tmp_path / 'out'}").encode(texts)
    assert fp32.shape == torch_vectors.shape == int8.shape
    assert _cosines(fp32, torch_vectors).min() >= 0.999
    assert _cosines(int8, torch_vectors).min() >= 0.99
    assert result.int8_bytes < result.fp32_bytes
    # the exported folder still loads in sentence-transformers (torch backend) and gives the same vectors
    again = SentenceTransformer(str(tmp_path / "out"), device="cpu").encode(texts[:20])
    np.testing.assert_allclose(again, torch_vectors[:20], atol=1e-6)


def test_a_4_bit_token_table_halves_the_table_and_keeps_the_vectors(models, tmp_path: Path) -> None:
    import json

    import onnx

    int8 = export_onnx(models["student"], tmp_path / "int8", quantize="int8")
    table4 = export_onnx(models["student"], tmp_path / "table4", quantize="int8-table4")
    graph = onnx.load(str(tmp_path / "table4" / "onnx" / "encoder_int8.onnx"))
    assert "GatherBlockQuantized" in {n.op_type for n in graph.graph.node}
    assert table4.int8_bytes < int8.int8_bytes
    texts = _sentences()
    reference = load_encoder(f"onnx:{tmp_path / 'table4'}").encode(texts)
    vectors = load_encoder(f"onnx-int8:{tmp_path / 'table4'}").encode(texts)
    assert _cosines(vectors, reference).min() >= 0.97
    meta = json.loads((tmp_path / "table4" / "onnx" / "lingualite_onnx.json").read_text(encoding="utf-8"))
    done = meta["quantization"]
    assert done["mode"] == "int8-table4" and done["tables"] == "int4" and done["opset"] >= 21
    assert any("word_embeddings" in name for name in done["tables_quantized"])
    assert meta["parity_min_cosine"]["int8"] == pytest.approx(table4.int8_cosine_min, abs=1e-6)
    with pytest.raises(LinguaLiteError, match="int8-table4"):
        export_onnx(models["student"], tmp_path / "bad", quantize="int4")


def test_the_4_bit_quantizer_leaves_no_logging_handler_behind(models, tmp_path: Path) -> None:
    import logging

    root = logging.getLogger()
    before = list(root.handlers)
    export_onnx(models["student"], tmp_path / "out", quantize="int8-table4")
    assert root.handlers == before


def test_plain_onnxruntime_needs_only_the_graph_and_the_tokenizer(models, tmp_path: Path) -> None:
    import onnxruntime as ort
    from sentence_transformers import SentenceTransformer
    from tokenizers import Tokenizer

    export_onnx(models["student"], tmp_path / "out")
    tokenizer = Tokenizer.from_file(str(tmp_path / "out" / "tokenizer.json"))
    tokenizer.enable_padding()
    batch = tokenizer.encode_batch(["the big cat runs", "le chat"])
    session = ort.InferenceSession(str(tmp_path / "out" / "onnx" / "encoder.onnx"))
    (vectors,) = session.run(
        None,
        {
            "input_ids": np.array([e.ids for e in batch], dtype=np.int64),
            "attention_mask": np.array([e.attention_mask for e in batch], dtype=np.int64),
        },
    )
    expected = SentenceTransformer(str(models["student"]), device="cpu").encode(
        ["the big cat runs", "le chat"]
    )
    np.testing.assert_allclose(vectors, expected, atol=1e-5)


def test_length_sorted_batches_keep_the_input_order(models, tmp_path: Path) -> None:
    export_onnx(models["dual"], tmp_path / "out")
    texts = _sentences(50)
    batched = OnnxEncoder(tmp_path / "out", run_size=7).encode(texts)
    one_by_one = np.concatenate([OnnxEncoder(tmp_path / "out", run_size=1).encode([t]) for t in texts[:10]])
    np.testing.assert_allclose(batched[:10], one_by_one, atol=1e-5)
    assert OnnxEncoder(tmp_path / "out").encode([]).shape == (0, 32)


def test_refusals_are_one_line(models, tmp_path: Path) -> None:
    with pytest.raises(LinguaLiteError, match="inside"):
        export_onnx(models["dual"], models["dual"] / "onnx-copy")
    with pytest.raises(LinguaLiteError, match="quantize"):
        export_onnx(models["dual"], tmp_path / "x", quantize="int4")
    with pytest.raises(LinguaLiteError, match="lingualite export"):
        onnx_graph_of(models["dual"], int8=True)
    assert not (tmp_path / "x").exists()


def test_cli_export_then_encode(models, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from lingualite.cli.main import app

    runner = CliRunner()
    res = runner.invoke(
        app,
        [
            "export",
            "--model",
            str(models["dual"]),
            "--output",
            str(tmp_path / "o"),
            "--quantize",
            "int8",
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    (tmp_path / "in.txt").write_text("the cat\nle chat\n")
    res = runner.invoke(
        app,
        [
            "encode",
            "--model",
            f"onnx-int8:{tmp_path / 'o'}",
            "--input",
            str(tmp_path / "in.txt"),
            "--output",
            str(tmp_path / "v.npy"),
        ],
    )
    assert res.exit_code == 0, res.output
    assert np.load(tmp_path / "v.npy").shape == (2, 32)


def test_efficiency_measures_an_onnx_spec_in_a_fresh_process(models, tmp_path: Path) -> None:
    from lingualite.evaluation.efficiency import measure_efficiency

    export_onnx(models["dual"], tmp_path / "out", quantize="int8")
    ballast = np.ones((4000, 10000))  # 320 MB in this process: the worker must not report it as its own
    result = measure_efficiency(f"onnx-int8:{tmp_path / 'out'}", _sentences(40), single_runs=5, energy=False)
    assert result["sentences_per_second"] > 0 and result["name"].endswith("onnx_int8")
    assert result["size_on_disk_mb"] < 1 and result["peak_rss_mb"] < ballast.nbytes / 2**20


def test_report_keys_runtime_specs_by_content(models, tmp_path: Path) -> None:
    from lingualite.encoders.spec import model_content_key as _model_key

    export_onnx(models["dual"], tmp_path / "out", quantize="int8")
    fp32, int8 = _model_key(f"onnx:{tmp_path / 'out'}"), _model_key(f"onnx-int8:{tmp_path / 'out'}")
    assert fp32.startswith("onnx:") and int8.startswith("onnx-int8:") and fp32 != int8
    export_onnx(models["student"], tmp_path / "other")
    (tmp_path / "out" / "onnx" / "encoder.onnx").write_bytes(
        (tmp_path / "other" / "onnx" / "encoder.onnx").read_bytes()
    )
    assert _model_key(f"onnx:{tmp_path / 'out'}") != fp32  # a replaced graph is a new model for the caches


def test_token_counts_are_the_torch_models(models, tmp_path: Path) -> None:
    """``count_tokens`` (the usage of /v1/embeddings): the same count, special tokens and truncation to
    max_seq_length (24 here) included, for the torch folder, its bf16 runtime and its ONNX graph."""
    export_onnx(models["dual"], tmp_path / "out")
    texts = _sentences(30) + ["the cat " * 40]  # the last one is truncated
    torch_counts = load_encoder(str(models["dual"])).count_tokens(texts)
    assert torch_counts[-1] == 24 and min(torch_counts) >= 3  # [CLS] word(s) [SEP]
    assert load_encoder(f"onnx:{tmp_path / 'out'}").count_tokens(texts) == torch_counts
    assert load_encoder(f"bf16:{models['dual']}").count_tokens(texts) == torch_counts
