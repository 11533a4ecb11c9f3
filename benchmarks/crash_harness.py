"""Crash harness: ``kill -9`` at random points of real runs, then resume; the result must be bit-identical.

For each scenario a reference run goes uninterrupted; then, N times, the same command starts in a fresh
folder and is killed (SIGKILL) after a random delay drawn uniformly over the reference's duration, and is
rerun with ``--resume`` until it finishes (a run may be killed again on the way: ``--kills-per-trial``).
Checked after every trial:

- the final ``model.safetensors`` and the last checkpoint's weights are bit-identical to the reference;
- the folder loads through lingualite's checked loader and gives the reference's vectors;
- no leftover (staging folders, temp files, an export journal) remains, ``metrics.jsonl`` parses line by
  line with unique, increasing steps, and every JSON file parses.

Scenarios: ``train`` (paper 000's dual encoder), ``distill`` (paper 002's student, teacher cache and all),
``export`` (kill while a finished run re-exports its model: ``--resume`` on a finished run exports again), and
the writers that replace a folder, ``onnx-export`` (``lingualite export --overwrite``) and ``index``
(``lingualite index build --overwrite``): after each kill the output must be the old or the new version
complete, with the user's files beside it untouched (:mod:`crash_replace`).
Both recipes are given a saved vocabulary (see the note in ``_setup``). Everything runs on generated data in a temp folder with ``OMP_NUM_THREADS=1`` (so runs are deterministic)::

    python benchmarks/crash_harness.py --trials 20 --out benchmarks/results/crash_harness.json
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from crash_replace import CLI, run_trials
from crash_replace import SCENARIOS as REPLACING
from crash_replace import run as _run

LEFTOVER = re.compile(r"(\.(tmp|staging|old)-\d+-[0-9a-f]{8}$)|(^\.export-journal\.json$)|(^\.\.export\.)")


def _write_pairs(path: Path, n: int, seed: int) -> None:
    """The tests' synthetic corpus (word-by-word en-fr 'translations'), as ``path``."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from conftest import write_synthetic_pairs

    path.parent.mkdir(parents=True, exist_ok=True)
    write_synthetic_pairs(path.parent / f".gen-{seed}", n, seed).rename(path)


def _setup(work: Path) -> dict[str, Path]:
    """Data, a tokenizer, a tiny teacher, and the two configs (YAML files, as a user writes them)."""
    import torch
    import yaml

    from lingualite.config.encoder import EncoderConfig
    from lingualite.data.pairs import read_pairs
    from lingualite.models.dual_encoder import DualEncoder
    from lingualite.tokenization import train_tokenizer

    _write_pairs(work / "data" / "en-fr" / "train.tsv", 1500, 1)
    _write_pairs(work / "data" / "en-fr" / "valid.tsv", 150, 2)
    tok = train_tokenizer(read_pairs([work / "data/en-fr/train.tsv"]).texts, vocab_size=120, sample_size=3000)
    tok.save_pretrained(str(work / "tokenizer"))
    torch.manual_seed(0)
    teacher = DualEncoder(EncoderConfig(vocab_size=len(tok), hidden_size=32, num_heads=2, ffn_size=64))
    teacher.save(tok, work / "teacher")
    data = {
        "train_files": [str(work / "data/en-fr/train.tsv")],
        "valid_files": [str(work / "data/en-fr/valid.tsv")],
    }
    train_cfg = {
        "data": {**data, "valid_pairs": 100},
        "vocabulary": {"path": str(work / "tokenizer")},
        "model": {"hidden_size": 64, "num_layers": 2, "num_heads": 2, "ffn_size": 128, "max_seq_length": 16},
        "optim": {"lr": 2e-3, "warmup_steps": 5, "max_steps": 60, "batch_size": 32, "eval_every": 20,
                  "save_every": 5, "log_every": 2, "keep_checkpoints": 2},
    }  # fmt: skip
    distill_cfg = {
        "teacher": {"name": str(work / "teacher")},
        "mode": "distill",
        "data": {**data, "valid_pairs": 100},
        # A given vocabulary: tokenizers' WordPiece trainer is not deterministic (huggingface/tokenizers#1794:
        # ids of continuing pieces follow hash-map order and break merge ties), so a run killed BEFORE its
        # vocabulary was saved trains another one. After that point resume is exact; that is what is tested.
        "vocabulary": {"path": str(work / "tokenizer")},
        "student": {"num_layers": 1, "hidden_size": 32, "num_heads": 2, "ffn_size": 64, "max_seq_length": 16},
        "pca": {"dim": 16, "fit_sentences": 1000},
        "optim": {"lr": 3e-3, "batch_size": 32, "max_steps": 60, "warmup_ratio": 0.1, "eval_every": 20,
                  "save_every": 5, "log_every": 2},
    }  # fmt: skip
    (work / "train.yaml").write_text(yaml.safe_dump(train_cfg))
    (work / "distill.yaml").write_text(yaml.safe_dump(distill_cfg))
    return {"train": work / "train.yaml", "distill": work / "distill.yaml"}


def _command(scenario: str, cfg: Path, out: Path, resume: bool) -> list[str]:
    verb = ["distill"] if scenario == "distill" else ["train"]
    return [*CLI, *verb, "--config", str(cfg), "--output", str(out), *(["--resume"] if resume else [])]


def _weights(path: Path) -> dict[str, Any]:
    from safetensors.torch import load_file

    return load_file(str(path))


def _identical(a: Path, b: Path) -> bool:
    wa, wb = _weights(a), _weights(b)
    return wa.keys() == wb.keys() and all(wa[k].equal(wb[k]) for k in wa)


def _check(run: Path, ref: Path, ref_vectors: Any, sentences: list[str]) -> list[str]:
    """Everything a finished trial must satisfy; returns the problems found."""
    import numpy as np

    from lingualite.encoders.resolve import load_encoder
    from lingualite.models.run_folder import RunFolder

    problems = []
    if not _identical(run / "model.safetensors", ref / "model.safetensors"):
        problems.append("final weights differ from the reference")
    last = RunFolder(run).checkpoints()[-1]
    if not _identical(last / "model.safetensors", RunFolder(ref).checkpoints()[-1] / "model.safetensors"):
        problems.append(f"checkpoint {last.name} differs from the reference")
    vectors = load_encoder(run).encode(sentences)
    if not np.array_equal(vectors, ref_vectors):
        problems.append("loaded model's vectors differ from the reference")
    for item in run.rglob("*"):
        if LEFTOVER.search(item.name):
            problems.append(f"leftover {item.relative_to(run)}")
        if item.suffix == ".json" and item.is_file():
            try:
                json.loads(item.read_text())
            except ValueError:
                problems.append(f"torn JSON {item.relative_to(run)}")
    lines = RunFolder(run).metrics_path.read_text().splitlines()
    steps = [json.loads(line)["step"] for line in lines]  # a torn line fails here: also a finding
    if steps != sorted(set(steps)):
        problems.append("metrics.jsonl steps repeat or go backwards")
    return problems


def run_scenario(
    scenario: str, cfg: Path, work: Path, trials: int, kills_per_trial: int, rng: random.Random
) -> dict[str, Any]:
    from lingualite.encoders.resolve import load_encoder
    from lingualite.models.run_folder import RunFolder

    sentences = ["the big cat runs quickly", "le petit chien dort", "a red car sees the house"]
    ref = work / f"{scenario}-reference"
    _, ref_seconds = _run(_command(scenario, cfg, ref, resume=False), None)
    ref_vectors = load_encoder(ref).encode(sentences)
    rows = []
    for trial in range(trials):
        out = work / f"{scenario}-trial-{trial}"
        kills = []
        if scenario == "export":  # a finished run, killed while --resume re-exports it
            shutil.copytree(ref, out)
            _, export_seconds = _run(_command(scenario, cfg, out, resume=True), None)
        for k in range(kills_per_trial):
            span = export_seconds if scenario == "export" else ref_seconds
            delay = rng.uniform(0.0, 0.95 * span)  # a run killed later than it lasts is no kill
            finished, _ = _run(_command(scenario, cfg, out, resume=k > 0 or scenario == "export"), delay)
            checkpoints = len(RunFolder(out).checkpoints())
            kills.append(
                {"after_s": round(delay, 2), "killed": not finished, "checkpoints_then": checkpoints}
            )
            if finished:
                break
        while not _run(_command(scenario, cfg, out, resume=True), None)[0]:  # pragma: no cover
            pass
        problems = _check(out, ref, ref_vectors, sentences)
        rows.append({"trial": trial, "kills": kills, "problems": problems})
        status = "ok" if not problems else "; ".join(problems)
        print(
            f"{scenario} trial {trial + 1}/{trials}: kills at {[k['after_s'] for k in kills]} s -> {status}"
        )
        shutil.rmtree(out)
    killed = sum(k["killed"] for r in rows for k in r["kills"])
    return {
        "reference_seconds": round(ref_seconds, 1),
        "trials": trials,
        "kills": killed,
        "failed_trials": sum(bool(r["problems"]) for r in rows),
        "rows": rows,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--trials", type=int, default=20, help="trials per scenario (each with its own kills)"
    )
    parser.add_argument("--kills-per-trial", type=int, default=2, help="kills before the run may finish")
    parser.add_argument(
        "--scenarios", nargs="+", default=["train", "distill", "export", "onnx-export", "index"]
    )
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/crash_harness.json"))
    args = parser.parse_args()
    rng = random.Random(args.seed)
    results: dict[str, Any] = {"scenarios": {}}
    if args.out.exists():  # scenarios not run this time keep their last results
        results = json.loads(args.out.read_text())
    results.setdefault("commands", {})
    with tempfile.TemporaryDirectory(prefix="lingualite-crash-") as tmp:
        work = Path(tmp)
        configs = _setup(work)
        configs["export"] = configs["train"]
        for scenario in args.scenarios:
            if scenario in REPLACING:  # one kill per trial, then a rerun: old or new, never a mix
                res = run_trials(REPLACING[scenario](work), work, args.trials, rng)
            else:
                res = run_scenario(scenario, configs[scenario], work, args.trials, args.kills_per_trial, rng)
            results["scenarios"][scenario] = res
            results["commands"][scenario] = " ".join(["python", *sys.argv])
            print(
                f"== {scenario}: {res['trials']} trials, {res['kills']} kills, "
                f"{res['failed_trials']} failed (reference run {res['reference_seconds']} s)"
            )
    from lingualite.core.io_utils import write_json

    write_json(args.out, results)
    print(f"wrote {args.out}")
    if any(s["failed_trials"] for s in results["scenarios"].values()):
        sys.exit(1)


if __name__ == "__main__":
    main()
