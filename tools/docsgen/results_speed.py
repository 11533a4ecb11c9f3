"""Results: encoding speed and accuracy (``benchmarks/encode_speed.py``, ``benchmarks/bf16_encode_profile.py``)."""

from __future__ import annotations

from typing import Any

from tools.docsgen.markdown import MISSING, num, short_spec, table


def _ratio(value: float | None) -> str:
    return MISSING if value is None else f"{value:.2f}x"


def encode_speed(data: dict[str, Any]) -> list[str]:
    """One row per model: size, throughput (batch 64), ratios, batch-1 latency, memory, XSR P@1."""
    rows = data["rows"]
    pairs = [k for k in rows[0]["xsr_p_at_1"] if k != "mean"] if rows[0].get("xsr_p_at_1") else []
    settings = data["settings"]
    head = ["model", "params", "MB", "sentences/s", "vs USE-m", "vs MiniLM-ONNX", "p50 ms", "p95 ms"]
    head += ["peak RSS MB", "XSR P@1", *pairs]
    body = []
    for r in rows:
        xsr = r.get("xsr_p_at_1") or {}
        params = MISSING if r.get("num_parameters") is None else f"{r['num_parameters'] / 1e6:.1f}M"
        body.append(
            [
                short_spec(r["label"]),
                params,
                num(r.get("size_on_disk_mb"), 1),
                num(r["sentences_per_second"], 0),
                _ratio(r.get("vs_use_m")),
                _ratio(r.get("vs_minilm_onnx")),
                num(r["latency_ms_p50"], 2),
                num(r["latency_ms_p95"], 2),
                num(r.get("peak_rss_mb"), 0),
                num(xsr.get("mean")),
                *(num(xsr.get(p)) for p in pairs),
            ]
        )
    note = (
        f"{settings['sentences']:,} sentences per model, calls of {settings['batch_size']} (sentences/s) and "
        f"one by one (p50 / p95 ms), each model in a fresh process; XSR P@1 on "
        f"{settings['xsr_pairs_per_pool']:,} seeded held-out pairs per language pair; ratios measured in the "
        "same run."
    )
    return [note, "", *table(head, body, "ll" + "r" * (len(head) - 2))]


def bf16_profile(data: dict[str, Any]) -> list[str]:
    """Per model and variant: sentences/s, the tokenizer's share of the time, and the three costliest ops."""
    settings = data["settings"]
    body = []
    for r in data["rows"]:
        ops = ", ".join(f"{o['op'].removeprefix('aten::')} {o['share']:.0%}" for o in r["top_ops"][:3])
        body.append(
            [
                short_spec(r["model"]),
                r["variant"],
                num(r["sentences_per_second"], 0),
                f"{r['tokenize_share']:.0%}",
                ops,
            ]
        )
    note = (
        f"torch {settings['torch']} ({settings['cpu_capability']}), {settings['threads']} threads, "
        f"{settings['sentences']:,} sentences in calls of {settings['batch_size']}; top operators by self time."
    )
    return [
        note,
        "",
        *table(["model", "variant", "sentences/s", "tokenizing", "costliest operators"], body, "llrrl"),
    ]
