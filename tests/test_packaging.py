"""pyproject.toml's metadata: what `pip install lingualite[...]` asks for and what the wheel carries.

Building a wheel takes too long for the suite; these checks read the metadata instead (the build itself, `twine
check` and an install into a clean venv are described in docs/incoming/h36c.md)."""

from __future__ import annotations

import fnmatch
import importlib.metadata
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def requirements() -> dict[str, list[Requirement]]:
    """'' for the dependencies, else the extra's name -> its parsed requirements (PEP 508)."""
    project = PROJECT["project"]
    groups = {"": project["dependencies"], **project["optional-dependencies"]}
    return {name: [Requirement(line) for line in lines] for name, lines in groups.items()}


def test_torch_is_a_range_so_an_existing_torch_is_kept() -> None:
    (torch,) = [r for r in requirements()[""] if r.name == "torch"]
    operators = {spec.operator for spec in torch.specifier}
    assert "==" not in operators and "===" not in operators, torch
    assert {">=", "<"} <= operators, torch  # a floor the code needs and a ceiling below the next major
    assert torch.specifier.contains(
        importlib.metadata.version("torch").split("+")[0]
    )  # the CPU build we test


def test_every_requirement_parses_and_names_each_package_once() -> None:
    for extra, reqs in requirements().items():
        names = [canonicalize_name(r.name) for r in reqs]
        assert len(names) == len(set(names)), f"extra {extra!r} names a package twice"
        assert all(not r.marker and not r.url for r in reqs), extra


def test_installed_packages_satisfy_their_ranges() -> None:
    """The dependencies are installed here at versions the ranges allow, and so is every extra's package that
    this environment has (the suite runs in one with dev, serve, distributed and baselines)."""
    for extra, reqs in requirements().items():
        for req in reqs:
            try:
                version = importlib.metadata.version(req.name)
            except importlib.metadata.PackageNotFoundError:
                assert extra, f"dependency {req.name} is not installed"
                continue
            assert req.specifier.contains(version.split("+")[0], prereleases=True), (extra, req, version)


def test_package_data_covers_every_data_file_of_the_package() -> None:
    """configs, evaluation sets and the service's static files travel in the wheel: each non-Python file under
    src/lingualite matches a package-data pattern."""
    patterns = PROJECT["tool"]["setuptools"]["package-data"]["lingualite"]
    package = ROOT / "src" / "lingualite"
    data = [
        p.relative_to(package).as_posix()
        for p in package.rglob("*")
        if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts
    ]
    assert data, "no data files found"
    missing = [f for f in data if not any(fnmatch.fnmatch(f, pattern) for pattern in patterns)]
    assert not missing, f"not in the wheel (add to [tool.setuptools.package-data]): {missing}"


def test_console_script_points_at_the_cli() -> None:
    assert PROJECT["project"]["scripts"] == {"lingualite": "lingualite.cli.main:app"}
