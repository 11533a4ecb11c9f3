"""``lingualite eval pairs|sts|ir``: the tasks on pairs of texts (pair classification, similarity correlation,
query -> passage ranking), each a shell over one function of :mod:`lingualite.evaluation.suite`. Registered
on ``eval`` in :mod:`lingualite.cli.eval_commands`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from lingualite.cli.common import USER_ERRORS, DeviceOpt, JsonOpt, fail
from lingualite.cli.eval_options import MoreFiles, SkipBadOpt, ThreadsOpt, given_files, load_model
from lingualite.cli.output import emit
from lingualite.cli.report_commands import ModelOpt, SeedsOpt


def eval_pairs(
    model: ModelOpt,
    train: Annotated[Path, typer.Option(help="Training pairs (one language), s1<TAB>s2<TAB>label lines.")],
    test: Annotated[
        list[Path] | None, typer.Option(help="Test file(s) of other languages, same format.")
    ] = None,
    more: MoreFiles = None,
    seeds: SeedsOpt = 5,
    max_train: Annotated[int | None, typer.Option(min=1, help="Use only the first N training pairs.")] = None,
    skip_bad: SkipBadOpt = False,
    threads: ThreadsOpt = None,
    device: DeviceOpt = "auto",
    as_json: JsonOpt = False,
) -> None:
    """Pair classification (XNLI-style, paper 001): features \\[u, v, u*v, |u-v|] and an MLP (512, 384).

    Trained on one language, tested zero-shot on the others; accuracy mean ± std over seeds.
    """

    from lingualite.evaluation.suite import pairs_from_files

    tests = given_files(test, more, "--test")
    try:
        result = pairs_from_files(
            load_model(model, threads, device), train, tests, seeds, max_train, skip_bad
        )
    except USER_ERRORS as exc:
        fail(exc)
    emit({"model": model, **result}, f"Pair classification of {model}", as_json)


def eval_sts(
    model: ModelOpt,
    pairs: Annotated[
        list[Path] | None, typer.Option(help="s1<TAB>s2<TAB>score file(s), any score scale.")
    ] = None,
    more: MoreFiles = None,
    skip_bad: SkipBadOpt = False,
    threads: ThreadsOpt = None,
    device: DeviceOpt = "auto",
    as_json: JsonOpt = False,
) -> None:
    """Semantic similarity: Spearman and Pearson correlation of cosine(u, v) with the gold scores."""
    from lingualite.evaluation.suite import sts_from_files

    files = given_files(pairs, more, "--pairs")
    try:
        result = sts_from_files(load_model(model, threads, device), files, skip_bad)
    except USER_ERRORS as exc:
        fail(exc)
    emit({"model": model, **result}, f"STS of {model}", as_json)


def eval_ir(
    model: ModelOpt,
    data: Annotated[Path, typer.Option(help="Folder with corpus.tsv, queries.tsv and qrels.tsv.")],
    queries: Annotated[
        list[Path] | None,
        typer.Option(
            help="Other folder(s) with queries.tsv + qrels.tsv against DATA's corpus (cross-lingual)."
        ),
    ] = None,
    more: MoreFiles = None,
    max_queries: Annotated[
        int | None, typer.Option(min=1, help="Seeded subsample of each folder's queries.")
    ] = None,
    max_words: Annotated[
        int | None, typer.Option(min=1, help="Cut documents to their first N words.")
    ] = None,
    seed: Annotated[int, typer.Option(min=0, help="Seed of the query subsample.")] = 0,
    skip_bad: SkipBadOpt = False,
    threads: ThreadsOpt = None,
    device: DeviceOpt = "auto",
    as_json: JsonOpt = False,
) -> None:
    """Ranking: MRR@10, NDCG@10, MAP@100 (and recall/precision) of cosine search over DATA's corpus.

    Cross-lingual IR: `--data ir/en --queries ir/fr` searches the English corpus with French queries.
    """
    from lingualite.evaluation.suite import ir_from_files

    folders = [*(queries or []), *(more or [])]
    try:
        result = ir_from_files(
            load_model(model, threads, device), data, folders, max_queries, max_words, seed, skip_bad
        )
    except USER_ERRORS as exc:
        fail(exc)
    emit({"model": model, **result}, f"IR of {model}", as_json)
