"""The Languages page's generated regions: the supported languages (from ``lingualite.text.languages``, the one list)
and the per-pair results of the shipped models (from ``benchmarks/results/language_table.json``)."""

from __future__ import annotations

import json
from pathlib import Path

from tools.docsgen.markdown import source_line, table
from tools.docsgen.results_languages import language_table

SOURCE = "benchmarks/results/language_table.json"


def registry() -> str:
    from lingualite.text.languages import CORE, LANGUAGES

    head = ["code", "language", "scripts", "segmentation", "papers", "teacher", "default (`CORE`)"]
    body = [
        [
            code,
            row.name,
            ", ".join(row.scripts),
            row.segmentation,
            ", ".join(row.papers) or "beyond the papers",
            "USE-m, e5-small" if row.teacher == "use-m" else "e5-small only",
            "yes" if code in CORE else "no",
        ]
        for code, row in LANGUAGES.items()
    ]
    return "\n".join(table(head, body)) + "\n"


def results(root: Path) -> str:
    if not (root / SOURCE).exists():  # the table appears here once the benchmark has written its JSON
        return f"No per-language results recorded yet (`{SOURCE}` is written by `benchmarks/language_table.py`).\n"
    data = json.loads((root / SOURCE).read_text(encoding="utf-8"))
    return "\n".join([*language_table(data), "", source_line(SOURCE, data.get("command"))]) + "\n"
