"""``lingualite eval ...``: one sub-command per task, each printing a table or one JSON object (``--json``).

Wherever ``--model`` is accepted it takes a sentence-transformers / lingualite model folder or a baseline
name: ``tfidf``, ``minilm``, ``use-m``, ``e5-small``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from lingualite.cli.common import USER_ERRORS, emit, fail

MODEL_HELP = (
    "Model folder (sentence-transformers / lingualite), or a baseline: tfidf, minilm, use-m, e5-small."
)
JSON_HELP = "Print one JSON object on stdout (keys named after the metrics)."

eval_app = typer.Typer(
    help=(
        "Evaluate any encoder: a model folder or a baseline (tfidf, minilm, use-m, e5-small).\n\n"
        "Tasks: xsr (cross-lingual retrieval), classify (zero-shot cross-lingual document classification), "
        "pairs (pair classification), sts (similarity correlation), ir (ranking), efficiency (size, speed, "
        "memory, energy); `all` runs every task on the real data and writes a report."
    ),
    no_args_is_help=True,
)

ModelOpt = Annotated[str, typer.Option(help=MODEL_HELP)]
JsonOpt = Annotated[bool, typer.Option("--json", help=JSON_HELP)]
MoreFiles = Annotated[
    list[Path] | None, typer.Argument(help="More files of the same kind (so `--test a.tsv b.tsv` works).")
]


def _files(first: list[Path] | None, more: list[Path] | None, option: str) -> list[Path]:
    files = [*(first or []), *(more or [])]
    if not files:
        fail(ValueError(f"give at least one file with {option}"))
    return files


def _load(model: str) -> Any:
    from lingualite.evaluation.encoders import load_encoder

    return load_encoder(model)


def _mean_over_files(per_file: dict[str, dict[str, Any]]) -> dict[str, float]:
    first = next(iter(per_file.values()))
    keys = [k for k, v in first.items() if isinstance(v, float)]
    return {k: sum(r[k] for r in per_file.values()) / len(per_file) for k in keys}


@eval_app.command("xsr")
def eval_xsr(
    model: ModelOpt,
    pairs: Annotated[
        list[Path] | None, typer.Option(help="src<TAB>tgt file(s), e.g. data/prepared/en-fr/test.tsv.")
    ] = None,
    more: MoreFiles = None,
    method: Annotated[
        str, typer.Option(help="nn (cosine), csls (k=10) or margin (ratio margin, k=4).")
    ] = "nn",
    k: Annotated[int | None, typer.Option(help="Neighbourhood size for csls/margin.")] = None,
    queries: Annotated[
        int | None, typer.Option(help="Pooled protocol: N seeded source queries (one direction).")
    ] = None,
    pool: Annotated[
        int | None, typer.Option(help="Pooled protocol: target pool size (with distractors).")
    ] = None,
    distractors: Annotated[
        Path | None, typer.Option(help="Extra target sentences: one a line, or a pair file's 2nd column.")
    ] = None,
    max_pairs: Annotated[int | None, typer.Option(help="Seeded subsample of each file's pairs.")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the subsample / query / pool draws.")] = 0,
    as_json: JsonOpt = False,
) -> None:
    """Cross-lingual sentence retrieval P@1/5/10.

    Square protocol (default): all sources against all targets of each file, both directions.
    Pooled protocol (`--queries 2000 --pool 200000 --distractors train.tsv`, paper 000 Table 4): N source
    queries against a pool of their translations plus distractors.
    """
    from lingualite.evaluation.xsr import evaluate_xsr, load_distractors, load_xsr_pairs

    files = _files(pairs, more, "--pairs")
    try:
        encoder = _load(model)
        extra = load_distractors(distractors) if distractors else ()
        per_file = {}
        for path in files:
            src, tgt = load_xsr_pairs(path, max_pairs=max_pairs, seed=seed)
            per_file[str(path)] = evaluate_xsr(
                encoder,
                src,
                tgt,
                method,
                queries=queries,
                pool=pool,
                distractors=extra,
                seed=seed,
                k=k,  # type: ignore[arg-type]
            )
    except USER_ERRORS as exc:
        fail(exc)
    emit(
        {**_mean_over_files(per_file), "method": method, "model": model, "files": per_file},
        f"XSR of {model}",
        as_json,
    )
