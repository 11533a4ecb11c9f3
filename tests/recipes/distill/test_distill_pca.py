"""PCA as a Dense layer: it computes exactly scikit-learn's projection, alone and appended to a teacher."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import torch

from lingualite.recipes.distill.pca import (
    append_to_teacher,
    fit_projection,
    load_projection,
    projection_to_dense,
    save_projection,
)


def _vectors(n: int = 400, d: int = 24, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    # Anisotropic, off-centre vectors (like real sentence embeddings) so centring matters.
    return (rng.normal(size=(n, d)) * np.linspace(3.0, 0.1, d) + 0.5).astype(np.float32)


def _dense_output(projection, x: np.ndarray) -> np.ndarray:
    dense = projection_to_dense(projection)
    with torch.no_grad():
        return dense({"sentence_embedding": torch.from_numpy(x)})["sentence_embedding"].numpy()


def test_uncentred_dense_is_bias_free_and_equals_truncated_svd() -> None:
    x = _vectors()
    projection, svd = fit_projection(x[:300], 6, center=False)
    assert type(svd).__name__ == "TruncatedSVD"
    assert projection.bias is None and projection_to_dense(projection).linear.bias is None
    held_out = x[300:]
    np.testing.assert_allclose(_dense_output(projection, held_out), svd.transform(held_out), atol=1e-4)
    np.testing.assert_allclose(projection.apply(held_out), svd.transform(held_out), atol=1e-4)
    assert 0.5 < projection.kept_energy <= 1.0


def test_centred_dense_folds_the_mean_into_its_bias_and_equals_pca() -> None:
    x = _vectors()
    projection, pca = fit_projection(x[:300], 6, center=True)
    assert type(pca).__name__ == "PCA"
    np.testing.assert_allclose(projection.bias, -(pca.components_ @ pca.mean_), atol=1e-5)
    held_out = x[300:]
    np.testing.assert_allclose(_dense_output(projection, held_out), pca.transform(held_out), atol=1e-4)
    assert projection.explained_variance == pytest.approx(pca.explained_variance_ratio_.sum(), abs=1e-6)


def test_reduced_teacher_equals_projection_of_teacher_vectors(tiny_teacher: Path, tmp_path: Path) -> None:
    from sentence_transformers import SentenceTransformer

    teacher = SentenceTransformer(str(tiny_teacher), device="cpu")
    texts = [f"the {w} cat runs" for w in ("big", "small", "red", "blue")] * 10
    full = teacher.encode(texts)
    projection, _ = fit_projection(full, 8)
    reduced = append_to_teacher(teacher, projection)
    reduced.save(str(tmp_path / "reduced"), safe_serialization=True)
    reloaded = SentenceTransformer(str(tmp_path / "reduced"), device="cpu")
    assert reloaded.get_embedding_dimension() == 8
    np.testing.assert_allclose(reloaded.encode(texts), projection.apply(full), atol=1e-5)


def test_save_and_load_projection_round_trip(tmp_path: Path) -> None:
    projection, _ = fit_projection(_vectors(), 5, center=True)
    folder = save_projection(projection, tmp_path / "pca")
    assert (folder / "model.safetensors").exists() and not list(folder.glob("*.bin"))
    again = load_projection(folder)
    np.testing.assert_array_equal(again.components, projection.components)
    np.testing.assert_array_equal(again.bias, projection.bias)


@pytest.mark.parametrize("center", [False, True])
def test_reloaded_projection_gives_bit_identical_targets(tmp_path: Path, center: bool) -> None:
    # A fresh fit and its reload hold the same numbers in different memory layouts; BLAS rounds each layout
    # differently, which made a resumed distillation drift from an uninterrupted one by ~1e-7.
    x = _vectors(600, 32).astype(np.float32)
    projection, _ = fit_projection(x, 8, center=center)
    again = load_projection(save_projection(projection, tmp_path / "pca"))
    np.testing.assert_array_equal(again.apply(x), projection.apply(x))


def test_dimension_must_shrink() -> None:
    with pytest.raises(ValueError, match="pca.dim"):
        fit_projection(_vectors(d=8), 8)
