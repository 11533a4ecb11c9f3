"""What every command shares: one-line errors, JSON or table output."""

from __future__ import annotations

import contextlib
import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from lingualite.cli.output import echo_logs, emit, split_per_pair
from lingualite.core.device import DEVICE_HELP
from lingualite.core.errors import LinguaLiteError

# Errors a user can fix: printed as one line (file:line: reason), exit code 2.
USER_ERRORS = (LinguaLiteError, OSError, ValueError)


TRAIN_FILES_HELP = (
    "Training pair files (src<TAB>tgt[<TAB>doc_id]; globs allowed; repeat the option for more), replacing "
    "the config's data.train_files."
)
VALID_FILES_HELP = "Validation pair files, replacing the config's data.valid_files (repeat for more)."
JsonOpt = Annotated[
    bool, typer.Option("--json", help="Print one JSON object (for scripts) instead of tables.")
]
# The old spelling of --output (prepare, data fetch/eval-sets/pivot, eval all, models build): still accepted,
# hidden from --help and the reference, with a note; see renamed().
OldOutOpt = Annotated[
    Path | None,
    typer.Option("--out", hidden=True, help="Deprecated spelling of --output.", show_default=False),
]
# The old spelling of --margin-k (mine, eval mine, eval xsr), likewise.
OldKOpt = Annotated[
    int | None, typer.Option("--k", min=1, hidden=True, help="Deprecated spelling of --margin-k.")
]


def renamed(value: Any, old_value: Any, old: str = "--out", new: str = "--output") -> Any:
    """``value``, or ``old_value`` with a one-line deprecation note on stderr when the old spelling was given."""
    if old_value is None:
        return value
    typer.echo(f"lingualite: {old} is deprecated; use {new} (same meaning)", err=True)
    return old_value


DimensionsOpt = Annotated[
    int | None,
    typer.Option(
        min=1,
        help="Keep the first N components of each vector, renormalised (Matryoshka truncation); warns unless "
        "the model was trained for N (matryoshka_dims).",
    ),
]
DATA_DIR_HELP = (
    "Data directory: where `lingualite data fetch` put corpora and prepared pairs; replaces {data_dir} in "
    "the config's paths (shipped configs read {data_dir}/prepared/*/train.tsv). Default: data."
)
DataDirOpt = Annotated[
    Path | None,
    typer.Option(
        "--data-dir",
        envvar="LINGUALITE_DATA_DIR",
        help="Data directory (corpora/, prepared/, eval/, cache/ below it) \\[default: data].",
        show_default=False,
    ),
]


DeviceOpt = Annotated[
    str,
    typer.Option(
        "--device",
        envvar="LINGUALITE_DEVICE",
        help=DEVICE_HELP + " The device in use is printed once on stderr (auto on a CPU: nothing).",
    ),
]
"""``--device`` of every command that runs a model (:mod:`lingualite.core.device`); check it with :func:`use_device`."""


def hide_flag_types() -> None:
    """Print no type after plain flags in ``--help`` (``--normalize``, not ``--normalize <bool>``): typer's
    rich help shows every option's type, a flag's too, though a flag takes no value. Patched once here (typer
    has no setting for it) for every command; the help of options that take a value is unchanged."""
    from typer.core import TyperOption

    shown = TyperOption.display_type_rich
    if getattr(shown, "hides_flag_types", False):
        return

    def display_type_rich(self: TyperOption, ctx: Any) -> str | None:
        return None if self.is_flag and self.metavar is None else shown(self, ctx)

    display_type_rich.hides_flag_types = True  # type: ignore[attr-defined]
    TyperOption.display_type_rich = display_type_rich  # type: ignore[method-assign]


def use_device(spec: str) -> str:
    """Check ``--device`` on this machine (``cuda`` without CUDA, or a GPU index it does not have, is a
    one-line error) and let the library print the device line on stderr; returns ``spec`` for the calls."""
    from lingualite.core.device import announce_to, resolve_device

    try:
        resolve_device(spec)
    except LinguaLiteError as exc:
        fail(exc)
    announce_to(lambda line: typer.echo(f"lingualite: {line}", err=True))
    return spec


STDIN = Path("-")
STDIN_HELP = "- reads standard input."


@contextlib.contextmanager
def stdin_or_file(path: Path) -> Iterator[Path]:
    """``path``; for ``-``, standard input spooled to a temporary file that is removed afterwards (commands
    read a text input twice: to count its lines, then to encode it; and worker processes open it by name).
    A one-line error about the spooled file names ``<stdin>`` instead."""
    if path != STDIN:
        yield path
        return
    with tempfile.TemporaryDirectory(prefix="lingualite-stdin-") as folder:
        spooled = Path(folder) / "stdin.txt"
        with open(spooled, "wb") as fh:
            shutil.copyfileobj(sys.stdin.buffer, fh)
        try:
            yield spooled
        except USER_ERRORS as exc:
            raise LinguaLiteError(str(exc).replace(str(spooled), "<stdin>")) from exc


def in_data_dir(given: Path | None, data_dir: Path | None, sub: str) -> Path:
    """``given`` if the user named it, else ``<data dir>/sub`` (the data dir: option, env, or ``data``)."""
    from lingualite.config.parsing import default_data_dir

    if given is not None:
        return given
    return (data_dir if data_dir is not None else default_data_dir()) / sub


SMOKE_HELP = (
    "A quick check that everything works: caps data, vocabulary, steps and evaluation (printed first) so "
    "the run takes minutes; the model is undertrained."
)


def smoke_notice(cfg: Any) -> None:
    """Print which values a smoke run caps (the recipe applies the same caps itself)."""
    from lingualite.training.smoke import smoke_banner, smoke_config

    typer.secho(smoke_banner(smoke_config(cfg)[1]), fg=typer.colors.YELLOW, err=True)


def with_data_files(cfg: Any, train_files: list[str] | None, valid_files: list[str] | None) -> Any:
    """``cfg`` with ``data.train_files`` / ``data.valid_files`` replaced where given (your own data, no YAML).

    Your own pairs replace the config's data: the untranslated text a distill config reads beside its pairs
    (``data.monolingual_files``, the packages' text in the shipped one) is left out too, said on stderr; a
    config of your own that lists it keeps it when it names no train files on the command line."""
    if train_files:
        cfg.data.train_files = list(train_files)
        if getattr(cfg.data, "monolingual_files", None):
            typer.echo(
                "--train-files: training on these pairs only (the config's data.monolingual_files are left "
                "out; list them in a config of your own to keep them)",
                err=True,
            )
            cfg.data.monolingual_files = []
    if valid_files:
        cfg.data.valid_files = list(valid_files)
    return cfg


def fail(exc: BaseException) -> NoReturn:
    typer.secho(f"error: {exc}", fg=typer.colors.RED, err=True)
    raise typer.Exit(2)


_FINISHED = {"parallel": "Training", "distill": "Distillation", "monolingual": "Monolingual training"}


def run_recipe(
    config: str,
    output: Path,
    data_dir: Path | None,
    train_files: list[str] | None,
    valid_files: list[str] | None,
    as_json: bool,
    mode: str | None = None,
    **options: Any,
) -> None:
    """What ``train`` and ``distill`` do: load the config (``mode``: it must be that recipe's), run its recipe
    through :func:`lingualite.recipes.train` with a progress bar on a terminal, plain progress and log lines
    otherwise (nohup, CI), and print the result."""
    from lingualite.recipes import load_recipe_config, train

    use_device(options.get("device", "auto"))
    echo_logs("lingualite", "lingualite")
    try:
        cfg = with_data_files(load_recipe_config(config, data_dir, mode), train_files, valid_files)
        if options.get("smoke"):
            smoke_notice(cfg)
        result = train(cfg, output, progress=True, **options)  # a bar on a terminal, else plain lines
    except USER_ERRORS as exc:
        fail(exc)
    shown: dict[str, Any] = {"output": str(result.output_dir), "steps": result.steps}
    if result.stages:  # recipes with stages: the last finished stage's row (stage name, its validation)
        shown["seconds"] = round(result.seconds, 1)
        shown.update(split_per_pair(result.stages[-1]))
    else:
        shown["pairs_per_second"] = round(result.pairs_per_second, 1)
        shown.update(split_per_pair(result.final_metrics))
    stopped = options.get("stop_after") is not None
    emit(shown, f"{_FINISHED[cfg.mode]} {'stopped (--stop-after)' if stopped else 'finished'}", as_json)
