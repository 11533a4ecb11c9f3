"""The everyday set's table: XSR P@1 per register for every model, over the 12 en-xx pairs and all 78 pairs.

The shipped everyday sentences (:mod:`lingualite.data.evalsets.everyday`: 300 per language in five registers, a
register no training source has) are encoded once per model; each register's 60 sentences (and "all", the 300
together) are the candidates of XSR P@1 (mean of both directions, ``evaluate_xsr``'s square protocol, from the
same vectors). The source of the "Measured" table on the data page.

    python benchmarks/everyday_table.py --models lingualite-small lingualite-static use-m \
        --out benchmarks/results/everyday_table

``--split validation`` scores the 200 rows kept for choosing between candidates (40 a register; never
reported as a result), so that a choice never reads the test split. ``--langs`` names the languages (default:
the 13 of the shipped 13-language models; ``all``: every language the set is translated into, for
lingualite-small-34); the table then also has a row per language (en-xx P@1 over all the sentences).

Writes OUT.json (every cell) and OUT.md and prints the summary.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

import numpy as np

from lingualite.data.evalsets.everyday import REGISTERS, SPLITS, everyday_languages, everyday_sentences
from lingualite.encoders.resolve import load_encoder
from lingualite.text.languages import CORE, ENGLISH, check_languages
from lingualite.vectors.retrieval import xsr_from_similarity


def _scores(
    spec: str, threads: int | None, split: str, langs: tuple[str, ...]
) -> dict[str, dict[str, float]]:
    encoder = load_encoder(spec, threads=threads)
    texts = everyday_sentences(None, split)
    vectors = {}
    for lang in langs:  # each sentence encoded once; a register's rows are a slice of these vectors
        v = np.asarray(encoder.encode(list(texts[lang])), dtype=np.float32)
        vectors[lang] = v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
    row = {text: i for i, text in enumerate(texts[ENGLISH])}  # English sentences are unique (a test checks)
    out: dict[str, dict[str, float]] = {}
    for reg in (*REGISTERS, None):
        rows = [row[t] for t in everyday_sentences(reg, split)[ENGLISH]]
        name = reg or "all"
        out[name] = {}
        for a, b in itertools.combinations(langs, 2):
            sim = vectors[a][rows] @ vectors[b][rows].T
            out[name][f"{a}-{b}"] = round(float(xsr_from_similarity(sim, "nn")["p_at_1"]), 4)
    print(f"{spec}: done", file=sys.stderr, flush=True)
    return out


def _means(cells: dict[str, float]) -> tuple[float, float]:
    en = [v for k, v in cells.items() if ENGLISH in k.split("-")]
    return float(np.mean(en)), float(np.mean(list(cells.values())))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--models", nargs="+", required=True)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--split", choices=sorted(SPLITS), default="test", help="test (reported) or validation")
    ap.add_argument(
        "--langs",
        nargs="+",
        default=list(CORE),
        help="the languages (default: the 13 of the shipped 13-language models; 'all': every one of the set)",
    )
    args = ap.parse_args()
    # every supported language has a column (tests/data/evalsets/test_everyday.py), so a checked name is held
    named = everyday_languages(args.split) if args.langs == ["all"] else tuple(check_languages(args.langs))
    langs = (ENGLISH, *(lang for lang in named if lang != ENGLISH))  # English first: the en-xx means
    start = time.time()
    scores = {m: _scores(m, args.threads, args.split, langs) for m in args.models}
    lines = ["| register | " + " | ".join(args.models) + " |", "|---|" + "---:|" * len(args.models)]
    for reg in [*REGISTERS, "all"]:
        cells = [_means(scores[m][reg]) for m in args.models]
        lines.append(f"| {reg} | " + " | ".join(f"{en:.3f} / {all_:.3f}" for en, all_ in cells) + " |")
    if len(langs) > len(CORE):  # many languages: a row per language too (en-xx over all the sentences)
        lines += ["", "| en-xx, all registers | " + " | ".join(args.models) + " |"]
        lines.append("|---|" + "---:|" * len(args.models))
        for lang in (lang for lang in langs if lang != ENGLISH):
            cells = [scores[m]["all"][f"{ENGLISH}-{lang}"] for m in args.models]
            lines.append(f"| en-{lang} | " + " | ".join(f"{v:.3f}" for v in cells) + " |")
    table = "\n".join(lines) + "\n"
    result = {
        "command": " ".join(["python", *sys.argv]),
        "date": time.strftime("%Y-%m-%d"),
        "models": args.models,
        "split": args.split,
        "langs": list(langs),
        "p_at_1": scores,
        "seconds": round(time.time() - start, 1),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    args.out.with_suffix(".md").write_text(table, encoding="utf-8")
    print(table)


if __name__ == "__main__":
    main()
