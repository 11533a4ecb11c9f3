"""lingualite: train, compress, evaluate and serve small, fast multilingual sentence encoders.

The Python API mirrors the CLI (each command is a thin shell over one of these)::

    from lingualite import fetch_corpora, prepare_corpus, load_training_config, train, evaluate_xsr

Names are imported lazily so that ``import lingualite`` (and ``lingualite --help``) stays fast.
"""

from __future__ import annotations

import importlib
import os
import sys
import types
from typing import Any

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
    "open_parallel": "lingualite.data.readers",
    "train_tokenizer": "lingualite.tokenization",
    "load_training_config": "lingualite.training.config",
    "TrainingConfig": "lingualite.training.config",
    "train": "lingualite.training.trainer",
    "evaluate_xsr": "lingualite.evaluation.xsr",
    "load_xsr_pairs": "lingualite.evaluation.xsr",
    "load_encoder": "lingualite.evaluation.encoders",
    "fetch_eval_sets": "lingualite.data.evalsets",
    "evaluate_classification": "lingualite.evaluation.classification",
    "evaluate_pair_classification": "lingualite.evaluation.pair_classification",
    "evaluate_sts": "lingualite.evaluation.sts",
    "evaluate_ir": "lingualite.evaluation.ir",
    "measure_efficiency": "lingualite.evaluation.efficiency",
    "run_report": "lingualite.evaluation.report",
    "ReportSettings": "lingualite.evaluation.report",
    "load_distill_config": "lingualite.distill",
    "distill": "lingualite.distill",
    "load_monolingual_config": "lingualite.monolingual",
    "train_monolingual": "lingualite.monolingual",
    "mine_pseudo_pairs": "lingualite.mining",
    "run_quickstart": "lingualite.quickstart",
}

__all__ = [*_API, "__version__"]


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
