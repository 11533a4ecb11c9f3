"""Bitext mining quality of several encoders on held-out pairs among distractors (BUCC-style), in ONE run.

For each model spec: ``lingualite.evaluation.mining.evaluate_mining`` on every ``en-xx`` folder of the
prepared data (gold = ``--gold`` test pairs; 1:1, 1:10 and 1:100 distractors per side; the margin threshold
chosen on the valid split's task, applied to test), plus the wall time of the whole evaluation.

    python benchmarks/mining_eval.py --models /work/models/distill-usem static:/work/models/static-usem use-m tfidf

Writes ``mining_eval.json`` and ``mining_eval.md`` (``--out``, default benchmarks/results/mining_eval).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from lingualite.config.parsing import default_data_dir
from lingualite.encoders.resolve import load_encoder
from lingualite.evaluation.mining import RATIOS, evaluate_mining


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--models", nargs="+", required=True, help="model specs (folders, baselines, runtimes)"
    )
    parser.add_argument("--gold", type=int, default=200, help="hidden pairs per language pair")
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument(
        "--ratios",
        type=int,
        nargs="+",
        default=list(RATIOS),
        help="distractors per gold pair (TF-IDF at 1:100 takes hours: sparse products)",
    )
    parser.add_argument("--append", action="store_true", help="keep the rows of models already in --out")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/mining_eval"))
    args = parser.parse_args()
    prepared = (args.data_dir or default_data_dir()) / "prepared"
    folders = sorted(p for p in prepared.glob("*-*") if p.is_dir())
    rows = {}
    saved = args.out.with_suffix(".json")
    if args.append and saved.exists():
        rows = json.loads(saved.read_text(encoding="utf-8"))["rows"]
    for spec in args.models:
        print(f"mining evaluation: {spec}", file=sys.stderr, flush=True)
        t0 = time.perf_counter()
        result = evaluate_mining(load_encoder(spec), folders, n_gold=args.gold, ratios=tuple(args.ratios))
        rows[spec] = {"results": result, "seconds": round(time.perf_counter() - t0, 1)}
        write(rows, args, [f.name for f in folders])  # after each model: a long run keeps what it measured


def _f1(results: dict, key: str) -> str:
    return f"{results[key]['f1']:.3f}" if key in results else "not run"


def write(rows: dict, args: argparse.Namespace, pairs: list[str]) -> None:
    from lingualite.core.io_utils import write_json, write_text

    settings = {
        "gold_per_pair": args.gold,
        "ratios": list(RATIOS),
        "language_pairs": pairs,
        "mode": "max",
        "k": 4,
        "threshold": "best F1 on valid, applied to test",
    }
    write_json(args.out.with_suffix(".json"), {"settings": settings, "rows": rows})
    lines = [
        f"Bitext mining, test split: {args.gold} hidden pairs per language pair ({', '.join(pairs)}) among "
        "1x / 10x / 100x distractors per side; margin threshold chosen on valid. F1 (P / R), mean over pairs.",
        "",
        "| model | "
        + " | ".join(f"1:{r} F1 (P / R)" for r in RATIOS)
        + " | thresholds 1:1/1:10/1:100 (en-fr) | time |",
        "|---|" + "---|" * (len(RATIOS) + 2),
    ]
    for spec, row in rows.items():
        res = row["results"]
        cells = [
            f"{res[f'mean/1:{r}']['f1']:.3f} ({res[f'mean/1:{r}']['precision']:.3f} / {res[f'mean/1:{r}']['recall']:.3f})"
            if f"mean/1:{r}" in res
            else "not run"
            for r in RATIOS
        ]
        thresholds = "/".join(
            f"{res.get(f'en-fr/1:{r}', {}).get('threshold', float('nan')):.3f}" for r in RATIOS
        )
        lines.append(f"| {spec} | " + " | ".join(cells) + f" | {thresholds} | {row['seconds']:.0f} s |")
    lines += [
        "",
        "Per language pair (F1 at 1:100):",
        "",
        "| model | " + " | ".join(pairs) + " |",
        "|---|" + "---|" * len(pairs),
    ]
    for spec, row in rows.items():
        lines.append(f"| {spec} | " + " | ".join(_f1(row["results"], f"{p}/1:100") for p in pairs) + " |")
    text = "\n".join(lines) + "\n"
    write_text(args.out.with_suffix(".md"), text)
    print(text)


if __name__ == "__main__":
    main()
