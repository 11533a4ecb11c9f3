"""Zero-shot cross-lingual sentence-pair classification: the XNLI protocol of paper 001.

Paper 001 (Wang et al., "Learning Multilingual Sentence Embeddings from Monolingual Corpus", Sec. 4.2),
following InferSent (Conneau et al., EMNLP 2017) and XNLI (Conneau et al., EMNLP 2018): the features of a pair
are ``[u, v, u * v, |u - v|]`` of the two frozen sentence embeddings; a fully connected network with hidden
layers of 512 and 384 units, without regularisation, is trained on one language and early-stopped on held-out
data of that language, then applied unchanged to the other languages' test sets.

Choices where the paper is silent or lingualite differs: ``u`` and ``v`` are L2-normalised first; the early
stopping data is a seeded 10% split of the training file (there is no separate development file); features
are standardised with training statistics (``standardize``); results are mean ± standard deviation over
``seeds`` runs (seed = initialisation, batch order and validation split). Sparse (TF-IDF) embeddings are first
reduced to 256 dimensions by truncated SVD fitted on the training sentences (latent semantic analysis):
vocabulary-sized ``[u, v, u * v, |u - v|]`` would give the first layer millions of weights per unit.
Training (:class:`~lingualite.evaluation.classification.EarlyStoppedMLP`: best validation accuracy, ties to
the lower validation loss) and scoring are shared with :mod:`lingualite.evaluation.classification`. The MLP
runs on CPU in scikit-learn: on XNLI's 393k training pairs an epoch takes minutes, so set ``max_iter``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from sklearn.preprocessing import normalize

from lingualite.core.errors import ConfigError
from lingualite.encoders.base import Encoder
from lingualite.evaluation.base import embed
from lingualite.evaluation.classification import (
    check_labels,
    check_mlp_split,
    check_options,
    dense_views,
    fit_and_score_over_seeds,
    mlp_classifier,
)

__all__ = ["HIDDEN_LAYERS", "evaluate_pair_classification", "pair_features"]

HIDDEN_LAYERS = (512, 384)  # paper 001, Sec. 4.2
LabelledPairs = tuple[Sequence[str], Sequence[str], Sequence[str]]


def pair_features(u: np.ndarray, v: np.ndarray) -> np.ndarray:
    """``[u, v, u * v, |u - v|]`` of the L2-normalised rows of ``u`` and ``v`` (shape ``(n, 4d)``).

    :param u: first sentences' embeddings, ``(n, d)``.
    :param v: second sentences' embeddings, ``(n, d)``.
    """
    if u.shape != v.shape:
        raise ValueError(f"pair embeddings differ in shape: {u.shape} vs {v.shape}")
    u = normalize(np.asarray(u, dtype=np.float32))
    v = normalize(np.asarray(v, dtype=np.float32))
    return np.hstack([u, v, u * v, np.abs(u - v)])


def evaluate_pair_classification(
    encoder: Encoder,
    train: LabelledPairs,
    tests: Mapping[str, LabelledPairs],
    seeds: int = 5,
    max_iter: int = 200,
    hidden_layers: tuple[int, ...] = HIDDEN_LAYERS,
    batch_size: int = 128,
    standardize: bool = True,
) -> dict[str, Any]:
    """Train the pair classifier on ``train`` and report its accuracy on each test set (XNLI protocol).

    :param encoder: any :class:`~lingualite.encoders.base.Encoder`; one that needs fitting (TF-IDF)
        is fitted on all sentences (training and test) together.
    :param train: ``(sentences1, sentences2, labels)`` of the training language, e.g. English MultiNLI.
    :param tests: name -> ``(sentences1, sentences2, labels)``, e.g. XNLI test per language.
    :param seeds: runs averaged (seeds 0 .. seeds - 1).
    :param max_iter: epoch budget of each run (early stopping usually ends sooner); lower it for quick checks.
    :param hidden_layers: hidden units per layer; paper 001 uses (512, 384).
    :param batch_size: pairs per Adam update (the paper does not say; 128 suits XNLI's 393k training pairs).
    :param standardize: standardise the pair features with training statistics.
    :return: ``accuracy``, ``accuracy_std``, ``macro_f1``, ``per_test`` (as
        :func:`~lingualite.evaluation.classification.fit_and_score_over_seeds`; ``num_docs`` counts pairs)
        plus ``classifier`` (e.g. ``"mlp(512,384)"``), ``seeds`` and ``num_train``.
    """
    check_options(seeds, max_iter)
    if not hidden_layers or min(hidden_layers) < 1:
        raise ConfigError(f"hidden_layers must be positive unit counts, got {hidden_layers}")
    if batch_size < 1:
        raise ConfigError(f"batch_size must be >= 1, got {batch_size}")
    for name, (s1, s2, labels) in [("training set", train), *tests.items()]:
        if not len(s1) == len(s2) == len(labels):
            raise ValueError(
                f"{name}: {len(s1)} first sentences, {len(s2)} second sentences and {len(labels)} labels; "
                "they must align"
            )
    check_labels(train[2], {name: labels for name, (_, _, labels) in tests.items()})
    check_mlp_split(train[2])

    groups = [side for s1, s2, _ in [train, *tests.values()] for side in (s1, s2)]
    views = dense_views(embed(encoder, *groups), n_fit_groups=2)
    x_train, *x_tests = (pair_features(u, v) for u, v in zip(views[0::2], views[1::2], strict=True))
    scored = {name: (x, labels) for (name, (_, _, labels)), x in zip(tests.items(), x_tests, strict=True)}

    def make(seed: int) -> Any:
        # paper 001: no regularisation
        return mlp_classifier(tuple(hidden_layers), seed, max_iter, alpha=0.0, batch_size=batch_size)

    result = fit_and_score_over_seeds(make, x_train, train[2], scored, seeds, standardize)
    return {**result, "classifier": f"mlp({','.join(str(h) for h in hidden_layers)})"}
