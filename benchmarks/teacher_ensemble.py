"""The ceiling of a teacher ensemble (issue #40): USE-m, e5-small and their concatenation scored as teachers on
the register benchmark's cells, exactly as ``register_table.py`` scores the students (same cells, pools, seed).

The ensemble vector is each teacher's vector L2-normalised, weighted by sqrt(1 - w) and sqrt(w) and concatenated:
its cosine is the w-weighted mean of the two cosines. If the ensemble is not better than USE-m as a teacher, a
student distilled from it cannot be either. Takes ``register_table.py``'s arguments (``--models`` is unused) and
reads its vector cache, so after a register-table run nothing is encoded again:

    python benchmarks/teacher_ensemble.py --data-dir data --text NAME=GLOB ... --max-pairs 60 --pool 50 \
        --cache runs/register-cache --out benchmarks/results/teacher_ensemble

Writes OUT.json (means and per-pair P@1 over every register) and prints one line per teacher.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import register_table as rt  # noqa: E402

from lingualite.evaluation.register import discover_registers, score_retrieval, summarise  # noqa: E402
from lingualite.text.languages import ENGLISH  # noqa: E402

WEIGHTS = (0.3, 0.5)  # e5-small's share of the ensemble cosine
DEFAULT_OUT = Path("benchmarks/results/teacher_ensemble")


def _unit(x: np.ndarray) -> np.ndarray:
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-12)


def ensemble(
    first: Callable[[list[str]], np.ndarray], second: Callable[[list[str]], np.ndarray], w: float
) -> Callable[[list[str]], np.ndarray]:
    """Vectors whose cosine is ``(1 - w) cos_first + w cos_second``."""
    return lambda texts: np.concatenate(
        [np.sqrt(1 - w) * _unit(first(texts)), np.sqrt(w) * _unit(second(texts))], axis=1
    )


def main(argv: list[str] | None = None) -> None:
    args = rt.parse_args(argv)
    if args.out == rt.parse_args([]).out:  # never the register table's own output
        args.out = DEFAULT_OUT
    regs = discover_registers(
        rt.data_dir_of(args),
        args.langs,
        args.pivots,
        args.max_pairs,
        args.seed,
        everyday=not args.no_everyday,
        extra_text=rt._kv(args.text, "--text"),
        min_pairs=args.min_pairs,
    )
    usem, e5 = (rt.CachedVectors(spec, args.threads, args.cache) for spec in ("use-m", "e5-small"))
    texts = [t for c in regs.cells for t in (*c.src, *c.tgt)]
    usem.ensure(texts)
    e5.ensure(texts)
    teachers: dict[str, Callable[[list[str]], np.ndarray]] = {"use-m": usem, "e5-small": e5}
    teachers.update({f"ensemble-e5-{w:g}": ensemble(usem, e5, w) for w in WEIGHTS})
    p_at_1 = {
        name: score_retrieval(vec, regs.cells, args.pool, args.seed)[0] for name, vec in teachers.items()
    }
    pairs = [f"{ENGLISH}-{lang}" for lang in args.langs] + list(args.pivots)
    summary = summarise(p_at_1, {name: [] for name in p_at_1}, ["use-m"], ENGLISH, pairs)
    out = {
        name: {
            "mean_en_xx": s["mean_unseen_en_xx"],
            "mean_non_english": s["mean_unseen_non_english"],
            "by_pair": {pair: v["unseen"] for pair, v in s["by_pair"].items()},
        }
        for name, s in summary.items()
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".json").write_text(json.dumps(out, indent=1), encoding="utf-8")
    for name, row in out.items():
        print(f"{name:16s} en-xx {row['mean_en_xx']:.4f}  non-English {row['mean_non_english']:.4f}")


if __name__ == "__main__":
    main()
