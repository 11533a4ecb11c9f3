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
from doc_blocks import ROOT, env, make_world, port_problems, run_blocks, runnable

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


ALL_PAGES = ["README.md"] + sorted(
    p.relative_to(ROOT).as_posix() for p in DOCS.rglob("*.md") if "incoming" not in p.parts
)


@pytest.mark.parametrize("page", ALL_PAGES)
def test_every_call_goes_to_the_port_its_server_example_starts(page: str) -> None:
    """Shown (console) blocks included: a page that starts a server on one port and calls another fails."""
    assert port_problems((ROOT / page).read_text(encoding="utf-8")) == []


def test_a_port_mismatch_is_caught() -> None:
    """The README's serve example once started the default port (8000) and called 8765."""
    page = (
        "```console\nlingualite serve --model use-m --index my-index\n"
        "curl -s localhost:8765/search -d '{}'\n```\n"
    )
    assert port_problems(page) == [
        "calls port 8765, but the server example starts 8000: curl -s localhost:8765/search -d '{}'"
    ]
    assert port_problems(page.replace("my-index\n", "my-index --port 8765\n")) == []
    later = "```bash\nlingualite serve --model m --port 8765\n```\n```python\nurl = 'http://127.0.0.1:8765/v1'\n```\n"
    assert port_problems(later) == []  # a block that starts none calls the page's earlier server
    assert port_problems(later.replace("'http://127.0.0.1:8765", "'http://127.0.0.1:9000")) != []


def test_a_foreground_server_example_is_started_and_called(tmp_path: Path) -> None:
    """As a user runs it: the server line in one terminal (the runner backgrounds it and stops it after the
    page), the call in another."""
    pytest.importorskip("fastapi")
    page = (
        "```bash\nlingualite serve --model lingualite-static --port 8765\n```\n"
        "```bash\ncurl -sf localhost:8765/health -o health.json\n```\n"
    )
    assert run_blocks(page, tmp_path) == 2
    assert json.loads((tmp_path / "health.json").read_text())["model"]


# Pages for users say what is, not what changed; the dated research notes, the generated results and
# reproduction tables and the generated reference are not user pages in that sense.
USER_PAGES = ["README.md"] + sorted(
    p.relative_to(ROOT).as_posix()
    for p in DOCS.rglob("*.md")
    if not {"incoming", "research", "results", "reproduction", "reference"} & set(p.parts)
)
CHANGELOG = re.compile(
    r"\bnow\b|\bChange:|\bBefore,|\bno longer\b|\bas before\b|\bused to (?:write|be|show|print|return)\b",
    flags=re.I,
)


@pytest.mark.parametrize("page", USER_PAGES)
def test_a_user_page_says_what_is_not_what_changed(page: str) -> None:
    text = re.sub(r"^```.*?^```", "", (ROOT / page).read_text(encoding="utf-8"), flags=re.S | re.M)
    text = re.sub(r"`[^`\n]*`", "", text)  # quoted messages and commands
    found = [m.group(0) for m in CHANGELOG.finditer(text)]
    assert found == [], f"{page}: changelog words {found}"


def _labels(nav: list) -> list[str]:
    found = []
    for entry in nav:
        if isinstance(entry, dict):
            for label, value in entry.items():
                found.append(label)
                if isinstance(value, list):
                    found += _labels(value)
    return found


def _pages(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [p for v in value for p in _pages(v)]
    if isinstance(value, dict):
        return [p for v in value.values() for p in _pages(v)]
    return []


def test_the_menu_is_short_and_research_sits_under_one_entry() -> None:
    import yaml

    nav = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))["nav"]
    assert len(nav) <= 8, [next(iter(e)) for e in nav]
    labels = [label.casefold() for label in _labels(nav)]
    assert sorted({x for x in labels if labels.count(x) > 1}) == []  # "Mining and alignment" once, ...
    research = [
        next(iter(e))
        for e in nav
        if any(
            p.split("/")[0] in ("research", "results", "reproduction") or p == "reproduction.md"
            for p in _pages(e)
        )
    ]
    assert len(research) == 1, research


def test_the_distillation_teacher_is_the_one_the_config_names() -> None:
    from lingualite.config import load_config

    assert load_config("distill").teacher.name == "use-m"
    page = (DOCS / "training" / "distillation.md").read_text(encoding="utf-8")
    assert "the default teacher is the multilingual Universal Sentence Encoder, USE-m" in page
    assert "| `distill` (default) | USE-m" in page
    for path in [ROOT / "README.md", *DOCS.glob("*.md")]:
        assert "default teacher)" not in path.read_text(encoding="utf-8"), path
