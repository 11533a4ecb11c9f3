"""The package's layout rules, checked on the source (imports read with ``ast``, nothing imported):

- evaluation is a leaf: only the CLI, the quickstart, the packaged-model build and evaluation itself (the report)
  import it;
- no recipe (paper 000's ``parallel``, paper 002's ``distill``, paper 001's ``monolingual``) imports another:
  what they share lives below them (``training``, ``config``, ``data``, ``models``, ``retrieval``);
- no import cycles, counting imports inside functions;
- no module over 400 lines, no function over 100.

Imports under ``if TYPE_CHECKING:`` are for type checkers only and are not counted.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "lingualite"
RECIPES = ("parallel", "distill", "monolingual")
MAY_IMPORT_EVALUATION = (
    "lingualite.cli",
    "lingualite.reproduce.quickstart",
    "lingualite.reproduce.packaged_build",
    "lingualite.evaluation",
)


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _type_checking_nodes(tree: ast.Module) -> set[int]:
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(n) for child in node.body for n in ast.walk(child))
    return skipped


def imports_of(name: str) -> set[str]:
    """The lingualite modules ``name`` imports at run time (a package import counts as its ``__init__``)."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    skipped = _type_checking_nodes(tree)
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("lingualite"):
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if sub in MODULES else node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("lingualite"))
    return {m for m in found if m in MODULES and m != name}


GRAPH = {name: imports_of(name) for name in MODULES}


def test_only_the_cli_quickstart_and_report_import_evaluation() -> None:
    offenders = sorted(
        f"{name} -> {target}"
        for name, targets in GRAPH.items()
        for target in targets
        if target.startswith("lingualite.evaluation") and not name.startswith(MAY_IMPORT_EVALUATION)
    )
    assert offenders == []


def test_no_recipe_imports_another() -> None:
    def recipe(module: str) -> str | None:
        parts = module.split(".")
        return parts[1] if len(parts) > 1 and parts[1] in RECIPES else None

    offenders = sorted(
        f"{name} -> {target}"
        for name, targets in GRAPH.items()
        for target in targets
        if recipe(name) and recipe(target) and recipe(name) != recipe(target)
    )
    assert offenders == []


def test_no_import_cycles() -> None:
    # Tarjan's strongly connected components; any component of two or more modules is a cycle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in GRAPH[node]:
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for name in sorted(GRAPH):
        if name not in index:
            visit(name)
    assert cycles == []


def test_modules_and_functions_stay_small() -> None:
    long_files, long_functions = [], []
    for name, path in sorted(MODULES.items()):
        text = path.read_text(encoding="utf-8")
        if len(text.splitlines()) > 400:
            long_files.append(name)
        for node in ast.walk(ast.parse(text)):
            if (
                isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                and node.end_lineno - node.lineno >= 100
            ):
                long_functions.append(f"{name}.{node.name}")
    assert long_files == [] and long_functions == []


def test_the_checker_sees_imports_inside_functions() -> None:
    # lingualite.recipes imports each recipe lazily (by name); quickstart imports inside functions too
    assert "lingualite.recipes.parallel.train_parallel" in GRAPH["lingualite.reproduce.quickstart"]
    assert (
        "lingualite.config" in GRAPH["lingualite.models.run_folder"]
    )  # imported inside RunFolder.read_config
