"""Every code block of the README runs, so the README stays true.

Blocks run in order in one scratch directory that holds tiny data in the layout of the real data
(``data/corpora``, ``data/prepared``) and the user files the blocks name (``my-pairs.tsv``). Where a block
names real data the tiny data stands in for it, and training commands get ``--smoke --max-steps 3`` (their
options are otherwise run as written). The install commands are checked against ``.ci/run`` (command 2 is
what CI runs; running pytest from a test would recurse) and their ``lingualite`` call is run.
"""

from __future__ import annotations

import json
import os
import random
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

# Pseudo-words: "translations" are word by word (what the text says does not matter here).
EN = [f"w{j}" for j in range(16)]
FR = [f"mot{j}" for j in range(16)]
DE = [f"wort{j}" for j in range(16)]
ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"^```(bash|python)\n(.*?)^```", README, flags=re.S | re.M)
BIN = Path(sys.executable).parent
TRAINING = ("quickstart", "train", "distill")
SOURCES = ("libreoffice", "bible", "ddtp")
PREFIX = {"libreoffice": "lo", "bible": "bible", "ddtp": "ddtp"}


def _pairs(words: list[str], source: str, n_docs: int, rng: random.Random) -> list[str]:
    lines = []
    for d in range(n_docs):
        topic = rng.sample(range(len(EN)), 6)
        for _ in range(rng.randint(3, 6)):
            idx = [rng.choice(topic) for _ in range(rng.randint(3, 8))]
            en, xx = " ".join(EN[j] for j in idx), " ".join(words[j] for j in idx)
            lines.append(f"{en}\t{xx}\t{PREFIX[source]}:{source}-{d}\n")
    return lines


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scratch directory with tiny corpora, prepared pairs and the README's user files."""
    root = tmp_path_factory.mktemp("readme")
    rng = random.Random(0)
    for lang, words in (("fr", FR), ("de", DE), ("es", FR), ("it", FR)):
        prepared = root / "data" / "prepared" / f"en-{lang}"
        prepared.mkdir(parents=True)
        inputs = []
        for source in SOURCES:
            corpus = root / "data" / "corpora" / source / f"en-{lang}.tsv"
            corpus.parent.mkdir(parents=True, exist_ok=True)
            lines = _pairs(words, source, 40, rng)
            corpus.write_text("".join(lines), encoding="utf-8")
            inputs.append({"input": str(corpus)})
            cut = len(lines) * 8 // 10
            with (prepared / "train.tsv").open("a", encoding="utf-8") as fh:
                fh.writelines(lines[:cut])
            with (prepared / "valid.tsv").open("a", encoding="utf-8") as fh:
                fh.writelines(lines[cut : cut + (len(lines) - cut) // 2])
            with (prepared / "test.tsv").open("a", encoding="utf-8") as fh:
                fh.writelines(lines[cut + (len(lines) - cut) // 2 :])
        (prepared / "stats.json").write_text(json.dumps({"inputs": inputs}))
    (root / "my-pairs.tsv").write_text("".join(_pairs(DE, "bible", 120, rng)), encoding="utf-8")
    return root


def _env(world: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "LINGUALITE_DATA_DIR"}
    return {
        **env,
        "PATH": f"{BIN}{os.pathsep}{env['PATH']}",
        "HF_HUB_OFFLINE": "1",
        "PYTHONPATH": str(ROOT / "src"),
    }


def _run(command: str, world: Path) -> None:
    proc = subprocess.run(
        ["bash", "-c", command], cwd=world, env=_env(world), capture_output=True, text=True, timeout=600
    )
    assert proc.returncode == 0, f"{command}\n{proc.stdout[-2000:]}\n{proc.stderr[-3000:]}"


def _as_tested(line: str, smoke: bool = True) -> str:
    words = shlex.split(line)
    if words[:1] == ["lingualite"] and len(words) > 1 and words[1] in TRAINING:
        return f"{line} --max-steps 3" + ("" if "--smoke" in words or not smoke else " --smoke")
    return line


def test_the_readme_has_the_blocks_this_test_expects() -> None:
    kinds = [kind for kind, _ in BLOCKS]
    assert kinds.count("bash") >= 3 and kinds.count("python") >= 2


def test_command_2_is_what_ci_runs() -> None:
    commands = [line for line in BLOCKS[0][1].splitlines() if line and not line.startswith("#")]
    assert len(commands) == 2, "the README starts with exactly two commands"
    ci = (ROOT / ".ci" / "run").read_text().splitlines()[-1]
    assert ci.replace(" -q", "") == commands[1]


def test_every_block_runs(world: Path) -> None:
    for kind, body in BLOCKS:
        if kind == "python":
            proc = subprocess.run(
                [sys.executable, "-c", body],
                cwd=world,
                env=_env(world),
                capture_output=True,
                text=True,
                timeout=900,
            )
            assert proc.returncode == 0, f"{body}\n{proc.stderr[-3000:]}"
            continue
        for line in body.splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("python3 -m venv"):  # an install command: run its lingualite part
                tail = line.split("&&")[-1].strip().removeprefix(".venv/bin/")
                if tail.startswith("lingualite"):
                    _run(_as_tested(tail, smoke=False), world)  # its own folder, as a user gets it
                continue
            _run(_as_tested(line), world)
    assert (world / "runs" / "quickstart-smoke" / "README.md").exists()
    assert (world / "runs" / "my-student" / "modules.json").exists() and (world / "vectors.npy").exists()
