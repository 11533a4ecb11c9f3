"""The model card says what a user needs: languages, data and licences, recipe, size, results, limits."""

from __future__ import annotations

import json
from pathlib import Path

import torch
import yaml
from safetensors.torch import save_file

from lingualite.data.sources import LICENCES
from lingualite.models.model_card import ModelCard


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "staging"
    folder.mkdir()
    save_file({"w": torch.zeros(10, 4), "b": torch.zeros(6)}, str(folder / "model.safetensors"))
    return folder


def test_card_names_languages_sources_licences_size_results_and_config(tmp_path: Path) -> None:
    prepared = tmp_path / "data" / "prepared" / "en-de"
    prepared.mkdir(parents=True)
    (prepared / "stats.json").write_text(
        json.dumps({"inputs": [{"input": "data/corpora/bible/en-de.tsv"}, {"input": "x/ddtp/en-de.tsv"}]})
    )
    user = tmp_path / "mine" / "pairs.tsv"
    card = ModelCard(
        "distill",
        {"optim": {"lr": 0.001}},
        [prepared / "train.tsv", user],
        {"valid_xsr_p_at_1": 0.75, "loss": 0.1, "lr": 0.0},
        teacher="minilm",
    ).render(_folder(tmp_path), tmp_path / "runs" / "student")

    header = yaml.safe_load(card.split("---")[1])
    assert header["library_name"] == "sentence-transformers" and header["language"] == ["de", "en"]
    assert "# student:" in card and 'SentenceTransformer("' + str(tmp_path / "runs" / "student") in card
    assert "Chaulwar" in card and "Teacher: minilm" in card
    assert "46 parameters" in card  # 10 x 4 + 6, read from the safetensors header
    assert LICENCES["bible"] in card and LICENCES["ddtp"] in card
    assert f"`{user}` (user data)" in card and "as given by its owner" in card
    assert "| valid_xsr_p_at_1 | 0.7500 |" in card and "| lr |" not in card  # validation figures only
    assert "lr: 0.001" in card.split("## Config")[1]
    assert "Intended use and limits" in card and "Smoke run" not in card


def test_every_trainer_writes_the_card_into_its_model_folder(tiny_parallel_config, tmp_path: Path) -> None:
    from sentence_transformers import SentenceTransformer

    from lingualite.recipes.parallel.train_parallel import train_parallel as train

    cfg = tiny_parallel_config(max_steps=4, eval_every=4)
    train(cfg, tmp_path / "run", progress=False)
    card = (tmp_path / "run" / "README.md").read_text()
    assert "Mao et al." in card and "valid_xsr_p_at_1" in card and "language:\n- en\n- fr" in card
    assert "This is a sentence-transformers model trained." not in card  # not the generic boilerplate
    assert SentenceTransformer(str(tmp_path / "run"), device="cpu").encode(["a b"]).shape[0] == 1
