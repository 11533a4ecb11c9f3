"""Save the encoder as a sentence-transformers folder (Transformer -> mean Pooling), weights in safetensors.

Anything that reads that format (sentence-transformers, transformers' ``AutoModel``, ONNX exporters) loads
the result without lingualite. The generative head is training-only and stays in the checkpoints.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import uuid
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from torch import nn
from transformers import BertModel, PreTrainedTokenizerFast
from transformers.utils import logging as hf_logging

from lingualite.core.io_utils import atomic_dir, fsync_dir, fsync_tree, write_json
from lingualite.models.checksums import write_checksums
from lingualite.models.model_card import ModelCard, write_card


def save_encoder_folder(
    bert: BertModel,
    tokenizer: PreTrainedTokenizerFast,
    path: str | Path,
    max_seq_length: int,
    pooling: tuple[str, ...] = ("mean",),
    extra_modules: Sequence[nn.Module] = (),
) -> Path:
    """Write ``path`` atomically as a sentence-transformers folder: Transformer(``bert``) -> Pooling(``pooling``
    modes, concatenated in that order) -> ``extra_modules`` (e.g. a Dense projection); safetensors only."""
    # Heavy imports, only when saving. sentence-transformers >= 6 moved the modules; older releases still work.
    from sentence_transformers import SentenceTransformer

    try:
        from sentence_transformers.sentence_transformer import modules as models
    except ImportError:  # pragma: no cover - sentence-transformers < 6
        from sentence_transformers import models  # type: ignore[no-redef]

    path = Path(path)
    with atomic_dir(path) as out:
        # transformers writes the BERT folder first; staged inside our own staging folder (same file system
        # as the target, never the system temp dir), read back into memory, then removed before the swap.
        hf_folder = out / ".hf"
        bert.save_pretrained(hf_folder, safe_serialization=True)
        tokenizer.save_pretrained(hf_folder)
        # Our encoders have no BERT pooler; transformers adds a fresh one on loading (sentence-transformers
        # never uses it: it pools token states) and reports it as missing: not news for the user.
        verbosity = hf_logging.get_verbosity()
        hf_logging.set_verbosity_error()
        try:
            transformer = models.Transformer(str(hf_folder), max_seq_length=max_seq_length)
        finally:
            hf_logging.set_verbosity(verbosity)
        shutil.rmtree(hf_folder)
        pooling_module = models.Pooling(
            bert.config.hidden_size, pooling_mode=pooling[0] if len(pooling) == 1 else pooling
        )
        st_model = SentenceTransformer(modules=[transformer, pooling_module, *extra_modules], device="cpu")
        st_model.save(str(out), safe_serialization=True)
        write_checksums(out)
    return path


EXPORT_JOURNAL = ".export-journal.json"


EXPORT_LOCK = ".export.lock"


@contextlib.contextmanager
def _export_lock(folder: Path, exclusive: bool) -> Iterator[None]:
    """``flock`` on ``folder/.export.lock``: the exporter holds it exclusively while it moves files in,
    lingualite's loaders hold it shared while they read. A folder we may not write is read unlocked."""
    lock_path = folder / EXPORT_LOCK
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o666 & ~_current_umask())
    except OSError:
        if exclusive:
            raise
        yield
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX if exclusive else fcntl.LOCK_SH)
        yield
    finally:
        os.close(fd)


def _current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _apply_journal(out: Path) -> None:
    """Move the staged export named by the journal into ``out`` (idempotent: a rerun after a crash moves
    what is left). Held under the exclusive export lock."""
    journal_path = out / EXPORT_JOURNAL
    journal = json.loads(journal_path.read_text(encoding="utf-8"))
    staging = out / journal["staging"]
    trash = out / journal["trash"]
    for name in journal["items"]:  # modules.json is last: it is what makes the folder a model
        src, target = staging / name, out / name
        if not src.exists() and not src.is_symlink():
            continue  # moved before a crash
        if target.is_dir() and not target.is_symlink():
            trash.mkdir(exist_ok=True)
            os.replace(target, trash / name)
        os.replace(src, target)
    fsync_dir(out)
    journal_path.unlink()
    fsync_dir(out)
    shutil.rmtree(staging, ignore_errors=True)
    shutil.rmtree(trash, ignore_errors=True)


def recover_export(out: Path) -> bool:
    """Finish an export that a crash interrupted after its files were complete (roll forward); returns
    whether there was one. An export interrupted earlier left only a staging folder: the old model is
    intact and :func:`lingualite.core.io_utils.clean_leftovers` removes the staging."""
    out = Path(out)
    if not (out / EXPORT_JOURNAL).exists():
        return False
    with _export_lock(out, exclusive=True):
        if (out / EXPORT_JOURNAL).exists():
            _apply_journal(out)
    return True


@contextlib.contextmanager
def reading_model(folder: str | Path) -> Iterator[Path]:
    """Hold while loading a model folder: waits for an export in progress, and finishes one that a crash
    interrupted, so the loader sees the old complete model or the new complete one."""
    folder = Path(folder)
    if (folder / EXPORT_JOURNAL).exists():
        with contextlib.suppress(OSError):  # read-only folder: load what is there
            recover_export(folder)
    if not (folder / EXPORT_LOCK).exists():
        yield folder
        return
    with _export_lock(folder, exclusive=False):
        yield folder


def export_into(out: Path, write: Callable[[Path], object], card: ModelCard | None = None) -> None:
    """Write a model's sentence-transformers files into the run folder ``out`` itself.

    ``write(folder)`` saves them into a staging folder beside the model files; once that is complete and on
    disk, a journal naming it is written, and the files are moved in under the exclusive export lock,
    ``modules.json`` last. A crash before the journal leaves the previous model untouched (the staging is
    removed at the next start); a crash after it is rolled forward by :func:`recover_export`, which every
    loader and every run start calls. Lingualite's loaders never see a mix (they hold the shared lock).
    ``card`` replaces sentence-transformers' generic README.md (see :mod:`lingualite.models.model_card`).
    """
    out = Path(out)
    recover_export(out)
    staging = out / f".export.staging-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    try:
        write(staging)
        write_card(card, staging, out)
        write_checksums(staging)
        fsync_tree(staging)
    except BaseException:  # the old model is untouched; a kill -9 here leaves the staging to clean_leftovers
        shutil.rmtree(staging, ignore_errors=True)
        raise
    items = sorted((p.name for p in staging.iterdir()), key=lambda name: (name == "modules.json", name))
    journal = {
        "staging": staging.name,
        "trash": f".export.old-{os.getpid()}-{uuid.uuid4().hex[:8]}",
        "items": items,
    }
    with _export_lock(out, exclusive=True):
        write_json(out / EXPORT_JOURNAL, journal)
        fsync_dir(out)
        _apply_journal(out)
