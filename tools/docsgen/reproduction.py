"""The reproduction pages (``docs/reproduction/*.md``), regenerated from the ``table.json`` files beside them by
the same renderers ``lingualite reproduce`` uses, with the table's current YAML (its header, columns and the
paper's numbers). ``lingualite reproduce`` writes ``table.{md,json,png}`` into its output folder; copy the
JSON (and the plot) here as ``docs/reproduction/TABLE.json`` and run ``python -m tools.docsgen``."""

from __future__ import annotations

import json
from pathlib import Path

from tools.docsgen.markdown import banner

FOLDER = "docs/reproduction"


def render(path: Path) -> str:
    from lingualite.reproduce.render import table_markdown
    from lingualite.reproduce.studies import study_markdown
    from lingualite.reproduce.study_spec import is_study, load_study
    from lingualite.reproduce.table import load_table

    data = json.loads(path.read_text(encoding="utf-8"))
    name = data["table"]
    text = (
        study_markdown(load_study(name), data) if is_study(name) else table_markdown(load_table(name), data)
    )
    return banner(f"`{FOLDER}/{path.name}` (a `lingualite reproduce {name}` run)") + "\n\n" + text


def pages(root: Path) -> dict[str, str]:
    return {f"{FOLDER}/{p.stem}.md": render(p) for p in sorted((root / FOLDER).glob("*.json"))}
