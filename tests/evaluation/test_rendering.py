"""Report rendering: the summary's numbers."""

from __future__ import annotations

import pytest

from lingualite.evaluation.rendering import summary_value


def test_summary_value_averages_the_cross_lingual_tests_only() -> None:
    metrics = {
        "accuracy": 0.7,
        "per_test": {"en": {"accuracy": 0.9}, "fr": {"accuracy": 0.6}, "de": {"accuracy": 0.6}},
    }
    assert summary_value("classify/x/logreg", metrics) == pytest.approx(0.6)
    assert summary_value("xsr", {"p_at_1": 0.5, "per_test": {"en-fr": {"p_at_1": 0.5}}}) == 0.5
    assert summary_value("sts/lee", {"spearman": 0.3, "per_test": {"en": {"spearman": 0.3}}}) == 0.3
