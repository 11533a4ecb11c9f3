"""``lingualite models``: the ready-made models of the companion package ``lingualite-models``."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from lingualite.cli.common import USER_ERRORS, DataDirOpt, JsonOpt, OldOutOpt, fail, renamed
from lingualite.cli.output import emit

models_app = typer.Typer(
    help="The ready-made models (lingualite-small, lingualite-static, lingualite-small-34): list them, or rebuild "
    "them from packages.",
    no_args_is_help=True,
)

PACKAGE_SOURCE = Path("packages/lingualite-models/src/lingualite_models")  # in a lingualite checkout


@models_app.command("list")
def models_list(as_json: JsonOpt = False) -> None:
    """The packaged models, whether they are installed, where, and how large.

    \b
    Example:
      lingualite models list
      lingualite encode --model lingualite-small --input sentences.txt --output vectors.npy
    """
    from lingualite.encoders.packaged import PACKAGED, packaged_folder
    from lingualite.reproduce.packaged_build import folder_bytes

    rows: dict[str, dict[str, object]] = {}
    for name, runtime in PACKAGED.items():
        try:
            folder = packaged_folder(name)
            rows[name] = {
                "runtime": runtime,
                "folder": str(folder),
                "MB": round(folder_bytes(folder) / 1e6, 1),
            }
        except USER_ERRORS as exc:
            rows[name] = {"runtime": runtime, "folder": f"not installed: {exc}", "MB": 0}
    emit({"models": rows}, "Packaged models", as_json)


@models_app.command("build")
def models_build(
    out: Annotated[
        Path,
        typer.Option(
            "--output",
            help="Folder that receives small/, static/ and small-34/ (the package's source folder in a checkout).",
        ),
    ] = PACKAGE_SOURCE,
    work: Annotated[
        Path,
        typer.Option(
            help="Working folder for the distillation runs and the ONNX exports; a run already complete "
            "there is reused, an interrupted one resumed."
        ),
    ] = Path("runs/models-build"),
    data_dir: DataDirOpt = None,
    threads: Annotated[int | None, typer.Option(min=1, help="PyTorch CPU threads.")] = None,
    only: Annotated[
        str | None,
        typer.Option(
            "--only",
            metavar="small,static,small-34",
            help="Rebuild only these packaged models (comma-separated) and leave the others as they are (their "
            "recipes did not change). Default: all.",
        ),
    ] = None,
    as_json: JsonOpt = False,
    out_old: OldOutOpt = None,
) -> None:
    """Rebuild the packaged models from the packaged corpora (on 2 CPU cores: ~40 min of training for the
    13-language two, ~100 for lingualite-small-34, besides fetching and preparing the data).

    Fetches and prepares what their recipes read (lingualite data fetch --for distill, and --langs all for
    lingualite-small-34), distils the student of the 13 default languages (configs/distill.yaml, USE-m
    teacher), exports it as int8 ONNX, distils the static student from the same teacher vectors, distils the
    student of all 34 languages (configs/distill-all.yaml, USE-m and multilingual-e5-small) and exports it,
    and writes OUTPUT/small, OUTPUT/static and OUTPUT/small-34, each with its model card (languages, data and
    licences, validation, the register table, a check on everyday sentences) and checksums. Each folder is
    swapped in whole; only folders this command made are replaced. Reinstall the package afterwards (pip
    install ./packages/lingualite-models).

    \b
    Examples:
      lingualite models build --data-dir data
      lingualite models build --data-dir data --only static   # the other models' folders are left as they are
      lingualite models build --data-dir data --only small,static
    """
    from lingualite.config.parsing import default_data_dir
    from lingualite.reproduce.packaged_build import TIERS, build_packaged_models

    out = renamed(out, out_old)
    if not out.parent.is_dir():
        fail(ValueError(f"{out.parent}: no such folder (run from a lingualite checkout, or give --output)"))
    try:
        built = build_packaged_models(
            out,
            data_dir if data_dir is not None else default_data_dir(),
            work,
            say=lambda text: typer.echo(text, err=True),
            threads=threads,
            tiers=TIERS if only is None else tuple(name.strip() for name in only.split(",")),
        )
    except USER_ERRORS as exc:
        fail(exc)
    emit(
        {"models": {name: {"folder": b["folder"], "MB": b["megabytes"]} for name, b in built.items()}},
        "Packaged models built",
        as_json,
    )
