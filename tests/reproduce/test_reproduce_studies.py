"""Paper 001's studies (Table 3: sample size; Fig. 3: seeds) behind ``lingualite reproduce``: the shipped files
load at every scale, bad files are one-line errors, and tiny studies run end to end, skip finished runs,
refuse a changed config (``--force`` reruns it) and an interrupted run (``--resume`` continues it)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from monolingual_configs import tiny_monolingual_dict
from typer.testing import CliRunner

from lingualite.cli.main import app
from lingualite.core.errors import ConfigError, LinguaLiteError
from lingualite.models.run_folder import RunFolder
from lingualite.reproduce import list_tables, load_table
from lingualite.reproduce.studies import plan_study, run_study
from lingualite.reproduce.study_spec import is_study, list_studies, load_study, study_config

pytestmark = [pytest.mark.usefixtures("one_torch_thread"), pytest.mark.slow]  # trains: not in the fast tier


def _tiny_monolingual(root: Path) -> dict[str, Any]:
    """The monolingual tests' 1 x 32 recipe, cut to seconds per run: 6 + 3 steps, one iteration."""
    cfg = {"mode": "monolingual", **tiny_monolingual_dict(root, classification_steps=6)}
    cfg["classification"]["save_every"] = 3
    cfg["mining"].update(target_pairs=60, iterations=1)
    cfg["regression"].update(max_steps=3, save_every=2)
    return cfg


def _write_study(folder: Path, kind: str, scale: dict[str, Any], **extra: Any) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    study = {"title": "tiny", "source": "test", "study": kind, "scales": {"tiny": scale}, **extra}
    path = folder / f"{kind}.yaml"
    path.write_text(yaml.safe_dump(study, allow_unicode=True), encoding="utf-8")
    return path


@pytest.fixture()
def studies(tmp_path: Path, document_files: Path) -> dict[str, Path]:
    (tmp_path / "tiny.yaml").write_text(yaml.safe_dump(_tiny_monolingual(document_files)), encoding="utf-8")
    sizes = {"base": "tiny.yaml", "note": "tiny", "sizes": [1, 5], "target_pairs": 30, "steps": 2}
    paper = {"en→zh": {1: 50.3, 100: 51.7}}
    return {
        "sample": _write_study(tmp_path, "monolingual-sample-size", sizes, paper=paper),
        "seeds": _write_study(
            tmp_path, "monolingual-seeds", {"base": "tiny.yaml", "note": "t", "seeds": [0, 1]}
        ),
    }


def test_shipped_studies_load_and_resolve_at_every_scale() -> None:
    assert {"001-table3", "001-fig3"} <= set(list_studies())
    assert not set(list_studies()) & set(list_tables())  # the sweep runner never sees a study
    for name in list_studies():
        study = load_study(name)
        assert set(study.scales) == {"cpu", "paper"} and is_study(name)
        for scale in study.scales:
            study_config(study, scale, data_dir="/data")
    table3 = load_study("001-table3")
    assert table3.paper["en→zh"]["10000"] == 64.5 and table3.rows("cpu")[0] == "m-1"
    assert study_config(table3, "paper").model.num_layers == 3
    with pytest.raises(ConfigError, match="is a study, not a sweep table"):
        load_table("001-table3")


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda s: s.update({"studdy": 1}), r"unknown key\(s\) \['studdy'\]"),
        (lambda s: s.update({"study": "seeds"}), "study must be one of"),
        (
            lambda s: s["scales"]["tiny"].update({"sizes": [5, 5]}),
            r"scales.tiny: sizes: must be a list without",
        ),
        (lambda s: s["scales"]["tiny"].update({"sizes": [0]}), "every m must be >= 1"),
        (lambda s: s["scales"]["tiny"].update({"sizes": []}), "a sample-size study needs at least one m"),
        (lambda s: s["scales"]["tiny"].pop("note"), r"missing key\(s\) \['note'\]"),
        (lambda s: s.update({"paper": {"x": {1: "a"}}}), "paper must map a row label"),
    ],
)
def test_a_bad_study_file_is_one_line_naming_the_file(studies: dict[str, Path], edit, message: str) -> None:
    data = yaml.safe_load(studies["sample"].read_text(encoding="utf-8"))
    edit(data)
    studies["sample"].write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(ConfigError, match=message) as info:
        load_study(studies["sample"])
    assert str(studies["sample"]) in str(info.value) and "\n" not in str(info.value)


def test_a_study_needs_a_monolingual_base(studies: dict[str, Path]) -> None:
    data = yaml.safe_load(studies["seeds"].read_text(encoding="utf-8"))
    data["scales"]["tiny"]["base"] = "quickstart"
    studies["seeds"].write_text(yaml.safe_dump(data), encoding="utf-8")
    with pytest.raises(ConfigError, match="not a monolingual config"):
        study_config(load_study(studies["seeds"]), "tiny")


def _stages(folder: Path) -> list[dict[str, Any]]:
    return RunFolder(folder).read_stages()


def test_sample_size_points_start_from_the_same_stage_1_and_finished_ones_never_rerun(
    studies: dict[str, Path], tmp_path: Path
) -> None:
    spec, out = load_study(studies["sample"]), tmp_path / "out"
    lines: list[str] = []
    result = run_study(spec, "tiny", out, progress=lines.append)
    base = _stages(out / "base")
    for m in (1, 5):
        rows = _stages(out / f"m-{m}")
        assert rows[:2] == base[:2]  # stage 1 copied from the base run, not trained again
        assert [r["stage"] for r in rows] == ["initial", "classification", "iteration-1"]
        assert rows[-1]["steps"] == 2 and (out / f"m-{m}" / "modules.json").exists()
        assert RunFolder(out / f"m-{m}").read_config("monolingual")["mining"]["sample_size"] == m
    assert [p["m"] for p in result["points"]] == [1, 5]
    assert all(0.0 <= p["precision_at_mining"] <= 1.0 for p in result["points"])
    assert result["start"]["stage"] == "classification"
    text = (out / "table.md").read_text(encoding="utf-8")
    assert "| stage 1 (classification only) |" in text and "| 5 | 25 |" in text  # min(m * m, 30) kept
    assert "| en→zh | 50.3 | 51.7 |" in text  # the paper's row, by its own m
    assert (out / "table.png").read_bytes().startswith(b"\x89PNG")
    assert json.loads((out / "table.json").read_text())["table"] == "monolingual-sample-size"

    before = {n: (out / n / "stages.jsonl").stat().st_mtime_ns for n in ("base", "m-1", "m-5")}
    run_study(spec, "tiny", out, progress=lines.append)
    assert {n: (out / n / "stages.jsonl").stat().st_mtime_ns for n in before} == before
    assert any("m-5: finished, not run again" in line for line in lines)


def test_a_changed_config_is_refused_and_force_reruns_only_what_changed(
    studies: dict[str, Path], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    run_study(load_study(studies["sample"]), "tiny", out, rows=["m-1"])
    assert not (out / "m-5").exists()  # rows: only m-1 (and the base it starts from)
    data = yaml.safe_load(studies["sample"].read_text(encoding="utf-8"))
    data["scales"]["tiny"]["steps"] = 3
    studies["sample"].write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    spec = load_study(studies["sample"])
    plan = plan_study(spec, "tiny", out)
    assert plan["base"]["state"] == "done" and plan["m-1"] == {
        "state": "changed",
        "changed": ["regression.max_steps"],
    }
    with pytest.raises(LinguaLiteError, match=r"m-1: finished with another config \(regression.max_steps\)"):
        run_study(spec, "tiny", out)
    base_mtime = (out / "base" / "stages.jsonl").stat().st_mtime_ns
    run_study(spec, "tiny", out, force=True)
    assert _stages(out / "m-1")[-1]["steps"] == 3 and _stages(out / "m-5")[-1]["steps"] == 3
    assert (out / "base" / "stages.jsonl").stat().st_mtime_ns == base_mtime


def test_seeds_study_renders_the_finished_seeds_and_an_interrupted_one_needs_resume(
    studies: dict[str, Path], tmp_path: Path
) -> None:
    spec, out = load_study(studies["seeds"]), tmp_path / "out"
    first = run_study(spec, "tiny", out, rows=["seed-1"])
    assert first["seeds"] == [1] and "Seeds: 1; mean" in (out / "table.md").read_text(encoding="utf-8")
    from lingualite.recipes.monolingual.train_monolingual import train_monolingual

    cfg = study_config(spec, "tiny")
    import dataclasses

    train_monolingual(dataclasses.replace(cfg, seed=0), out / "seed-0", progress=False, stop_after=4)
    assert plan_study(spec, "tiny", out)["seed-0"]["state"] == "partial"
    with pytest.raises(LinguaLiteError, match="seed-0: stopped with checkpoints; pass --resume"):
        run_study(spec, "tiny", out)
    result = run_study(spec, "tiny", out, resume=True)
    assert result["seeds"] == [0, 1] and result["stages"]["classification"]["valid_xsr_p_at_1"]["n"] == 2
    assert RunFolder(out / "seed-0").read_config("monolingual")["seed"] == 0


def test_the_cli_lists_plans_and_refuses_reuse_for_a_study(studies: dict[str, Path], tmp_path: Path) -> None:
    runner = CliRunner()
    listed = runner.invoke(app, ["reproduce", "--list", "--json"])
    assert listed.exit_code == 0 and "001-table3" in json.loads(listed.stdout)["tables"]
    plan = runner.invoke(
        app, ["reproduce", str(studies["sample"]), "--scale", "tiny", "--output", str(tmp_path / "o"), "--dry-run",
              "--json"],
    )  # fmt: skip
    assert plan.exit_code == 0, plan.output
    assert json.loads(plan.stdout)["cells"]["m-5"]["state"] == "new" and not (tmp_path / "o").exists()
    refused = runner.invoke(app, ["reproduce", "001-table3", "--reuse-from", str(tmp_path)])
    assert refused.exit_code != 0 and "a study's runs are its own" in refused.output
    wrong = runner.invoke(app, ["reproduce", str(studies["seeds"]), "--scale", "tiny", "--cells", "seed-7",
                                "--output", str(tmp_path / "w")])  # fmt: skip
    assert wrong.exit_code != 0 and "no run(s) ['seed-7']" in wrong.output
