"""The rich progress bar shared by long loops (training, distillation, teacher encoding)."""

from __future__ import annotations

from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn


def progress_bar(label: str, enabled: bool, unit: str = "") -> Progress:
    """A bar ``label [####] done/total unit info elapsed remaining``; ``enabled=False`` draws nothing.

    Tasks added to it need an ``info`` field (a short metrics string, updated as the loop goes).
    """
    return Progress(
        TextColumn(f"[bold]{label}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}" + (f" {unit}" if unit else "")),
        TextColumn("{task.fields[info]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        disable=not enabled,
    )
