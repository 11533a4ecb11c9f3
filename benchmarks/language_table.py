"""Retrieval quality per language, for several models in ONE run: the source of the Languages table.

For every model spec and every pair: XSR P@1 (mean of both directions) on the held-out test documents of each
``prepared/en-xx`` folder and each non-English ``prepared-pivot/xx-yy`` folder (the same seeded pairs for
every model; at most ``--max-pairs`` per file), and on the shipped everyday sentences (300 per language in five
registers no training source has). Each model also gets its gap to the reference (``--reference``, USE-m by
default) per pair, and the pairs where it is within ``--bar`` of it are counted.

    python benchmarks/language_table.py --models onnx-int8:runs/distill-onnx static:runs/static use-m e5-small tfidf \
        --data-dir data --out benchmarks/results/language_table

Writes ``language_table.json`` (per model, per pair: P@1 and the pair's size) and ``language_table.md``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from lingualite.data.evalsets.everyday import everyday_pairs
from lingualite.data.pairs import load_xsr_pairs
from lingualite.encoders.resolve import load_encoder
from lingualite.evaluation.xsr import evaluate_xsr
from lingualite.text.languages import (
    CHECK_PIVOTS,
    CORE_TRANSLATION_LANGS,
    ENGLISH,
    TRANSLATION_LANGS,
    check_languages,
    parse_pair,
)


def _pools(
    data_dir: Path, max_pairs: int, langs: tuple[str, ...] = CORE_TRANSLATION_LANGS
) -> dict[str, tuple[list[str], list[str]]]:
    files = [data_dir / "prepared" / f"en-{lang}" / "test.tsv" for lang in langs]
    files += sorted((data_dir / "prepared-pivot").glob("*-*/test.tsv"))
    pools = {f.parent.name: load_xsr_pairs(f, max_pairs=max_pairs) for f in files if f.is_file()}
    for lang in langs:  # the everyday set has every supported language
        pools[f"everyday/{ENGLISH}-{lang}"] = everyday_pairs(ENGLISH, lang)
    for src, tgt in map(parse_pair, CHECK_PIVOTS):
        pools[f"everyday/{src}-{tgt}"] = everyday_pairs(src, tgt)
    return pools


def _scores(
    spec: str, pools: dict[str, tuple[list[str], list[str]]], threads: int | None
) -> dict[str, float]:
    encoder = load_encoder(spec, threads=threads)
    out = {}
    for name, (src, tgt) in pools.items():
        fit = getattr(encoder, "fit", None)
        if callable(fit):  # TF-IDF is fitted on the pool it ranks, as `eval xsr` does
            fit(src + tgt)
        out[name] = round(float(evaluate_xsr(encoder, src, tgt)["p_at_1"]), 4)
        print(f"{spec} {name}: {out[name]:.3f}", file=sys.stderr, flush=True)
    return out


def _markdown(result: dict) -> str:
    models, ref = result["models"], result["reference"]
    pairs = list(result["pairs"])
    lines = [
        "| pair | pairs | " + " | ".join(models) + " |",
        "|---|---:|" + "---:|" * len(models),
    ]
    for pair in pairs:
        cells = []
        for m in models:
            p = result["p_at_1"][m][pair]
            gap = p - result["p_at_1"][ref][pair] if m != ref and ref in result["p_at_1"] else None
            cells.append(f"{p:.3f}" + (f" ({gap:+.3f})" if gap is not None else ""))
        lines.append(f"| {pair} | {result['pairs'][pair]} | " + " | ".join(cells) + " |")
    lines += ["", f"Within {result['bar']} of {ref} (held-out test pools, not everyday):", ""]
    for m, row in result["within_bar"].items():
        lines.append(
            f"- {m}: {row['within']}/{row['pairs']} pairs; worst gap {row['worst_gap']:+.3f} ({row['worst_pair']})"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", nargs="+", required=True, help="model specs (a folder, onnx-int8:F, a name)")
    ap.add_argument(
        "--reference",
        default="use-m",
        help="the model every other is compared with; comma-separated (use-m,e5-small): the better of them on "
        "each pair (issue #43's 'better teacher')",
    )
    ap.add_argument("--data-dir", type=Path, default=Path("data"))
    ap.add_argument("--max-pairs", type=int, default=1000, help="seeded test pairs per file (same for all)")
    ap.add_argument("--bar", type=float, default=0.03, help="the gap to the reference counted as 'within'")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument(
        "--langs",
        nargs="+",
        default=list(CORE_TRANSLATION_LANGS),
        help="the xx of the en-xx pairs (default: the 12 of the shipped models; 'all': every supported one)",
    )
    ap.add_argument("--out", type=Path, required=True, help="OUT.json and OUT.md are written")
    args = ap.parse_args()
    refs = args.reference.split(",")
    models = list(dict.fromkeys([*args.models, *refs]))
    langs = TRANSLATION_LANGS if args.langs == ["all"] else tuple(check_languages(args.langs))
    pools = _pools(args.data_dir, args.max_pairs, langs)
    start = time.time()
    scores = {m: _scores(m, pools, args.threads) for m in models}
    if len(refs) > 1:  # the better reference per pair, as a column of its own
        scores[args.reference] = {p: max(scores[r][p] for r in refs) for p in pools}
        models.append(args.reference)
    held = [p for p in pools if not p.startswith("everyday/")]
    within = {}
    for m in models:
        if m == args.reference or m in refs:
            continue
        gaps = {p: scores[m][p] - scores[args.reference][p] for p in held}
        worst = min(gaps, key=gaps.get)
        within[m] = {
            "within": sum(g >= -args.bar for g in gaps.values()),
            "pairs": len(gaps),
            "worst_gap": round(gaps[worst], 4),
            "worst_pair": worst,
            "mean_gap": round(float(np.mean(list(gaps.values()))), 4),
        }
    result = {
        "command": " ".join(["python", *sys.argv]),
        "date": time.strftime("%Y-%m-%d"),
        "models": models,
        "reference": args.reference,
        "bar": args.bar,
        "max_pairs": args.max_pairs,
        "pairs": {p: len(pools[p][0]) for p in pools},
        "p_at_1": scores,
        "within_bar": within,
        "seconds": round(time.time() - start, 1),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    args.out.with_suffix(".md").write_text(_markdown(result), encoding="utf-8")
    print(_markdown(result))


if __name__ == "__main__":
    main()
