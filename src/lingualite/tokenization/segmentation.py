"""How text is cut into pre-tokens before the sub-word model: words at spaces, and single characters for the
scripts of the ``characters`` languages of :mod:`lingualite.text.languages` (Han, Hiragana, Katakana).

Chinese and Japanese put no spaces between words, so without this a whole sentence is one pre-token and the
vocabulary learns sentence fragments. Paper 001 splits Chinese into characters; we do the same for Han and Kana
with the ``tokenizers`` library's own ``Split`` pre-tokenizer, so the rule is saved in ``tokenizer.json`` and
transformers, sentence-transformers and ONNX users who load that file apply it without lingualite. Hangul
(Korean) is spaced: it stays word-based and gets sub-word pieces like the Latin and Cyrillic languages.

Japanese Kana can instead be kept in runs (``vocabulary.kana: runs``): a Hiragana or Katakana run is one
pre-token that the sub-word model cuts into pieces it learns (インストール, してください), as it cuts a Latin
word, and Han stays one character a pre-token. A 1-layer student then need not compose a loanword from six
single letters.

Vocabularies trained before this rule have no ``Split`` step and keep working as they were saved.
"""

from __future__ import annotations

from typing import Literal

from tokenizers import Regex, pre_tokenizers

from lingualite.text.languages import LANGUAGES

KanaRule = Literal["characters", "runs"]

__all__ = [
    "CHARACTER_PATTERN",
    "CHARACTER_SCRIPTS",
    "KANA_RUNS_PATTERN",
    "KanaRule",
    "isolate_characters",
    "pre_tokenizer",
]

# The scripts written without spaces, read from the registry (Oniguruma's script names are the Unicode ones).
CHARACTER_SCRIPTS: tuple[str, ...] = tuple(
    sorted(
        {
            script
            for lang in LANGUAGES.values()
            if lang.segmentation == "characters"
            for script in lang.scripts
        }
    )
)
# Characters of the Common script that only Chinese and Japanese text uses, isolated like the letters around
# them: the prolonged sound mark and the double hyphen and middle dot of Katakana, and the CJK symbols and
# punctuation block (。、「」『』【】〜〆 ...) without its combining tone marks (U+302A-U+302F), which must stay
# on their base letter. Fullwidth ！？（） need no rule: NFKC turns them into ASCII.
_PROLONGED = r"\x{30FC}"  # ー
_OTHER_MARKS = r"\x{30A0}\x{30FB}\x{3001}-\x{3029}\x{3030}-\x{303F}"
CHARACTER_MARKS = _PROLONGED + _OTHER_MARKS
CHARACTER_PATTERN = "[" + "".join(rf"\p{{{s}}}" for s in CHARACTER_SCRIPTS) + CHARACTER_MARKS + "]"
# ``kana: runs``: the Kana scripts in runs (the prolonged sound mark ー inside a run of either, as in
# コンピューター), every other character of CHARACTER_PATTERN still one pre-token.
KANA_SCRIPTS = ("Hiragana", "Katakana")
_SINGLE = [s for s in CHARACTER_SCRIPTS if s not in KANA_SCRIPTS]
KANA_RUNS_PATTERN = "|".join(
    [
        *(rf"[\p{{{s}}}{_PROLONGED}]+" for s in KANA_SCRIPTS),
        "[" + "".join(rf"\p{{{s}}}" for s in _SINGLE) + _OTHER_MARKS + "]",
    ]
)


def isolate_characters(kana: KanaRule = "characters") -> pre_tokenizers.PreTokenizer:
    """Every character of :data:`CHARACTER_PATTERN` becomes a pre-token of its own; with ``kana="runs"``
    a run of Hiragana or of Katakana stays one pre-token (:data:`KANA_RUNS_PATTERN`)."""
    if kana not in ("characters", "runs"):
        raise ValueError(f"kana must be 'characters' or 'runs', got {kana!r}")
    pattern = CHARACTER_PATTERN if kana == "characters" else KANA_RUNS_PATTERN
    return pre_tokenizers.Split(Regex(pattern), behavior="isolated")


def pre_tokenizer(
    kind: Literal["unigram", "wordpiece"], kana: KanaRule = "characters"
) -> pre_tokenizers.PreTokenizer:
    """The pre-tokenizer of a new vocabulary of ``kind``.

    ``unigram``: SentencePiece's ``Metaspace`` (spaces become "▁", kept on the following word), then single
    Han/Kana characters (a "▁" before one stays a piece of its own, so a character has one id whether or not a
    space precedes it), then single digits. ``wordpiece``: BERT's split at spaces and punctuation, then single
    Han/Kana characters and single digits. Every step after the first only cuts within a piece. ``kana``:
    see :func:`isolate_characters`."""
    first = pre_tokenizers.Metaspace() if kind == "unigram" else pre_tokenizers.BertPreTokenizer()
    return pre_tokenizers.Sequence(
        [first, isolate_characters(kana), pre_tokenizers.Digits(individual_digits=True)]
    )
