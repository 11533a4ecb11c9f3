"""Shared fixtures: a tiny synthetic parallel corpus and a tiny trained tokenizer, built in code (offline)."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

# Fuzzing profiles (tests/fuzz): "ci" is the default and bounded; `pytest --hypothesis-profile=long tests/fuzz`
# runs the long campaign whose counts docs/guarantees.md reports.
_FUZZ = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
}
settings.register_profile("ci", max_examples=60, derandomize=True, **_FUZZ)
settings.register_profile("long", max_examples=10_000, **_FUZZ)
settings.load_profile(os.environ.get("LINGUALITE_HYPOTHESIS_PROFILE", "ci"))

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


DE = ["der", "ein", "katze", "hund", "haus", "auto", "rot", "blau", "gross", "klein", "rennt", "isst", "schlaeft",
      "sieht", "schnell", "langsam"]  # fmt: skip


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


@pytest.fixture(scope="session")
def synthetic_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("corpus")
    train = write_synthetic_pairs(root / "en-fr", 600, seed=1)
    train.rename(root / "en-fr" / "train.tsv")
    valid = write_synthetic_pairs(root / "valid" / "en-fr", 120, seed=2)
    valid.rename(root / "en-fr" / "valid.tsv")
    return root


@pytest.fixture(scope="session")
def tiny_words() -> list[str]:
    """The English words the tiny tokenizer knows (for tests that write sentences of their own)."""
    return list(EN)


@pytest.fixture(scope="session")
def tiny_tokenizer(synthetic_corpus: Path):
    from lingualite.data.pairs import read_pairs
    from lingualite.tokenization import train_tokenizer

    texts = read_pairs([synthetic_corpus / "en-fr" / "train.tsv"]).texts
    return train_tokenizer(texts, vocab_size=120, sample_size=2000)


TOPICS = {
    "animals": ["cat dog bird", "chat chien oiseau"],
    "cars": ["car wheel road", "voiture roue route"],
    "food": ["bread cheese wine", "pain fromage vin"],
}


def build_eval_tree(root: Path, n_docs: int = 30, seed: int = 0) -> tuple[Path, Path]:
    """A tiny ``data/eval`` + ``data/prepared`` pair in the documented formats (en -> fr)."""
    rng = random.Random(seed)
    ev, prep = root / "eval", root / "prepared"

    def doc(topic: str, lang: int) -> str:
        words = TOPICS[topic][lang].split()
        return " ".join(rng.choice(words) for _ in range(8)) + f" filler{rng.randrange(50)}"

    folder = ev / "classify" / "bible-genres"
    folder.mkdir(parents=True)
    for name, lang in (("train.en.tsv", 0), ("test.en.tsv", 0), ("test.fr.tsv", 1)):
        lines = [f"{t}\t{doc(t, lang)}" for t in TOPICS for _ in range(n_docs // 3)]
        (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    folder = ev / "pairs" / "bible-paraphrase"
    folder.mkdir(parents=True)
    for name, lang in (("train.en.tsv", 0), ("test.fr.tsv", 1)):
        lines = []
        for _ in range(n_docs):
            a, b = rng.sample(list(TOPICS), 2)
            lines += [f"{doc(a, lang)}\t{doc(a, lang)}\t1", f"{doc(a, lang)}\t{doc(b, lang)}\t0"]
        (folder / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    (ev / "sts" / "lee").mkdir(parents=True)
    lines = [
        f"{doc('cars', 0)}\t{doc(t, 0)}\t{1.0 if t == 'cars' else 0.1 * i}" for i, t in enumerate(TOPICS)
    ]
    (ev / "sts" / "lee" / "en.tsv").write_text("\n".join(lines * 3) + "\n", encoding="utf-8")
    ir = ev / "ir" / "libreoffice-index"
    (ir / "en").mkdir(parents=True)
    (ir / "fr").mkdir(parents=True)
    (ir / "en" / "corpus.tsv").write_text("".join(f"d{t}\t{doc(t, 0)}\n" for t in TOPICS), encoding="utf-8")
    for lang, sub in ((0, "en"), (1, "fr")):
        (ir / sub / "queries.tsv").write_text(
            "".join(f"q{t}\t{TOPICS[t][lang]}\n" for t in TOPICS), encoding="utf-8"
        )
        (ir / sub / "qrels.tsv").write_text("".join(f"q{t}\td{t}\t1\n" for t in TOPICS), encoding="utf-8")
    (prep / "en-fr").mkdir(parents=True)
    pairs = [(doc(t, 0), doc(t, 1)) for t in TOPICS for _ in range(10)]
    (prep / "en-fr" / "test.tsv").write_text("".join(f"{a}\t{b}\tdoc{i}\n" for i, (a, b) in enumerate(pairs)))
    return ev, prep


@pytest.fixture(scope="session")
def eval_tree(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(eval_dir, prepared_dir): every evaluation task's files in the documented formats, en and fr."""
    return build_eval_tree(tmp_path_factory.mktemp("eval_tree"))


_HOLD_LOCK = """
import sys
from lingualite.core.io_utils import run_lock
with run_lock(sys.argv[1]):
    print("locked", flush=True)
    sys.stdin.read()
"""


@pytest.fixture()
def locked_folder(tmp_path: Path):
    """``(folder, pid)``: a run folder whose lock another live process holds for the test's duration."""
    import subprocess
    import sys

    folder = tmp_path / "busy"
    child = subprocess.Popen(
        [sys.executable, "-c", _HOLD_LOCK, str(folder)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None and child.stdout.readline().strip() == "locked"
    yield folder, child.pid
    child.communicate("", timeout=30)


@pytest.fixture()
def tiny_parallel_config(synthetic_corpus: Path) -> Any:
    """``tiny_parallel_config(valid=True, **optim)``: a ParallelConfig of 1 x 16 on the synthetic corpus."""
    return lambda valid=True, **optim: _tiny_parallel_config(synthetic_corpus, valid, **optim)


def _tiny_parallel_config(corpus: Path, valid: bool = True, **optim: Any) -> Any:
    from lingualite.config import ParallelConfig
    from lingualite.config.parsing import from_dict

    files = [str(corpus / "en-fr" / "valid.tsv")] if valid else []
    return from_dict(
        ParallelConfig,
        {
            "data": {
                "train_files": [str(corpus / "en-fr" / "train.tsv")],
                "valid_files": files,
                "valid_pairs": 50,
            },
            "vocabulary": {"size": 120, "sample_size": 2000},
            "model": {
                "hidden_size": 16,
                "num_layers": 1,
                "num_heads": 2,
                "ffn_size": 32,
                "max_seq_length": 16,
            },
            "optim": {"batch_size": 8, "warmup_steps": 1, **optim},
        },
        "test",
    )


@pytest.fixture()
def one_torch_thread():
    """Tiny models run fastest on one thread, and do not collapse when other processes share the cores
    (two OpenMP threads waiting on a busy core made a 16-wide layer 100x slower)."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture(scope="module")
def static_model(tiny_tokenizer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tiny real static model folder (seeded): the encode, parallel-encode, Ray and packaging tests'."""
    import torch
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import StaticEmbedding

    torch.manual_seed(0)
    folder = tmp_path_factory.mktemp("static") / "m"
    embedding = StaticEmbedding(tiny_tokenizer.backend_tokenizer, embedding_dim=16)
    SentenceTransformer(modules=[embedding], device="cpu").save(str(folder))
    return folder
