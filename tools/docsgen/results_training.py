"""Results of training and distillation studies: training throughput, leave-one-source-out, the monolingual
recipe over seeds, and the crash harness."""

from __future__ import annotations

from typing import Any

from tools.docsgen.markdown import MISSING, num, table


def train_throughput(data: dict[str, Any]) -> list[str]:
    head = ["config", "variant", "batch", "steps timed", "pairs/s", "s/step", "peak RSS MB", "vs reference"]
    body = []
    for r in data["results"]:
        ratio = r.get("speedup_vs_reference")
        body.append(
            [r["config"], r["variant"], r["batch_size"], r["steps_timed"], num(r["pairs_per_second"], 1)]
            + [
                num(r["seconds_per_step"], 3),
                num(r["peak_rss_mb"], 0),
                MISSING if ratio is None else f"{ratio:.2f}x",
            ]
        )
    meta = data["meta"]
    note = f"{meta['cpus']} CPUs ({meta['machine']}), {data['results'][0]['torch_threads']} torch threads."
    return [note, "", *table(head, body, "llrrrrrr")]


def leave_one_source_out(data: dict[str, Any]) -> list[str]:
    pairs = sorted({p for r in data["rows"] for p in r["p_at_1"]})
    head = ["held out", "model", *pairs, "mean", "gap to USE-m", "other sources", "training min"]
    body = []
    for r in data["rows"]:
        gap = r["gap_to_baseline"]
        train = MISSING if not r["train_seconds"] else f"{r['train_seconds'] / 60:.1f}"
        body.append(
            [
                r["held_out"],
                r["model"],
                *(num(r["p_at_1"].get(p)) for p in pairs),
            ]
            + [num(r["mean"]), MISSING if gap is None else f"{gap:+.3f}", num(r["mean_other_sources"]), train]
        )
    first = {r["held_out"]: r for r in reversed(data["rows"])}
    counts = "; ".join(
        f"{held}: " + " / ".join(f"{r['test_pairs'][p]:,}" for p in pairs)
        for held, r in reversed(first.items())
    )
    return [
        data["protocol"],
        "",
        *table(head, body, "ll" + "r" * (len(head) - 2)),
        "",
        f"Test pairs per language pair ({' / '.join(pairs)}): {counts}.",
    ]


def monolingual_seeds(data: dict[str, Any]) -> list[str]:
    from lingualite.recipes.monolingual.seeds import seeds_markdown

    return seeds_markdown(data).rstrip("\n").splitlines()


def crash_harness(data: dict[str, Any]) -> list[str]:
    head = ["scenario", "trials", "kills", "failed trials", "uninterrupted run s", "command"]
    body = [
        [
            name,
            s["trials"],
            s["kills"],
            s["failed_trials"],
            num(s["reference_seconds"], 1),
            f"`{data['commands'][name]}`",
        ]
        for name, s in data["scenarios"].items()
    ]
    return table(head, body, "lrrrrl")
