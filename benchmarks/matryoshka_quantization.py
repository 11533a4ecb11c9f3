"""What ``--dimensions`` and ``--precision`` cost: XSR P@1 of truncated and quantized vectors (issue #36).

For a Matryoshka-trained model (``matryoshka_dims``) and a plain one (the same recipe without it), on held-out
XSR pair files (``src<TAB>tgt``; square protocol, both directions, nearest neighbour by cosine, ties count
against the query, as ``lingualite eval xsr``):

- P@1 at each dimension (the full one, then the truncated sizes): the first ``d`` components, renormalised
  (:func:`lingualite.vectors.truncation.truncate`, what ``encode --dimensions`` writes). The plain model's numbers
  are plain truncation of a model never trained for it.
- P@1 at each precision, at each dimension (``--precision`` composes with ``--dimensions``):

  - ``float32``: cosine of the (truncated) vectors;
  - ``int8`` / ``uint8``: both sides quantized with ranges calibrated on all the file's vectors (both sides,
    as ``encode`` of one file takes them; queries would reuse them with ``--calibration``), compared by the
    cosine of their dequantized values (:func:`lingualite.dequantize`: bucket centres). The two use the same
    buckets (uint8 = int8 + 128), so their P@1 are equal by construction: both are shown as a check;
  - ``binary``: sign bits on both sides, compared by Hamming distance (ubinary holds the same bits);
  - ``binary+rescore``: Hamming distance proposes the K nearest candidates and the float cosine of the
    query's and the candidates' float vectors picks among them, which is what ``lingualite index build
    --quantization binary`` does (:mod:`lingualite.search.faiss_index`: float vectors on disk, exact rescoring);
    K is the index's default for one wanted hit, ``max(10, 5120 / bits)``.

It prints, and writes to ``OUT.json`` and ``OUT.md``, the tables and two checks of the issue's "Done when":
does the Matryoshka model keep >= 0.97 of its full-dimension P@1 at ``--check-dim`` (64), and does binary
with rescoring keep >= 0.90 of float32 P@1 (at the full dimension)?

Run on real models (the lead's measurement; ~2,000 pairs per file keep it to minutes on 2 cores)::

    python benchmarks/matryoshka_quantization.py --matryoshka runs/distill-mrl --plain runs/distill \\
        --pairs 'data/prepared/*/test.tsv' --max-pairs 2000 --out benchmarks/results/matryoshka_quantization
"""

from __future__ import annotations

import argparse
import glob
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.data.pairs import load_xsr_pairs, pair_set_name
from lingualite.encoders.matryoshka_dims import trained_dimensions
from lingualite.encoders.resolve import load_encoder
from lingualite.search.faiss_index import default_rescore
from lingualite.vectors.precision import Calibration, dequantize, quantize
from lingualite.vectors.retrieval import precision_at_k
from lingualite.vectors.truncation import truncate

PRECISIONS = ("float32", "int8", "uint8", "binary", "binary+rescore")
BYTES = {"float32": 4.0, "int8": 1.0, "uint8": 1.0, "binary": 1 / 8, "binary+rescore": 1 / 8}
DIM_KEEP, BINARY_KEEP = 0.97, 0.90


def p_at_1(scores: np.ndarray) -> float:
    """Mean P@1 of both directions of a square score matrix (row i's answer is column i)."""
    return (precision_at_k(scores, (1,))[1] + precision_at_k(scores.T, (1,))[1]) / 2


def rescored_p_at_1(candidates: np.ndarray, exact: np.ndarray, k: int) -> float:
    """P@1 when the top ``k`` of each row of ``candidates`` are re-ranked by ``exact`` (both directions)."""

    def one_way(cand: np.ndarray, scores: np.ndarray) -> float:
        k_eff = min(k, cand.shape[1])
        top = np.argpartition(-cand, k_eff - 1, axis=1)[:, :k_eff]
        kept = np.full(scores.shape, -np.inf, dtype=np.float64)
        rows = np.arange(len(scores))[:, None]
        kept[rows, top] = scores[rows, top]
        return precision_at_k(kept, (1,))[1]

    return (one_way(candidates, exact) + one_way(candidates.T, exact.T)) / 2


def precision_scores(src: np.ndarray, tgt: np.ndarray, dim: int) -> dict[str, float]:
    """P@1 of every precision for the ``dim``-prefix of the (float, unnormalised) vectors."""
    s, t = truncate(src, dim, normalize=True), truncate(tgt, dim, normalize=True)
    exact = s @ t.T
    out = {"float32": p_at_1(exact)}
    ranges = Calibration.fit(np.vstack([s, t]), "int8", normalized=True).ranges
    for precision in ("int8", "uint8"):
        cal = Calibration(precision, dim, True, ranges)
        sq, tq = (dequantize(quantize(x, precision, ranges), cal) for x in (s, t))
        sq /= np.linalg.norm(sq, axis=1, keepdims=True)
        tq /= np.linalg.norm(tq, axis=1, keepdims=True)
        out[precision] = p_at_1(sq @ tq.T)
    signs = Calibration("binary", dim, True)
    sb, tb = (dequantize(quantize(x, "binary"), signs) for x in (s, t))
    hamming_order = sb @ tb.T  # = dim - 2 * Hamming distance: the same order
    out["binary"] = p_at_1(hamming_order)
    out["binary+rescore"] = rescored_p_at_1(hamming_order, exact, default_rescore("binary", dim))
    return out


def encode_files(spec: str, files: list[Path], max_pairs: int | None) -> dict[str, tuple[np.ndarray, ...]]:
    encoder = load_encoder(spec)
    out = {}
    for path in files:
        src, tgt = load_xsr_pairs(path, max_pairs)
        t0 = time.perf_counter()
        out[pair_set_name(path)] = (
            np.asarray(encoder.encode(src), dtype=np.float32),
            np.asarray(encoder.encode(tgt), dtype=np.float32),
        )
        print(f"  {spec}: {path} ({len(src):,} pairs, {time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    return out


def measure(spec: str, files: list[Path], max_pairs: int | None, dims: list[int]) -> dict[str, Any]:
    vectors = encode_files(spec, files, max_pairs)
    full = int(next(iter(vectors.values()))[0].shape[1])
    sizes = [full] + [d for d in dims if d < full]
    per_file = {
        name: {str(d): precision_scores(src, tgt, d) for d in sizes} for name, (src, tgt) in vectors.items()
    }
    mean = {
        str(d): {p: float(np.mean([per_file[n][str(d)][p] for n in per_file])) for p in PRECISIONS}
        for d in sizes
    }
    return {"spec": spec, "dimension": full, "trained_dims": trained_dimensions(spec), "sizes": sizes,
            "pairs": {n: len(v[0]) for n, v in vectors.items()}, "per_file": per_file, "mean": mean}  # fmt: skip


def checks(results: dict[str, Any], check_dim: int) -> dict[str, Any]:
    """The issue's two thresholds, on the mean over files."""
    out: dict[str, Any] = {}
    for role, r in results.items():
        full = r["mean"][str(r["dimension"])]
        if str(check_dim) in r["mean"]:
            kept = r["mean"][str(check_dim)]["float32"] / max(full["float32"], 1e-12)
            out[f"{role}_{check_dim}d_keeps"] = round(kept, 4)
        for p in ("binary", "binary+rescore"):
            out[f"{role}_{p}_keeps"] = round(full[p] / max(full["float32"], 1e-12), 4)
    if "matryoshka" in results and f"matryoshka_{check_dim}d_keeps" in out:
        out[f"pass_{check_dim}d_keeps_{DIM_KEEP}"] = out[f"matryoshka_{check_dim}d_keeps"] >= DIM_KEEP
    binary = [v for k, v in out.items() if k.endswith("binary+rescore_keeps")]
    if binary:
        out[f"pass_binary_rescored_keeps_{BINARY_KEEP}"] = all(v >= BINARY_KEEP for v in binary)
    return out


def markdown(report: dict[str, Any]) -> str:
    results, check_dim = report["results"], report["settings"]["check_dim"]
    roles = list(results)
    lines = ["# XSR P@1 of truncated and quantized vectors", "",
             f"Mean over {len(report['settings']['files'])} pair file(s); "
             f"see benchmarks/matryoshka_quantization.py for the protocol.", "",
             "## By dimension (float32)", "",
             "| dimension | " + " | ".join(f"{r} P@1 | kept" for r in roles) + " |",
             "|---:|" + "---:|---:|" * len(roles)]  # fmt: skip
    sizes = sorted({int(d) for r in results.values() for d in r["mean"]}, reverse=True)
    for d in sizes:
        cells = []
        for r in results.values():
            row, full = r["mean"].get(str(d)), r["mean"][str(r["dimension"])]["float32"]
            cells += ["-", "-"] if row is None else [f"{row['float32']:.4f}", f"{row['float32'] / full:.3f}"]
        lines.append(f"| {d} | " + " | ".join(cells) + " |")
    lines += ["", "## By precision", "", "| model | dimension | precision | bytes/vector | P@1 | kept vs float32 |",
              "|---|---:|---|---:|---:|---:|"]  # fmt: skip
    for role, r in results.items():
        for d in (r["dimension"], check_dim):
            row = r["mean"].get(str(d))
            if row is None or (d == check_dim and d == r["dimension"]):
                continue
            for p in PRECISIONS:
                kept = row[p] / max(row["float32"], 1e-12)
                lines.append(f"| {role} | {d} | {p} | {BYTES[p] * d:g} | {row[p]:.4f} | {kept:.3f} |")
    lines += ["", "## Checks", ""] + [f"- {k}: {v}" for k, v in report["checks"].items()]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matryoshka", help="Model spec trained with matryoshka_dims.")
    parser.add_argument("--plain", help="Model spec of the same recipe without matryoshka_dims.")
    parser.add_argument("--pairs", nargs="+", required=True, help="XSR pair files (src<TAB>tgt; globs).")
    parser.add_argument("--max-pairs", type=int, default=2000, help="Seeded pairs per file (0: all).")
    parser.add_argument("--dims", help="Sizes, e.g. 64,32 (default: the Matryoshka model's trained sizes and "
                        "--check-dim).")  # fmt: skip
    parser.add_argument("--check-dim", type=int, default=64, help="The size of the >= 0.97 check.")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/matryoshka_quantization"))
    args = parser.parse_args()
    models = {role: spec for role, spec in (("matryoshka", args.matryoshka), ("plain", args.plain)) if spec}
    if not models:
        parser.error("give --matryoshka and/or --plain")
    files = sorted({Path(p) for pattern in args.pairs for p in (glob.glob(pattern) or [pattern])})
    if args.dims:
        dims = [int(d) for d in args.dims.split(",")]
    else:
        dims = list((trained_dimensions(args.matryoshka) if args.matryoshka else None) or [])
    dims = sorted({*dims, args.check_dim}, reverse=True)
    results = {role: measure(spec, files, args.max_pairs or None, dims) for role, spec in models.items()}
    settings = {"files": [str(f) for f in files], "max_pairs": args.max_pairs, "dims": dims,
                "check_dim": args.check_dim}  # fmt: skip
    report = {"settings": settings, "results": results}
    report["checks"] = checks(results, args.check_dim)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    text = markdown(report)
    args.out.with_suffix(".md").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
