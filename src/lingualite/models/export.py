"""Save the encoder as a sentence-transformers folder (Transformer -> mean Pooling), weights in safetensors.

Anything that reads that format (sentence-transformers, transformers' ``AutoModel``, ONNX exporters) loads
the result without lingualite. The generative head is training-only and stays in the checkpoints.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from torch import nn
from transformers import BertModel, PreTrainedTokenizerFast
from transformers.utils import logging as hf_logging

from lingualite.io_utils import atomic_path
from lingualite.models.dual_encoder import DualEncoder


def save_encoder_folder(
    bert: BertModel,
    tokenizer: PreTrainedTokenizerFast,
    path: str | Path,
    max_seq_length: int,
    pooling: tuple[str, ...] = ("mean",),
    extra_modules: Sequence[nn.Module] = (),
) -> Path:
    """Write ``path`` atomically as a sentence-transformers folder: Transformer(``bert``) -> Pooling(``pooling``
    modes, concatenated in that order) -> ``extra_modules`` (e.g. a Dense projection); safetensors only."""
    # Heavy imports, only when saving. sentence-transformers >= 6 moved the modules; older releases still work.
    from sentence_transformers import SentenceTransformer

    try:
        from sentence_transformers.sentence_transformer import modules as models
    except ImportError:  # pragma: no cover - sentence-transformers < 6
        from sentence_transformers import models  # type: ignore[no-redef]

    path = Path(path)
    with tempfile.TemporaryDirectory() as tmp:
        bert.save_pretrained(tmp, safe_serialization=True)
        tokenizer.save_pretrained(tmp)
        # Our encoders have no BERT pooler; transformers adds a fresh one on loading (sentence-transformers
        # never uses it: it pools token states) and reports it as missing: not news for the user.
        verbosity = hf_logging.get_verbosity()
        hf_logging.set_verbosity_error()
        try:
            transformer = models.Transformer(tmp, max_seq_length=max_seq_length)
        finally:
            hf_logging.set_verbosity(verbosity)
        pooling_module = models.Pooling(
            bert.config.hidden_size, pooling_mode=pooling[0] if len(pooling) == 1 else pooling
        )
        st_model = SentenceTransformer(modules=[transformer, pooling_module, *extra_modules], device="cpu")
        with atomic_path(path) as out:
            st_model.save(str(out), safe_serialization=True)
    return path


def save_sentence_transformer(
    model: DualEncoder, tokenizer: PreTrainedTokenizerFast, path: str | Path
) -> Path:
    """Write the dual encoder to ``path`` as a sentence-transformers folder (mean pooling) and return it."""
    return save_encoder_folder(model.bert, tokenizer, path, model.cfg.max_seq_length)


def export_into(out: Path, write: Callable[[Path], object]) -> None:
    """Write a model's sentence-transformers files into the run folder ``out`` itself (``write(folder)`` saves
    them into a fresh folder): each finished file or folder is moved in by a rename, ``modules.json`` (what
    makes the folder a model) last, so a crash never leaves a folder whose ``modules.json`` describes
    modules that are not all there."""
    staging = out / ".export"
    shutil.rmtree(staging, ignore_errors=True)
    write(staging)
    items = sorted(staging.iterdir(), key=lambda p: p.name == "modules.json")
    for item in items:
        target = out / item.name
        if target.is_dir() and not target.is_symlink():
            shutil.rmtree(target)
        os.replace(item, target)
    staging.rmdir()
