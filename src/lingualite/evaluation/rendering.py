"""How a report reads: the summary and per-task Markdown tables and the PNG plots of ``eval all``.

The summary keeps one number per task and encoder (:func:`summary_value`: zero-shot tasks averaged over the
non-English test sets) plus the efficiency columns, with throughput also as a ratio to USE-m measured in the
same run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from lingualite.core.io_utils import atomic_path, write_figure

__all__ = ["PRIMARY", "SPEED_REFERENCE", "headline", "summary_value", "write_markdown", "write_plots"]

PRIMARY = {
    "xsr": "p_at_1",
    "classify": "accuracy",
    "pairs": "accuracy",
    "sts": "spearman",
    "ir": "mrr_at_10",
    "efficiency": "sentences_per_second",
}


def headline(task: str, metrics: dict[str, Any]) -> str:
    key = PRIMARY[task.split("/")[0]]
    value = metrics.get(key)
    return (
        f"{key} {value:.3f}"
        if isinstance(value, float) and key != "sentences_per_second"
        else f"{key} {value}"
    )


def _cell(value: Any, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return "–"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)


SPEED_REFERENCE = "use-m"  # throughput is also reported as a ratio to this baseline, measured in the same run


def summary_value(task: str, metrics: dict[str, Any]) -> float | None:
    """The summary table's number: the primary metric, averaged over the *cross-lingual* test sets for the
    zero-shot tasks (classification, pairs, IR: the English reference is in the per-language tables)."""
    key = PRIMARY[task.split("/")[0]]
    per_test = metrics.get("per_test", {})
    if task.split("/")[0] in ("classify", "pairs", "ir"):
        values = [r[key] for name, r in per_test.items() if name != "en" and key in r]
        if values:
            return float(np.mean(values))
    value = metrics.get(key)
    return float(value) if isinstance(value, int | float) else None


def _short(task: str) -> str:
    """Column title: ``classify/bible-genres/logreg`` -> ``bible-genres acc.``."""
    parts = task.split("/")
    label = {"p_at_1": "P@1", "accuracy": "acc.", "spearman": "Spearman", "mrr_at_10": "MRR@10"}
    name = parts[1] if len(parts) > 1 else parts[0]
    return f"{name} {label[PRIMARY[parts[0]]]}"


def _summary_rows(report: dict[str, Any]) -> tuple[list[str], list[list[str]]]:
    """One row per model: the primary metric of every task (means over languages), then efficiency."""
    # The MLP variants of classification are in the per-task tables; the summary keeps one column per data set.
    tasks = [t for t in dict.fromkeys(t for r in report["models"].values() for t in r) if t != "efficiency"]
    tasks = [t for t in tasks if not t.endswith("/mlp")]
    header = ["model", *[_short(t) for t in tasks]]
    reference = report["models"].get(SPEED_REFERENCE, {}).get("efficiency", {}).get("sentences_per_second")
    header += ["sentences/s", f"speed vs {SPEED_REFERENCE}", "p50 ms (batch 1)", "size MB", "parameters"]
    rows = []
    for name, res in report["models"].items():
        eff = res.get("efficiency", {})
        speed = eff.get("sentences_per_second")
        row = [name, *[_cell(summary_value(t, res.get(t, {}))) for t in tasks]]
        row += [
            _cell(speed, 0),
            f"{speed / reference:.2f}x" if speed and reference else "–",
            _cell(eff.get("latency_ms_p50"), 1),
            _cell(eff.get("size_on_disk_mb"), 1),
            f"{eff['num_parameters']:,}" if isinstance(eff.get("num_parameters"), int) else "–",
        ]
        rows.append(row)
    return header, rows


def _per_test_rows(report: dict[str, Any], task: str) -> tuple[list[str], list[list[str]]]:
    key = PRIMARY[task.split("/")[0]]
    names = list(
        dict.fromkeys(n for r in report["models"].values() for n in r.get(task, {}).get("per_test", {}))
    )
    rows = []
    for model, res in report["models"].items():
        per = res.get(task, {}).get("per_test", {})
        if per:
            rows.append([model, *[_cell(per.get(n, {}).get(key)) for n in names]])
    return ["model", *names], rows


def _md_table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def write_markdown(report: dict[str, Any], path: Path) -> None:
    """The summary table, then one table per task with a column per test language."""
    s = report["settings"]
    lines = [
        "# lingualite evaluation report",
        "",
        f"{report['created']}, {report['environment']['processor']}. Caps for every encoder: XSR "
        f"{s['xsr_max_pairs']} pairs per language pair, {s['max_docs']} documents per classification file "
        f"cut to {s['max_words']} words, paraphrase pairs {s['pairs_max_train']} train / {s['pairs_max_test']} "
        f"test, IR "
        f"{s['ir_max_queries']} queries per language, {s['seeds']} classifier seeds. Summary: means over languages; for classification, pairs and IR over the "
        "non-English test sets only (zero-shot transfer from English; English is in the per-language tables).",
        "",
    ]
    lines += _md_table(*_summary_rows(report))
    lines += _skipped_lines(report)
    tasks = list(dict.fromkeys(t for r in report["models"].values() for t in r if t != "efficiency"))
    for task in tasks:
        header, rows = _per_test_rows(report, task)
        if len(header) > 1:
            lines += ["", f"## {task}: {PRIMARY[task.split('/')[0]]} per test set", ""]
            lines += _md_table(header, rows)
    with atomic_path(path) as tmp:
        tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")


def _skipped_lines(report: dict[str, Any]) -> list[str]:
    """A note naming every (model, task) that skipped bad test lines (``--skip-bad``); none when none did."""
    from lingualite.evaluation.suite import skipped_count

    counts = [
        f"{model} {task} {n:,}"
        for model, res in report["models"].items()
        for task, metrics in res.items()
        if task != "efficiency" and (n := skipped_count(metrics))
    ]
    if not counts:
        return []
    return [
        "",
        "Test lines skipped as bad input (`--skip-bad`: a side the model knows no token of, or a malformed "
        "line), not scored: " + "; ".join(counts) + ".",
    ]


def write_plots(report: dict[str, Any], out: Path) -> list[Path]:
    """``quality_vs_speed.png`` (mean XSR P@1 against sentences/s) and ``per_language.png`` (bars)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written: list[Path] = []
    models = report["models"]
    points = [
        (name, r["xsr"]["p_at_1"], r["efficiency"]["sentences_per_second"])
        for name, r in models.items()
        if "xsr" in r and r.get("efficiency", {}).get("sentences_per_second")
    ]
    if points:
        fig, ax = plt.subplots(figsize=(6, 4))
        for name, quality, speed in points:
            ax.scatter(speed, quality, s=40)
            ax.annotate(name, (speed, quality), textcoords="offset points", xytext=(5, 4), fontsize=8)
        ax.set_xscale("log")
        ax.set_xlabel("sentences / second (batched, this CPU)")
        ax.set_ylabel("XSR P@1 (mean over language pairs)")
        ax.set_title("Quality vs speed")
        ax.grid(True, alpha=0.3)
        fig.tight_layout()
        written.append(write_figure(out / "quality_vs_speed.png", fig))
    tasks = [t for t in dict.fromkeys(t for r in models.values() for t in r) if t != "efficiency"]
    tasks = [t for t in tasks if any(r.get(t, {}).get("per_test") for r in models.values())]
    if tasks:
        fig, axes = plt.subplots(len(tasks), 1, figsize=(7, 2.6 * len(tasks)), squeeze=False)
        for ax, task in zip(axes[:, 0], tasks, strict=True):
            header, rows = _per_test_rows(report, task)
            tests = header[1:]
            width = 0.8 / max(len(rows), 1)
            for i, row in enumerate(rows):
                values = [float(v) if v != "–" else 0.0 for v in row[1:]]
                ax.bar(np.arange(len(tests)) + i * width, values, width, label=row[0])
            ax.set_xticks(np.arange(len(tests)) + 0.4 - width / 2, tests)
            ax.set_title(f"{task} ({PRIMARY[task.split('/')[0]]})", fontsize=9)
            ax.set_ylim(0, 1)
        axes[0, 0].legend(fontsize=7, ncol=min(len(models), 5), loc="lower right")
        fig.tight_layout()
        written.append(write_figure(out / "per_language.png", fig))
    return written
