"""The Python API reference: pages of mkdocstrings directives (``::: lingualite...``), which render the
docstrings at build time. The list of names is read from the package (``lingualite.__all__`` and each
sub-package's ``__all__``), so a name added to the public API gets its entry without an edit here."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

from tools.docsgen.markdown import banner

FOLDER = "docs/reference/api"
# Sub-packages with a public surface of their own (their ``__all__``), in the order a reader meets them.
SUBPACKAGES = (
    ("encoders", "Encoders: load any model or baseline"),
    ("search", "Search index"),
    ("mining", "Mining"),
    ("alignment", "Document alignment"),
    ("tokenization", "Vocabularies"),
    ("config", "Configs"),
    ("losses", "Training objectives"),
    ("reproduce", "Reproducing the papers' tables"),
)
# Modules whose public functions users call, where the package's ``__all__`` does not show them.
MODULES = (
    ("serve", "HTTP service", ("serve.app", "serve.settings")),  # ``create_app``: fastapi is optional
    (
        "encoding",
        "Export and bulk encoding",
        ("encoders.onnx_export", "encoding.to_file", "encoding.workers", "encoding.ray_workers"),
    ),
)


def _package_file(name: str) -> Path:
    spec = importlib.util.find_spec(name)
    assert spec is not None and spec.origin is not None, name
    return Path(spec.origin)


def _all(module: str) -> list[str]:
    """A module's ``__all__``, read from its source (nothing imported)."""
    tree = ast.parse(_package_file(module).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "__all__" for t in node.targets):
            value = node.value
            if isinstance(value, ast.List | ast.Tuple):
                return [ast.literal_eval(e) for e in value.elts]
            return list(importlib.import_module(module).__all__)  # computed (e.g. sorted(...)): import it
    return []


def _top_level() -> dict[str, str]:
    """Public name -> the module that defines it (``lingualite._API``, the lazy import table)."""
    tree = ast.parse(_package_file("lingualite").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign | ast.Assign):
            target = node.target if isinstance(node, ast.AnnAssign) else node.targets[0]
            if getattr(target, "id", None) == "_API":
                return ast.literal_eval(node.value)  # type: ignore[arg-type]
    raise LookupError("lingualite._API not found")


def _directive(path: str, heading: int = 2, members: list[str] | None = None) -> list[str]:
    lines = [f"::: {path}", "    options:", f"      heading_level: {heading}"]
    if members is not None:
        lines += ["      members:", *(f"        - {m}" for m in members)]
    return lines + [""]


def _index() -> str:
    api = _top_level()
    names = list(api)  # the one list's order (``lingualite.__all__`` is made from it)
    lines = [
        banner("`lingualite.__all__` and the sub-packages' `__all__`"),
        "",
        "# Python API",
        "",
        "Each command is a thin shell over a function with the same parameters. The names below are importable "
        "from `lingualite` directly (`from lingualite import train, load_config`); the sub-packages' pages "
        "list the rest of the public API.",
        "",
        "Sub-packages: "
        + ", ".join(f"[{title}]({sub}.md)" for sub, title in (*SUBPACKAGES, *[m[:2] for m in MODULES]))
        + ".",
        "",
    ]
    for name in names:
        lines += _directive(f"{api[name]}.{name}", heading=2)
    return "\n".join(lines).rstrip() + "\n"


def _subpackage(sub: str, title: str) -> str:
    module = f"lingualite.{sub}"
    lines = [banner(f"`{module}.__all__`"), "", f"# {title}: `{module}`", ""]
    lines += _directive(module, heading=2, members=_all(module))
    return "\n".join(lines).rstrip() + "\n"


def _modules(sub: str, title: str, modules: tuple[str, ...]) -> str:
    lines = [banner(f"the public functions of `lingualite.{sub}`"), "", f"# {title}: `lingualite.{sub}`", ""]
    for name in modules:
        lines += _directive(f"lingualite.{name}", heading=2)
    return "\n".join(lines).rstrip() + "\n"


def pages() -> dict[str, str]:
    found = {f"{FOLDER}/index.md": _index()}
    for sub, title in SUBPACKAGES:
        found[f"{FOLDER}/{sub}.md"] = _subpackage(sub, title)
    for sub, title, modules in MODULES:
        found[f"{FOLDER}/{sub}.md"] = _modules(sub, title, modules)
    return found
