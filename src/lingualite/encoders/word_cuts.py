"""Where the word cache may cut a whitespace word so that its tokens are the concatenation of its parts' tokens.

Two kinds of characters are pre-tokens of their own whatever their neighbours, so a word may be cut before and
after them:

- ASCII punctuation, where the pre-tokenizer isolates it (BERT's, ours): "word," -> "word" ",";
- Han and Kana characters (and CJK punctuation), where a ``Split`` step with a one-character class isolates them
  (lingualite's vocabularies, :mod:`lingualite.tokenization.segmentation`) or BERT's normaliser surrounds them
  with spaces (``handle_chinese_chars``). A Chinese or Japanese sentence is one "word" for ``str.split``: cut,
  it becomes single characters and the rest, which the cache holds once each instead of whole sentences.
  A ``Split`` may also keep runs (``[Hiragana]+|[Katakana]+|[Han...]``, ``vocabulary.kana: runs``): then the
  characters of its single-character classes that no run class holds are the ones always isolated.

Cutting must not change what the normaliser does at the cut: a character is only cut when the normaliser leaves
it as it is (or only pads it with spaces), and never before a character that canonical composition could join
to it (a combining mark, U+3099 voicing a kana, a Hangul vowel or final jamo). Which characters the tokenizer
isolates is asked of the tokenizer itself, once per tokenizer pipeline.
"""

from __future__ import annotations

import functools
import json
import re
import string
import sys
import unicodedata
from typing import Any

from tokenizers import Regex, pre_tokenizers

__all__ = [
    "character_class",
    "isolated_characters",
    "isolates_punctuation",
    "isolating_split",
    "joiners_after_punctuation",
    "joining_characters",
    "split_classes",
]

# The blocks probed for isolated characters: CJK symbols and punctuation, Hiragana, Katakana (and its phonetic
# extensions), Han (extension A, unified, compatibility). Probing fewer characters only cuts less, which is
# always exact; the rare Han of the supplementary planes stay inside their part.
CANDIDATE_BLOCKS = ((0x3000, 0x30FF), (0x31F0, 0x31FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF))
_ONE_CHARACTER_CLASS = re.compile(r"\[(?:\\.|[^\[\]\\])*\]")
_PROBED: dict[str, str] = {}


def isolating_split(spec: dict[str, Any]) -> bool:
    """A ``Split`` pre-tokenizer that makes each match a piece of its own (or drops it), where a match is one
    character or a run of one character class (:func:`split_classes`): it only cuts within a word, and which
    characters it always isolates does not depend on their neighbours."""
    if (
        spec.get("type") != "Split"
        or spec.get("invert")
        or spec.get("behavior") not in ("Isolated", "Removed")
    ):
        return False
    pattern = spec.get("pattern") or {}
    if "String" in pattern:
        return len(pattern["String"]) == 1
    return split_classes(pattern.get("Regex", "")) is not None


def split_classes(regex: str) -> tuple[list[str], list[str]] | None:
    """A ``Split`` regex written as alternatives that are each one character class, alone or followed by
    ``+``: its single-character classes and its run classes; None for any other regex."""
    single: list[str] = []
    runs: list[str] = []
    rest = regex
    while rest:
        match = _ONE_CHARACTER_CLASS.match(rest)
        if match is None:
            return None
        rest = rest[match.end() :]
        (runs if rest.startswith("+") else single).append(match.group())
        rest = rest.removeprefix("+")
        if rest and not rest.startswith("|"):
            return None
        rest = rest.removeprefix("|")
    return (single, runs) if single or runs else None


def isolates_punctuation(spec: dict[str, Any] | None) -> bool:
    """Whether a (local) pre-tokenizer makes every ASCII punctuation character a piece of its own."""
    return any(
        step.get("type") == "BertPreTokenizer"
        or (step.get("type") == "Punctuation" and step.get("behavior") == "Isolated")
        for step in _steps(spec)
    )


def isolated_characters(tokenizer: Any) -> str:
    """The characters of :data:`CANDIDATE_BLOCKS` that ``tokenizer`` always makes pre-tokens of their own and
    whose normalisation is themselves (or themselves between spaces)."""
    spec = json.loads(tokenizer.to_str())
    key = json.dumps([spec.get("normalizer"), spec.get("pre_tokenizer")], sort_keys=True)
    if key not in _PROBED:
        _PROBED[key] = _probe(tokenizer, _steps(spec.get("pre_tokenizer")))
    return _PROBED[key]


def _probe(tokenizer: Any, steps: list[dict[str, Any]]) -> str:
    candidates = "".join(chr(c) for low, high in CANDIDATE_BLOCKS for c in range(low, high + 1))
    matched: set[str] = set()
    for step in filter(isolating_split, steps):
        pattern = step["pattern"]
        if "String" in pattern:
            matched.update(_matched(pattern["String"], candidates))
            continue
        single, runs = split_classes(pattern["Regex"]) or ([], [])
        in_runs = set().union(*(_matched(Regex(cls), candidates) for cls in runs))
        for cls in single:  # a run class holding the character could take it into a run
            matched.update(_matched(Regex(cls), candidates) - in_runs)
    normalize = tokenizer.normalizer.normalize_str if tokenizer.normalizer is not None else str
    joining = joining_characters()
    found = []
    for char in candidates:
        if char in joining:
            continue
        normal = normalize(char)
        if (normal == char and char in matched) or normal == f" {char} ":
            found.append(char)
    return "".join(found)


def _matched(pattern: Any, candidates: str) -> set[str]:
    """The characters of ``candidates`` that ``pattern`` (a string or a one-character class) matches."""
    removing = pre_tokenizers.Split(pattern, behavior="removed")
    kept = {i for _, (start, end) in removing.pre_tokenize_str(candidates) for i in range(start, end)}
    return {c for i, c in enumerate(candidates) if i not in kept}


def _steps(spec: dict[str, Any] | None) -> list[dict[str, Any]]:
    if spec is None:
        return []
    return list(spec.get("pretokenizers", [])) if spec.get("type") == "Sequence" else [spec]


@functools.cache
def _decompositions() -> tuple[dict[str, str], frozenset[str]]:
    """Every character's decomposition (those that have one) and the non-starters (combining class > 0)."""
    decompositions, non_starters = {}, set()
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if unicodedata.combining(char):
            non_starters.add(char)
        decomposition = unicodedata.decomposition(char)
        if decomposition:
            decompositions[char] = decomposition
    return decompositions, frozenset(non_starters)


@functools.cache
def joining_characters() -> frozenset[str]:
    """Characters whose compatibility decomposition starts with one that composition may join to the
    character before it: non-starters (combining marks), the second characters of canonical compositions
    (e.g. U+3099, the kana voicing mark) and the Hangul vowel and final jamo."""
    decompositions, non_starters = _decompositions()
    joiners = set(non_starters) | {chr(c) for c in [*range(0x1161, 0x1176), *range(0x11A8, 0x11C3)]}
    for decomposition in decompositions.values():
        parts = decomposition.split()
        if len(parts) == 2 and not parts[0].startswith("<"):
            joiners.add(chr(int(parts[1], 16)))
    leading = {char for char in decompositions if unicodedata.normalize("NFKD", char)[0] in joiners}
    return frozenset(joiners | leading)


@functools.cache
def joiners_after_punctuation() -> re.Pattern[str]:
    """The characters that canonical composition joins to a preceding ASCII punctuation character (U+0338:
    "=" + U+0338 -> "≠"): a word holding one is not cut, since its pieces would not compose alike."""
    joiners = set()
    for decomposition in _decompositions()[0].values():
        parts = decomposition.split()
        if len(parts) == 2 and not parts[0].startswith("<"):
            first, second = (chr(int(part, 16)) for part in parts)
            if first in string.punctuation:
                joiners.add(second)
    return re.compile("[" + re.escape("".join(sorted(joiners))) + "]")


def character_class(chars: str | set[str] | frozenset[str]) -> str:
    """A regex character class of ``chars`` written as ranges (``[a-c\\u4e00-\\u9fff]``)."""
    codes = sorted({ord(c) for c in chars})
    ranges: list[str] = []
    start = prev = None
    for code in [*codes, None]:
        if code is not None and prev is not None and code == prev + 1:
            prev = code
            continue
        if start is not None:
            ranges.append(re.escape(chr(start)) + ("" if prev == start else "-" + re.escape(chr(prev))))
        start = prev = code
    return "[" + "".join(ranges) + "]"
