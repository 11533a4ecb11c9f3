"""Zero-shot cross-lingual document classification: the MLDoc protocol (Schwenk & Li, LREC 2018).

As in paper 000 (Mao et al., ACL 2021, Sec. 4.3, after LASER: Artetxe & Schwenk, TACL 2019): a classifier is
trained on frozen sentence embeddings of one language's training documents, then applied unchanged to other
languages' test documents; each result is the mean of several seeded runs (paper 000: 5).

Classifiers:

* ``logreg`` (default): the *linear* classifier of paper 000, scikit-learn ``LogisticRegression`` (lbfgs,
  ``C`` = 1). lbfgs is deterministic, so its seeds give a standard deviation of 0; they are still run so
  both classifiers report the same way.
* ``mlp``: LASER's MLDoc classifier, one hidden layer of 10 units (scikit-learn ``MLPClassifier``, Adam,
  batches of 12, L2 1e-4 in place of LASER's dropout), trained by :class:`EarlyStoppedMLP`: the epoch with
  the best accuracy on a seeded, stratified 10% validation split of the training set is kept (the seed also
  sets the initialisation and the batch order).

Features: each embedding is L2-normalised (as it would be for cosine retrieval), then standardised with the
mean and variance of the *training* embeddings (``standardize=True``; sparse TF-IDF features are only
scaled, not centred). Standardising lets the default regularisation of both classifiers work whatever the
scale of an encoder's dimensions; it uses training-language statistics only, so it is still zero-shot.
A test label absent from training is an error (the classifier could never predict it).

:func:`fit_and_score_over_seeds`, :func:`mlp_classifier` and the ``check_*`` helpers are shared with
:mod:`lingualite.evaluation.pair_classification`.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Literal

import numpy as np
from scipy import sparse
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.decomposition import TruncatedSVD
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, f1_score
from sklearn.model_selection import train_test_split
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler, normalize

from lingualite.core.errors import ConfigError
from lingualite.encoders.base import Encoder
from lingualite.evaluation.base import Embeddings, embed, mean_std, to_dense

__all__ = [
    "CLASSIFIERS",
    "EarlyStoppedMLP",
    "check_labels",
    "check_mlp_split",
    "check_options",
    "evaluate_classification",
    "fit_and_score_over_seeds",
    "mlp_classifier",
]

CLASSIFIERS = ("logreg", "mlp")
VALIDATION_FRACTION = 0.1  # share of the training set held out for the MLP's early stopping
MLP_HIDDEN = (10,)  # LASER's MLDoc classifier: one hidden layer of 10 units
# Small batches, as LASER's MLDoc script: MLDoc's 1,000-document training sets need the updates.
MLP_BATCH = 12
LabelledTexts = tuple[Sequence[str], Sequence[str]]


def check_options(seeds: int, max_iter: int) -> None:
    """Raise :class:`ConfigError` for a non-positive ``seeds`` or ``max_iter``."""
    if seeds < 1:
        raise ConfigError(f"seeds must be >= 1 (runs averaged), got {seeds}")
    if max_iter < 1:
        raise ConfigError(f"max_iter must be >= 1 (training iterations/epochs), got {max_iter}")


def check_labels(train_labels: Sequence[str], tests: Mapping[str, Sequence[str]]) -> None:
    """Raise :class:`ValueError` unless training has >= 2 classes and every test label occurs in training."""
    if not tests:
        raise ValueError("no test set given: pass at least one {name: data} to evaluate on")
    classes = set(train_labels)
    if len(classes) < 2:
        raise ValueError(f"the training set needs at least 2 classes, found {sorted(classes)}")
    for name, labels in tests.items():
        if not labels:
            raise ValueError(f"test set {name!r} is empty")
        unseen = sorted(set(labels) - classes)
        if unseen:
            raise ValueError(
                f"test set {name!r} has label(s) {unseen} that never occur in the training set "
                f"(training labels: {sorted(classes)}); a classifier cannot predict them"
            )


def check_mlp_split(train_labels: Sequence[str], hint: str = "use more training data") -> None:
    """Raise :class:`ValueError` (ending with ``hint``) if the MLP's stratified early-stopping split cannot be
    made."""
    counts = Counter(train_labels)
    min_val = max(2, len(counts))  # scikit-learn: >= 2 validation examples, >= 1 of each class

    def n_val(n: int) -> int:
        return math.ceil(VALIDATION_FRACTION * n)  # as train_test_split computes it

    rarest, fewest = min(counts.items(), key=lambda kv: kv[1])
    if fewest < 2 or n_val(len(train_labels)) < min_val:
        needed = next(n for n in itertools.count(1) if n_val(n) >= min_val)
        raise ValueError(
            f"the MLP holds out {VALIDATION_FRACTION:.0%} of the training set for early stopping: it "
            f"needs at least {needed} training examples and 2 of each class (got {len(train_labels)}; class "
            f"{rarest!r} has {fewest}); {hint}"
        )


class EarlyStoppedMLP(ClassifierMixin, BaseEstimator):
    """A scikit-learn ``MLPClassifier`` (ReLU, Adam, lr 1e-3) trained epoch by epoch and early-stopped on a
    seeded, stratified validation split of the training data.

    It keeps the epoch with the best validation accuracy, ties going to the lower validation log-loss, and
    stops after ``patience`` epochs without a better one (or after ``max_iter`` epochs). scikit-learn's own
    ``early_stopping`` keeps the *first* epoch reaching the best accuracy, which on a small validation set
    is often an undertrained one.

    :param hidden_layers: units per hidden layer.
    :param alpha: L2 penalty (0: none).
    :param batch_size: examples per update.
    :param max_iter: most epochs.
    :param patience: epochs without a better validation score before stopping.
    :param validation_fraction: share of the training data held out.
    :param random_state: seed of the split, the initialisation and the batch order.
    """

    def __init__(
        self,
        hidden_layers: tuple[int, ...] = MLP_HIDDEN,
        alpha: float = 1e-4,
        batch_size: int = MLP_BATCH,
        max_iter: int = 200,
        patience: int = 10,
        validation_fraction: float = VALIDATION_FRACTION,
        random_state: int = 0,
    ) -> None:
        self.hidden_layers = hidden_layers
        self.alpha = alpha
        self.batch_size = batch_size
        self.max_iter = max_iter
        self.patience = patience
        self.validation_fraction = validation_fraction
        self.random_state = random_state

    def fit(self, x: Embeddings, y: Sequence[str]) -> EarlyStoppedMLP:
        y = np.asarray(y)
        x_fit, x_val, y_fit, y_val = train_test_split(
            x, y, test_size=self.validation_fraction, stratify=y, random_state=self.random_state
        )
        mlp = MLPClassifier(
            hidden_layer_sizes=self.hidden_layers,
            alpha=self.alpha,
            batch_size=min(self.batch_size, len(y_fit)),
            random_state=self.random_state,
        )
        self.classes_ = np.unique(y)
        truth = np.searchsorted(self.classes_, y_val)
        best: tuple[float, float] | None = None
        waited = 0
        for epoch in range(1, self.max_iter + 1):
            mlp.partial_fit(x_fit, y_fit, classes=self.classes_)
            proba = mlp.predict_proba(x_val)
            score = (
                float(np.mean(proba.argmax(axis=1) == truth)),
                float(np.mean(np.log(np.maximum(proba[np.arange(len(truth)), truth], 1e-15)))),
            )
            if best is None or score > best:
                best, waited = score, 0
                weights = ([c.copy() for c in mlp.coefs_], [b.copy() for b in mlp.intercepts_])
                self.best_epoch_ = epoch
            else:
                waited += 1
                if waited >= self.patience:
                    break
        mlp.coefs_, mlp.intercepts_ = weights
        self.model_ = mlp
        self.n_iter_ = epoch
        return self

    def predict(self, x: Embeddings) -> np.ndarray:
        return self.model_.predict(x)


def mlp_classifier(
    hidden_layers: tuple[int, ...], seed: int, max_iter: int, alpha: float, batch_size: int
) -> EarlyStoppedMLP:
    """An :class:`EarlyStoppedMLP` (patience 10 epochs, 10% validation) with ``hidden_layers`` units."""
    return EarlyStoppedMLP(hidden_layers, alpha, batch_size, max_iter, random_state=seed)


def _scores(y_true: Sequence[str], y_pred: np.ndarray) -> tuple[float, float]:
    macro_f1 = f1_score(y_true, y_pred, average="macro", zero_division=0)
    return float(accuracy_score(y_true, y_pred)), float(macro_f1)


def fit_and_score_over_seeds(
    make_classifier: Callable[[int], Any],
    x_train: Embeddings,
    y_train: Sequence[str],
    tests: Mapping[str, tuple[Embeddings, Sequence[str]]],
    seeds: int,
    standardize: bool = True,
) -> dict[str, Any]:
    """Fit ``make_classifier(seed)`` on the training features for each seed and score every test set.

    An iteration cap is a budget: a classifier stopped by it is used as is (its ConvergenceWarning is
    silenced).

    :param make_classifier: seed -> an unfitted scikit-learn classifier.
    :param x_train: training features (dense or sparse), one row per example.
    :param y_train: training labels.
    :param tests: name -> (features, labels).
    :param seeds: runs, with seeds ``0 .. seeds - 1``.
    :param standardize: standardise features with the training mean/variance (sparse: variance only).
    :return: ``accuracy`` (mean over test sets of their mean over seeds), ``accuracy_std`` (standard deviation
        over seeds of the mean accuracy over test sets), ``macro_f1`` (mean over test sets), ``seeds``,
        ``num_train`` and ``per_test``: name -> ``accuracy``, ``accuracy_std``, ``macro_f1``,
        ``macro_f1_std`` (over seeds) and ``num_docs``.
    """
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in tests}
    for seed in range(seeds):
        model = make_classifier(seed)
        if standardize:
            model = make_pipeline(StandardScaler(with_mean=not sparse.issparse(x_train)), model)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            model.fit(x_train, np.asarray(y_train))
        for name, (x_test, y_test) in tests.items():
            runs[name].append(_scores(y_test, model.predict(x_test)))
    per_test: dict[str, dict[str, float]] = {}
    for name, values in runs.items():
        acc, acc_std = mean_std([a for a, _ in values])
        f1, f1_std = mean_std([f for _, f in values])
        n = len(tests[name][1])
        per_test[name] = {
            "accuracy": acc,
            "accuracy_std": acc_std,
            "macro_f1": f1,
            "macro_f1_std": f1_std,
            "num_docs": n,
        }
    by_seed = np.mean([[a for a, _ in values] for values in runs.values()], axis=0)
    return {
        "accuracy": float(np.mean([r["accuracy"] for r in per_test.values()])),
        "accuracy_std": mean_std(by_seed)[1],
        "macro_f1": float(np.mean([r["macro_f1"] for r in per_test.values()])),
        "seeds": seeds,
        "num_train": len(y_train),
        "per_test": per_test,
    }


SPARSE_DIM = 256  # SVD dimension for sparse embeddings fed to an MLP


def dense_views(embs: list[Embeddings], n_fit_groups: int, dim: int = SPARSE_DIM) -> list[np.ndarray]:
    """Dense embeddings; sparse (TF-IDF) ones go through a truncated SVD (latent semantic analysis) fitted on
    the first ``n_fit_groups`` groups (the training data): an MLP over a vocabulary-sized input would have
    millions of first-layer weights and train for hours on CPU."""
    if not sparse.issparse(embs[0]):
        return [to_dense(e) for e in embs]
    dim = min(dim, embs[0].shape[1] - 1)
    svd = TruncatedSVD(n_components=dim, random_state=0).fit(sparse.vstack(embs[:n_fit_groups]))
    return [svd.transform(e).astype(np.float32) for e in embs]


def _features(x: Embeddings) -> Embeddings:
    """L2-normalised rows (sparse stays sparse)."""
    return normalize(x if sparse.issparse(x) else np.asarray(x, dtype=np.float32))


def evaluate_classification(
    encoder: Encoder,
    train: LabelledTexts,
    tests: Mapping[str, LabelledTexts],
    classifier: Literal["logreg", "mlp"] = "logreg",
    seeds: int = 5,
    max_iter: int | None = None,
    standardize: bool = True,
) -> dict[str, Any]:
    """Train a classifier on ``train``'s embeddings and report its accuracy on each test set (MLDoc protocol).

    :param encoder: any :class:`~lingualite.encoders.base.Encoder`; one that needs fitting (TF-IDF)
        is fitted on all the texts (training and test) together.
    :param train: ``(texts, labels)`` of the training language, e.g. MLDoc English train.1000.
    :param tests: name -> ``(texts, labels)``, e.g. ``{"de": ..., "fr": ...}`` for zero-shot transfer; the
        training language's own test set may be one of them.
    :param classifier: ``"logreg"`` (paper 000's linear classifier) or ``"mlp"`` (LASER's, 10 hidden units).
    :param seeds: runs averaged (seeds 0 .. seeds - 1); 5 as in paper 000.
    :param max_iter: iteration budget; default 1000 for logreg (lbfgs iterations), 200 for mlp (epochs,
        early stopping usually ends sooner). Lower it for quick checks.
    :param standardize: standardise the L2-normalised features with training statistics (see module doc).
    :return: ``accuracy``, ``accuracy_std``, ``macro_f1``, ``per_test`` (see :func:`fit_and_score_over_seeds`)
        plus ``classifier``, ``seeds`` and ``num_train``.
    """
    if classifier not in CLASSIFIERS:
        raise ConfigError(f"classifier must be one of {', '.join(CLASSIFIERS)}; got {classifier!r}")
    max_iter = max_iter if max_iter is not None else (1000 if classifier == "logreg" else 200)
    check_options(seeds, max_iter)
    for name, (texts, labels) in [("training set", train), *tests.items()]:
        if len(texts) != len(labels):
            raise ValueError(f"{name}: {len(texts)} texts but {len(labels)} labels; they must align")
    if not train[0]:
        raise ValueError("the training set is empty")
    check_labels(train[1], {name: labels for name, (_, labels) in tests.items()})
    if classifier == "mlp":
        check_mlp_split(train[1], hint="use more training data or classifier='logreg'")

    def make(seed: int) -> Any:
        if classifier == "logreg":
            return LogisticRegression(max_iter=max_iter, random_state=seed)
        return mlp_classifier(MLP_HIDDEN, seed, max_iter, alpha=1e-4, batch_size=MLP_BATCH)

    embs = embed(encoder, train[0], *(texts for texts, _ in tests.values()))
    if classifier == "mlp":
        embs = dense_views(embs, n_fit_groups=1)
    x_train, *x_tests = (_features(x) for x in embs)
    scored = {name: (x, labels) for (name, (_, labels)), x in zip(tests.items(), x_tests, strict=True)}
    result = fit_and_score_over_seeds(make, x_train, train[1], scored, seeds, standardize)
    return {**result, "classifier": classifier}
