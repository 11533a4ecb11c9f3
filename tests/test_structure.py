"""The architecture, stated and checked on the source (imports read with ``ast``, nothing imported).

:data:`LAYERS` is the one table of the package's layers, from the bottom up; ``docs/architecture.md`` shows it
(:func:`test_the_architecture_page_shows_the_layers` checks that the page and this table agree). The rules:

- a package imports only packages of the layers below its own (never one of its own layer), so no two
  packages import each other; imports under ``if TYPE_CHECKING:`` and inside functions count;
- no recipe imports another (what they share lives below them);
- no two modules import each other, directly or round a circle (type-checking imports included);
- no module over 400 lines, no function over 100, no module of ``cli/`` over 250;
- at most five modules at the package root.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src"
PACKAGE = SRC / "lingualite"
ARCHITECTURE = ROOT / "docs" / "architecture.md"

# (packages of one layer, what lives there), from the bottom up. A package imports only those of earlier rows.
LAYERS: tuple[tuple[tuple[str, ...], str], ...] = (
    (
        ("core",),
        "errors, atomic files and run locks, folder ownership, strict JSON, CPUs, the device rule, "
        "GPU usage, prefetching, the one progress writer, the version",
    ),
    (("text",), "the supported languages, scripts, segmentation, text sanitation"),
    (
        ("vectors", "tokenization"),
        "vector maths (retrieval scores and exact top-k, Matryoshka truncation, "
        "normalisation, precision); shared vocabularies",
    ),
    (("config",), "typed YAML configs, one per recipe, from shared sections"),
    (("data",), "readers, corpora from packages, cleaning, split, prepare, pairs, evaluation sets"),
    (("models",), "the torch encoders, batches, export, checked loading, model cards, the run folder"),
    (
        ("losses", "encoders"),
        "one objective per file; every encoder backend behind one `Encoder`: "
        "sentence-transformers folders, ONNX, static, bf16, TF-IDF, baselines, model specs, ONNX export",
    ),
    (
        ("encoding", "training"),
        "the model a user holds (`Encoder`), `encode`/`encode_file`, vector output, workers and Ray; the one training "
        "loop, checkpoints, validation, smoke caps, DDP",
    ),
    (("mining",), "CSLS pseudo-pairs and ratio-margin bitext mining (`mine`)"),
    (("recipes",), "`train`: parallel (paper 000), distill (paper 002), monolingual (paper 001)"),
    (("alignment", "search"), "document alignment (`align`); the search index (`SearchIndex`)"),
    (("evaluation", "serve"), "one evaluation task per file, the report; the HTTP service"),
    (
        ("reproduce",),
        "the papers' tables and studies, their evaluation protocols, quickstart, packaged build",
    ),
    (("cli",), "the commands: parse, call one library function, print"),
    (("lingualite",), "the package root: the public API (one list), `python -m lingualite`"),
)
RECIPES = ("parallel", "distill", "monolingual")
MAX_ROOT_MODULES = 5


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def imports_of(name: str) -> set[str]:
    """The lingualite modules ``name`` imports, anywhere in it (a package import counts as its ``__init__``)."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("lingualite"):
            for alias in node.names:
                sub = f"{node.module}.{alias.name}"
                found.add(sub if sub in MODULES else node.module)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("lingualite"))
    return {m for m in found if m in MODULES and m != name}


GRAPH = {name: imports_of(name) for name in MODULES}


def package_of(module: str) -> str:
    """``lingualite.encoders.onnx`` -> ``encoders``; a module at the root -> ``lingualite``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or (len(parts) == 2 and (PACKAGE / parts[1]).is_dir()) else "lingualite"


def layer_of() -> dict[str, int]:
    return {package: rank for rank, (packages, _) in enumerate(LAYERS) for package in packages}


def layers_table() -> str:
    """The layers as the Markdown table of ``docs/architecture.md`` (top row: the bottom layer)."""
    rows = ["| layer | packages | what lives there |", "|---|---|---|"]
    for rank, (packages, what) in enumerate(LAYERS, start=1):
        rows.append(f"| {rank} | {', '.join(f'`{p}`' for p in packages)} | {what} |")
    return "\n".join(rows)


def test_every_package_is_in_one_layer() -> None:
    packages = {package_of(m) for m in MODULES}
    listed = [p for packages_, _ in LAYERS for p in packages_]
    assert len(listed) == len(set(listed)), "a package is in two layers"
    assert packages == set(listed)


def test_packages_import_only_lower_layers() -> None:
    rank = layer_of()
    offenders = sorted(
        f"{name} -> {target}"
        for name, targets in GRAPH.items()
        for target in targets
        if package_of(name) != package_of(target) and rank[package_of(target)] >= rank[package_of(name)]
    )
    assert offenders == []


def test_the_architecture_page_shows_the_layers() -> None:
    page = ARCHITECTURE.read_text(encoding="utf-8")
    assert layers_table() in page, f"docs/architecture.md must show the layers as:\n{layers_table()}"


def test_the_architecture_page_names_modules_that_exist() -> None:
    page = ARCHITECTURE.read_text(encoding="utf-8")
    packages = {p for packages_, _ in LAYERS for p in packages_}
    named = {p for p in re.findall(r"`((?:[a-z_]+/)+[a-z_]*(?:\.py)?)`", page) if p.split("/")[0] in packages}
    missing = sorted(p for p in named if not (PACKAGE / p).exists())
    assert len(named) > 20
    assert missing == []


def test_no_recipe_imports_another() -> None:
    def recipe(module: str) -> str | None:
        parts = module.split(".")
        return parts[2] if len(parts) > 2 and parts[1] == "recipes" and parts[2] in RECIPES else None

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


def test_cli_modules_stay_thin() -> None:
    long_files = [
        name
        for name, path in sorted(MODULES.items())
        if name.startswith("lingualite.cli.") and len(path.read_text(encoding="utf-8").splitlines()) > 250
    ]
    assert long_files == []


def test_few_modules_at_the_package_root() -> None:
    assert len(list(PACKAGE.glob("*.py"))) <= MAX_ROOT_MODULES


def test_the_checker_sees_imports_inside_functions_and_for_type_checkers() -> None:
    assert (
        "lingualite.config" in GRAPH["lingualite.models.run_folder"]
    )  # imported inside RunFolder.read_config
    assert (
        "lingualite.recipes.monolingual.stage_evaluator"
        in GRAPH["lingualite.recipes.monolingual.mining_step"]
    )
