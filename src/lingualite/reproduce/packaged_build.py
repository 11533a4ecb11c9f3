"""Rebuild the ready-made models of ``lingualite-models`` from the packaged corpora: ``lingualite models build``.

The pipeline, each step resumable (a step whose output is complete is not redone):

1. fetch and prepare everything the shipped distill configs read, for every supported language
   (:func:`lingualite.reproduce.distill_data.prepare_distill_data`: the default pairs, UI strings, game text,
   untranslated text and word lists);
2. distil the student of every shipped language (``configs/distill.yaml``: USE-m teacher) into ``WORK/small-run``;
3. export it as an int8 ONNX graph whose token table is stored in 4 bits (``WORK/small-onnx``; ``--quantize
   int8-table4`` of ``lingualite export``: the table is most of the model's bytes, and in 4 bits the everyday
   set's P@1 is unchanged, though single vectors move more: min cosine 0.976 to the float model's);
4. distil the static student (``configs/distill-static.yaml``) from the same teacher vectors (the same text:
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

from lingualite.core.errors import LinguaLiteError
from lingualite.core.io_utils import write_json
from lingualite.data.evalsets.everyday import everyday_pairs
from lingualite.reproduce.packaged_card import model_card, run_optim
from lingualite.text.languages import (
    CHECK_PIVOTS,
    CORE_TRANSLATION_LANGS,
    ENGLISH,
    SHIPPED_TRANSLATION_LANGS,
    parse_pair,
)

__all__ = [
    "EVERYDAY_PAIRS",
    "PACKAGE_BUDGET_BYTES",
    "build_packaged_models",
    "everyday_check",
    "folder_bytes",
    "register_check",
]

# What the ONNX runtime (and a reader of the folder) needs: the tokenizer, the limits, the module files; not the
# float32 weights (the int8 graph is the model).
SMALL_FILES = (
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "sentence_bert_config.json",
    "config.json",
    "config_sentence_transformers.json",
    "modules.json",
    "1_Pooling/config.json",
)
# how lingualite-small's graph is quantized (`lingualite export --quantize`): its token table in 4 bits
SMALL_QUANTIZE = "int8-table4"
# each model's size budget (issue #43: small <= 10 MB, static <= 12 MB); the package holds both
MODEL_BUDGET_BYTES = {"small": 10_000_000, "static": 12_000_000}
TIERS: tuple[str, ...] = tuple(MODEL_BUDGET_BYTES)  # the packaged models, in build order
PACKAGE_BUDGET_BYTES = sum(MODEL_BUDGET_BYTES.values())
# The everyday pairs every packaged model is checked on (every en-xx, and non-English pairs of each script).
EVERYDAY_PAIRS: tuple[tuple[str, str], ...] = (
    *((ENGLISH, lang) for lang in CORE_TRANSLATION_LANGS),
    *(parse_pair(name) for name in CHECK_PIVOTS),
)


def everyday_check(spec: str) -> dict[str, float]:
    """XSR P@1 of model ``spec`` on the shipped everyday sentences, per pair of :data:`EVERYDAY_PAIRS`."""
    from lingualite.encoders.resolve import load_encoder
    from lingualite.evaluation.xsr import evaluate_xsr

    encoder = load_encoder(spec)
    scores = {}
    for src, tgt in EVERYDAY_PAIRS:
        a, b = everyday_pairs(src, tgt)
        scores[f"{src}-{tgt}"] = round(float(evaluate_xsr(encoder, a, b)["p_at_1"]), 4)
    return scores


REGISTER_MAX_PAIRS = 100  # held-out pairs per register and language pair in the card's register table


def register_check(spec: str, data_dir: Path) -> dict[str, Any]:
    """XSR P@1 of model ``spec`` per register and pair (:mod:`lingualite.evaluation.register`: every register
    the prepared test files and the everyday set hold, a fixed pool of candidates per query): the card's
    register table. Fast for the students (one encode of a few thousand sentences)."""
    import numpy as np

    from lingualite.encoders.resolve import load_encoder
    from lingualite.evaluation.base import to_dense
    from lingualite.evaluation.register import DEFAULT_POOL, discover_registers, score_retrieval

    regs = discover_registers(data_dir, CORE_TRANSLATION_LANGS, CHECK_PIVOTS, REGISTER_MAX_PAIRS)
    encoder = load_encoder(spec)
    cache: dict[str, Any] = {}

    def vectors(texts: list[str]) -> Any:
        missing = [t for t in dict.fromkeys(texts) if t not in cache]
        if missing:
            cache.update(zip(missing, to_dense(encoder.encode(missing)), strict=True))
        return np.stack([cache[t] for t in texts])

    scores, _ = score_retrieval(vectors, regs.cells, DEFAULT_POOL)
    return {"pool": DEFAULT_POOL, "max_pairs": REGISTER_MAX_PAIRS, "p_at_1": scores}


def build_packaged_models(
    out_dir: Path,
    data_dir: Path,
    work: Path,
    say: Callable[[str], None] = print,
    threads: int | None = None,
    tiers: tuple[str, ...] = TIERS,
) -> dict[str, Any]:
    """Run the pipeline of the module docstring; write ``out_dir/small`` and ``out_dir/static``, or only the
    ``tiers`` named (a model whose recipe changed is rebuilt without retraining the other)."""
    from lingualite.core.progress import LinePrinter
    from lingualite.reproduce.distill_data import prepare_distill_data

    unknown = sorted(set(tiers) - set(TIERS))
    if unknown or not tiers:
        raise LinguaLiteError(
            f"unknown packaged model(s) {unknown or '(none)'}; choose from {', '.join(TIERS)}"
        )
    work.mkdir(parents=True, exist_ok=True)
    folders = prepare_distill_data(data_dir, SHIPPED_TRANSLATION_LANGS, LinePrinter(say))
    runs = {"small": work / "small-run", "static": work / "static-run"}
    for name, config in (("small", "distill"), ("static", "distill-static")):
        if name in tiers:
            _distil(name, config, runs, folders, data_dir, say, threads)
    onnx = work / "small-onnx"
    if "small" in tiers and exported_mode(onnx) != SMALL_QUANTIZE:  # none yet, or an earlier recipe's: redone
        from lingualite.encoders.onnx_export import export_onnx

        say(f"small: exporting the int8 ONNX graph (4-bit token table) into {onnx}")
        export_onnx(runs["small"], onnx, quantize=SMALL_QUANTIZE, overwrite=onnx.exists())
    writers = {
        "small": (lambda tmp: _small_files(onnx, tmp), "onnx-int8"),
        "static": (lambda tmp: _static_files(runs["static"], tmp), "static"),
    }
    built = {
        name: _assemble(out_dir / name, write, runs[name], runtime, data_dir)
        for name, (write, runtime) in writers.items()
        if name in tiers
    }
    check_budgets({name: folder_bytes(out_dir / name) for name in built}, out_dir)
    write_json(work / "build.json", built)
    return built


def _distil(
    name: str,
    config: str,
    runs: dict[str, Path],
    folders: dict[str, list[Path]],
    data_dir: Path,
    say: Callable[[str], None],
    threads: int | None,
) -> None:
    from lingualite.config import load_distill_config
    from lingualite.recipes.distill.train_distill import train_distill
    from lingualite.reproduce.distill_data import read_only

    run = runs[name]
    if (run / "modules.json").is_file():
        say(f"{name}: {run} is trained already")
        return
    cfg = load_distill_config(config, data_dir)
    read_only(cfg, folders, data_dir, SHIPPED_TRANSLATION_LANGS)  # not other folders of the data dir
    if name == "static":  # the same text, hence the same sentences: the small run's teacher vectors
        cfg.teacher.cache_dir = small_teacher_cache(runs["small"], data_dir)
    say(f"{name}: distilling `{config}` into {run}")
    train_distill(cfg, run, resume=(run / "checkpoints").is_dir(), progress=False, threads=threads)


def exported_mode(folder: Path) -> str | None:
    """The ``--quantize`` mode of the export in ``folder`` (None: no quantized graph, or an export from before
    the mode was recorded)."""
    meta = folder / "onnx" / "lingualite_onnx.json"
    if not (folder / "onnx" / "encoder_int8.onnx").is_file() or not meta.is_file():
        return None
    quantization = json.loads(meta.read_text(encoding="utf-8")).get("quantization")
    return quantization.get("mode") if isinstance(quantization, dict) else None


def check_budgets(sizes: dict[str, int], out_dir: Path) -> None:
    """Raise when a packaged model is over its size budget (``MODEL_BUDGET_BYTES``)."""
    over = [
        f"{name} {size / 1e6:.2f} MB > {MODEL_BUDGET_BYTES[name] / 1e6:.0f} MB"
        for name, size in sizes.items()
        if size > MODEL_BUDGET_BYTES[name]
    ]
    if over:
        raise LinguaLiteError(f"{out_dir}: over the size budget: {'; '.join(over)}")


def small_teacher_cache(small_run: Path, data_dir: Path) -> str:
    """Where the small student's run keeps its teacher vectors: its config's ``teacher.cache_dir``, else
    the run's own ``teacher-cache`` (the static student reads the same text, so it reuses them)."""
    from lingualite.config import load_distill_config

    named = load_distill_config("distill", data_dir).teacher.cache_dir
    return named or str(small_run / "teacher-cache")


def compact_tokenizer_json(path: Path) -> None:
    """Rewrite a ``tokenizer.json`` without indentation and with its letters as UTF-8, not ``\\u`` escapes.

    tokenizers writes it indented and ASCII-escaped: a third of a 66k-row vocabulary's file is spaces and
    escapes of CJK pieces. The same JSON value, so every loader reads the same tokenizer."""
    value = json.loads(path.read_text(encoding="utf-8"))
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(value, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    tmp.replace(path)


def folder_bytes(folder: Path) -> int:
    """Bytes of every file under ``folder``."""
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def _small_files(onnx: Path, out: Path) -> None:
    for name in SMALL_FILES:
        if (onnx / name).is_file():
            (out / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(onnx / name, out / name)
    compact_tokenizer_json(out / "tokenizer.json")
    (out / "onnx").mkdir()
    shutil.copy2(onnx / "onnx" / "encoder_int8.onnx", out / "onnx" / "encoder_int8.onnx")
    meta = json.loads((onnx / "onnx" / "lingualite_onnx.json").read_text(encoding="utf-8"))
    meta["source"] = "lingualite-small"  # not the builder's local path
    write_json(out / "onnx" / "lingualite_onnx.json", meta)


def _static_files(run: Path, out: Path) -> None:
    """The sentence-transformers ``StaticEmbedding`` folder of the run, its table stored in float16."""
    from safetensors.numpy import load_file, save_file

    modules = json.loads((run / "modules.json").read_text(encoding="utf-8"))
    keep = {
        "modules.json",
        "config_sentence_transformers.json",
        "tokenizer.json",
        "config.json",
        "model.safetensors",
    }
    keep |= {m["path"] for m in modules if m.get("path")}
    for item in run.iterdir():
        if item.name in keep and item.is_file():
            shutil.copy2(item, out / item.name)
        elif item.name in keep and item.is_dir():
            shutil.copytree(item, out / item.name)
    compact_tokenizer_json(out / "tokenizer.json")
    for table in out.rglob("model.safetensors"):
        tensors = load_file(str(table))
        save_file({k: v.astype("float16") for k, v in tensors.items()}, str(table))


def _assemble(
    target: Path, write: Callable[[Path], None], run: Path, runtime: str, data_dir: Path | None = None
) -> dict[str, Any]:
    from lingualite.models.checksums import write_checksums

    summary = json.loads((run / "summary.json").read_text(encoding="utf-8"))
    from lingualite.core.ownership import replacing

    with replacing(target, "packaged", overwrite=True, inputs=[run]) as tmp:
        write(tmp)
        write_checksums(tmp)
        checks = everyday_check(f"{runtime}:{tmp}")
        registers = register_check(f"{runtime}:{tmp}", data_dir) if data_dir is not None else None
        optim = run_optim(run)
        card = model_card(target.name, summary, checks, registers, optim)
        (tmp / "README.md").write_text(card, encoding="utf-8")
    return {
        "folder": str(target),
        "megabytes": round(folder_bytes(target) / 1e6, 2),
        "everyday_p_at_1": checks,
    }
