"""Monolingual sentences as distillation input: the teacher's vector is the target, no translation needed.

Multilingual knowledge distillation (Reimers & Gurevych 2020) trains ``S(x) ~ T(x)`` and ``S(t) ~ T(x)`` on
parallel pairs. With a multilingual teacher (USE-m) ``T(m)`` exists for a sentence ``m`` in any of its
languages, so ``S(m) ~ T(m)`` is a valid target for text without a translation (Reimers & Gurevych use the
same term on the source side; here it reaches every language). It widens the domains the student imitates
the teacher on; the parallel pairs still tie the languages together.

``read_monolingual`` reads ``data.monolingual_files`` (checked reading, ``file:line`` errors), dedups them,
drops every sentence of the validation and ``data.monolingual_exclude_files`` pair files (either side, after
NFKC, casefold and whitespace collapsing: :class:`lingualite.data.unseen.SeenTexts`), the held-out everyday
sentences (:func:`lingualite.data.evalsets.everyday.is_everyday`) and the pairs' own
sources (they have targets already), and caps them with an equal seeded share per file (the first lines of a
ranked word list, ``data.ranked_monolingual_files``). A file named by the code
of a language the teacher does not know (``lexicon/el.txt`` for USE-m) is left out and counted, or, with
``teacher.second``, kept and marked for the second teacher (:mod:`lingualite.recipes.distill.second_teacher`).
:class:`MonolingualBatches` cuts length-bucketed batches of them, deterministic in (seed, step) like the pair
batches, so ``--resume`` stays exact.
"""

from __future__ import annotations

import copy
import fnmatch
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch
from transformers import PreTrainedTokenizerFast

from lingualite.config.distill import DistillConfig
from lingualite.config.parsing import DATA_DIR_PLACEHOLDER, default_data_dir
from lingualite.data.evalsets.everyday import is_everyday
from lingualite.data.lines import iter_line_chunks
from lingualite.data.pairs import expand_files, subsample
from lingualite.data.tokenized import BucketedBatches, RaggedIds
from lingualite.data.unseen import SeenTexts
from lingualite.text.languages import LANGUAGES, teacher_knows

__all__ = ["MonolingualBatches", "MonolingualText", "mixed_loss", "read_monolingual"]


@dataclass
class MonolingualText:
    """The monolingual sentences a run trains on, and what reading them dropped (for the summary).

    :param second: per sentence, True where its target comes from ``teacher.second`` (its language is one the
        first teacher does not know); empty when there are no sentences.
    :param by_language: the same sentences per language of the file they came from (files not named by a
        language code are left out): what ``vocabulary.monolingual`` adds to the vocabulary's sample.
    :param ranked_by_language: the words of the ranked word lists among them, per language: what
        ``vocabulary.word_lists`` puts into the vocabulary's sample whole.
    """

    sentences: list[str]
    stats: dict[str, Any]
    second: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    by_language: dict[str, list[str]] = field(default_factory=dict)
    ranked_by_language: dict[str, list[str]] = field(default_factory=dict)

    def with_pairs(self, pair_texts: Callable[[], Any]) -> Callable[[], dict[str, list[str]]]:
        """``pair_texts`` (the vocabulary's sentences per language) with these sentences added to each
        language's (``vocabulary.monolingual``): the vocabulary then holds the characters and words of the
        untranslated text and word lists the student is trained on, not only of the pairs'."""

        def texts() -> dict[str, list[str]]:
            merged = {lang: list(lines) for lang, lines in pair_texts().items()}
            for lang, lines in self.by_language.items():
                merged.setdefault(lang, []).extend(lines)
            return merged

        return texts


def _file_sentences(path: Path, taken: set[str], seen: SeenTexts, counts: dict[str, int]) -> list[str]:
    kept: list[str] = []
    for chunk in iter_line_chunks(path):
        for line in chunk:
            text = " ".join(line.split())
            if not text:
                continue
            counts["read"] += 1
            if text in taken:
                counts["duplicates"] += 1
            elif seen.seen(text, text):  # either side of a validation / test pair
                counts["excluded_held_out"] += 1
            elif is_everyday(text):  # lingualite.data.evalsets.everyday, in any language
                counts["excluded_everyday"] += 1
            else:
                taken.add(text)
                kept.append(text)
    return kept


def read_monolingual(cfg: DistillConfig, pair_sources: Collection[str]) -> MonolingualText:
    """The monolingual sentences of ``cfg.data`` (see the module docstring); none when no files are set.

    :param pair_sources: the training pairs' teacher-side sentences (not repeated as monolingual text).
    """
    data = cfg.data
    if not data.monolingual_files:
        return MonolingualText([], {})
    files = expand_files(data.monolingual_files, "monolingual")
    unknown = [p for p in files if not teacher_knows(cfg.teacher.name, _file_language(p))]
    if cfg.teacher.second is None and unknown:
        files = [p for p in files if p not in unknown]
    held_out = expand_files(data.valid_files, "validation") + expand_files(
        data.monolingual_exclude_files, "monolingual exclusion"
    )
    seen = SeenTexts().add_files(held_out)
    taken = {" ".join(s.split()) for s in pair_sources}
    counts = {"read": 0, "duplicates": 0, "excluded_held_out": 0, "excluded_everyday": 0}
    # files of languages the teacher knows first: a text in both keeps the first teacher's own vector
    known_first = sorted(range(len(files)), key=lambda i: files[i] in unknown)
    read = {i: _file_sentences(files[i], taken, seen, counts) for i in known_first}
    per_file = [read[i] for i in range(len(files))]
    share = None
    if data.max_monolingual_sentences is not None and files:
        share = max(1, data.max_monolingual_sentences // len(files))
    ranked = _ranked_files(data.ranked_monolingual_files, files)
    per_file = [
        chunk[:share] if p in ranked else subsample(chunk, share, cfg.seed)
        for p, chunk in zip(files, per_file, strict=True)
    ]
    sentences = [s for chunk in per_file for s in chunk]
    second = np.concatenate(
        [np.full(len(chunk), p in unknown, dtype=bool) for p, chunk in zip(files, per_file, strict=True)]
        or [np.zeros(0, dtype=bool)]
    )
    stats: dict[str, Any] = {**counts, "kept": len(sentences), "excluded_files": [str(p) for p in held_out]}
    stats["per_file"] = {str(p): len(chunk) for p, chunk in zip(files, per_file, strict=True)}
    if data.ranked_monolingual_files:  # which files gave their first lines: a glob that named none shows here
        stats["ranked_files"] = sorted(str(p) for p in ranked)
    if unknown:  # languages the teacher does not know: the second teacher's, or left out
        key = "second_teacher_files" if cfg.teacher.second else "unknown_to_teacher_files"
        stats[key] = [str(p) for p in unknown]
    by_language: dict[str, list[str]] = {}
    ranked_by_language: dict[str, list[str]] = {}
    for path, chunk in zip(files, per_file, strict=True):
        lang = _file_language(path)
        if lang is not None:
            by_language.setdefault(lang, []).extend(chunk)
            if path in ranked:
                ranked_by_language.setdefault(lang, []).extend(chunk)
    return MonolingualText(sentences, stats, second, by_language, ranked_by_language)


def _ranked_files(patterns: list[str], files: list[Path]) -> set[Path]:
    """The monolingual files that ``data.ranked_monolingual_files`` (globs) name: word lists, most frequent
    first. A glob that names none selects nothing (the default names the lexicon, which a config may not read)."""
    globs = [p.replace(DATA_DIR_PLACEHOLDER, str(default_data_dir())) for p in patterns]
    return {f for f in files if any(fnmatch.fnmatchcase(str(f), g) for g in globs)}


def _file_language(path: Path) -> str | None:
    """The language a text file is named by (``lexicon/el.txt``: ``el``), or None."""
    return path.stem if path.stem in LANGUAGES else None


def tokenize_sentences(texts: list[str], tokenizer: PreTrainedTokenizerFast, max_length: int) -> RaggedIds:
    """Token ids with [CLS] ... [SEP], truncated to ``max_length``, through the Rust tokenizer directly
    (as :meth:`lingualite.data.tokenized.TokenizedPairs.build`, for one column)."""
    backend = copy.deepcopy(tokenizer.backend_tokenizer)
    backend.enable_truncation(max_length)
    backend.no_padding()
    parts = [
        RaggedIds.from_lists([e.ids for e in backend.encode_batch(texts[start : start + 20_000])])
        for start in range(0, len(texts), 20_000)
    ]
    return RaggedIds.concat(parts)


class MonolingualBatches:
    """``batches.batch(step) -> (input_ids, attention_mask, target_rows)``: ``batch_size`` monolingual
    sentences of similar length, padded to the longest; ``target_rows`` index the teacher target matrix,
    where the monolingual rows start at ``first_row``.

    A corpus smaller than ``batch_size`` gives batches of all of it.
    """

    def __init__(
        self, ids: RaggedIds, batch_size: int, seed: int, first_row: int, pad_id: int, bucket_size: int = 50
    ) -> None:
        self.ids, self.first_row, self.pad_id = ids, first_row, pad_id
        # another seed than the pair batches': the two streams are independent
        self.order = BucketedBatches(ids.lengths(), min(batch_size, len(ids)), seed + 1, bucket_size)

    def __len__(self) -> int:
        return len(self.ids)

    def batch(self, step: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        indices = self.order.batch(step)
        rows = [self.ids[i] for i in indices]
        length = max(len(r) for r in rows)
        input_ids = torch.full((len(rows), length), self.pad_id, dtype=torch.long)
        attention = torch.zeros((len(rows), length), dtype=torch.long)
        for i, r in enumerate(rows):
            input_ids[i, : len(r)] = torch.from_numpy(np.asarray(r, dtype=np.int64))
            attention[i, : len(r)] = 1
        return input_ids, attention, torch.from_numpy(indices.astype(np.int64) + self.first_row)


def mixed_loss(
    pair_loss: torch.Tensor,
    parts: dict[str, float | torch.Tensor],
    num_pairs: int,
    mono_vectors: torch.Tensor,
    mono_targets: torch.Tensor,
    mse: Callable[[torch.Tensor, torch.Tensor], torch.Tensor] | None = None,
) -> tuple[torch.Tensor, dict[str, float | torch.Tensor]]:
    """The pair loss (mean of the source and target MSE over ``2 * num_pairs`` vectors) and the monolingual
    MSE ``mse(S(m), T(m))``, weighted by their numbers of student vectors: every vector counts the same.
    ``mse``: the pair loss's rule for one column of vectors when it has its own (a Matryoshka sum)."""
    mono = (mse or torch.nn.functional.mse_loss)(mono_vectors, mono_targets.detach())
    n_pair, n_mono = 2 * num_pairs, len(mono_vectors)
    loss = (pair_loss * n_pair + mono * n_mono) / (n_pair + n_mono)
    return loss, {**parts, "mse_monolingual": mono.detach()}
