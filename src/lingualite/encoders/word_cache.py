"""Tokenize by whitespace-separated words with a cache: the static tier's tokenizer, ~4x the Rust batch call.

A static model's whole cost is tokenizing (the gather and mean are cheap), and the Rust tokenizer tops out near
20-25k sentences per second on one core here. Natural text repeats its words, and for the tokenizers our static
models use, a sentence's tokens are exactly the concatenation of its whitespace-separated words' tokens: every
step before the sub-word model (Unicode normalisation, lowercasing, accent stripping, splitting on whitespace,
punctuation and digits) acts within a word. So each distinct word is tokenized once (batched, in Rust) and
remembered; a sentence is ``str.split`` plus dictionary look-ups. model2vec and sentence-transformers call the
tokenizer on every sentence; ``tokenizers`` has no such cache for us to switch on, hence this module.

Where the pre-tokenizer isolates every punctuation character (BERT's, ours), a new word is first cut at its ASCII
punctuation ("word," -> "word" ","): its ids are the parts' ids, so "word,", "word." and "(word" cost one
tokenizer call between them. A word with a combining mark is not cut (NFC could join "=" and U+0338 into "≠"),
nor at a character that occurs in an added token such as "[CLS]" (the tokenizer matches those before splitting);
with a ``single_word`` added token no word is cut. Where the tokenizer isolates Han and Kana characters
(lingualite's vocabularies split them; BERT's normaliser pads them with spaces), a word is also cut around each
of them, so a Chinese or Japanese sentence without spaces costs dictionary look-ups of its characters, not a
tokenizer call (:mod:`lingualite.encoders.word_cuts` says where a cut is exact). Words longer than
:data:`MAX_WORD_CHARS` are not remembered, so text without spaces cannot fill the cache with whole sentences.

The equality is checked, not assumed: :func:`word_cache_for` refuses tokenizers with a step that can look across
words (byte-level or Metaspace pre-tokenizers, a ``Split`` other than one isolating single characters,
SentencePiece's precompiled normaliser, ``Prepend``, ``Replace`` of or with whitespace, added tokens containing
spaces), and finds the characters that Python treats as
whitespace but the tokenizer does not (e.g. U+001C-U+001F); a batch containing one goes through the tokenizer
unchanged. The tests compare the two paths on generated text.
"""

from __future__ import annotations

import itertools
import json
import re
import string
from collections.abc import Sequence
from typing import Any

import numpy as np

from lingualite.encoders.word_cuts import (
    character_class,
    isolated_characters,
    isolates_punctuation,
    isolating_split,
    joiners_after_punctuation,
    joining_characters,
)

__all__ = ["WordCache", "word_cache_for"]

LOCAL_NORMALIZERS = {"NFC", "NFD", "NFKC", "NFKD", "Lowercase", "StripAccents", "BertNormalizer", "Strip"}
LOCAL_PRE_TOKENIZERS = {"BertPreTokenizer", "Whitespace", "WhitespaceSplit", "Punctuation", "Digits"}
"""Pre-tokenizers that only cut within a whitespace word (and ``Split`` steps isolating single characters)."""
WORDS_PER_CALL = 256
"""New words tokenized per joined string."""
MAX_WORDS = 1 << 18
"""Distinct words remembered (~50 MB); the cache keeps only the current batch's words past this (so memory stays
bounded on any input: at most this many plus one batch's)."""
MAX_WORD_CHARS = 32
"""Longer words are tokenized (from their cached parts, when they can be cut) but not remembered: text without
spaces (a Thai sentence, a URL, Chinese under a tokenizer without a character rule) would fill the cache with
sentences seen once."""

PYTHON_WHITESPACE = [chr(c) for c in range(0x3001) if chr(c).isspace()]


class WordCache:
    """Token ids of sentences from cached per-word tokenizations, truncated like the tokenizer to ``max_length``
    tokens; with ``special`` (the ids the post-processor puts before and after a sentence, e.g. [CLS] and [SEP])
    they are the tokenizer's ids with special tokens, else without."""

    def __init__(
        self,
        tokenizer: Any,
        max_length: int | None,
        special: tuple[list[int], list[int]] | None = None,
        punctuation: str = "",
        characters: str = "",
    ) -> None:
        """:param punctuation: ASCII punctuation the tokenizer always isolates, at which new words may be cut
            (unless they hold a character that composes with punctuation).
        :param characters: other characters the tokenizer always isolates (Han, Kana), at which new words are
            cut, but never before a character that composition could join to them."""
        self.tokenizer = tokenizer
        self.prefix, self.suffix = special if special is not None else ([], [])
        self.max_length = None if max_length is None else max_length - len(self.prefix) - len(self.suffix)
        self.words: dict[str, tuple[int, ...]] = {}
        self.unsafe = _unsafe_whitespace(tokenizer)
        cuts = [f"[{re.escape(punctuation)}]"] if punctuation else []
        if characters:
            cuts.append(f"{character_class(characters)}(?!{character_class(joining_characters())})")
        self.splitter = re.compile(f"({'|'.join(cuts)})") if cuts else None
        self.plain = type(tokenizer).from_str(tokenizer.to_str())  # no truncation or padding across words
        self.plain.no_truncation()
        self.plain.no_padding()
        # added tokens that take in the whitespace around them or look at their neighbours are placed wrongly
        # by the offsets of a joined string (measured: rstrip): those tokenizers are asked word by word
        self.joinable = not any(
            t.get(flag)
            for t in json.loads(tokenizer.to_str()).get("added_tokens") or []
            for flag in ("lstrip", "rstrip", "single_word")
        )

    def ids(self, texts: Sequence[str]) -> list[Sequence[int]]:
        """One id sequence per text, the same as ``tokenizer.encode_batch(texts, add_special_tokens=...)``."""
        if self.unsafe is not None and self.unsafe.search("".join(texts)):
            encodings = self.tokenizer.encode_batch(
                list(texts), add_special_tokens=bool(self.prefix or self.suffix)
            )
            return [e.ids for e in encodings]
        content = self._content_ids(texts)
        if self.prefix or self.suffix:
            return [[*self.prefix, *ids, *self.suffix] for ids in content]
        return content

    def _content_ids(self, texts: Sequence[str]) -> list[Sequence[int]]:
        words_per_text = [text.split() for text in texts]
        flat = list(itertools.chain.from_iterable(words_per_text))
        cached = self.words.get
        pieces = [cached(word) for word in flat]
        if None in pieces:
            learned = self._learn({word for word, piece in zip(flat, pieces, strict=True) if piece is None})
            kept = {word: ids for word, ids in learned.items() if len(word) <= MAX_WORD_CHARS}
            if len(self.words) + len(kept) > MAX_WORDS:
                self.words = {
                    word: piece for word, piece in zip(flat, pieces, strict=True) if piece is not None
                }
            self.words.update(kept)
            pieces = [
                learned[word] if piece is None else piece for word, piece in zip(flat, pieces, strict=True)
            ]
        out: list[Sequence[int]] = []
        start = 0
        for words in words_per_text:
            end = start + len(words)
            ids = (
                list(itertools.chain.from_iterable(pieces[start:end])) if end - start != 1 else pieces[start]
            )
            out.append(
                ids if self.max_length is None or len(ids) <= self.max_length else ids[: self.max_length]
            )
            start = end
        return out

    def flat_ids(self, texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """All texts' ids in one int64 array, and each text's token count."""
        ids_lists = self.ids(texts)
        lengths = np.fromiter(map(len, ids_lists), np.int64, len(ids_lists))
        flat = np.fromiter(itertools.chain.from_iterable(ids_lists), np.int64, int(lengths.sum()))
        return flat, lengths

    def _learn(self, words: set[str]) -> dict[str, tuple[int, ...]]:
        """Ids of new words (and of the parts they were cut into)."""
        whole, cut = list(words), {}
        if self.splitter is not None:
            whole, split, joins = [], self.splitter.split, joiners_after_punctuation().search
            for word in words:
                parts = split(word)
                if len(parts) > 1 and not joins(word):
                    cut[word] = [part for part in parts if part]
                else:
                    whole.append(word)
        known = self.words
        asked = list({*whole, *(part for parts in cut.values() for part in parts if part not in known)})
        learned = dict(zip(asked, self._tokenize_words(asked), strict=True))
        for word, parts in cut.items():
            learned[word] = tuple(
                itertools.chain.from_iterable(learned[p] if p in learned else known[p] for p in parts)
            )
        return learned

    def _tokenize_words(self, words: list[str]) -> list[tuple[int, ...]]:
        """Each word's ids, from the words joined by spaces in chunks: one Encoding per chunk costs the
        tokenizer ~40% less than one per word, and ``encode_batch`` still spreads the chunks over the cores."""
        if not self.joinable:
            return [tuple(e.ids) for e in self.plain.encode_batch(words, add_special_tokens=False)]
        chunks = [words[i : i + WORDS_PER_CALL] for i in range(0, len(words), WORDS_PER_CALL)]
        encodings = self.plain.encode_batch([" ".join(chunk) for chunk in chunks], add_special_tokens=False)
        out: list[tuple[int, ...]] = []
        for chunk, encoding in zip(chunks, encodings, strict=True):
            starts = np.cumsum([0] + [len(word) + 1 for word in chunk[:-1]])
            offsets = np.array(encoding.offsets, dtype=np.int64).reshape(-1, 2)
            # the word a token comes from: the one holding the token's last character
            owner = np.searchsorted(starts, np.maximum(offsets[:, 1] - 1, offsets[:, 0]), side="right") - 1
            if np.any(np.diff(owner) < 0):  # offsets out of order: trust nothing, ask word by word
                out.extend(tuple(e.ids) for e in self.plain.encode_batch(chunk, add_special_tokens=False))
                continue
            bounds = np.searchsorted(owner, np.arange(len(chunk) + 1)).tolist()
            ids = encoding.ids
            out.extend(tuple(ids[bounds[k] : bounds[k + 1]]) for k in range(len(chunk)))
        return out


def word_cache_for(tokenizer: Any, max_length: int | None, special_tokens: bool = False) -> WordCache | None:
    """A :class:`WordCache` when this tokenizer works word by word, else None (use the tokenizer itself).

    :param special_tokens: give the ids with the post-processor's special tokens (a transformer's input).
    """
    tokenizer_json = json.loads(tokenizer.to_str())  # its pipeline, as tokenizer.json describes it
    if not (
        _local_normalizer(tokenizer_json.get("normalizer"))
        and _local_pre(tokenizer_json.get("pre_tokenizer"))
    ):
        return None
    if any(re.search(r"\s", t.get("content", "")) for t in tokenizer_json.get("added_tokens") or []):
        return None
    special = _special_tokens_around(tokenizer) if special_tokens else None
    if special_tokens and special is None:
        return None
    punctuation = characters = ""
    added = tokenizer_json.get("added_tokens") or []
    # a single_word added token matches by its neighbours, which a cut changes ("_zz" -> "_", "zz")
    if not any(t.get("single_word") for t in added):
        in_added = set("".join(t.get("content", "") for t in added))
        if isolates_punctuation(tokenizer_json.get("pre_tokenizer")):
            punctuation = "".join(c for c in string.punctuation if c not in in_added)
        characters = "".join(c for c in isolated_characters(tokenizer) if c not in in_added)
    return WordCache(tokenizer, max_length, special, punctuation, characters)


def _special_tokens_around(tokenizer: Any) -> tuple[list[int], list[int]] | None:
    """The ids the post-processor adds before and after every sentence, if they are the same for all."""
    probe = type(tokenizer).from_str(tokenizer.to_str())
    probe.no_truncation()  # a short limit would cut the probes' bodies
    found = set()
    for text in ("a", "a b", "the 42 words, here"):
        full = probe.encode(text).ids
        body = probe.encode(text, add_special_tokens=False).ids
        starts = [i for i in range(len(full) - len(body) + 1) if full[i : i + len(body)] == body]
        if not body or not starts:
            return None
        found.add((tuple(full[: starts[0]]), tuple(full[starts[0] + len(body) :])))
    if len(found) != 1:
        return None
    prefix, suffix = found.pop()
    return list(prefix), list(suffix)


def _local_normalizer(spec: dict[str, Any] | None) -> bool:
    if spec is None:
        return True
    kind = spec.get("type")
    if kind == "Sequence":
        return all(_local_normalizer(s) for s in spec.get("normalizers", []))
    if kind == "Replace":
        pattern, content = spec.get("pattern", {}).get("String"), spec.get("content", "")
        if pattern is None or not pattern:  # a regex: could match across words
            return False
        whitespace_to_space = pattern.isspace() and content == " "
        return whitespace_to_space or not (re.search(r"\s", pattern) or re.search(r"\s", content))
    return kind in LOCAL_NORMALIZERS


def _local_pre(spec: dict[str, Any] | None) -> bool:
    if spec is None:
        return False  # nothing splits on whitespace: "a b" would be one piece
    kind = spec.get("type")
    if kind == "Sequence":
        steps = spec.get("pretokenizers", [])
        return bool(steps) and _splits_whitespace(steps[0]) and all(_local_pre_step(s) for s in steps)
    return _splits_whitespace(spec)


def _splits_whitespace(spec: dict[str, Any]) -> bool:
    return spec.get("type") in {"BertPreTokenizer", "Whitespace", "WhitespaceSplit"}


def _local_pre_step(spec: dict[str, Any]) -> bool:
    return spec.get("type") in LOCAL_PRE_TOKENIZERS or isolating_split(spec)


def _unsafe_whitespace(tokenizer: Any) -> re.Pattern[str] | None:
    """Characters ``str.split`` splits on where the tokenizer does not (found by asking the tokenizer)."""

    def ids(text: str) -> list[int]:
        return tokenizer.encode(text, add_special_tokens=False).ids

    apart = ids("a") + ids("b")
    unsafe = [c for c in PYTHON_WHITESPACE if ids(f"a{c}b") != apart]
    return re.compile("[" + re.escape("".join(unsafe)) + "]") if unsafe else None
