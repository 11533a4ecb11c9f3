"""The everyday sentences stay out of every training run: the readers of training text (pair files, the
distillation's monolingual files, the ranker's chunks, the monolingual recipe's documents) drop them, in any
language and after normalisation, and count what they dropped."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from lingualite.config import config_from_dict
from lingualite.core.errors import LinguaLiteError
from lingualite.data.evalsets.everyday import drop_everyday_pairs, everyday_sentences
from lingualite.data.pairs import read_pairs
from lingualite.recipes.distill.ranker import ranker_corpus
from lingualite.recipes.distill.untranslated import read_monolingual
from lingualite.recipes.monolingual.comparable import read_document_sides
from lingualite.recipes.monolingual.documents import build_monolingual_corpus

NEWS_EN = everyday_sentences("news")["en"][0]
NEWS_FR = everyday_sentences("news")["fr"][0]
FORMAL_ZH = everyday_sentences("formal")["zh"][4]
CONVERSATION_RU = everyday_sentences("conversation")["ru"][2]


def _write(path: Path, lines: list[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_pairs_with_an_everyday_side_are_dropped_and_counted() -> None:
    pairs = [("A help sentence.", "Une phrase d'aide."), (NEWS_EN.upper(), "x"), ("y", NEWS_FR + " ")]
    assert drop_everyday_pairs(pairs) == ([pairs[0]], 2)


def test_read_pairs_drops_everyday_pairs_from_training_files(tmp_path: Path) -> None:
    en_fr = _write(
        tmp_path / "en-fr" / "train.tsv",
        ["Open the file.\tOuvrez le fichier.", f"{NEWS_EN}\t{NEWS_FR}", f"Close it.\t{NEWS_FR.lower()}"],
    )
    en_zh = _write(tmp_path / "en-zh" / "train.tsv", ["Save it.\t保存它。", f"Print it.\t{FORMAL_ZH}"])
    corpus = read_pairs([en_fr, en_zh])
    assert corpus.pairs == [("Open the file.", "Ouvrez le fichier."), ("Save it.", "保存它。")]
    assert corpus.everyday_dropped == 3
    assert corpus.texts == {
        "en": ["Open the file.", "Save it."],
        "fr": ["Ouvrez le fichier."],
        "zh": ["保存它。"],
    }
    assert corpus.groups.tolist() == [0, 1]


def test_read_pairs_names_a_file_left_empty_by_the_guard(tmp_path: Path) -> None:
    only = _write(tmp_path / "en-fr" / "train.tsv", [f"{NEWS_EN}\t{NEWS_FR}"])
    with pytest.raises(LinguaLiteError, match="dropping 1 of the held-out everyday sentences"):
        read_pairs([only])


def test_monolingual_files_drop_everyday_sentences(tmp_path: Path) -> None:
    _write(tmp_path / "mono" / "ru.txt", ["Обычное предложение.", CONVERSATION_RU, f"  {CONVERSATION_RU}  "])
    cfg = config_from_dict(
        {
            "data": {
                "monolingual_files": [str(tmp_path / "mono" / "*.txt")],
                "valid_files": [],
                "monolingual_exclude_files": [],
            }
        },
        "test",
        mode="distill",
    )
    text = read_monolingual(cfg, [])
    assert text.sentences == ["Обычное предложение."]
    assert text.stats["excluded_everyday"] == 2 and text.stats["read"] == 3


def test_ranker_chunks_drop_everyday_pairs(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "en-fr" / "train.tsv",
        ["One.\tUn.\td1", f"{NEWS_EN}\t{NEWS_FR}\td1", "Two.\tDeux.\td1"],
    )
    cfg = config_from_dict(
        {"ranker": {"query_prompt": "q: ", "passage_prompt": "p: "}, "data": {"monolingual_files": []}},
        "test",
        mode="distill",
    )
    corpus, counts = ranker_corpus(cfg, [path])
    assert counts["excluded_everyday"] == 1 and counts["kept"] == 2
    assert all(NEWS_EN not in a and NEWS_FR not in b for a, b in corpus.pairs)
    assert isinstance(corpus.groups, np.ndarray)


def test_the_monolingual_recipe_reads_no_everyday_sentence(tmp_path: Path) -> None:
    lines = [f"Sentence {i}.\tPhrase {i}.\tdoc-{i % 4}" for i in range(12)] + [f"{NEWS_EN}\t{NEWS_FR}\tdoc-1"]
    path = _write(tmp_path / "en-fr" / "train.tsv", lines)
    corpus = build_monolingual_corpus([path], ["en", "fr"], min_sentences=1)
    texts = corpus.sentences("en") + corpus.sentences("fr")
    assert NEWS_EN not in texts and NEWS_FR not in texts
    assert corpus.dropped["everyday_sentences"] == 1
    sides, dropped = read_document_sides([path], ["en", "fr"])
    assert dropped["everyday_sentences"] == 2
    assert all(NEWS_EN not in s and NEWS_FR not in s for doc in sides.values() for s in doc.values())
