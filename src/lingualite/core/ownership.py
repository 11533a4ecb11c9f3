"""Which folders a lingualite command may write, replace or delete: the one ownership rule of every writer.

1. **Kinds.** Every folder lingualite creates carries a marker, ``.lingualite-folder.json`` holding
   ``{"kind": KIND}`` (:data:`KINDS`), written when the folder is born (into the staging folder, before a
   staged folder is renamed into place). A training run, an exported model, a search index... are
   different kinds: a command never writes into a folder of another kind.
2. **Ownership.** An existing folder is written only when it is empty (nothing but lingualite's own lock
   and marker files) or carries the marker of the command's kind. *Replacing* it (or starting a run in it
   over) also needs ``--overwrite``; *continuing* it needs the writer's ``--resume`` (the training recipes;
   ``eval all``, ``reproduce`` and ``mine`` continue their own folders by design, their files being keyed by
   what they were computed from). Any other folder is refused with a one-line error.
3. **Folders of earlier versions** (no marker) are recognised only by a layout no other tool writes
   (:func:`folder_kind`): a run by ``checkpoints/[STAGE/]step-NNNNNNN/trainer_state.json``, an export by
   ``onnx/lingualite_onnx.json``, an index by ``index.sqlite`` + ``vectors.npy``, a report by ``parts/``
   beside ``results.json`` or ``cache/``. A file name alone (``config.yaml``) is never a claim.
4. **Containment.** An output that is, contains or lies inside one of the command's inputs (a model folder,
   an input file, an index) is refused, symbolic links resolved (:func:`check_separate`).
5. **Checked again at the swap.** A staged folder (:func:`replacing`) is renamed into place only if nothing
   appeared there meanwhile (``RENAME_NOREPLACE``); otherwise the rule is applied again, the folders are
   exchanged (``RENAME_EXCHANGE``) under the target's write lock, and what was swapped out is checked once
   more (and exchanged back if it fails). A run folder is claimed under its lock (:func:`claim_folder`).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
from collections.abc import Iterable, Iterator
from pathlib import Path

from lingualite.core.errors import LinguaLiteError
from lingualite.core.io_utils import LOCK_NAME, atomic_dir, clean_leftovers, is_staging_name, write_json

__all__ = [
    "FORMAT_SUFFIXES",
    "KINDS",
    "LEGACY_MARKER",
    "MARKER",
    "TRAINING_KINDS",
    "check_folder",
    "check_output_suffix",
    "check_separate",
    "claim_folder",
    "clear_folder",
    "folder_kind",
    "held_names",
    "replacing",
    "write_marker",
]

MARKER = ".lingualite-folder.json"
LEGACY_MARKER = ".lingualite-run"  # the marker of run folders before every kind had one (same content)
KINDS = {
    "train": "training run",
    "distill": "distillation run",
    "monolingual": "monolingual training run",
    "report": "evaluation report (eval all)",
    "reproduce": "reproduction folder",
    "mine": "mining work folder",
    "export": "exported model (lingualite export)",
    "index": "search index",
    "encode": "Parquet vectors folder (encode --engine ray)",
    "packaged": "packaged model (lingualite models build)",
}
TRAINING_KINDS = ("train", "distill", "monolingual")
# Entries that are no claim on a folder: lingualite's lock and marker files (a run that got no further).
_NEUTRAL = {LOCK_NAME, MARKER, LEGACY_MARKER, ".export.lock"}
_STEP = re.compile(r"^step-\d{7}$")
_HINTS = {"index": "add documents with `lingualite index add`, or build it again with --overwrite"}


def write_marker(folder: Path, kind: str) -> None:
    """Mark ``folder`` as a lingualite folder of ``kind`` (one of :data:`KINDS`)."""
    if kind not in KINDS:
        raise ValueError(f"unknown folder kind {kind!r}")
    write_json(folder / MARKER, {"kind": kind})


def _marker_kind(folder: Path) -> str | None:
    for name in (MARKER, LEGACY_MARKER):
        try:
            kind = json.loads((folder / name).read_text(encoding="utf-8")).get("kind")
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(kind, str):
            return kind
    return None


def _has_checkpoint(folder: Path) -> bool:
    """``checkpoints/step-NNNNNNN/trainer_state.json`` (or one stage deeper): what every recipe writes."""
    base = folder / "checkpoints"
    if not base.is_dir():
        return False
    for place in [base, *(p for p in base.iterdir() if p.is_dir() and not _STEP.match(p.name))]:
        if any(_STEP.match(p.name) and (p / "trainer_state.json").is_file() for p in place.iterdir()):
            return True
    return False


def folder_kind(folder: str | Path) -> str | None:
    """The kind of lingualite folder ``folder`` is: its marker's, or (a folder of an earlier version, no
    marker) the kind its lingualite-only layout shows (``"run"`` for a training run of any recipe); None for
    anything else."""
    folder = Path(folder)
    if not folder.is_dir():
        return None
    kind = _marker_kind(folder)
    if kind is not None:
        return kind
    if _has_checkpoint(folder):
        return "run"
    if (folder / "onnx" / "lingualite_onnx.json").is_file() and (folder / "modules.json").is_file():
        return "export"
    if (folder / "index.sqlite").is_file() and (folder / "vectors.npy").is_file():
        return "index"
    if (folder / "parts").is_dir() and ((folder / "results.json").is_file() or (folder / "cache").is_dir()):
        return "report"
    return None


def _same_kind(owner: str | None, kind: str) -> bool:
    return owner == kind or (owner == "run" and kind in TRAINING_KINDS)


def held_names(folder: Path) -> list[str]:
    """What ``folder`` holds besides lingualite's lock and marker files and live writers' staging entries."""
    return sorted(p.name for p in folder.iterdir() if p.name not in _NEUTRAL and not is_staging_name(p.name))


def _describe(kind: str) -> str:
    return KINDS.get(kind, "training run" if kind == "run" else f"{kind} folder")


def _a(noun: str) -> str:
    return f"{'an' if noun[0] in 'aeiou' else 'a'} {noun}"


def ownership_problem(folder: Path, kind: str) -> str | None:
    """Why ``folder`` may not be written as a ``kind`` folder (the rest of a one-line error), or None."""
    if folder.is_symlink() and not folder.exists():
        return "is a broken symbolic link; give a folder"
    if not folder.exists():
        return None
    if not folder.is_dir():
        return "is a file; lingualite writes a folder here and never replaces a file"
    names = held_names(folder)
    owner = folder_kind(folder)
    if not names and (owner is None or _same_kind(owner, kind)):
        return None
    if owner is None:
        shown = ", ".join(names[:3]) + (", ..." if len(names) > 3 else "")
        return (
            f"exists and was not created by lingualite (it holds {shown}); lingualite never writes into or "
            "replaces a folder it did not create: choose a new or empty folder"
        )
    if not _same_kind(owner, kind):
        return f"holds a lingualite {_describe(owner)}, not {_a(_describe(kind))}; choose another folder"
    return None


def check_folder(path: str | Path, kind: str, overwrite: bool, during: str = "") -> None:
    """Refuse ``path`` as the output folder of a ``kind`` writer that replaces it whole (see the module doc):
    only an empty folder, or one of the same kind with ``overwrite``. ``during``: said after the problem
    (e.g. that the folder appeared while the command ran)."""
    path = Path(path)
    problem = ownership_problem(path, kind)
    if problem is None and path.is_dir() and held_names(path) and not overwrite:
        problem = f"is already {_a(_describe(kind))}; " + _HINTS.get(
            kind, "pass --overwrite to replace it, or choose another output folder"
        )
    if problem is not None:
        raise LinguaLiteError(f"{path}: {problem}{during}")


def check_separate(output: str | Path, inputs: Iterable[str | Path]) -> None:
    """Refuse an output that is, contains, or lies inside one of ``inputs`` (symbolic links resolved): a
    writer that replaces or clears its output would delete the input, one inside an input would change it."""
    out = Path(os.path.realpath(output))
    for item in inputs:
        real = Path(os.path.realpath(item))
        if out == real:
            raise LinguaLiteError(f"{output}: is also an input ({item}); choose another output")
        if real.is_relative_to(out):
            raise LinguaLiteError(f"{output}: contains the input {item}; choose an output outside it")
        if out.is_relative_to(real):
            raise LinguaLiteError(f"{output}: is inside the input {item}; choose an output outside it")


@contextlib.contextmanager
def replacing(
    path: str | Path, kind: str, overwrite: bool = False, inputs: Iterable[str | Path] = ()
) -> Iterator[Path]:
    """Build the ``kind`` folder ``path`` in a staging folder beside it (yielded, already marked) and swap it
    in when complete, under the ownership rule: checked now, and again at the swap (see the module doc).
    A symbolic link is followed (the folder it names is replaced; the link stays). Leftovers of earlier,
    killed writers of ``path`` are removed first."""
    path = Path(path)
    check_separate(path, inputs)
    check_folder(path, kind, overwrite)
    target = Path(os.path.realpath(path))
    clean_leftovers(target.parent, target=target.name)

    def may_replace(folder: Path) -> None:
        check_folder(folder, kind, overwrite, during=" (found at the swap: it appeared while this ran)")

    with atomic_dir(target, may_replace) as staging:
        write_marker(staging, kind)
        yield staging


def clear_folder(folder: Path) -> None:
    """Empty a lingualite folder for ``--overwrite`` (the caller checked its kind and holds its lock)."""
    for item in folder.iterdir():
        if item.name in (LOCK_NAME, MARKER, LEGACY_MARKER):
            continue
        if item.is_dir() and not item.is_symlink():
            shutil.rmtree(item)
        else:
            item.unlink()


def claim_folder(folder: Path, kind: str, overwrite: bool = False, inputs: Iterable[str | Path] = ()) -> bool:
    """Claim ``folder`` for a ``kind`` writer that works in place (a run), the caller holding its lock:
    refused unless empty or of the same kind (see the module doc); ``overwrite`` empties it first. Marks it.
    Returns whether it held anything before (a run to continue)."""
    check_separate(folder, inputs)
    problem = ownership_problem(folder, kind)
    if problem is not None:
        raise LinguaLiteError(f"{folder}: {problem}")
    held = bool(held_names(folder))
    if held and overwrite:
        clear_folder(folder)
        held = False
    if _marker_kind(folder) is None:
        write_marker(folder, kind)
    return held


# Suffixes that name a file format: an --output ending in one the command does not write is refused.
FORMAT_SUFFIXES = frozenset(
    [
        ".npy",
        ".npz",
        ".json",
        ".jsonl",
        ".ndjson",
        ".csv",
        ".tsv",
        ".txt",
        ".parquet",
        ".arrow",
        ".feather",
        ".pkl",
        ".pickle",
        ".h5",
        ".hdf5",
        ".gz",
        ".zip",
        ".bz2",
        ".xz",
        ".zst",
        ".xlsx",
        ".safetensors",
        ".onnx",
        ".pt",
        ".bin",
    ]
)


def check_output_suffix(output: Path, writes: tuple[str, ...], what: str, strict: bool = False) -> None:
    """Refuse ``output`` when its suffix names a format ``what`` does not write (``writes``: the suffixes it
    does, ``""`` for a name without one), never writing it in another format under that name. ``strict``:
    refuse any other suffix too (encode: the file IS a .npy)."""
    suffix = output.suffix.lower()
    if suffix in writes or (not strict and suffix not in FORMAT_SUFFIXES):
        return
    named = " or ".join(w or "a name without a suffix" for w in writes)
    raise LinguaLiteError(f"--output {output}: {what} writes {named}, not {suffix or 'a name without one'}")
