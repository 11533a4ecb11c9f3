"""Save the encoder as a sentence-transformers folder (Transformer -> mean Pooling), weights in safetensors.

Anything that reads that format (sentence-transformers, transformers' ``AutoModel``, ONNX exporters) loads
the result without lingualite. The generative head is training-only and stays in the checkpoints.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from transformers import PreTrainedTokenizerFast

from lingualite.io_utils import atomic_path
from lingualite.models.dual_encoder import DualEncoder


def save_sentence_transformer(
    model: DualEncoder, tokenizer: PreTrainedTokenizerFast, path: str | Path
) -> Path:
    """Write ``path`` atomically as a sentence-transformers model folder and return it."""
    # Heavy imports, only when saving. sentence-transformers >= 6 moved the modules; older releases still work.
    from sentence_transformers import SentenceTransformer

    try:
        from sentence_transformers.sentence_transformer import modules as models
    except ImportError:  # pragma: no cover - sentence-transformers < 6
        from sentence_transformers import models  # type: ignore[no-redef]

    path = Path(path)
    with tempfile.TemporaryDirectory() as tmp:
        model.bert.save_pretrained(tmp, safe_serialization=True)
        tokenizer.save_pretrained(tmp)
        transformer = models.Transformer(tmp, max_seq_length=model.cfg.max_seq_length)
        pooling = models.Pooling(model.cfg.hidden_size, pooling_mode="mean")
        st_model = SentenceTransformer(modules=[transformer, pooling], device="cpu")
        with atomic_path(path) as out:
            st_model.save(str(out), safe_serialization=True)
    return path
