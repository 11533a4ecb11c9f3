"""Shared fixtures: a tiny synthetic parallel corpus and a tiny trained tokenizer, built in code (offline)."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

EN = [
    "the",
    "a",
    "cat",
    "dog",
    "house",
    "car",
    "red",
    "blue",
    "big",
    "small",
    "runs",
    "eats",
    "sleeps",
    "sees",
    "quickly",
    "slowly",
]
FR = [
    "le",
    "un",
    "chat",
    "chien",
    "maison",
    "voiture",
    "rouge",
    "bleu",
    "grand",
    "petit",
    "court",
    "mange",
    "dort",
    "voit",
    "vite",
    "lentement",
]


def write_synthetic_pairs(folder: Path, n: int, seed: int) -> Path:
    """Word-by-word 'translations' from a 16-word dictionary, ``en<TAB>fr<TAB>doc`` lines."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "pairs.tsv"
    with path.open("w", encoding="utf-8") as fh:
        for i in range(n):
            idx = [rng.randrange(len(EN)) for _ in range(rng.randint(3, 9))]
            fh.write(" ".join(EN[j] for j in idx) + "\t" + " ".join(FR[j] for j in idx) + f"\tdoc{i}\n")
    return path


@pytest.fixture(scope="session")
def synthetic_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("corpus")
    train = write_synthetic_pairs(root / "en-fr", 600, seed=1)
    train.rename(root / "en-fr" / "train.tsv")
    valid = write_synthetic_pairs(root / "valid" / "en-fr", 120, seed=2)
    valid.rename(root / "en-fr" / "valid.tsv")
    return root


@pytest.fixture(scope="session")
def tiny_tokenizer(synthetic_corpus: Path):
    from lingualite.tokenization import train_tokenizer
    from lingualite.training.dataset import read_pairs

    texts = read_pairs([synthetic_corpus / "en-fr" / "train.tsv"]).texts
    return train_tokenizer(texts, vocab_size=120, sample_size=2000)
