"""Errors that lingualite raises for bad user input."""

from __future__ import annotations

from pathlib import Path


class LinguaLiteError(Exception):
    """Base class: an error the user can fix (bad file, bad config); the CLI prints it on one line."""


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
