"""measure_efficiency on a tiny model folder (fresh worker process) and training time from metrics.jsonl."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from lingualite.config.encoder import EncoderConfig
from lingualite.encoders.folder import SentenceTransformerEncoder
from lingualite.evaluation.efficiency import (
    ESTIMATED,
    MEASURED,
    measure_efficiency,
)
from lingualite.models.dual_encoder import DualEncoder

pytestmark = pytest.mark.slow  # starts processes, a server or Ray: left out of the fast tier

TEXTS = [f"the {w} cat sees a small dog number {i}" for i, w in enumerate(["red", "blue", "big"] * 4)]


@pytest.fixture(scope="module")
def tiny_model(tiny_tokenizer, tmp_path_factory) -> Path:
    torch.manual_seed(0)
    model = DualEncoder(
        EncoderConfig(vocab_size=len(tiny_tokenizer), hidden_size=32, num_heads=2, ffn_size=64)
    )
    return model.save(tiny_tokenizer, tmp_path_factory.mktemp("eff") / "m")


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


def test_warmup_on_other_texts(tiny_model: Path) -> None:
    result = measure_efficiency(
        str(tiny_model),
        TEXTS,
        batch_size=4,
        single_runs=3,
        warmup_texts=["other text"] * 6,
        energy=False,
        threads=1,
    )
    assert result["warmup"] == 6 and result["num_texts"] == len(TEXTS) and result["sentences_per_second"] > 0


def test_batch1_quartiles_and_cpu_time_without_energy_counters(tmp_path: Path) -> None:
    """Paper 002's Table 3 measures: quartiles of batch-1 calls; no RAPL counter: energy says so, no number."""
    result = measure_efficiency(
        "tfidf", TEXTS, batch_size=4, single_runs=40, energy=False, powercap=tmp_path / "no-powercap"
    )
    assert result["latency_ms_p25"] <= result["latency_ms_p50"] <= result["latency_ms_p75"]
    assert 0 <= result["cpu_ms_p25"] <= result["cpu_ms_p50"] <= result["cpu_ms_p75"]
    assert result["cpu_ms_mean"] > 0 and result["cpu_ms_per_sentence_batched"] >= 0
    assert result["energy_mj_p50"] is None
    assert result["batch1_energy_method"].startswith("not measurable here (no readable RAPL counter under")


def test_batch1_energy_from_a_readable_rapl_counter(tmp_path: Path) -> None:
    zone = tmp_path / "powercap" / "intel-rapl:0"
    zone.mkdir(parents=True)
    (zone / "energy_uj").write_text("1000\n")  # a counter that does not move: 0 mJ per call
    (zone / "max_energy_range_uj").write_text("262143328850\n")
    result = measure_efficiency(
        "tfidf", TEXTS, batch_size=4, single_runs=6, energy=False, powercap=zone.parent
    )
    assert result["energy_mj_p25"] == result["energy_mj_p50"] == result["energy_mj_p75"] == 0.0
    assert result["batch1_energy_method"].startswith("measured (RAPL package counters")


def test_measure_efficiency_takes_a_packaged_model_by_name() -> None:
    pytest.importorskip("lingualite_models", reason="pip install ./packages/lingualite-models")
    result = measure_efficiency(
        "lingualite-static", TEXTS, batch_size=4, single_runs=2, energy=False, threads=1
    )
    assert result["sentences_per_second"] > 0 and result["model"].startswith("static:")
