"""lingualite: train, compress, evaluate and serve small, fast multilingual sentence encoders.

The Python API mirrors the CLI (each command is a thin shell over one of these)::

    from lingualite import fetch_corpora, prepare_corpus, load_config, train, evaluate_xsr

    result = train(load_config("quickstart"), "runs/qs")  # any recipe: the config's mode chooses

Names are imported lazily so that ``import lingualite`` (and ``lingualite --help``) stays fast.
"""

from __future__ import annotations

import importlib
import os
import sys
import types
from typing import TYPE_CHECKING, Any

# Quiet by default, like the CLI: no per-file progress bars or load reports from transformers / the hub
# (lingualite shows its own progress). Set these variables yourself to see them.
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")

__version__ = "0.1.0"

_API = {
    "fetch_corpora": "lingualite.data.sources",
    "prepare_corpus": "lingualite.data.prepare",
    "CleaningConfig": "lingualite.data.cleaning",
    "SplitConfig": "lingualite.data.split",
    "open_parallel": "lingualite.data.inputs",
    "train_tokenizer": "lingualite.tokenization.train",
    "load_config": "lingualite.config",
    "load_training_config": "lingualite.config",
    "load_distill_config": "lingualite.config",
    "load_monolingual_config": "lingualite.config",
    "ParallelConfig": "lingualite.config",
    "TrainingConfig": "lingualite.config",
    "DistillConfig": "lingualite.config",
    "MonolingualConfig": "lingualite.config",
    "train": "lingualite.recipes",
    "train_parallel": "lingualite.parallel.train",
    "train_distill": "lingualite.distill.train",
    "distill": "lingualite.distill.train",
    "train_monolingual": "lingualite.monolingual.train",
    "RunOptions": "lingualite.training.run",
    "RunResult": "lingualite.training.run",
    "RunFolder": "lingualite.run_folder",
    "evaluate_xsr": "lingualite.evaluation.xsr",
    "load_xsr_pairs": "lingualite.data.pairs",
    "load_encoder": "lingualite.encoders",
    "encode": "lingualite.runtime.encode_api",
    "encode_file": "lingualite.runtime.encode_api",
    "Calibration": "lingualite.runtime.precision",
    "load_vectors": "lingualite.runtime.precision",
    "dequantize": "lingualite.runtime.precision",
    "fetch_eval_sets": "lingualite.data.evalsets",
    "evaluate_classification": "lingualite.evaluation.classification",
    "evaluate_pair_classification": "lingualite.evaluation.pair_classification",
    "evaluate_sts": "lingualite.evaluation.sts",
    "evaluate_ir": "lingualite.evaluation.ir",
    "measure_efficiency": "lingualite.evaluation.efficiency",
    "run_report": "lingualite.evaluation.report",
    "ReportSettings": "lingualite.evaluation.report",
    "mine_pseudo_pairs": "lingualite.mining.pseudo_pairs",
    "run_quickstart": "lingualite.quickstart",
}

__all__ = [
    "Calibration",
    "CleaningConfig",
    "DistillConfig",
    "MonolingualConfig",
    "ParallelConfig",
    "ReportSettings",
    "RunFolder",
    "RunOptions",
    "RunResult",
    "SplitConfig",
    "TrainingConfig",
    "__version__",
    "dequantize",
    "distill",
    "encode",
    "encode_file",
    "evaluate_classification",
    "evaluate_ir",
    "evaluate_pair_classification",
    "evaluate_sts",
    "evaluate_xsr",
    "fetch_corpora",
    "fetch_eval_sets",
    "load_config",
    "load_distill_config",
    "load_encoder",
    "load_monolingual_config",
    "load_training_config",
    "load_vectors",
    "load_xsr_pairs",
    "measure_efficiency",
    "mine_pseudo_pairs",
    "open_parallel",
    "prepare_corpus",
    "run_quickstart",
    "run_report",
    "train",
    "train_distill",
    "train_monolingual",
    "train_parallel",
    "train_tokenizer",
]

if TYPE_CHECKING:  # what the lazy names are, for type checkers and IDEs (nothing is imported at run time)
    from lingualite.config import (
        DistillConfig,
        MonolingualConfig,
        ParallelConfig,
        TrainingConfig,
        load_config,
        load_distill_config,
        load_monolingual_config,
        load_training_config,
    )
    from lingualite.data.cleaning import CleaningConfig
    from lingualite.data.evalsets import fetch_eval_sets
    from lingualite.data.inputs import open_parallel
    from lingualite.data.pairs import load_xsr_pairs
    from lingualite.data.prepare import prepare_corpus
    from lingualite.data.sources import fetch_corpora
    from lingualite.data.split import SplitConfig
    from lingualite.distill.train import distill, train_distill
    from lingualite.encoders import load_encoder
    from lingualite.evaluation.classification import evaluate_classification
    from lingualite.evaluation.efficiency import measure_efficiency
    from lingualite.evaluation.ir import evaluate_ir
    from lingualite.evaluation.pair_classification import evaluate_pair_classification
    from lingualite.evaluation.report import ReportSettings, run_report
    from lingualite.evaluation.sts import evaluate_sts
    from lingualite.evaluation.xsr import evaluate_xsr
    from lingualite.mining.pseudo_pairs import mine_pseudo_pairs
    from lingualite.monolingual.train import train_monolingual
    from lingualite.parallel.train import train_parallel
    from lingualite.quickstart import run_quickstart
    from lingualite.recipes import train
    from lingualite.run_folder import RunFolder
    from lingualite.runtime.encode_api import encode, encode_file
    from lingualite.runtime.precision import Calibration, dequantize, load_vectors
    from lingualite.tokenization.train import train_tokenizer
    from lingualite.training.run import RunOptions, RunResult


def __getattr__(name: str) -> Any:
    if name in _API:
        return getattr(importlib.import_module(_API[name]), name)
    raise AttributeError(f"module 'lingualite' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


class _Package(types.ModuleType):
    """Keeps API names bound to the API: importing a sub-package of the same name (``lingualite.distill``)
    would otherwise rebind ``lingualite.distill`` from the function to the package. Sub-packages stay
    importable by their dotted names (``from lingualite.distill import DistillConfig``)."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _API and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
