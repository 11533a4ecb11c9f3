"""Anything that turns sentences into vectors: lingualite/sentence-transformers folders and baselines.

Every encoder follows :class:`~lingualite.encoders.base.Encoder` (:mod:`~lingualite.encoders.base`, with
:func:`~lingualite.encoders.base.fit_encoder` for encoders fitted on their input). Sentence-transformers
folders are in :mod:`~lingualite.encoders.folder`, the TF-IDF baseline in :mod:`~lingualite.encoders.tfidf`,
the packaged baselines (``minilm``, ``use-m``, ``e5-small``) in :mod:`~lingualite.encoders.baselines`;
:func:`~lingualite.encoders.resolve.load_encoder` resolves their names, ``tfidf``, a sentence-transformers
folder, or a ``RUNTIME:FOLDER`` spec (:mod:`~lingualite.encoders.spec`) for the ONNX and static encoders of
:mod:`lingualite.encoding`. Evaluation (:mod:`lingualite.evaluation`) is built on top of this package.
"""

from lingualite.encoders.base import Encoder, fit_encoder
from lingualite.encoders.baselines import BASELINES, PACKAGES_OF, MissingBaselineError
from lingualite.encoders.folder import SentenceTransformerEncoder, model_folder_bytes
from lingualite.encoders.resolve import load_encoder
from lingualite.encoders.spec import RUNTIMES, split_runtime
from lingualite.encoders.tfidf import TfidfEncoder

__all__ = [
    "BASELINES",
    "PACKAGES_OF",
    "RUNTIMES",
    "Encoder",
    "MissingBaselineError",
    "SentenceTransformerEncoder",
    "TfidfEncoder",
    "fit_encoder",
    "load_encoder",
    "model_folder_bytes",
    "split_runtime",
]
