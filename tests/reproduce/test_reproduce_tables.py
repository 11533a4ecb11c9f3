"""Table files: the shipped tables load and every cell's config validates at every scale; a bad table is a
one-line error naming the file and the key."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from reproduce_fixtures import TABLE, write_table

from lingualite.config.parallel import GENERATIVE_OBJECTIVES
from lingualite.core.errors import ConfigError
from lingualite.reproduce import cell_config, list_tables, load_table
from lingualite.reproduce.table import cell_evaluation


def test_shipped_tables_resolve_every_cell_at_every_scale() -> None:
    assert {"000-table5", "000-table6", "000-table7"} <= set(list_tables())
    for name in list_tables():
        table = load_table(name)
        assert set(table.scales) == {"cpu", "paper"}
        for cell in table.cells:
            for scale in table.scales:
                cell_evaluation(table, cell, scale)
                if not cell.model:  # a cell naming an existing model trains nothing
                    cell_config(table, cell, scale, data_dir="/data")
    table6 = load_table("000-table6")
    generative = [cell_config(table6, c, "cpu").objective.generative for c in table6.cells]
    assert sorted(generative) == sorted(GENERATIVE_OBJECTIVES)
    layers = load_table("000-table5")
    assert [cell_config(layers, c, "paper").model.num_layers for c in layers.cells] == [1, 2, 3, 4, 6]
    ugt_align = cell_config(load_table("000-table7"), load_table("000-table7").cell("ugt_align"), "cpu")
    assert (ugt_align.objective.alignment_weight, ugt_align.objective.similarity_weight) == (2.0, 0.0)


def test_cell_overrides_layer_over_the_scale_base(tiny_table: Path) -> None:
    table = load_table(tiny_table)
    cfg = cell_config(table, table.cell("xtr"), "tiny", data_dir="/d")
    assert cfg.objective.generative == "xtr" and cfg.optim.max_steps == 3
    assert cfg.data.train_files == ["/d/en-fr/train.tsv"]


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda t: t["cells"][0]["overrides"].update({"objective.generativ": "x"}),
            r"unknown key.*generativ",
        ),
        (lambda t: t["cells"][0]["overrides"].update({"objective.generative": "bogus"}), "must be one of"),
        (lambda t: t["cells"][0]["paper"].update({"nope": 1.0}), r"unknown column\(s\) \['nope'\]"),
        (lambda t: t["cells"].append(dict(t["cells"][0])), r"duplicate cell name\(s\) \['ugt'\]"),
        (lambda t: t.update({"colums": []}), r"unknown key\(s\) \['colums'\]"),
        (lambda t: t["scales"]["tiny"].update({"max_test_pairs": "all"}), r"scales.tiny.max_test_pairs"),
        (lambda t: t["cells"][0].update({"name": "Bad Name"}), "must be lowercase"),
        (lambda t: t["cells"][1].pop("label"), r"cells\[1\]: missing key\(s\) \['label'\]"),
        (lambda t: t["scales"]["tiny"].pop("note"), r"scales.tiny: missing key\(s\) \['note'\]"),
    ],
)
def test_a_bad_table_is_a_one_line_error(tmp_path: Path, edit, message: str) -> None:
    data = copy.deepcopy(TABLE)
    edit(data)
    path = write_table(tmp_path, data)
    with pytest.raises(ConfigError, match=message) as info:
        table = load_table(path)
        for cell in table.cells:
            cell_config(table, cell, "tiny")
    assert str(path) in str(info.value) and "\n" not in str(info.value)


def test_unknown_names_are_refused(tiny_table: Path) -> None:
    with pytest.raises(ConfigError, match=r"not a shipped table \(000-bilingual, 000-fig2, 000-table3"):
        load_table("no-such-table")
    table = load_table(tiny_table)
    with pytest.raises(ConfigError, match=r"no cell 'nope' \(cells: ugt, xtr\)"):
        table.cell("nope")
    with pytest.raises(ConfigError, match=r"no scale 'paper' \(scales: tiny\)"):
        table.scale("paper")
