"""Render a sweep's table from whatever cells are finished: ``table.md`` (shaped like the paper's table, the
paper's number beside ours, the scale in the header), ``table.json`` and ``table.png`` (bars of ours vs the
paper's). A cell not finished yet is shown as "–".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lingualite.core.io_utils import write_figure, write_json, write_text
from lingualite.reproduce.cells import read_result
from lingualite.reproduce.table import ColumnSpec, TableSpec

__all__ = ["render_table", "table_markdown", "table_rows"]

MISSING = "–"


def _ours(column: ColumnSpec, metrics: dict[str, Any] | None) -> float | None:
    """The cell's value of ``column``: its metric, or the mean of its metrics (None unless all are there)."""
    if column.metric is None or metrics is None:
        return None
    values = [metrics.get(name) for name in column.metrics]
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return None
    value = sum(values) / len(values)  # type: ignore[arg-type]
    return value * 100 if column.percent else value


def table_rows(table: TableSpec, output: str | Path) -> list[dict[str, Any]]:
    """One row per cell, in the table's order: the cell's status, our value and the paper's per column."""
    rows = []
    for cell in table.cells:
        result = read_result(Path(output) / "cells" / cell.name)
        metrics = result["metrics"] if result else None
        rows.append(
            {
                "cell": cell.name,
                "label": cell.label,
                "finished": result is not None,
                "key": result.get("key") if result else None,
                "reused_from": result.get("reused_from") if result else None,
                "ours": {c.key: _ours(c, metrics) for c in table.columns if c.metric is not None},
                "paper": {c.key: cell.paper.get(c.key) for c in table.columns},
                # test lines left out as bad input (--skip-bad); only where there were some
                **({"skipped": n} if metrics and (n := metrics.get("evaluation/skipped")) else {}),
            }
        )
    return rows


def _fmt(value: float | None, digits: int) -> str:
    if value is None:
        return MISSING
    if float(value).is_integer() and abs(value) >= 1000:
        return f"{int(value):,}"
    return f"{value:,.{digits}f}"


def _has_paper(table: TableSpec, column: ColumnSpec) -> bool:
    return any(cell.paper.get(column.key) is not None for cell in table.cells)


def _header(table: TableSpec, column: ColumnSpec) -> str:
    if column.metric is None:
        return f"{column.label} (paper)"
    return f"{column.label} ours / paper" if _has_paper(table, column) else f"{column.label} (ours)"


def _cell_text(table: TableSpec, column: ColumnSpec, row: dict[str, Any]) -> str:
    paper = _fmt(row["paper"].get(column.key), column.digits)
    if column.metric is None:
        return paper
    ours = _fmt(row["ours"].get(column.key), column.digits)
    return f"{ours} / {paper}" if _has_paper(table, column) else ours


def _markdown(table: TableSpec, scale: str, rows: list[dict[str, Any]], evaluation: str) -> str:
    note = table.scale(scale).note
    done = sum(r["finished"] for r in rows)
    lines = [
        f"# {table.name}: {table.title}",
        "",
        f"Source: {table.source}.",
        "",
        f"Scale: **{scale}**: {note}",
        "",
        f"Ours: {evaluation} Each measured column reads *ours / paper*; {MISSING}: not run yet, not "
        f"measured or not published. Cells finished: {done}/{len(rows)}.",
    ]
    if table.notes:
        lines += ["", " ".join(table.notes.split())]
    header = ["", *(_header(table, c) for c in table.columns)]
    lines += ["", "| " + " | ".join(header) + " |", "|---|" + "---:|" * len(table.columns)]
    for row in rows:
        texts = [_cell_text(table, c, row) for c in table.columns]
        lines.append("| " + " | ".join([row["label"], *texts]) + " |")
    reused = [
        f"{r['label']} (from {_sweep_and_cell(r['reused_from'])})" for r in rows if r.get("reused_from")
    ]
    if reused:
        lines += [
            "",
            "Trained once for several tables (the same training config): "
            + "; ".join(reused)
            + ". Copied with its training time and evaluated here.",
        ]
    skipped = [f"{r['label']} {r['skipped']:,}" for r in rows if r.get("skipped")]
    if skipped:
        lines += [
            "",
            "Test lines skipped as bad input (`--skip-bad`: a side the model knows no token of, or a malformed "
            "line), not scored: " + "; ".join(skipped) + ".",
        ]
    return "\n".join(lines) + "\n"


def table_markdown(table: TableSpec, data: dict[str, Any]) -> str:
    """``table.md`` from a ``table.json`` payload (what :func:`render_table` writes): the docs' reproduction
    pages are regenerated from the JSON this way."""
    return _markdown(table, data["scale"], data["rows"], data["evaluation"])


def _sweep_and_cell(path: str) -> str:
    """``000-table3-cpu/cells/joint`` for a donor cell's path: the sweep folder's name and the cell."""
    parts = Path(path).parts
    return "/".join(parts[-3:])


def _xsr_text(ev: dict[str, Any]) -> str:
    if ev.get("xsr") == "none" or not ev.get("test_files"):
        return ""
    cap = ev.get("max_test_pairs")
    files = ", ".join(Path(f).parent.name or Path(f).name for f in ev.get("test_files", []))
    return (
        f"XSR P@1 x 100 (square protocol: every test sentence against all test sentences of its language "
        f"pair, cosine) on held-out test pairs of {files}"
        + (f", at most {cap:,} pairs per file (seeded)" if cap else "")
        + "."
    )


def _pooled_text(pooled: dict[str, Any]) -> str:
    pool = f"a pool of {pooled['pool']:,}" if pooled.get("pool") else "a pool of every candidate"
    where = ", ".join(Path(f).name for f in pooled.get("distractors", [])) or "none"
    return (
        f" Pooled XSR (paper 000's Table 4 protocol): P@1 x 100 of {pooled['queries']:,} seeded queries per "
        f"test file and direction ({', '.join(pooled['directions'])}) against {pool} sentences (their "
        f"translations, the file's other sentences, then distractors from {where}), {pooled['method']} "
        "scoring."
    )


def _efficiency_text(eff: dict[str, Any]) -> str:
    threads = eff.get("threads")
    texts = Path(eff["texts"])
    return (
        " Efficiency: each model in a fresh process ("
        + (f"{threads} thread{'s' if threads != 1 else ''}" if threads else "every core")
        + f"), {eff['single_runs']:,} batch-1 calls on the first {eff['max_texts']:,} sentences of "
        f"{texts.parent.name}/{texts.name}: median and quartiles of wall-clock time and of the process's CPU "
        "time; energy only where a RAPL counter is readable."
    )


def _ir_text(ir: dict[str, Any]) -> str:
    data = Path(ir["data"])
    queries = [data.name, *(Path(q).name for q in ir.get("queries", []))]
    cap = f"at most {ir['max_queries']:,} seeded" if ir.get("max_queries") else "all judged"
    return (
        f" Retrieval (paper 002's Table 2 measures): MRR@10, NDCG@10 and MAP@100 of {cap} queries per folder "
        f"({', '.join(queries)}) against the corpus of {data.parent.name}/{data.name}, cosine ranking."
    )


def _evaluation_text(table: TableSpec, output: Path) -> str:
    for cell in table.cells:
        result = read_result(output / "cells" / cell.name)
        if result is not None:
            ev = result.get("evaluation", {})
            text = _xsr_text(ev)
            if ev.get("classify"):
                sets = ", ".join(Path(f).name for f in ev["classify"])
                directions = ev.get("classify_directions")
                shown = f"; {', '.join(directions)}" if directions else ""
                text += f" Classification: accuracy x 100 ({ev.get('classify_protocol')}{shown}) on {sets}."
            if ev.get("sts"):
                files = ", ".join(f"{Path(f).parent.name}/{Path(f).name}" for f in ev["sts"])
                text += f" STS: Spearman x 100 of cosine against the gold scores on {files}."
            if ev.get("pooled"):
                text += _pooled_text(ev["pooled"])
            if ev.get("ir"):
                text += _ir_text(ev["ir"])
            if ev.get("efficiency"):
                text += _efficiency_text(ev["efficiency"])
            return text.strip() or "no measure configured."
    return "no cell is finished yet."


def _plot(table: TableSpec, scale: str, rows: list[dict[str, Any]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    columns = [c for c in table.columns if c.metric is not None]
    ncols = min(4, max(len(columns), 1))
    nrows = max(1, -(-len(columns) // ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.6 * ncols, 2.9 * nrows), squeeze=False)
    x = np.arange(len(rows))
    for ax, column in zip(axes.flat, columns, strict=False):
        ours = [np.nan if (v := r["ours"].get(column.key)) is None else v for r in rows]
        paper = [np.nan if (v := r["paper"].get(column.key)) is None else v for r in rows]
        if _has_paper(table, column):
            ax.bar(x - 0.2, ours, 0.4, label="ours", color="C0")
            ax.bar(x + 0.2, paper, 0.4, label="paper", color="C1")
        else:
            ax.bar(x, ours, 0.5, label="ours", color="C0")
        ax.set_xticks(x, [r["label"] for r in rows], rotation=30, ha="right", fontsize=7)
        ax.set_title(column.label, fontsize=9)
    for ax in list(axes.flat)[len(columns) :]:
        ax.axis("off")
    axes[0, 0].legend(fontsize=7)
    fig.suptitle(f"{table.name}: {table.title} (scale {scale})", fontsize=10)
    fig.tight_layout()
    write_figure(path, fig)


def render_table(table: TableSpec, scale: str, output: str | Path) -> dict[str, Path]:
    """Write ``table.md``, ``table.json`` and ``table.png`` into ``output`` from its finished cells."""
    output = Path(output)
    rows = table_rows(table, output)
    evaluation = _evaluation_text(table, output)
    paths = {"markdown": output / "table.md", "json": output / "table.json", "png": output / "table.png"}
    write_text(paths["markdown"], _markdown(table, scale, rows, evaluation))
    write_json(
        paths["json"],
        {
            "table": table.name,
            "title": table.title,
            "source": table.source,
            "scale": scale,
            "scale_note": table.scale(scale).note,
            "evaluation": evaluation,
            "columns": [
                {"key": c.key, "label": c.label, "metric": c.metric, "percent": c.percent}
                for c in table.columns
            ],
            "rows": rows,
        },
    )
    _plot(table, scale, rows, paths["png"])
    return paths
