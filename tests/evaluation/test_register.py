"""The register benchmark (issue 40): register discovery, sampling by document, fixed-pool P@1 and teacher
fidelity on tiny data, and the benchmark script end to end with TF-IDF (no network, no model download)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

from lingualite.evaluation.register import (
    ParallelCell,
    discover_registers,
    fidelity_table,
    fit_orthogonal_projection,
    fixed_pool_p_at_1,
    parallel_cells,
    register_of_doc,
    sample_by_document,
    score_retrieval,
    summarise,
    teacher_fidelity,
)
from lingualite.evaluation.xsr import evaluate_xsr

ROOT = Path(__file__).resolve().parents[2]
FR = {"house": "maison", "cat": "chat", "dog": "chien", "tree": "arbre", "sun": "soleil", "moon": "lune"}
DE = {"house": "Haus", "cat": "Katze", "dog": "Hund", "tree": "Baum", "sun": "Sonne", "moon": "Mond"}


def _write(path: Path, rows: list[tuple[str, str, str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join("\t".join(r) + "\n" for r in rows), encoding="utf-8")


def _docs(words: dict[str, str], suffix: str = "") -> list[tuple[str, str, str]]:
    """Two help pages, one Bible chapter and one page of a source nobody has named yet."""
    doc = {
        "house": "lo:page1",
        "cat": "lo:page1",
        "dog": "lo:page2",
        "tree": "bible:Gen:1",
        "sun": "bible:Gen:1",
    }
    return [(f"the {en}{suffix}", f"{xx}{suffix}", doc.get(en, "newsrc:a")) for en, xx in words.items()]


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    _write(tmp_path / "prepared" / "en-fr" / "test.tsv", _docs(FR))
    _write(tmp_path / "prepared" / "en-de" / "test.tsv", _docs(DE))
    ui = [(f"Open {en}", f"Ouvrir {fr}", f"loui:menu/{en}") for en, fr in FR.items()]
    _write(tmp_path / "prepared-ui" / "en-fr" / "test.tsv", ui)
    _write(tmp_path / "prepared" / "en-fr" / "train.tsv", _docs(FR, " again"))
    (tmp_path / "corpora" / "fortunes").mkdir(parents=True)
    (tmp_path / "corpora" / "fortunes" / "fr.txt").write_text(
        "Un jour.\n\nUne nuit.\nUn jour.\n", encoding="utf-8"
    )
    return tmp_path


def test_a_register_is_the_doc_source_and_unknown_sources_are_registers_of_their_own() -> None:
    assert register_of_doc("lo:page1") == "help"
    assert register_of_doc("ddtp:0af3") == "packages"
    assert register_of_doc("loui:menu/x") == "ui"
    assert register_of_doc("mozui:thunderbird/localization/messenger/x.ftl") == "mozilla-ui"
    assert register_of_doc("newsrc:a") == "newsrc"
    assert register_of_doc(None) == "other"


def test_discovery_finds_every_register_language_and_the_pivot_through_english(data_dir: Path) -> None:
    regs = discover_registers(data_dir, ["fr", "de"], ["de-fr"], max_pairs=None, everyday=False, min_pairs=1)
    cells = {(c.register, c.pair): c for c in regs.cells}
    assert set(cells) == {
        ("help", "en-fr"), ("help", "en-de"), ("help", "de-fr"),
        ("bible", "en-fr"), ("bible", "en-de"), ("bible", "de-fr"),
        ("newsrc", "en-fr"), ("newsrc", "en-de"), ("newsrc", "de-fr"),
        ("ui", "en-fr"),  # UI strings exist in French only here: no en-de, no de-fr
    }  # fmt: skip
    pivot = cells[("help", "de-fr")]
    assert sorted(zip(pivot.src, pivot.tgt, strict=True)) == [
        ("Haus", "maison"),
        ("Hund", "chien"),
        ("Katze", "chat"),
    ]
    assert regs.texts == {"fortunes": {"fr": ["Un jour.", "Une nuit."]}}  # distinct lines; no train.tsv text
    small = discover_registers(data_dir, ["fr"], [], everyday=False, min_pairs=4)
    assert small.too_small == {"help en-fr": 3, "bible en-fr": 2, "newsrc en-fr": 1}
    fid = regs.fidelity_texts()
    assert set(fid["help"]) == {"en", "fr", "de"} and "Une nuit." in fid["fortunes"]["fr"]
    only = discover_registers(data_dir, ["fr"], [], everyday=True, only=["everyday", "ui"], min_pairs=1)
    assert {c.register.split("/")[0] for c in only.cells} == {"everyday", "ui"} and not only.texts


def test_sampling_takes_one_pair_per_document_first_and_the_same_units_in_every_language() -> None:
    rows = [(f"en{d}-{i}", f"xx{d}-{i}", f"doc{d}") for d in range(4) for i in range(5)]
    first = sample_by_document(rows, 4, seed=0)
    assert sorted(r[2] for r in first) == ["doc0", "doc1", "doc2", "doc3"]
    other_language = [(en, f"yy{en}", doc) for en, _, doc in rows]
    assert [r[0] for r in sample_by_document(other_language, 4, seed=0)] == [r[0] for r in first]
    assert len(sample_by_document(rows, None)) == 20


def test_max_pairs_caps_each_cell(data_dir: Path) -> None:
    cells = parallel_cells(data_dir, ["fr"], [], max_pairs=2)
    assert all(len(c.src) <= 2 for c in cells)
    assert {c.register for c in cells} == {"help", "bible", "newsrc", "ui"}


def test_fixed_pool_p_at_1_on_a_toy_set() -> None:
    sim = np.eye(6)
    assert fixed_pool_p_at_1(sim, pool=3) == (1.0, 3)
    sim[0, 1] = 2.0  # query 0 prefers target 1, and target 1 prefers source 0: one miss each way
    p, used = fixed_pool_p_at_1(sim, pool=6)  # the whole pool: every candidate is drawn
    assert used == 6 and p == pytest.approx((5 / 6 + 5 / 6) / 2)
    tie = np.ones((3, 3))
    assert fixed_pool_p_at_1(tie, pool=3)[0] == 0.0  # a tie is a miss
    assert fixed_pool_p_at_1(np.eye(2), pool=50) == (1.0, 2)  # a small cell reports the pool it used


def test_the_whole_pool_agrees_with_square_xsr(fake_encoder) -> None:
    rng = np.random.default_rng(0)
    src, tgt = [f"s{i}" for i in range(8)], [f"t{i}" for i in range(8)]
    vecs = rng.normal(size=(8, 4))
    enc = fake_encoder(
        {
            **dict(zip(src, vecs, strict=True)),
            **dict(zip(tgt, vecs + rng.normal(scale=0.8, size=(8, 4)), strict=True)),
        }
    )
    scores, small = score_retrieval(enc.encode, [ParallelCell("toy", "en-fr", src, tgt)], pool=8)
    assert scores["toy"]["en-fr"] == pytest.approx(evaluate_xsr(enc, src, tgt)["p_at_1"], abs=1e-4)
    assert small == {}


def test_the_fidelity_of_a_model_with_itself_is_one() -> None:
    vecs = np.random.default_rng(1).normal(size=(5, 8))
    assert teacher_fidelity(vecs, vecs, None) == pytest.approx(np.ones(5))
    texts = {"toy": {"fr": ["a", "b", "c"]}}
    lookup = dict(zip("abc", vecs[:3], strict=True))
    enc = lambda items: np.stack([lookup[t] for t in items])  # noqa: E731
    table = fidelity_table(enc, enc, texts, None)
    assert table["by_register"] == {"toy": {"fr": 1.0}} and table["by_language"] == {"fr": 1.0}
    assert table["pca_ceiling"] == {"toy": {"fr": 1.0}}


def test_a_fitted_projection_recovers_the_recipes_pca_up_to_its_rotation() -> None:
    rng = np.random.default_rng(2)
    scales = np.array([10, 9, 8, 7, 6, 5] + [0.5] * 10)  # six strong directions, as a teacher's vectors have
    q, _ = np.linalg.qr(rng.normal(size=(16, 16)))
    teacher = (rng.normal(size=(300, 16)) * scales) @ q.T
    pca = np.linalg.svd(teacher, full_matrices=False)[2][:6]  # the recipe's uncentred PCA to 6 dimensions
    rotation, _ = np.linalg.qr(rng.normal(size=(6, 6)))  # a student is that space in its own coordinates
    student = teacher @ (rotation @ pca).T
    fitted = fit_orthogonal_projection(teacher, student)
    assert teacher_fidelity(student, teacher, fitted) == pytest.approx(np.ones(300), abs=1e-5)
    assert np.allclose(fitted.components, rotation @ pca, atol=1e-4)
    assert "Procrustes" in fitted.how
    noisy = student + rng.normal(scale=3.0, size=student.shape)  # a worse student scores lower
    assert teacher_fidelity(noisy, teacher, fitted).mean() < 0.95
    with pytest.raises(ValueError, match="wider"):
        fit_orthogonal_projection(student, teacher)


def test_summary_means_over_unseen_registers_and_gaps_to_references() -> None:
    p = {
        "student": {"help": {"en-fr": 1.0, "de-fr": 0.9}, "games": {"en-fr": 0.5, "de-fr": 0.4}},
        "use-m": {"help": {"en-fr": 0.9, "de-fr": 0.9}, "games": {"en-fr": 0.8, "de-fr": 0.8}},
    }
    out = summarise(p, {"student": ["help"]}, ["use-m"])
    row = out["student"]["by_pair"]["en-fr"]
    assert row["all"] == 0.75 and row["unseen"] == 0.5 and row["gap_unseen/use-m"] == pytest.approx(-0.3)
    assert out["student"]["by_register"]["help"] == {"en-xx": 1.0, "non-english": 0.9}
    assert out["student"]["mean_unseen_en_xx"] == 0.5 and out["student"]["mean_unseen_non_english"] == 0.4
    assert out["use-m"]["unseen_registers"] == ["help", "games"]


def test_the_benchmark_writes_its_table_with_tfidf(data_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "res" / "register_table"
    cmd = [sys.executable, str(ROOT / "benchmarks" / "register_table.py"), "--data-dir", str(data_dir)]
    cmd += ["--models", "tfidf", "--references", "tfidf", "--langs", "fr", "de", "--pivots", "de-fr"]
    cmd += [
        "--pool",
        "4",
        "--max-pairs",
        "5",
        "--min-pairs",
        "2",
        "--fidelity-models",
        "--out",
        str(out),
        "--cache",
        str(tmp_path / "c"),
    ]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    result = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert result["pool"] == 4 and result["models"] == ["tfidf"]
    assert {"help", "bible", "ui"} <= set(result["p_at_1"]["tfidf"])
    assert result["too_small"]["newsrc en-fr"] == 1  # one pair: left out, and said so
    assert any(r.startswith("everyday") for r in result["registers"])
    assert result["registers"]["help"]["pairs"] == {"en-fr": 3, "en-de": 3, "de-fr": 3}
    assert result["pool_used"]["help"]["en-fr"] == 3  # three pairs: below the pool of 4, said so
    assert "Mean XSR P@1 per register" in out.with_suffix(".md").read_text(encoding="utf-8")


def test_loro_configs_hold_out_each_register_and_print_their_commands(tmp_path: Path) -> None:
    data = tmp_path / "d"
    mixed = [("a", "b", "lo:1"), ("c", "d", "bible:G:1"), ("e", "f", "ddtp:x")]
    for split in ("train", "valid"):
        _write(data / "prepared" / "en-fr" / f"{split}.tsv", mixed)
    _write(data / "prepared-ui" / "en-fr" / "train.tsv", [("g", "h", "loui:x")])
    _write(data / "prepared-games" / "en-fr" / "train.tsv", [("i", "j", "games:x")])
    out = tmp_path / "loro"
    cmd = [sys.executable, str(ROOT / "benchmarks" / "register_table.py"), "--data-dir", str(data)]
    done = subprocess.run(
        [*cmd, "--write-loro-configs", str(out)], capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    assert (
        f"lingualite distill --config {out / 'bible' / 'distill.yaml'} --output {out / 'bible' / 'model'}"
        in done.stdout
    )
    assert f"--loro ui={out / 'ui' / 'model'}" in done.stdout
    for split in ("train", "valid"):  # the held-out source is gone from both, the others stay
        assert (out / "bible" / "data" / "en-fr" / f"{split}.tsv").read_text() == "a\tb\tlo:1\ne\tf\tddtp:x\n"
    train = " ".join(yaml.safe_load((out / "ui" / "distill.yaml").read_text())["data"]["train_files"])
    assert "prepared-ui" not in train and "prepared-games" in train


def test_loro_configs_keep_to_the_shipped_languages_and_take_steps_and_one_cache(tmp_path: Path) -> None:
    data = tmp_path / "d"
    for pair in ("en-fr", "en-el"):  # Greek is prepared too (`data fetch --langs all`) but not shipped
        _write(data / "prepared" / pair / "train.tsv", [("a", "b", "ddtp:x")])
        _write(data / "prepared" / pair / "valid.tsv", [("a", "b", "ddtp:x")])
    for lang in ("en", "fr", "el"):
        (data / "corpora" / "lexicon").mkdir(parents=True, exist_ok=True)
        (data / "corpora" / "lexicon" / f"{lang}.txt").write_text("word\n", encoding="utf-8")
    out, cache = tmp_path / "loro", tmp_path / "cache"
    cmd = [sys.executable, str(ROOT / "benchmarks" / "register_table.py"), "--data-dir", str(data)]
    flags = ["--write-loro-configs", str(out), "--loro-steps", "123", "--loro-teacher-cache", str(cache)]
    done = subprocess.run([*cmd, *flags], capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    config = yaml.safe_load((out / "ui" / "distill.yaml").read_text())
    names = " ".join(config["data"]["train_files"] + config["data"]["valid_files"])
    assert "en-fr" in names and "en-el" not in names
    assert [Path(f).name for f in config["data"]["monolingual_files"]] == ["en.txt", "fr.txt"]
    assert config["optim"]["max_steps"] == 123 and config["teacher"]["cache_dir"] == str(cache)
    lexicon_less = yaml.safe_load((out / "lexicon" / "distill.yaml").read_text())
    assert lexicon_less["data"]["monolingual_files"] == []


def test_the_register_table_goes_into_the_model_cards_once(tmp_path: Path) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("register_table", ROOT / "benchmarks" / "register_table.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    (tmp_path / "small").mkdir()
    card = tmp_path / "small" / "README.md"
    card.write_text("# lingualite-small\n\n## Check\n\nx\n\nUse: `lingualite encode --model m`.\n")
    result = {
        "pool": 50,
        "max_pairs": 60,
        "teacher": "use-m",
        "seen": {"lingualite-small": ["help"]},
        "p_at_1": {"lingualite-small": {"help": {"en-fr": 1.0}}, "use-m": {"help": {"en-fr": 0.9}}},
    }
    assert module.update_cards(result, tmp_path) == [card]
    once = card.read_text()
    assert "| en-fr | 1.000 (+0.100) |" in once and once.index("## Registers") < once.index("Use: ")
    module.update_cards(result, tmp_path)
    assert card.read_text() == once  # replaced, not added twice


def test_everyday_sub_registers_become_registers_of_their_own(monkeypatch: pytest.MonkeyPatch) -> None:
    from lingualite.data.evalsets import everyday
    from lingualite.evaluation.register import everyday_cells

    sets = {"daily": (["Hello.", "Rain."], ["Bonjour.", "Pluie."]), "news": (["A report."], ["Un rapport."])}
    monkeypatch.setattr(everyday, "everyday_registers", lambda: ("daily", "news"), raising=False)
    monkeypatch.setattr(everyday, "everyday_pairs", lambda src, tgt, register=None: sets[register])
    cells = everyday_cells(["fr"])
    assert [(c.register, c.pair, c.src) for c in cells] == [
        ("everyday/daily", "en-fr", ["Hello.", "Rain."]),
        ("everyday/news", "en-fr", ["A report."]),
    ]


def test_text_alone_is_a_run_for_a_validation_register(data_dir: Path, tmp_path: Path) -> None:
    """A register of text only (no pairs, no everyday set) still runs: fidelity on it needs no translation."""
    out = tmp_path / "val"
    cmd = [sys.executable, str(ROOT / "benchmarks" / "register_table.py"), "--data-dir", str(data_dir)]
    cmd += ["--models", "tfidf", "--references", "tfidf", "--langs", "fr", "--registers", "fortunes"]
    cmd += ["--no-everyday", "--fidelity-models", "--out", str(out), "--cache", str(tmp_path / "c")]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    result = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert result["registers"] == {
        "fortunes": {"kind": "text", "origin": "corpora/fortunes/<lang>.txt", "texts": {"fr": 2}}
    }
    assert result["p_at_1"] == {"tfidf": {}} and result["pairs"] == []
