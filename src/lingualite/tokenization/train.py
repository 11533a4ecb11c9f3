"""Train a Unigram (SentencePiece-style) or WordPiece vocabulary shared by all languages.

Built on the ``tokenizers`` library; the result is wrapped as a ``PreTrainedTokenizerFast`` so that
transformers and sentence-transformers load it from ``tokenizer.json`` without lingualite.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Literal

from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers
from transformers import PreTrainedTokenizerFast

from lingualite.tokenization.sampling import sample_sentences

SPECIAL_TOKENS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


def _normalizer(lowercase: bool) -> normalizers.Normalizer:
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
) -> PreTrainedTokenizerFast:
    """Train a shared vocabulary on sentences of every language, sampled with p_l proportional to n_l^alpha.

    :param texts: sentences per language code (e.g. ``{"en": [...], "fr": [...]}``).
    :param vocab_size: size of the vocabulary including the 5 special tokens (paper 000: 50k).
    :param kind: ``unigram`` (SentencePiece-style, paper 000) or ``wordpiece`` (paper 002).
    :param alpha: smoothing exponent; 1 keeps raw shares, 0 gives every language the same share.
    :param sample_size: number of sentences the trainer sees in total.
    :param lowercase: lowercase after NFKC normalisation (helps a small vocabulary; the encoder is then cased-blind).
    """
    if vocab_size < len(SPECIAL_TOKENS) + 10:
        raise ValueError(f"vocab_size must be at least {len(SPECIAL_TOKENS) + 10}, got {vocab_size}")
    if kind == "unigram":
        tok = Tokenizer(models.Unigram())
        tok.pre_tokenizer = pre_tokenizers.Sequence(
            [pre_tokenizers.Metaspace(), pre_tokenizers.Digits(individual_digits=True)]
        )
        tok.decoder = decoders.Metaspace()
        trainer: trainers.Trainer = trainers.UnigramTrainer(
            vocab_size=vocab_size, special_tokens=SPECIAL_TOKENS, unk_token="[UNK]", show_progress=False
        )
    elif kind == "wordpiece":
        tok = Tokenizer(models.WordPiece(unk_token="[UNK]"))
        tok.pre_tokenizer = pre_tokenizers.Sequence(
            [pre_tokenizers.BertPreTokenizer(), pre_tokenizers.Digits(individual_digits=True)]
        )
        tok.decoder = decoders.WordPiece()
        trainer = trainers.WordPieceTrainer(
            vocab_size=vocab_size, special_tokens=SPECIAL_TOKENS, show_progress=False
        )
    else:
        raise ValueError(f"kind must be 'unigram' or 'wordpiece', got {kind!r}")
    tok.normalizer = _normalizer(lowercase)
    corpus = list(sample_sentences(texts, alpha=alpha, total=sample_size, seed=seed))
    tok.train_from_iterator(corpus, trainer=trainer, length=len(corpus))
    cls_id, sep_id = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B [SEP]",
        special_tokens=[("[CLS]", cls_id), ("[SEP]", sep_id)],
    )
    return wrap_tokenizer(tok)


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
