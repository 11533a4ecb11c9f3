"""Paper 002's relevance ranker: asymmetric distillation with query / passage prompts (tiny data, tiny
teachers): the prompts reach teacher and student alike, and the saved folder's query side round-trips."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from lingualite.config import config_from_dict
from lingualite.config.distill import DistillConfig
from lingualite.core.errors import ConfigError, LinguaLiteError
from lingualite.recipes.distill import train_distill as train_module
from lingualite.recipes.distill.ranker import asymmetric_teacher, ranker_corpus
from lingualite.recipes.distill.teacher import Teacher
from lingualite.recipes.distill.train_distill import train_distill as distill

pytestmark = pytest.mark.slow  # trains a model: left out of the fast tier

RANKER = {"query_prompt": "query: ", "passage_prompt": "passage: ", "passage_sentences": 2}


def _config(train: Path, **ranker: object) -> DistillConfig:
    data = {"train_files": [str(train)], "max_train_pairs": None, "monolingual_files": []}
    raw = {"data": data, "ranker": {**RANKER, **ranker}}
    return config_from_dict(raw, "test", mode="distill")


def _write(path: Path, rows: list[tuple[str, str, str]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{a}\t{b}\t{d}\n" for a, b, d in rows), encoding="utf-8")
    return path


def test_ranker_corpus_makes_queries_and_passages_and_drops_excluded_texts(tmp_path: Path) -> None:
    rows = [
        ("open a file", "ouvrir un fichier", "lo:a.html"),
        ("save a file", "enregistrer un fichier", "lo:a.html"),
        ("close a file", "fermer un fichier", "lo:a.html"),
        ("Print Preview", "Aperçu", "lo:b.html"),  # an IR query (case differs): dropped
        ("print the page", "imprimer la page", "lo:b.html"),
        ("In the beginning", "Au commencement", "bible:Gen:1"),  # another source: dropped
    ]
    train = _write(tmp_path / "en-fr" / "train.tsv", rows)
    (tmp_path / "queries.tsv").write_text("en:1\tprint preview\n", encoding="utf-8")
    cfg = _config(train, sources=["lo"], exclude_files=[str(tmp_path / "queries.tsv")])
    corpus, stats = ranker_corpus(cfg, [train])

    assert stats == {"read": 6, "excluded": 1, "excluded_everyday": 0, "kept": 4, "queries": 4, "passages": 3}
    assert corpus.pairs == [
        ("query: open a file", "query: ouvrir un fichier"),
        ("query: save a file", "query: enregistrer un fichier"),
        ("passage: open a file save a file", "passage: ouvrir un fichier enregistrer un fichier"),
        ("query: close a file", "query: fermer un fichier"),
        ("passage: close a file", "passage: fermer un fichier"),
        ("query: print the page", "query: imprimer la page"),
        ("passage: print the page", "passage: imprimer la page"),
    ]
    assert corpus.texts["en"] == [
        "open a file",
        "save a file",
        "close a file",
        "print the page",
    ]  # vocabulary
    assert "Aperçu" not in corpus.texts["fr"]

    with pytest.raises(LinguaLiteError, match="no training pairs left"):
        ranker_corpus(_config(train, sources=["ddtp"]), [train])
    with pytest.raises(ConfigError, match="must differ"):
        _config(train, passage_prompt="query: ")


def _recording_teacher(calls: dict[str, list[str]]) -> Teacher:
    def side(name: str, offset: float):
        def encode(texts: list[str]) -> np.ndarray:
            calls[name].extend(texts)
            return np.array([[len(t), offset, t.count("a")] for t in texts], dtype=np.float32)

        return encode

    return Teacher("fake-e5", side("passage", 0.0), "fake", encode_queries=side("query", 1.0))


def test_the_teacher_reads_each_side_without_its_prompt(tmp_path: Path) -> None:
    calls: dict[str, list[str]] = {"query": [], "passage": []}
    cfg = _config(tmp_path / "unused.tsv")
    teacher = asymmetric_teacher(_recording_teacher(calls), cfg.ranker)
    vectors = teacher.encode(["query: ab", "passage: long text", "query: c"])
    assert calls == {"query": ["ab", "c"], "passage": ["long text"]}
    np.testing.assert_array_equal(vectors[:, 1], [1.0, 0.0, 1.0])  # each row from its own side, in order
    np.testing.assert_array_equal(vectors[:, 0], [2, 9, 1])
    assert teacher.fingerprint != "fake"  # its cached vectors are not a symmetric run's
    plain = Teacher("st", lambda t: np.zeros((len(t), 2), np.float32), "st")  # no query side: prompts as text
    assert asymmetric_teacher(plain, cfg.ranker).encode is plain.encode


def test_ranker_distillation_prompts_reach_teacher_and_student_and_the_folder_keeps_them(
    tiny_distill_config, synthetic_corpus: Path, tiny_teacher: Path, tmp_path: Path, monkeypatch
) -> None:
    from sentence_transformers import SentenceTransformer

    from lingualite.encoders.folder import SentenceTransformerEncoder

    lines = (synthetic_corpus / "en-fr" / "train.tsv").read_text(encoding="utf-8").splitlines()[:300]
    rows = [(*line.split("\t")[:2], f"lo:doc{i // 3}") for i, line in enumerate(lines)]  # 3-sentence pages
    train = _write(tmp_path / "data" / "en-fr" / "train.tsv", rows)
    st_teacher = SentenceTransformer(str(tiny_teacher), device="cpu")
    calls: dict[str, list[str]] = {"query": [], "passage": []}

    def side(name: str, shift: float):
        def encode(texts: list[str]) -> np.ndarray:
            calls[name].extend(texts)
            return st_teacher.encode(texts, convert_to_numpy=True) + shift

        return encode

    fake = Teacher("fake-e5", side("passage", 0.0), "fake-e5", encode_queries=side("query", 0.3))
    monkeypatch.setattr(train_module, "load_teacher", lambda *a, **k: fake)
    seen_by_student: list[tuple[str, str]] = []
    build = train_module.TokenizedPairs.build
    monkeypatch.setattr(
        train_module.TokenizedPairs,
        "build",
        staticmethod(lambda pairs, *a, **k: seen_by_student.extend(pairs) or build(pairs, *a, **k)),
    )
    cfg = tiny_distill_config(
        data={"train_files": [str(train)]}, ranker=RANKER, pca={"save_teacher": False}, optim={"max_steps": 6}
    )
    out = tmp_path / "ranker"
    result = distill(cfg, out, progress=False)

    english = {a for a, _, _ in rows}
    assert set(calls["query"]) >= english  # the teacher's query side: every sentence, without the prompt
    assert not any(t.startswith(("query: ", "passage: ")) for t in calls["query"] + calls["passage"])
    assert len(calls["passage"]) == 200  # 3-sentence pages in runs of 2 and 1
    assert f"{rows[0][0]} {rows[1][0]}" in calls["passage"] and rows[2][0] in calls["passage"]
    assert {a.split(": ")[0] for a, _ in seen_by_student} == {"query", "passage"}  # the student reads them
    assert all(b.startswith(a.split(": ")[0] + ": ") for a, b in seen_by_student)
    assert result.summary["ranker"]["passages"] == 200

    saved = json.loads((out / "config_sentence_transformers.json").read_text())
    assert saved["prompts"] == {"query": "query: ", "passage": "passage: "}
    assert saved["default_prompt_name"] == "passage"
    encoder = SentenceTransformerEncoder(out, threads=1)
    texts = ["the big cat runs", "le grand chat court"]
    model = SentenceTransformer(str(out), device="cpu")
    np.testing.assert_allclose(
        encoder.encode_queries(texts), model.encode(["query: " + t for t in texts], prompt=""), atol=1e-6
    )
    np.testing.assert_allclose(
        encoder.encode(texts), model.encode(["passage: " + t for t in texts], prompt=""), atol=1e-6
    )
    assert not np.allclose(encoder.encode_queries(texts), encoder.encode(texts))


def test_a_symmetric_student_has_no_query_side(tiny_distill_config, tmp_path: Path) -> None:
    from lingualite.encoders.folder import SentenceTransformerEncoder

    out = tmp_path / "run"
    distill(tiny_distill_config(optim={"max_steps": 2}), out, progress=False, validate=False)
    saved = json.loads((out / "config_sentence_transformers.json").read_text())
    assert not (saved.get("prompts") or {}).get("query")  # sentence-transformers >= 6 saves empty prompts
    assert not hasattr(SentenceTransformerEncoder(out, threads=1), "encode_queries")
