"""Measure how long each language's translations are against their English: the numbers behind
``length_vs_english`` (:mod:`lingualite.text.languages`) and ``ENGLISH_CHARS_PER_WORD``
(:mod:`lingualite.text.segmentation`).

On the LibreOffice help pairs extracted by ``lingualite data fetch`` (``DATA_DIR/corpora/libreoffice/en-xx.tsv``,
every paragraph or sentence pair, untranslated copies already removed), per language: the median of
``len(translation) / len(english)`` in characters (spaces included), its quartiles, and the median over the
pairs whose translation is written mostly (>= 80% of its script units) in the language's own scripts (a check
that partly untranslated paragraphs do not move it). English characters per word, the space included: over the
distinct English sides of all the files, ``sum(len(en) + 1) / sum(words)``.

    python benchmarks/length_ratios.py --data-dir /work/data --out benchmarks/results/length_ratios.json
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

from lingualite.config.parsing import default_data_dir
from lingualite.text.languages import LANGUAGES, TRANSLATION_LANGS
from lingualite.text.scripts import script_units


def _own_share(text: str, scripts: tuple[str, ...]) -> float:
    units = script_units(text)
    total = sum(units.values())
    return sum(units[s] for s in scripts) / total if total else 0.0


def measure(corpora: Path) -> dict[str, object]:
    per_lang: dict[str, dict[str, float | int]] = {}
    english: set[str] = set()
    for lang in TRANSLATION_LANGS:
        path = corpora / "libreoffice" / f"en-{lang}.tsv"
        if not path.is_file():
            continue
        ratios, clean = [], []
        scripts = LANGUAGES[lang].scripts
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                en, xx = line.rstrip("\n").split("\t")[:2]
                english.add(en)
                ratios.append(len(xx) / len(en))
                if _own_share(xx, scripts) >= 0.8:
                    clean.append(len(xx) / len(en))
        q1, median, q3 = statistics.quantiles(ratios, n=4)
        per_lang[lang] = {
            "pairs": len(ratios),
            "median": round(median, 3),
            "q1": round(q1, 3),
            "q3": round(q3, 3),
            "median_own_script": round(statistics.median(clean), 3),
            "pairs_own_script": len(clean),
        }
    chars = sum(len(en) + 1 for en in english)
    words = sum(len(en.split()) for en in english)
    return {
        "english_chars_per_word": round(chars / words, 3),
        "english_sides": len(english),
        "length_vs_english": per_lang,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data-dir", type=Path, default=None, help="lingualite data folder (has corpora/)")
    parser.add_argument("--out", type=Path, default=None, help="write the numbers as JSON here too")
    args = parser.parse_args()
    data_dir = args.data_dir or default_data_dir()
    result = measure(data_dir / "corpora")
    print(json.dumps(result, indent=2, ensure_ascii=False))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
