"""The second teacher (issue #43): the map between two teachers' spaces, which untranslated files it teaches,
and that its mapped vectors become the targets of exactly those sentences in a run."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from lingualite.config import config_from_dict
from lingualite.core.errors import ConfigError, LinguaLiteError
from lingualite.recipes.distill import second_teacher, untranslated
from lingualite.recipes.distill import train_distill as train_module
from lingualite.recipes.distill.pca import load_projection
from lingualite.recipes.distill.second_teacher import fit_map
from lingualite.recipes.distill.teacher import Teacher
from lingualite.recipes.distill.train_distill import train_distill as distill
from lingualite.recipes.distill.untranslated import mixed_loss, read_monolingual
from lingualite.text.languages import teacher_knows


def test_the_map_recovers_an_affine_relation_and_keeps_the_first_teachers_norm() -> None:
    rng = np.random.default_rng(0)
    second = rng.normal(size=(600, 16))
    weight, bias = rng.normal(size=(16, 24)), rng.normal(size=24)
    first = second @ weight + bias
    first /= np.linalg.norm(first, axis=1, keepdims=True)  # unit vectors, as USE-m's (no longer affine)
    space_map, stats = fit_map(second, first, ridge=1e-6)
    assert stats["texts"] == 600 and stats["held_out"] == 60
    assert stats["held_out_cosine"] > 0.99
    mapped = space_map.apply(second[:5])
    assert mapped.dtype == np.float32 and mapped.shape == (5, 24)
    np.testing.assert_allclose(np.linalg.norm(mapped, axis=1), 1.0, atol=1e-5)
    assert np.all(np.sum(mapped * first[:5], axis=1) > 0.98)


def test_unrelated_spaces_give_a_low_held_out_cosine() -> None:
    rng = np.random.default_rng(1)
    _, stats = fit_map(rng.normal(size=(400, 8)), rng.normal(size=(400, 8)))
    assert stats["held_out_cosine"] < 0.3  # what the stats are for: a map that does not carry meaning shows


def test_the_map_refuses_mismatched_or_too_few_rows() -> None:
    with pytest.raises(LinguaLiteError, match="rows"):
        fit_map(np.zeros((30, 4)), np.zeros((29, 4)))
    with pytest.raises(LinguaLiteError, match="at least 20"):
        fit_map(np.zeros((10, 4)), np.zeros((10, 4)))


def test_which_teacher_knows_a_language() -> None:
    assert teacher_knows("use-m", "fr") and teacher_knows("use-m", "th") and teacher_knows("use-m", "zht")
    assert not teacher_knows("use-m", "el") and not teacher_knows("use-m", "hi")
    assert teacher_knows("e5-small", "el") and teacher_knows("some/folder", "el")
    assert teacher_knows("use-m", None)  # a file named by no language: nothing says otherwise


def test_bad_second_teacher_settings_name_their_key() -> None:
    with pytest.raises(ConfigError, match="teacher.second"):
        config_from_dict({"teacher": {"name": "use-m", "second": " "}}, "test", mode="distill")
    with pytest.raises(ConfigError, match="teacher.map_sentences"):
        config_from_dict({"teacher": {"map_sentences": 5}}, "test", mode="distill")


def _write(path: Path, lines: list[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_untranslated_files_of_a_language_the_teacher_does_not_know(tmp_path: Path) -> None:
    _write(tmp_path / "mono" / "fr.txt", ["Une phrase.", "Une autre phrase."])
    el = _write(tmp_path / "mono" / "el.txt", ["Μια πρόταση.", "Άλλη μία πρόταση.", "Τρίτη."])
    _write(tmp_path / "mono" / "notes.txt", ["Named by no language."])
    data = {"monolingual_files": [str(tmp_path / "mono" / "*.txt")], "monolingual_exclude_files": []}
    data["valid_files"] = [str(_write(tmp_path / "en-fr" / "valid.tsv", ["A valid one.\tValide."]))]
    cfg = config_from_dict(
        {"teacher": {"name": "use-m", "second": None}, "data": data}, "test", mode="distill"
    )
    text = read_monolingual(cfg, [])
    assert not any(
        s.startswith(("Μ", "Ά", "Τ")) for s in text.sentences
    )  # USE-m's vector of Greek: no target
    assert text.stats["unknown_to_teacher_files"] == [str(el)] and not text.second.any()
    assert len(text.sentences) == 3 and len(text.second) == 3

    cfg.teacher.second = "e5-small"
    text = read_monolingual(cfg, [])
    assert text.stats["second_teacher_files"] == [str(el)]
    marked = {s for s, other in zip(text.sentences, text.second, strict=True) if other}
    assert marked == {"Μια πρόταση.", "Άλλη μία πρόταση.", "Τρίτη."}

    # a line in a known and an unknown file (Catalan sorts before French) keeps the first teacher's vector
    _write(tmp_path / "mono" / "ca.txt", ["Una frase.", "Une autre phrase."])
    text = read_monolingual(cfg, [])
    teacher_of = dict(zip(text.sentences, text.second, strict=True))
    assert text.sentences.count("Une autre phrase.") == 1 and not teacher_of["Une autre phrase."]
    assert teacher_of["Una frase."]


@pytest.mark.slow  # trains a model
def test_the_second_teachers_mapped_vectors_are_the_targets_of_its_languages(
    tiny_distill_config, tiny_words: list[str], tmp_path: Path, monkeypatch
) -> None:
    rng = np.random.default_rng(0)
    table = rng.normal(size=(64, 12)).astype(np.float32)
    rotation = rng.normal(size=(12, 16)).astype(np.float32)
    encoded: dict[str, list[str]] = {"first": [], "second": []}

    def bag(texts: list[str]) -> np.ndarray:
        return np.stack([table[[sum(map(ord, w)) % 64 for w in t.split()]].mean(0) for t in texts])

    def first(texts: list[str]) -> np.ndarray:
        encoded["first"].extend(texts)
        return bag(texts)

    def second(texts: list[str]) -> np.ndarray:  # another space, linearly related to the first
        encoded["second"].extend(texts)
        return bag(texts) @ rotation

    teachers = {"first": Teacher("first", first, "first"), "second": Teacher("second", second, "second")}
    for module in (train_module, second_teacher):  # the first teacher's loader, and the second's
        monkeypatch.setattr(module, "load_teacher", lambda name, *a, **k: teachers[name])
    monkeypatch.setattr(untranslated, "teacher_knows", lambda teacher, code: code != "el")
    english = [" ".join(rng.choice(tiny_words, 5)) + f" {i}" for i in range(60)]
    greek = [" ".join(rng.choice(tiny_words, 4)) + f" ελ{i}" for i in range(20)]
    _write(tmp_path / "mono" / "en.txt", english)
    _write(tmp_path / "mono" / "el.txt", greek)
    cfg = tiny_distill_config(
        teacher={"name": "first", "second": "second", "map_sentences": 200},
        data={"monolingual_files": [str(tmp_path / "mono" / "*.txt")], "monolingual_exclude_files": []},
        optim={"max_steps": 3},
    )
    maps: list = []
    monkeypatch.setattr(second_teacher, "fit_map", lambda *a: maps.append(fit_map(*a)) or maps[-1])
    seen_targets: list[np.ndarray] = []

    def spy(pair_loss, parts, num_pairs, vectors, targets, mse=None):
        seen_targets.extend(targets.numpy())
        return mixed_loss(pair_loss, parts, num_pairs, vectors, targets, mse)

    monkeypatch.setattr(train_module, "mixed_loss", spy)
    out = tmp_path / "run"
    result = distill(cfg, out, progress=False)
    assert not set(greek) & set(encoded["first"])  # the first teacher never encodes the language it lacks
    assert set(greek) <= set(encoded["second"])
    stats = result.summary["second_teacher"]
    assert stats["name"] == "second" and stats["sentences"] == 20
    assert stats["held_out_cosine"] > 0.99  # the second space is a linear image of the first
    # every monolingual target is the (PCA-reduced) first-teacher vector of an English line or the mapped
    # second-teacher vector of a Greek one, and Greek ones are among them
    projection = load_projection(out / "pca")
    english_rows = projection.apply(bag(english))
    greek_rows = projection.apply(maps[0][0].apply(bag(greek) @ rotation))
    nearest = [
        (np.abs(english_rows - t).max(axis=1).min(), np.abs(greek_rows - t).max(axis=1).min())
        for t in seen_targets
    ]
    assert all(min(pair) < 1e-4 for pair in nearest)
    assert any(g < 1e-4 for _, g in nearest)


def test_a_missing_second_teacher_is_said_before_the_first_encodes(
    tiny_distill_config, tiny_words: list[str], tmp_path: Path, monkeypatch
) -> None:
    encoded: list[str] = []

    def first(texts: list[str]) -> np.ndarray:
        encoded.extend(texts)
        return np.ones((len(texts), 12), np.float32)

    def load(name, *a, **k):
        if name == "second":
            raise LinguaLiteError("teacher.name 'second': the package is not installed")
        return Teacher("first", first, "first")

    monkeypatch.setattr(train_module, "load_teacher", load)
    monkeypatch.setattr(second_teacher, "load_teacher", load)
    monkeypatch.setattr(untranslated, "teacher_knows", lambda teacher, code: code != "el")
    _write(tmp_path / "mono" / "en.txt", [f"{tiny_words[i % len(tiny_words)]} line {i}" for i in range(40)])
    _write(tmp_path / "mono" / "el.txt", ["μία γραμμή"])
    cfg = tiny_distill_config(
        teacher={"name": "first", "second": "second"},
        data={"monolingual_files": [str(tmp_path / "mono" / "*.txt")], "monolingual_exclude_files": []},
    )
    with pytest.raises(LinguaLiteError, match=r"teacher\.second: .*not installed.*teacher\.second: null"):
        distill(cfg, tmp_path / "run", progress=False)
    assert not any("line" in t for t in encoded)  # the monolingual lines were not encoded first
    cfg.data.monolingual_files = [str(tmp_path / "mono" / "el.txt")]
    with pytest.raises(LinguaLiteError, match=r"data\.monolingual_files has 0 such lines"):
        distill(cfg, tmp_path / "run2", progress=False)
