"""Fixtures of the search tests: two tiny static models (see search_helpers)."""

from __future__ import annotations

import pytest
from search_helpers import make_static_model


@pytest.fixture(scope="session")
def static_model(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"static:{make_static_model(tmp_path_factory.mktemp('search-model') / 'tiny')}"


@pytest.fixture(scope="session")
def other_model(tmp_path_factory: pytest.TempPathFactory) -> str:
    return f"static:{make_static_model(tmp_path_factory.mktemp('search-model') / 'other', seed=1)}"
