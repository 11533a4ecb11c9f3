"""The sweep runner on a tiny grid: every cell runs and the table renders; finished cells are cached; a
killed cell resumes without rerunning the others; a changed config is refused unless forced."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from reproduce_fixtures import write_table

import lingualite.recipes
from lingualite.core.errors import ConfigError, LinguaLiteError
from lingualite.reproduce import load_table, plan_sweep, run_sweep
from lingualite.reproduce.protocols import cell_evaluator

pytestmark = pytest.mark.slow  # trains and evaluates a sweep's cells: left out of the fast tier

REAL_TRAIN = lingualite.recipes.train


class TrainSpy:
    """Records every training call; ``kill`` names a cell whose first call stops after 1 step and raises
    (a sweep killed mid-cell, its run folder holding a checkpoint)."""

    def __init__(self, kill: str | None = None) -> None:
        self.calls: list[tuple[str, bool]] = []
        self.kill = kill

    def __call__(self, config: Any, output: Path, **options: Any) -> Any:
        self.calls.append((Path(output).name, bool(options.get("resume"))))
        if Path(output).name == self.kill:
            self.kill = None
            REAL_TRAIN(config, output, **{**options, "stop_after": 1})
            raise RuntimeError("killed")
        return REAL_TRAIN(config, output, **options)


def _sweep(table: Path, out: Path, spy: TrainSpy, monkeypatch: pytest.MonkeyPatch, **kwargs: Any) -> list:
    from lingualite.reproduce import render_table

    monkeypatch.setattr(lingualite.recipes, "train", spy)
    spec = load_table(table)
    lines: list[str] = []
    plans = run_sweep(
        spec,
        "tiny",
        out,
        cell_evaluator(threads=1),
        progress=lines.append,
        threads=1,
        on_done=lambda: render_table(spec, "tiny", out),
        **kwargs,
    )
    return [*plans, lines]


def test_sweep_runs_every_cell_renders_and_caches(
    tiny_table: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out, spy = tmp_path / "sweep", TrainSpy()
    *plans, lines = _sweep(tiny_table, out, spy, monkeypatch)
    assert [p.state for p in plans] == ["new", "new"] and spy.calls == [("ugt", False), ("xtr", False)]
    assert lines[0].startswith("[1/2] ugt: running") and "done in" in lines[1]
    result = json.loads((out / "cells" / "xtr" / "result.json").read_text())
    assert 0.0 <= result["metrics"]["xsr/en-fr/src2tgt_p_at_1"] <= 1.0
    assert result["metrics"]["model/parameters"] > 0 and result["metrics"]["train/steps_timed"] == 3
    assert (
        result["evaluation"]["max_test_pairs"] == 40 and result["config"]["objective"]["generative"] == "xtr"
    )
    table = (out / "table.md").read_text()
    assert "Scale: **tiny**: 1 x 16, 3 steps" in table and "Cells finished: 2/2" in table
    assert (
        "| MLDoc en→fr (paper) | XSR en→fr ours / paper | Parameters (ours) | Classif. en→fr (ours) |"
        in table
    )
    assert "| 85.1 |" in table and " / 89.5 |" in table
    assert (out / "table.png").stat().st_size > 1000
    rows = json.loads((out / "table.json").read_text())["rows"]
    assert [r["finished"] for r in rows] == [True, True]

    # a rerun trains nothing and evaluates nothing: every cell is cached under the same key
    again = TrainSpy()
    *plans, lines = _sweep(tiny_table, out, again, monkeypatch)
    assert again.calls == [] and [p.state for p in plans] == ["cached", "cached"]
    assert all(": cached (key " in line for line in lines)


def test_a_killed_cell_resumes_and_finished_cells_are_not_rerun(
    tiny_table: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "sweep"
    with pytest.raises(RuntimeError, match="killed"):
        _sweep(tiny_table, out, TrainSpy(kill="xtr"), monkeypatch)
    assert (out / "cells" / "ugt" / "result.json").is_file()
    assert not (out / "cells" / "xtr" / "result.json").exists()
    table = (out / "table.md").read_text()  # rendered from the finished cell; the missing one shows "–"
    assert "Cells finished: 1/2" in table and "| XTR | 84.2 | – / 89.5 | – | – |" in table

    with pytest.raises(LinguaLiteError, match=r"xtr stopped with checkpoints; pass --resume"):
        _sweep(tiny_table, out, TrainSpy(), monkeypatch)
    spy = TrainSpy()
    *plans, _ = _sweep(tiny_table, out, spy, monkeypatch, resume=True)
    assert [p.state for p in plans] == ["cached", "interrupted"]
    assert spy.calls == [("xtr", True)]  # only the killed cell, continued from its checkpoint
    timing = json.loads((out / "cells" / "xtr" / "timing.json").read_text())
    # the killed call never reported its step; the time per step comes from the 2 steps timed after it
    assert timing["steps"] == 2 and timing["calls"] == 1
    assert "Cells finished: 2/2" in (out / "table.md").read_text()


def test_a_changed_cell_config_is_refused_unless_forced(
    tiny_table: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "sweep"
    _sweep(tiny_table, out, TrainSpy(), monkeypatch, cells=["ugt"])
    data = yaml.safe_load(tiny_table.read_text())
    data["cells"][0]["overrides"]["optim.lr"] = 0.002
    tiny_table.write_text(yaml.safe_dump(data, allow_unicode=True))
    assert [p.state for p in plan_sweep(load_table(tiny_table), "tiny", out)] == ["changed", "new"]
    spy = TrainSpy()
    with pytest.raises(ConfigError, match=r"ugt \(optim.lr\).*--force"):
        _sweep(tiny_table, out, spy, monkeypatch)
    assert spy.calls == []  # refused before anything ran
    _sweep(tiny_table, out, spy, monkeypatch, force=True, cells=["ugt"])
    assert spy.calls == [("ugt", False)]  # deleted and trained again from scratch
    assert json.loads((out / "cells" / "ugt" / "result.json").read_text())["config"]["optim"]["lr"] == 0.002

    # other evaluation settings: the trained model is evaluated again, not retrained
    data["scales"]["tiny"]["max_test_pairs"] = 30
    tiny_table.write_text(yaml.safe_dump(data, allow_unicode=True))
    spy = TrainSpy()
    *plans, _ = _sweep(tiny_table, out, spy, monkeypatch, cells=["ugt"])
    assert [p.state for p in plans] == ["evaluate"] and spy.calls == []
    assert (
        json.loads((out / "cells" / "ugt" / "result.json").read_text())["evaluation"]["max_test_pairs"] == 30
    )


def test_a_cell_another_sweep_trained_is_copied_not_trained_again(
    tiny_table: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = tmp_path / "sweeps" / "first"
    _sweep(tiny_table, first, TrainSpy(), monkeypatch, cells=["ugt"])
    donor = first / "cells" / "ugt"
    assert (donor / "checkpoints").is_dir()
    # another table: one cell with ugt's training config under another name, one cell nobody trained
    data = yaml.safe_load(tiny_table.read_text())
    data["cells"] = [
        {"name": "same", "label": "Same", "overrides": {"objective.generative": "ugt"}},
        {"name": "other", "label": "Other", "overrides": {"objective.generative": "mlm"}},
    ]
    second_table = write_table(tmp_path / "tables2", data)
    second = tmp_path / "sweeps" / "second"
    planned = plan_sweep(load_table(second_table), "tiny", second, reuse=[tmp_path / "sweeps"])
    assert [(p.state, p.donor) for p in planned] == [("reuse", donor), ("new", None)]

    spy = TrainSpy()
    *plans, lines = _sweep(second_table, second, spy, monkeypatch, reuse=[tmp_path / "sweeps"])
    assert spy.calls == [("other", False)]  # "same" was copied, not trained
    assert (
        f"(reuse: trained with this config in another sweep: copied from there, then evaluated {donor})"
        in (lines[0])
    )
    copied = second / "cells" / "same"
    result = json.loads((copied / "result.json").read_text())
    assert result["reused_from"] == str(donor) and result["cell"] == "same"
    assert (copied / "model.safetensors").read_bytes() == (donor / "model.safetensors").read_bytes()
    assert not (copied / "checkpoints").exists()
    # the training time travels with the model; the donor keeps its own result
    assert json.loads((copied / "timing.json").read_text()) == json.loads((donor / "timing.json").read_text())
    assert result["metrics"]["train/steps_timed"] == 3
    assert json.loads((donor / "result.json").read_text())["cell"] == "ugt"
    assert (
        "Trained once for several tables (the same training config): Same (from first/cells/ugt)"
        in (second / "table.md").read_text()
    )
    # a rerun finds the copy cached; without reuse a fresh folder trains both cells
    assert [p.state for p in plan_sweep(load_table(second_table), "tiny", second, reuse=[first])] == [
        "cached",
        "cached",
    ]
    assert [p.state for p in plan_sweep(load_table(second_table), "tiny", tmp_path / "third")] == [
        "new",
        "new",
    ]
    # a table that reports training time trains every cell itself (a donor's time was taken elsewhere)
    data["columns"].append({"key": "time", "label": "T", "metric": "train/minutes_per_10k_steps"})
    timed = write_table(tmp_path / "tables3", data)
    planned = plan_sweep(
        load_table(timed), "tiny", tmp_path / "sweeps" / "timed", reuse=[tmp_path / "sweeps"]
    )
    assert [p.state for p in planned] == ["new", "new"]


def test_the_output_folder_is_locked_and_holds_one_table(
    tiny_table: Path, tmp_path: Path, locked_folder: tuple[Path, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, pid = locked_folder
    with pytest.raises(LinguaLiteError, match=f"pid {pid}"):
        _sweep(tiny_table, folder, TrainSpy(), monkeypatch)
    out = tmp_path / "other"
    out.mkdir()
    (out / "sweep.json").write_text(json.dumps({"table": "000-table6", "scale": "cpu"}))
    (out / ".lingualite-run").write_text(json.dumps({"kind": "reproduce"}))
    with pytest.raises(LinguaLiteError, match="holds table 000-table6 at scale cpu"):
        _sweep(tiny_table, out, TrainSpy(), monkeypatch)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    with pytest.raises(LinguaLiteError, match="was not created by lingualite"):
        _sweep(tiny_table, mine, TrainSpy(), monkeypatch)


def test_missing_evaluation_files_stop_the_sweep_before_any_training(
    tiny_table: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = yaml.safe_load(tiny_table.read_text())
    data["evaluation"]["classify"] = [str(tmp_path / "eval" / "classify" / "missing")]
    tiny_table.write_text(yaml.safe_dump(data, allow_unicode=True))
    spy = TrainSpy()
    with pytest.raises(
        LinguaLiteError, match=r"missing: no classification set here.*lingualite data eval-sets"
    ):
        _sweep(tiny_table, tmp_path / "sweep", spy, monkeypatch)
    data["evaluation"]["classify"] = []
    data["evaluation"]["test_files"] = ["{data_dir}/en-xx/test.tsv"]
    tiny_table.write_text(yaml.safe_dump(data, allow_unicode=True))
    with pytest.raises(LinguaLiteError, match=r"en-xx/test.tsv: no test file matches"):
        _sweep(tiny_table, tmp_path / "sweep", spy, monkeypatch)
    assert spy.calls == []


def test_a_cell_killed_before_its_first_checkpoint_starts_again(
    tiny_table: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "sweep"

    def killed_early(config: Any, output: Path, **options: Any) -> Any:
        Path(output).mkdir(parents=True)  # the run folder exists, nothing in it yet
        (Path(output) / ".lingualite-run").write_text(json.dumps({"kind": "train"}))
        raise RuntimeError("killed")

    monkeypatch.setattr(lingualite.recipes, "train", killed_early)
    with pytest.raises(RuntimeError, match="killed"):
        run_sweep(load_table(tiny_table), "tiny", out, cell_evaluator(1), cells=["ugt"], progress=print)
    assert [p.state for p in plan_sweep(load_table(tiny_table), "tiny", out, cells=["ugt"])] == ["restart"]
    spy = TrainSpy()
    *plans, _ = _sweep(tiny_table, out, spy, monkeypatch, cells=["ugt"])  # no --resume needed
    assert [p.state for p in plans] == ["restart"] and spy.calls == [("ugt", True)]
    assert (out / "cells" / "ugt" / "result.json").is_file()


def test_a_distillation_table_runs_through_the_same_runner(
    tiny_teacher_folder: Path,
    eval_tree: tuple[Path, Path],
    synthetic_corpus: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Paper 002's recipe (mode: distill) and its measure (STS), with and without the PCA layer."""
    from reproduce_fixtures import write_distill_table

    monkeypatch.setenv("LINGUALITE_DATA_DIR", str(synthetic_corpus))
    sts = eval_tree[0] / "sts" / "lee" / "en.tsv"
    table = write_distill_table(tmp_path / "tables", tiny_teacher_folder, sts)
    out, spy = tmp_path / "sweep", TrainSpy()
    *plans, _ = _sweep(table, out, spy, monkeypatch)
    assert spy.calls == [("pca-8", False), ("no-pca", False)]
    sizes = {}
    for cell in ("pca-8", "no-pca"):
        result = json.loads((out / "cells" / cell / "result.json").read_text())
        assert -1.0 <= result["metrics"]["sts/en/spearman"] <= 1.0
        sizes[cell] = result["metrics"]["model/megabytes"]
        assert (
            result["metrics"]["model/vocabulary"]
            == json.loads((out / "cells" / cell / "summary.json").read_text())["vocabulary"]["size"]
        )
    assert sizes["pca-8"] > 0 and sizes["no-pca"] > 0
    again = TrainSpy()
    *plans, _ = _sweep(table, out, again, monkeypatch)
    assert again.calls == [] and [p.state for p in plans] == ["cached", "cached"]
    assert "| S (1/8) |" in (out / "table.md").read_text()
    assert (
        "STS: Spearman x 100 of cosine against the gold scores on lee/en.tsv."
        in (out / "table.md").read_text()
    )
