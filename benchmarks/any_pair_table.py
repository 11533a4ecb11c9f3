"""Retrieval between ANY two languages, not only with English: the source of the any-pair table.

Every pair of the given languages (default: all 34 supported): ``en-xx`` from the held-out test
documents of ``prepared/en-xx``, ``xx-yy`` from the two translations of one held-out English unit
(``lingualite data pivot``'s join, written once under ``--pivot-dir``; a document is held out in every language
alike, so no pair comes from training text). XSR P@1 (mean of both directions) over at most ``--max-pairs``
seeded pairs per pool; pairs with fewer than ``--min-pairs`` joined pairs are listed as too small, not scored.

    python benchmarks/any_pair_table.py --models lingualite-small lingualite-static --data-dir data \
        --out benchmarks/results/any_pair_table

Writes ``OUT.json`` (per model, per pair: P@1; pool sizes) and ``OUT.md`` (means; a language-by-language
matrix per model).
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

import numpy as np
from language_table import _scores as pool_scores  # benchmarks/ is the script's folder: on sys.path

from lingualite.core.errors import LinguaLiteError
from lingualite.data.pairs import load_xsr_pairs
from lingualite.data.pivot import pivot_pairs
from lingualite.text.languages import ENGLISH, SUPPORTED, check_languages, pair_name


def _pool_files(data_dir: Path, pivot_dir: Path, langs: list[str]) -> tuple[dict[str, Path], dict[str, str]]:
    """The test file of every pair of ``langs`` (pivots built when missing), and why the others have none."""
    prepared = data_dir / "prepared"
    files: dict[str, Path] = {}
    missing: dict[str, str] = {}
    for src, tgt in itertools.combinations(langs, 2):
        name = pair_name(src, tgt)
        if ENGLISH in (src, tgt):
            path = prepared / name / "test.tsv"
            if path.is_file():
                files[name] = path
            else:  # the default sources lack it (th, he, bg: UI strings only)
                missing[name] = f"no {path}"
            continue
        out = pivot_dir / name
        if not (out / "test.tsv").is_file():
            try:
                pivot_pairs(prepared, src, tgt, splits=("test",), out_dir=out)
            except LinguaLiteError as exc:  # a side not prepared, or no English unit held out in both
                missing[name] = str(exc)
                continue
        files[name] = out / "test.tsv"
    return files, missing


def _markdown(result: dict) -> str:
    lines = ["| model | pairs scored | mean | en-xx mean | non-English mean | worst pair | pairs < 0.85 |"]
    lines.append("|---|---:|---:|---:|---:|---|---:|")
    for model, row in result["summary"].items():
        lines.append(
            f"| {model} | {row['pairs']} | {row['mean']:.3f} | {row['english_mean']:.3f} | "
            f"{row['non_english_mean']:.3f} | {row['worst_pair']} {row['worst']:.3f} | {row['below_0.85']} |"
        )
    langs = result["langs"]
    for model, scores in result["p_at_1"].items():
        lines += ["", f"### {model}", "", "| | " + " | ".join(langs) + " |", "|---|" + "---:|" * len(langs)]
        for a in langs:
            cells = []
            for b in langs:
                score = scores.get(pair_name(a, b), scores.get(pair_name(b, a))) if a != b else None
                cells.append("" if score is None else f"{100 * score:.0f}")
            lines.append(f"| {a} | " + " | ".join(cells) + " |")
    if result["too_small"]:
        lines += [
            "",
            f"Too few joined pairs to score (< {result['min_pairs']}): " + ", ".join(result["too_small"]),
        ]
    if result["missing"]:
        lines += ["", "No held-out pairs: " + ", ".join(result["missing"])]
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", nargs="+", required=True, help="model specs (a folder, onnx-int8:F, a name)")
    ap.add_argument("--data-dir", type=Path, default=Path("data"))
    ap.add_argument("--pivot-dir", type=Path, default=None, help="default: DATA_DIR/prepared-anypair")
    ap.add_argument("--langs", nargs="+", default=list(SUPPORTED), help="default: all 34")
    ap.add_argument("--max-pairs", type=int, default=200, help="seeded test pairs per pool (same for all)")
    ap.add_argument("--min-pairs", type=int, default=20, help="pools smaller than this are not scored")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--out", type=Path, required=True, help="OUT.json and OUT.md are written")
    args = ap.parse_args()
    langs = check_languages(args.langs)
    pivot_dir = args.pivot_dir or args.data_dir / "prepared-anypair"
    files, missing = _pool_files(args.data_dir, pivot_dir, langs)
    pools = {name: load_xsr_pairs(path, max_pairs=args.max_pairs) for name, path in files.items()}
    too_small = sorted(n for n, (src, _) in pools.items() if len(src) < args.min_pairs)
    pools = {n: p for n, p in pools.items() if n not in too_small}
    if not pools:
        sys.exit(f"no pair of {langs} has {args.min_pairs} held-out pairs in {args.data_dir}")
    start = time.time()
    scores = {spec: pool_scores(spec, pools, args.threads) for spec in args.models}  # as the language table
    summary = {}
    for spec, row in scores.items():
        english = [p for n, p in row.items() if ENGLISH in n.split("-")]
        others = [p for n, p in row.items() if ENGLISH not in n.split("-")]
        worst = min(row, key=row.get)
        summary[spec] = {
            "pairs": len(row),
            "mean": round(float(np.mean(list(row.values()))), 4),
            "english_mean": round(float(np.mean(english)), 4) if english else float("nan"),
            "non_english_mean": round(float(np.mean(others)), 4) if others else float("nan"),
            "worst_pair": worst,
            "worst": row[worst],
            "below_0.85": sum(p < 0.85 for p in row.values()),
        }
    result = {
        "command": " ".join(["python", *sys.argv]),
        "date": time.strftime("%Y-%m-%d"),
        "langs": langs,
        "max_pairs": args.max_pairs,
        "min_pairs": args.min_pairs,
        "pairs": {n: len(p[0]) for n, p in pools.items()},
        "too_small": too_small,
        "missing": missing,
        "p_at_1": scores,
        "summary": summary,
        "seconds": round(time.time() - start, 1),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    args.out.with_suffix(".md").write_text(_markdown(result), encoding="utf-8")
    print(_markdown(result))


if __name__ == "__main__":
    main()
