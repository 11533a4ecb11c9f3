"""Which training sentences are translations of each other, from the parallel source files (EVALUATION ONLY).

The monolingual recipe never trains on this: it measures what mining could find (the *ceiling*: sentences
whose translation is present in another language's corpus) and what it did find (the *true precision* of the
pairs mined for training, issue #16), beside the gold precision on held-out validation pairs.

Every sentence ``(language, text)`` gets a set of alignment keys: its own key, plus the key of every sentence a
line of the files pairs it with. Two sentences of different languages are translations when their key sets
meet: they are aligned directly (en-fr line) or through a common sentence (fr and de aligned to the same
English sentence, en-fr and en-de files). Keys are 64-bit blake2b hashes of ``language NUL text`` (memory:
only the corpus sentences' keys are kept).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.data.pairs import languages_of
from lingualite.data.readers import read_tsv


def _key(language: str, text: str) -> int:
    return int.from_bytes(hashlib.blake2b(f"{language}\0{text}".encode(), digest_size=8).digest(), "little")


@dataclass
class TranslationTruth:
    """Alignment keys of every corpus sentence (indexed like :class:`~lingualite.recipes.monolingual.contexts.
    TokenizedCorpus`), and each sentence's language index."""

    keys: list[frozenset[int]]
    language: np.ndarray
    languages: list[str]

    @classmethod
    def from_files(
        cls, files: list[Path], texts: list[str], language: np.ndarray, languages: list[str]
    ) -> TranslationTruth:
        own = [_key(languages[int(li)], t) for t, li in zip(texts, language, strict=True)]
        index: dict[int, set[int]] = {k: {k} for k in own}
        for path in files:
            src_lang, tgt_lang = languages_of(path)
            for pair in read_tsv(path):
                ks, kt = _key(src_lang, pair.src), _key(tgt_lang, pair.tgt)
                if ks in index:
                    index[ks].add(kt)
                if kt in index:
                    index[kt].add(ks)
        return cls([frozenset(index[k]) for k in own], np.asarray(language), list(languages))

    def is_translation(self, i: int, j: int) -> bool:
        return self.language[i] != self.language[j] and not self.keys[i].isdisjoint(self.keys[j])

    def flags(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Whether each pair ``(a[r], b[r])`` is a translation pair."""
        return np.fromiter(
            (self.is_translation(int(i), int(j)) for i, j in zip(a, b, strict=True)), bool, len(a)
        )

    def precision(self, a: np.ndarray, b: np.ndarray) -> dict[str, Any]:
        """True precision of mined pairs, overall and per language pair (``{"en-fr": 0.4}``)."""
        ok = self.flags(a, b)
        la, lb = self.language[a], self.language[b]
        per_pair = {}
        for x, y in sorted(set(zip(la.tolist(), lb.tolist(), strict=True))):
            rows = (la == x) & (lb == y)
            per_pair[f"{self.languages[x]}-{self.languages[y]}"] = round(float(ok[rows].mean()), 4)
        return {
            "true_precision": round(float(ok.mean()), 4) if len(ok) else 0.0,
            "true_pairs": int(ok.sum()),
            "true_precision_per_language_pair": per_pair,
        }

    def ceiling(self) -> dict[str, dict[str, int]]:
        """Per language pair: sentences of each side whose translation is present on the other side (what
        exhaustive mining could find at best), and the sentences of each side."""
        present = [set[int]() for _ in self.languages]
        for keys, li in zip(self.keys, self.language.tolist(), strict=True):
            present[li].update(keys)
        out: dict[str, dict[str, int]] = {}
        for x, lang_x in enumerate(self.languages):
            for y in range(x + 1, len(self.languages)):
                lang_y = self.languages[y]
                row = {"sentences_" + lang_x: 0, "sentences_" + lang_y: 0}
                row[f"{lang_x}_with_translation"] = row[f"{lang_y}_with_translation"] = 0
                for keys, li in zip(self.keys, self.language.tolist(), strict=True):
                    if li in (x, y):
                        mine, other = (lang_x, y) if li == x else (lang_y, x)
                        row["sentences_" + mine] += 1
                        row[f"{mine}_with_translation"] += int(not keys.isdisjoint(present[other]))
                out[f"{lang_x}-{lang_y}"] = row
        return out
