"""``lingualite align`` (pair the lines of two translated documents) and ``lingualite eval align`` (its F1
on held-out LibreOffice help pages). Registered in :mod:`lingualite.cli.main` and
:mod:`lingualite.cli.eval_commands`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from lingualite.alignment.dp import SKIP_PERCENTILE
from lingualite.cli.common import USER_ERRORS, DataDirOpt, DeviceOpt, JsonOpt, fail, in_data_dir, use_device
from lingualite.cli.output import emit
from lingualite.core.errors import LinguaLiteError

ModelOpt = Annotated[
    str | None,
    typer.Option(
        help="Encoder for --method embedding: a model folder, a baseline (tfidf, use-m, ...), onnx:FOLDER, "
        "onnx-int8:FOLDER, static:FOLDER or bf16:FOLDER.",
        show_default=False,
    ),
]
MethodOpt = Annotated[
    str, typer.Option(help="embedding (Vecalign-style, needs --model) or gale-church (lengths only).")
]
MaxBlockOpt = Annotated[int, typer.Option(min=1, max=4, help="Largest block: 2 allows 1-2 and 2-1.")]
SkipCostOpt = Annotated[
    float | None,
    typer.Option(
        min=0.0,
        help="Cost of leaving a line unaligned (embedding costs are ~1 for unrelated lines) \\[default: the "
        "--skip-percentile quantile of the costs of unrelated 1-1 pairs].",
        show_default=False,
    ),
]
SkipPercentileOpt = Annotated[
    float,
    typer.Option(
        min=0.0,
        max=1.0,
        help="Vecalign's deletion knob when --skip-cost is not given: the quantile of the costs of unrelated "
        "1-1 pairs (distinct lines, each line's best pair left out) that a skip costs (lower: skips are cheaper). The default, not Vecalign's 0.2, is the one measured best on "
        "documents with omissions (benchmarks/results/alignment_eval.md).",
    ),
]
ManyOpt = Annotated[bool, typer.Option("--many-to-many", help="Also allow 2-2 blocks.")]
ThreadsOpt = Annotated[int | None, typer.Option(min=1, help="CPU threads of the encoder.")]


def align_command(
    src: Annotated[Path, typer.Option(help="Source document: UTF-8, one sentence or paragraph per line.")],
    tgt: Annotated[Path, typer.Option(help="Its translation, same format.")],
    output: Annotated[Path, typer.Option(help="TSV to write: src_ids, tgt_ids, score, src text, tgt text.")],
    model: ModelOpt = None,
    method: MethodOpt = "embedding",
    max_block: MaxBlockOpt = 2,
    skip_cost: SkipCostOpt = None,
    skip_percentile: SkipPercentileOpt = SKIP_PERCENTILE,
    many_to_many: ManyOpt = False,
    threads: ThreadsOpt = None,
    skip_bad: Annotated[
        bool,
        typer.Option(
            "--skip-bad",
            help="Leave lines with no token the model knows (only emoji or symbols, a script it never saw) "
            "unaligned, as blank lines, and count them, instead of stopping at the first.",
        ),
    ] = False,
    device: DeviceOpt = "auto",
    as_json: JsonOpt = False,
) -> None:
    """Align the lines of two translated documents, in order (1-1, 1-2, 2-1, and skips 1-0 / 0-1).

    embedding: Vecalign's dynamic programme over the cosine of sentence vectors, normalised against random
    lines so that skips have a calibrated cost; blocks of two lines are embedded as their joined text; long
    documents are aligned coarse-to-fine in a band (linear time). gale-church: character lengths only.
    Output lines: `1<TAB>1,2<TAB>0.8731<TAB>source<TAB>target` (1-based line numbers, comma-joined; an empty
    id list is a skip; blank input lines are not aligned). The TSV is written atomically.

    \b
    Examples:
      lingualite align --model use-m --src doc.en --tgt doc.fr --output doc.en-fr.tsv
      lingualite align --method gale-church --src doc.en --tgt doc.fr --output gc.tsv
    """
    from lingualite.alignment.documents import align

    try:
        done = align(
            src,
            tgt,
            output,
            model=model,
            method=method,
            max_block=max_block,
            skip_cost=skip_cost,
            skip_percentile=skip_percentile,
            many_to_many=many_to_many,
            threads=threads,
            device=use_device(device),
            progress=lambda msg: typer.echo(f"lingualite: {msg}", err=True),
            skip_bad=skip_bad,
        )
    except USER_ERRORS as exc:
        fail(exc)
    emit(
        {
            "output": str(done.output),
            **({"skipped": {side: len(n) for side, n in done.skipped.items()}} if skip_bad else {}),
            "src_lines": done.src_lines,
            "tgt_lines": done.tgt_lines,
            "blocks": done.blocks,
            "seconds": round(done.seconds, 2),
            "shapes": {k: {"blocks": v} for k, v in done.shapes.items()},
        },
        f"Aligned ({method})",
        as_json,
    )


def eval_align(
    model: ModelOpt = None,
    method: MethodOpt = "embedding",
    langs: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated languages paired with English \\[default: every supported language].",
            show_default=False,
        ),
    ] = None,
    pairs: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated pairs of any two languages (zh-ru,ja-ko,en-fr), instead of --langs.",
            show_default=False,
        ),
    ] = None,
    min_paragraphs: Annotated[
        int, typer.Option(min=1, help="Pages with fewer shared paragraphs are left out.")
    ] = 20,
    drop: Annotated[
        float, typer.Option(min=0.0, max=0.9, help="Seeded share of paragraphs removed from each side.")
    ] = 0.15,
    seed: Annotated[int, typer.Option(min=0, help="Seed of the paragraph drop.")] = 0,
    split: Annotated[
        str, typer.Option(help="Which prepared split's pages: test (default) or valid.")
    ] = "test",
    max_block: MaxBlockOpt = 2,
    skip_cost: SkipCostOpt = None,
    skip_percentile: SkipPercentileOpt = SKIP_PERCENTILE,
    help_pages: Annotated[
        Path | None,
        typer.Option(help="LibreOffice help \\[default: DATA_DIR/cache/libreoffice].", show_default=False),
    ] = None,
    prepared: Annotated[
        Path | None,
        typer.Option(
            help="Prepared pairs (for the split) \\[default: DATA_DIR/prepared].", show_default=False
        ),
    ] = None,
    data_dir: DataDirOpt = None,
    threads: ThreadsOpt = None,
    device: DeviceOpt = "auto",
    as_json: JsonOpt = False,
) -> None:
    """Document alignment F1 on held-out LibreOffice help pages (English vs each language, or any pairs).

    Gold: paragraphs with the same id on both pages; 15% of each side's paragraphs are dropped (seeded) so
    that skips are needed; only pages of the prepared test split with >= 20 paragraphs. Reports Vecalign's
    strict precision / recall / F1 over the gold 1-1 links, lax F1, and seconds per document pair.

    \b
    Examples:
      lingualite eval align --model use-m
      lingualite eval align --method gale-church --langs fr,de
      lingualite eval align --model use-m --pairs zh-ru,ja-ko
    """
    from lingualite.evaluation.document_alignment import evaluate_aligner, load_cases
    from lingualite.text.languages import (
        CORE_TRANSLATION_LANGS,
        ENGLISH,
        check_languages,
        pair_name,
        parse_pair,
    )

    raw, prep = (
        in_data_dir(help_pages, data_dir, "cache/libreoffice"),
        in_data_dir(prepared, data_dir, "prepared"),
    )
    try:
        if split not in ("test", "valid"):
            raise LinguaLiteError(f"--split: {split!r} is not test or valid")
        from lingualite.alignment.documents import make_aligner

        aligner = make_aligner(
            method, model, max_block, skip_cost, skip_percentile, False, threads, device=use_device(device)
        )
        if pairs:
            todo = [parse_pair(p.strip()) for p in pairs.split(",") if p.strip()]
        else:
            wanted = check_languages(x.strip() for x in langs.split(",")) if langs else CORE_TRANSLATION_LANGS
            todo = [(ENGLISH, lang) for lang in wanted]
        per_pair = {}
        for src, tgt in todo:
            cases = load_cases(raw, prep, tgt, min_paragraphs, drop, seed, split, src=src)
            per_pair[pair_name(src, tgt)] = evaluate_aligner(aligner, cases)
    except USER_ERRORS as exc:
        fail(exc)
    mean_f1 = sum(r["f1"] for r in per_pair.values()) / len(per_pair)
    label = model if method == "embedding" else method
    emit(
        {"model": label, "method": method, "mean_f1": mean_f1, "per_pair": per_pair},
        f"Alignment F1 of {label}",
        as_json,
    )
