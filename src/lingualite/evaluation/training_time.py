"""Training time of a run (any recipe): seconds per 10,000 optimizer steps, from the run's own log
(:class:`lingualite.models.run_folder.RunFolder`), for the efficiency table (paper 000, Table 5's "time per 10k
steps")."""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

from lingualite.models.run_folder import RunFolder

__all__ = ["training_time_per_10k_steps"]

_TIME_KEYS = ("elapsed_s", "elapsed", "time")
Point = tuple[int, float, bool]  # (step, clock, the record holds validation)


def _timed_points(records: list[dict[str, Any]]) -> tuple[str, dict[str | None, list[Point]]] | None:
    """Per stage (None for single-stage runs), the logged (step, clock, validated) points of the first clock
    key with at least two points."""
    for key in _TIME_KEYS:
        by_stage: dict[str | None, list[Point]] = {}
        for r in records:
            if isinstance(r.get(key), int | float) and isinstance(r.get("step"), int):
                point = (r["step"], float(r[key]), any(k.startswith("valid_") for k in r))
                by_stage.setdefault(r.get("stage"), []).append(point)
        if sum(len(points) for points in by_stage.values()) >= 2:
            return key, by_stage
    return None


def _checkpoint_points(run: RunFolder, stages: set[str | None]) -> dict[str | None, list[Point]]:
    by_stage: dict[str | None, list[Point]] = {}
    for stage in stages:
        for folder in run.checkpoints(stage):
            state = folder / "trainer_state.json"
            try:
                step = int(json.loads(state.read_text())["step"])
            except (OSError, ValueError, KeyError):
                continue
            by_stage.setdefault(stage, []).append((step, state.stat().st_mtime, False))
    return by_stage


def _intervals(points: list[Point], skip_first: bool) -> list[tuple[int, int, float, bool]]:
    """(first step, last step, seconds, ends with validation) of consecutive points; intervals that go
    backwards (a resumed run restarts its clock) are left out, and the first (start-up) when ``skip_first``."""
    found = [
        (s0, s1, t1 - t0, valid)
        for (s0, t0, _), (s1, t1, valid) in zip(points, points[1:], strict=False)
        if s1 > s0 and t1 > t0
    ]
    return found[1:] if skip_first and len(found) > 1 else found


def training_time_per_10k_steps(run_dir: str | Path) -> dict[str, Any] | None:
    """Seconds per 10,000 optimizer steps of a lingualite training run (any recipe), from a measured window.

    Timing source, in order: a per-record clock in the run's ``metrics.jsonl`` (``elapsed_s``, which every
    recipe logs; ``elapsed`` or ``time`` in older or foreign logs; only differences are used, so seconds since
    the start of the invocation and Unix time both work), else the modification times of the checkpoints'
    ``trainer_state.json`` (a window of ``save_every`` steps that includes validation and checkpoint writing;
    a copied run folder may have lost its times). Recipes with stages are timed within each stage.

    From a metrics clock, each pair of consecutive logged points gives a step time; the first interval of each
    stage (start-up, warm-up) and intervals that end with a validation record are left out, as are intervals
    that go backwards (a resumed run restarts its clock). ``seconds_per_10k_steps`` is 10,000 x the median step
    time; ``seconds_per_10k_steps_with_overheads`` is the total time over steps of all valid intervals after
    the first (validation included).

    :returns: None when the folder has no ``metrics.jsonl`` or no timing source; else ``seconds_per_10k_steps``,
        ``seconds_per_10k_steps_with_overheads``, ``median_seconds_per_step``, ``source``, ``window_steps``
        (first and last step of the intervals used), ``num_intervals``, ``last_step``.
    """
    run = RunFolder(run_dir)
    records = run.read_metrics()
    if not records:
        return None
    last_step = max(int(r.get("step", 0)) for r in records)
    timed = _timed_points(records)
    if timed is not None:
        source, by_stage = f"metrics.jsonl:{timed[0]}", timed[1]
    else:
        source = "checkpoint mtimes (includes validation and checkpoint writing)"
        by_stage = _checkpoint_points(run, {r.get("stage") for r in records})
    intervals = [iv for points in by_stage.values() for iv in _intervals(sorted(points), timed is not None)]
    if not intervals:
        return None
    clean = [iv for iv in intervals if not iv[3]] or intervals
    per_step = statistics.median(seconds / (s1 - s0) for s0, s1, seconds, _ in clean)
    steps = sum(s1 - s0 for s0, s1, _, _ in intervals)
    seconds = sum(sec for _, _, sec, _ in intervals)
    return {
        "seconds_per_10k_steps": per_step * 10_000,
        "seconds_per_10k_steps_with_overheads": seconds / steps * 10_000,
        "median_seconds_per_step": per_step,
        "source": source,
        "window_steps": [min(iv[0] for iv in intervals), max(iv[1] for iv in intervals)],
        "num_intervals": len(clean),
        "last_step": last_step,
    }
