"""Compression study of paper 002: students of several vocabulary sizes, depths and widths vs their teacher.

Every student is distilled with the shipped ``distill`` config changed in ONE place (vocabulary size, layers or
width), for the same number of steps, from the same teacher vectors (one shared cache: the teacher encodes each
sentence once for the whole study). Then the teacher (MiniLM + its PCA layer, what the students imitate), every
student and USE-m are evaluated in ONE run of ``lingualite eval all`` machinery: XSR P@1 on the held-out test
pairs (1,000 per language pair), STS Spearman (Lee, English), cross-lingual IR (MRR@10, NDCG@10, xx -> en
LibreOffice index), and efficiency in a fresh process per model (parameters, size on disk, sentences/s,
batch-1 latency, codecarbon TDP energy estimate). Speed ratios are against the teacher and USE-m of the same run.

    python benchmarks/compression_study.py --out runs/compression            # ~45 min on 2 CPU cores
    python benchmarks/compression_study.py --out runs/compression --variants v10k-1x128 v50k-1x128 --steps 300

Writes OUT/study.json, OUT/study.md (the table of docs/research/distillation.md) and OUT/study.png;
re-running skips finished students and finished evaluations (``OUT/report/parts``).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

# name: (vocabulary size, layers, hidden size, heads, FFN size). The shipped default is v50k-1x128.
VARIANTS: dict[str, tuple[int, int, int, int, int]] = {
    "v10k-1x128": (10_000, 1, 128, 2, 512),
    "v25k-1x128": (25_000, 1, 128, 2, 512),
    "v50k-1x128": (50_000, 1, 128, 2, 512),
    "v100k-1x128": (100_000, 1, 128, 2, 512),
    "v50k-2x128": (50_000, 2, 128, 2, 512),
    "v50k-1x256": (50_000, 1, 256, 4, 1024),
    "v25k-1x64": (25_000, 1, 64, 1, 256),
    "v50k-1x64": (50_000, 1, 64, 1, 256),
}
DEFAULT_VARIANTS = ["v50k-1x128", "v10k-1x128", "v25k-1x128", "v100k-1x128", "v50k-2x128", "v50k-1x64"]
TASKS = ("xsr", "sts", "ir", "efficiency")


def distill_variant(name: str, out: Path, steps: int, cache: Path, threads: int | None) -> Path:
    from lingualite.config import load_distill_config
    from lingualite.models.run_folder import RunFolder
    from lingualite.recipes.distill.train_distill import train_distill

    folder = out / "students" / name
    if (folder / "modules.json").exists():
        print(f"{name}: distilled before ({folder})", flush=True)
        return folder
    vocab, layers, hidden, heads, ffn = VARIANTS[name]
    cfg = load_distill_config("distill")
    cfg.vocabulary.size = vocab
    cfg.student.num_layers, cfg.student.hidden_size = layers, hidden
    cfg.student.num_heads, cfg.student.ffn_size = heads, ffn
    cfg.teacher.cache_dir = str(cache)
    cfg.optim.max_steps = steps
    cfg.optim.eval_every = steps
    print(f"{name}: distilling ({vocab} tokens, {layers} x {hidden}, {steps} steps)", flush=True)
    t0 = time.perf_counter()
    resume = RunFolder(folder).has_checkpoints()
    train_distill(cfg, folder, resume=resume, progress=sys.stderr.isatty(), threads=threads)
    print(f"{name}: done in {time.perf_counter() - t0:.0f} s", flush=True)
    return folder


def _summary(task: str, metrics: dict[str, Any] | None) -> float | None:
    from lingualite.evaluation.rendering import summary_value

    return summary_value(task, metrics) if metrics else None


def build_rows(report: dict[str, Any], students: dict[str, Path], teacher: str) -> list[dict[str, Any]]:
    from lingualite.models.run_folder import RunFolder

    rows = []
    models = report["models"]
    eff_teacher = models[teacher]["efficiency"]["sentences_per_second"]
    eff_use = models.get("use-m", {}).get("efficiency", {}).get("sentences_per_second")
    for name, results in models.items():
        eff = results.get("efficiency", {})
        ir = results.get("ir/libreoffice-index")
        shape = VARIANTS.get(name)
        if name in students:
            summary = RunFolder(students[name]).read_summary() or {}
            train_s = summary.get("seconds", {}).get("train")
        else:
            train_s = None
        speed = eff.get("sentences_per_second")
        rows.append(
            {
                "model": name,
                "role": "teacher" if name == teacher else ("student" if name in students else "baseline"),
                "vocab": shape[0] if shape else None,
                "layers": shape[1] if shape else None,
                "width": shape[2] if shape else None,
                "parameters": eff.get("num_parameters"),
                "size_mb": eff.get("size_on_disk_mb"),
                "sentences_per_second": speed,
                "latency_ms_p50": eff.get("latency_ms_p50"),
                "energy_wh_per_1000": eff.get("energy_wh_per_1000"),
                "peak_rss_mb": eff.get("peak_rss_mb"),
                "speed_vs_teacher": speed / eff_teacher if speed else None,
                "speed_vs_use_m": speed / eff_use if speed and eff_use else None,
                "xsr_p_at_1": _summary("xsr", results.get("xsr")),
                "sts_spearman": _summary("sts/lee", results.get("sts/lee")),
                "ir_mrr_at_10": _summary("ir", ir),
                "ir_ndcg_at_10": (
                    sum(v["ndcg_at_10"] for k, v in ir["per_test"].items() if k != "en")
                    / max(1, sum(1 for k in ir["per_test"] if k != "en"))
                    if ir
                    else None
                ),
                "train_seconds": train_s,
            }
        )
    return rows


def _fmt(value: Any, digits: int = 3) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


def write_markdown(rows: list[dict[str, Any]], path: Path, steps: int) -> None:
    header = (
        "| model | vocab | layers x width | params | MB | sent/s | p50 ms (batch 1) | energy Wh/1k | "
        "vs teacher | vs use-m | XSR P@1 | STS ρ (en) | IR MRR@10 | IR NDCG@10 |"
    )
    lines = [header, "|" + "---|" * 14]
    for r in rows:
        shape = f"{r['layers']} x {r['width']}" if r["layers"] else "-"
        lines.append(
            f"| {r['model']} | {_fmt(r['vocab'])} | {shape} | {r['parameters'] / 1e6:.1f}M | {_fmt(r['size_mb'], 1)} | "
            f"{_fmt(r['sentences_per_second'], 0)} | {_fmt(r['latency_ms_p50'], 2)} | "
            f"{_fmt(r['energy_wh_per_1000'], 4)} | {_fmt(r['speed_vs_teacher'], 1)}x | "
            f"{_fmt(r['speed_vs_use_m'], 2)}x | {_fmt(r['xsr_p_at_1'])} | {_fmt(r['sts_spearman'])} | "
            f"{_fmt(r['ir_mrr_at_10'])} | {_fmt(r['ir_ndcg_at_10'])} |"
        )
    lines.append("")
    lines.append(
        f"Students: {steps} distillation steps each (batch 128), MiniLM teacher + PCA 128, otherwise the shipped "
        "`distill` config. XSR: 1,000 held-out test pairs per language pair, both directions, mean of 4 pairs; "
        "IR: fr/de/es/it queries against English pages; STS: Lee (English only)."
    )
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_plot(rows: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    for r in rows:
        if r["sentences_per_second"] is None or r["xsr_p_at_1"] is None:
            continue
        colour = {"teacher": "tab:red", "student": "tab:blue", "baseline": "tab:gray"}[r["role"]]
        for ax, x in ((axes[0], r["sentences_per_second"]), (axes[1], r["size_mb"])):
            ax.scatter(x, r["xsr_p_at_1"], c=colour, s=40)
            ax.annotate(
                r["model"], (x, r["xsr_p_at_1"]), fontsize=7, xytext=(3, 3), textcoords="offset points"
            )
    axes[0].set_xscale("log")
    axes[0].set_xlabel("sentences / s (2 CPU cores, log)")
    axes[1].set_xscale("log")
    axes[1].set_xlabel("size on disk (MB, log)")
    for ax in axes:
        ax.set_ylabel("XSR P@1 (held-out, mean of 4 pairs)")
        ax.grid(alpha=0.3)
    fig.suptitle("Compression study: students (blue) vs teacher (red) and USE-m (grey)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=Path("runs/compression"))
    parser.add_argument("--variants", nargs="+", default=DEFAULT_VARIANTS, choices=list(VARIANTS))
    parser.add_argument("--steps", type=int, default=1000, help="distillation steps per student")
    parser.add_argument(
        "--teacher-cache", type=Path, default=None, help="shared teacher vectors (default OUT/teacher-cache)"
    )
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--no-use-m", action="store_true", help="leave USE-m out of the comparison")
    parser.add_argument(
        "--efficiency-sentences",
        type=int,
        default=5000,
        help="English test sentences per throughput measurement (a fast student needs seconds, not 0.5 s)",
    )
    parser.add_argument(
        "--remeasure-efficiency", action="store_true", help="measure efficiency again (keeps quality results)"
    )
    args = parser.parse_args()

    from lingualite.core.io_utils import write_json
    from lingualite.evaluation.report import ReportSettings, run_report

    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    cache = args.teacher_cache or out / "teacher-cache"
    students = {name: distill_variant(name, out, args.steps, cache, args.threads) for name in args.variants}
    teacher = students[args.variants[0]] / "teacher"  # MiniLM + the PCA layer (the same fit in every run)
    models = [str(teacher), *map(str, students.values())] + ([] if args.no_use_m else ["use-m"])
    settings = ReportSettings(
        tasks=TASKS, threads=args.threads, efficiency_sentences=args.efficiency_sentences
    )
    if args.remeasure_efficiency:
        for part in (out / "report" / "parts").glob("*/efficiency.json"):
            part.unlink()
    report = run_report(models, out / "report", settings)
    rows = build_rows(report, students, "teacher")
    write_json(out / "study.json", {"steps": args.steps, "rows": rows, "report": str(out / "report")})
    write_markdown(rows, out / "study.md", args.steps)
    write_plot(rows, out / "study.png")
    print((out / "study.md").read_text())


if __name__ == "__main__":
    main()
