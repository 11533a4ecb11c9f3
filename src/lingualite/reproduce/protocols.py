"""The evaluation protocols of the papers' tables and of paper 001's per-stage measures, as ``lingualite eval``
runs them: what a sweep evaluates each cell with (:func:`cell_evaluator`) and what the monolingual recipe
measures after each stage (:func:`paper_set_evaluator`). The recipes and the sweep take them as arguments, so
nothing below this layer imports :mod:`lingualite.evaluation`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lingualite.recipes.monolingual.paper_measures import SetEvaluator
    from lingualite.reproduce.evaluation_inputs import EvaluationInputs, Evaluator

__all__ = ["cell_evaluator", "paper_set_evaluator"]


def cell_evaluator(threads: int | None = None, device: str = "auto", skip_bad: bool = False) -> Evaluator:
    """What a sweep evaluates each cell with, as ``lingualite eval`` computes it: XSR P@1 (square protocol,
    cosine) on each test pair file (``eval xsr --pairs ... --max-pairs N --seed S``); where the table names
    classification sets, zero-shot classification in each of its directions (``eval classify --set DIR
    --direction en2xx|xx2en``: logistic regression, mean of 5 seeds); STS files (``eval sts``); pooled XSR
    (``eval xsr --queries Q --pool P --distractors ... --direction both --method margin``); query -> passage
    retrieval (``eval ir --data DIR --queries DIR ... --max-queries N``); efficiency (``eval efficiency``,
    in a fresh process, energy off: only RAPL counters measure it).

    ``skip_bad`` (``--skip-bad``): a test pair with a side the model knows no token of, or a malformed line,
    is skipped instead of stopping the cell (``FILE:LINE``), as each ``eval`` command's ``--skip-bad`` does,
    and counted: XSR's pairs as ``xsr/skipped`` (``xsr/<test>/skipped`` per file; pooled: ``xsr_pooled/...``),
    malformed lines of the other tasks as ``<task>/skipped_lines``, all of them as ``evaluation/skipped``."""

    def evaluate(model: str | Path, inputs: EvaluationInputs) -> dict[str, Any]:
        from lingualite.encoders.resolve import load_encoder

        metrics: dict[str, Any] = {}
        if inputs.xsr_files or inputs.classify or inputs.sts_files or inputs.pooled or inputs.ir:
            encoder = load_encoder(str(model), threads=threads, device=device)
            metrics.update(_quality(encoder, inputs, skip_bad))
        if inputs.efficiency is not None:
            metrics.update(_efficiency(str(model), inputs, device))
        return metrics

    return evaluate


def _quality(encoder: Any, inputs: EvaluationInputs, skip_bad: bool = False) -> dict[str, Any]:
    from lingualite.evaluation.suite import (
        classification_direction,
        ir_from_files,
        skipped_count,
        sts_from_files,
        xsr_from_files,
    )
    from lingualite.reproduce.evaluation_inputs import flat_metrics

    metrics: dict[str, Any] = {}
    skipped = 0

    def add(prefix: str, result: dict[str, Any]) -> None:
        nonlocal skipped
        metrics.update(flat_metrics(prefix, result))
        skipped += skipped_count(result)

    if inputs.xsr_files:
        files, cap = inputs.xsr_files, inputs.max_test_pairs
        add("xsr", xsr_from_files(encoder, files, "nn", cap, inputs.seed, skip_bad=skip_bad))
    for name, folder in inputs.classify.items():
        for direction in inputs.classify_directions:
            result = classification_direction(
                encoder,
                folder,
                direction,
                inputs.classify_languages,
                "logreg",
                5,
                max_docs=inputs.classify_max_docs,
                seed=inputs.seed,
                skip_bad=skip_bad,
            )
            add(f"classify/{name}" if direction == "en2xx" else f"classify/{name}/{direction}", result)
    if inputs.sts_files:
        add("sts", sts_from_files(encoder, inputs.sts_files, skip_bad))
    if inputs.pooled is not None:
        pooled = inputs.pooled
        result = xsr_from_files(
            encoder,
            pooled.files,
            pooled.method,
            None,
            inputs.seed,
            pooled.queries,
            pooled.pool,
            pooled.distractors,
            pooled.k,
            pooled.directions,
            skip_bad,
        )
        add("xsr_pooled", result)
    if inputs.ir is not None:
        ir = inputs.ir
        result = ir_from_files(
            encoder, ir.data, ir.queries, ir.max_queries, ir.max_words, inputs.seed, skip_bad
        )
        add("ir", result)
    if skip_bad:
        metrics["evaluation/skipped"] = skipped
    return metrics


def _efficiency(model: str, inputs: EvaluationInputs, device: str = "auto") -> dict[str, Any]:
    from lingualite.evaluation.efficiency import measure_efficiency

    eff = inputs.efficiency
    assert eff is not None
    result = measure_efficiency(
        model,
        eff.texts,
        batch_size=eff.batch_size,
        single_runs=eff.single_runs,
        energy=False,
        threads=eff.threads,
        device=device,
    )
    return {
        f"efficiency/{key}": value
        for key, value in result.items()
        if isinstance(value, int | float) and not isinstance(value, bool)
    }


def paper_set_evaluator() -> SetEvaluator:
    """The protocols of the monolingual recipe's per-stage measures (paper 001, issue #16), as ``lingualite
    eval`` runs them: ``eval classify`` (logistic regression) and ``eval pairs`` (MLP on pair features), with
    the seeds and subsamples of the config's ``evaluation`` section."""

    def evaluate(encoder: Any, kind: str, train: Path, tests: list[Path], settings: Any) -> dict[str, Any]:
        from lingualite.evaluation.suite import classification_from_files, pairs_from_files

        if kind == "classify":
            return classification_from_files(
                encoder,
                train,
                tests,
                "logreg",
                settings.seeds,
                max_docs=settings.max_docs,
                seed=settings.seed,
            )
        return pairs_from_files(
            encoder,
            train,
            tests,
            settings.seeds,
            settings.max_train_pairs,
            max_test=settings.max_test_pairs,
            seed=settings.seed,
        )

    return evaluate
