"""The rich progress bar shared by long loops (training, distillation, teacher encoding)."""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator

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


@contextlib.contextmanager
def phase(label: str, enabled: bool) -> Iterator[None]:
    """A phase that is one library call (vocabulary training, tokenizing): no count to show, so a spinner
    with the elapsed time on a terminal, and plain ``label ...`` / ``label: 12 s`` lines on stderr otherwise
    (logs, CI). ``enabled=False`` prints nothing."""
    if not enabled:
        yield
        return
    t0 = time.perf_counter()
    if sys.stderr.isatty():
        from rich.console import Console

        with Console(stderr=True).status(f"{label} ..."):
            yield
    else:
        print(f"{label} ...", file=sys.stderr, flush=True)
        yield
    print(f"{label}: {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
