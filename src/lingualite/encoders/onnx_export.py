"""Export a sentence-transformers folder to ONE ONNX graph: token ids -> sentence vector.

The whole encoder is in the graph (transformer, pooling, Dense layers, normalisation), with dynamic batch and
length axes, so plain onnxruntime gives the model's vectors with no Python around the model. int8 dynamic
quantization (onnxruntime's ``quantize_dynamic``: int8 weights, activations quantized at run time, VNNI
kernels on CPUs that have them) makes a second graph; ``int8-table4`` stores its token table in 4 bits instead
(onnxruntime's weight-only quantizer: blocks of 64 values of a row share one scale; ``GatherBlockQuantized``),
which takes a 128-d table from 1 to ~0.56 bytes a value, so a vocabulary nearly twice as large fits the same
bytes (the research page on registers measures what it costs: nothing measurable on the everyday set).

Why not sentence-transformers' own ONNX backend: it exports the transformer alone (pooling stays in Python)
and loads through ``optimum-onnx``, which pins ``transformers < 4.58``; we run transformers 5. The exported
folder keeps the safetensors files, so ``SentenceTransformer(folder)`` still loads it (torch backend).

Layout of the output folder: every file of the source model, plus ``onnx/encoder.onnx``,
``onnx/encoder_int8.onnx`` (with ``--quantize int8``) and ``onnx/lingualite_onnx.json`` (inputs, output,
truncation length, whether vectors are normalised, parity measured at export), and
``lingualite_checksums.json`` (the sha256 of every file, graphs included, checked when it is loaded). The file
names are defined by the reader of the folder, :mod:`lingualite.encoders.onnx`.
"""

from __future__ import annotations

import json
import logging
import shutil
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch
from torch import nn

from lingualite.core.errors import LinguaLiteError
from lingualite.core.ownership import check_folder, check_separate, replacing
from lingualite.encoders.onnx import FP32_FILE, INT8_FILE, META_FILE, ONNX_DIR, OnnxEncoder
from lingualite.models.checksums import CHECKSUMS, write_checksums

OPSET = 17
QUANTIZE_MODES = {
    "int8": "int8 weights and embedding tables",
    "int8-table4": "int8 weights, the embedding tables (token, position) in 4 bits, a scale per 64 values",
}
# Below this min cosine to the torch model on PARITY_SENTENCES a quantized graph is kept with a warning. 4-bit
# tables move single vectors more (the shipped student: 0.976) with no P@1 lost on the everyday set
# (docs/research/out-of-domain.md), so their bar is lower.
WARN_BELOW = {"int8": 0.99, "int8-table4": 0.97}
TABLE_BLOCK = 64  # values a 4-bit scale covers: 32 and 64 lose nothing on the everyday set, a whole row 0.002
logger = logging.getLogger(__name__)

PARITY_SENTENCES = [
    "The cat sleeps on the sofa.",
    "Le chat dort sur le canapé.",
    "Die Katze schläft auf dem Sofa.",
    "El gato duerme en el sofá.",
    "Il gatto dorme sul divano.",
    "Open the File menu and choose Save As to store a copy of the document under another name.",
    "In the beginning God created the heavens and the earth.",
    "A tool to synchronise files between computers over the network",
    "x",
    "Numbers 1, 22 and 333; symbols #@!; and a very long word: Donaudampfschifffahrtsgesellschaftskapitän.",
]


class WholeEncoder(nn.Module):
    """Transformer -> pooling (mean / max / cls, concatenated in the folder's order) -> Dense* -> Normalize?,
    as one module taking ``(input_ids, attention_mask)``: what gets traced into the graph."""

    def __init__(self, st_model: Any) -> None:
        super().__init__()
        modules = list(st_model)
        kinds = [type(m).__name__ for m in modules]
        if not kinds or kinds[0] != "Transformer" or len(kinds) < 2 or kinds[1] != "Pooling":
            raise LinguaLiteError(f"cannot export modules {kinds}: expected Transformer, Pooling, ...")
        self.transformer = modules[0].auto_model
        self.modes = _pooling_modes(modules[1])
        self.dense = nn.ModuleList()
        self.normalize = False
        for module, kind in zip(modules[2:], kinds[2:], strict=True):
            if kind == "Dense":
                self.dense.append(module)
            elif kind == "Normalize":
                self.normalize = True
            else:
                raise LinguaLiteError(f"cannot export a {kind} module (supported: Dense, Normalize)")

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        states = self.transformer(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
        mask = attention_mask.unsqueeze(-1).to(states.dtype)
        parts = []
        for mode in self.modes:
            if mode == "mean":
                parts.append((states * mask).sum(1) / mask.sum(1).clamp(min=1e-9))
            elif mode == "max":
                parts.append(states.masked_fill(mask == 0, -1e9).max(dim=1).values)
            else:  # cls
                parts.append(states[:, 0])
        vectors = torch.cat(parts, dim=-1) if len(parts) > 1 else parts[0]
        for dense in self.dense:
            vectors = dense.activation_function(dense.linear(vectors))
        if self.normalize:
            vectors = nn.functional.normalize(vectors, p=2, dim=-1)
        return vectors


def _pooling_modes(pooling: Any) -> list[str]:
    """The pooling modes of a sentence-transformers ``Pooling`` module, in its concatenation order."""
    config = pooling.get_config_dict()
    mode = config.get("pooling_mode")
    if mode is not None:
        modes = [mode] if isinstance(mode, str) else list(mode)
    else:  # the older format: one boolean per mode
        modes = [m for m in ("cls", "max", "mean") if config.get(f"pooling_mode_{m}_tokens")]
    unsupported = [m for m in modes if m not in ("mean", "max", "cls")]
    if unsupported or not modes:
        raise LinguaLiteError(f"cannot export pooling modes {modes or '(none)'} (supported: mean, max, cls)")
    return modes


@dataclass
class ExportResult:
    output: Path
    fp32_cosine_min: float
    int8_cosine_min: float | None
    fp32_bytes: int
    int8_bytes: int | None


def export_onnx(
    model_dir: str | Path, output: str | Path, quantize: str | None = None, overwrite: bool = False
) -> ExportResult:
    """Write ``output``: a copy of the sentence-transformers folder ``model_dir`` plus its ONNX graph(s).

    Parity is checked before anything is written: the minimum cosine between onnxruntime's vectors and the
    torch model's over :data:`PARITY_SENTENCES` must be >= 0.999 for the fp32 graph (else an error); an int8
    graph below 0.99 is kept with a warning (quantization suits some models less: MiniLM reaches 0.98).
    ``output`` is a new folder, or (with ``overwrite``) an earlier export; nothing else is ever replaced, and
    it may neither contain the model nor lie inside it (:mod:`lingualite.core.ownership`).

    :param quantize: a key of :data:`QUANTIZE_MODES` adds a quantized graph (``onnx-int8:``); None: fp32 only.
    """
    from lingualite.encoders.packaged import PACKAGED
    from lingualite.models.checked_loading import load_sentence_transformer

    if str(model_dir) in PACKAGED and not Path(model_dir).exists():
        raise LinguaLiteError(
            f"{model_dir}: is a packaged model, already exported (lingualite-small is an int8 ONNX graph, "
            "lingualite-static a static table): use it by name; export takes a sentence-transformers folder "
            "(a training run, or one you downloaded)"
        )
    model_dir, output = Path(model_dir), Path(output)
    if quantize is not None and quantize not in QUANTIZE_MODES:
        modes = "; ".join(f"{key} ({what})" for key, what in QUANTIZE_MODES.items())
        raise LinguaLiteError(f"--quantize must be one of: {modes}; got {quantize!r}")
    check_separate(output, [model_dir])
    check_folder(output, "export", overwrite)
    # On the CPU whatever GPU there is: the graph is traced in float32 and checked against onnxruntime's CPU
    # provider, and a traced graph would otherwise carry the GPU's kernels' rounding and device copies.
    st_model = load_sentence_transformer(model_dir, device="cpu")
    _check_exportable(model_dir, st_model)
    with replacing(output, "export", overwrite, [model_dir]) as tmp:
        _copy_model_files(model_dir, tmp)
        onnx_dir = tmp / ONNX_DIR
        onnx_dir.mkdir(exist_ok=True)
        max_len = int(st_model.max_seq_length)
        _export_graph(st_model, onnx_dir / FP32_FILE)
        reference = st_model.encode(PARITY_SENTENCES, convert_to_numpy=True, show_progress_bar=False)
        fp32_min = _parity(onnx_dir / FP32_FILE, tmp, reference, max_len)
        if fp32_min < 0.999:
            raise LinguaLiteError(
                f"{model_dir}: ONNX graph disagrees with the model (min cosine {fp32_min:.5f})"
            )
        int8_min = None
        quantization = None
        if quantize is not None:
            done = _quantize(
                onnx_dir / FP32_FILE, onnx_dir / INT8_FILE, table_bits=4 if quantize == "int8-table4" else 8
            )
            quantization = {"mode": quantize, **done, "opset": _opset(onnx_dir / INT8_FILE)}
            int8_min = _parity(onnx_dir / INT8_FILE, tmp, reference, max_len)
            if int8_min < WARN_BELOW[quantize]:  # kept (it is the user's call), but said
                logger.warning(
                    "%s: the int8 graph's vectors differ from the model's (min cosine %.4f < %.2f); measure "
                    "your task with onnx-int8: before using it",
                    model_dir,
                    int8_min,
                    WARN_BELOW[quantize],
                )
        meta = {
            "inputs": ["input_ids", "attention_mask"],
            "output": "sentence_embedding",
            "max_seq_length": max_len,
            "dimension": int(reference.shape[1]),
            "normalized": any(type(m).__name__ == "Normalize" for m in st_model),
            "opset": OPSET,  # the fp32 graph's; the quantized one's is in "quantization"
            "quantization": quantization,
            "parity_min_cosine": {
                "fp32": round(fp32_min, 6),
                "int8": None if int8_min is None else round(int8_min, 6),
            },
            "source": str(model_dir),
        }
        (onnx_dir / META_FILE).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        write_checksums(tmp)  # every file, the graphs included: verified whenever the folder is loaded
        int8_path = onnx_dir / INT8_FILE
        result = ExportResult(
            output,
            fp32_min,
            int8_min,
            (onnx_dir / FP32_FILE).stat().st_size,
            int8_path.stat().st_size if int8_path.exists() else None,
        )
    return result


def _check_exportable(model_dir: Path, st_model: Any) -> None:
    """A one-line error for a model with no transformer graph to export (before anything is written)."""
    kinds = [type(m).__name__ for m in st_model]
    if kinds and kinds[0] == "StaticEmbedding":
        raise LinguaLiteError(
            f"{model_dir}: is a static model (a token table, no transformer): there is no graph to export, and "
            f"it already runs without torch: use static:{model_dir}"
        )
    WholeEncoder(st_model)  # raises for module layouts the graph cannot hold


def _copy_model_files(model_dir: Path, target: Path) -> None:
    """The files sentence-transformers loads (not checkpoints, logs or a run's spare folders)."""
    modules = json.loads((model_dir / "modules.json").read_text(encoding="utf-8"))
    folders = {m.get("path", "") for m in modules}
    for item in model_dir.iterdir():
        if item.name.startswith(".") or item.name in (ONNX_DIR, CHECKSUMS):
            continue
        if item.is_file():
            shutil.copy2(item, target / item.name)
        elif item.name in folders:
            shutil.copytree(item, target / item.name)


def _export_graph(st_model: Any, path: Path) -> None:
    with warnings.catch_warnings():  # tracer notes about shapes that are constant in this graph
        warnings.simplefilter("ignore")
        _trace(st_model, path)


def _trace(st_model: Any, path: Path) -> None:
    wrapper = WholeEncoder(st_model).eval()
    config = wrapper.transformer.config
    previous = getattr(config, "_attn_implementation", None)
    config._attn_implementation = "eager"  # plain ops trace into a graph every runtime supports
    try:
        ids = torch.tensor([[101, 2000, 2001, 102], [101, 2002, 102, 0]], dtype=torch.long).clamp(
            max=config.vocab_size - 1
        )
        mask = (ids != 0).long()
        with torch.inference_mode():
            torch.onnx.export(
                wrapper,
                (ids, mask),
                str(path),
                input_names=["input_ids", "attention_mask"],
                output_names=["sentence_embedding"],
                dynamic_axes={
                    "input_ids": {0: "batch", 1: "length"},
                    "attention_mask": {0: "batch", 1: "length"},
                    "sentence_embedding": {0: "batch"},
                },
                opset_version=OPSET,
                dynamo=False,
            )
    finally:
        config._attn_implementation = previous


def _quantize(source: Path, target: Path, table_bits: int = 8) -> dict[str, Any]:
    """int8 dynamic quantization of ``source`` into ``target``; with ``table_bits=4`` the embedding tables (every
    Gather of a 2-d float initializer at least 16 wide: token and position embeddings) go to onnxruntime's
    4-bit weight-only quantizer instead. Returns what was done, for the folder's ONNX metadata."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.ERROR)  # onnxruntime logs a pre-processing suggestion on the root logger
    try:
        # per-channel weight scales: per-tensor ones cost MiniLM 0.93 min cosine on our parity set, per-channel 0.98
        ops = ["MatMul"] if table_bits == 4 else None  # None: every op it knows, Gather included
        quantize_dynamic(
            str(source), str(target), weight_type=QuantType.QInt8, per_channel=True, op_types_to_quantize=ops
        )
        tables = _tables_to_4_bits(target) if table_bits == 4 else []
    finally:
        root.setLevel(level)
    done: dict[str, Any] = {"weights": "int8", "tables": "int8" if table_bits == 8 else "float32"}
    if tables:
        done.update(tables="int4", table_block=TABLE_BLOCK, tables_quantized=tables)
    return done


def _import_nbits_quantizer() -> Any:
    """onnxruntime's weight-only quantizer module, whose import calls ``logging.basicConfig(level=INFO)``: the
    root logger's handlers and level are put back as they were."""
    root = logging.getLogger()
    before, level = list(root.handlers), root.level
    from onnxruntime.quantization import matmul_nbits_quantizer

    for handler in root.handlers[:]:
        if handler not in before:
            root.removeHandler(handler)
    root.setLevel(level)
    return matmul_nbits_quantizer


def _tables_to_4_bits(graph: Path) -> list[str]:
    """Quantize the embedding tables of ``graph`` to 4 bits in place; return the tables' names (none: the graph
    is left as it is)."""
    import onnx

    nbits = _import_nbits_quantizer()
    model = onnx.load(str(graph))
    tables = {
        t.name
        for t in model.graph.initializer
        if len(t.dims) == 2 and t.dims[1] >= 16 and t.data_type == onnx.TensorProto.FLOAT
    }
    gathers = [n for n in model.graph.node if n.op_type == "Gather"]
    chosen = sorted({n.input[0] for n in gathers if n.input[0] in tables})
    if not chosen:
        return []
    config = nbits.DefaultWeightOnlyQuantConfig(
        block_size=TABLE_BLOCK,  # a row narrower than a block, or not a multiple of it, ends in a partial one
        is_symmetric=True,
        bits=4,
        op_types_to_quantize=("Gather",),
        quant_axes=(("Gather", 1),),  # blocks along a row: each token's vector has its own scales
    )
    others = [n.name for n in gathers if n.input[0] not in tables]  # shape lookups, integer constants
    quantizer = nbits.MatMulNBitsQuantizer(model, nodes_to_exclude=others, algo_config=config)
    own = logging.getLogger(nbits.__name__)
    level = own.level
    own.setLevel(logging.ERROR)  # a line for every node it leaves alone
    try:
        with warnings.catch_warnings():  # 0/0 for an all-zero row (padding), which it then writes as 0
            warnings.simplefilter("ignore", RuntimeWarning)
            quantizer.process()
    finally:
        own.setLevel(level)
    tmp = graph.with_suffix(".tmp")
    quantizer.model.save_model_to_file(str(tmp), False)
    tmp.replace(graph)
    return chosen


def _opset(graph: Path) -> int:
    import onnx

    model = onnx.load(str(graph), load_external_data=False)
    return max(int(o.version) for o in model.opset_import if o.domain in ("", "ai.onnx"))


def _parity(graph: Path, folder: Path, reference: np.ndarray, max_len: int) -> float:
    vectors = OnnxEncoder(folder, graph=graph, max_seq_length=max_len, threads=1).encode(PARITY_SENTENCES)
    a = vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
    b = reference / np.maximum(np.linalg.norm(reference, axis=1, keepdims=True), 1e-12)
    return float((a * b).sum(axis=1).min())
