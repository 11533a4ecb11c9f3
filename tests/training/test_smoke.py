"""Smoke runs: the caps are applied to plain config keys, reported, validated, and never raise a value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lingualite.config import load_distill_config, load_monolingual_config, load_training_config
from lingualite.training.smoke import SMOKE_CAPS, smoke_banner, smoke_config

pytestmark = pytest.mark.slow  # trains a model: left out of the fast tier


@pytest.mark.parametrize(
    "loader, name",
    [
        (load_training_config, "quickstart"),
        (load_training_config, "paper"),
        (load_distill_config, "distill"),
        (load_monolingual_config, "monolingual"),
    ],
)
def test_every_shipped_config_gets_its_caps(loader, name: str) -> None:
    cfg = loader(name)
    capped, changes = smoke_config(cfg)
    caps = SMOKE_CAPS[cfg.mode]
    for dotted, cap in caps.items():
        section, key = dotted.split(".")
        before, after = getattr(getattr(cfg, section), key), getattr(getattr(capped, section), key)
        assert after <= cap and (before is None or after <= before), dotted
        assert (f"{dotted} " in " ".join(changes)) == (before is None or before > cap), dotted
    assert capped is not cfg and type(capped) is type(cfg)  # the caller's config is untouched
    assert "undertrained" in smoke_banner(changes)


def test_values_below_the_caps_are_kept(tmp_path: Path) -> None:
    cfg = load_training_config("quickstart")
    cfg.optim.max_steps = 10
    capped, changes = smoke_config(cfg)
    assert capped.optim.max_steps == 10 and not any(c.startswith("optim.max_steps") for c in changes)


def test_epochs_give_way_to_the_step_cap() -> None:
    cfg = load_distill_config("distill")
    cfg.optim.epochs, cfg.optim.max_steps = 5.0, None
    capped, changes = smoke_config(cfg)
    assert capped.optim.epochs is None and capped.optim.max_steps == SMOKE_CAPS["distill"]["optim.max_steps"]
    assert any("epochs" in c for c in changes)


def test_smoke_training_writes_a_marked_card(tiny_parallel_config, tmp_path: Path) -> None:
    from lingualite.recipes.parallel.train_parallel import train_parallel as train

    cfg = tiny_parallel_config(valid=False, max_steps=400, log_every=50)
    result = train(cfg, tmp_path / "run", progress=False, smoke=True)
    assert result.steps == SMOKE_CAPS["parallel"]["optim.max_steps"]  # 400 capped to 150
    card = (tmp_path / "run" / "README.md").read_text()
    assert "**Smoke run**" in card and "optim.max_steps 400 -> 150" in card
    saved = (tmp_path / "run" / "config.yaml").read_text()
    assert "max_steps: 150" in saved  # the capped config is the run's config: a full resume is refused


def _corpora(data: Path, lines: int) -> None:
    for source in ("libreoffice", "bible", "ddtp"):
        folder = data / "corpora" / source
        folder.mkdir(parents=True)
        rows = [
            f"w{i} w{i % 7} w{i % 11} {source}\tm{i} m{i % 7} m{i % 11} {source}\t{source}:d{i // 5}\n"
            for i in range(lines)
        ]
        (folder / "en-fr.tsv").write_text("".join(rows), encoding="utf-8")


def test_quickstart_smoke_prepares_only_a_sample(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`quickstart --smoke` caps before preparing (language ID is the slow part): a seeded sample of whole
    documents, into prepared-smoke/, never a partial prepared/ that a full run would take for done."""
    from rich.console import Console

    from lingualite.reproduce import quickstart

    monkeypatch.setattr(quickstart, "fetch_corpora", lambda *a, **k: None)
    _corpora(tmp_path, 3_000)
    folders = quickstart.prepare_default_data(
        tmp_path, ("fr",), Console(quiet=True), max_pairs=600, no_lang_id=True
    )
    assert folders == [tmp_path / "prepared-smoke" / "en-fr"]
    assert not (tmp_path / "prepared").exists()
    stats = json.loads((folders[0] / "stats.json").read_text())
    assert 450 <= stats["read"] <= 750, stats["read"]  # ~600 of 9,000, whole documents
    ids = [line.split("\t")[2] for line in (folders[0] / "train.tsv").read_text().splitlines()]
    assert {i.split(":")[0] for i in ids} == {"libreoffice", "bible", "ddtp"}  # every source sampled
    # a full prepared folder, once there, is what a smoke run uses (no second preparation)
    full = tmp_path / "prepared" / "en-fr"
    full.mkdir(parents=True)
    (full / "stats.json").write_text("{}")
    assert quickstart.prepare_default_data(tmp_path, ("fr",), Console(quiet=True), max_pairs=600) == [full]


def test_quickstart_smoke_asks_for_the_sample(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from lingualite.reproduce import quickstart

    asked: dict[str, object] = {}

    def fake(data_dir, langs, console, max_pairs=None, **kw):
        asked["max_pairs"] = max_pairs
        raise quickstart.LinguaLiteError("stop here")

    monkeypatch.setattr(quickstart, "prepare_default_data", fake)
    with pytest.raises(quickstart.LinguaLiteError):
        quickstart.run_quickstart(tmp_path / "run", tmp_path, smoke=True)
    assert asked["max_pairs"] == quickstart.SMOKE_PREPARE_PAIRS
    with pytest.raises(quickstart.LinguaLiteError):
        quickstart.run_quickstart(tmp_path / "run", tmp_path)
    assert asked["max_pairs"] is None


def test_quickstart_prints_plain_progress_when_not_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Under nohup or CI the quickstart is not silent for minutes: training gets the plain progress lines
    (PlainProgress) and so does each pair's preparation."""
    from rich.console import Console

    from lingualite.reproduce import quickstart

    asked: dict[str, object] = {}

    def fake_train(cfg, output, progress=False, **kw):
        asked["progress"] = progress
        raise quickstart.LinguaLiteError("stop here")

    folder = tmp_path / "prepared" / "en-fr"
    monkeypatch.setattr(quickstart, "prepare_default_data", lambda *a, **k: [folder])
    monkeypatch.setattr(quickstart, "train_parallel", fake_train)
    with pytest.raises(quickstart.LinguaLiteError):
        quickstart.run_quickstart(tmp_path / "run", tmp_path, console=Console(stderr=True, quiet=True))
    assert asked["progress"] is True  # progress_bar: a bar on a terminal, plain lines otherwise

    prepared: dict[str, object] = {}

    def fake_prepare(*args: object, **kwargs: object) -> None:
        prepared.update(kwargs)
        raise quickstart.LinguaLiteError("stop here")

    monkeypatch.setattr(quickstart, "prepare_corpus", fake_prepare)
    monkeypatch.setattr(quickstart.sys.stderr, "isatty", lambda: False, raising=False)
    with pytest.raises(quickstart.LinguaLiteError):
        quickstart._prepare_one([tmp_path / "x.tsv"], "fr", tmp_path / "out")
    assert prepared["progress"] is True
