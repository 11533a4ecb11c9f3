"""Sentence-transformers folders on the device rule (encoders.folder): the CPU path is sentence-transformers'
own encode; the GPU path (encode_pipelined: tokenise ahead, one copy back) gives the same vectors, tested here by
running it on the CPU; a CUDA out-of-memory names the batch size."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from lingualite.config.encoder import EncoderConfig
from lingualite.core.device import DeviceError
from lingualite.encoders import load_encoder
from lingualite.encoders.folder import SentenceTransformerEncoder, encode_pipelined
from lingualite.models.dual_encoder import DualEncoder

TEXTS = ["the cat", "le chien rouge mange vite", "a", "the big blue house sleeps slowly", "un chat", "le"] * 3


@pytest.fixture(scope="module")
def folder(tiny_tokenizer, tmp_path_factory) -> Path:
    torch.manual_seed(0)
    enc = DualEncoder(EncoderConfig(vocab_size=len(tiny_tokenizer), hidden_size=16, num_heads=2, ffn_size=32))
    return enc.save(tiny_tokenizer, tmp_path_factory.mktemp("st") / "model")


def test_on_a_cpu_it_is_float32_at_the_cpu_batch_size(folder: Path, one_torch_thread) -> None:
    encoder = SentenceTransformerEncoder(folder, threads=1, device="cpu")
    assert encoder.device == torch.device("cpu") and encoder.batch_size == 128
    assert encoder.model.dtype == torch.float32
    assert load_encoder(str(folder), threads=1, device="auto").device == torch.device("cpu")
    assert SentenceTransformerEncoder(folder, batch_size=7, threads=1, device="cpu").batch_size == 7


def test_the_gpu_pipeline_gives_sentence_transformers_vectors(folder: Path, one_torch_thread) -> None:
    model = SentenceTransformerEncoder(folder, threads=1, device="cpu").model
    expected = model.encode(TEXTS, batch_size=4, convert_to_numpy=True)
    got = encode_pipelined(model, TEXTS, batch_size=4)
    assert got.dtype == np.float32 and got.shape == expected.shape
    np.testing.assert_allclose(got, expected, atol=1e-5)
    model.prompts = {"query": "query: "}  # a folder's prompt is applied as sentence-transformers applies it
    np.testing.assert_allclose(
        encode_pipelined(model, TEXTS, 5, "query"), model.encode(TEXTS, prompt_name="query"), atol=1e-5
    )
    assert encode_pipelined(model, [], 4).shape == (0, expected.shape[1])


def test_out_of_memory_is_one_line_naming_the_batch_size(folder: Path, one_torch_thread, monkeypatch) -> None:
    encoder = SentenceTransformerEncoder(folder, batch_size=256, threads=1, device="cpu")

    def out_of_memory(*args: object, **kwargs: object) -> None:
        raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 20.00 GiB")

    monkeypatch.setattr(encoder.model, "encode", out_of_memory)
    with pytest.raises(DeviceError, match=r"batch of 256: lower --batch-size \(e.g. 128\)"):
        encoder.encode(TEXTS)


def test_a_bad_device_is_refused_for_any_model() -> None:
    with pytest.raises(DeviceError, match="choose auto, cpu, cuda or cuda:N"):
        load_encoder("tfidf", device="gpu")
