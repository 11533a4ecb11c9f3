"""Monolingual sentences in distillation: config checks, reading (dedup, held-out text excluded, cap, file:line
errors), batches, and that the sentences reach the MSE loss with their own teacher vectors."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import torch

from lingualite.config import config_from_dict
from lingualite.core.errors import BadInputError, ConfigError, LinguaLiteError
from lingualite.data.tokenized import RaggedIds
from lingualite.recipes.distill import train_distill as train_module
from lingualite.recipes.distill.pca import load_projection
from lingualite.recipes.distill.teacher import Teacher
from lingualite.recipes.distill.train_distill import train_distill as distill
from lingualite.recipes.distill.untranslated import MonolingualBatches, mixed_loss, read_monolingual

pytestmark = pytest.mark.slow  # trains a model: left out of the fast tier


@pytest.mark.parametrize(
    ("data", "key"),
    [
        ({"data": {"monolingual_batch_size": 0}}, "data.monolingual_batch_size"),
        ({"data": {"max_monolingual_sentences": 0}}, "data.max_monolingual_sentences"),
        ({"data": {"monolingual_files": "a.txt"}}, "data.monolingual_files"),
        ({"data": {"monolingual_file": ["a.txt"]}}, r"unknown key\(s\) \['monolingual_file'\]"),
    ],
)
def test_bad_monolingual_settings_name_their_key(data: dict, key: str) -> None:
    with pytest.raises(ConfigError, match=key):
        config_from_dict(data, "test", mode="distill")


def test_untranslated_text_is_read_by_default_and_can_be_turned_off() -> None:
    cfg = config_from_dict({}, "test", mode="distill")
    assert [Path(f).parent.name for f in cfg.data.monolingual_files] == ["monolingual", "lexicon"]
    assert [Path(f).parent.name for f in cfg.data.ranked_monolingual_files] == ["lexicon"]  # commonest words
    cfg = config_from_dict({"data": {"monolingual_files": []}}, "test", mode="distill")
    assert read_monolingual(cfg, []).sentences == []


def _write(path: Path, lines: list[str]) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def test_reading_dedups_excludes_held_out_text_and_caps_per_file(tmp_path: Path) -> None:
    valid = _write(tmp_path / "en-fr" / "valid.tsv", ["A valid sentence.\tUne phrase de validation."])
    test = _write(tmp_path / "en-fr" / "test.tsv", ["The test sentence.\tLa phrase de test."])
    en = _write(
        tmp_path / "mono" / "en.txt",
        [
            "A new sentence.",
            "",
            "A  new sentence.",  # the same after whitespace collapsing
            "a valid SENTENCE.",  # a validation sentence (normalised: case and spacing)
            "The test sentence.",
            "A training source.",  # has a pair already
            "Another new one.",
        ],
    )
    fr = _write(
        tmp_path / "mono" / "fr.txt", ["La phrase de test.", *(f"Phrase numéro {i}." for i in range(10))]
    )
    cfg = config_from_dict(
        {
            "data": {
                "valid_files": [valid],
                "monolingual_files": [str(tmp_path / "mono" / "*.txt")],
                "monolingual_exclude_files": [test],
                "max_monolingual_sentences": 6,
            }
        },
        "test",
        mode="distill",
    )
    text = read_monolingual(cfg, ["A training source."])
    english = [s for s in text.sentences if not s.startswith("Phrase")]
    assert english == ["A new sentence.", "Another new one."]  # file order kept; under the cap of 3 per file
    french = [s for s in text.sentences if s.startswith("Phrase")]
    assert len(french) == 3 and len(set(french)) == 3  # an equal share: 6 // 2 files
    assert text.stats["read"] == 17 and text.stats["duplicates"] == 2 and text.stats["excluded_held_out"] == 3
    assert text.stats["per_file"] == {en: 2, fr: 3}
    assert text.by_language == {"en": english, "fr": french}  # what vocabulary.monolingual samples
    merged = text.with_pairs(lambda: {"fr": ["Une paire."], "de": ["Ein Paar."]})()
    assert merged == {"fr": ["Une paire.", *french], "de": ["Ein Paar."], "en": english}
    assert read_monolingual(cfg, ["A training source."]).sentences == text.sentences  # seeded

    (tmp_path / "mono" / "de.txt").write_bytes(b"Ein Satz.\nkaputt \xff\n")
    with pytest.raises(BadInputError, match=r"de\.txt:2"):
        read_monolingual(cfg, [])
    cfg.data.monolingual_files = [str(tmp_path / "nothing" / "*.txt")]
    with pytest.raises(LinguaLiteError, match="no monolingual file"):
        read_monolingual(cfg, [])


def test_a_ranked_word_list_keeps_its_commonest_words_under_the_cap(tmp_path: Path) -> None:
    words = [f"word{i}" for i in range(40)]  # most frequent first, as the lexicon source writes them
    lexicon = _write(tmp_path / "lexicon" / "fr.txt", ["maison", *words])
    mono = _write(tmp_path / "mono" / "fr.txt", [f"Phrase numéro {i}." for i in range(40)])
    valid = _write(tmp_path / "en-fr" / "valid.tsv", ["A house.\tUne maison."])
    data = {
        "valid_files": [valid],
        "monolingual_files": [mono, lexicon],
        "max_monolingual_sentences": 10,
        "monolingual_exclude_files": [],
        "ranked_monolingual_files": [],  # every file sampled
    }
    cfg = config_from_dict({"data": data}, "test", mode="distill")
    sampled = read_monolingual(cfg, ["maison"]).stats["per_file"]
    assert sampled == {mono: 5, lexicon: 5}
    cfg = config_from_dict({"data": {**data, "ranked_monolingual_files": [lexicon]}}, "test", mode="distill")
    text = read_monolingual(cfg, ["maison"])  # "maison" has a pair: dropped, the cap takes the next word
    assert [s for s in text.sentences if s.startswith("word")] == words[:5]
    assert text.stats["ranked_files"] == [lexicon]  # the summary says which files gave their first lines
    assert len([s for s in text.sentences if s.startswith("Phrase")]) == 5  # the other file stays sampled
    assert (
        text.sentences
        != read_monolingual(config_from_dict({"data": data}, "test", mode="distill"), []).sentences
    )
    cfg.data.ranked_monolingual_files = [str(tmp_path / "other" / "*.txt")]  # names no monolingual file
    assert read_monolingual(cfg, ["maison"]).stats["per_file"] == sampled


def test_batches_are_deterministic_padded_and_point_at_the_monolingual_rows() -> None:
    ids = RaggedIds.from_lists([[2, 5, 3], [2, 6, 7, 8, 3], [2, 9, 3], [2, 4, 4, 3]])
    batches = MonolingualBatches(ids, batch_size=2, seed=0, first_row=100, pad_id=0)
    seen_rows: set[int] = set()
    for step in range(4):
        input_ids, mask, rows = batches.batch(step)
        assert input_ids.shape == mask.shape and input_ids.shape[0] == 2
        assert torch.equal(input_ids, batches.batch(step)[0])
        for row, ids_row, mask_row in zip(rows.tolist(), input_ids, mask, strict=True):
            assert 100 <= row < 104
            assert ids_row[mask_row.bool()].tolist() == ids[row - 100].tolist()
            assert ids_row[~mask_row.bool()].eq(0).all()
            seen_rows.add(row)
    assert seen_rows == {100, 101, 102, 103}
    small = MonolingualBatches(ids, batch_size=64, seed=0, first_row=0, pad_id=0)
    assert small.batch(0)[0].shape[0] == 4  # fewer sentences than a batch: all of them


def test_mixed_loss_weights_every_vector_the_same() -> None:
    pair_loss = torch.tensor(1.0)
    mono = torch.zeros(2, 4)
    loss, parts = mixed_loss(pair_loss, {"mse_source": 1.0}, 3, mono, torch.full((2, 4), 2.0))
    assert parts["mse_monolingual"] == pytest.approx(4.0) and parts["mse_source"] == 1.0
    assert float(loss) == pytest.approx((1.0 * 6 + 4.0 * 2) / 8)


def test_monolingual_sentences_reach_the_mse_loss_with_their_teacher_vectors(
    tiny_distill_config, tiny_words: list[str], tmp_path: Path, monkeypatch
) -> None:
    rng = np.random.default_rng(0)
    table = rng.normal(size=(64, 12)).astype(np.float32)
    encoded: list[str] = []

    def encode(texts: list[str]) -> np.ndarray:  # a bag of hashed words: any function of the text will do
        encoded.extend(texts)
        return np.stack([table[[sum(map(ord, w)) % 64 for w in t.split()]].mean(0) for t in texts])

    monkeypatch.setattr(train_module, "load_teacher", lambda *a, **k: Teacher("numpy", encode, "numpy-bag"))
    mono = [" ".join(rng.choice(tiny_words, 5)) + f" {i}" for i in range(40)]
    _write(tmp_path / "mono" / "en.txt", mono)
    calls: list[tuple[torch.Tensor, torch.Tensor]] = []

    def spy(pair_loss, parts, num_pairs, vectors, targets, mse=None):
        calls.append((vectors.detach().clone(), targets.clone()))
        return mixed_loss(pair_loss, parts, num_pairs, vectors, targets, mse)

    monkeypatch.setattr(train_module, "mixed_loss", spy)
    cfg = tiny_distill_config(
        data={
            "monolingual_files": [str(tmp_path / "mono" / "*.txt")],
            "monolingual_exclude_files": [],
            "monolingual_batch_size": 8,
        },
        pca={"dim": 4},
        optim={"max_steps": 6},
    )
    out = tmp_path / "run"
    result = distill(cfg, out, progress=False)

    assert set(mono) <= set(encoded)  # the teacher encoded every monolingual sentence
    assert result.summary["monolingual"]["kept"] == 40 and len(calls) == 6  # one monolingual batch a step
    expected = load_projection(out / "pca").apply(encode(mono))
    for vectors, targets in calls:
        assert vectors.shape == (8, 4)
        for row in targets.numpy():  # each target is the (reduced) teacher vector of a monolingual sentence
            assert np.abs(expected - row).max(axis=1).min() < 1e-5
    logged = [json.loads(line) for line in (out / "metrics.jsonl").read_text().splitlines()]
    assert any("mse_monolingual" in r for r in logged)


@pytest.fixture
def ones_teacher(monkeypatch: pytest.MonkeyPatch) -> None:
    """A teacher whose every vector is ones: the vocabulary tests below need no real one."""
    monkeypatch.setattr(
        train_module,
        "load_teacher",
        lambda *a, **k: Teacher("numpy", lambda t: np.ones((len(t), 12), np.float32), "numpy-ones"),
    )


@pytest.mark.usefixtures("ones_teacher")
def test_the_vocabulary_samples_the_untranslated_text_when_asked(
    tiny_distill_config, tiny_words: list[str], tmp_path: Path
) -> None:
    # a word only the untranslated text holds: without the key it is no token (its letters are [UNK])
    _write(tmp_path / "mono" / "en.txt", [f"жук {i}" for i in range(30)])
    runs = {}
    for monolingual in (False, True):
        cfg = tiny_distill_config(
            data={"monolingual_files": [str(tmp_path / "mono" / "*.txt")], "monolingual_exclude_files": []},
            vocabulary={"monolingual": monolingual},
            pca={"dim": 4},
            optim={"max_steps": 1},
        )
        out = tmp_path / f"run-{monolingual}"
        distill(cfg, out, progress=False)
        runs[monolingual] = json.loads((out / "tokenizer.json").read_text(encoding="utf-8"))["model"]["vocab"]
    assert not any("ж" in token for token in runs[False])  # no pair holds a Cyrillic letter
    assert any("ж" in token for token in runs[True])


@pytest.mark.usefixtures("ones_teacher")
def test_the_ranked_word_lists_join_the_vocabulary_whole_when_asked(
    tiny_distill_config, tiny_words: list[str], tmp_path: Path
) -> None:
    lexicon = _write(tmp_path / "lexicon" / "en.txt", ["жук", "мышь"])  # letters no pair holds
    data = {
        "monolingual_files": [lexicon],
        "ranked_monolingual_files": [lexicon],
        "monolingual_exclude_files": [],
    }
    runs = {}
    for word_lists in (False, True):
        cfg = tiny_distill_config(
            data=data,
            vocabulary={"monolingual": False, "word_lists": word_lists},
            pca={"dim": 4},
            optim={"max_steps": 1},
        )
        out = tmp_path / f"run-{word_lists}"
        distill(cfg, out, progress=False)
        runs[word_lists] = json.loads((out / "tokenizer.json").read_text(encoding="utf-8"))["model"]["vocab"]
        summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert not any("ж" in token for token in runs[False])
    assert any("ж" in token for token in runs[True]) and any("ы" in token for token in runs[True])
    assert summary["vocabulary"]["whole_lines_per_language"] == {"en": 2}
