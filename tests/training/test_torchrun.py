"""The same training entry point runs under torchrun with 2 processes (DDP, gloo on CPU)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

pytestmark = pytest.mark.slow  # starts processes, a server or Ray: left out of the fast tier


@pytest.mark.skipif(
    shutil.which("torchrun") is None and not (Path(sys.executable).parent / "torchrun").exists(),
    reason="torchrun not installed",
)
def test_two_process_ddp_training(synthetic_corpus: Path, tmp_path: Path) -> None:
    cfg = {
        "data": {
            "train_files": [str(synthetic_corpus / "en-fr" / "train.tsv")],
            "valid_files": [str(synthetic_corpus / "en-fr" / "valid.tsv")],
            "valid_pairs": 50,
        },
        "vocabulary": {"size": 120, "sample_size": 2000},
        "model": {"hidden_size": 32, "num_layers": 1, "num_heads": 2, "ffn_size": 64, "max_seq_length": 16},
        "optim": {
            "warmup_steps": 2,
            "max_steps": 6,
            "batch_size": 16,
            "eval_every": 6,
            "save_every": 3,
            "log_every": 3,
        },
    }
    (tmp_path / "cfg.yaml").write_text(yaml.safe_dump(cfg))
    torchrun = Path(sys.executable).parent / "torchrun"
    env = {**os.environ, "OMP_NUM_THREADS": "1", "HF_HUB_OFFLINE": "1"}
    proc = subprocess.run(
        [
            str(torchrun),
            "--nproc_per_node",
            "2",
            "--master_port",
            "29533",
            "-m",
            "lingualite.cli.main",
            "train",
            "--config",
            str(tmp_path / "cfg.yaml"),
            "--output",
            str(tmp_path / "run"),
            "--json",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    summary = json.loads(proc.stdout.strip().splitlines()[-1])
    assert summary["steps"] == 6
    assert (tmp_path / "run" / "modules.json").exists()
    assert (tmp_path / "run" / "checkpoints" / "step-0000006" / "model.safetensors").exists()
