"""The generated parts of the documentation, all written by one command::

    python -m tools.docsgen           # regenerate every generated page and region
    python -m tools.docsgen --check   # exit 1 and name the pages that are stale against their sources

Generated: the CLI reference (from the typer app), the Python API pages (mkdocstrings directives from the
packages' ``__all__``), the config reference (from the typed config classes), the results pages (from
``benchmarks/results/*.json``), the reproduction pages (from ``docs/reproduction/*.json``) and the headline
table in README.md and the docs' home page (between ``<!-- generated:headline ... -->`` markers).
``tests/test_docs.py`` fails when any of them is stale. Run it from the repository's root with this checkout's
``lingualite`` importable (its editable install, or ``PYTHONPATH=src``).
"""

from __future__ import annotations

from tools.docsgen.pages import ROOT, generated_pages, stale_pages, write_pages

__all__ = ["ROOT", "generated_pages", "stale_pages", "write_pages"]
