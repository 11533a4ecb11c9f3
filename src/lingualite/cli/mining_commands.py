"""``lingualite mine`` (bitext mining between two text files) and ``lingualite eval mine`` (its BUCC-style
evaluation on held-out pairs among distractors). Registered on the apps in :mod:`lingualite.cli.main`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from lingualite.cli.common import (
    USER_ERRORS,
    DataDirOpt,
    DeviceOpt,
    JsonOpt,
    OldKOpt,
    fail,
    in_data_dir,
    renamed,
    use_device,
)
from lingualite.cli.output import emit

MODEL_HELP = (
    "Model folder, a baseline (use-m, minilm, e5-small) or a runtime spec (onnx:F, onnx-int8:F, static:F, "
    "bf16:F)."
)
ModeOpt = Annotated[
    str,
    typer.Option(
        help="max (both directions' bests, each sentence once), intersect (best both ways), forward (each "
        "source's best), backward (each target's best)."
    ),
]
KOpt = Annotated[
    int,
    typer.Option(
        "--margin-k",
        min=1,
        help="Neighbourhood size of the ratio margin: the k nearest neighbours averaged in its denominator "
        "(not the -k of search, which is hits).",
    ),
]


MineOutputOpt = Annotated[
    Path,
    typer.Option(
        help="Mined pairs, best first: score<TAB>source<TAB>target<TAB>source line<TAB>target line "
        "(1-based line numbers in --src and --tgt)."
    ),
]
OverwriteWorkOpt = Annotated[
    bool,
    typer.Option(
        "--overwrite",
        help="Empty the work folder first (it must be a mining work folder): needed when its files were "
        "computed from another model or input, e.g. a model folder changed in place.",
    ),
]


def mine(
    model: Annotated[str, typer.Option(help=MODEL_HELP)],
    src: Annotated[Path, typer.Option(help="Source sentences, one a line (UTF-8).")],
    tgt: Annotated[Path, typer.Option(help="Target sentences, one a line (UTF-8).")],
    output: MineOutputOpt,
    threshold: Annotated[
        float | None,
        typer.Option(help="Keep pairs with a margin >= this (pick it with `lingualite eval mine`)."),
    ] = None,
    mode: ModeOpt = "max",
    one_to_one: Annotated[
        bool, typer.Option(help="Greedy 1:1: each sentence in at most one pair (max mode always is).")
    ] = True,
    k: KOpt = 4,
    candidates: Annotated[int, typer.Option(min=1, help="Neighbours kept per sentence (>= k).")] = 8,
    work_dir: Annotated[
        Path | None,
        typer.Option(help="Shards, neighbour lists, manifest \\[default: OUTPUT.work].", show_default=False),
    ] = None,
    shard_size: Annotated[int, typer.Option(min=1, help="Sentences per shard: bounds the memory.")] = 100_000,
    search: Annotated[
        str,
        typer.Option(help="exact, ivf (approximate, 8-bit codes, exact rescoring) or auto (ivf from 200k)."),
    ] = "auto",
    nprobe: Annotated[int, typer.Option(min=1, help="IVF cells visited per query.")] = 16,
    rescore_model: Annotated[
        str | None, typer.Option(help="Two-stage: MODEL proposes candidates, this model rescores them.")
    ] = None,
    workers: Annotated[int, typer.Option(min=1, help="Encoding processes (or Ray actors).")] = 1,
    engine: Annotated[
        str, typer.Option(help="local, or ray (Ray Data; RAY_ADDRESS joins a cluster).")
    ] = "local",
    overwrite: OverwriteWorkOpt = False,
    skip_bad: Annotated[
        bool,
        typer.Option(
            "--skip-bad",
            help="Leave out (and count) lines with no token the model knows (only emoji or symbols, a script "
            "it never saw) instead of stopping at the first: they are in no pair.",
        ),
    ] = False,
    device: DeviceOpt = "auto",
    as_json: JsonOpt = False,
    k_old: OldKOpt = None,
) -> None:
    """Mine translation pairs between two monolingual files by ratio margin (LASER's method).

    Both files are encoded into on-disk shards, neighbours are searched shard against shard (memory is
    bounded by --shard-size, not by the corpus), and pairs are selected by the margin
    cos(x, y) / mean(neighbourhood cosines of x and y). Every step's files are kept in the work folder:
    an interrupted run resumes where it stopped, and a re-run with another --threshold or --mode only
    re-selects (seconds). The output is written atomically; the inputs are never replaced.

    \b
    Examples:
      lingualite mine --model runs/distill --src news.en --tgt news.fr --output pairs.tsv --threshold 1.06
      lingualite mine --model static:runs/static --rescore-model runs/distill --src a.txt --tgt b.txt --output p.tsv
      lingualite eval mine --model runs/distill        # precision/recall/F1 and the threshold to use
    """
    from lingualite.mining.pipeline import mine as mine_pairs

    k = renamed(k, k_old, "--k", "--margin-k")
    try:
        result = mine_pairs(
            model,
            src,
            tgt,
            output,
            work_dir,
            report=lambda s: typer.echo(s, err=True),
            overwrite=overwrite,
            k=k,
            candidates=candidates,
            mode=mode,
            threshold=threshold,
            one_to_one=one_to_one,
            shard_size=shard_size,
            search=search,
            nprobe=nprobe,
            workers=workers,
            engine=engine,
            rescore_model=rescore_model,
            device=use_device(device),
            skip_bad=skip_bad,
        )
    except USER_ERRORS as exc:
        fail(exc)
    emit(
        {
            "output": str(result.output),
            "pairs": result.pairs,
            "src_sentences": result.src_sentences,
            "tgt_sentences": result.tgt_sentences,
            "search": result.search,
            "seconds": result.seconds,
            **({"skipped": {side: len(lines) for side, lines in result.skipped.items()}} if skip_bad else {}),
        },
        "Mined",
        as_json,
    )


def eval_mine(
    model: Annotated[str, typer.Option(help=MODEL_HELP.replace("a baseline (", "a baseline (tfidf, "))],
    pairs: Annotated[
        list[Path] | None,
        typer.Option(
            help="Pair folders with valid.tsv and test.tsv (en-xx, or xx-yy from `lingualite data pivot`) \\[default: DATA_DIR/prepared/*].",
            show_default=False,
        ),
    ] = None,
    gold: Annotated[int, typer.Option(min=1, help="Hidden translation pairs per language pair.")] = 200,
    mode: ModeOpt = "max",
    k: KOpt = 4,
    seed: Annotated[int, typer.Option(min=0, help="Seed of the gold and distractor draws.")] = 0,
    data_dir: DataDirOpt = None,
    device: DeviceOpt = "auto",
    as_json: JsonOpt = False,
    k_old: OldKOpt = None,
) -> None:
    """Bitext mining precision / recall / F1, BUCC-style: held-out test pairs hidden among 1x, 10x and 100x
    distractor sentences per side. The margin threshold is the one with the best F1 on the valid split's
    task, applied unchanged to test; use it as `lingualite mine --threshold`.
    """
    from lingualite.encoders.resolve import load_encoder
    from lingualite.evaluation.mining import evaluate_mining

    k = renamed(k, k_old, "--k", "--margin-k")
    folders = pairs or sorted(p for p in in_data_dir(None, data_dir, "prepared").glob("*-*") if p.is_dir())
    try:
        if not folders:
            raise ValueError("no en-xx folders: run `lingualite prepare` or give --pairs")
        encoder = load_encoder(model, device=use_device(device))
        result = evaluate_mining(encoder, folders, n_gold=gold, mode=mode, k=k, seed=seed)
    except USER_ERRORS as exc:
        fail(exc)
    emit(
        {"model": model, "mode": mode, "gold_pairs": gold, "results": result}, "Bitext mining (test)", as_json
    )
