"""(context, sentence) inputs of paper 001: x = concat([C_k^-(s_i), s, C_k^+(s_i)]).

Every sentence of the corpus is tokenized once (no special tokens, cut to ``max_sentence_tokens``) and kept
flat with the bounds of its document; an input is then assembled from ids: ``[CLS] s_{i-k} .. s_{i-1} s
s_{i+1} .. s_{i+k} [SEP]``, the context never crossing its document's bounds, the middle sentence ``s``
being ``s_i`` itself (a positive), a random sentence (a negative, Sec. 3.1) or a mined partner (Sec. 3.2).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import torch
from transformers import PreTrainedTokenizerFast

from lingualite.data.tokenized import RaggedIds
from lingualite.recipes.monolingual.documents import MonolingualCorpus


@dataclass
class TokenizedCorpus:
    """All sentences of a :class:`MonolingualCorpus`, in document order, as token ids.

    :param language: index into ``languages`` per sentence.
    :param doc_start, doc_end: the half-open range of sentence indices of each sentence's document.
    """

    ids: RaggedIds
    texts: list[str]
    language: np.ndarray
    doc_start: np.ndarray
    doc_end: np.ndarray
    languages: list[str]
    cls_id: int
    sep_id: int
    pad_id: int

    @classmethod
    def build(
        cls, corpus: MonolingualCorpus, tokenizer: PreTrainedTokenizerFast, max_sentence_tokens: int
    ) -> TokenizedCorpus:
        texts: list[str] = []
        language: list[int] = []
        start: list[int] = []
        end: list[int] = []
        languages = list(corpus.documents)
        for li, lang in enumerate(languages):
            for doc in corpus.documents[lang]:
                first = len(texts)
                texts.extend(doc.sentences)
                n = len(doc.sentences)
                language.extend([li] * n)
                start.extend([first] * n)
                end.extend([first + n] * n)
        encoded = tokenizer(texts, add_special_tokens=False, truncation=True, max_length=max_sentence_tokens)
        ids = RaggedIds.from_lists(encoded["input_ids"])
        return cls(
            ids,
            texts,
            np.asarray(language, np.int32),
            np.asarray(start, np.int64),
            np.asarray(end, np.int64),
            languages,
            int(tokenizer.cls_token_id),
            int(tokenizer.sep_token_id),
            int(tokenizer.pad_token_id),
        )

    def __len__(self) -> int:
        return len(self.texts)

    def indices_of(self, language: int) -> np.ndarray:
        """Sentence indices of one language: a contiguous range, as :meth:`build` stores languages in turn."""
        lo, hi = np.searchsorted(self.language, [language, language + 1])
        return np.arange(lo, hi)

    def context_input(self, center: int, middle: int, window: int) -> np.ndarray:
        """``[CLS] C_k^-(s_center) s_middle C_k^+(s_center) [SEP]`` as one id array."""
        lo = max(int(self.doc_start[center]), center - window)
        hi = min(int(self.doc_end[center]), center + window + 1)
        parts = [np.asarray([self.cls_id], np.int32)]
        parts += [self.ids[j] for j in range(lo, center)]
        parts.append(self.ids[middle])
        parts += [self.ids[j] for j in range(center + 1, hi)]
        parts.append(np.asarray([self.sep_id], np.int32))
        return np.concatenate(parts)

    def sentence_input(self, index: int) -> np.ndarray:
        """``[CLS] s [SEP]``: a sentence on its own, as it is encoded for mining and retrieval."""
        return np.concatenate([[self.cls_id], self.ids[index], [self.sep_id]]).astype(np.int32)


def pad_batch(sequences: list[np.ndarray], pad_id: int, max_length: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Right-pad id arrays (cut to ``max_length``, keeping the final [SEP]) into ``input_ids``, ``attention_mask``."""
    cut = [s if len(s) <= max_length else np.concatenate([s[: max_length - 1], s[-1:]]) for s in sequences]
    width = max(len(s) for s in cut)
    ids = np.full((len(cut), width), pad_id, dtype=np.int64)
    mask = np.zeros((len(cut), width), dtype=np.int64)
    for row, s in enumerate(cut):
        ids[row, : len(s)] = s
        mask[row, : len(s)] = 1
    return torch.from_numpy(ids), torch.from_numpy(mask)


@dataclass
class ContextExamples:
    """A batch of inputs: ``middle[r]`` put into the context of ``center[r]``, with a target per row
    (1/0 labels for classification, coherence scores for regression)."""

    center: np.ndarray
    middle: np.ndarray
    target: np.ndarray

    def tensors(
        self, corpus: TokenizedCorpus, window: int, max_length: int
    ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        inputs = [
            corpus.context_input(int(c), int(m), window)
            for c, m in zip(self.center, self.middle, strict=True)
        ]
        ids, mask = pad_batch(inputs, corpus.pad_id, max_length)
        return ids, mask, torch.as_tensor(self.target, dtype=torch.float32)


def random_replacements(
    corpus: TokenizedCorpus, centers: np.ndarray, rng: np.random.Generator, same_language: bool
) -> np.ndarray:
    """A random sentence other than the center for each center: from the center's language, or any."""
    out = np.empty(len(centers), dtype=np.int64)
    pools = {li: corpus.indices_of(li) for li in range(len(corpus.languages))} if same_language else {}
    everything = np.arange(len(corpus))
    for row, c in enumerate(centers):
        pool = pools[int(corpus.language[c])] if same_language else everything
        if len(pool) < 2:
            raise ValueError("a language needs at least two sentences for random replacements")
        pick = int(c)
        while pick == c:
            pick = int(pool[rng.integers(len(pool))])
        out[row] = pick
    return out


def classification_examples(
    corpus: TokenizedCorpus, batch_size: int, rng: np.random.Generator, same_language: bool = True
) -> ContextExamples:
    """Sentence-context classification (paper 001, Sec. 3.1): ``batch_size`` centers drawn uniformly; the
    first half keep their own sentence (label 1), the second half get a random replacement (label 0)."""
    centers = rng.integers(0, len(corpus), size=batch_size)
    positives = batch_size - batch_size // 2
    middle = centers.copy()
    middle[positives:] = random_replacements(corpus, centers[positives:], rng, same_language)
    target = np.zeros(batch_size, dtype=np.float32)
    target[:positives] = 1.0
    return ContextExamples(centers, middle, target)
