"""Tiny document-structured parallel files (en-fr, en-de) for the monolingual mode, built in code."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import torch

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
DE = [
    "der",
    "ein",
    "katze",
    "hund",
    "haus",
    "auto",
    "rot",
    "blau",
    "gross",
    "klein",
    "rennt",
    "isst",
    "schlaeft",
    "sieht",
    "schnell",
    "langsam",
]


@pytest.fixture(autouse=True)
def one_thread():
    """Tiny models run fastest on one thread (and do not collapse when other processes share the cores)."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


def write_documents(path: Path, other: list[str], n_docs: int, seed: int) -> Path:
    """``en<TAB>xx<TAB>doc`` lines: documents of 3-6 sentences, word-by-word translations. Document ids are
    shared between files (as a Bible chapter is in en-fr and en-de)."""
    rng = random.Random(seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for d in range(n_docs):
            topic = rng.sample(range(len(EN)), 6)
            for _ in range(rng.randint(3, 6)):
                idx = [rng.choice(topic) for _ in range(rng.randint(3, 7))]
                fh.write(
                    " ".join(EN[j] for j in idx) + "\t" + " ".join(other[j] for j in idx) + f"\tdoc{d}\n"
                )
    return path


@pytest.fixture(scope="session")
def document_files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("mono")
    for pair, words, seed in (("en-fr", FR, 1), ("en-de", DE, 2)):
        write_documents(root / pair / "train.tsv", words, 90, seed)
        write_documents(root / pair / "valid.tsv", words, 12, seed + 10)
    return root
