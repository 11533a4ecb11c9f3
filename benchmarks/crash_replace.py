"""Crash harness for the writers that REPLACE a folder: ``lingualite export --overwrite`` and ``lingualite index
build --overwrite``, each ``kill -9``-ed at a random moment while it replaces an earlier output.

Per trial: the old output (a complete export / index, made once) is copied to a fresh place beside a user's
files (a sibling file and a sibling folder), the command that replaces it with a new version is started and
SIGKILLed after a delay drawn uniformly over its uninterrupted duration. Checked after the kill:

- the output is the OLD version complete or the NEW version complete (it loads, through lingualite's checked
  loaders, and gives that version's vectors / holds that version's documents), never a mix;
- the user's files beside it are byte-identical;

then the command is run again to the end, and the output must be the new version with no staging or temp
entry left beside it. Used by :mod:`benchmarks.crash_harness` (scenarios ``onnx-export`` and ``index``) and,
a few kills of the index scenario, by the tests (``tests/fuzz/test_fuzz_kills.py``).
"""

from __future__ import annotations

import hashlib
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ENV = {**os.environ, "HF_HUB_OFFLINE": "1", "OMP_NUM_THREADS": "1", "TOKENIZERS_PARALLELISM": "false"}
CLI = [sys.executable, "-m", "lingualite.cli.main"]
LEFTOVER = re.compile(r"\.(tmp|staging|old)-\d+-[0-9a-f]{8}$")
SENTENCES = ["the big cat runs quickly", "le petit chien dort", "a red car sees the house"]


@dataclass
class Scenario:
    """How to make, replace and identify one kind of output."""

    name: str
    old: list[str]  # the command that writes the old version (``{out}`` is the output)
    new: list[str]  # the command that replaces it (``--overwrite``)
    identify: Callable[[Path], Any]  # what a complete output is (vectors, document ids); raises if broken


def _tree(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _cmd(template: list[str], out: Path) -> list[str]:
    return [*CLI, *(part.replace("{out}", str(out)) for part in template)]


def run(cmd: list[str], kill_after: float | None = None) -> tuple[bool, float]:
    """Run ``cmd``; SIGKILL it after ``kill_after`` seconds. Returns (finished normally, seconds)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        _, err = proc.communicate(timeout=kill_after)
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGKILL)
        proc.communicate()
        return False, time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}): {err.strip()[-2000:]}")
    return True, time.perf_counter() - t0


def onnx_export_scenario(work: Path) -> Scenario:
    """Two tiny transformer models; old = model A exported fp32, new = model B exported fp32 + int8 (so a
    mix of the two versions' files gives vectors of neither)."""
    import torch

    from lingualite.config.encoder import EncoderConfig
    from lingualite.encoders.resolve import load_encoder
    from lingualite.models.dual_encoder import DualEncoder
    from lingualite.tokenization import train_tokenizer

    texts = {
        "en": ["the big cat runs quickly", "a red car"] * 20,
        "fr": ["le petit chien dort", "un chat"] * 20,
    }
    tokenizer = train_tokenizer(texts, vocab_size=60, sample_size=200)
    cfg = EncoderConfig(vocab_size=len(tokenizer), hidden_size=32, num_heads=2, ffn_size=64)
    models = {}
    for name, seed in (("old", 0), ("new", 1)):
        torch.manual_seed(seed)
        models[name] = DualEncoder(cfg).save(tokenizer, work / f"model-{name}")

    def identify(out: Path) -> Any:
        graph = "onnx-int8" if (out / "onnx" / "encoder_int8.onnx").exists() else "onnx"
        return (graph, load_encoder(f"{graph}:{out}").encode(SENTENCES).round(4).tobytes())

    def export(name: str, *extra: str) -> list[str]:
        return ["export", "--model", str(models[name]), "--output", "{out}", "--overwrite", *extra]

    return Scenario("onnx-export", export("old"), export("new", "--quantize", "int8"), identify)


def index_scenario(work: Path, documents: int = 3000) -> Scenario:
    """A static model; old = an index of ``documents`` documents, new = another set of them."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "search"))
    from search_helpers import make_static_model, sentences

    model = make_static_model(work / "static-model")
    for name, seed in (("old", 1), ("new", 2)):
        lines = sentences(documents, seed=seed)
        (work / f"{name}.tsv").write_text("".join(f"{name}-{i}\t{t}\n" for i, t in enumerate(lines)))

    def identify(out: Path) -> Any:
        from lingualite.search import SearchIndex

        with SearchIndex.open(out) as idx:
            ids = {h.doc_id.split("-")[0] for h in idx.search(SENTENCES, k=5)[0]}
            return (ids.pop() if len(ids) == 1 else "mixed", len(idx))

    def build(name: str) -> list[str]:
        return ["index", "build", "--model", f"static:{model}", "--input", str(work / f"{name}.tsv"),
                "--output", "{out}", "--overwrite"]  # fmt: skip

    return Scenario("index", build("old"), build("new"), identify)


def run_trials(scenario: Scenario, work: Path, trials: int, rng: random.Random) -> dict[str, Any]:
    """``trials`` kills of the replacing command (see the module doc); returns the rows and failures."""
    old_ref, new_ref = work / f"{scenario.name}-old", work / f"{scenario.name}-new"
    run(_cmd(scenario.old, old_ref))
    _, seconds = run(_cmd(scenario.new, new_ref))
    old_id, new_id = scenario.identify(old_ref), scenario.identify(new_ref)
    rows = []
    for trial in range(trials):
        place = work / f"{scenario.name}-trial-{trial}"
        out = place / "out"
        shutil.copytree(old_ref, out)
        (place / "notes.txt").write_text("the user's notes\n")
        (place / "photos").mkdir()
        (place / "photos" / "cat.jpg").write_bytes(os.urandom(1000))
        user = {**_tree(place / "photos"), "notes": _tree(place)["notes.txt"]}
        delay = rng.uniform(0.0, 0.95 * seconds)
        finished, _ = run(_cmd(scenario.new, out), delay)
        problems = []
        try:
            found = scenario.identify(out)
            state = "old" if found == old_id else "new" if found == new_id else f"mixed {found!r:.80}"
        except Exception as exc:  # a broken output is the finding
            state = f"broken ({str(exc).splitlines()[0][:200]})"
        if state not in ("old", "new"):
            problems.append(f"after the kill the output is {state}")
        if {**_tree(place / "photos"), "notes": _tree(place)["notes.txt"]} != user:
            problems.append("a user file beside the output changed")
        run(_cmd(scenario.new, out))
        if scenario.identify(out) != new_id:
            problems.append("the rerun did not give the new version")
        left = [p.name for p in place.iterdir() if LEFTOVER.search(p.name)]
        if left:
            problems.append(f"leftovers after the rerun: {left}")
        rows.append({"trial": trial, "kill_after_s": round(delay, 3), "killed": not finished, "after_kill": state,
                     "problems": problems})  # fmt: skip
        shutil.rmtree(place)
    return {
        "reference_seconds": round(seconds, 2),
        "trials": trials,
        "kills": sum(r["killed"] for r in rows),
        "old_after_kill": sum(r["after_kill"] == "old" for r in rows),
        "new_after_kill": sum(r["after_kill"] == "new" for r in rows),
        "failed_trials": sum(bool(r["problems"]) for r in rows),
        "rows": rows,
    }


SCENARIOS = {"onnx-export": onnx_export_scenario, "index": index_scenario}
