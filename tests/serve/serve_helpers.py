"""Helpers of the serve tests: a real uvicorn server on a free local port (in a thread) and a tiny
deterministic encoder. (Not conftest.py: test modules import these by name.)"""

from __future__ import annotations

import socket
import threading
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np


class HashEncoder:
    """Character-trigram counts hashed into ``dimension`` buckets (crc32): deterministic, and texts that share
    words get similar vectors. Counts its calls; ``delay`` seconds per call make batching observable."""

    name = "hash-test"

    def __init__(self, dimension: int = 32, delay: float = 0.0) -> None:
        self._dimension = dimension
        self.delay = delay
        self.calls: list[int] = []  # texts per call
        self.threads: set[str] = set()
        self._lock = threading.Lock()

    @property
    def dimension(self) -> int:
        return self._dimension

    def vector(self, text: str) -> np.ndarray:
        out = np.zeros(self._dimension, dtype=np.float32)
        padded = f"  {text.lower()}  "
        for i in range(len(padded) - 2):
            out[zlib.crc32(padded[i : i + 3].encode("utf-8")) % self._dimension] += 1.0
        return out

    def encode(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            self.calls.append(len(texts))
            self.threads.add(threading.current_thread().name)
        if self.delay:
            time.sleep(self.delay)
        return (
            np.stack([self.vector(t) for t in texts]) if texts else np.zeros((0, self._dimension), np.float32)
        )


@contextmanager
def running(app: Any, settings: Any = None) -> Iterator[str]:
    """Serve ``app`` with uvicorn on 127.0.0.1 (a port the OS picks), with the options ``lingualite serve``
    gives uvicorn for ``settings`` (its timed protocol); yields the base URL."""
    import uvicorn

    from lingualite.serve.protocol import uvicorn_options
    from lingualite.serve.settings import ServeSettings

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    options = uvicorn_options(settings or ServeSettings())
    server = uvicorn.Server(uvicorn.Config(app, lifespan="on", **options))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


DOCS = [
    {"id": "fr-print", "text": "Imprimer la page actuelle du document", "lang": "fr"},
    {"id": "de-print", "text": "Die aktuelle Seite des Dokuments drucken", "lang": "de"},
    {"id": "en-save", "text": "Save the spreadsheet in another format", "lang": "en"},
    {"id": "es-cell", "text": "Dar formato a las celdas de la tabla", "lang": "es"},
    {"id": "it-open", "text": "Aprire un file dal menu principale", "lang": "it"},
    {"id": "en-help", "text": "Open the help window for this dialog", "lang": "en"},
    {"id": "fr-cat", "text": "Le chat dort sur le canapé rouge", "lang": "fr"},
    {"id": "de-dog", "text": "Der Hund läuft schnell über die Straße", "lang": "de"},
]


def make_static_model(folder: Path, dimension: int = 16, seed: int = 0) -> Path:
    """A tiny static model folder (word-level tokenizer + embedding table), loadable as ``static:FOLDER``."""
    import json

    from safetensors.numpy import save_file
    from tokenizers import Tokenizer, models, pre_tokenizers

    words = sorted({w.lower() for d in DOCS for w in d["text"].split()})
    vocab = {"[UNK]": 0, **{w: i + 1 for i, w in enumerate(words)}}
    tokenizer = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    table = np.random.default_rng(seed).normal(size=(len(vocab), dimension)).astype(np.float32)
    folder.mkdir(parents=True, exist_ok=True)
    tokenizer.save(str(folder / "tokenizer.json"))
    save_file({"embeddings": table}, str(folder / "model.safetensors"))
    (folder / "config.json").write_text(json.dumps({"normalize": True}))
    return folder
