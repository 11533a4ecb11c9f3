"""Errors that lingualite raises for bad user input."""

from __future__ import annotations

from pathlib import Path


class LinguaLiteError(Exception):
    """Base class: an error the user can fix (bad file, bad config); the CLI prints it on one line."""


class ArgumentTypeError(LinguaLiteError, TypeError):
    """An API argument of the wrong type (``normalize="no"``, ``dimensions=1.5``): also a :class:`TypeError`."""


def check_argument(
    value: object, name: str, kind: type, minimum: int | None = None, none: bool = True
) -> None:
    """Refuse, in one line naming ``name``, an API argument that is not a ``kind`` (:class:`ArgumentTypeError`;
    a bool is not an int) or, for numbers, below ``minimum`` (:class:`LinguaLiteError`); None passes when
    ``none``."""
    if value is None and none:
        return
    if not isinstance(value, kind) or (kind is not bool and isinstance(value, bool)):
        raise ArgumentTypeError(f"{name}: expected {kind.__name__}, got {type(value).__name__} {value!r}")
    if minimum is not None and value < minimum:  # type: ignore[operator]
        raise LinguaLiteError(f"{name}: must be at least {minimum}, got {value!r}")


def check_finite(value: float | None, name: str) -> float | None:
    """``value`` unchanged (None passes), or a :class:`LinguaLiteError` naming ``name`` when it is NaN or
    infinite: every float parameter of the Python API and every float option of the CLI is a finite number
    (docs/guarantees.md)."""
    import math

    if value is not None and not (isinstance(value, int | float) and math.isfinite(value)):
        raise LinguaLiteError(f"{name}: {value!r} is not a finite number")
    return value


class BadInputError(LinguaLiteError):
    """Malformed input data. The message names the file and (1-based) line."""

    def __init__(self, path: str | Path, line: int | None, reason: str) -> None:
        self.path = str(path)
        self.line = line
        self.reason = reason
        where = f"{self.path}:{line}" if line is not None else self.path
        super().__init__(f"{where}: {reason}")


class ConfigError(LinguaLiteError):
    """An invalid configuration value; the message names the key and what is allowed."""


class ModelFolderError(LinguaLiteError):
    """A model folder that cannot be loaded as it is; the message names the folder and the problem."""

    def __init__(self, folder: str | Path, problem: str) -> None:
        super().__init__(f"{folder}: {problem}")
