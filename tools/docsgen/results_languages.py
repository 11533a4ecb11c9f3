"""Renderers of the per-language results (language table, translation lengths), the vectors' sizes and
precisions (Matryoshka truncation, quantization) and the service's routes under load."""

from __future__ import annotations

from typing import Any

from lingualite.text.languages import CORE
from tools.docsgen.markdown import MISSING, num, short_spec, table

MATRYOSHKA = (
    "python benchmarks/matryoshka_quantization.py --matryoshka runs/distill-mrl --plain runs/distill "
    "--pairs 'data/prepared/*/test.tsv' --max-pairs 2000 --out benchmarks/results/matryoshka_quantization"
)


def _gap(value: float | None, ref: float | None) -> str:
    if value is None:
        return MISSING
    return num(value) if ref is None else f"{num(value)} ({value - ref:+.3f})"


def language_table(data: dict[str, Any]) -> list[str]:
    """P@1 per pair (rows) and model (columns), each with its gap to the reference; then the within-bar counts."""
    models, ref = data["models"], data["reference"]
    scores = data["p_at_1"]
    head = ["pair", "pairs", *(short_spec(m) for m in models)]
    body = []
    for pair, size in data["pairs"].items():
        reference = scores[ref].get(pair)
        cells = [
            num(scores[m].get(pair)) if m == ref else _gap(scores[m].get(pair), reference) for m in models
        ]
        body.append([pair, f"{size:,}", *cells])
    lines = [*table(head, body, "lr" + "r" * len(models)), ""]
    lines.append(
        f"Rows `everyday/…`: the {next((n for k, n in data['pairs'].items() if k.startswith('everyday/')), 40)} "
        "shipped everyday sentences "
        f"per language. Within {data['bar']:.2f} of "
        f"{short_spec(ref)} on the held-out test pairs (not the everyday ones):"
    )
    lines.append("")
    for model, row in data["within_bar"].items():
        lines.append(
            f"- {short_spec(model)}: {row['within']}/{row['pairs']} pairs; worst gap {row['worst_gap']:+.3f} "
            f"({row['worst_pair']})"
        )
    return lines


def everyday_table(data: dict[str, Any]) -> list[str]:
    """Mean P@1 per everyday register (rows) and model (columns): over the en-xx pairs / over every pair."""
    models = data["models"]
    registers = list(data["p_at_1"][models[0]])
    body = []
    for reg in registers:
        cells = []
        for m in models:
            values = data["p_at_1"][m][reg]
            en = [v for pair, v in values.items() if "en" in pair.split("-")]
            cells.append(f"{num(sum(en) / len(en))} / {num(sum(values.values()) / len(values))}")
        body.append([reg, *cells])
    langs = data.get("langs") or sorted(
        {lang for pair in data["p_at_1"][models[0]]["all"] for lang in pair.split("-")}
    )
    note = (
        "XSR P@1 (both directions) among each register's sentences (`all`: the 300 together), mean over the "
        f"en-xx pairs / over every pair of the {len(langs)} languages."
    )
    head = [*table(["register", *(short_spec(m) for m in models)], body, "l" + "r" * len(models)), "", note]
    if len(langs) <= len(CORE):  # the 13: the register means say it all
        return head
    rows = [
        [f"en-{lang}", *(num(data["p_at_1"][m]["all"][f"en-{lang}"]) for m in models)]
        for lang in langs
        if lang != "en"
    ]
    per_lang = table(["pair, all registers", *(short_spec(m) for m in models)], rows, "l" + "r" * len(models))
    return [*head, "", *per_lang]


def length_ratios(data: dict[str, Any]) -> list[str]:
    head = ["language", "pairs", "median chars per English char", "q1", "q3"]
    body = [
        [lang, f"{row['pairs']:,}", num(row["median"]), num(row["q1"]), num(row["q3"])]
        for lang, row in data["length_vs_english"].items()
    ]
    return [*table(head, body, "lrrrr")]


def matryoshka_quantization(data: dict[str, Any]) -> list[str]:
    """Mean XSR P@1 at each size and precision, for the Matryoshka model and the plain one, and the checks."""
    head = ["model", "dimensions", "float32", "int8", "binary", "binary + rescoring"]
    body = []
    for name, result in data["results"].items():
        for size, row in result["mean"].items():
            precisions = [row.get(p) for p in ("float32", "int8", "binary", "binary+rescore")]
            body.append([name, size, *(num(p) for p in precisions)])
    lines = [*table(head, body, "lrrrrr"), ""]
    lines += [f"- {key}: {value}" for key, value in data["checks"].items()]
    return lines


def serve_routes(data: dict[str, Any]) -> list[str]:
    """Requests per second per route (and round), with the poisoned requests' answers when there were any."""
    s = data["settings"]
    head = ["model", "route", "round", "max batch", "requests/s", "p50 ms", "p95 ms", "errors"]
    head += ["good requests that succeeded", "poisoned requests"]
    body = [
        [
            short_spec(r["model"]),
            r.get("route", "/encode"),
            r.get("round", 1),
            r["max_batch"],
            num(r["requests_per_second"], 1),
            num(r["latency_ms_p50"], 0),
            num(r["latency_ms_p95"], 0),
            r["errors"],
            f"{r['good_success_rate']:.1%}",
            ", ".join(f"{n} x HTTP {code}" for code, n in r.get("poisoned_requests", {}).items()) or MISSING,
        ]
        for r in data["rows"]
    ]
    note = (
        f"{s['clients']} concurrent clients for {s['seconds']:g} s, {s['texts_per_request']} sentence a request, "
        f"{s['poison']:.0%} of requests poisoned; server and clients on the same {s['cpu_count']} cores."
    )
    return [note, "", *table(head, body, "llrrrrrrrl")]


def any_pair_table(data: dict[str, Any]) -> list[str]:
    """Retrieval between any two languages (``benchmarks/any_pair_table.py``): one summary row per model."""
    head = ["model", "pairs scored", "mean", "en-xx mean", "non-English mean", "worst pair", "pairs < 0.85"]
    body = [
        [
            short_spec(model),
            str(row["pairs"]),
            num(row["mean"]),
            num(row["english_mean"]),
            num(row["non_english_mean"]),
            f"{row['worst_pair']} {num(row['worst'])}",
            str(row["below_0.85"]),
        ]
        for model, row in data["summary"].items()
    ]
    lines = [*table(head, body, "lrrrrlr"), ""]
    lines.append(
        f"Pools of at most {data['max_pairs']} held-out pairs among {len(data['langs'])} languages; "
        f"{len(data['too_small'])} pairs with fewer than {data['min_pairs']} joined pairs and "
        f"{len(data['missing'])} with none (no English unit held out in both languages' sources) are not scored."
    )
    return lines


def teacher_map(data: dict[str, Any]) -> list[str]:
    """The second teacher's map (``benchmarks/teacher_map.py``): XSR P@1 per language of each teacher in its
    own space and of USE-m's English vector against the mapped e5-small vector."""
    head = ["pair", "pairs", "USE-m", "e5-small", "USE-m (en) vs mapped e5-small (xx)"]
    body = [
        [f"en-{lang}", str(row["pairs"]), num(row["use-m"]), num(row["e5-small"]), num(row["mapped"])]
        for lang, row in data["p_at_1"].items()
    ]
    fit = data["fit"]
    return [
        f"Map fitted on {fit['texts']:,} lines of USE-m's languages; held-out cosine to USE-m "
        f"{fit['held_out_cosine']:.3f}.",
        "",
        *table(head, body, "lrrrr"),
    ]
