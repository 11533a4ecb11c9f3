"""Streaming filters for parallel text: length, ratio, untranslated, foreign script, language ID, dedup.

Filters run cheapest first; a pair is dropped for the first reason that applies, and every drop is
counted in :class:`CleaningStats` under one of :data:`DROP_REASONS`. Kept pairs have their two texts
stripped of leading/trailing whitespace.
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Literal

from lingualite.core.errors import ConfigError
from lingualite.data.readers import ParallelPair
from lingualite.text.languages import CORE, LANGUAGES
from lingualite.text.scripts import SIMPLIFIED_ONLY, script_units
from lingualite.text.segmentation import length_units

__all__ = [
    "DROP_REASONS",
    "LATIN_SCRIPT_LANGS",
    "CleaningConfig",
    "CleaningStats",
    "PairCleaner",
    "clean_pairs",
    "foreign_token_ratio",
    "normalize_for_dedup",
    "normalize_light",
]

DROP_REASONS = (
    "empty",
    "too_short",
    "too_long",
    "length_ratio",
    "identical",
    "foreign_script",
    "duplicate",
    "wrong_language",
)
# Languages written in Latin script: only these get the foreign-script check.
LATIN_SCRIPT_LANGS = frozenset(
    ("af", "az", "br", "bs", "ca", "cs", "cy", "da", "de", "en", "eo", "es", "et", "eu", "fi", "fo", "fr")
    + ("ga", "gl", "hr", "ht", "hu", "id", "is", "it", "jv", "ku", "la", "lb", "lt", "lv", "mg", "ms", "mt")
    + ("nb", "nl", "nn", "no", "oc", "pl", "pt", "qu", "ro", "rw", "sk", "sl", "sq", "sv", "sw", "tl", "tr")
    + ("vi", "vo", "wa", "xh", "zu")
)
# Extra candidates for language ID besides the pair's own languages: frequent contaminants of web corpora (the
# 13 default languages and Arabic, as before issue #43: more candidates would change what the default
# pairs keep).
COMMON_LANGS = (*CORE, "ar")
_LANG_ID_MAX_CHARS = 400  # language ID looks at the first 400 characters only (bounds its cost)
_LATIN_RANGES = ((0x0041, 0x024F), (0x1E00, 0x1EFF), (0x2C60, 0x2C7F), (0xA720, 0xA7FF), (0xFF21, 0xFF5A))


@dataclass
class CleaningConfig:
    """Cleaning settings. Lengths are in words (:func:`~lingualite.text.segmentation.length_units`: Chinese and
    Japanese characters scaled to words); the length ratio is over characters, each side's divided by its
    language's typical length relative to English (``length_vs_english`` in :mod:`lingualite.text.languages`).

    ``dedup``: "exact" (the pair as is), "normalized" (see :func:`normalize_for_dedup`) or "none".
    ``lang_id``: drop a pair when a side of at least ``lang_id_min_words`` words is identified as another
    language with probability >= ``lang_id_min_confidence`` (shorter texts are not checked: unreliable).
    ``max_foreign_ratio``: for Latin-script languages, the largest allowed fraction of a side's tokens that
    hold a letter of another script (CJK, Cyrillic...); for the other supported languages, the largest share
    of a side's script units (:func:`~lingualite.text.scripts.script_units`) in a script that is neither its
    own nor Latin (Latin is allowed there: product names). None disables the check.
    ``min_own_script``: for supported non-Latin languages, the smallest share of a side's script units in its
    own scripts (a "Russian" side in English is untranslated); None disables it.
    """

    min_tokens: int = 3
    max_tokens: int = 200
    max_length_ratio: float = 3.0
    dedup: Literal["exact", "normalized", "none"] = "exact"
    lang_id: bool = True
    lang_id_min_confidence: float = 0.9
    lang_id_min_words: int = 4
    max_foreign_ratio: float | None = 0.2
    min_own_script: float | None = 0.2
    drop_identical: bool = True

    def __post_init__(self) -> None:
        if self.dedup not in ("exact", "normalized", "none"):
            raise ConfigError(f"cleaning.dedup: {self.dedup!r} is not one of 'exact', 'normalized', 'none'")
        if not 0 <= self.min_tokens <= self.max_tokens:
            raise ConfigError("cleaning.min_tokens/max_tokens: need 0 <= min_tokens <= max_tokens")
        if self.max_length_ratio < 1:
            raise ConfigError("cleaning.max_length_ratio: must be >= 1")
        if not 0 <= self.lang_id_min_confidence <= 1:
            raise ConfigError("cleaning.lang_id_min_confidence: must be in [0, 1]")
        for name in ("max_foreign_ratio", "min_own_script"):
            value = getattr(self, name)
            if value is not None and not 0 <= value <= 1:
                raise ConfigError(f"cleaning.{name}: must be in [0, 1] or None")


@dataclass
class CleaningStats:
    """Pairs seen, kept, and dropped by reason."""

    seen: int = 0
    kept: int = 0
    dropped: Counter[str] = field(default_factory=Counter)

    def record(self, reason: str | None) -> None:
        self.seen += 1
        if reason is None:
            self.kept += 1
        else:
            self.dropped[reason] += 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "seen": self.seen,
            "kept": self.kept,
            "dropped": {r: self.dropped[r] for r in DROP_REASONS if self.dropped[r]},
            "dropped_total": sum(self.dropped.values()),
        }


class _StripTable(dict[int, Any]):
    """``str.translate`` table, filled lazily: punctuation, symbols and digits become spaces."""

    def __missing__(self, cp: int) -> int | str:
        value: int | str = " " if unicodedata.category(chr(cp))[0] in "PSN" else cp
        self[cp] = value
        return value


_STRIP = _StripTable()


def normalize_light(text: str) -> str:
    """NFKC, casefold, collapse whitespace."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def normalize_for_dedup(text: str) -> str:
    """NFKC, casefold, punctuation/symbols/digits removed, whitespace collapsed."""
    return " ".join(unicodedata.normalize("NFKC", text).casefold().translate(_STRIP).split())


def _hash8(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest()


def _is_latin(ch: str) -> bool:
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in _LATIN_RANGES)


def foreign_token_ratio(tokens: list[str]) -> float:
    """Fraction of tokens holding at least one letter outside the Latin script."""
    if not tokens:
        return 0.0
    foreign = sum(
        1 for tok in tokens if not tok.isascii() and any(c.isalpha() and not _is_latin(c) for c in tok)
    )
    return foreign / len(tokens)


def _script_problem(text: str, lang: str, max_foreign: float | None, min_own: float | None) -> bool:
    """True when a side in supported non-Latin language ``lang`` is written mostly in the wrong script."""
    units = script_units(text)
    total = sum(units.values())
    if not total:
        return False
    own = sum(units[s] for s in LANGUAGES[lang].scripts)
    foreign = total - own - (units["Latin"] if "Latin" not in LANGUAGES[lang].scripts else 0)
    return (max_foreign is not None and foreign / total > max_foreign) or (
        min_own is not None and own / total < min_own
    )


# The languages written in Han without spaces (Chinese, Japanese), which share their characters.
_HAN_LANGS = frozenset(code for code, row in LANGUAGES.items() if row.segmentation == "characters")
_HAN_ISO = frozenset(LANGUAGES[code].iso_code for code in _HAN_LANGS)  # what language ID calls them


def _other_cjk_language(text: str, lang: str) -> bool:
    """Chinese and Japanese share Han characters, and a language identifier confuses their short texts; Kana
    and simplified characters decide: a "Chinese" side with Kana is Japanese; a "Japanese" side without Kana
    is Chinese when it holds a character only Simplified Chinese writes (:data:`SIMPLIFIED_ONLY`), while
    Kanji-only Japanese (lists, headings: 作成者、送信者、日付) is kept. Traditional Chinese (``zht``) is
    Chinese here."""
    if lang not in _HAN_LANGS:
        return False
    units = script_units(text)
    kana = units["Hiragana"] + units["Katakana"]
    if LANGUAGES[lang].iso_code == "zh":  # Simplified or Traditional
        return kana >= 1
    return kana == 0 and units["Han"] >= 2 and any(ch in SIMPLIFIED_ONLY for ch in text)


def _primary(lang: str) -> str:
    return lang.replace("_", "-").split("-")[0].lower()


@lru_cache(maxsize=4)
def _identifier(langs: tuple[str, ...]) -> Any:
    """A py3langid identifier with probabilities, restricted to ``langs`` (those the model knows)."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    ident = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    known = set(ident.labels)
    ident.set_languages(sorted(set(langs) & known))
    return ident


class PairCleaner:
    """Stateful filter (holds the dedup set of 8-byte hashes); :meth:`check` returns a drop reason or None.

    Share one instance across inputs to deduplicate globally (the first occurrence wins).
    """

    def __init__(self, src_lang: str, tgt_lang: str, config: CleaningConfig | None = None) -> None:
        self.config = config or CleaningConfig()
        self.src_lang, self.tgt_lang = _primary(src_lang), _primary(tgt_lang)
        # What the language identifier calls each side's language (``zht`` is ``zh`` to it).
        self._iso = {
            lang: LANGUAGES[lang].iso_code if lang in LANGUAGES else lang
            for lang in (self.src_lang, self.tgt_lang)
        }
        self._seen: set[bytes] = set()
        self._scale = tuple(
            LANGUAGES[lang].length_vs_english if lang in LANGUAGES else 1.0
            for lang in (self.src_lang, self.tgt_lang)
        )
        self._ident: Any = None
        if self.config.lang_id:
            self._ident = _identifier(tuple(sorted({*self._iso.values(), *COMMON_LANGS})))
            self._checkable = {lang for lang, iso in self._iso.items() if iso in self._ident.nb_classes}

    def _wrong_language(self, text: str, n_words: float, lang: str) -> bool:
        if _other_cjk_language(text, lang):
            return True
        if n_words < self.config.lang_id_min_words or lang not in self._checkable:
            return False
        detected, confidence = self._ident.classify(text[:_LANG_ID_MAX_CHARS])
        iso = self._iso[lang]
        if {detected, iso} <= _HAN_ISO:
            return False  # zh vs ja: the identifier guesses on Kanji-only text; the scripts decided above
        return detected != iso and confidence >= self.config.lang_id_min_confidence

    def _foreign_script(self, lang: str, text: str, tokens: list[str]) -> bool:
        cfg = self.config
        if lang in LATIN_SCRIPT_LANGS:
            return cfg.max_foreign_ratio is not None and foreign_token_ratio(tokens) > cfg.max_foreign_ratio
        if lang in LANGUAGES:
            return _script_problem(text, lang, cfg.max_foreign_ratio, cfg.min_own_script)
        return False

    def _dedup_key(self, src: str, tgt: str) -> bytes | None:
        if self.config.dedup == "none":
            return None
        if self.config.dedup == "normalized":
            return _hash8(normalize_for_dedup(src) + "\t" + normalize_for_dedup(tgt))
        return _hash8(src + "\t" + tgt)

    def check(self, src: str, tgt: str) -> str | None:
        """The reason to drop the (stripped) pair, or None to keep it (then it is remembered for dedup)."""
        cfg = self.config
        s_tok, t_tok = src.split(), tgt.split()
        if not s_tok or not t_tok:
            return "empty"
        s_len, t_len = length_units(src, self.src_lang), length_units(tgt, self.tgt_lang)
        if min(s_len, t_len) < cfg.min_tokens:
            return "too_short"
        if max(s_len, t_len) > cfg.max_tokens:
            return "too_long"
        s_chars, t_chars = len(src) / self._scale[0], len(tgt) / self._scale[1]
        if max(s_chars, t_chars) > cfg.max_length_ratio * min(s_chars, t_chars):
            return "length_ratio"
        if cfg.drop_identical and " ".join(s_tok).casefold() == " ".join(t_tok).casefold():
            return "identical"
        for lang, text, tokens in ((self.src_lang, src, s_tok), (self.tgt_lang, tgt, t_tok)):
            if self._foreign_script(lang, text, tokens):
                return "foreign_script"
        key = self._dedup_key(src, tgt)
        if key is not None and key in self._seen:
            return "duplicate"
        if self._ident is not None and (
            self._wrong_language(src, s_len, self.src_lang) or self._wrong_language(tgt, t_len, self.tgt_lang)
        ):
            return "wrong_language"
        if key is not None:
            self._seen.add(key)
        return None


def clean_pairs(
    pairs: Iterable[ParallelPair],
    src_lang: str,
    tgt_lang: str,
    config: CleaningConfig | None = None,
    stats: CleaningStats | None = None,
    cleaner: PairCleaner | None = None,
) -> Iterator[ParallelPair]:
    """Yield the pairs that pass every filter (texts stripped), counting drops by reason in ``stats``.

    Dedup keeps only a set of 8-byte blake2b hashes, never the texts. Language ID (py3langid, restricted
    to the pair's languages plus :data:`COMMON_LANGS`) skips sides shorter than ``lang_id_min_words``
    words. Pass ``cleaner`` to share dedup state across calls.
    """
    cleaner = cleaner or PairCleaner(src_lang, tgt_lang, config)
    stats = stats if stats is not None else CleaningStats()
    for pair in pairs:
        src, tgt = pair.src.strip(), pair.tgt.strip()
        reason = cleaner.check(src, tgt)
        stats.record(reason)
        if reason is None:
            yield pair if (src is pair.src and tgt is pair.tgt) else replace(pair, src=src, tgt=tgt)
