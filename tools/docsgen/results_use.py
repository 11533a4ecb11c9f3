"""Results of using the encoders: mining, alignment, search, serving and bulk encoding (the benchmarks of the
same names in ``benchmarks/``)."""

from __future__ import annotations

from typing import Any

from tools.docsgen.markdown import MISSING, num, short_spec, table


def _mean(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present and len(present) == len(values) else None


def mining_eval(data: dict[str, Any]) -> list[str]:
    settings = data["settings"]
    ratios = settings["ratios"]
    head = ["encoder", *(f"1:{r} F1 (P / R)" for r in ratios), "seconds"]
    body = []
    for spec, row in data["rows"].items():
        res = row["results"]
        cells = []
        for r in ratios:
            m = res.get(f"mean/1:{r}")
            cells.append(f"{m['f1']:.3f} ({m['precision']:.3f} / {m['recall']:.3f})" if m else "not run")
        body.append([short_spec(spec), *cells, num(row["seconds"], 0)])
    note = (
        f"{settings['gold_per_pair']} hidden held-out pairs per language pair "
        f"({', '.join(settings['language_pairs'])}) among 1x / 10x / 100x distractor sentences per side; "
        f"mode {settings['mode']}, k = {settings['k']}; threshold: {settings['threshold']}. Mean over the pairs."
    )
    return [note, "", *table(head, body, "l" + "r" * (len(head) - 1))]


def mine_scale(data: dict[str, Any]) -> list[str]:
    sec = data["seconds"]
    body = [[short_spec(data["model"]), f"{data['lines']:,}", f"{data['pairs']:,}", data["search"]]]
    body[0] += [
        num(data["wall_s"], 1),
        *(num(sec[k], 1) for k in ("encode", "index", "search", "select_and_write")),
    ]
    body[0] += [num(data["peak_rss_mb"], 0)]
    head = ["model", "lines per side", "pairs", "search", "wall s", "encode s", "index s", "search s"]
    head += ["select + write s", "peak RSS MB"]
    return table(head, body, "lrrl" + "r" * 6)


def alignment_eval(data: dict[str, Any]) -> list[str]:
    settings = data["settings"]
    pairs = list(data["rows"][0]["per_pair"])
    head = ["aligner", "skip pct", "strict F1", *pairs, "P", "R", "lax F1", "s / doc pair"]
    body = []
    for r in data["rows"]:
        per = r["per_pair"]

        def mean(key: str, per: dict[str, Any] = per) -> float | None:
            return _mean([per[p][key] for p in pairs])

        skip = MISSING if r["skip_percentile"] is None else f"{r['skip_percentile']:g}"
        body.append(
            [short_spec(r["label"]), skip, num(mean("f1")), *(num(per[p]["f1"]) for p in pairs)]
            + [
                num(mean("precision")),
                num(mean("recall")),
                num(mean("lax_f1")),
                num(mean("seconds_per_document")),
            ]
        )
    docs = ", ".join(f"{p} {n}" for p, n in settings["documents_per_pair"].items())
    note = (
        f"Held-out ({settings['split']} split) LibreOffice help pages with >= {settings['min_paragraphs']} "
        f"paragraphs ({docs}), {settings['drop']:.0%} of the paragraphs dropped on each side; blocks up to "
        f"{settings['max_block']} lines; Vecalign's strict F1 over the gold 1-1 links, mean over the pairs."
    )
    return [note, "", *table(head, body, "l" + "r" * (len(head) - 1))]


def _search_rows(rows: list[dict[str, Any]], mrr: bool) -> list[str]:
    head = ["model", "documents", "quantization", "kind", "rescore", "recall kept@10"]
    head += ["MRR@10"] if mrr else []
    head += ["p50 ms", "p95 ms", "FAISS MB", "RSS MB", "build s"]
    body = []
    for r in rows:
        cells = [short_spec(r["model"]), f"{r['documents']:,}", r["quantization"], r["kind"], r["rescore"]]
        cells += [num(r["recall_kept_at_10"])] + ([num(r.get("mrr_at_10"))] if mrr else [])
        cells += [num(r["p50_ms"], 2), num(r["p95_ms"], 2), num(r["faiss_mb"], 1), num(r["rss_mb"], 0)]
        body.append(cells + [num(r["build_s"], 1)])
    return table(head, body, "lrllr" + "r" * (len(head) - 5))


def search_quantization(data: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    for part, result in data.items():
        s = result["settings"]
        if part == "real":
            lines += [
                f"**The LibreOffice help index** (English pages; {s['queries_per_lang']} queries per language, "
                f"{s['langs']}); recall kept = overlap of the top 10 with the exact float top 10; latency: one "
                f"query, vector given. Command: `{s['command']}`.",
                "",
                *_search_rows(result["rows"], mrr=True),
                "",
            ]
        else:
            lines += [
                f"**{s['scale']:,} documents** (prepared training sentences; held-out test sentences as "
                f"queries). Command: `{s['command']}`.",
                "",
                *_search_rows(result["rows"], mrr=False),
                "",
            ]
    return lines


def serve_load(data: dict[str, Any]) -> list[str]:
    s = data["settings"]
    head = ["model", "max batch", "requests/s", "p50 ms", "p95 ms", "p99 ms", "errors", "texts per call"]
    head += ["server CPU %", "peak RSS MB"]
    body = []
    for r in data["rows"]:
        body.append(
            [
                short_spec(r["model"]),
                r["max_batch"],
                num(r["requests_per_second"], 0),
                num(r["latency_ms_p50"], 1),
            ]
            + [num(r["latency_ms_p95"], 1), num(r["latency_ms_p99"], 1), r["errors"]]
            + [
                num(r["mean_texts_per_encoder_call"], 1),
                num(r.get("server_cpu_percent"), 0),
                num(r.get("peak_rss_mb"), 0),
            ]
        )
    note = (
        f"{s['clients']} concurrent clients for {s['seconds']:g} s (after {s['warmup_seconds']:g} s of warm-up), "
        f"{s['texts_per_request']} sentence per `/encode`, `--max-wait-ms {s['max_wait_ms']:g}`; server and "
        f"clients on the same {s['cpu_count']} cores."
    )
    return [note, "", *table(head, body, "lr" + "r" * (len(head) - 2))]


def bulk_encode(data: dict[str, Any]) -> list[str]:
    s = data["settings"]
    head = ["model", "engine", "seconds", "sentences/s", "vs one process", "fixed s", "steady sentences/s"]
    head += ["max abs diff"]
    base: dict[str, float] = {}
    body = []
    for r in data["rows"]:
        base.setdefault(r["model"], r["sentences_per_second"])
        diff = r["max_abs_diff_vs_one_process"]
        body.append(
            [short_spec(r["model"]), r["engine"], num(r["seconds"], 1), num(r["sentences_per_second"], 0)]
            + [f"{r['sentences_per_second'] / base[r['model']]:.2f}x", num(r["fixed_seconds"], 1)]
            + [num(r["steady_sentences_per_second"], 0), MISSING if diff is None else f"{diff:.1e}"]
        )
    note = (
        f"{s['sentences']:,} sentences, the whole command timed, {s['workers']} workers on {s['cpus']} CPUs; "
        "'max abs diff': against the one-process output."
    )
    return [note, "", *table(head, body, "ll" + "r" * (len(head) - 2))]
