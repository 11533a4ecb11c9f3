"""Every generated page and region, and the check that they are up to date with their sources."""

from __future__ import annotations

from pathlib import Path

from tools.docsgen import (
    api_reference,
    cli_reference,
    config_reference,
    headline,
    languages,
    reproduction,
    results,
)
from tools.docsgen.markdown import region_names, replace_regions

ROOT = Path(__file__).resolve().parents[2]
# Folders whose every Markdown file is generated: a file there that no generator writes is stale too.
GENERATED_FOLDERS = ("docs/results", "docs/reference", "docs/reproduction")


def _marked_files(root: Path) -> list[Path]:
    """README.md and the hand-written docs pages that hold generated regions."""
    candidates = [root / "README.md", *sorted((root / "docs").rglob("*.md"))]
    return [
        p for p in candidates if "incoming" not in p.parts and region_names(p.read_text(encoding="utf-8"))
    ]


def generated_pages(root: Path = ROOT) -> dict[str, str]:
    """Path (relative to ``root``) -> the text the file must have."""
    pages: dict[str, str] = {}
    pages.update(cli_reference.pages())
    pages.update(config_reference.pages())
    pages.update(api_reference.pages())
    pages.update(results.pages(root))
    pages.update(reproduction.pages(root))
    regions = {
        "headline": headline.render(root),
        "languages": languages.registry(),
        "language-table": languages.results(root),
    }
    for path in _marked_files(root):
        pages[path.relative_to(root).as_posix()] = replace_regions(path.read_text(encoding="utf-8"), regions)
    return pages


def stale_pages(root: Path = ROOT, pages: dict[str, str] | None = None) -> list[str]:
    """Generated files that differ from what their sources give, are missing, or have no source any more."""
    pages = generated_pages(root) if pages is None else pages
    stale = [
        p
        for p, text in pages.items()
        if not (root / p).exists() or (root / p).read_text(encoding="utf-8") != text
    ]
    for folder in GENERATED_FOLDERS:
        stale += [
            p.relative_to(root).as_posix()
            for p in sorted((root / folder).rglob("*.md"))
            if p.relative_to(root).as_posix() not in pages
        ]
    problems = [f"{p} (no page renders it)" for p in results.unclaimed(root)]
    return sorted(stale) + problems


def write_pages(root: Path = ROOT) -> list[str]:
    """Write every generated page that changed; remove generated files that have no source. Returns the paths."""
    pages = generated_pages(root)
    changed = []
    for rel, text in pages.items():
        path = root / rel
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            changed.append(rel)
    for folder in GENERATED_FOLDERS:
        for path in sorted((root / folder).rglob("*.md")):
            if path.relative_to(root).as_posix() not in pages:
                path.unlink()
                changed.append(path.relative_to(root).as_posix())
    return changed


__all__ = ["ROOT", "generated_pages", "stale_pages", "write_pages"]
