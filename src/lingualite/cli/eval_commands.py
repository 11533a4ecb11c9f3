"""``lingualite eval ...``: one sub-command per task, each printing a table or one JSON object (``--json``).

Wherever ``--model`` is accepted it takes a sentence-transformers / lingualite model folder or a baseline
name: ``tfidf``, ``minilm``, ``use-m``, ``e5-small``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from lingualite.cli.alignment_commands import eval_align
from lingualite.cli.common import USER_ERRORS, DeviceOpt, JsonOpt, OldKOpt, fail, renamed
from lingualite.cli.eval_options import (
    MoreFiles,
    SkipBadOpt,
    SkipBadPairsOpt,
    ThreadsOpt,
    given_files,
    load_model,
)
from lingualite.cli.eval_similarity_commands import eval_ir, eval_pairs, eval_sts
from lingualite.cli.output import emit
from lingualite.cli.report_commands import ModelOpt, SeedsOpt, eval_all, eval_efficiency

eval_app = typer.Typer(
    help=(
        "Evaluate any encoder: a model folder or a baseline (tfidf, minilm, use-m, e5-small).\n\n"
        "Tasks: xsr (cross-lingual retrieval), classify (zero-shot cross-lingual document classification), "
        "pairs (pair classification), sts (similarity correlation), ir (ranking), efficiency (size, speed, "
        "memory, energy); `all` runs every task on the real data and writes a report."
    ),
    no_args_is_help=True,
)


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
    k: Annotated[
        int | None,
        typer.Option(
            "--margin-k", min=1, help="Neighbourhood size of csls / margin (not hits, unlike -k of search)."
        ),
    ] = None,
    queries: Annotated[
        int | None, typer.Option(min=1, help="Pooled protocol: N seeded source queries (one direction).")
    ] = None,
    pool: Annotated[
        int | None, typer.Option(min=1, help="Pooled protocol: target pool size (with distractors).")
    ] = None,
    distractors: Annotated[
        list[str] | None,
        typer.Option(
            help="Pooled protocol: extra pool sentences, one a line, or a pair file's side in the pool's "
            "language; {pair} and {lang} in the path are the test file's folder (en-fr) and the pool's "
            "language. Repeat for more files."
        ),
    ] = None,
    direction: Annotated[
        str,
        typer.Option(
            help="Pooled protocol: src2tgt (source queries, target pool), tgt2src, or both (paper 000 Table 4's "
            "→ and ←, each on its own pool)."
        ),
    ] = "src2tgt",
    max_pairs: Annotated[
        int | None, typer.Option(min=1, help="Seeded subsample of each file's pairs.")
    ] = None,
    seed: Annotated[int, typer.Option(min=0, help="Seed of the subsample / query / pool draws.")] = 0,
    threads: ThreadsOpt = None,
    skip_bad: SkipBadPairsOpt = False,
    device: DeviceOpt = "auto",
    as_json: JsonOpt = False,
    k_old: OldKOpt = None,
) -> None:
    """Cross-lingual sentence retrieval P@1/5/10.

    Square protocol (default): all sources against all targets of each file, both directions.
    Pooled protocol (`--queries 2000 --pool 200000 --distractors train.tsv --method margin`, paper 000
    Table 4): N queries against a pool of their translations plus distractors; `--direction both` runs
    en→xx and xx→en, e.g. `--distractors 'data/prepared/{pair}/train.tsv'`.
    """
    from lingualite.data.eval_files import XSR_DIRECTIONS, expand_direction
    from lingualite.evaluation.suite import xsr_from_files

    k = renamed(k, k_old, "--k", "--margin-k")
    files = given_files(pairs, more, "--pairs")
    try:
        directions = expand_direction(direction, XSR_DIRECTIONS)
        result = xsr_from_files(
            load_model(model, threads, device),
            files,
            method,
            max_pairs,
            seed,
            queries,
            pool,
            distractors,
            k,
            directions,
            skip_bad,
        )
    except USER_ERRORS as exc:
        fail(exc)
    emit({"model": model, **result}, f"XSR ({method}) of {model}", as_json)


@eval_app.command("classify")
def eval_classify(
    model: ModelOpt,
    train: Annotated[
        Path | None, typer.Option(help="Training file (one language), label<TAB>text lines.")
    ] = None,
    test: Annotated[
        list[Path] | None, typer.Option(help="Test file(s) of other languages, same format.")
    ] = None,
    more: MoreFiles = None,
    classifier: Annotated[str, typer.Option(help="logreg, or mlp (LASER's MLDoc classifier).")] = "logreg",
    seeds: SeedsOpt = 5,
    max_words: Annotated[
        int | None, typer.Option(min=1, help="Cut documents to their first N words.")
    ] = None,
    max_docs: Annotated[
        int | None, typer.Option(min=1, help="Seeded subsample of N documents per file.")
    ] = None,
    set_dir: Annotated[
        Path | None,
        typer.Option(
            "--set",
            help="A set folder (train.<lang>.tsv, test.<lang>.tsv) instead of --train/--test; see --direction.",
        ),
    ] = None,
    direction: Annotated[
        str,
        typer.Option(
            help="With --set: en2xx (fit on English, score every language), xx2en (fit on each other "
            "language, score English) or both (paper 000 Table 3's → and ←)."
        ),
    ] = "en2xx",
    skip_bad: SkipBadOpt = False,
    threads: ThreadsOpt = None,
    device: DeviceOpt = "auto",
    as_json: JsonOpt = False,
) -> None:
    """Zero-shot cross-lingual document classification (MLDoc protocol, paper 000 Sec. 4.3, Table 3).

    Fits the classifier on the training language's document vectors and reports accuracy (mean ± std over
    seeds) and macro-F1 on every test file, e.g. `--train train.en.tsv --test test.fr.tsv test.de.tsv`.
    Both directions of a set: `--set data/eval/classify/libreoffice-modules --direction both`.
    """
    from lingualite.evaluation.suite import classification_from_files

    if set_dir is not None:
        if train is not None or test or more:
            fail(ValueError("give either --set or --train/--test, not both"))
        from lingualite.evaluation.suite import classification_from_set

        try:
            result = classification_from_set(
                load_model(model, threads, device),
                set_dir,
                direction,
                classifier,
                seeds,
                max_words,
                max_docs,
                skip_bad,
            )
        except USER_ERRORS as exc:
            fail(exc)
        title = f"Classification ({classifier}, {direction}) of {model}"
        emit({"model": model, "set": str(set_dir), **result}, title, as_json)
        return

    if train is None:
        fail(ValueError("give --train and --test, or --set"))
    if direction != "en2xx":
        fail(ValueError("--direction needs --set (a folder with train.<lang>.tsv and test.<lang>.tsv)"))
    tests = given_files(test, more, "--test")
    try:
        result = classification_from_files(
            load_model(model, threads, device), train, tests, classifier, seeds, max_words, skip_bad, max_docs
        )
    except USER_ERRORS as exc:
        fail(exc)
    emit({"model": model, **result}, f"Classification ({classifier}) of {model}", as_json)


eval_app.command("pairs")(eval_pairs)
eval_app.command("sts")(eval_sts)
eval_app.command("ir")(eval_ir)
eval_app.command("efficiency")(eval_efficiency)
eval_app.command("all")(eval_all)
eval_app.command("align")(eval_align)
