"""The monolingual tests run tiny models on one thread; their documents come from ``document_files``
(tests/conftest.py)."""

from __future__ import annotations

import pytest
import torch


@pytest.fixture(autouse=True)
def one_thread():
    """Tiny models run fastest on one thread (and do not collapse when other processes share the cores)."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)
