"""The ready-made models of ``lingualite-models`` load by name and find translations of everyday sentences.

CI installs the companion package (the README's commands do); the model tests need it and say so when absent.
"""

from __future__ import annotations

import sys

import numpy as np
import pytest

from lingualite.core.errors import LinguaLiteError
from lingualite.encoders.packaged import INSTALL_HINT, PACKAGED, packaged_spec
from lingualite.text.languages import CORE_TRANSLATION_LANGS, ENGLISH

# A floor well under what the shipped models measure on the `daily` register of the everyday set (60
# sentences, a register no training source has; mean en-xx XSR P@1 0.94 small, 0.79 static with the broad recipe,
# benchmarks/results/register_table.json), high above chance (1/60): a broken graph, tokenizer or table fails it.
MIN_MEAN_EVERYDAY_P_AT_1 = 0.7
EVERYDAY_REGISTER = "daily"


def test_other_names_are_not_packaged() -> None:
    assert packaged_spec("use-m") is None
    assert packaged_spec("runs/lingualite-small") is None


def test_a_missing_package_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "lingualite_models", None)  # import fails as when not installed
    with pytest.raises(LinguaLiteError, match="lingualite-models package is not installed") as err:
        packaged_spec("lingualite-small")
    assert INSTALL_HINT in str(err.value)


@pytest.mark.parametrize("name", sorted(PACKAGED))
def test_each_packaged_model_loads_by_name_and_finds_translations(name: str) -> None:
    pytest.importorskip("lingualite_models", reason="pip install ./packages/lingualite-models")
    from lingualite.data.evalsets.everyday import everyday_pairs
    from lingualite.encoders.resolve import load_encoder
    from lingualite.evaluation.xsr import evaluate_xsr

    encoder = load_encoder(name, threads=1)
    assert packaged_spec(name).startswith(f"{PACKAGED[name]}:")
    scores = [
        evaluate_xsr(encoder, *everyday_pairs(ENGLISH, lang, EVERYDAY_REGISTER))["p_at_1"]
        for lang in CORE_TRANSLATION_LANGS
    ]
    assert float(np.mean(scores)) >= MIN_MEAN_EVERYDAY_P_AT_1, dict(
        zip(CORE_TRANSLATION_LANGS, scores, strict=True)
    )
    assert min(scores) > 0.2  # every language works, not only the Latin-script ones
