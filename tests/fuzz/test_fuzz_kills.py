"""``kill -9`` at random moments of ``index build --overwrite`` replacing an index next to a user's files: the
index is the old or the new one complete, the user's files are untouched, and the next run cleans up. A few
kills here; ``benchmarks/crash_harness.py --scenarios index onnx-export`` runs many, export included."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # fuzzing campaign: left out of the fast tier

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def test_killed_index_builds_leave_the_old_or_the_new_index_and_no_user_file_touched(tmp_path: Path) -> None:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        from crash_replace import index_scenario, run_trials
    finally:
        sys.path.remove(str(BENCHMARKS))
    result = run_trials(index_scenario(tmp_path, documents=1000), tmp_path, 2, random.Random(33))
    assert result["failed_trials"] == 0, result["rows"]  # a run that ended before its kill is checked too
