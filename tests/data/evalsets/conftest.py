"""Fixtures for the evaluation-set tests: tiny synthetic packages built in code (see evalset_fixtures)."""

from __future__ import annotations

from pathlib import Path

import pytest
from evalset_fixtures import HELP, make_apt_lists, make_bible_db, make_gensim_wheel, make_help_tree

from lingualite.data.sources.libreoffice import PACKAGES


@pytest.fixture
def help_root(tmp_path: Path) -> Path:
    return make_help_tree(tmp_path / "help")


@pytest.fixture
def bible_db(tmp_path: Path) -> Path:
    return make_bible_db(tmp_path / "bible" / "bible.db")


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    """A cache folder as ``fetch_eval_sets`` expects it, with every source already "downloaded"."""
    root = tmp_path / "cache"
    make_help_tree(root / "libreoffice" / "root" / HELP)
    for pkg in PACKAGES.values():
        (root / "libreoffice" / "root" / f".unpacked-{pkg}").write_text("x\n", encoding="utf-8")
    make_bible_db(root / "bible" / "bible.db")
    make_gensim_wheel(root / "lee")
    make_apt_lists(root / "ddtp-sections")
    return root
