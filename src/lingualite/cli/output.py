"""How every command prints: a table (rich) or one JSON object (``--json``), numbers rounded the same way,
per-pair metrics split out, and the library's log lines echoed on stderr."""

from __future__ import annotations

import logging
import sys
from typing import Any

import typer

from lingualite.core.strict_json import dumps


def _fmt(value: Any, wide: bool = False) -> str:
    """One value for a table; ``wide``: its column (or row) holds a float >= 10, so every float in it gets
    one decimal (7.9 beside 11.2, not 7.9000 beside 11.2)."""
    if isinstance(value, float):
        return f"{value:.4f}" if abs(value) < 10 and not wide else f"{value:,.1f}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)


def _wide(values: Any) -> bool:
    return any(isinstance(v, float) and abs(v) >= 10 for v in values)


def rounded(value: Any, digits: int = 6) -> Any:
    """``value`` with every float rounded (JSON for scripts: 0.7125, not 0.7124999999999999)."""
    if isinstance(value, float):
        return round(value, digits)
    if isinstance(value, dict):
        return {k: rounded(v, digits) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [rounded(v, digits) for v in value]
    return value


def output_console(stderr: bool = False) -> Any:
    """A rich console; 160 columns when not a terminal, so piped tables are not cut at 80."""
    from rich.console import Console

    stream = sys.stderr if stderr else sys.stdout
    return Console(stderr=stderr, width=None if stream.isatty() else 160)


def emit(result: dict[str, Any], title: str, as_json: bool) -> None:
    """Print ``result`` as one JSON object (``--json``) or as tables for people: the scalars, then one table
    per nested ``{row: {column: value}}`` dict (metrics as rows when there are too many columns to fit).

    A nested table with one row that repeats the scalars (one input file) is not printed twice."""
    if as_json:
        typer.echo(dumps(rounded(result), default=str))  # strict JSON: an undefined metric is null, not NaN
        return
    from rich.table import Table

    console = output_console()
    scalars = {k: v for k, v in result.items() if not isinstance(v, dict | list)}
    if scalars:  # none (a listing): no empty metric/value table before the listing's own
        table = Table(title=title, show_header=True)
        table.add_column("metric")
        table.add_column("value", justify="right")
        for key, value in scalars.items():
            table.add_row(key, _fmt(value))
        console.print(table)
    for key, value in result.items():
        if not (isinstance(value, dict) and value and all(isinstance(v, dict) for v in value.values())):
            continue
        columns = list(
            dict.fromkeys(c for row in value.values() for c in row if not isinstance(row[c], dict))
        )
        if len(value) == 1 and all(
            scalars.get(c) == next(iter(value.values()))[c] for c in columns if c in scalars
        ):
            continue  # one row, the same numbers as the scalars above
        sub = Table(title=f"{title}: {key}" if scalars else title)
        wide = {col: _wide(row.get(col) for row in value.values()) for col in columns}
        if len(columns) + 1 <= 8:
            sub.add_column(key)
            for col in columns:
                sub.add_column(col, justify="right")
            for name, row in value.items():
                sub.add_row(name, *(_fmt(row.get(col, ""), wide[col]) for col in columns))
        else:  # transposed: one row per metric, one column per item
            sub.add_column("metric")
            for name in value:
                sub.add_column(str(name), justify="right")
            for col in columns:
                sub.add_row(col, *(_fmt(row.get(col, ""), wide[col]) for row in value.values()))
        console.print(sub)


def split_per_pair(metrics: dict[str, float]) -> dict[str, object]:
    """``{"valid_xsr_p_at_1/en-fr": x}`` -> ``{"per_pair": {"en-fr": {"valid_xsr_p_at_1": x}}}`` (one table)."""
    flat: dict[str, object] = {k: v for k, v in metrics.items() if "/" not in k}
    per: dict[str, dict[str, float]] = {}
    for key, value in metrics.items():
        if "/" in key:
            name, pair = key.split("/", 1)
            per.setdefault(pair, {})[name] = value
    if per:
        flat["per_pair"] = per
    return flat


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
