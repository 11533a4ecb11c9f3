"""Train a Unigram (SentencePiece-style) or WordPiece vocabulary shared by all languages.

Built on the ``tokenizers`` library; the result is wrapped as a ``PreTrainedTokenizerFast`` so that
transformers and sentence-transformers load it from ``tokenizer.json`` without lingualite. Han and Kana are cut
into single characters (:mod:`lingualite.tokenization.segmentation`), and the alphabet covers each language's
frequent characters, not every rare one (:mod:`lingualite.tokenization.alphabet`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Literal

from tokenizers import Tokenizer, decoders, models, normalizers, processors, trainers
from transformers import PreTrainedTokenizerFast

from lingualite.tokenization.alphabet import (
    CHARACTER_COVERAGE,
    MAX_ALPHABET_SHARE,
    character_counts,
    choose_alphabet,
    normalized_lines,
    sentences_for_unsampled,
    without_rare,
)
from lingualite.tokenization.sampling import distinct_texts, sample_by_language
from lingualite.tokenization.segmentation import KanaRule, pre_tokenizer

logger = logging.getLogger(__name__)

SPECIAL_TOKENS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
# WordPiece's longest "word" it cuts into pieces (its default, 100, makes a longer one a single [UNK]): Thai is
# written without spaces, so a clause of 100-250 letters is one word to the pre-tokenizer (12 of 5,873 Thai
# lines were one [UNK]); the student reads at most 128 tokens anyway.
MAX_WORD_CHARS = 1000


def text_normalizer(lowercase: bool) -> normalizers.Normalizer:
    """The normaliser of every vocabulary trained here: NFKC, tabs as spaces, and lowercase if asked."""
    steps = [normalizers.NFKC(), normalizers.Replace("\t", " ")]
    if lowercase:
        steps.append(normalizers.Lowercase())
    return normalizers.Sequence(steps)


def train_tokenizer(
    texts: Mapping[str, Sequence[str]],
    vocab_size: int = 16000,
    kind: Literal["unigram", "wordpiece"] = "unigram",
    alpha: float = 0.7,
    sample_size: int = 300_000,
    lowercase: bool = True,
    seed: int = 0,
    character_coverage: float = CHARACTER_COVERAGE,
    kana: KanaRule = "characters",
    alphabet_min_count: int | None = None,
) -> PreTrainedTokenizerFast:
    """Train a shared vocabulary on sentences of every language, sampled with p_l proportional to n_l^alpha.

    :param texts: sentences per language code (e.g. ``{"en": [...], "zh": [...]}``); each language is one
        sampling unit, whatever number of files its sentences came from.
    :param vocab_size: size of the vocabulary including the 5 special tokens (paper 000: 50k).
    :param kind: ``unigram`` (SentencePiece-style, paper 000) or ``wordpiece`` (paper 002).
    :param alpha: smoothing exponent; 1 keeps raw shares, 0 gives every language the same share.
    :param sample_size: number of sentences the trainer sees in total.
    :param lowercase: lowercase after NFKC normalisation (helps a small vocabulary; the encoder is then cased-blind).
    :param character_coverage: share of each language's characters the vocabulary keeps (see
        :mod:`lingualite.tokenization.alphabet`); the rarest become [UNK].
    :param kana: ``characters`` (each Kana letter a pre-token) or ``runs`` (a Kana run is one pre-token the
        sub-word model cuts; :func:`~lingualite.tokenization.segmentation.isolate_characters`).
    :param alphabet_min_count: also the characters a language's text holds at least this many times that
        the sample missed, each with a sentence holding it
        (:func:`~lingualite.tokenization.alphabet.sentences_for_unsampled`; None: the sample's characters).
    """
    sample = sample_by_language(texts, alpha=alpha, total=sample_size, seed=seed)
    if alphabet_min_count is not None:
        normalize = text_normalizer(lowercase).normalize_str
        pools = distinct_texts(texts)
        for lang, added in sentences_for_unsampled(pools, sample, alphabet_min_count, normalize).items():
            sample[lang] = [*sample.get(lang, []), *added]
    return train_on_sample(sample, vocab_size, kind, lowercase, character_coverage, kana)


def train_on_sample(
    sample: Mapping[str, Sequence[str]],
    vocab_size: int,
    kind: Literal["unigram", "wordpiece"],
    lowercase: bool = True,
    character_coverage: float = CHARACTER_COVERAGE,
    kana: KanaRule = "characters",
) -> PreTrainedTokenizerFast:
    """Train a vocabulary on already drawn sentences per language (all of them, in order); ``kana``: see
    :func:`~lingualite.tokenization.segmentation.isolate_characters`."""
    if vocab_size < len(SPECIAL_TOKENS) + 10:
        raise ValueError(f"vocab_size must be at least {len(SPECIAL_TOKENS) + 10}, got {vocab_size}")
    if kind == "unigram":
        tok = Tokenizer(models.Unigram())
        tok.decoder = decoders.Metaspace()
        trainer: trainers.Trainer = trainers.UnigramTrainer(
            vocab_size=vocab_size, special_tokens=SPECIAL_TOKENS, unk_token="[UNK]", show_progress=False
        )
    elif kind == "wordpiece":
        tok = Tokenizer(models.WordPiece(unk_token="[UNK]", max_input_chars_per_word=MAX_WORD_CHARS))
        tok.decoder = decoders.WordPiece()
        trainer = trainers.WordPieceTrainer(
            vocab_size=vocab_size, special_tokens=SPECIAL_TOKENS, show_progress=False
        )
    else:
        raise ValueError(f"kind must be 'unigram' or 'wordpiece', got {kind!r}")
    tok.pre_tokenizer = pre_tokenizer(kind, kana)
    tok.normalizer = text_normalizer(lowercase)
    corpus = _training_text(sample, tok.normalizer.normalize_str, vocab_size, character_coverage)
    tok.train_from_iterator(corpus, trainer=trainer, length=len(corpus))
    cls_id, sep_id = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B [SEP]",
        special_tokens=[("[CLS]", cls_id), ("[SEP]", sep_id)],
    )
    return wrap_tokenizer(tok)


def _training_text(
    sample: Mapping[str, Sequence[str]], normalize: Callable[[str], str], vocab_size: int, coverage: float
) -> list[str]:
    """The sample's sentences, language after language, without the characters the alphabet leaves out."""
    normalized = {lang: normalized_lines(sentences, normalize) for lang, sentences in sample.items()}
    counts = character_counts(normalized)
    limit = int(MAX_ALPHABET_SHARE * vocab_size)
    alphabet = choose_alphabet(counts, coverage, limit)
    seen = set().union(*counts.values()) if counts else set()
    if len(seen) > len(alphabet):
        logger.info(
            "vocabulary alphabet: %d of the %d characters seen (coverage %s per language, at most %d)",
            len(alphabet),
            len(seen),
            coverage,
            limit,
        )
    corpus = [s for sentences in sample.values() for s in sentences]
    return without_rare(corpus, [s for lines in normalized.values() for s in lines], alphabet, seen)


def wrap_tokenizer(tok: Tokenizer, model_max_length: int = 128) -> PreTrainedTokenizerFast:
    """Wrap a ``tokenizers.Tokenizer`` with BERT's special-token names, as transformers expects."""
    return PreTrainedTokenizerFast(
        tokenizer_object=tok,
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        mask_token="[MASK]",
        model_max_length=model_max_length,
    )


def load_tokenizer(path: str | Path) -> PreTrainedTokenizerFast:
    """Load a tokenizer saved by :func:`train_tokenizer` (a folder or a ``tokenizer.json`` file)."""
    path = Path(path)
    if path.is_dir():
        return PreTrainedTokenizerFast.from_pretrained(str(path))
    return wrap_tokenizer(Tokenizer.from_file(str(path)))
