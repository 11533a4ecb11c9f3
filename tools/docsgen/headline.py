"""The headline results table (README, the docs' home page, the results index): the speed tiers' latest run,
read from ``benchmarks/results/encode_speed.json``. The rows are chosen here by the labels the benchmark gives
them; a label that disappears from the JSON is an error, not a silently shorter table."""

from __future__ import annotations

import json
from pathlib import Path

from tools.docsgen.markdown import num, table

SOURCE = "benchmarks/results/encode_speed.json"
# (label in the JSON, what the row is called here)
ROWS = (
    ("distill-usem (ONNX int8)", "transformer student, int8 ONNX (`distill-usem`, 1 layer x 128)"),
    ("distill-usem (torch fp32)", "the same student through torch (float32)"),
    ("static:/work/models/static-usem", "static student (a token table and a mean)"),
    ("use-m", "USE-m: multilingual Universal Sentence Encoder v3 (baseline)"),
    ("e5-small", "multilingual-e5-small, 4-bit (baseline)"),
    ("minilm", "all-MiniLM-L6-v2, English only (baseline)"),
    ("tfidf", "TF-IDF, character 1-4-grams (baseline)"),
)


def render(root: Path) -> str:
    data = json.loads((root / SOURCE).read_text(encoding="utf-8"))
    by_label = {r["label"]: r for r in data["rows"]}
    missing = [label for label, _ in ROWS if label not in by_label]
    if missing:
        raise KeyError(f"{SOURCE}: no row labelled {missing}")
    body = []
    for label, name in ROWS:
        r = by_label[label]
        body.append(
            [
                name,
                num(r["xsr_p_at_1"]["mean"]),
                num(r["sentences_per_second"], 0),
                f"{r['vs_use_m']:.2f}x",
                num(r["latency_ms_p50"], 2),
                num(r["size_on_disk_mb"], 1),
            ]
        )
    head = ["model", "XSR P@1", "sentences/s", "vs USE-m", "ms per sentence (batch 1)", "MB on disk"]
    settings = data["settings"]
    cpu = data["rows"][0].get("cpu_model") or "CPU"
    caption = (
        f"Cross-lingual retrieval (XSR P@1: the translation found first among {settings['xsr_pairs_per_pool']:,} "
        f"held-out pairs per language pair, en-de/es/fr/it) and encoding speed ({settings['sentences']:,} "
        f"sentences in calls of {settings['batch_size']}, each model in a fresh process) on a "
        f"{data['rows'][0]['threads']}-core {cpu} without GPU. From `{SOURCE}`, written by "
        f"`python {settings['command']}`."
    )
    return "\n".join([*table(head, body, "lrrrrr"), "", caption]) + "\n"
