"""measure_efficiency on a tiny model folder (fresh worker process) and training time from metrics.jsonl."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import torch

from lingualite.evaluation.efficiency import (
    ESTIMATED,
    MEASURED,
    measure_efficiency,
    training_time_per_10k_steps,
)
from lingualite.evaluation.encoders import SentenceTransformerEncoder
from lingualite.models.config import EncoderConfig
from lingualite.models.dual_encoder import DualEncoder
from lingualite.models.export import save_sentence_transformer

TEXTS = [f"the {w} cat sees a small dog number {i}" for i, w in enumerate(["red", "blue", "big"] * 4)]


@pytest.fixture(scope="module")
def tiny_model(tiny_tokenizer, tmp_path_factory) -> Path:
    torch.manual_seed(0)
    model = DualEncoder(
        EncoderConfig(vocab_size=len(tiny_tokenizer), hidden_size=32, num_heads=2, ffn_size=64)
    )
    return save_sentence_transformer(model, tiny_tokenizer, tmp_path_factory.mktemp("eff") / "m")


def _check_common(result: dict, dimension: int) -> None:
    for key in ("num_parameters", "size_on_disk_mb", "peak_rss_mb", "load_rss_mb", "load_seconds"):
        assert result[key] > 0, key
    assert result["dimension"] == dimension
    assert result["sentences_per_second"] > 0
    assert 0 < result["latency_ms_p50"] <= result["latency_ms_p95"]
    assert result["peak_rss_mb"] >= result["load_rss_mb"] > result["baseline_rss_mb"] > 0
    assert result["threads"] == 1 and result["num_texts"] == len(TEXTS)


def test_measure_efficiency_without_energy(tiny_model: Path, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = measure_efficiency(
        str(tiny_model), TEXTS, batch_size=4, single_runs=7, warmup=2, energy=False, threads=1
    )
    _check_common(result, dimension=32)
    assert result["num_parameters"] == SentenceTransformerEncoder(tiny_model).num_parameters()
    assert result["single_runs"] == 7 and result["batch_size"] == 4
    assert result["energy_wh_per_1000"] is None and result["energy_method"] == "off"
    assert json.loads(json.dumps(result)) == result  # plain JSON types only
    assert list(tmp_path.iterdir()) == []  # nothing written in the caller's working directory


def test_measure_efficiency_tfidf_with_energy_is_offline(tmp_path: Path, monkeypatch) -> None:
    # TF-IDF keeps the worker light (no torch import), so this test costs about codecarbon's start-up.
    pytest.importorskip("codecarbon")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("CODECARBON_SAVE_TO_API", "true")  # must be overridden: no API, no file
    monkeypatch.setenv("CODECARBON_SAVE_TO_FILE", "true")
    result = measure_efficiency("tfidf", TEXTS, batch_size=4, single_runs=5, energy=True, threads=1)
    assert result["name"] == "tfidf" and result["dimension"] > 0
    assert result["num_parameters"] == result["dimension"]  # one IDF weight per vocabulary entry
    assert result["size_on_disk_mb"] is None
    assert 0 < result["latency_ms_p50"] <= result["latency_ms_p95"]
    assert result["peak_rss_mb"] >= result["load_rss_mb"] > 0
    assert result["energy_method"] in (ESTIMATED, MEASURED)
    assert result["energy_wh_per_1000"] > 0
    assert result["energy_wh_per_1000"] == pytest.approx(
        result["energy_cpu_wh_per_1000"] + result["energy_ram_wh_per_1000"]
    )
    assert list(tmp_path.iterdir()) == []  # no emissions.csv in the caller's working directory


def test_measure_efficiency_rejects_unknown_model() -> None:
    with pytest.raises(FileNotFoundError, match="e5-small"):
        measure_efficiency("no-such-model", TEXTS)
    with pytest.raises(ValueError):
        measure_efficiency("tfidf", [])


def _write_metrics(folder: Path, records: list[dict]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return folder


def test_training_time_from_metrics_clock(tmp_path: Path) -> None:
    # Logged every 100 steps. 100->200 is the first interval (start-up, 1.0 s/step): left out. 200->300 and
    # 400->500 take 0.5 s/step, 300->400 0.7 s/step; 500->600 ends with validation (0.8 s/step): left out
    # of the median but counted in the time with overheads.
    records = [
        {"step": 100, "loss": 3.0, "elapsed_s": 80.0},
        {"step": 200, "loss": 2.5, "elapsed_s": 180.0},
        {"step": 300, "loss": 2.0, "elapsed_s": 230.0},
        {"step": 400, "loss": 1.9, "elapsed_s": 300.0},
        {"step": 500, "loss": 1.8, "elapsed_s": 350.0},
        {"step": 600, "loss": 1.7, "elapsed_s": 430.0, "valid_loss": 2.0},
    ]
    result = training_time_per_10k_steps(_write_metrics(tmp_path / "run", records))
    assert result is not None
    assert result["seconds_per_10k_steps"] == pytest.approx(0.5 * 10_000)  # median of 0.5, 0.7, 0.5
    assert result["seconds_per_10k_steps_with_overheads"] == pytest.approx((430.0 - 180.0) / 400 * 10_000)
    assert result["median_seconds_per_step"] == pytest.approx(0.5)
    assert result["window_steps"] == [200, 600]
    assert result["num_intervals"] == 3
    assert result["source"] == "metrics.jsonl:elapsed_s"
    assert result["last_step"] == 600


def test_training_time_ignores_a_resumed_clock(tmp_path: Path) -> None:
    records = [
        {"step": 10, "elapsed_s": 5.0},
        {"step": 20, "elapsed_s": 10.0},
        {"step": 30, "elapsed_s": 15.0},
        {"step": 40, "elapsed_s": 2.0},  # resumed: clock restarted, this interval is dropped
        {"step": 50, "elapsed_s": 7.0},
    ]
    result = training_time_per_10k_steps(_write_metrics(tmp_path / "run", records))
    assert result["seconds_per_10k_steps"] == pytest.approx(5_000.0)


def test_training_time_from_checkpoint_times(tmp_path: Path) -> None:
    run = _write_metrics(tmp_path / "run", [{"step": 250, "loss": 1.0}, {"step": 500, "loss": 0.9}])
    for step, mtime in [(250, 1_000.0), (500, 1_100.0)]:
        state = run / "checkpoints" / f"step-{step:07d}" / "trainer_state.json"
        state.parent.mkdir(parents=True)
        state.write_text(json.dumps({"step": step}))
        os.utime(state, (mtime, mtime))
    result = training_time_per_10k_steps(run)
    assert result["seconds_per_10k_steps"] == pytest.approx(100.0 / 250 * 10_000)
    assert result["window_steps"] == [250, 500] and result["source"].startswith("checkpoint mtimes")


def test_training_time_none_without_metrics_or_clock(tmp_path: Path) -> None:
    assert training_time_per_10k_steps(tmp_path / "missing") is None
    assert (
        training_time_per_10k_steps(_write_metrics(tmp_path / "noclock", [{"step": 20, "loss": 1.0}])) is None
    )
