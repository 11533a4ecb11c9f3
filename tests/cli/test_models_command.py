"""``lingualite models list`` and the guard of ``models build``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from lingualite.cli.main import app

runner = CliRunner()


def test_list_names_every_packaged_model_and_where_it_is() -> None:
    pytest.importorskip("lingualite_models", reason="pip install ./packages/lingualite-models")
    result = runner.invoke(app, ["models", "list", "--json"])
    assert result.exit_code == 0, result.output
    models = json.loads(result.stdout)["models"]
    assert set(models) == {"lingualite-small", "lingualite-static", "lingualite-small-34"}
    for row in models.values():
        assert Path(row["folder"]).is_dir() and row["MB"] > 1


def test_build_refuses_an_out_whose_parent_is_missing(tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["models", "build", "--output", str(tmp_path / "no" / "such"), "--work", str(tmp_path)]
    )
    assert result.exit_code == 2
    assert "no such folder" in result.output
    assert not (tmp_path / "no").exists()


def test_build_only_static_neither_trains_nor_replaces_the_small_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import lingualite.encoders.onnx_export as onnx_export
    import lingualite.reproduce.distill_data as distill_data
    import lingualite.reproduce.packaged_build as build

    done: list[str] = []
    monkeypatch.setattr(distill_data, "prepare_distill_data", lambda *a, **k: {})
    monkeypatch.setattr(build, "_distil", lambda name, *a: done.append(f"distil {name}"))
    monkeypatch.setattr(build, "exported_mode", lambda folder: None)  # nothing exported yet
    monkeypatch.setattr(
        onnx_export, "export_onnx", lambda run, folder, **k: done.append(f"export {run.name}")
    )

    def assemble(target: Path, write, run, tier, data_dir=None):  # noqa: ANN001, ANN202
        target.mkdir(parents=True)
        (target / "model.safetensors").write_bytes(b"0" * 10)
        done.append(f"assemble {target.name}")
        return {"folder": str(target), "megabytes": 0.0}

    monkeypatch.setattr(build, "_assemble", assemble)
    out = tmp_path / "out"
    out.mkdir()
    args = ["models", "build", "--output", str(out), "--work", str(tmp_path / "work"), "--json"]
    result = runner.invoke(app, [*args, "--only", "static"])
    assert result.exit_code == 0, result.output
    assert done == ["distil static", "assemble static"] and not (out / "small").exists()
    assert list(json.loads(result.stdout)["models"]) == ["static"]
    result = runner.invoke(app, [*args, "--only", "base"])
    assert (
        result.exit_code != 0
        and "unknown packaged model(s) ['base']; choose from small, static, small-34" in result.output
    )
    done.clear()
    (tmp_path / "out2").mkdir()
    args[args.index(str(out))] = str(tmp_path / "out2")
    result = runner.invoke(app, [*args, "--only", "small-34,static"])  # built in the table's order
    assert result.exit_code == 0, result.output
    assert done == [
        "distil static",
        "distil small-34",
        "assemble static",
        "export small-34-run",
        "assemble small-34",
    ]
