"""RAPL package counters (paper 002's energy measure): packages summed, wrap-around, unreadable -> None."""

from __future__ import annotations

from pathlib import Path

import pytest

from lingualite.evaluation.power import open_rapl


def _zone(root: Path, name: str, value: int, top: int = 1000) -> Path:
    zone = root / name
    zone.mkdir(parents=True)
    (zone / "energy_uj").write_text(f"{value}\n")
    (zone / "max_energy_range_uj").write_text(f"{top}\n")
    return zone


def test_packages_are_summed_and_a_wrap_is_counted(tmp_path: Path) -> None:
    first = _zone(tmp_path, "intel-rapl:0", 900)
    second = _zone(tmp_path, "intel-rapl:1", 100)
    _zone(tmp_path, "intel-rapl:0:0", 5)  # a sub-zone (core): already inside its package
    counter = open_rapl(tmp_path)
    assert counter is not None and [z.name for z in counter.zones] == ["intel-rapl:0", "intel-rapl:1"]
    before = counter.read()
    (first / "energy_uj").write_text("100\n")  # wrapped at 1000: +200 uJ
    (second / "energy_uj").write_text("400\n")  # +300 uJ
    assert counter.joules_since(before) == pytest.approx(500e-6)


def test_no_readable_counter_is_none(tmp_path: Path) -> None:
    assert open_rapl(tmp_path / "missing") is None
    assert open_rapl(tmp_path) is None  # a folder without package zones
    zone = _zone(tmp_path, "intel-rapl:0", 1)
    (zone / "energy_uj").write_text("not a number\n")
    assert open_rapl(tmp_path) is None
