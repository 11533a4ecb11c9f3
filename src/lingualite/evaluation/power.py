"""Energy counters for per-call measurements (paper 002, Sec. 6.2 and Table 3: energy of 1,000 batch-1 runs,
measured with pyJoules, which reads the same RAPL counters).

Linux exposes RAPL (Intel, and AMD on recent kernels) under ``/sys/class/powercap/<zone>/energy_uj``: a
micro-joule counter per CPU package that wraps at ``max_energy_range_uj``. :class:`RaplCounter` sums the
package zones (``intel-rapl:0``, ``intel-rapl:1``, ...; not their sub-zones, which the packages include). The
counters are package-wide (every process on the package counts) and, on most kernels, readable by root only;
where none is readable (virtual machines, containers) energy is *not measurable* and :func:`open_rapl`
returns None: callers report that instead of a number.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["POWERCAP", "RaplCounter", "open_rapl"]

POWERCAP = Path("/sys/class/powercap")
_PACKAGE = re.compile(r"^intel-rapl:\d+$")


class RaplCounter:
    """The summed energy counters of the CPU packages (micro-joules), with wrap-around handled."""

    def __init__(self, zones: list[Path]) -> None:
        self.zones = zones
        self.ranges = [int((z / "max_energy_range_uj").read_text()) for z in zones]

    def read(self) -> list[int]:
        """The current counter of each package."""
        return [int((z / "energy_uj").read_text()) for z in self.zones]

    def joules_since(self, before: list[int]) -> float:
        """Energy (J) used by the packages since ``before`` (:meth:`read`); one wrap per zone at most."""
        total = 0
        for start, end, top in zip(before, self.read(), self.ranges, strict=True):
            total += end - start if end >= start else end + top - start
        return total / 1e6


def open_rapl(root: str | Path = POWERCAP) -> RaplCounter | None:
    """A counter over the package zones under ``root``, or None when there is none, or one is unreadable."""
    root = Path(root)
    try:
        zones = sorted(z for z in root.iterdir() if _PACKAGE.match(z.name))
        if not zones:
            return None
        counter = RaplCounter(zones)
        counter.read()
    except (OSError, ValueError):
        return None
    return counter
