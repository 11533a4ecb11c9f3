"""The lazy top-level API: every advertised name resolves, and ``import lingualite`` stays light."""

from __future__ import annotations

import subprocess
import sys

import lingualite


def test_every_api_name_resolves() -> None:
    for name in lingualite.__all__:
        assert getattr(lingualite, name) is not None


def test_import_does_not_load_torch() -> None:
    code = "import sys, lingualite; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_api_names_are_the_functions_even_after_their_packages_are_imported() -> None:
    code = (
        "import lingualite.distill.train, lingualite.evaluation.report, lingualite; "
        "print(callable(lingualite.distill), type(lingualite.distill).__name__, 'distill' in dir(lingualite))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "function", "True"]


def test_type_checkers_see_every_lazy_name() -> None:
    """The ``if TYPE_CHECKING:`` imports of ``lingualite/__init__.py`` name exactly the lazy API, from the
    modules the lazy table loads them from."""
    import ast
    from pathlib import Path

    tree = ast.parse(Path(lingualite.__file__).read_text(encoding="utf-8"))
    block = next(n for n in tree.body if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test))
    seen = {a.name: n.module for n in block.body if isinstance(n, ast.ImportFrom) for a in n.names}
    assert seen == lingualite._API
    assert set(lingualite.__all__) == {*lingualite._API, "__version__"}
