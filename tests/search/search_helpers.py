"""Helpers of the search tests: a tiny real encoder (a static word-embedding-mean model folder built in code,
loaded through ``static:FOLDER`` like any lingualite model; no torch, no downloads) and toy documents."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

WORDS = ["the", "a", "cat", "dog", "house", "car", "red", "blue", "big", "small", "runs", "eats", "sleeps", "sees",
         "quickly", "slowly", "le", "un", "chat", "chien", "maison", "voiture", "rouge", "bleu", "grand", "petit",
         "court", "mange", "dort", "voit", "vite", "lentement", "print", "page", "table", "cell", "format", "open",
         "save", "file", "window", "help"]  # fmt: skip
# French words share their English word's row (plus a little noise): a cross-lingual toy model.
SHARED = dict(zip(WORDS[16:32], WORDS[:16], strict=True))


def make_static_model(folder: Path, dimension: int = 32, seed: int = 0) -> Path:
    """A static model folder (``tokenizer.json`` + ``model.safetensors`` + ``config.json``)."""
    from safetensors.numpy import save_file
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = {"[UNK]": 0, **{w: i + 1 for i, w in enumerate(WORDS)}}
    tokenizer = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    rng = np.random.default_rng(seed)
    table = rng.normal(size=(len(vocab), dimension)).astype(np.float32)
    for fr, en in SHARED.items():
        table[vocab[fr]] = table[vocab[en]] + 0.05 * rng.normal(size=dimension)
    folder.mkdir(parents=True, exist_ok=True)
    tokenizer.save(str(folder / "tokenizer.json"))
    save_file({"embeddings": table}, str(folder / "model.safetensors"))
    (folder / "config.json").write_text(json.dumps({"normalize": True}))
    return folder


def sentences(n: int, seed: int = 0) -> list[str]:
    rng = np.random.default_rng(seed)
    return [" ".join(rng.choice(WORDS[:16], size=int(rng.integers(3, 8)))) for _ in range(n)]


def docs(n: int, seed: int = 0, prefix: str = "d") -> list[dict]:
    return [{"id": f"{prefix}{i}", "text": t, "n": i} for i, t in enumerate(sentences(n, seed))]
