"""Search index quantization and kinds: what int8 and binary (with exact rescoring) and HNSW keep and cost.

Two parts, each run alone (each under ~10 minutes on 2 cores) and merged into one JSON + Markdown:

- ``--part real``: the LibreOffice help index set (``lingualite data eval-sets``; English pages as the corpus,
  fr/de/es/it index entries as queries), for each model: float vs int8 vs binary, flat and HNSW. Recall kept
  = overlap of each query's top 10 with the exact float top 10 (the same model's flat float32 index); MRR@10
  against the qrels; query latency p50/p95 (one query at a time, FAISS + rescoring + SQLite, the query
  vector given: the model's own encode time is reported beside it); sizes on disk and the FAISS index's RAM.
- ``--part scale``: sentences of the prepared training files (both sides, unique, seeded) encoded with one
  model, to show flat vs HNSW latency and memory at a size where it matters; held-out test sentences of the
  other languages are the queries.

Searches run in a fresh process per index (``--measure``), which also gives the index's resident memory
(VmRSS after opening and searching, minus the process's RSS before opening).

    flock /tmp/lingualite-bench.lock python benchmarks/search_quantization.py --part real \
        --models /work/models/distill-usem,use-m
    flock /tmp/lingualite-bench.lock python benchmarks/search_quantization.py --part scale \
        --models /work/models/distill-usem --scale 200000
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from lingualite.config.parsing import default_data_dir
from lingualite.encoders.resolve import load_encoder
from lingualite.search import SearchIndex
from lingualite.search.encoder_check import dense

SETTINGS = [(q, kind) for q in ("none", "int8", "binary") for kind in ("flat", "hnsw")]


class Precomputed:
    """The model's vectors of known texts, computed once (the benchmark builds many indexes of one corpus)."""

    def __init__(self, encoder: Any, texts: list[str], vectors: np.ndarray) -> None:
        self.encoder, self.name, self.vectors = encoder, encoder.name, vectors
        self.rows = {t: i for i, t in enumerate(texts)}

    @property
    def dimension(self) -> int:
        return int(self.vectors.shape[1])

    def encode(self, texts: list[str]) -> np.ndarray:
        if all(t in self.rows for t in texts):
            return self.vectors[[self.rows[t] for t in texts]]
        return self.encoder.encode(texts)


def _vectors(encoder: Any, texts: list[str], cache: Path, queries: bool = False) -> np.ndarray:
    if cache.exists():
        return np.load(cache, allow_pickle=False)
    t0 = time.perf_counter()
    out = np.concatenate([dense(encoder, texts[i : i + 4096], queries) for i in range(0, len(texts), 4096)])
    print(f"  encoded {len(texts):,} texts in {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
    cache.parent.mkdir(parents=True, exist_ok=True)
    np.save(cache, out)
    return out


def _tsv(path: Path) -> list[list[str]]:
    return [line.rstrip("\n").split("\t") for line in path.open(encoding="utf-8") if line.strip()]


def _measure_child(index: Path, queries: Path, out: Path) -> None:
    """In a fresh process: open ``index``, search every query vector alone; latency, top 10s and RSS."""

    def rss() -> int:
        status = Path("/proc/self/status").read_text()
        return int(next(line for line in status.splitlines() if line.startswith("VmRSS")).split()[1]) * 1024

    vectors = np.load(queries, allow_pickle=False)
    before = rss()
    with SearchIndex.open(index) as idx:
        idx.search_vectors(vectors[:5], k=10)  # warm up
        times, tops = [], []
        for v in vectors:
            t0 = time.perf_counter()
            hits = idx.search_vectors(v[None, :], k=10)[0]
            times.append(time.perf_counter() - t0)
            tops.append([h.doc_id for h in hits])
        info = idx.describe()
    ms = np.array(times) * 1000
    out.write_text(
        json.dumps(
            {
                "p50_ms": float(np.percentile(ms, 50)),
                "p95_ms": float(np.percentile(ms, 95)),
                "rss_mb": (rss() - before) / 1e6,
                "faiss_mb": info["faiss_bytes"] / 1e6,
                "vectors_mb": info["vectors_bytes"] / 1e6,
                "sqlite_mb": info["sqlite_bytes"] / 1e6,
                "kind": info["kind"],
                "rescore": info["rescore"],
                "tops": tops,
            }
        )
    )


def _measure(index: Path, queries: np.ndarray, work: Path) -> dict[str, Any]:
    qfile, out = work / "queries.npy", work / "measure.json"
    np.save(qfile, queries)
    cmd = [sys.executable, __file__, "--measure", str(index), str(qfile), str(out)]
    subprocess.run(cmd, check=True)
    return json.loads(out.read_text())


def _compare(rows: dict[str, Any], ref: list[list[str]], relevant: list[set[str]] | None) -> dict[str, Any]:
    tops = rows.pop("tops")
    rows["recall_kept_at_10"] = float(
        np.mean([len(set(t) & set(r)) / max(len(r), 1) for t, r in zip(tops, ref, strict=True)])
    )
    if relevant is not None:
        rr = [
            next((1 / (i + 1) for i, d in enumerate(t) if d in rel), 0.0)
            for t, rel in zip(tops, relevant, strict=True)
        ]
        rows["mrr_at_10"] = float(np.mean(rr))
    return rows


def _run_settings(
    label: str,
    spec: str,
    encoder: Precomputed,
    docs: list[dict],
    queries: np.ndarray,
    relevant: list | None,
    work: Path,
) -> list[dict[str, Any]]:
    rows, ref = [], None
    for quantization, kind in SETTINGS:
        path = work / f"idx-{quantization}-{kind}"
        t0 = time.perf_counter()
        SearchIndex.build(
            spec, docs, path, quantization, kind, False, encoder=encoder, overwrite=True
        ).close()
        build_s = time.perf_counter() - t0
        measured = _measure(path, queries, work)
        ref = measured["tops"] if ref is None else ref  # the first setting is float flat: exact
        row = {
            "model": label,
            "quantization": quantization,
            "kind": kind,
            "build_s": build_s,
            "documents": len(docs),
        }
        rows.append({**row, **_compare(measured, ref, relevant)})
        shutil.rmtree(path)
        r = rows[-1]
        print(
            f"{label} {quantization}/{kind}: recall kept {r['recall_kept_at_10']:.3f}"
            + (f", MRR@10 {r['mrr_at_10']:.3f}" if "mrr_at_10" in r else "")
            + f", p50 {r['p50_ms']:.2f} ms, p95 {r['p95_ms']:.2f} ms, FAISS {r['faiss_mb']:.1f} MB, "
            f"RSS +{r['rss_mb']:.0f} MB, build {build_s:.1f} s",
            file=sys.stderr,
            flush=True,
        )
    return rows


def _label(spec: str) -> str:
    runtime, _, rest = spec.partition(":")
    if runtime in ("static", "onnx", "onnx-int8") and rest:
        return f"{Path(rest).name} ({runtime})"
    return Path(spec).name if Path(spec).exists() else spec


def _encode_latency(encoder: Any, texts: list[str], n: int = 100) -> float:
    times = []
    for text in texts[:n]:
        t0 = time.perf_counter()
        dense(encoder, [text], queries=True)
        times.append(time.perf_counter() - t0)
    return float(np.percentile(np.array(times) * 1000, 50))


def part_real(models: list[str], data: Path, work: Path, per_lang: int, langs: list[str]) -> list[dict]:
    root = data / "eval" / "ir" / "libreoffice-index"
    corpus = _tsv(root / "en" / "corpus.tsv")
    docs = [{"id": d, "text": t} for d, t, *_ in corpus]
    texts, relevant = [], []
    for lang in langs:
        qrels: dict[str, set[str]] = {}
        for q, d, *_ in _tsv(root / lang / "qrels.tsv"):
            qrels.setdefault(q, set()).add(d)
        queries = [(q, t) for q, t, *_ in _tsv(root / lang / "queries.tsv") if q in qrels]
        for q, t in random.Random(0).sample(queries, min(per_lang, len(queries))):
            texts.append(t)
            relevant.append(qrels[q])
    rows = []
    for spec in models:
        encoder = load_encoder(spec)
        label = _label(spec)
        print(
            f"{label}: {len(docs):,} documents, {len(texts):,} queries ({','.join(langs)})", file=sys.stderr
        )
        doc_vecs = _vectors(encoder, [d["text"] for d in docs], work / f"{label}-corpus.npy")
        query_vecs = _vectors(encoder, texts, work / f"{label}-queries.npy", queries=True)
        pre = Precomputed(encoder, [d["text"] for d in docs], doc_vecs)
        found = _run_settings(label, spec, pre, docs, query_vecs, relevant, work)
        encode_ms = _encode_latency(encoder, texts)
        rows += [{**r, "encode_query_ms_p50": encode_ms} for r in found]
    return rows


def part_scale(spec: str, data: Path, work: Path, size: int, n_queries: int) -> list[dict]:
    prepared = data / "prepared"
    pool: set[str] = set()
    for f in sorted(prepared.glob("*/train.tsv")):
        for line in f.open(encoding="utf-8"):
            pool.update(part for part in line.rstrip("\n").split("\t")[:2] if part.strip())
    sentences = sorted(pool)
    random.Random(0).shuffle(sentences)
    sentences = sentences[:size]
    held = sorted(
        {line.split("\t")[1].strip() for f in sorted(prepared.glob("*/test.tsv")) for line in f.open()}
    )
    queries = [q for q in random.Random(1).sample(held, min(len(held), n_queries * 2)) if q not in pool][
        :n_queries
    ]
    encoder = load_encoder(spec)
    label = _label(spec)
    print(f"{label}: {len(sentences):,} sentences, {len(queries):,} queries", file=sys.stderr, flush=True)
    vecs = _vectors(encoder, sentences, work / f"{label}-scale-{len(sentences)}.npy")
    query_vecs = _vectors(encoder, queries, work / f"{label}-scale-queries-{len(queries)}.npy", queries=True)
    docs = [{"id": str(i), "text": t} for i, t in enumerate(sentences)]
    return _run_settings(label, spec, Precomputed(encoder, sentences, vecs), docs, query_vecs, None, work)


def _table(rows: list[dict], mrr: bool) -> list[str]:
    head = ["model", "docs", "quantization", "kind", "recall kept@10", *(["MRR@10"] if mrr else [])]
    head += ["p50 ms", "p95 ms", "FAISS MB (RAM)", "RSS +MB", "floats MB (disk)", "SQLite MB", "build s"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        cells = [
            r["model"],
            f"{r['documents']:,}",
            r["quantization"],
            r["kind"],
            f"{r['recall_kept_at_10']:.3f}",
        ]
        cells += [f"{r['mrr_at_10']:.3f}"] if mrr else []
        cells += [f"{r['p50_ms']:.2f}", f"{r['p95_ms']:.2f}", f"{r['faiss_mb']:.1f}", f"{r['rss_mb']:.0f}"]
        cells += [f"{r['vectors_mb']:.1f}", f"{r['sqlite_mb']:.1f}", f"{r['build_s']:.1f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def _write(out: Path, part: str, rows: list[dict], settings: dict) -> None:
    from lingualite.core.io_utils import write_json, write_text

    path = out.with_suffix(".json")
    merged = json.loads(path.read_text()) if path.exists() else {}
    if "scale" in merged:  # results of an earlier version: one scale part only
        old = merged.pop("scale")
        merged[f"scale_{old['settings']['scale']}"] = old
    merged[part if part == "real" else f"scale_{settings['scale']}"] = {"settings": settings, "rows": rows}
    write_json(path, merged)
    lines = []
    if "real" in merged:
        lines += ["LibreOffice help index (English pages; fr/de/es/it queries):", ""]
        lines += _table(merged["real"]["rows"], mrr=True)
        encode = {r["model"]: r["encode_query_ms_p50"] for r in merged["real"]["rows"]}
        lines += [
            "",
            "Query encoding p50 (ms, one query): " + ", ".join(f"{m} {v:.2f}" for m, v in encode.items()),
        ]
    scales = sorted((k for k in merged if k.startswith("scale_")), key=lambda k: int(k.split("_")[1]))
    if scales:
        lines += ["", "Scale (prepared training sentences; held-out test sentences as queries):", ""]
        lines += _table([r for k in scales for r in merged[k]["rows"]], mrr=False)
    write_text(out.with_suffix(".md"), "\n".join(lines) + "\n")
    print("\n".join(lines))


def main() -> None:
    if len(sys.argv) == 5 and sys.argv[1] == "--measure":
        _measure_child(Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4]))
        return
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--part", choices=["real", "scale"], required=True)
    parser.add_argument("--models", required=True, help="Comma-separated model specs (scale: the first).")
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--work", type=Path, default=Path("runs/search-bench"))
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/search_quantization"))
    parser.add_argument("--queries-per-lang", type=int, default=500)
    parser.add_argument("--langs", default="fr,de,es,it")
    parser.add_argument("--scale", type=int, default=200_000, help="Sentences in the scale part.")
    parser.add_argument("--scale-queries", type=int, default=1000)
    args = parser.parse_args()
    data = args.data_dir or default_data_dir()
    models = [m for m in args.models.split(",") if m]
    t0 = time.perf_counter()
    if args.part == "real":
        rows = part_real(models, data, args.work, args.queries_per_lang, args.langs.split(","))
    else:
        rows = part_scale(models[0], data, args.work, args.scale, args.scale_queries)
    settings = {"command": " ".join(sys.argv), "seconds": round(time.perf_counter() - t0, 1)}
    settings.update(queries_per_lang=args.queries_per_lang, langs=args.langs, scale=args.scale)
    _write(args.out, args.part, rows, settings)


if __name__ == "__main__":
    main()
