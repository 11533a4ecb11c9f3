"""Facts about the machine this process runs on, for modules at every level (encoders, runtime, evaluation)."""

from __future__ import annotations

import os

__all__ = ["available_cpus"]


def available_cpus() -> int:
    """CPU cores this process may run on (its affinity mask), not the machine's core count."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1
