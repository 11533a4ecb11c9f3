"""IR over several query folders encodes the shared corpus once, with the same scores as encoding it each time."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from lingualite.evaluation.suite import ir_from_files


class CountingEncoder:
    """Bag-of-characters vectors; counts the texts it encodes."""

    name = "counting"
    dimension = 26

    def __init__(self) -> None:
        self.calls: list[int] = []

    def encode(self, texts: list[str]) -> np.ndarray:
        self.calls.append(len(texts))
        out = np.zeros((len(texts), 26), dtype=np.float32)
        for i, text in enumerate(texts):
            for c in text.lower():
                if "a" <= c <= "z":
                    out[i, ord(c) - 97] += 1
        return out + 1e-3


def _folder(path: Path, files: dict[str, list[str]]) -> Path:
    path.mkdir()
    for name, lines in files.items():
        (path / name).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_the_corpus_is_encoded_once_for_all_query_folders(tmp_path: Path) -> None:
    corpus = [
        f"d{i}\t{text}" for i, text in enumerate(["apples and pears", "zebra xylophone", "quiet kings"])
    ]
    en = _folder(
        tmp_path / "en",
        {"corpus.tsv": corpus, "queries.tsv": ["q1\tpears", "q2\tzebra"], "qrels.tsv": ["q1\td0", "q2\td1"]},
    )
    folders = [
        _folder(
            tmp_path / lang,
            {
                "queries.tsv": [f"q1\tkings quiet {lang}", f"q2\tapple {lang}"],
                "qrels.tsv": ["q1\td2", "q2\td0"],
            },
        )
        for lang in ("fr", "de", "es")
    ]
    encoder = CountingEncoder()
    result = ir_from_files(encoder, en, folders)
    assert encoder.calls.count(3) == 1  # the 3 corpus documents, once; then 2 queries per folder
    assert sorted(encoder.calls) == [2, 2, 2, 2, 3]
    for folder in [en, *folders]:  # the same scores as a run that encodes the corpus for one folder alone
        alone = ir_from_files(CountingEncoder(), en, [folder] if folder != en else [])
        name = folder.name
        assert result["per_test"][name] == alone["per_test"][name]
