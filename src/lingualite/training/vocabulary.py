"""The vocabulary stage every recipe starts with: a given tokenizer, the run's own (reused on resume, or when
its recorded settings match), or a new one trained on the training text with smoothed language sampling
(:func:`lingualite.tokenization.vocabulary.build_vocabulary`), written to ``OUTPUT/tokenizer``.

Under torchrun the main rank trains it and the others wait, then load it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict
from typing import Any

from transformers import PreTrainedTokenizerFast

from lingualite.config.sections import PairDataConfig, VocabularyConfig
from lingualite.core.errors import ConfigError
from lingualite.core.io_utils import atomic_dir
from lingualite.core.progress import phase
from lingualite.data.pairs import ParallelCorpus, expand_files, read_pairs
from lingualite.models.run_folder import RunFolder
from lingualite.text.languages import CORE, LANGUAGES
from lingualite.text.scripts import is_mark
from lingualite.tokenization import load_tokenizer
from lingualite.tokenization.sampling import GroupShare, ShareFloor
from lingualite.tokenization.vocabulary import build_vocabulary
from lingualite.training.distributed import DistributedContext

RECORD = "lingualite_vocabulary.json"
Texts = Mapping[str, Sequence[str]]


def pair_texts(
    vocabulary: VocabularyConfig, data: PairDataConfig, corpus: ParallelCorpus
) -> Callable[[], Texts]:
    """The sentences per language of ``vocabulary.files`` (default: the training files, all their pairs).

    ``corpus`` is the training corpus the recipe has read already: when it holds every pair of the training
    files (no ``max_train_pairs`` cap, no ``vocabulary.files``), its sentences are used instead of reading
    the files again."""
    if vocabulary.files is None and data.max_train_pairs is None:
        return lambda: corpus.texts
    return lambda: read_pairs(expand_files(vocabulary.files or data.train_files, "vocabulary")).texts


def _essential_marks(text: str) -> int:
    """Devanagari and Thai combining marks in ``text``: vowel signs, viramas, tone marks, without which a word
    is another word (``के`` -> ``क``), unlike the accents an uncased Latin vocabulary drops (``é`` -> ``e``)."""
    return sum((0x0900 <= ord(c) <= 0x097F or 0x0E00 <= ord(c) <= 0x0E7F) and is_mark(c) for c in text)


def check_keeps_marks(tokenizer: PreTrainedTokenizerFast, texts: Callable[[], Texts], where: str) -> None:
    """Refuse a given tokenizer whose normaliser strips the marks of a language the run's text is in (an
    uncased BERT vocabulary's accent stripping, as the teacher vocabulary of paper 002's MiniLM does): its
    Hindi or Thai would silently become other words. ``texts`` is read only if the normaliser strips them."""
    normalizer = tokenizer.backend_tokenizer.normalizer
    probe = "के ที่"
    if normalizer is None or _essential_marks(normalizer.normalize_str(probe)) >= _essential_marks(probe):
        return
    for lang, lines in texts().items():
        line = next((t for t in lines[:5000] if _essential_marks(t)), None)  # the normaliser is deterministic
        if line is None:
            continue
        out = normalizer.normalize_str(line)
        if _essential_marks(out) < _essential_marks(line):
            raise ConfigError(
                f"{where}: its tokenizer strips the vowel signs and tone marks that {lang} text needs "
                f"({line[:24]!r} -> {out[:24]!r}); train the run's own vocabulary (vocabulary.kind wordpiece)"
            )


def core_group(core_share: float | None) -> GroupShare | None:
    """The 13 default languages' fixed share of a vocabulary's sample (``vocabulary.core_share``)."""
    return None if core_share is None else GroupShare(CORE, core_share)


def script_floor(min_script_share: float | None) -> ShareFloor | None:
    """Each script's least share of a vocabulary's sample (``vocabulary.min_script_share``); a language's
    script is the first of its ``scripts`` in the registry (Japanese: Han, with Chinese)."""
    if min_script_share is None:
        return None
    return ShareFloor({code: row.scripts[0] for code, row in LANGUAGES.items()}, min_script_share)


def prepare_vocabulary(
    vocabulary: VocabularyConfig,
    run: RunFolder,
    texts: Callable[[], Texts],
    seed: int,
    resume: bool,
    ctx: DistributedContext | None = None,
    show: bool = True,
    whole: Callable[[], Texts] | None = None,
) -> tuple[PreTrainedTokenizerFast, dict[str, Any]]:
    """The run's tokenizer and what was done (for the summary); ``texts`` is only called to train one.

    :param whole: lines per language that join the drawn sample whole (``vocabulary.word_lists``)."""
    ctx = ctx or DistributedContext()
    if vocabulary.path:
        tokenizer = load_tokenizer(vocabulary.path)
        check_keeps_marks(tokenizer, texts, vocabulary.path)
        return tokenizer, {"path": vocabulary.path, "size": len(tokenizer)}
    folder = run.tokenizer_dir
    info: dict[str, Any] = {}
    if ctx.is_main:  # the other ranks decide nothing: they wait for the main rank's folder, then load it
        info = _reuse_or_train(vocabulary, run, texts, seed, resume, show, whole)
    ctx.barrier()
    return load_tokenizer(folder), info


def _reuse_or_train(
    vocabulary: VocabularyConfig,
    run: RunFolder,
    texts: Callable[[], Texts],
    seed: int,
    resume: bool,
    show: bool,
    whole: Callable[[], Texts] | None = None,
) -> dict[str, Any]:
    folder, record_path = run.tokenizer_dir, run.tokenizer_dir / RECORD
    settings = {**asdict(vocabulary), "seed": seed}
    for key in ("alphabet_min_count", "min_script_share"):
        if settings[key] is None:  # unset: as runs recorded them before the key existed
            del settings[key]
    if (folder / "tokenizer.json").exists():
        record = json.loads(record_path.read_text()) if record_path.exists() else {}
        if resume or record.get("settings") == settings:
            return {**record.get("summary", {}), "reused": True}
    with phase(f"vocabulary: {vocabulary.kind} {vocabulary.size:,}", show):
        by_language = texts()
        tokenizer, sample = build_vocabulary(
            by_language,
            vocabulary.size,
            vocabulary.kind,
            vocabulary.alpha,
            vocabulary.sample_size,
            vocabulary.lowercase,
            seed,
            vocabulary.character_coverage,
            core_group(vocabulary.core_share),
            vocabulary.kana,
            whole() if whole is not None else None,
            vocabulary.alphabet_min_count,
            script_floor(vocabulary.min_script_share),
        )
    info = {
        "kind": vocabulary.kind,
        "size": len(tokenizer),
        "requested_size": vocabulary.size,
        "alpha": vocabulary.alpha,
        "character_coverage": vocabulary.character_coverage,
        "sentences_per_language": sample.counts,
        "distinct_sentences_per_language": {lang: len(t) for lang, t in by_language.items()},
        "shares": {lang: round(s, 4) for lang, s in sample.shares.items()},
        "core_share": vocabulary.core_share,
        "kana": vocabulary.kana,
    }
    if vocabulary.min_script_share is not None:
        info["min_script_share"] = vocabulary.min_script_share
    if sample.for_alphabet is not None:
        info["alphabet_min_count"] = vocabulary.alphabet_min_count
        info["alphabet_lines_per_language"] = {lang: len(t) for lang, t in sample.for_alphabet.items()}
    if whole is not None:
        info["whole_lines_per_language"] = {lang: len(t) for lang, t in (sample.whole or {}).items()}
    with atomic_dir(folder) as tmp:
        tokenizer.save_pretrained(str(tmp))
        (tmp / RECORD).write_text(json.dumps({"settings": settings, "summary": info}))
    return info
