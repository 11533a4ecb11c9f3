"""lingualite: train, compress, evaluate and serve small, fast multilingual sentence encoders.

Every command of the ``lingualite`` CLI parses its options, calls one of the names below and prints::

    from lingualite import load_config, train, load_encoder

    result = train(load_config("quickstart"), "runs/qs")  # any recipe: the config's mode chooses
    vectors = load_encoder("runs/qs").encode(["Hello", "Hallo"])

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
    "fetch_corpora": "lingualite.data.sources",
    "prepare_corpus": "lingualite.data.prepare",
    "CleaningConfig": "lingualite.data.cleaning",
    "SplitConfig": "lingualite.data.split",
    "open_parallel": "lingualite.data.inputs",
    "train_tokenizer": "lingualite.tokenization.tokenizer",
    "load_config": "lingualite.config",
    "load_training_config": "lingualite.config",
    "load_distill_config": "lingualite.config",
    "load_monolingual_config": "lingualite.config",
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
    "evaluate_xsr": "lingualite.evaluation.xsr",
    "load_xsr_pairs": "lingualite.data.pairs",
    "load_encoder": "lingualite.encoders",
    "encode": "lingualite.encoding.api",
    "encode_file": "lingualite.encoding.api",
    "Calibration": "lingualite.vectors.precision",
    "load_vectors": "lingualite.vectors.precision",
    "dequantize": "lingualite.vectors.precision",
    "fetch_eval_sets": "lingualite.data.evalsets",
    "evaluate_classification": "lingualite.evaluation.classification",
    "evaluate_pair_classification": "lingualite.evaluation.pair_classification",
    "evaluate_sts": "lingualite.evaluation.sts",
    "evaluate_ir": "lingualite.evaluation.ir",
    "measure_efficiency": "lingualite.evaluation.efficiency",
    "run_report": "lingualite.evaluation.report",
    "ReportSettings": "lingualite.evaluation.report",
    "mine_pseudo_pairs": "lingualite.mining.pseudo_pairs",
    "run_quickstart": "lingualite.reproduce.quickstart",
}

# Names of the 0.1 release that still resolve, with a DeprecationWarning, until 0.3: old name -> new name.
_DEPRECATED = {"TrainingConfig": "ParallelConfig", "distill": "train_distill"}

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
    raise AttributeError(f"module 'lingualite' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
