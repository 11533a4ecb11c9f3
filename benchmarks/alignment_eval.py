"""Document alignment F1 of every encoder and of Gale-Church on held-out LibreOffice help pages, in ONE run.

Each English help page of the prepared test split (>= 20 shared paragraphs) is aligned with its French,
German, Spanish and Italian version after a seeded 15% of the paragraphs are dropped from each side
(:mod:`lingualite.evaluation.document_alignment`); the score is Vecalign's strict F1 over the gold 1-1 paragraph
links, summed over the pages of a language pair. Embedding rows use the Vecalign-style aligner
(:func:`lingualite.alignment.align_texts`, blocks of two paragraphs embedded as joined text); TF-IDF is
fitted on the two documents it aligns; Gale-Church uses lengths only.

The skip cost (Vecalign's deletion percentile) is either fixed (``--skip-percentile``) or, with
``--tune-skip``, chosen per encoder among a few values on the *valid*-split pages (never the test pages).
Seconds per document pair: encoding (and TF-IDF fitting) plus alignment, the model already loaded.

    python benchmarks/alignment_eval.py --student /work/models/distill-usem --out benchmarks/results/alignment_eval

Writes ``alignment_eval.json`` and ``alignment_eval.md`` and prints the table.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.alignment import GaleChurchConfig, VecalignConfig, align_texts, gale_church_align
from lingualite.config.parsing import default_data_dir
from lingualite.encoders.resolve import load_encoder
from lingualite.evaluation.document_alignment import evaluate_aligner, load_cases

PERCENTILES = (0.2, 0.1, 0.05, 0.02, 0.01)


class _Memo:
    """Remembers vectors by text so that a sweep over skip costs encodes each text once. With ``reuse``
    False it still encodes every text it is given (the timed pass) and only records the vectors."""

    def __init__(self, encoder: Any) -> None:
        self.encoder, self.name, self.cache, self.reuse = encoder, encoder.name, {}, True

    def encode(self, texts: list[str]) -> np.ndarray:
        todo = list(dict.fromkeys(t for t in texts if not self.reuse or t not in self.cache))
        if todo:
            self.cache.update(zip(todo, np.asarray(self.encoder.encode(todo)), strict=True))
        return np.stack([self.cache[t] for t in texts])


def _run(aligner: Any, cases: dict[str, list]) -> dict[str, dict[str, float]]:
    return {f"en-{lang}": evaluate_aligner(aligner, c) for lang, c in cases.items()}


def _mean(rows: dict[str, dict[str, float]], key: str) -> float:
    return float(np.mean([r[key] for r in rows.values()]))


def _tune(encoder: Any, valid: dict[str, list], max_block: int) -> tuple[float, dict[str, float]]:
    scores = {}
    for pct in PERCENTILES:
        cfg = VecalignConfig(max_block=max_block, skip_percentile=pct)
        scores[str(pct)] = _mean(_run(lambda s, t, c=cfg: align_texts(s, t, encoder, c), valid), "f1")
    best = max(PERCENTILES, key=lambda p: scores[str(p)])
    return best, scores


def _ensure_onnx(model: str, target: Path) -> Path:
    from lingualite.encoders.onnx import INT8_FILE, ONNX_DIR
    from lingualite.encoders.onnx_export import export_onnx

    if not (target / ONNX_DIR / INT8_FILE).exists():
        print(f"exporting {model} -> {target}", file=sys.stderr, flush=True)
        export_onnx(model, target, quantize="int8")
    return target


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--student", default=None, help="A transformer student folder.")
    parser.add_argument("--onnx-int8", action="store_true", help="Also the student as ONNX int8.")
    parser.add_argument("--extra", nargs="*", default=[], help="More model specs (rows).")
    parser.add_argument("--baselines", default="use-m,tfidf")
    parser.add_argument("--langs", default="fr,de,es,it")
    parser.add_argument("--min-paragraphs", type=int, default=20)
    parser.add_argument("--drop", type=float, default=0.15)
    parser.add_argument("--max-block", type=int, default=2)
    parser.add_argument("--skip-percentile", type=float, default=0.2)
    parser.add_argument("--tune-skip", action="store_true", help=f"Pick from {PERCENTILES} on valid pages.")
    parser.add_argument("--work", type=Path, default=Path("runs/alignment-eval"), help="Exported ONNX.")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/alignment_eval"))
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()

    data = args.data_dir or default_data_dir()
    raw, prepared = data / "cache" / "libreoffice", data / "prepared"
    langs = args.langs.split(",")

    def cases(split: str) -> dict[str, list]:
        return {
            lang: load_cases(raw, prepared, lang, args.min_paragraphs, args.drop, 0, split) for lang in langs
        }

    test = cases("test")
    valid = cases("valid") if args.tune_skip else {}
    specs: list[tuple[str, str]] = []
    if args.student:
        student = Path(args.student)
        specs.append((f"{student.name} (torch)", str(student)))
        if args.onnx_int8:
            onnx = _ensure_onnx(str(student), args.work / f"{student.name}-onnx")
            specs.append((f"{student.name} (ONNX int8)", f"onnx-int8:{onnx}"))
    specs += [(spec, spec) for spec in args.extra] + [(b, b) for b in args.baselines.split(",") if b]

    rows = []
    for label, spec in specs:
        t0 = time.perf_counter()
        encoder = load_encoder(spec, threads=args.threads)
        memo = encoder if callable(getattr(encoder, "fit", None)) else _Memo(encoder)  # TF-IDF: refitted
        pct, sweep = args.skip_percentile, None
        if args.tune_skip:
            pct, sweep = _tune(memo, valid, args.max_block)
        for tuned in (False, True) if args.tune_skip else (False,):
            if isinstance(memo, _Memo):
                memo.reuse = tuned  # the first (timed) pass encodes every text
            p = pct if tuned else args.skip_percentile
            cfg = VecalignConfig(max_block=args.max_block, skip_percentile=p)
            per = _run(lambda s, t, c=cfg, e=memo: align_texts(s, t, e, c), test)
            if tuned and isinstance(memo, _Memo):
                for row in per.values():
                    row["seconds_per_document"] = None  # vectors reused: not a timing
            name = f"{label}, skip tuned on valid" if tuned else label
            rows.append(
                {"label": name, "spec": spec, "skip_percentile": p, "valid_sweep": sweep, "per_pair": per}
            )
            print(
                f"{name}: F1 {_mean(per, 'f1'):.3f} ({time.perf_counter() - t0:.0f} s)",
                file=sys.stderr,
                flush=True,
            )
    gc = GaleChurchConfig(max_block=args.max_block)
    per = _run(lambda s, t: gale_church_align(s, t, gc), test)
    rows.append({"label": "Gale-Church", "spec": "gale-church", "skip_percentile": None, "per_pair": per})
    settings = {
        "split": "test",
        "documents_per_pair": {f"en-{lang}": len(c) for lang, c in test.items()},
        "min_paragraphs": args.min_paragraphs,
        "drop": args.drop,
        "max_block": args.max_block,
        "tune_skip": args.tune_skip,
        "threads": args.threads,
        "command": " ".join(sys.argv),
    }
    _write(args.out, rows, settings)


def _seconds(per: dict[str, dict[str, Any]]) -> str:
    values = [r["seconds_per_document"] for r in per.values()]
    return "–" if None in values else f"{np.mean(values):.3f}"


def _write(out: Path, rows: list[dict], settings: dict) -> None:
    from lingualite.core.io_utils import write_json, write_text

    out.parent.mkdir(parents=True, exist_ok=True)
    write_json(out.with_suffix(".json"), {"settings": settings, "rows": rows})
    pairs = list(rows[0]["per_pair"])
    head = ["aligner", "skip pct", "strict F1", *pairs, "P", "R", "lax F1", "s / doc pair"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        per = r["per_pair"]
        cells = [
            r["label"],
            "–" if r["skip_percentile"] is None else f"{r['skip_percentile']:g}",
            f"**{_mean(per, 'f1'):.3f}**",
            *(f"{per[p]['f1']:.3f}" for p in pairs),
            f"{_mean(per, 'precision'):.3f}",
            f"{_mean(per, 'recall'):.3f}",
            f"{_mean(per, 'lax_f1'):.3f}",
            _seconds(per),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    write_text(out.with_suffix(".md"), "\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
