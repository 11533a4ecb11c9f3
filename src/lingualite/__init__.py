"""lingualite: train, compress, evaluate and serve small, fast multilingual sentence encoders.

The API is led by nouns: load an :class:`Encoder` and use it, or train one::

    from lingualite import load_config, load_encoder, train

    result = train(load_config("quickstart"), "runs/qs")  # any recipe: the config's mode chooses
    model = load_encoder("runs/qs")
    vectors = model.encode(["Hello", "Hallo"], truncate_dim=64)

Every command of the ``lingualite`` CLI parses its options, calls one library function and prints:

=============================================  ====================================================
command                                        function
=============================================  ====================================================
``data fetch`` / ``data eval-sets``            :func:`fetch_corpora` / :func:`fetch_eval_sets`
``data pivot``                                 :func:`lingualite.data.pivot.pivot_pairs`
``prepare``                                    :func:`prepare_corpus`
``tokenizer train``                            :func:`train_tokenizer`
``train`` / ``distill``                        :func:`train`
``encode``                                     :func:`encode_file`
``export``                                     :func:`export_onnx`
``index build|add|delete|info`` / ``search``   :class:`SearchIndex`
``mine``                                       :func:`mine`
``align``                                      :func:`align`
``serve``                                      :func:`lingualite.serve.server.load_app`
``eval xsr|classify|pairs|sts|ir``             :mod:`lingualite.evaluation.suite` (over :func:`evaluate_xsr`,
                                               :func:`evaluate_classification`, ...)
``eval efficiency`` / ``eval all``             :func:`measure_efficiency` / :func:`run_report`
``eval mine`` / ``eval align``                 :func:`lingualite.evaluation.mining.evaluate_mining` /
                                               :func:`lingualite.evaluation.document_alignment.evaluate_aligner`
``models list|build``                          :mod:`lingualite.encoders.packaged` /
                                               :mod:`lingualite.reproduce.packaged_build`
``reproduce``                                  :func:`lingualite.reproduce.reproduction.reproduce`
``quickstart``                                 :func:`run_quickstart`
=============================================  ====================================================

Names are imported lazily so that ``import lingualite`` (and ``lingualite --help``) stays fast; importing it
changes nothing in the process (no environment variables: the CLI sets its own where it starts).
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

from lingualite.core.version import __version__

# The public API, one list: name -> the module that defines it.
_API = {
    # the model
    "Encoder": "lingualite.encoding.model",
    "load_encoder": "lingualite.encoding.model",
    "encode": "lingualite.encoding.api",
    "encode_file": "lingualite.encoding.api",
    "export_onnx": "lingualite.encoders.onnx_export",
    "Calibration": "lingualite.vectors.precision",
    "load_vectors": "lingualite.vectors.precision",
    "dequantize": "lingualite.vectors.precision",
    # using it
    "SearchIndex": "lingualite.search",
    "mine": "lingualite.mining.pipeline",
    "align": "lingualite.alignment.documents",
    # training it
    "load_config": "lingualite.config",
    "ParallelConfig": "lingualite.config",
    "DistillConfig": "lingualite.config",
    "MonolingualConfig": "lingualite.config",
    "train": "lingualite.recipes",
    "train_parallel": "lingualite.recipes.parallel.train_parallel",
    "train_distill": "lingualite.recipes.distill.train_distill",
    "train_monolingual": "lingualite.recipes.monolingual.train_monolingual",
    "RunOptions": "lingualite.training.run",
    "RunResult": "lingualite.training.run",
    "RunFolder": "lingualite.models.run_folder",
    "load_training_config": "lingualite.config",
    "load_distill_config": "lingualite.config",
    "load_monolingual_config": "lingualite.config",
    # its data
    "fetch_corpora": "lingualite.data.sources",
    "prepare_corpus": "lingualite.data.prepare",
    "CleaningConfig": "lingualite.data.cleaning",
    "SplitConfig": "lingualite.data.split",
    "open_parallel": "lingualite.data.inputs",
    "train_tokenizer": "lingualite.tokenization.tokenizer",
    # evaluating it
    "evaluate_xsr": "lingualite.evaluation.xsr",
    "load_xsr_pairs": "lingualite.data.pairs",
    "fetch_eval_sets": "lingualite.data.evalsets",
    "evaluate_classification": "lingualite.evaluation.classification",
    "evaluate_pair_classification": "lingualite.evaluation.pair_classification",
    "evaluate_sts": "lingualite.evaluation.sts",
    "evaluate_ir": "lingualite.evaluation.ir",
    "measure_efficiency": "lingualite.evaluation.efficiency",
    "run_report": "lingualite.evaluation.report",
    "ReportSettings": "lingualite.evaluation.report",
    "run_quickstart": "lingualite.reproduce.quickstart",
}

# Names of the 0.1 release that still resolve, with a DeprecationWarning, until 0.3: old name -> new name,
# and names that left the top level -> the module that has them.
_DEPRECATED = {"TrainingConfig": "ParallelConfig", "distill": "train_distill"}
_MOVED = {"mine_pseudo_pairs": "lingualite.mining.pseudo_pairs"}

__all__ = ["__version__", *_API]


def __getattr__(name: str) -> Any:
    if name in _API:
        return getattr(importlib.import_module(_API[name]), name)
    if name in _DEPRECATED:
        new = _DEPRECATED[name]
        warnings.warn(
            f"lingualite.{name} is deprecated and goes in 0.3; use lingualite.{new}",
            DeprecationWarning,
            stacklevel=2,
        )
        return __getattr__(new)
    if name in _MOVED:
        warnings.warn(
            f"lingualite.{name} goes in 0.3; import it from {_MOVED[name]}", DeprecationWarning, stacklevel=2
        )
        return getattr(importlib.import_module(_MOVED[name]), name)
    raise AttributeError(f"module 'lingualite' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
