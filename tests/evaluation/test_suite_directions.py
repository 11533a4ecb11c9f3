"""Paper 000's two-direction protocols from files: classification en2xx / xx2en on a set folder (Table 3's
→ and ←) and pooled XSR src2tgt / tgt2src with per-pair distractor templates (Table 4)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from lingualite.core.errors import LinguaLiteError
from lingualite.evaluation.suite import (
    classification_direction,
    classification_from_set,
    xsr_from_files,
)

TOPICS = {"animals": "cat dog bird horse", "cars": "car wheel road engine", "food": "bread cheese wine soup"}


class Words:
    """Bag of fixed random word vectors; ``xcat`` (the 'French' word) has the vector of ``cat``."""

    name = "words"
    dimension = 16

    def __init__(self) -> None:
        self.encoded: list[int] = []

    def _vec(self, word: str) -> np.ndarray:
        seed = int.from_bytes(word.removeprefix("x").encode()[:8].ljust(8, b"\0"), "little") % 2**32
        return np.random.default_rng(seed).normal(size=self.dimension)

    def encode(self, texts: list[str]) -> np.ndarray:
        self.encoded.append(len(texts))
        return np.stack([sum(self._vec(w) for w in t.split()) for t in texts]).astype(np.float32)


def _classification_set(folder: Path, langs: dict[str, str], splits: tuple[str, ...]) -> Path:
    """``{split}.{lang}.tsv`` files: 5 documents per topic, French words prefixed with x."""
    rng = np.random.default_rng(0)
    folder.mkdir(parents=True)
    for split in splits:
        for lang, prefix in langs.items():
            lines = []
            for label, words in TOPICS.items():
                for _ in range(5):
                    doc = " ".join(prefix + w for w in rng.choice(words.split(), 6))
                    lines.append(f"{label}\t{doc} {prefix}filler{rng.integers(9)}")
            (folder / f"{split}.{lang}.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def test_classification_in_both_directions(tmp_path: Path) -> None:
    folder = _classification_set(tmp_path / "set", {"en": "", "fr": "x"}, ("train", "test"))
    forward = classification_direction(Words(), folder, "en2xx", seeds=2)
    assert forward["direction"] == "en2xx" and set(forward["per_test"]) == {"en", "fr"}
    encoder = Words()
    reverse = classification_direction(encoder, folder, "xx2en", seeds=2)
    assert reverse["direction"] == "xx2en" and list(reverse["per_test"]) == ["fr"]
    row = reverse["per_test"]["fr"]
    assert row["accuracy"] == reverse["accuracy"] == 1.0 and row["num_train"] == 15 and row["num_docs"] == 15
    both = classification_from_set(Words(), folder, "both", seeds=1)
    assert both["direction"] == "both" and both["en2xx_accuracy"] == 1.0 and both["xx2en_accuracy"] == 1.0
    assert set(both["en2xx"]) == {"en", "fr"} and set(both["xx2en"]) == {"fr"}


def test_reverse_classification_encodes_the_english_test_set_once(tmp_path: Path) -> None:
    folder = _classification_set(tmp_path / "set", {"en": "", "fr": "x", "de": "x"}, ("train", "test"))
    encoder = Words()
    result = classification_direction(encoder, folder, "xx2en", seeds=1, max_docs=9)
    assert list(result["per_test"]) == ["de", "fr"]
    assert encoder.encoded == [9, 9, 9]  # train.de, test.en, train.fr: test.en not encoded again


def test_reverse_classification_without_translated_training_documents(tmp_path: Path) -> None:
    folder = _classification_set(tmp_path / "set", {"en": "", "fr": "x"}, ("test",))
    (folder / "train.en.tsv").write_text(
        "animals\tcat dog\ncars\tcar road\nfood\tbread wine\n", encoding="utf-8"
    )
    with pytest.raises(LinguaLiteError, match=r"needs training documents in fr \(train.<xx>.tsv\)"):
        classification_from_set(Words(), folder, "both", seeds=1)


def _pairs(folder: Path, n: int) -> Path:
    rng = np.random.default_rng(1)
    words = [f"w{i}" for i in range(300)]
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    for i in range(n):
        src = list(rng.choice(words, 4, replace=False))
        lines.append(" ".join(src) + "\t" + " ".join("x" + w for w in src) + f"\tdoc{i}")
    (folder / "test.tsv").write_text("\n".join(lines[: n // 2]) + "\n", encoding="utf-8")
    (folder / "train.tsv").write_text("\n".join(lines[n // 2 :]) + "\n", encoding="utf-8")
    return folder / "test.tsv"


def test_pooled_xsr_in_both_directions_with_pair_distractors(tmp_path: Path) -> None:
    test = _pairs(tmp_path / "en-fr", 200)
    template = str(tmp_path / "{pair}" / "train.tsv")
    encoder = Words()
    result = xsr_from_files(
        encoder,
        [test],
        "margin",
        queries=20,
        pool=80,
        distractors=[template],
        directions=["src2tgt", "tgt2src"],
    )
    row = result["per_test"]["en-fr"]
    assert row["src2tgt_p_at_1"] == row["tgt2src_p_at_1"] == row["p_at_1"] == result["p_at_1"] == 1.0
    assert row["src2tgt_pool_size"] == row["tgt2src_pool_size"] == row["pool_size"] == 80
    assert row["num_queries"] == 20 and row["method"] == "margin" and row["k"] == 4
    assert encoder.encoded == [20, 80, 20, 80]  # each direction: its queries, then its own pool
    one = xsr_from_files(Words(), [test], "margin", queries=20, pool=80, distractors=[template])
    assert (
        one["per_test"]["en-fr"]["src2tgt_p_at_1"] == 1.0 and "tgt2src_p_at_1" not in one["per_test"]["en-fr"]
    )


def test_pooled_reverse_direction_draws_distractors_from_the_source_side(tmp_path: Path) -> None:
    test = _pairs(tmp_path / "en-fr", 40)
    # the English pool: the 20 test sources + the 20 sources (column 1) of the training pairs
    result = xsr_from_files(
        Words(),
        [test],
        queries=5,
        distractors=[str(tmp_path / "en-fr" / "train.tsv")],
        directions=["tgt2src"],
    )
    assert result["per_test"]["en-fr"]["tgt2src_pool_size"] == 40


def test_directions_need_the_pooled_protocol(tmp_path: Path) -> None:
    test = _pairs(tmp_path / "en-fr", 20)
    with pytest.raises(ValueError, match="directions apply to the pooled protocol"):
        xsr_from_files(Words(), [test], directions=["tgt2src"])
    with pytest.raises(LinguaLiteError, match=r"direction\(s\) \['up'\]"):
        xsr_from_files(Words(), [test], queries=5, directions=["up"])
