"""The documentation site stays true: the generated pages match their sources (the code, the benchmarks' JSON),
``mkdocs build --strict`` passes offline with no external asset, and every page's examples run.

Pages' examples run with the machinery and conventions of :mod:`doc_blocks` (``bash`` and ``python`` blocks
run, ``console`` blocks are shown), each page in a scratch directory of its own with tiny data.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from doc_blocks import ROOT, env, make_world, run_blocks, runnable

sys.path.insert(0, str(ROOT))  # tools/ is dev tooling at the repository's root, not an installed package

from tools.docsgen import __main__ as docsgen_cli  # noqa: E402
from tools.docsgen import config_reference, results, stale_pages, write_pages  # noqa: E402

pytestmark = pytest.mark.slow  # builds the site and runs every page's examples: left out of the fast tier

DOCS = ROOT / "docs"
PAGES = sorted(
    p.relative_to(ROOT).as_posix()
    for p in DOCS.rglob("*.md")
    if "incoming" not in p.parts and runnable(p.read_text(encoding="utf-8"))
)
# An asset the browser fetches: scripts, stylesheets, icons, images, frames (links to other sites are fine).
EXTERNAL_ASSET = re.compile(
    r"<(?:script|img|iframe|source)[^>]*\ssrc=\"https?://|<link[^>]*\shref=\"https?://"
)


def test_generated_pages_are_current() -> None:
    assert stale_pages(ROOT) == [], "run `python -m tools.docsgen`"


def _copy_sources(tmp: Path) -> Path:
    """The files the generators read from a repository (the rest comes from the installed package)."""
    shutil.copytree(ROOT / "benchmarks" / "results", tmp / "benchmarks" / "results")
    shutil.copytree(DOCS, tmp / "docs", ignore=shutil.ignore_patterns("*.png", "assets"))
    shutil.copy(ROOT / "README.md", tmp / "README.md")
    return tmp


def test_a_stale_page_is_caught_and_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _copy_sources(tmp_path)
    source = root / "benchmarks" / "results" / "encode_speed.json"
    data = json.loads(source.read_text())
    next(r for r in data["rows"] if r["label"] == "use-m")["sentences_per_second"] += 1000
    source.write_text(json.dumps(data))
    (root / "docs" / "reproduction" / "000-table5.md").write_text("# edited by hand\n")
    assert docsgen_cli.main(["--check", "--root", str(root)]) == 1
    named = capsys.readouterr().err
    for page in (
        "docs/results/speed.md",
        "docs/results/index.md",
        "README.md",
        "docs/reproduction/000-table5.md",
    ):
        assert f"stale: {page}" in named
    write_pages(root)
    assert stale_pages(root) == []


def test_every_benchmark_json_is_on_a_results_page() -> None:
    assert results.unclaimed(ROOT) == []


def test_every_config_key_says_what_it_means() -> None:
    assert config_reference.undocumented() == []


def test_the_cli_reference_has_every_command_and_no_type_noise() -> None:
    text = (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")
    for command in (
        "align",
        "data fetch",
        "distill",
        "encode",
        "eval xsr",
        "export",
        "index build",
        "mine",
        "prepare",
        "quickstart",
        "reproduce",
        "search",
        "serve",
        "tokenizer train",
        "train",
    ):
        assert f"## `lingualite {command}`" in text
    assert "<bool>" not in text and "| `--max-steps` | integer, ≥ 1 |" in text


def test_the_site_builds_strict_and_offline(tmp_path: Path) -> None:
    pytest.importorskip("mkdocs")
    pytest.importorskip("material")
    pytest.importorskip("mkdocstrings_handlers.python")
    site = tmp_path / "site"
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "mkdocs",
            "build",
            "--strict",
            "--site-dir",
            str(site),
            "-f",
            str(ROOT / "mkdocs.yml"),
        ],
        cwd=ROOT,
        env={**env(), "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "WARNING" not in proc.stderr, proc.stderr[-3000:]
    pages = list(site.rglob("*.html"))
    assert len(pages) > 50 and (site / "reference" / "api" / "search.html").exists()
    assert "SearchIndex" in (site / "reference" / "api" / "search.html").read_text(encoding="utf-8")
    external = [
        p.relative_to(site).as_posix() for p in pages if EXTERNAL_ASSET.search(p.read_text(encoding="utf-8"))
    ]
    assert external == []
    assert not (site / "incoming").exists()


@pytest.mark.parametrize("page", PAGES)
def test_the_page_examples_run(page: str, tmp_path: Path) -> None:
    make_world(tmp_path)
    assert run_blocks((ROOT / page).read_text(encoding="utf-8"), tmp_path) > 0
