"""The one progress writer of long loops (training, distillation, preparing, encoding, mining, indexing): a
rich bar on a terminal, plain lines on stderr otherwise (nohup, CI logs: no carriage returns or control codes).

Every plain line has one shape, :func:`progress_line`: ``label: done/total unit info (elapsed s, ETA s)``."""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn


def progress_line(
    label: str,
    done: float,
    total: float | None,
    elapsed: float,
    unit: str = "",
    info: str = "",
    start: float = 0,
) -> str:
    """``label: done/total unit info (elapsed s, ETA s)``; no ETA without a total or before any progress
    (``start``: the count the run resumed from, which does not count towards the rate)."""
    count = f"{done:,.0f}/{total:,.0f}" if total else f"{done:,.0f}"
    rate = (done - start) / elapsed if elapsed > 0 else 0.0
    eta = f", ETA {(total - done) / rate:.0f} s" if total and rate > 0 else ""
    return f"{label}: {count}{f' {unit}' if unit else ''}{f' {info}' if info else ''} ({elapsed:.0f} s{eta})"


def print_progress(label: str, done: int, total: int | None, t0: float, unit: str = "") -> None:
    """Print :func:`progress_line` on stderr (``t0``: ``time.perf_counter()`` at the start)."""
    print(progress_line(label, done, total, time.perf_counter() - t0, unit), file=sys.stderr, flush=True)


def progress_bar(label: str, enabled: bool, unit: str = "") -> Any:
    """A bar ``label [####] done/total unit info elapsed remaining`` on a terminal; when stderr is not one, a
    :class:`PlainProgress` with the same calls that prints a line now and then; ``enabled=False``: nothing.

    Tasks added to it need an ``info`` field (a short metrics string, updated as the loop goes).
    """
    if enabled and not sys.stderr.isatty():
        return PlainProgress(label, unit)
    return Progress(
        TextColumn(f"[bold]{label}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}" + (f" {unit}" if unit else "")),
        TextColumn("{task.fields[info]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        disable=not enabled,
    )


class PlainProgress:
    """The calls of rich's ``Progress`` that the loops use (``add_task``, ``update``, ``advance``, ``with``),
    printed as ``label: done/total unit info (elapsed s, ETA s)`` lines on stderr: one at each tenth of the
    total and at least every ``every`` seconds, and the last when a task completes."""

    def __init__(self, label: str, unit: str = "", every: float = 60.0) -> None:
        self.label, self.unit, self.every = label, unit, every
        self.tasks: dict[int, dict[str, Any]] = {}

    def __enter__(self) -> PlainProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def add_task(
        self, description: str, total: float | None = None, completed: float = 0, **fields: Any
    ) -> int:
        now = time.perf_counter()
        task = {
            "total": total,
            "completed": completed,
            "start": completed,
            "t0": now,
            "shown": now,
            "tenth": 0,
        }
        self.tasks[len(self.tasks)] = {**task, "fields": fields}
        return len(self.tasks) - 1

    def advance(self, task: int, advance: float = 1) -> None:
        self.update(task, advance=advance)

    def update(
        self, task: int, completed: float | None = None, advance: float | None = None, **fields: Any
    ) -> None:
        state = self.tasks[task]
        if "total" in fields:
            state["total"] = fields.pop("total")
        fields.pop("description", None)
        state["fields"].update(fields)
        state["completed"] = completed if completed is not None else state["completed"] + (advance or 0)
        total, now = state["total"], time.perf_counter()
        tenth = int(10 * state["completed"] / total) if total else 0
        if (
            tenth > state["tenth"]
            or now - state["shown"] >= self.every
            or (total and state["completed"] >= total)
        ):
            if state.get("done"):
                return
            state["tenth"], state["shown"], state["done"] = (
                tenth,
                now,
                bool(total and state["completed"] >= total),
            )
            print(self._line(state, now), file=sys.stderr, flush=True)

    def _line(self, state: dict[str, Any], now: float) -> str:
        info = state["fields"].get("info") or ""
        return progress_line(
            self.label, state["completed"], state["total"], now - state["t0"], self.unit, info, state["start"]
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


class LinePrinter:
    """A console's one method that the data preparation calls (``print``), sent as plain lines to ``say``."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self.say = say

    def print(self, text: object) -> None:
        self.say(str(text))
