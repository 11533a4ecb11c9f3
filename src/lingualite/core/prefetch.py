"""Work done one step ahead in a background thread, so that a GPU does not wait for the host.

- :func:`prefetched`: ``make(item)`` for each item of a sequence, the next one computed while the caller
  uses the current one (the encoders tokenise batch i+1 while the GPU runs batch i; the Rust tokenizer
  releases the GIL, so the two really overlap).
- :class:`StepPrefetcher`: the batch of training step s+1 built while step s runs. The recipes build a
  step's batch as a pure function of the seed and the step, so a batch built ahead is the batch the step
  would have built itself; a step asked for out of order (the first one, a resume) is built in place.
- :func:`pinned`: tensors moved to page-locked memory, so the copy to the GPU can overlap (``non_blocking``).

Both are off on a CPU (``enabled=False``): there the thread would only compete for the same cores, and the
order of work (and so every result) stays exactly as it was.
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Generic, TypeVar

__all__ = ["StepPrefetcher", "pinned", "prefetched"]

T = TypeVar("T")
R = TypeVar("R")


def prefetched(make: Callable[[T], R], items: Iterable[T], enabled: bool = True) -> Iterator[R]:
    """``make(item)`` for every item, in order; with ``enabled``, each computed in one background thread
    while the caller still works on the previous result (at most two results exist at a time)."""
    if not enabled:
        yield from map(make, items)
        return
    with ThreadPoolExecutor(1, thread_name_prefix="lingualite-prefetch") as pool:
        pending: deque[Future[R]] = deque()
        for item in items:
            pending.append(pool.submit(make, item))
            if len(pending) > 1:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


class StepPrefetcher(Generic[R]):
    """``prefetcher(step)`` returns ``make(step)``, built ahead in a background thread when ``enabled``.

    Use as a context manager around the stage (the thread ends with it)."""

    def __init__(self, make: Callable[[int], R], enabled: bool) -> None:
        self.make = make
        self._pool = ThreadPoolExecutor(1, thread_name_prefix="lingualite-batches") if enabled else None
        self._ahead: tuple[int, Future[R]] | None = None

    def __call__(self, step: int) -> R:
        if self._pool is None:
            return self.make(step)
        ahead, self._ahead = self._ahead, None
        batch = ahead[1].result() if ahead is not None and ahead[0] == step else self.make(step)
        self._ahead = (step + 1, self._pool.submit(self.make, step + 1))
        return batch

    def close(self) -> None:
        if self._pool is not None:
            if self._ahead is not None:
                self._ahead[1].cancel()
            self._pool.shutdown(wait=True)
            self._pool, self._ahead = None, None

    def __enter__(self) -> StepPrefetcher[R]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def pinned(value: Any) -> Any:
    """``value`` with every tensor in page-locked memory (tensors, tuples/lists of them, dataclasses of
    tensors such as :class:`lingualite.models.batch.PairBatch`); anything else as it is."""
    import torch

    if isinstance(value, torch.Tensor):
        return value.pin_memory()
    if isinstance(value, tuple | list):
        return type(value)(pinned(v) for v in value)
    if isinstance(value, dict):
        return {k: pinned(v) for k, v in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.replace(
            value, **{f.name: pinned(getattr(value, f.name)) for f in dataclasses.fields(value)}
        )
    return value
