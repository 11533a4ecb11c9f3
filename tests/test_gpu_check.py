"""benchmarks/gpu_check.py in its CPU-only mode at tiny sizes: every phase runs and writes the JSON the first
GPU session fills in (on a GPU the same script adds the GPU figures)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
import torch

pytestmark = pytest.mark.slow  # starts processes, a server or Ray: left out of the fast tier

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "gpu_check.py"


def _script():
    spec = importlib.util.spec_from_file_location("gpu_check", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules["gpu_check"] = module
    spec.loader.exec_module(module)
    return module


def test_cpu_only_mode_runs_every_phase_and_writes_the_table5_shape(tmp_path: Path) -> None:
    threads = torch.get_num_threads()
    out = tmp_path / "gpu_check.json"
    report = _script().main(["--cpu-only", "--tiny", "--threads", "1", "--out", str(out)])
    assert torch.get_num_threads() == threads  # the thread count is given back
    assert json.loads(out.read_text()) == json.loads(json.dumps(report, default=str))
    assert report["mode"] == "cpu-only" and report["data"] == "synthetic"
    phases = report["phases"]
    assert not [name for name, result in phases.items() if "error" in result or "skipped" in result]
    assert phases["train"]["cpu_fp32"]["steps_per_second"] > 0
    assert 0 <= phases["train"]["cpu_fp32"]["valid_xsr_p_at_1"] <= 1
    for model in ("student_1x128", "quickstart_2x256"):
        assert phases["encode"][model]["cpu"]["sentences_per_second"] > 0
    assert phases["mine"]["cpu"]["sentences_per_side"] == report["sizes"]["cpu_mine_sentences"]
    cell = phases["table5"]["layers-1"]
    assert (
        cell["train/minutes_per_10k_steps"] > 0
        and cell["train/steps_timed"] == report["sizes"]["table5_steps"]
    )
    assert cell["paper_v100"] == {"memory_mb": 7135, "minutes_10k": 19}  # the paper's V100 column
    assert cell["train/peak_gpu_memory_mb"] is None  # no GPU: no memory figure, not a made-up one
