"""Work one step ahead in a background thread (lingualite.core.prefetch): same results, in order, built ahead."""

from __future__ import annotations

import dataclasses
import threading

import pytest
import torch

from lingualite.core.prefetch import StepPrefetcher, pinned, prefetched


def test_prefetched_gives_every_result_in_order_from_another_thread() -> None:
    threads: set[str] = set()

    def make(x: int) -> int:
        threads.add(threading.current_thread().name)
        return x * x

    assert (
        list(prefetched(make, range(7)))
        == list(prefetched(make, range(7), enabled=False))
        == [x * x for x in range(7)]
    )
    assert any(name.startswith("lingualite-prefetch") for name in threads)
    assert list(prefetched(make, [])) == []


def test_a_failure_in_the_thread_reaches_the_caller() -> None:
    def make(x: int) -> int:
        if x == 2:
            raise ValueError("bad item 2")
        return x

    with pytest.raises(ValueError, match="bad item 2"):
        list(prefetched(make, range(5)))


def test_step_prefetcher_builds_the_next_step_ahead_and_any_other_step_in_place() -> None:
    built: list[tuple[int, str]] = []

    def make(step: int) -> int:
        built.append((step, threading.current_thread().name))
        return 10 * step

    with StepPrefetcher(make, enabled=True) as batch_of:
        assert [batch_of(s) for s in (3, 4, 5)] == [30, 40, 50]  # a resume starts at step 3
        assert batch_of(9) == 90  # out of order: built in place, not the stale step 6
    ahead = {step for step, thread in built if thread.startswith("lingualite-batches")}
    assert {4, 5} <= ahead and (3, threading.current_thread().name) in built
    with StepPrefetcher(make, enabled=False) as in_place:
        assert in_place(2) == 20


def test_pinned_reaches_every_tensor_of_a_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(torch.Tensor, "pin_memory", lambda self: self + 1)  # pinning needs a GPU: mark it

    @dataclasses.dataclass
    class Batch:
        ids: torch.Tensor
        rows: torch.Tensor

    out = pinned((Batch(torch.zeros(2), torch.ones(1)), [torch.zeros(1)], {"m": torch.zeros(1)}, "label"))
    assert out[0].ids.tolist() == [1, 1] and out[0].rows.tolist() == [2]
    assert out[1][0].tolist() == [1] and out[2]["m"].tolist() == [1] and out[3] == "label"
