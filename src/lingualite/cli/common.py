"""What every command shares: one-line errors, JSON or table output."""

from __future__ import annotations

import json
import logging
from typing import Any, NoReturn

import typer

from lingualite.errors import LinguaLiteError

# Errors a user can fix: printed as one line (file:line: reason), exit code 2.
USER_ERRORS = (LinguaLiteError, OSError, ValueError)


TRAIN_FILES_HELP = (
    "Training pair files (src<TAB>tgt[<TAB>doc_id]; globs allowed; repeat the option for more), replacing "
    "the config's data.train_files."
)
VALID_FILES_HELP = "Validation pair files, replacing the config's data.valid_files (repeat for more)."


def with_data_files(cfg: Any, train_files: list[str] | None, valid_files: list[str] | None) -> Any:
    """``cfg`` with ``data.train_files`` / ``data.valid_files`` replaced where given (your own data, no YAML)."""
    if train_files:
        cfg.data.train_files = list(train_files)
    if valid_files:
        cfg.data.valid_files = list(valid_files)
    return cfg


def fail(exc: BaseException) -> NoReturn:
    typer.secho(f"error: {exc}", fg=typer.colors.RED, err=True)
    raise typer.Exit(2)


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4f}" if abs(value) < 10 else f"{value:,.1f}"
    return str(value)


def emit(result: dict[str, Any], title: str, as_json: bool) -> None:
    """Print ``result`` as one JSON object (``--json``) or as tables: scalars, then one row per nested dict."""
    if as_json:
        typer.echo(json.dumps(result, default=str))
        return
    from rich.console import Console
    from rich.table import Table

    console = Console()
    scalars = {k: v for k, v in result.items() if not isinstance(v, dict | list)}
    table = Table(title=title, show_header=True)
    table.add_column("metric")
    table.add_column("value", justify="right")
    for key, value in scalars.items():
        table.add_row(key, _fmt(value))
    console.print(table)
    for key, value in result.items():
        if isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values()):
            columns = list(
                dict.fromkeys(c for row in value.values() for c in row if not isinstance(row[c], dict))
            )
            sub = Table(title=f"{title}: {key}")
            sub.add_column(key)
            for col in columns:
                sub.add_column(col, justify="right")
            for name, row in value.items():
                sub.add_row(name, *(_fmt(row.get(col, "")) for col in columns))
            console.print(sub)


class _EchoHandler(logging.Handler):
    """Log lines on stderr, looked up at each call so they print above a live progress bar."""

    def __init__(self, prefix: str) -> None:
        super().__init__()
        self.prefix = prefix

    def emit(self, record: logging.LogRecord) -> None:
        typer.echo(f"{self.prefix}: {self.format(record)}", err=True)


def echo_logs(logger_name: str, prefix: str) -> None:
    """Show INFO lines of ``logger_name`` on stderr as ``prefix: message`` (once per process)."""
    logger = logging.getLogger(logger_name)
    if not any(isinstance(h, _EchoHandler) for h in logger.handlers):
        logger.addHandler(_EchoHandler(prefix))
        logger.setLevel(logging.INFO)
