"""``lingualite export`` replaces only an earlier export (with --overwrite), never a folder that holds its
model or anything it did not create (issue #33 cases 1 and 2, with parent, symlinked and concurrently created
variants), and a damaged, truncated or empty graph is a one-line error when loaded."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
import torch
from typer.testing import CliRunner

from lingualite.config.encoder import EncoderConfig
from lingualite.core.errors import LinguaLiteError
from lingualite.encoders import onnx_export
from lingualite.encoders.onnx_export import export_onnx
from lingualite.encoders.resolve import load_encoder

pytestmark = pytest.mark.slow  # exports and checks ONNX graphs: left out of the fast tier


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def model(tiny_tokenizer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    from lingualite.models.dual_encoder import DualEncoder

    torch.manual_seed(0)
    cfg = EncoderConfig(vocab_size=len(tiny_tokenizer), hidden_size=16, num_heads=2, ffn_size=32)
    return DualEncoder(cfg).save(tiny_tokenizer, tmp_path_factory.mktemp("export-model") / "student")


@pytest.fixture(scope="module")
def exported(model: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("exported") / "onnx-model"
    export_onnx(model, out, quantize="int8")
    return out


def _cli(*args: object) -> object:
    from lingualite.cli.main import app

    return CliRunner().invoke(app, [str(a) for a in args])


def test_an_output_that_holds_the_model_is_refused_and_nothing_is_deleted(
    model: Path, tmp_path: Path
) -> None:
    """Case 1: ``--model box/student --output box`` deleted everything else in box/."""
    box = tmp_path / "box"
    shutil.copytree(model, box / "student")
    (box / "notes.txt").write_text("mine")
    (box / "other-run").mkdir()
    (box / "other-run" / "weights.bin").write_bytes(b"\0" * 10)
    before = _tree(box)
    for output in (box, tmp_path):  # the model's parent, and a folder further up
        done = _cli("export", "--model", box / "student", "--output", output, "--overwrite")
        assert done.exit_code == 2 and done.output.strip().count("\n") == 0, done.output
        assert "contains the input" in done.output
    assert _tree(box) == before


def test_a_folder_lingualite_did_not_create_is_never_replaced(model: Path, tmp_path: Path) -> None:
    """Case 2: ``--output existing`` replaced a user's folder, files included (--overwrite or not)."""
    mine = tmp_path / "existing"
    mine.mkdir()
    (mine / "thesis.tex").write_text("chapter 1")
    for extra in ([], ["--overwrite"]):
        done = _cli("export", "--model", model, "--output", mine, *extra)
        assert done.exit_code == 2 and "was not created by lingualite" in done.output, done.output
    assert _tree(mine) == {"thesis.tex": b"chapter 1"}
    link = tmp_path / "link"
    link.symlink_to(mine, target_is_directory=True)  # through a symbolic link: the same refusal
    done = _cli("export", "--model", model, "--output", link, "--overwrite")
    assert done.exit_code == 2 and "was not created by lingualite" in done.output
    assert _tree(mine) == {"thesis.tex": b"chapter 1"}
    into = tmp_path / "into-model"
    into.symlink_to(model, target_is_directory=True)  # a link to the model folder is the model folder
    done = _cli("export", "--model", model, "--output", into, "--overwrite")
    assert done.exit_code == 2 and "is also an input" in done.output


def test_run_folders_and_export_folders_are_different_kinds(
    model: Path, exported: Path, tmp_path: Path
) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / ".lingualite-folder.json").write_text(json.dumps({"kind": "train"}))
    (run / "metrics.jsonl").write_text('{"step": 1}\n')
    legacy = tmp_path / "legacy-run"  # a run of a version before markers: recognised by its checkpoints
    (legacy / "checkpoints" / "step-0000010").mkdir(parents=True)
    (legacy / "checkpoints" / "step-0000010" / "trainer_state.json").write_text("{}")
    for folder in (run, legacy):
        with pytest.raises(LinguaLiteError, match="holds a lingualite training run, not an exported model"):
            export_onnx(model, folder, overwrite=True)
    assert (run / "metrics.jsonl").exists() and (legacy / "checkpoints").exists()


def test_an_earlier_export_is_replaced_only_with_overwrite(
    model: Path, exported: Path, tmp_path: Path
) -> None:
    out = tmp_path / "again"
    shutil.copytree(exported, out)
    done = _cli("export", "--model", model, "--output", out)
    assert (
        done.exit_code == 2 and "is already an exported model" in done.output and "--overwrite" in done.output
    )
    done = _cli("export", "--model", model, "--output", out, "--overwrite", "--json")
    assert done.exit_code == 0, done.output
    assert not (
        out / "onnx" / "encoder_int8.onnx"
    ).exists()  # replaced whole: nothing of the old one mixed in
    assert sorted(p.name for p in tmp_path.iterdir()) == ["again"]  # no staging left beside it
    legacy = tmp_path / "legacy-export"  # an export of a version before markers: onnx/lingualite_onnx.json
    shutil.copytree(exported, legacy)
    (legacy / ".lingualite-folder.json").unlink()
    export_onnx(model, legacy, overwrite=True)
    assert json.loads((legacy / ".lingualite-folder.json").read_text()) == {"kind": "export"}


def test_a_folder_created_during_the_export_is_kept(model: Path, tmp_path: Path, monkeypatch) -> None:
    """The check is made again at the swap: a folder that appeared at OUTPUT meanwhile is not replaced."""
    out = tmp_path / "new"
    trace = onnx_export._export_graph

    def trace_then_someone_creates_the_folder(st_model: object, path: Path) -> None:
        trace(st_model, path)
        out.mkdir()
        (out / "photo.jpg").write_bytes(b"jpeg")

    monkeypatch.setattr(onnx_export, "_export_graph", trace_then_someone_creates_the_folder)
    with pytest.raises(LinguaLiteError, match="appeared while this ran"):
        export_onnx(model, out, overwrite=True)
    assert _tree(out) == {"photo.jpg": b"jpeg"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new"]


def test_leftovers_of_a_killed_export_are_removed_by_the_next(model: Path, tmp_path: Path) -> None:
    dead = tmp_path / f".out.staging-{2**22 + 7}-0123abcd"  # a pid above pid_max: its writer is gone
    (dead / "onnx").mkdir(parents=True)
    neighbour = tmp_path / f".other.staging-{2**22 + 7}-0123abcd"  # another target's: not this writer's
    neighbour.mkdir()
    export_onnx(model, tmp_path / "out")
    assert not dead.exists() and neighbour.exists()


def test_a_static_model_is_a_one_line_error(tmp_path: Path) -> None:
    from sentence_transformers import SentenceTransformer
    from sentence_transformers.sentence_transformer.modules import StaticEmbedding
    from tokenizers import Tokenizer, models, pre_tokenizers

    tok = Tokenizer(models.WordLevel({"[UNK]": 0, "the": 1, "cat": 2}, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    SentenceTransformer(modules=[StaticEmbedding(tok, embedding_dim=8)], device="cpu").save(
        str(tmp_path / "s")
    )
    done = _cli("export", "--model", tmp_path / "s", "--output", tmp_path / "out")
    assert done.exit_code == 2 and done.output.strip().count("\n") == 0, done.output
    assert "is a static model" in done.output and not (tmp_path / "out").exists()


@pytest.mark.parametrize("damage", ["flipped", "truncated", "empty"])
def test_a_damaged_graph_is_a_one_line_error(exported: Path, tmp_path: Path, damage: str) -> None:
    out = tmp_path / "m"
    shutil.copytree(exported, out)
    graph = out / "onnx" / "encoder.onnx"
    data = bytearray(graph.read_bytes())
    if damage == "flipped":  # bytes of the weights: onnxruntime would load it and give other vectors
        data[len(data) // 2 : len(data) // 2 + 64] = bytes(
            b ^ 0xFF for b in data[len(data) // 2 : len(data) // 2 + 64]
        )
    graph.write_bytes(
        bytes(data[: len(data) // 3]) if damage == "truncated" else b"" if damage == "empty" else data
    )
    with pytest.raises(LinguaLiteError, match="damaged|is empty") as info:
        load_encoder(f"onnx:{out}")
    assert "\n" not in str(info.value)
    (
        out / "lingualite_checksums.json"
    ).unlink()  # unchecked (an export of an earlier version): still no traceback
    if damage != "flipped":
        with pytest.raises(LinguaLiteError, match="is empty|not a loadable ONNX graph") as info:
            load_encoder(f"onnx:{out}")
        assert "\n" not in str(info.value)
    done = _cli(
        "encode", "--model", f"onnx:{out}", "--input", _text(tmp_path), "--output", tmp_path / "v.npy"
    )
    if damage != "flipped":
        assert done.exit_code == 2 and done.output.strip().count("\n") == 0, done.output


def test_every_file_of_an_export_is_recorded_and_the_int8_graph_is_checked(
    exported: Path, tmp_path: Path
) -> None:
    sums = json.loads((exported / "lingualite_checksums.json").read_text())["sha256"]
    assert {"onnx/encoder.onnx", "onnx/encoder_int8.onnx", "model.safetensors", "tokenizer.json"} <= set(sums)
    out = tmp_path / "m"
    shutil.copytree(exported, out)
    graph = out / "onnx" / "encoder_int8.onnx"
    graph.write_bytes(graph.read_bytes()[:-10] + b"\x01" * 10)
    with pytest.raises(LinguaLiteError, match="encoder_int8.onnx does not match the checksum"):
        load_encoder(f"onnx-int8:{out}")
    assert load_encoder(f"onnx:{out}").encode(["the cat"]).shape == (1, 16)  # the fp32 graph is intact
    np.testing.assert_allclose(
        load_encoder(str(out)).encode(["the cat"]), load_encoder(f"onnx:{out}").encode(["the cat"]), atol=1e-5
    )


def _text(folder: Path) -> Path:
    path = folder / "in.txt"
    path.write_text("the cat\n")
    return path
