"""The Emacs tutorial (opt-in source ``emacs-tutorial``): the same step-by-step lesson, translated into 21 of
the supported languages (12 of the 13 default ones: no Turkish; and th, zht, bg, cs, he, ro, sk, sl, sv), as
untranslated sentences for distillation with a multilingual teacher (``data.monolingual_files``).

``lingualite data fetch --sources emacs-tutorial`` downloads the Debian package ``emacs-common`` (14 MB;
the tutorials are GPL-3+, as GNU Emacs) and writes ``DATA_DIR/corpora/emacs-tutorial/<lang>.txt`` from
``usr/share/emacs/<version>/etc/tutorials/TUTORIAL`` (English) and ``TUTORIAL.<suffix>`` (:data:`FILES`;
Chinese is ``TUTORIAL.cn``, Simplified, and Portuguese ``TUTORIAL.pt_BR``). Each file is decoded in the coding
its ``Local Variables`` footer names (the Japanese one is ISO-2022-JP), split at blank lines and cleaned as
the ``monolingual`` source cleans its text (:func:`~lingualite.data.sources.documents.kept_sentences`): key
sequences and the ``>>`` prompts mostly fail the prose test, the lesson's sentences remain.

Register: instructional, addressed to the reader ("Now type C-v to move forward one screen"); about 400 to
500 sentences per language.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from lingualite.core.errors import LinguaLiteError
from lingualite.data.sources.apt import download_and_unpack
from lingualite.data.sources.common import ALL_LANGS
from lingualite.data.sources.documents import kept_sentences, text_paragraphs, write_lines
from lingualite.data.sources.plain_text import PROSE_RULES

__all__ = ["FILES", "NAME", "PACKAGE", "REGISTER", "extract", "fetch", "lacking", "outputs", "read_tutorial"]

NAME = "emacs-tutorial"
EXTRACTION = PROSE_RULES  # its text is kept by the prose rules
REGISTER = "instructional"
PACKAGE = "emacs-common"
FILES = {
    "en": "TUTORIAL",
    "fr": "TUTORIAL.fr",
    "de": "TUTORIAL.de",
    "es": "TUTORIAL.es",
    "it": "TUTORIAL.it",
    "nl": "TUTORIAL.nl",
    "pl": "TUTORIAL.pl",
    "pt": "TUTORIAL.pt_BR",
    "ru": "TUTORIAL.ru",
    "zh": "TUTORIAL.cn",
    "ja": "TUTORIAL.ja",
    "ko": "TUTORIAL.ko",
    # Issue #43's languages that Emacs 28 translates (TUTORIAL.zh is Traditional Chinese).
    "th": "TUTORIAL.th",
    "zht": "TUTORIAL.zh",
    "bg": "TUTORIAL.bg",
    "cs": "TUTORIAL.cs",
    "he": "TUTORIAL.he",
    "ro": "TUTORIAL.ro",
    "sk": "TUTORIAL.sk",
    "sl": "TUTORIAL.sl",
    "sv": "TUTORIAL.sv",
}
_CODING = re.compile(rb"coding:\s*([A-Za-z0-9_-]+)")
_EMACS_CODINGS = {"iso-2022-7bit": "iso-2022-jp", "euc-japan": "euc-jp", "euc-korea": "euc-kr"}


def lacking(langs: Sequence[str], raw: Path | None = None) -> dict[str, str]:
    """The languages of ``langs`` the tutorial is not translated into (Turkish, and most of issue #43's)."""
    return {lang: "the Emacs tutorial is not translated into it" for lang in langs if lang not in FILES}


def fetch(cache_dir: Path, langs: Sequence[str] = ALL_LANGS) -> Path:
    """Download and unpack ``emacs-common`` (``cache_dir/{debs,root}``, once); returns the root."""
    return download_and_unpack([PACKAGE], Path(cache_dir))


def outputs(out_dir: Path, langs: Sequence[str]) -> dict[str, Path]:
    """``out_dir/emacs-tutorial/<lang>.txt`` for English and ``langs``."""
    return {lang: Path(out_dir) / NAME / f"{lang}.txt" for lang in dict.fromkeys(("en", *langs))}


def read_tutorial(path: Path) -> str:
    """The text of a tutorial file, decoded in the coding its footer names (UTF-8 when none)."""
    data = path.read_bytes()
    found = _CODING.findall(data[-400:])
    coding = found[-1].decode("ascii").lower() if found else "utf-8"
    coding = _EMACS_CODINGS.get(coding, coding.removesuffix("-unix"))
    try:
        return data.decode(coding)
    except (LookupError, UnicodeDecodeError) as exc:
        raise LinguaLiteError(f"{path}: cannot decode it as {coding}: {exc}") from exc


def _folder(root: Path) -> Path:
    found = sorted(root.glob("usr/share/emacs/*/etc/tutorials/TUTORIAL"))
    if not found:
        raise LinguaLiteError(
            f"{root}: no unpacked {PACKAGE} (usr/share/emacs/*/etc/tutorials); fetch it first"
        )
    return found[-1].parent


def extract(raw: Path, out_dir: Path, langs: Sequence[str] = ALL_LANGS) -> dict[str, int]:
    """Write ``out_dir/emacs-tutorial/<lang>.txt`` for English and ``langs``; return sentences per language."""
    folder = _folder(Path(raw))
    counts: dict[str, int] = {}
    for lang, path in outputs(out_dir, langs).items():
        source = folder / FILES[lang]
        if not source.is_file():
            raise LinguaLiteError(f"{source}: missing; the unpacked {PACKAGE} has no {lang} tutorial")
        sentences = kept_sentences(text_paragraphs(read_tutorial(source)), lang)
        counts[lang] = write_lines(path, sentences, str(source))
    return counts
