"""A packaged model's card: its register table, and the objective it names from the run's config."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.mark.slow  # the static_model fixture trains a model: left out of the fast tier
def test_the_card_shows_the_register_table_per_language(static_model: Path, tmp_path: Path) -> None:
    from lingualite.reproduce.packaged_build import register_check
    from lingualite.reproduce.packaged_card import model_card, register_section
    from lingualite.reproduce.packaged_tiers import TIER_TABLE

    table = register_check(f"static:{static_model}", tmp_path)  # no prepared data: the everyday set only
    assert table["pool"] == 50 and {r.split("/")[0] for r in table["p_at_1"]} == {"everyday"}
    assert all(0.0 <= p <= 1.0 for row in table["p_at_1"].values() for p in row.values())
    lines = register_section(
        {"pool": 50, "max_pairs": 100, "p_at_1": {"help": {"en-fr": 0.9}, "games": {"en-fr": 0.5}}},
        ("help",),
        {"help": {"en-fr": 0.95}, "games": {"en-fr": 0.8}},
        "USE-m",
    )
    assert "| pair | help* | games |" in lines and "| en-fr | 0.900 (-0.050) | 0.500 (-0.300) |" in lines
    card = model_card(TIER_TABLE["small"], {"train_pairs": 10}, {"en-fr": 1.0}, table)
    assert "## Registers: XSR P@1 per language" in card and "fixed pool of 50 candidates" in card
    assert "Objective: the MSE to the teacher's vector (paper 002 Eq. 2)." in card


def test_the_card_names_the_cross_lingual_term_when_the_run_had_one() -> None:
    from lingualite.reproduce.packaged_card import objective_line

    assert objective_line({"loss": "mse", "alignment_weight": 0.0}) == (
        "Objective: the MSE to the teacher's vector (paper 002 Eq. 2)."
    )
    line = objective_line({"loss": "cosine", "alignment_weight": 0.01})
    assert (
        line.startswith("Objective: 1 - cosine") and "plus 0.01 x paper 000's" in line and "(Eq. 5)" in line
    )


def test_the_objective_is_read_from_the_runs_saved_config(tmp_path: Path) -> None:
    from lingualite.reproduce.packaged_card import run_section

    assert (
        run_section(tmp_path, "optim") == {}
    )  # a run folder without config.yaml: the card says the paper's MSE
    (tmp_path / "config.yaml").write_text("mode: distill\noptim:\n  loss: mse\n  alignment_weight: 0.01\n")
    assert run_section(tmp_path, "optim") == {"loss": "mse", "alignment_weight": 0.01}


def test_the_card_of_the_34_language_model_names_both_teachers_and_every_language() -> None:
    from lingualite.reproduce.packaged_card import model_card
    from lingualite.reproduce.packaged_tiers import TIER_TABLE
    from lingualite.text.languages import LANGUAGES, SUPPORTED

    config = {"teacher": {"name": "use-m", "second": "e5-small"}, "optim": {"loss": "mse"}}
    card = model_card(TIER_TABLE["small-34"], {"train_pairs": 10}, {"en-fr": 1.0}, None, config)
    assert card.startswith("# lingualite-small-34\n")
    assert all(f"{LANGUAGES[code].name} ({code})" in card for code in SUPPORTED)
    assert "in the 18 languages USE-m does not know (ca, cs," in card and "e5-small's vectors" in card
    assert "the 13 languages lingualite began with" in card and "lingualite-small (all its rows" in card
    assert "far fewer translations there than its teachers" in card
    small = model_card(
        TIER_TABLE["small"], {"train_pairs": 10}, {"en-fr": 1.0}, None, {"teacher": {"second": None}}
    )
    # the 13's card names no language beyond them (its sources' licences may: the lexicon's Thai list)
    assert "does not know" not in small and "Thai (th)" not in small and "began with" not in small
    # each card lists the sources its languages read: CLDR's phrases and Firefox's strings only beyond the 13
    for source in ("CLDR emoji names", "Firefox and Thunderbird UI strings"):
        assert source in card and source not in small
