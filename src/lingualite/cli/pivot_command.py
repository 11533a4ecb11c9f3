"""``lingualite data pivot``: non-English held-out pairs (zh-ru, pl-ru, ja-ko...) from the prepared en-xx ones."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from lingualite.cli.common import USER_ERRORS, DataDirOpt, JsonOpt, OldOutOpt, fail, in_data_dir, renamed
from lingualite.cli.output import emit


def data_pivot(
    pairs: Annotated[
        list[str],
        typer.Argument(help="Language pairs without English, e.g. zh-ru pl-ru ja-ko.", show_default=False),
    ],
    prepared: Annotated[
        Path | None,
        typer.Option(
            help="Folder of the prepared en-xx pairs \\[default: DATA_DIR/prepared].", show_default=False
        ),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            "--output",
            help="Where the xx-yy folders go \\[default: DATA_DIR/prepared-pivot, outside the "
            "prepared/*/ globs the recipes train and validate on].",
            show_default=False,
        ),
    ] = None,
    splits: Annotated[
        str, typer.Option(help="Comma-separated held-out splits to build: valid, test.")
    ] = "valid,test",
    data_dir: DataDirOpt = None,
    as_json: JsonOpt = False,
    out_old: OldOutOpt = None,
) -> None:
    """Build xx-yy valid/test pairs from the prepared en-xx and en-yy ones, joined on (document, English).

    The packaged sources align every language to the same English unit and document (LibreOffice page
    paragraph, Bible verse, Debian description), so the two translations of one English sentence are a pair.
    A document is held out in every language alike (the split is a hash of its id), so a test pair is a test
    pair on both sides; training splits are never read. Writes OUTPUT/xx-yy/{valid,test}.tsv and stats.json.

    \b
    Examples:
      lingualite data pivot zh-ru pl-ru ja-ko
      lingualite data pivot de-fr --splits test --data-dir /work/data
    """
    from lingualite.data.pivot import PIVOT_DIR, pivot_pairs
    from lingualite.text.languages import pair_name, parse_pair

    folder = in_data_dir(prepared, data_dir, "prepared")
    out = in_data_dir(renamed(out, out_old), data_dir, PIVOT_DIR)
    rows: dict[str, dict[str, int]] = {}
    try:
        wanted = tuple(s.strip() for s in splits.split(",") if s.strip())
        for name in pairs:
            src, tgt = parse_pair(name)
            target = out / pair_name(src, tgt)
            stats = pivot_pairs(folder, src, tgt, splits=wanted, out_dir=target)
            for split, counts in stats["splits"].items():
                rows[f"{pair_name(src, tgt)} {split}"] = {k: v for k, v in counts.items() if "/" not in k}
    except USER_ERRORS as exc:
        fail(exc)
    emit(
        {"prepared": str(folder), "out": str(out), "pairs": rows},
        "Pivot pairs through English",
        as_json,
    )
