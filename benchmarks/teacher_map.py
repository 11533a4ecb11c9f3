"""Does the second teacher's map put a language USE-m does not know into USE-m's space? (issue #43)

The distillation recipe's ``teacher.second`` (:mod:`lingualite.recipes.distill.second_teacher`) fits an affine
map from multilingual-e5-small's vectors to USE-m's on untranslated text of languages both know, then uses
``map(e5(m))`` as the target of untranslated text ``m`` in e5-only languages. Measured here, per language, on
its held-out test pairs (``prepared/en-xx/test.tsv``, at most ``--max-pairs``): XSR P@1 (mean of both
directions) of

- ``use-m``: USE-m on both sides (what the first teacher alone would teach);
- ``e5-small``: e5-small on both sides (the second teacher in its own space);
- ``mapped``: USE-m's vector of the English side against the mapped e5-small vector of the other side (what
  the student is taught: both in USE-m's space).

The map is fitted as the recipe fits it: ``--fit-texts`` lines drawn (seeded) from the untranslated text and
word lists of USE-m's languages (``corpora/monolingual`` and ``corpora/lexicon``), a tenth held out.

    python benchmarks/teacher_map.py --data-dir data --out benchmarks/results/teacher_map
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

from lingualite.data.pairs import load_xsr_pairs
from lingualite.evaluation.base import cosine_matrix
from lingualite.recipes.distill.second_teacher import fit_map
from lingualite.recipes.distill.teacher import encode_cached, load_teacher
from lingualite.text.languages import ENGLISH, TRANSLATION_LANGS, USE_M_LANGS
from lingualite.vectors.retrieval import xsr_from_similarity


def _fit_texts(data_dir: Path, count: int, seed: int) -> list[str]:
    lines: list[str] = []
    for source in ("monolingual", "lexicon"):
        for lang in USE_M_LANGS:
            path = data_dir / "corpora" / source / f"{lang}.txt"
            if path.is_file():
                lines += [
                    line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
                ]
    random.Random(seed).shuffle(lines)
    return list(dict.fromkeys(lines))[:count]


def _p_at_1(src: np.ndarray, tgt: np.ndarray) -> float:
    return round(float(xsr_from_similarity(cosine_matrix(src, tgt), "nn")["p_at_1"]), 4)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data-dir", type=Path, default=Path("data"))
    ap.add_argument("--langs", nargs="+", default=[c for c in TRANSLATION_LANGS if c not in USE_M_LANGS])
    ap.add_argument("--controls", nargs="+", default=["fr", "ja", "tr"], help="USE-m languages, for scale")
    ap.add_argument("--fit-texts", type=int, default=8000)
    ap.add_argument("--max-pairs", type=int, default=200)
    ap.add_argument(
        "--cache-dir", type=Path, default=None, help="teacher vectors kept here (reruns are free)"
    )
    ap.add_argument("--out", type=Path, required=True, help="OUT.json and OUT.md are written")
    args = ap.parse_args()
    start = time.time()
    first, second = load_teacher("use-m"), load_teacher("e5-small")
    texts = _fit_texts(args.data_dir, args.fit_texts, 0)
    space_map, fit = fit_map(
        encode_cached(second, texts, args.cache_dir), encode_cached(first, texts, args.cache_dir)
    )
    print(f"map: {fit}", file=sys.stderr, flush=True)
    rows = {}
    for lang in [*args.langs, *args.controls]:
        path = args.data_dir / "prepared" / f"{ENGLISH}-{lang}" / "test.tsv"
        if not path.is_file():
            continue
        english, other = load_xsr_pairs(path, max_pairs=args.max_pairs)
        use_en, use_xx = (
            encode_cached(first, english, args.cache_dir),
            encode_cached(first, other, args.cache_dir),
        )
        e5_en, e5_xx = (
            encode_cached(second, english, args.cache_dir),
            encode_cached(second, other, args.cache_dir),
        )
        rows[lang] = {
            "pairs": len(english),
            "use-m": _p_at_1(use_en, use_xx),
            "e5-small": _p_at_1(e5_en, e5_xx),
            "mapped": _p_at_1(use_en, space_map.apply(e5_xx)),
        }
        print(lang, rows[lang], file=sys.stderr, flush=True)
    result = {
        "command": " ".join(["python", *sys.argv]),
        "date": time.strftime("%Y-%m-%d"),
        "fit": fit,
        "p_at_1": rows,
        "seconds": round(time.time() - start, 1),
    }
    lines = [
        f"Map fitted on {fit['texts']} lines of USE-m's languages; held-out cosine to USE-m "
        f"{fit['held_out_cosine']:.3f}.",
        "",
        "| pair | pairs | USE-m | e5-small | USE-m (en) vs mapped e5-small (xx) |",
        "|---|---:|---:|---:|---:|",
    ]
    for lang, row in rows.items():
        name = f"en-{lang}" + (" (USE-m's)" if lang in USE_M_LANGS else "")
        lines.append(
            f"| {name} | {row['pairs']} | {row['use-m']:.3f} | {row['e5-small']:.3f} | {row['mapped']:.3f} |"
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    args.out.with_suffix(".md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
