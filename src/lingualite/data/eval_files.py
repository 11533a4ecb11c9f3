"""Which files a two-direction evaluation reads, resolved and checked before anything is encoded: shared by
``lingualite eval`` and the reproduction runner (which checks them before any cell trains).

- Zero-shot classification in both directions of paper 000's Table 3 (MLDoc, Sec. 4.3): ``en2xx`` fits one
  classifier on ``train.en.tsv`` and scores every ``test.<lang>.tsv``; ``xx2en`` fits one classifier per
  language on ``train.<xx>.tsv`` and scores ``test.en.tsv`` (:func:`classification_runs`).
- The files of an IR folder (:func:`ir_file`): ``corpus.tsv``, ``queries.tsv``, ``qrels.tsv``, each may be
  ``.gz``.
- Distractors of the pooled XSR protocol of paper 000's Table 4 (Sec. 4.4), per test file and direction
  (:func:`distractor_files`): a path may hold ``{data_dir}``, ``{pair}`` (the test file's pair folder,
  ``en-fr``) and ``{lang}`` (the language of the pool: ``fr`` for en→fr, ``en`` for fr→en).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from lingualite.config.parsing import DATA_DIR_PLACEHOLDER, default_data_dir
from lingualite.core.errors import BadInputError, LinguaLiteError
from lingualite.data.pairs import existing_files, languages_of, pair_set_name

__all__ = [
    "CLASSIFY_DIRECTIONS",
    "PIVOT",
    "XSR_DIRECTIONS",
    "check_directions",
    "classification_runs",
    "distractor_column",
    "distractor_files",
    "expand_direction",
    "ir_file",
]

PIVOT = "en"  # the language every classification set trains on in the en2xx direction
CLASSIFY_DIRECTIONS = ("en2xx", "xx2en")
XSR_DIRECTIONS = ("src2tgt", "tgt2src")
ClassificationRun = tuple[str, Path, list[Path]]  # (training language, training file, test files)


def ir_file(folder: Path, name: str) -> Path:
    """``folder/name`` or ``folder/name.gz`` (``name``: ``corpus.tsv``, ``queries.tsv`` or ``qrels.tsv``)."""
    for candidate in (folder / name, folder / f"{name}.gz"):
        if candidate.exists():
            return candidate
    raise BadInputError(folder / name, None, f"file not found (an IR folder needs {name}[.gz])")


def check_directions(directions: Sequence[str], allowed: Sequence[str]) -> list[str]:
    """``directions`` without repeats, in the given order; an unknown or empty list is a one-line error."""
    unknown = [d for d in directions if d not in allowed]
    if unknown or not directions:
        raise LinguaLiteError(f"direction(s) {unknown or '[]'}: choose from {', '.join(allowed)}")
    return list(dict.fromkeys(directions))


def expand_direction(direction: str, allowed: Sequence[str]) -> list[str]:
    """A command line's ``--direction``: one of ``allowed``, or ``both`` (all of them, in order)."""
    if direction == "both":
        return list(allowed)
    if direction not in allowed:
        raise LinguaLiteError(f"direction {direction!r}: choose from {', '.join(allowed)} or both")
    return [direction]


def _lang(path: Path) -> str:
    return path.name.split(".")[1]


def classification_runs(
    folder: str | Path, direction: str, languages: Sequence[str] | None = None
) -> list[ClassificationRun]:
    """The classifier fits of one direction on a set folder (``train.<lang>.tsv``, ``test.<lang>.tsv``).

    :param direction: ``en2xx`` (one fit on English, scored on ``test.en.tsv`` and every other test file) or
        ``xx2en`` (one fit per other language, each scored on ``test.en.tsv``).
    :param languages: the other languages to use (default: every one the folder has); English's own test
        file stays in ``en2xx`` as the in-language reference.
    """
    folder = Path(folder)
    check_directions([direction], CLASSIFY_DIRECTIONS)
    pivot_train, pivot_test = folder / f"train.{PIVOT}.tsv", folder / f"test.{PIVOT}.tsv"
    tests = {_lang(p): p for p in sorted(folder.glob("test.*.tsv"))}
    trains = {_lang(p): p for p in sorted(folder.glob("train.*.tsv"))}
    if PIVOT not in trains or len(tests) < 1:
        raise LinguaLiteError(
            f"{folder}: no classification set here (train.en.tsv and test.<lang>.tsv); "
            "`lingualite data eval-sets` writes them"
        )
    wanted = list(languages) if languages is not None else sorted(set(tests) - {PIVOT})
    if direction == "en2xx":
        missing = [lang for lang in wanted if lang not in tests]
        if missing:
            raise LinguaLiteError(f"{folder}: no test file for {', '.join(missing)} (test.<lang>.tsv)")
        chosen = [tests[PIVOT]] if PIVOT in tests else []
        return [(PIVOT, pivot_train, chosen + [tests[lang] for lang in wanted if lang != PIVOT])]
    wanted = [lang for lang in wanted if lang != PIVOT]
    missing = [lang for lang in wanted if lang not in trains]
    if not pivot_test.is_file():
        raise LinguaLiteError(f"{folder}: the xx2en direction scores on test.en.tsv, which is missing")
    if missing or not wanted:
        raise LinguaLiteError(
            f"{folder}: the xx2en direction needs training documents in "
            f"{', '.join(missing) or 'a language other than English'} (train.<xx>.tsv); "
            "`lingualite data eval-sets` writes them for libreoffice-modules"
        )
    return [(lang, trains[lang], [pivot_test]) for lang in wanted]


def distractor_column(direction: str) -> int:
    """The field of a ``src<TAB>tgt`` line in the pool's language: 1 for src2tgt, 0 for tgt2src."""
    check_directions([direction], XSR_DIRECTIONS)
    return 1 if direction == "src2tgt" else 0


def distractor_files(templates: Sequence[str | Path], pair_file: Path, direction: str) -> list[Path]:
    """The distractor files of ``pair_file``'s pool in ``direction`` (globs allowed); one that matches
    nothing is an error naming it. ``{lang}`` needs a pair folder named like ``en-fr``."""
    src, tgt = languages_of(Path(pair_file))
    pool_lang = tgt if distractor_column(direction) == 1 else src
    files: list[Path] = []
    for template in map(str, templates):
        if "{lang}" in template and (src, tgt) == ("src", "tgt"):
            raise LinguaLiteError(
                f"{template}: {{lang}} needs a test file in a folder named like en-fr, got {pair_file}"
            )
        pattern = (
            template.replace(DATA_DIR_PLACEHOLDER, str(default_data_dir()))
            .replace("{pair}", pair_set_name(Path(pair_file)))
            .replace("{lang}", pool_lang)
        )
        matches = existing_files(pattern)
        if not matches:
            raise LinguaLiteError(f"{pattern}: no distractor file matches (for {pair_file}, {direction})")
        files.extend(matches)
    return files
