"""The length-based Gale & Church baseline on hand-made documents."""

from __future__ import annotations

import random

import pytest

from lingualite.alignment import GaleChurchConfig, align_lengths, gale_church_align


def _shapes(alignment) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    return [(s, t) for s, t, _ in alignment]


def test_hand_made_lengths() -> None:
    # 1-1, 1-2 (200 -> 95 + 110), 2-1 (40 + 60 -> 98), 1-1
    got = align_lengths([100, 50, 200, 40, 60, 30], [103, 48, 95, 110, 98, 31])
    assert _shapes(got) == [
        ((0,), (0,)),
        ((1,), (1,)),
        ((2,), (2, 3)),
        ((3, 4), (4,)),
        ((5,), (5,)),
    ]
    assert all(0.0 < score <= 1.0 for _, _, score in got)


def test_two_to_two_only_when_asked() -> None:
    src, tgt = [100, 100, 40], [20, 180, 40]
    assert _shapes(align_lengths(src, tgt, GaleChurchConfig(many_to_many=True)))[0] == ((0, 1), (0, 1))
    assert all(len(s) < 2 or len(t) < 2 for s, t in _shapes(align_lengths(src, tgt)))


def test_texts_are_measured_without_spaces() -> None:
    src = ["a b c d e f g h i j", "klmnopqrstuvwxyz" * 4]
    tgt = ["abcdefghij", "klmnopqrstuvwxyz" * 2, "klmnopqrstuvwxyz" * 2]
    assert _shapes(gale_church_align(src, tgt)) == [((0,), (0,)), ((1,), (1, 2))]


def test_long_documents_use_a_band_with_the_same_result() -> None:
    rng = random.Random(0)
    src = [rng.randint(20, 200) for _ in range(400)]
    tgt = [max(1, int(x * rng.uniform(0.9, 1.1))) for x in src]
    full = align_lengths(src, tgt)
    banded = align_lengths(src, tgt, GaleChurchConfig(exact_cells=1000, window=20))
    assert _shapes(banded) == _shapes(full)
    assert sum(1 for s, t in _shapes(full) if len(s) == len(t) == 1) >= 390


@pytest.mark.parametrize("src,tgt", [([], [5, 6]), ([5], [])])
def test_an_empty_side_is_all_skips(src: list[int], tgt: list[int]) -> None:
    got = _shapes(align_lengths(src, tgt))
    assert len(got) == len(src) + len(tgt) and all(not s or not t for s, t in got)
